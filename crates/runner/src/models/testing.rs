//! Small synthetic model packages for the tests: CTranslate2 `model.bin` files in the real binary
//! layout, SentencePiece-looking files and `.argosmodel` zip files.

use std::io::{Cursor, Write};
use std::path::Path;

use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, ZipWriter};

/// One variable of a `model.bin`: `bytes` is both the size written in the header and the number
/// of data bytes that follow it.
#[derive(Clone)]
pub struct Variable {
    pub name: String,
    pub shape: Vec<u32>,
    pub data_type: u8,
    pub bytes: u32,
}

impl Variable {
    pub fn new(name: &str, shape: &[u32], data_type: u8, bytes: u32) -> Variable {
        Variable { name: name.into(), shape: shape.into(), data_type, bytes }
    }
}

/// A `model.bin` to write.
#[derive(Clone)]
pub struct ModelBin {
    pub version: u32,
    pub spec: String,
    pub revision: u32,
    pub variables: Vec<Variable>,
    pub aliases: Vec<(String, String)>,
}

impl ModelBin {
    /// A valid version 6 model with four variables of several types and shapes, and one alias.
    pub fn small() -> ModelBin {
        ModelBin {
            version: 6,
            spec: "TransformerSpec".into(),
            revision: 7,
            variables: vec![
                Variable::new("decoder/activation", &[], 1, 1),
                Variable::new("encoder/layer_0/weight", &[2, 3], 0, 24),
                Variable::new("decoder/embeddings/weight", &[4, 2], 1, 8),
                Variable::new("decoder/embeddings/weight_scale", &[4], 0, 16),
            ],
            aliases: vec![("decoder/projection/weight".into(), "decoder/embeddings/weight".into())],
        }
    }

    /// The file, laid out for `self.version` as CTranslate2's `model_spec.py` writes it.
    pub fn bytes(&self) -> Vec<u8> {
        fn string(out: &mut Vec<u8>, text: &str) {
            out.extend_from_slice(&(text.len() as u16 + 1).to_le_bytes());
            out.extend_from_slice(text.as_bytes());
            out.push(0);
        }
        let mut out = Vec::new();
        out.extend_from_slice(&self.version.to_le_bytes());
        if self.version >= 2 {
            string(&mut out, &self.spec);
            out.extend_from_slice(&self.revision.to_le_bytes());
        }
        out.extend_from_slice(&(self.variables.len() as u32).to_le_bytes());
        for (index, variable) in self.variables.iter().enumerate() {
            string(&mut out, &variable.name);
            out.push(variable.shape.len() as u8);
            for dimension in &variable.shape {
                out.extend_from_slice(&dimension.to_le_bytes());
            }
            if self.version >= 4 {
                out.push(variable.data_type);
                out.extend_from_slice(&variable.bytes.to_le_bytes());
            } else {
                let item_size: u32 = match variable.data_type {
                    1 => 1,
                    2 | 4 | 5 => 2,
                    _ => 4,
                };
                out.push(item_size as u8);
                out.extend_from_slice(&(variable.bytes / item_size).to_le_bytes());
            }
            out.extend((0..variable.bytes).map(|byte| (byte as u8).wrapping_mul(31).wrapping_add(index as u8)));
        }
        if self.version >= 3 {
            out.extend_from_slice(&(self.aliases.len() as u32).to_le_bytes());
            for (alias, name) in &self.aliases {
                string(&mut out, alias);
                string(&mut out, name);
            }
        }
        out
    }
}

/// The start of a real SentencePiece model: field 1 (a piece) holding `<unk>`, score 0, type 2.
pub fn sentencepiece() -> Vec<u8> {
    let mut bytes = vec![0x0a, 0x0e, 0x0a, 0x05];
    bytes.extend_from_slice(b"<unk>");
    bytes.extend_from_slice(&[0x15, 0, 0, 0, 0, 0x18, 0x02]);
    bytes.extend_from_slice(&[0x0a, 0x0c, 0x0a, 0x03]);
    bytes.extend_from_slice(b"<s>");
    bytes.extend_from_slice(&[0x15, 0, 0, 0, 0, 0x18, 0x03]);
    bytes
}

pub fn metadata(from: &str, to: &str, version: &str) -> Vec<u8> {
    format!(
        r#"{{"package_version": "{version}", "argos_version": "1.9.0", "from_code": "{from}", "from_name": "From", "to_code": "{to}", "to_name": "To"}}"#
    )
    .into_bytes()
}

pub const CONFIG: &[u8] = br#"{"add_source_bos": false, "add_source_eos": true, "unk_token": "<unk>"}"#;
pub const VOCABULARY: &[u8] = br#"["<unk>", "<s>", "</s>", "hello"]"#;
pub const README: &[u8] = b"# Test model\n\nLicensed CC-BY 4.0.\n";

/// An entry of a zip file to write.
pub enum Entry {
    /// A deflated file.
    File(String, Vec<u8>),
    /// A file stored without compression.
    Stored(String, Vec<u8>),
    Dir(String),
    Symlink(String, String),
}

impl Entry {
    pub fn file(name: impl Into<String>, bytes: impl Into<Vec<u8>>) -> Entry {
        Entry::File(name.into(), bytes.into())
    }

    pub fn name(&self) -> &str {
        match self {
            Entry::File(name, _) | Entry::Stored(name, _) | Entry::Dir(name) | Entry::Symlink(name, _) => name,
        }
    }
}

/// The entries of a good package translating `from` to `to`, under `top/`, stanza included.
pub fn package_entries(top: &str, from: &str, to: &str, version: &str) -> Vec<Entry> {
    vec![
        Entry::Dir(format!("{top}/")),
        Entry::file(format!("{top}/metadata.json"), metadata(from, to, version)),
        Entry::file(format!("{top}/README.md"), README),
        Entry::file(format!("{top}/sentencepiece.model"), sentencepiece()),
        Entry::Dir(format!("{top}/model/")),
        Entry::file(format!("{top}/model/config.json"), CONFIG),
        Entry::file(format!("{top}/model/model.bin"), ModelBin::small().bytes()),
        Entry::file(format!("{top}/model/shared_vocabulary.json"), VOCABULARY),
        Entry::Dir(format!("{top}/stanza/")),
        Entry::file(format!("{top}/stanza/resources.json"), "{}"),
        Entry::file(format!("{top}/stanza/zh-hans/tokenize/gsdsimp.pt"), vec![7; 1000]),
    ]
}

/// The entries of `package_entries` with the one named `name` replaced by `with` (or left out).
pub fn replace(entries: Vec<Entry>, name: &str, with: Option<Entry>) -> Vec<Entry> {
    let mut with = with;
    let entries: Vec<Entry> =
        entries.into_iter().filter_map(|entry| if entry.name() == name { with.take() } else { Some(entry) }).collect();
    assert!(with.is_none(), "there is no entry {name} to replace");
    entries
}

pub fn zip_bytes(entries: &[Entry]) -> Vec<u8> {
    let mut zip = ZipWriter::new(Cursor::new(Vec::new()));
    let deflated = SimpleFileOptions::default().compression_method(CompressionMethod::Deflated);
    let stored = SimpleFileOptions::default().compression_method(CompressionMethod::Stored);
    for entry in entries {
        match entry {
            Entry::File(name, bytes) => {
                zip.start_file(name.as_str(), deflated).unwrap();
                zip.write_all(bytes).unwrap();
            }
            Entry::Stored(name, bytes) => {
                zip.start_file(name.as_str(), stored).unwrap();
                zip.write_all(bytes).unwrap();
            }
            Entry::Dir(name) => zip.add_directory(name.as_str(), deflated).unwrap(),
            Entry::Symlink(name, target) => zip.add_symlink(name.as_str(), target.as_str(), deflated).unwrap(),
        }
    }
    zip.finish().unwrap().into_inner()
}

pub fn write_zip(path: &Path, entries: &[Entry]) {
    std::fs::write(path, zip_bytes(entries)).unwrap();
}

/// Writes a plain CTranslate2 model directory (model.bin, config.json, vocabulary) to `dir`.
pub fn write_model_dir(dir: &Path) {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(dir.join("model.bin"), ModelBin::small().bytes()).unwrap();
    std::fs::write(dir.join("config.json"), CONFIG).unwrap();
    std::fs::write(dir.join("shared_vocabulary.json"), VOCABULARY).unwrap();
}

/// The tokens of a whisper vocabulary: `multilingual` gives the 51,865 of a multilingual model,
/// with `<|en|>`, `<|de|>` and `<|haw|>` at 50259 to 50261; otherwise the 51,864 of an
/// English-only one.
pub fn whisper_vocabulary(multilingual: bool) -> String {
    let count = if multilingual { 51_865 } else { 51_864 };
    let mut tokens: Vec<String> = (0..count).map(|id| format!("t{id}")).collect();
    tokens[50_258] = "<|startoftranscript|>".into();
    for (offset, code) in ["en", "de", "haw"].into_iter().enumerate() {
        tokens[50_259 + offset] = format!("<|{code}|>");
    }
    tokens.join("\n") + "\n"
}

pub const WHISPER_CONFIG: &str =
    r#"{"alignment_heads": [[1, 0]], "lang_ids": [50259, 50260, 50261], "suppress_ids": [1]}"#;
pub const WHISPER_TOKENIZER: &str = r#"{"version": "1.0", "model": {"type": "BPE"}}"#;

/// A whisper model (`WhisperSpec`) as a package index carries it, in `dir`: `model.bin` whole,
/// or cut into `parts` parts (`model.bin.part1`, ...) when `parts` is above 1.
pub fn write_whisper_dir(dir: &Path, multilingual: bool, parts: usize) {
    std::fs::create_dir_all(dir).unwrap();
    let model = whisper_model_bin();
    if parts <= 1 {
        std::fs::write(dir.join("model.bin"), &model).unwrap();
    } else {
        let size = model.len().div_ceil(parts);
        for (index, chunk) in model.chunks(size).enumerate() {
            std::fs::write(dir.join(format!("model.bin.part{}", index + 1)), chunk).unwrap();
        }
    }
    std::fs::write(dir.join("config.json"), WHISPER_CONFIG).unwrap();
    std::fs::write(dir.join("tokenizer.json"), WHISPER_TOKENIZER).unwrap();
    std::fs::write(dir.join("vocabulary.txt"), whisper_vocabulary(multilingual)).unwrap();
}

/// The bytes of a small valid `model.bin` whose spec is `WhisperSpec`.
pub fn whisper_model_bin() -> Vec<u8> {
    ModelBin { spec: "WhisperSpec".into(), ..ModelBin::small() }.bytes()
}
