//! Speech recognition models: a whisper model in CTranslate2 format, which the inference
//! service's `speech` family runs with faster-whisper.
//!
//! A directory is a whisper model when its `model.bin` (or the first part of it) names the spec
//! `WhisperSpec`. It holds `config.json` (with `lang_ids`, the vocabulary ids of the language
//! tokens), `tokenizer.json` (without which faster-whisper would fetch one from a model hub),
//! `vocabulary.txt` or `vocabulary.json`, and perhaps `preprocessor_config.json`. `model.bin`
//! may come in parts, `model.bin.part1`, `model.bin.part2`, ..., which are joined in order (a
//! package index caps the size of one package, so some models are published in several).
//!
//! The installation is `<models dir>/<name>/` (the name defaults to the directory's):
//! `model/` with those files, `README.md` and `LICENSE` when the directory has them, and
//! `installed.json` with `"family": "speech"`, the languages the model recognises and whether it
//! is multilingual. It is staged, checked and put in place exactly as a translation model is.

use std::collections::BTreeMap;
use std::fs::{self, File};
use std::io::{self, BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, bail, ensure};
use serde::de::IgnoredAny;
use serde_json::Value;
use time::OffsetDateTime;

use super::{Install, Installation, Installed, Kind, model_bin};

/// The spec CTranslate2's whisper converter writes in `model.bin`'s header.
pub const SPEC: &str = "WhisperSpec";

/// A multilingual whisper vocabulary has at least this many tokens (English-only ones have one
/// fewer); CTranslate2's `Whisper.is_multilingual` draws the line here too.
const MULTILINGUAL_VOCABULARY: usize = 51_865;

/// The files of the model directory that are installed, besides `model.bin`.
const REQUIRED: [&str; 2] = ["config.json", "tokenizer.json"];
const VOCABULARIES: [&str; 2] = ["vocabulary.json", "vocabulary.txt"];
const OPTIONAL: [&str; 1] = ["preprocessor_config.json"];
/// Licence and attribution, installed beside `model/`.
const BESIDE: [&str; 2] = ["README.md", "LICENSE"];

/// Whether `dir` holds a whisper model: its `model.bin` or `model.bin.part1` names `WhisperSpec`.
pub fn is_whisper(dir: &Path) -> bool {
    [dir.join("model.bin"), dir.join("model.bin.part1")]
        .into_iter()
        .any(|path| path.is_file() && model_bin::spec_name(&path).ok().flatten().as_deref() == Some(SPEC))
}

/// Where `model.bin` comes from: the file itself, or its parts in order.
fn model_sources(dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let mut parts = BTreeMap::new();
    let listing = fs::read_dir(dir).with_context(|| format!("cannot read the directory {}", dir.display()))?;
    for entry in listing {
        let entry = entry.with_context(|| format!("cannot read the directory {}", dir.display()))?;
        let name = entry.file_name();
        let Some(number) = name.to_str().and_then(|name| name.strip_prefix("model.bin.part")) else { continue };
        // `part01` or `part0` would make the order ambiguous.
        match number.parse::<u32>() {
            Ok(parsed) if parsed > 0 && parsed.to_string() == number => {
                parts.insert(parsed, entry.path());
            }
            _ => bail!(
                "{} is not a part of model.bin: the parts are model.bin.part1, model.bin.part2, ...",
                entry.path().display()
            ),
        }
    }
    let whole = dir.join("model.bin");
    if parts.is_empty() {
        return Ok(vec![whole]);
    }
    ensure!(!whole.exists(), "{} has both model.bin and model.bin.part1, ...: keep one or the other", dir.display());
    for (expected, number) in (1..).zip(parts.keys()) {
        ensure!(
            *number == expected,
            "{} has no model.bin.part{expected}, but has model.bin.part{number}",
            dir.display()
        );
    }
    Ok(parts.into_values().collect())
}

/// Joins `sources` into `destination`, in order.
fn join(sources: &[PathBuf], destination: &Path) -> anyhow::Result<()> {
    let file = File::create(destination).with_context(|| format!("cannot create {}", destination.display()))?;
    let mut out = BufWriter::new(file);
    for source in sources {
        let mut input = File::open(source).with_context(|| format!("cannot open {}", source.display()))?;
        io::copy(&mut input, &mut out)
            .with_context(|| format!("cannot copy {} to {}", source.display(), destination.display()))?;
    }
    out.flush().with_context(|| format!("cannot write {}", destination.display()))
}

/// What the checks found.
#[derive(Debug)]
pub struct Checked {
    pub model: model_bin::Summary,
    pub languages: Vec<String>,
    pub multilingual: bool,
}

/// Checks the staged model directory `model` (copied from `from`): `model.bin` adds up,
/// `config.json` and `tokenizer.json` are JSON objects, and the vocabulary gives the languages.
pub fn check(model: &Path, from: &Path, shown_bin: &str) -> anyhow::Result<Checked> {
    let show = |file: &str| from.join(file).display().to_string();
    let summary = model_bin::check(&model.join("model.bin")).with_context(|| shown_bin.to_owned())?;
    ensure!(
        summary.spec.as_deref() == Some(SPEC),
        "{shown_bin}: it is a {} model, not a whisper model ({SPEC})",
        summary.spec.as_deref().unwrap_or("spec-less")
    );
    let config = json_object(&model.join("config.json"), 1 << 20).with_context(|| show("config.json"))?;
    json_object(&model.join("tokenizer.json"), 64 << 20).with_context(|| show("tokenizer.json"))?;
    let vocabulary = VOCABULARIES.into_iter().find(|name| model.join(name).is_file());
    let Some(vocabulary) = vocabulary else {
        bail!("{} has no vocabulary.txt or vocabulary.json, which CTranslate2 needs", from.display())
    };
    let tokens = tokens(&model.join(vocabulary)).with_context(|| show(vocabulary))?;
    let multilingual = tokens.len() >= MULTILINGUAL_VOCABULARY;
    let languages = if multilingual {
        languages(&config, &tokens).with_context(|| show("config.json"))?
    } else {
        // An English-only whisper model transcribes English only.
        vec!["en".to_owned()]
    };
    Ok(Checked { model: summary, languages, multilingual })
}

/// The codes of the language tokens that `lang_ids` points at in the vocabulary (`<|de|>`: `de`).
fn languages(config: &serde_json::Map<String, Value>, tokens: &[String]) -> anyhow::Result<Vec<String>> {
    let Some(Value::Array(ids)) = config.get("lang_ids") else {
        bail!("it has no lang_ids, the vocabulary ids of the languages a multilingual whisper model recognises")
    };
    ensure!(!ids.is_empty(), "its lang_ids is empty");
    let mut codes = Vec::with_capacity(ids.len());
    for id in ids {
        let token = id.as_u64().and_then(|id| tokens.get(usize::try_from(id).ok()?));
        let Some(token) = token else { bail!("lang_ids holds {id}, which is not a vocabulary id") };
        let code = token.strip_prefix("<|").and_then(|rest| rest.strip_suffix("|>"));
        let Some(code) =
            code.filter(|code| (2..=3).contains(&code.len()) && code.bytes().all(|b| b.is_ascii_lowercase()))
        else {
            bail!("lang_ids holds {id}, whose token {token:?} is not a language token such as <|de|>")
        };
        codes.push(code.to_owned());
    }
    Ok(codes)
}

/// The tokens of a vocabulary: a JSON list of strings, or one token a line.
fn tokens(path: &Path) -> anyhow::Result<Vec<String>> {
    let file = BufReader::new(File::open(path).context("cannot open it")?);
    let tokens: Vec<String> = if path.extension().is_some_and(|extension| extension == "json") {
        serde_json::from_reader(file).map_err(|error| anyhow::anyhow!("it is not a JSON list of tokens: {error}"))?
    } else {
        file.lines().collect::<io::Result<_>>().context("it is not a UTF-8 text file")?
    };
    ensure!(!tokens.is_empty(), "it lists no tokens");
    Ok(tokens)
}

/// Parses a JSON file of at most `limit` bytes that must hold an object; gives its fields (the
/// values of a large file are not kept).
fn json_object(path: &Path, limit: u64) -> anyhow::Result<serde_json::Map<String, Value>> {
    let length = fs::metadata(path).context("cannot read it")?.len();
    ensure!(length <= limit, "it is {length} bytes, more than the {limit} it may have");
    if length > 1 << 20 {
        let _: BTreeMap<String, IgnoredAny> = serde_json::from_reader(BufReader::new(File::open(path)?))
            .map_err(|error| anyhow::anyhow!("it is not a JSON object: {error}"))?;
        return Ok(serde_json::Map::new());
    }
    match serde_json::from_slice(&fs::read(path).context("cannot read it")?) {
        Ok(Value::Object(fields)) => Ok(fields),
        Ok(_) => bail!("it is not a JSON object"),
        Err(error) => bail!("it is not valid JSON: {error}"),
    }
}

/// A name the operator can see in listings and use as a directory name: letters, digits, `.`,
/// `_` and `-`, not starting with a dot, and not a language pair (those name translation models).
fn installation_name(name: &str) -> anyhow::Result<()> {
    ensure!(
        !name.is_empty()
            && !name.starts_with('.')
            && name.bytes().all(|byte| byte.is_ascii_alphanumeric() || b"._-".contains(&byte)),
        "`{name}` cannot name a speech model: use letters, digits, `.`, `_` and `-` (like whisper-base), not \
         starting with a dot"
    );
    let pair = name
        .split_once('-')
        .is_some_and(|(source, target)| catalogue::find(source).is_some() && catalogue::find(target).is_some());
    ensure!(!pair, "`{name}` cannot name a speech model: it reads as a language pair, which names a translation model");
    Ok(())
}

/// Installs the whisper model directory `request.from`; `now` is the install time.
pub fn install(request: &Install, now: OffsetDateTime) -> anyhow::Result<Installed> {
    let from = &request.from;
    for (flag, given) in [
        ("--source", request.source.is_some()),
        ("--target", request.target.is_some()),
        ("--sentencepiece", request.sentencepiece.is_some()),
    ] {
        ensure!(!given, "{flag} is for translation models; {} is a whisper (speech recognition) model", from.display());
    }
    let name = request.name.clone().unwrap_or_else(|| super::file_name(from));
    installation_name(&name)?;
    if let Some(version) = &request.version {
        ensure!(!version.trim().is_empty() && !version.contains(['\n', '\r']), "--version must be one non-empty line");
    }
    let sources = model_sources(from)?;
    let shown_bin = match sources.as_slice() {
        [whole] => whole.display().to_string(),
        parts => format!("model.bin joined from {} parts in {}", parts.len(), from.display()),
    };
    for required in REQUIRED {
        ensure!(
            from.join(required).is_file(),
            "{} is missing: a whisper model needs it",
            from.join(required).display()
        );
    }

    let models_dir = &request.models_dir;
    // Dropping it on the way out of an error deletes whatever was staged.
    let staging = tempfile::Builder::new()
        .prefix(".install-")
        .tempdir_in(models_dir)
        .with_context(|| format!("cannot create a staging directory in {}", models_dir.display()))?;
    let root = staging.path();
    let model_dir = root.join("model");
    fs::create_dir(&model_dir).with_context(|| format!("cannot create {}", model_dir.display()))?;
    join(&sources, &model_dir.join("model.bin"))?;
    let optional = VOCABULARIES.into_iter().chain(OPTIONAL);
    for file in REQUIRED.into_iter().chain(optional.filter(|file| from.join(file).is_file())) {
        copy(&from.join(file), &model_dir.join(file))?;
    }
    for file in BESIDE.into_iter().filter(|file| from.join(file).is_file()) {
        copy(&from.join(file), &root.join(file))?;
    }
    let checked = check(&model_dir, from, &shown_bin)?;

    let installation = Installation {
        kind: Kind::Speech { languages: checked.languages, multilingual: checked.multilingual },
        name,
        version: request.version.clone().unwrap_or_else(|| "0".into()),
        model: "model".into(),
        installed_from: super::file_name(from),
        installed_at: super::timestamp(now)?,
    };
    super::write_marker(root, &installation)?;
    let size = super::disk_size(root).with_context(|| format!("cannot measure {}", root.display()))?;
    let dir = models_dir.join(installation.dir_name());
    let replaced = super::put_in_place(staging, &dir)?;
    Ok(Installed { installation, dir, model: checked.model, size, replaced, left_out: Vec::new() })
}

fn copy(source: &Path, destination: &Path) -> anyhow::Result<()> {
    fs::copy(source, destination)
        .map(drop)
        .with_context(|| format!("cannot copy {} to {}", source.display(), destination.display()))
}
