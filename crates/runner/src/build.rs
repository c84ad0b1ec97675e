//! `glossa build`: runs each component's `[component.<id>.build]` commands, as `spin build` does.

use std::process::Command;

use anyhow::{Context, bail};

use crate::manifest::Manifest;

/// Builds the components named in `only` (every component with a build section when empty).
pub fn build(manifest: &Manifest, only: &[String]) -> anyhow::Result<()> {
    for id in only {
        if manifest.component(id).is_none() {
            bail!("there is no component `{id}` in {manifest}");
        }
    }
    let mut built = 0;
    for (id, component) in &manifest.components {
        if !only.is_empty() && !only.contains(id) {
            continue;
        }
        let Some(build) = &component.build else { continue };
        let steps = build.commands.len();
        for (index, command) in build.commands.iter().enumerate() {
            if steps == 1 {
                eprintln!("Building component {id} with `{command}`");
            } else {
                eprintln!("Running build step {}/{steps} for component {id} with `{command}`", index + 1);
            }
            let status =
                Command::new("sh").arg("-c").arg(command).current_dir(&build.workdir).status().with_context(|| {
                    format!("cannot run the build command of component `{id}` in {}", build.workdir.display())
                })?;
            if !status.success() {
                bail!("the build command for component `{id}` failed ({status})");
            }
        }
        built += 1;
    }
    if built == 0 {
        bail!("none of the components have a build command");
    }
    eprintln!("Finished building all components");
    Ok(())
}
