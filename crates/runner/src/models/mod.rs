//! `glossa models`: installs, lists and removes the models that the neural inference service
//! loads from the models folder: translation models (CTranslate2 and SentencePiece) and speech
//! recognition models (whisper in CTranslate2 format, `speech.rs`).
//!
//! The folder holds one directory per translation language pair, named `<source>-<target>` with
//! the base codes in lower case (`zh-en`). Each has `model/` (a CTranslate2 model directory),
//! `sentencepiece.model`, the package's `metadata.json` and `README.md` (licence and attribution)
//! when it has them, and `installed.json`, written last, which marks the installation complete.
//! A speech model has a directory named after it (`whisper-base`) with `model/` and its own
//! `installed.json` (`"family": "speech"`). The inference service reads exactly this layout, and
//! ignores dot-directories and directories without `installed.json`.
//!
//! Nothing half-done is ever in sight of the service. An installation is unpacked and checked in
//! a dot-directory inside the folder, then renamed into place. An installation being replaced
//! or removed is first renamed into a dot-directory, then deleted. When anything is wrong,
//! the folder is left as it was.
//!
//! * `package.rs`: unpacks an Argos Translate package (`.argosmodel`, a zip file) within limits,
//!   or copies a model directory.
//! * `checks.rs`: `metadata.json`, the SentencePiece model and the CTranslate2 directory.
//! * `model_bin.rs`: walks CTranslate2's `model.bin` from header to end without loading it.
//! * `listing.rs`: `glossa models list` and `glossa models remove`.
//! * `speech.rs`: whisper model directories (their `model.bin` may come in parts, joined).

mod checks;
mod listing;
mod model_bin;
mod package;
mod speech;
#[cfg(test)]
mod testing;
#[cfg(test)]
mod tests;

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, bail, ensure};
use clap::{Args, Subcommand};
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

/// The models folder when neither `--models-dir` nor `GLOSSA_MODELS_DIR` says otherwise: inside
/// `.spin`, the state directory `glossa up` uses by default.
pub const DEFAULT_DIR: &str = ".spin/models";

/// The file that marks a complete installation.
const MARKER: &str = "installed.json";

/// What to tell the operator after a change, in the inference service's and the listings' terms.
const PICKED_UP: &str = "A running inference service picks the change up within a second";

#[derive(Subcommand)]
pub enum Command {
    /// Install a model package (.argosmodel), a CTranslate2 model directory or a whisper model.
    ///
    /// The new model replaces the installed model of the same language pair, if there is one.
    /// A package is installed as it is: `glossa models install translate-zh_en-1_9.argosmodel`.
    /// A directory holding model.bin (a CTranslate2 model) needs the languages:
    /// `glossa models install --source zh --target en DIR`, with sentencepiece.model in DIR or
    /// named by --sentencepiece. An unpacked package directory (with metadata.json) is installed
    /// like the package. A whisper model directory in CTranslate2 format (model.bin, config.json,
    /// tokenizer.json, vocabulary.txt) is installed as a speech recognition model named after the
    /// directory (or --name), replacing the one of that name; its model.bin may be split into
    /// model.bin.part1, model.bin.part2, ..., which are joined in order.
    Install(InstallArgs),
    /// List the installed models.
    List {
        #[command(flatten)]
        folder: Folder,
        /// Print a JSON array instead of one line per model.
        #[arg(long)]
        json: bool,
    },
    /// Remove the installed model of a language pair, or a speech model.
    Remove {
        #[command(flatten)]
        folder: Folder,
        /// The language pair, source and target codes joined by a dash (`zh-en`), or the name of a
        /// speech model (`whisper-base`).
        pair: String,
    },
}

/// The models folder.
#[derive(Args)]
pub struct Folder {
    /// The models folder the inference service loads from.
    #[arg(long, env = "GLOSSA_MODELS_DIR", default_value = DEFAULT_DIR)]
    models_dir: PathBuf,
}

#[derive(Args)]
pub struct InstallArgs {
    #[command(flatten)]
    folder: Folder,
    /// The language the model translates from (required for a CTranslate2 model directory; for
    /// a package, it must agree with its metadata.json).
    #[arg(long)]
    source: Option<String>,
    /// The language the model translates into (required for a CTranslate2 model directory; for
    /// a package, it must agree with its metadata.json).
    #[arg(long)]
    target: Option<String>,
    /// The installation's name (default: the package's directory, or the model directory's name;
    /// a speech model's directory in the models folder has this name).
    #[arg(long)]
    name: Option<String>,
    /// The installation's version (default: the package's package_version, else 0).
    #[arg(long)]
    version: Option<String>,
    /// The SentencePiece model of a CTranslate2 model directory (default: DIR/sentencepiece.model).
    #[arg(long, value_name = "FILE")]
    sentencepiece: Option<PathBuf>,
    /// The package file (.argosmodel) or model directory.
    #[arg(value_name = "PACKAGE|DIR")]
    from: PathBuf,
}

/// Runs a `glossa models` command.
pub fn run(command: Command) -> anyhow::Result<()> {
    match command {
        Command::Install(args) => install_command(&Install {
            models_dir: args.folder.models_dir,
            from: args.from,
            source: args.source,
            target: args.target,
            name: args.name,
            version: args.version,
            sentencepiece: args.sentencepiece,
        }),
        Command::List { folder, json } => listing::list_command(&folder.models_dir, json),
        Command::Remove { folder, pair } => listing::remove_command(&folder.models_dir, &pair),
    }
}

/// `installed.json`: what is installed, for the inference service and for `glossa models list`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Installation {
    /// The model family (`"family"`) and what only that family has.
    #[serde(flatten)]
    pub kind: Kind,
    /// The package's name (`translate-zh_en-1_9`, `whisper-base`).
    pub name: String,
    /// The package's version (`1.9`).
    pub version: String,
    /// The CTranslate2 model directory, relative to the installation (`model`).
    pub model: String,
    /// The file or directory name it was installed from.
    pub installed_from: String,
    /// When, in RFC 3339 UTC (`2026-11-26T10:00:00Z`).
    pub installed_at: String,
}

/// The family of an installation, written as `"family"` beside the fields only it has.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "family", rename_all = "lowercase")]
pub enum Kind {
    Translation {
        /// The source language's base code (`zh`).
        source: String,
        /// The target language's base code (`en`).
        target: String,
        /// The SentencePiece model, relative to the installation (`sentencepiece.model`).
        sentencepiece: String,
    },
    Speech {
        /// The codes of the languages it recognises, as whisper writes them (`["en"]`).
        languages: Vec<String>,
        /// Whether it is a multilingual whisper model (it detects the language spoken).
        multilingual: bool,
    },
}

impl Installation {
    /// The installation's directory name, which `glossa models remove` takes: a translation
    /// model's pair (`zh-en`), a speech model's name (`whisper-base`).
    pub fn dir_name(&self) -> String {
        match &self.kind {
            Kind::Translation { source, target, .. } => format!("{source}-{target}"),
            Kind::Speech { .. } => self.name.clone(),
        }
    }
}

/// An install request.
#[derive(Debug, Clone, Default)]
pub struct Install {
    pub models_dir: PathBuf,
    /// The package file or model directory.
    pub from: PathBuf,
    pub source: Option<String>,
    pub target: Option<String>,
    pub name: Option<String>,
    pub version: Option<String>,
    pub sentencepiece: Option<PathBuf>,
}

/// A finished installation.
#[derive(Debug)]
pub struct Installed {
    pub installation: Installation,
    /// Where it is: `<models dir>/<pair>`.
    pub dir: PathBuf,
    pub model: model_bin::Summary,
    /// Its size on disk, in bytes.
    pub size: u64,
    /// The installation it replaced.
    pub replaced: Option<Installation>,
    /// The package's top-level entries that were not installed (`stanza`).
    pub left_out: Vec<String>,
}

fn install_command(request: &Install) -> anyhow::Result<()> {
    let installed = install(request, OffsetDateTime::now_utc())?;
    let installation = &installed.installation;
    let pair = installation.dir_name();
    let model = &installed.model;
    println!(
        "Installed {pair}: {} version {} ({}{} variables, {}) in {}.",
        installation.name,
        installation.version,
        model.spec.as_ref().map(|spec| format!("{spec}, ")).unwrap_or_default(),
        model.variables,
        human_size(installed.size),
        installed.dir.display()
    );
    if let Some(replaced) = &installed.replaced {
        println!("It replaces {} version {} (installed {}).", replaced.name, replaced.version, replaced.installed_at);
    }
    if !installed.left_out.is_empty() {
        let left_out: Vec<String> = installed.left_out.iter().map(|name| format!("{name}/")).collect();
        println!("Left out what the inference service does not use: {}.", left_out.join(", "));
    }
    match &installation.kind {
        Kind::Translation { .. } => println!("{PICKED_UP}; the language listings show {pair} within 15 seconds."),
        Kind::Speech { languages, .. } => {
            println!("It recognises {}.", listing::languages(languages));
            println!("{PICKED_UP}.");
        }
    }
    Ok(())
}

/// Installs a package or model directory; `now` is the install time. When anything is wrong,
/// the models folder is left as it was.
pub fn install(request: &Install, now: OffsetDateTime) -> anyhow::Result<Installed> {
    let models_dir = &request.models_dir;
    // The folders this creates, deepest first.
    let created: Vec<&Path> =
        models_dir.ancestors().take_while(|dir| !dir.as_os_str().is_empty() && !dir.exists()).collect();
    let outcome = fs::create_dir_all(models_dir)
        .with_context(|| format!("cannot create the models folder {}", models_dir.display()))
        .and_then(|()| stage_and_install(request, now));
    if outcome.is_err() {
        // Leave no empty folder behind either (removing one that is not empty fails, harmlessly).
        for dir in created {
            if fs::remove_dir(dir).is_err() {
                break;
            }
        }
    }
    outcome.with_context(|| format!("cannot install {}", request.from.display()))
}

fn stage_and_install(request: &Install, now: OffsetDateTime) -> anyhow::Result<Installed> {
    let from = &request.from;
    let is_dir = fs::metadata(from).with_context(|| format!("cannot read {}", from.display()))?.is_dir();
    if is_dir && speech::is_whisper(from) {
        return speech::install(request, now);
    }
    // The operator's codes are checked before anything is unpacked.
    let source = request.source.as_deref().map(|code| checks::language(code, "--source")).transpose()?;
    let target = request.target.as_deref().map(|code| checks::language(code, "--target")).transpose()?;
    for (flag, value) in [("--name", &request.name), ("--version", &request.version)] {
        if let Some(value) = value {
            ensure!(!value.trim().is_empty() && !value.contains(['\n', '\r']), "{flag} must be one non-empty line");
        }
    }
    ensure!(
        is_dir || request.sentencepiece.is_none(),
        "--sentencepiece is for a model directory; a package carries its own sentencepiece.model"
    );

    let models_dir = &request.models_dir;
    // Dropping it on the way out of an error deletes whatever was staged.
    let staging = tempfile::Builder::new()
        .prefix(".install-")
        .tempdir_in(models_dir)
        .with_context(|| format!("cannot create a staging directory in {}", models_dir.display()))?;
    let root = staging.path();
    let staged = if is_dir {
        package::copy_directory(from, request.sentencepiece.as_deref(), root)?
    } else {
        package::unpack(from, root)?
    };
    let origin = &staged.origin;

    let metadata_file = root.join("metadata.json");
    let metadata = if metadata_file.is_file() {
        Some(checks::metadata(&metadata_file).with_context(|| origin.show("metadata.json"))?)
    } else {
        None
    };
    let shown = origin.show("metadata.json");
    let source = agree("--source", source, metadata.as_ref().map(|metadata| metadata.source), "from_code", &shown)?;
    let target = agree("--target", target, metadata.as_ref().map(|metadata| metadata.target), "to_code", &shown)?;
    ensure!(
        source != target,
        "it translates {source} into {target}: a translation model needs two different languages"
    );

    checks::sentencepiece(&root.join("sentencepiece.model")).with_context(|| origin.show("sentencepiece.model"))?;
    let model = checks::model_dir(&root.join("model"), origin)?;

    let version = request.version.clone().or_else(|| metadata.map(|metadata| metadata.version));
    let installation = Installation {
        kind: Kind::Translation {
            source: source.into(),
            target: target.into(),
            sentencepiece: "sentencepiece.model".into(),
        },
        name: request.name.clone().unwrap_or(staged.name),
        version: version.unwrap_or_else(|| "0".into()),
        model: "model".into(),
        installed_from: file_name(from),
        installed_at: timestamp(now)?,
    };
    write_marker(root, &installation)?;
    let size = disk_size(root).with_context(|| format!("cannot measure {}", root.display()))?;

    let dir = models_dir.join(installation.dir_name());
    let replaced = put_in_place(staging, &dir)?;
    Ok(Installed { installation, dir, model, size, replaced, left_out: staged.left_out.into_iter().collect() })
}

/// The last part of `path`'s name, `.` and `..` resolved (`model_data.argosmodel`).
fn file_name(path: &Path) -> String {
    let resolved = fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    resolved.file_name().unwrap_or(resolved.as_os_str()).to_string_lossy().into_owned()
}

/// The language of an installation from the flag and the package's metadata, which must agree.
fn agree(
    flag: &str,
    given: Option<&'static str>,
    metadata: Option<&'static str>,
    field: &str,
    shown: &str,
) -> anyhow::Result<&'static str> {
    match (given, metadata) {
        (Some(given), Some(found)) if given != found => {
            bail!("{flag} {given} disagrees with {shown}, whose {field} is {found}")
        }
        (Some(code), _) | (None, Some(code)) => Ok(code),
        (None, None) => bail!(
            "{flag} is needed: there is no metadata.json saying which languages the model translates (give both \
             --source and --target)"
        ),
    }
}

/// `2026-11-26T10:00:00Z`.
fn timestamp(now: OffsetDateTime) -> anyhow::Result<String> {
    let whole_seconds = now.to_offset(time::UtcOffset::UTC).replace_nanosecond(0).context("cannot round the time")?;
    whole_seconds.format(&Rfc3339).context("cannot format the time")
}

/// Writes `installed.json`, and makes sure it is on disk before the rename publishes it.
fn write_marker(root: &Path, installation: &Installation) -> anyhow::Result<()> {
    let path = root.join(MARKER);
    let mut text = serde_json::to_string_pretty(installation).context("cannot write installed.json")?;
    text.push('\n');
    let mut file = fs::File::create(&path).with_context(|| format!("cannot create {}", path.display()))?;
    file.write_all(text.as_bytes())
        .and_then(|()| file.sync_all())
        .with_context(|| format!("cannot write {}", path.display()))
}

/// Renames the staged installation to `dir`, moving an installation already there aside first
/// and deleting it afterwards; gives the installation it replaced.
fn put_in_place(staging: tempfile::TempDir, dir: &Path) -> anyhow::Result<Option<Installation>> {
    // Another install of the same pair may put its installation in place between the two
    // renames; that one is then moved aside too (the last install wins), a few times at most.
    const ATTEMPTS: usize = 5;
    let mut parked: Vec<Parked> = Vec::new();
    for attempt in 1..=ATTEMPTS {
        match park(dir) {
            Ok(old) => parked.extend(old),
            Err(error) => return Err(restore(parked, dir, error)),
        }
        match fs::rename(staging.path(), dir) {
            Ok(()) => break,
            Err(_) if attempt < ATTEMPTS && dir.exists() => continue,
            Err(error) => {
                let error = anyhow::Error::new(error)
                    .context(format!("cannot move the new installation into {}", dir.display()));
                return Err(restore(parked, dir, error));
            }
        }
    }
    // It has moved: nothing is left for the staging directory to clean up.
    let _ = staging.keep();
    let replaced = parked.first().and_then(|old| read_marker(&old.path).ok());
    for old in parked {
        old.delete();
    }
    Ok(replaced)
}

/// Puts the installation parked last back where it was, after `error`.
fn restore(mut parked: Vec<Parked>, dir: &Path, error: anyhow::Error) -> anyhow::Error {
    if let Some(last) = parked.pop() {
        let _ = fs::rename(&last.path, dir);
    }
    error
}

/// An installation renamed into a dot-directory of the models folder, out of the service's sight.
struct Parked {
    holder: tempfile::TempDir,
    path: PathBuf,
}

/// Moves the installation at `dir` into a new dot-directory beside it; `None` if there is none.
fn park(dir: &Path) -> anyhow::Result<Option<Parked>> {
    let parent = dir.parent().context("an installation is inside a models folder")?;
    let name = dir.file_name().context("an installation has a name")?;
    match fs::symlink_metadata(dir) {
        Ok(_) => {}
        Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(error) => return Err(error).with_context(|| format!("cannot read {}", dir.display())),
    }
    let holder = tempfile::Builder::new()
        .prefix(".old-")
        .tempdir_in(parent)
        .with_context(|| format!("cannot create a directory in {}", parent.display()))?;
    let path = holder.path().join(name);
    match fs::rename(dir, &path) {
        Ok(()) => Ok(Some(Parked { holder, path })),
        // Another install or remove of the pair moved it first.
        Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(error) => Err(error).with_context(|| format!("cannot move {} aside", dir.display())),
    }
}

impl Parked {
    /// Deletes the parked installation; a failure only leaves a dot-directory behind, which the
    /// service ignores, so it is reported and not an error.
    fn delete(self) {
        let shown = self.holder.path().display().to_string();
        if let Err(error) = self.holder.close() {
            eprintln!("Warning: cannot delete the old installation in {shown} ({error}); delete it by hand.");
        }
    }
}

fn read_marker(dir: &Path) -> anyhow::Result<Installation> {
    let path = dir.join(MARKER);
    let text = fs::read(&path).with_context(|| format!("cannot read {}", path.display()))?;
    serde_json::from_slice(&text).with_context(|| format!("{} is not a valid installed.json", path.display()))
}

/// The bytes of the files under `path`.
fn disk_size(path: &Path) -> io::Result<u64> {
    let metadata = fs::symlink_metadata(path)?;
    if !metadata.is_dir() {
        return Ok(metadata.len());
    }
    let mut total = 0;
    for entry in fs::read_dir(path)? {
        total += disk_size(&entry?.path())?;
    }
    Ok(total)
}

/// `12.3 MiB`.
fn human_size(bytes: u64) -> String {
    const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
    if bytes < 1024 {
        return format!("{bytes} bytes");
    }
    let mut size = bytes as f64 / 1024.0;
    let mut unit = 0;
    while size >= 1024.0 && unit + 1 < UNITS.len() {
        size /= 1024.0;
        unit += 1;
    }
    format!("{size:.1} {}", UNITS[unit])
}
