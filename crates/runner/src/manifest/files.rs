//! `files` mounts: copies of application files a component reads through WASI.
//!
//! As Spin does, the files are copied at start into a directory per component, which the
//! component sees read-only as `/`. A pattern entry (`"static/**/*"`, a file, or a directory)
//! keeps each file's path relative to the manifest's directory; a `{ source, destination }` entry
//! places a file or a directory's contents at `destination`. `exclude_files` patterns, matched
//! against paths relative to the manifest's directory, skip files.

use std::fs;
use std::path::{Component as PathPart, Path, PathBuf};

use anyhow::{Context, bail};
use glob::Pattern;

use crate::manifest::FileMount;

/// Copies a component's mounts into `target` (created), which becomes its `/`.
pub fn stage(app_dir: &Path, mounts: &[FileMount], exclude: &[String], target: &Path) -> anyhow::Result<()> {
    fs::create_dir_all(target).with_context(|| format!("cannot create {}", target.display()))?;
    let exclude = exclude
        .iter()
        .map(|pattern| {
            Pattern::new(pattern).with_context(|| format!("exclude_files entry `{pattern}` is not a glob pattern"))
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    let excluded = |relative: &Path| exclude.iter().any(|pattern| pattern.matches_path(relative));
    for mount in mounts {
        match mount {
            FileMount::Pattern(pattern) => stage_pattern(app_dir, pattern, &excluded, target)
                .with_context(|| format!("files entry `{pattern}`"))?,
            FileMount::Placement { source, destination } => {
                stage_placement(app_dir, source, destination, &excluded, target).with_context(|| {
                    format!("files entry {{ source = \"{source}\", destination = \"{destination}\" }}")
                })?
            }
        }
    }
    Ok(())
}

fn stage_pattern(app_dir: &Path, pattern: &str, excluded: &dyn Fn(&Path) -> bool, target: &Path) -> anyhow::Result<()> {
    check_relative(pattern)?;
    let source = app_dir.join(pattern);
    if source.is_file() {
        return copy_file(&source, &target.join(pattern));
    }
    if source.is_dir() {
        return copy_tree(app_dir, &source, &target.join(pattern), excluded);
    }
    if Pattern::escape(pattern) == pattern {
        bail!("{} does not exist and is not a glob pattern", source.display());
    }
    let full = app_dir.join(pattern);
    let full = full.to_str().context("the path is not UTF-8")?;
    for entry in glob::glob(full).context("not a glob pattern")? {
        let path = entry?;
        if !path.is_file() {
            continue;
        }
        let relative = path.strip_prefix(app_dir).context("a match lies outside the application directory")?;
        if !excluded(relative) {
            copy_file(&path, &target.join(relative))?;
        }
    }
    Ok(())
}

fn stage_placement(
    app_dir: &Path,
    source: &str,
    destination: &str,
    excluded: &dyn Fn(&Path) -> bool,
    target: &Path,
) -> anyhow::Result<()> {
    check_relative(source)?;
    let Some(destination) = destination.strip_prefix('/') else {
        bail!("destination must be an absolute path");
    };
    if Path::new(destination).components().any(|part| matches!(part, PathPart::ParentDir)) {
        bail!("destination must not contain `..`");
    }
    let from = app_dir.join(source);
    let to = target.join(destination);
    if from.is_file() {
        copy_file(&from, &to)
    } else if from.is_dir() {
        copy_tree(app_dir, &from, &to, excluded)
    } else {
        bail!("{} does not exist", from.display())
    }
}

fn check_relative(path: &str) -> anyhow::Result<()> {
    let path = Path::new(path);
    if path.is_absolute() {
        bail!("paths are relative to the manifest's directory");
    }
    if matches!(path.components().next_back(), Some(PathPart::ParentDir | PathPart::CurDir)) || path.as_os_str() == "."
    {
        bail!("a mount may not end in `.` or `..`");
    }
    Ok(())
}

fn copy_tree(app_dir: &Path, from: &Path, to: &Path, excluded: &dyn Fn(&Path) -> bool) -> anyhow::Result<()> {
    fs::create_dir_all(to)?;
    for entry in fs::read_dir(from).with_context(|| format!("cannot read {}", from.display()))? {
        let entry = entry?;
        let path = entry.path();
        let relative = path.strip_prefix(app_dir).unwrap_or(&path).to_path_buf();
        if entry.file_type()?.is_dir() {
            copy_tree(app_dir, &path, &to.join(entry.file_name()), excluded)?;
        } else if !excluded(&relative) {
            copy_file(&path, &to.join(entry.file_name()))?;
        }
    }
    Ok(())
}

fn copy_file(from: &Path, to: &Path) -> anyhow::Result<()> {
    if let Some(parent) = to.parent() {
        fs::create_dir_all(parent)?;
    }
    fs::copy(from, to).with_context(|| format!("cannot copy {}", from.display()))?;
    Ok(())
}

/// The staged directory of one component inside the runner's working directory.
pub fn component_dir(work_dir: &Path, component_id: &str) -> PathBuf {
    work_dir.join("assets").join(component_id)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn app() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for (path, text) in
            [("static/a.txt", "a"), ("static/sub/b.txt", "b"), ("static/skip.tmp", "x"), ("data/terms.tsv", "t")]
        {
            let path = dir.path().join(path);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, text).unwrap();
        }
        dir
    }

    #[test]
    fn patterns_keep_relative_paths_and_placements_move_files() {
        let app = app();
        let target = app.path().join("staged");
        let mounts = vec![
            FileMount::Pattern("static/**/*".into()),
            FileMount::Placement { source: "data".into(), destination: "/etc/data".into() },
        ];
        stage(app.path(), &mounts, &["**/*.tmp".into()], &target).unwrap();
        assert_eq!(fs::read_to_string(target.join("static/a.txt")).unwrap(), "a");
        assert_eq!(fs::read_to_string(target.join("static/sub/b.txt")).unwrap(), "b");
        assert!(!target.join("static/skip.tmp").exists());
        assert_eq!(fs::read_to_string(target.join("etc/data/terms.tsv")).unwrap(), "t");
    }

    #[test]
    fn a_missing_path_that_is_no_pattern_is_an_error() {
        let app = app();
        let error =
            stage(app.path(), &[FileMount::Pattern("missing.txt".into())], &[], &app.path().join("s")).unwrap_err();
        assert!(format!("{error:#}").contains("does not exist"));
    }

    #[test]
    fn escaping_the_application_directory_is_refused() {
        let app = app();
        let placement = FileMount::Placement { source: "data".into(), destination: "/../x".into() };
        assert!(stage(app.path(), &[placement], &[], &app.path().join("s")).is_err());
        assert!(stage(app.path(), &[FileMount::Pattern("/etc/passwd".into())], &[], &app.path().join("s")).is_err());
    }
}
