//! What is in the models folder: `glossa models list` and `glossa models remove`.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use serde::Serialize;

use super::{Installation, Kind, MARKER, PICKED_UP, disk_size, human_size, park, read_marker};

/// One installed model, as `glossa models list --json` prints it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Listed {
    #[serde(flatten)]
    pub installation: Installation,
    /// The installation's directory.
    pub path: PathBuf,
    /// Its size on disk, in bytes.
    pub size_bytes: u64,
}

/// Prints the installations, one line each (or a JSON array), and warns of directories that are
/// not installations.
pub fn list_command(models_dir: &Path, json: bool) -> anyhow::Result<()> {
    let (listed, problems) = list(models_dir)?;
    for problem in &problems {
        eprintln!("Warning: {problem}");
    }
    if json {
        println!("{}", serde_json::to_string_pretty(&listed).context("cannot write the list")?);
    } else {
        print!("{}", render(models_dir, &listed));
    }
    Ok(())
}

/// The installations in `models_dir`, by directory, and what is wrong with directories that look
/// like installations but are not (the service ignores those).
pub fn list(models_dir: &Path) -> anyhow::Result<(Vec<Listed>, Vec<String>)> {
    let entries = match fs::read_dir(models_dir) {
        Ok(entries) => entries,
        Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok((Vec::new(), Vec::new())),
        Err(error) => {
            return Err(error).with_context(|| format!("cannot read the models folder {}", models_dir.display()));
        }
    };
    let (mut listed, mut problems) = (Vec::new(), Vec::new());
    for entry in entries {
        let entry = entry.with_context(|| format!("cannot read the models folder {}", models_dir.display()))?;
        let path = entry.path();
        if entry.file_name().to_string_lossy().starts_with('.') || !path.is_dir() {
            continue;
        }
        if !path.join(MARKER).exists() {
            problems.push(format!("{} has no installed.json: it is not an installation", path.display()));
            continue;
        }
        // Either may fail if the installation is being replaced or removed meanwhile.
        match read_marker(&path).and_then(|installation| {
            let size_bytes = disk_size(&path).with_context(|| format!("cannot measure {}", path.display()))?;
            Ok(Listed { installation, path, size_bytes })
        }) {
            Ok(found) => listed.push(found),
            Err(error) => problems.push(format!("{error:#}")),
        }
    }
    listed.sort_by(|a, b| a.path.cmp(&b.path));
    Ok((listed, problems))
}

/// The text of `glossa models list`: one aligned line per installation, or a note.
pub fn render(models_dir: &Path, listed: &[Listed]) -> String {
    if listed.is_empty() {
        return format!(
            "No models are installed in {}: install one with `glossa models install FILE.argosmodel`.\n",
            models_dir.display()
        );
    }
    let rows: Vec<[String; 5]> = listed
        .iter()
        .map(|listed| {
            let installation = &listed.installation;
            let what = match &installation.kind {
                Kind::Translation { .. } => installation.name.clone(),
                Kind::Speech { languages, .. } => format!("speech recognition, {}", self::languages(languages)),
            };
            [
                installation.dir_name(),
                what,
                format!("version {}", installation.version),
                human_size(listed.size_bytes),
                format!("installed {}", installation.installed_at),
            ]
        })
        .collect();
    let widths: Vec<usize> =
        (0..5).map(|column| rows.iter().map(|row| row[column].chars().count()).max().unwrap_or(0)).collect();
    let mut text = String::new();
    for row in rows {
        let cells: Vec<String> = row.iter().zip(&widths).map(|(cell, width)| format!("{cell:width$}")).collect();
        text.push_str(cells.join("  ").trim_end());
        text.push('\n');
    }
    text
}

/// The languages a speech model recognises, for people: `en`, or `99 languages`.
pub fn languages(codes: &[String]) -> String {
    match codes {
        [one] => one.clone(),
        many => format!("{} languages", many.len()),
    }
}

/// Removes the installation of `pair` and says so.
pub fn remove_command(models_dir: &Path, pair: &str) -> anyhow::Result<()> {
    let removed = remove(models_dir, pair)?;
    match &removed {
        Some(installation) => println!(
            "Removed {} ({} version {}) from {}.",
            installation.dir_name(),
            installation.name,
            installation.version,
            models_dir.display()
        ),
        None => println!("Removed {pair} from {}.", models_dir.display()),
    }
    match removed.map(|installation| installation.kind) {
        Some(Kind::Speech { .. }) => println!("{PICKED_UP}."),
        _ => println!("{PICKED_UP}; the language listings stop showing the pair within 15 seconds."),
    }
    Ok(())
}

/// Removes the installation of `pair` (`zh-en`), or of the speech model of that name
/// (`whisper-tiny.en`): renamed out of the service's sight, then deleted. Gives what its
/// installed.json said, if it had one.
pub fn remove(models_dir: &Path, pair: &str) -> anyhow::Result<Option<Installation>> {
    let name = pair_dir(pair).or_else(|error| speech_dir(pair).ok_or(error))?;
    let dir = models_dir.join(&name);
    let parked = park(&dir)?.with_context(|| {
        format!("no model for {name} is installed in {} (see `glossa models list`)", models_dir.display())
    })?;
    let installation = read_marker(&parked.path).ok();
    let shown = parked.holder.path().display().to_string();
    parked.holder.close().with_context(|| {
        format!("{} is out of the service's sight in {shown}, but cannot be deleted; delete it by hand", dir.display())
    })?;
    Ok(installation)
}

/// The directory name of a speech model the operator named (`whisper-tiny.en`): the name itself,
/// when it could be one.
fn speech_dir(name: &str) -> Option<String> {
    let plain = name.bytes().all(|byte| byte.is_ascii_alphanumeric() || b"._-".contains(&byte));
    (plain && !name.starts_with('.') && !name.is_empty()).then(|| name.to_owned())
}

/// The directory name of a pair the operator typed (`ZH-en` gives `zh-en`).
fn pair_dir(pair: &str) -> anyhow::Result<String> {
    let codes = pair.split_once('-').filter(|(source, target)| {
        [source, target].iter().all(|code| !code.is_empty() && code.chars().all(|c| c.is_ascii_alphanumeric()))
    });
    let Some((source, target)) = codes else {
        bail!(
            "`{pair}` is not a language pair or a speech model's name: give the source and target codes joined by a \
             dash, like zh-en, or the name `glossa models list` shows, like whisper-base"
        )
    };
    // Codes of the catalogue become base codes, as installations are named; others are kept, so
    // that whatever an older install left can still be removed.
    let code = |code: &str| catalogue::find(code).map_or_else(|| code.to_ascii_lowercase(), |l| l.base_code().into());
    Ok(format!("{}-{}", code(source), code(target)))
}
