//! Getting a model's files into the staging directory: unpacking an Argos Translate package
//! (`.argosmodel`, a zip file) with care, or copying a model directory.
//!
//! Either way the staging directory ends up with the installed layout: `model/`,
//! `sentencepiece.model`, and `metadata.json` and `README.md` when the source has them.
//! Checking what those files hold is `checks.rs`' job.

use std::collections::BTreeSet;
use std::fs::{self, File, OpenOptions};
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, bail, ensure};
use zip::ZipArchive;

/// The files of a package that are installed, besides everything under `model/`.
const PACKAGE_FILES: [&str; 3] = ["metadata.json", "README.md", "sentencepiece.model"];
/// The files a package must have.
const REQUIRED: [&str; 3] = ["metadata.json", "sentencepiece.model", "model/model.bin"];

/// What a zip file may hold before it is refused.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Entries in the archive, skipped ones included (a package has about a dozen).
    pub entries: usize,
    /// Bytes written, all entries together.
    pub total_bytes: u64,
    /// How many times larger than its compressed form an entry may be...
    pub ratio: u64,
    /// ... once it is larger than this (small files may compress as well as they like).
    pub ratio_exempt_bytes: u64,
}

impl Limits {
    pub const DEFAULT: Limits =
        Limits { entries: 10_000, total_bytes: 4 << 30, ratio: 100, ratio_exempt_bytes: 1 << 20 };
}

/// Where the staged files came from, to name them in errors: the staging directory is deleted
/// when something is wrong, so its paths would mean nothing to the operator.
#[derive(Debug, Clone)]
pub enum Origin {
    /// An entry `<top>/<path>` of the package file.
    Package { top: String },
    /// Files copied from a directory: the model's files from `model`, the SentencePiece model
    /// from `sentencepiece`, the others from `root`.
    Directory { root: PathBuf, model: PathBuf, sentencepiece: PathBuf },
}

impl Origin {
    /// How to name the staged file at `path` (`model/model.bin`, `metadata.json`).
    pub fn show(&self, path: &str) -> String {
        match self {
            Origin::Package { top } => format!("{top}/{path}"),
            Origin::Directory { root, model, sentencepiece } => match path.strip_prefix("model/") {
                Some(file) => model.join(file).display().to_string(),
                None if path == "model" => model.display().to_string(),
                None if path == "sentencepiece.model" => sentencepiece.display().to_string(),
                None => root.join(path).display().to_string(),
            },
        }
    }
}

/// What was staged.
#[derive(Debug)]
pub struct Staged {
    /// The name the installation gets unless `--name` says otherwise: the package's top-level
    /// directory (`translate-zh_en-1_9`), or the directory's name.
    pub name: String,
    pub origin: Origin,
    /// The package's top-level entries that were left out (`stanza`).
    pub left_out: BTreeSet<String>,
}

/// One entry to extract.
struct Planned {
    index: usize,
    /// Its path inside the installation (`model/model.bin`).
    path: String,
    /// Its name in the archive, for errors.
    name: String,
    is_dir: bool,
    size: u64,
}

/// Unpacks the package `file` into `into` (an empty directory), with the default limits.
pub fn unpack(file: &Path, into: &Path) -> anyhow::Result<Staged> {
    unpack_with(file, into, Limits::DEFAULT)
}

/// Unpacks the package `file` into `into`.
///
/// Every entry is looked at before anything is written: entries whose path escapes the archive,
/// symbolic links, a second top-level directory, too many entries, a total size over the limit
/// or an entry that would expand suspiciously much refuse the whole package. Only what is
/// installed is then extracted, each entry streamed to disk and capped at the size its header
/// declared (so the bytes written stay within the limits whatever the header says); the zip
/// reader checks each entry's CRC-32 at its end.
pub fn unpack_with(file: &Path, into: &Path, limits: Limits) -> anyhow::Result<Staged> {
    let opened = File::open(file).context("cannot open it")?;
    let file_length = opened.metadata().context("cannot read its size")?.len();
    let mut archive = ZipArchive::new(BufReader::new(opened))
        .context("it is not a readable zip archive (an .argosmodel package is a zip file)")?;
    let entries = archive.len();
    ensure!(entries > 0, "the zip archive is empty");
    ensure!(
        entries <= limits.entries,
        "the zip archive has {entries} entries, more than the {} a model package may have",
        limits.entries
    );

    let mut top: Option<String> = None;
    let mut plan = Vec::new();
    let mut left_out = BTreeSet::new();
    let mut declared_total = 0u64;
    for index in 0..entries {
        // The raw entry: its header only, nothing is decompressed yet.
        let entry = archive.by_index_raw(index).with_context(|| format!("cannot read entry #{}", index + 1))?;
        let name = entry.name().to_owned();
        let path = entry.enclosed_name().with_context(|| {
            format!("entry `{name}` has an unsafe path: it would land outside the package directory")
        })?;
        ensure!(
            !entry.is_symlink(),
            "entry `{name}` is a symbolic link; a package may hold only files and directories"
        );
        let parts: Vec<String> =
            path.components().map(|part| part.as_os_str().to_string_lossy().into_owned()).collect();
        let Some((first, rest)) = parts.split_first() else { bail!("entry `{name}` has an empty path") };
        if first == "__MACOSX" {
            // Finder's resource forks, added when a package is zipped on a Mac.
            continue;
        }
        match &top {
            None => top = Some(first.clone()),
            Some(top) if top != first => {
                bail!("it has more than one top-level entry (`{top}/` and `{first}`); a package is a single directory")
            }
            Some(_) => {}
        }
        if rest.is_empty() {
            ensure!(entry.is_dir(), "entry `{name}` is a file beside the package directory, not inside it");
            continue;
        }
        let installed = rest[0] == "model" || (rest.len() == 1 && PACKAGE_FILES.contains(&rest[0].as_str()));
        if !installed {
            left_out.insert(rest[0].clone());
            continue;
        }
        let (size, compressed) = (entry.size(), entry.compressed_size());
        ensure!(
            compressed <= file_length,
            "entry `{name}` claims {compressed} compressed bytes, more than the whole file has: the archive is corrupt"
        );
        ensure!(
            size <= limits.ratio_exempt_bytes || size / compressed.max(1) < limits.ratio,
            "entry `{name}` would expand from {compressed} to {size} bytes, a ratio that suggests a zip bomb (the \
             limit is {}:1)",
            limits.ratio
        );
        declared_total = declared_total.saturating_add(size);
        ensure!(
            declared_total <= limits.total_bytes,
            "the package would unpack to more than {} bytes, the most a model package may hold",
            limits.total_bytes
        );
        plan.push(Planned { index, path: rest.join("/"), name, is_dir: entry.is_dir(), size });
    }
    let top = top.context("the zip archive holds no package directory")?;
    for required in REQUIRED {
        ensure!(
            plan.iter().any(|entry| !entry.is_dir && entry.path == required),
            "it has no {top}/{required}, which every model package has"
        );
    }

    let mut written_total = 0u64;
    for planned in &plan {
        // Every part of the path is a plain name (enclosed_name resolved `.` and `..`).
        let destination = into.join(&planned.path);
        if planned.is_dir {
            fs::create_dir_all(&destination).with_context(|| format!("cannot create {}", destination.display()))?;
            continue;
        }
        if let Some(parent) = destination.parent() {
            fs::create_dir_all(parent).with_context(|| format!("cannot create {}", parent.display()))?;
        }
        let name = &planned.name;
        let mut entry = archive.by_index(planned.index).with_context(|| format!("cannot read entry `{name}`"))?;
        let written = extract(&mut entry, &destination, planned.size).with_context(|| format!("entry `{name}`"))?;
        written_total += written;
        ensure!(written_total <= limits.total_bytes, "the package unpacks to more than {} bytes", limits.total_bytes);
    }
    Ok(Staged { name: top.clone(), origin: Origin::Package { top }, left_out })
}

/// Streams one entry to a new file at `destination`, writing at most the `declared` bytes.
fn extract(entry: &mut impl Read, destination: &Path, declared: u64) -> anyhow::Result<u64> {
    let file = match OpenOptions::new().write(true).create_new(true).open(destination) {
        Ok(file) => file,
        Err(error) if error.kind() == io::ErrorKind::AlreadyExists => {
            bail!("it appears twice in the archive")
        }
        Err(error) => return Err(error).with_context(|| format!("cannot create {}", destination.display())),
    };
    let mut out = BufWriter::new(file);
    // One byte more than declared tells a lying header from an honest one.
    let written = io::copy(&mut entry.take(declared + 1), &mut out).context("it is corrupt")?;
    ensure!(written <= declared, "it holds more data than the {declared} bytes its header declares");
    ensure!(written == declared, "it is truncated: {written} of the {declared} bytes its header declares");
    out.flush().with_context(|| format!("cannot write {}", destination.display()))?;
    Ok(written)
}

/// Copies a model directory into `into`.
///
/// `dir` is either an unpacked package (it has `metadata.json`; the model is in `dir/model/`) or
/// a CTranslate2 model directory (it has `model.bin`). The SentencePiece model is `sentencepiece`
/// when given, else `dir/sentencepiece.model`.
pub fn copy_directory(dir: &Path, sentencepiece: Option<&Path>, into: &Path) -> anyhow::Result<Staged> {
    let is_package = dir.join("metadata.json").is_file();
    let model = if is_package { dir.join("model") } else { dir.to_path_buf() };
    ensure!(
        is_package || dir.join("model.bin").is_file(),
        "{} is neither a CTranslate2 model directory (it has no model.bin) nor an unpacked model package (it has \
         no metadata.json)",
        dir.display()
    );
    let sentencepiece = sentencepiece.map_or_else(|| dir.join("sentencepiece.model"), Path::to_path_buf);
    ensure!(
        sentencepiece.is_file(),
        "there is no SentencePiece model at {}: put sentencepiece.model in the directory or name it with \
         --sentencepiece FILE",
        sentencepiece.display()
    );
    let origin =
        Origin::Directory { root: dir.to_path_buf(), model: model.clone(), sentencepiece: sentencepiece.clone() };

    copy_file(&sentencepiece, &into.join("sentencepiece.model"))?;
    for file in ["metadata.json", "README.md"] {
        let source = dir.join(file);
        if source.is_file() {
            copy_file(&source, &into.join(file))?;
        }
    }
    let model_into = into.join("model");
    fs::create_dir(&model_into).with_context(|| format!("cannot create {}", model_into.display()))?;
    let listing = fs::read_dir(&model).with_context(|| format!("cannot read the directory {}", model.display()))?;
    for entry in listing {
        let entry = entry.with_context(|| format!("cannot read the directory {}", model.display()))?;
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        // In a plain model directory the SentencePiece model and the package files sit beside
        // model.bin; they are installed beside model/, not in it. Hidden files stay behind.
        let beside = !is_package && (PACKAGE_FILES.contains(&name) || name == "installed.json");
        let source = entry.path();
        if name.starts_with('.') || beside || source == sentencepiece || !source.is_file() {
            continue;
        }
        copy_file(&source, &model_into.join(name))?;
    }
    Ok(Staged { name: super::file_name(dir), origin, left_out: BTreeSet::new() })
}

fn copy_file(source: &Path, destination: &Path) -> anyhow::Result<()> {
    fs::copy(source, destination)
        .map(drop)
        .with_context(|| format!("cannot copy {} to {}", source.display(), destination.display()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::models::testing::{Entry, package_entries, write_zip};

    fn unpack_error(entries: &[Entry], limits: Limits) -> String {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("package.argosmodel");
        write_zip(&file, entries);
        let into = dir.path().join("into");
        fs::create_dir(&into).unwrap();
        format!("{:#}", unpack_with(&file, &into, limits).expect_err("unpacking should fail"))
    }

    #[test]
    fn the_package_directory_becomes_the_installed_layout() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("package.argosmodel");
        write_zip(&file, &package_entries("translate-de_en-1_0", "de", "en", "1.0"));
        let into = dir.path().join("into");
        fs::create_dir(&into).unwrap();
        let staged = unpack(&file, &into).unwrap();
        assert_eq!(staged.name, "translate-de_en-1_0");
        assert_eq!(staged.left_out, BTreeSet::from(["stanza".to_owned()]));
        let mut files: Vec<String> = walk(&into);
        files.sort();
        assert_eq!(
            files,
            [
                "README.md",
                "metadata.json",
                "model/",
                "model/config.json",
                "model/model.bin",
                "model/shared_vocabulary.json",
                "sentencepiece.model"
            ]
        );
    }

    fn walk(dir: &Path) -> Vec<String> {
        let mut found = Vec::new();
        for entry in fs::read_dir(dir).unwrap() {
            let entry = entry.unwrap();
            let name = entry.file_name().to_string_lossy().into_owned();
            if entry.file_type().unwrap().is_dir() {
                found.push(format!("{name}/"));
                found.extend(walk(&entry.path()).into_iter().map(|inner| format!("{name}/{inner}")));
            } else {
                found.push(name);
            }
        }
        found
    }

    #[test]
    fn limits_count_entries_ratios_and_total_size() {
        let entries = package_entries("p", "de", "en", "1");
        let few = Limits { entries: 5, ..Limits::DEFAULT };
        assert!(unpack_error(&entries, few).contains("has 11 entries, more than the 5"));
        let small = Limits { total_bytes: 100, ..Limits::DEFAULT };
        assert!(unpack_error(&entries, small).contains("more than 100 bytes"));
        let mut bomb = package_entries("p", "de", "en", "1");
        bomb.push(Entry::file("p/model/zeros.bin", vec![0; 2 << 20]));
        let message = unpack_error(&bomb, Limits::DEFAULT);
        assert!(message.contains("entry `p/model/zeros.bin` would expand from"), "{message}");
        assert!(message.contains("suggests a zip bomb"), "{message}");
    }

    #[test]
    fn entries_outside_the_package_directory_are_refused() {
        let mut entries = package_entries("p", "de", "en", "1");
        entries.push(Entry::file("q/other.txt", "x"));
        assert!(unpack_error(&entries, Limits::DEFAULT).contains("more than one top-level entry (`p/` and `q`)"));
        let mut entries = package_entries("p", "de", "en", "1");
        entries.push(Entry::file("loose.txt", "x"));
        assert!(unpack_error(&entries, Limits::DEFAULT).contains("more than one top-level entry"));
        let entries = vec![Entry::file("metadata.json", "{}")];
        assert!(unpack_error(&entries, Limits::DEFAULT).contains("is a file beside the package directory"));
    }
}
