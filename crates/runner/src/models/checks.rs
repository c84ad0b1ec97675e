//! What the staged files must hold before an installation is put in place: a `metadata.json`
//! naming two languages Glossa knows, a SentencePiece model, and a complete CTranslate2 model
//! directory. Each check reads as little as it can: nothing here loads a model.

use std::fs::{self, File};
use std::io::{BufReader, Read};
use std::path::Path;

use anyhow::{Context, bail, ensure};
use serde_json::Value;

use super::model_bin;
use super::package::Origin;

/// The largest `metadata.json` or `config.json` read (real ones are a few hundred bytes).
const MAX_JSON_BYTES: u64 = 1 << 20;

/// What `metadata.json` says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Metadata {
    /// The source language's base code, lower case (`zh`).
    pub source: &'static str,
    /// The target language's base code, lower case (`en`).
    pub target: &'static str,
    /// `package_version`, `"0"` when there is none.
    pub version: String,
}

/// The base code, lower case, of the language `code` names (`pt-BR` gives `pt`); `field` names
/// where the code came from.
pub fn language(code: &str, field: &str) -> anyhow::Result<&'static str> {
    match catalogue::find(code) {
        Some(language) => Ok(language.base_code()),
        None => bail!("{field} `{code}` is not a language Glossa knows (see GET /v3/languages for the codes)"),
    }
}

/// Reads and checks an Argos Translate `metadata.json`.
pub fn metadata(path: &Path) -> anyhow::Result<Metadata> {
    let document = small_json(path)?;
    let Value::Object(fields) = document else { bail!("it is not a JSON object") };
    let code = |field: &str| -> anyhow::Result<&'static str> {
        match fields.get(field) {
            Some(Value::String(code)) => language(code, field),
            Some(_) => bail!("{field} is not a string"),
            None => bail!("it has no {field}, the language code the model translates from or to"),
        }
    };
    let (source, target) = (code("from_code")?, code("to_code")?);
    match fields.get("package_type") {
        None | Some(Value::Null) => {}
        Some(Value::String(kind)) if kind == "translate" => {}
        Some(kind) => bail!("package_type is {kind}: only translation packages (`translate`) can be installed"),
    }
    let version = match fields.get("package_version") {
        None | Some(Value::Null) => "0".to_owned(),
        Some(Value::String(version)) if !version.trim().is_empty() => version.trim().to_owned(),
        Some(Value::Number(version)) => version.to_string(),
        Some(other) => bail!("package_version is {other}, not a version such as \"1.9\""),
    };
    Ok(Metadata { source, target, version })
}

/// Checks that `path` is a non-empty file that starts like a SentencePiece model: a protobuf
/// message whose first field is field 1 (`pieces`), length-delimited, whose length fits the file.
pub fn sentencepiece(path: &Path) -> anyhow::Result<()> {
    let mut file = File::open(path).context("cannot open it")?;
    let length = file.metadata().context("cannot read its size")?.len();
    ensure!(length > 0, "it is empty");
    let mut start = Vec::with_capacity(11);
    file.by_ref().take(11).read_to_end(&mut start).context("cannot read it")?;
    ensure!(
        start[0] == 0x0a,
        "it is not a SentencePiece model: it does not start with the list of pieces (byte 0x0a), but with 0x{:02x}",
        start[0]
    );
    let (piece_length, varint_bytes) =
        varint(&start[1..]).context("it is not a SentencePiece model: it is cut short")?;
    let needed = (1 + varint_bytes as u64).saturating_add(piece_length);
    ensure!(needed <= length, "it is truncated: its first piece needs {needed} bytes, and the file has {length}");
    Ok(())
}

/// A protobuf varint at the start of `bytes`: its value and how many bytes it took.
fn varint(bytes: &[u8]) -> Option<(u64, usize)> {
    let mut value = 0u64;
    for (index, byte) in bytes.iter().enumerate().take(10) {
        value |= u64::from(byte & 0x7f) << (7 * index);
        if byte & 0x80 == 0 {
            return Some((value, index + 1));
        }
    }
    None
}

/// The vocabulary files CTranslate2 reads, in the order it looks for them.
const SHARED_VOCABULARY: [&str; 2] = ["shared_vocabulary.json", "shared_vocabulary.txt"];
const SOURCE_VOCABULARY: [&str; 2] = ["source_vocabulary.json", "source_vocabulary.txt"];
const TARGET_VOCABULARY: [&str; 2] = ["target_vocabulary.json", "target_vocabulary.txt"];

/// Checks the staged CTranslate2 model directory `dir` (`model/`): `model.bin` adds up,
/// `config.json` is a JSON object, and the vocabulary is there.
pub fn model_dir(dir: &Path, origin: &Origin) -> anyhow::Result<model_bin::Summary> {
    let show = |file: &str| origin.show(&format!("model/{file}"));
    let model_bin = dir.join("model.bin");
    ensure!(model_bin.is_file(), "{} is missing: it is the CTranslate2 model", show("model.bin"));
    let summary = model_bin::check(&model_bin).with_context(|| show("model.bin"))?;

    let config = dir.join("config.json");
    if config.is_file() {
        let document = small_json(&config).with_context(|| show("config.json"))?;
        ensure!(document.is_object(), "{}: it is not a JSON object", show("config.json"));
    } else {
        // CTranslate2 has written config.json beside every model since binary version 6.
        ensure!(
            summary.binary_version < 6,
            "{} is missing: CTranslate2 writes it beside every model of binary version 6",
            show("config.json")
        );
    }

    let find = |names: [&'static str; 2]| names.into_iter().find(|name| dir.join(name).is_file());
    let vocabularies = match (find(SHARED_VOCABULARY), find(SOURCE_VOCABULARY), find(TARGET_VOCABULARY)) {
        (Some(shared), _, _) => vec![shared],
        (None, Some(source), Some(target)) => vec![source, target],
        _ => bail!(
            "{} has no vocabulary: CTranslate2 needs shared_vocabulary.json (or .txt), or source_vocabulary and \
             target_vocabulary",
            origin.show("model")
        ),
    };
    for vocabulary in vocabularies {
        self::vocabulary(&dir.join(vocabulary)).with_context(|| show(vocabulary))?;
    }
    Ok(summary)
}

/// Checks a vocabulary: a JSON list of tokens (read as it streams by, tokens not kept) or a
/// text file with one token a line.
fn vocabulary(path: &Path) -> anyhow::Result<()> {
    let file = File::open(path).context("cannot open it")?;
    if path.extension().is_some_and(|extension| extension == "json") {
        let tokens: Vec<serde::de::IgnoredAny> = serde_json::from_reader(BufReader::new(file))
            .map_err(|error| anyhow::anyhow!("it is not a JSON list of tokens: {error}"))?;
        ensure!(!tokens.is_empty(), "it lists no tokens");
    } else {
        ensure!(file.metadata().context("cannot read its size")?.len() > 0, "it is empty");
    }
    Ok(())
}

/// Parses a small JSON file.
fn small_json(path: &Path) -> anyhow::Result<Value> {
    let length = fs::metadata(path).context("cannot read it")?.len();
    ensure!(length <= MAX_JSON_BYTES, "it is {length} bytes, too large for the small JSON file it should be");
    let text = fs::read(path).context("cannot read it")?;
    serde_json::from_slice(&text).map_err(|error| anyhow::anyhow!("it is not valid JSON: {error}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::models::testing;

    fn metadata_error(text: &str) -> String {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("metadata.json");
        fs::write(&path, text).unwrap();
        format!("{:#}", metadata(&path).expect_err("the metadata should be refused"))
    }

    #[test]
    fn metadata_gives_base_codes_and_a_version() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("metadata.json");
        fs::write(&path, testing::metadata("ZH", "en", "1.9")).unwrap();
        assert_eq!(metadata(&path).unwrap(), Metadata { source: "zh", target: "en", version: "1.9".into() });
        fs::write(&path, r#"{"from_code": "pt-br", "to_code": "en-GB", "package_type": "translate"}"#).unwrap();
        assert_eq!(metadata(&path).unwrap(), Metadata { source: "pt", target: "en", version: "0".into() });
    }

    #[test]
    fn bad_metadata_is_refused() {
        assert!(metadata_error("{nope").contains("not valid JSON"));
        assert!(metadata_error("[]").contains("not a JSON object"));
        assert!(metadata_error(r#"{"to_code": "en"}"#).contains("it has no from_code"));
        assert!(metadata_error(r#"{"from_code": 7, "to_code": "en"}"#).contains("from_code is not a string"));
        let unknown = metadata_error(r#"{"from_code": "zt", "to_code": "en"}"#);
        assert!(unknown.contains("from_code `zt` is not a language Glossa knows"), "{unknown}");
        let sbd = metadata_error(r#"{"from_code": "de", "to_code": "en", "package_type": "sbd"}"#);
        assert!(sbd.contains(r#"package_type is "sbd""#), "{sbd}");
        let version = metadata_error(r#"{"from_code": "de", "to_code": "en", "package_version": [1]}"#);
        assert!(version.contains("package_version is [1]"), "{version}");
    }

    #[test]
    fn sentencepiece_models_start_with_their_pieces() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sentencepiece.model");
        let check = |bytes: &[u8]| {
            fs::write(&path, bytes).unwrap();
            sentencepiece(&path).map_err(|error| format!("{error:#}"))
        };
        check(&testing::sentencepiece()).unwrap();
        assert!(check(b"").unwrap_err().contains("it is empty"));
        assert!(check(b"<unk>\n<s>\n").unwrap_err().contains("not a SentencePiece model"));
        assert!(check(&[0x0a, 0x80]).unwrap_err().contains("cut short"));
        assert!(check(&testing::sentencepiece()[..10]).unwrap_err().contains("truncated"));
    }

    #[test]
    fn varints_are_little_endian_groups_of_seven_bits() {
        assert_eq!(varint(&[0x0e]), Some((14, 1)));
        assert_eq!(varint(&[0xac, 0x02, 0xff]), Some((300, 2)));
        assert_eq!(varint(&[0xff]), None);
    }
}
