//! CTranslate2's `model.bin`, walked from its header to its last byte without loading it.
//!
//! The layout, little endian, as CTranslate2 writes it (`python/ctranslate2/specs/model_spec.py`,
//! `_serialize`) and reads it (`src/models/model.cc`, `Model::load`); a string is a `u16` length
//! that counts a trailing NUL, then that many bytes:
//!
//! * `u32` binary version (1 to 6; CTranslate2 3.x and 4.x write 6);
//! * from version 2: the spec's name (a string, `TransformerSpec`) and its revision (`u32`);
//! * `u32` number of variables, then for each: its name (a string), `u8` rank, `rank` × `u32`
//!   dimensions, then from version 4 a `u8` data type and a `u32` number of bytes, before version
//!   4 a `u8` item size and a `u32` number of items; then the data;
//! * from version 3: `u32` number of aliases, each two strings (the alias, the variable's name).
//!
//! Every variable's data must be exactly what its shape and type need, and the file must end
//! right after the aliases: that catches truncated, padded and corrupt files in a few hundred
//! small reads, seeking past the data (an 80 MB model is never read into memory).

use std::fmt;
use std::fs::File;
use std::io::{BufReader, Read, Seek};
use std::path::Path;

use anyhow::{Context, bail, ensure};

/// The binary versions this walker knows (CTranslate2's `current_binary_version` is 6).
pub const VERSIONS: std::ops::RangeInclusive<u32> = 1..=6;

/// What the walk found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Summary {
    pub binary_version: u32,
    /// The model specification (`TransformerSpec`); `None` for binary version 1.
    pub spec: Option<String>,
    pub spec_revision: u32,
    pub variables: u32,
    pub aliases: u32,
    /// The file's length.
    pub bytes: u64,
}

/// CTranslate2's `DataType` (include/ctranslate2/types.h), by its id in the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum DataType {
    Float32,
    Int8,
    Int16,
    Int32,
    Float16,
    BFloat16,
}

impl DataType {
    fn from_id(id: u8) -> Option<DataType> {
        Some(match id {
            0 => DataType::Float32,
            1 => DataType::Int8,
            2 => DataType::Int16,
            3 => DataType::Int32,
            4 => DataType::Float16,
            5 => DataType::BFloat16,
            _ => return None,
        })
    }

    fn item_size(self) -> u64 {
        match self {
            DataType::Int8 => 1,
            DataType::Int16 | DataType::Float16 | DataType::BFloat16 => 2,
            DataType::Float32 | DataType::Int32 => 4,
        }
    }
}

impl fmt::Display for DataType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DataType::Float32 => "float32",
            DataType::Int8 => "int8",
            DataType::Int16 => "int16",
            DataType::Int32 => "int32",
            DataType::Float16 => "float16",
            DataType::BFloat16 => "bfloat16",
        })
    }
}

/// Walks the `model.bin` at `path`.
pub fn check(path: &Path) -> anyhow::Result<Summary> {
    let file = File::open(path).context("cannot open it")?;
    let length = file.metadata().context("cannot read its size")?.len();
    walk(BufReader::with_capacity(64 << 10, file), length)
}

/// The spec's name in the header of the `model.bin` (or its first part) at `path`, without walking
/// the rest (`WhisperSpec`); `None` for binary version 1, which names none.
pub fn spec_name(path: &Path) -> anyhow::Result<Option<String>> {
    let file = File::open(path).context("cannot open it")?;
    let length = file.metadata().context("cannot read its size")?.len();
    let mut walker = Walker { reader: BufReader::with_capacity(4 << 10, file), offset: 0, length };
    Ok(header(&mut walker)?.1.map(|(spec, _)| spec))
}

/// The binary version, and from version 2 the spec's name and revision.
fn header<R: Read + Seek>(file: &mut Walker<R>) -> anyhow::Result<(u32, Option<(String, u32)>)> {
    let binary_version = file.u32(|| "the binary version".into())?;
    ensure!(
        VERSIONS.contains(&binary_version),
        "this is not a CTranslate2 model: its binary version would be {binary_version}, and CTranslate2 \
         writes versions {} to {}",
        VERSIONS.start(),
        VERSIONS.end()
    );
    if binary_version < 2 {
        return Ok((binary_version, None));
    }
    let spec = file.string(|| "the spec's name".into())?;
    Ok((binary_version, Some((spec, file.u32(|| "the spec's revision".into())?))))
}

/// Walks a `model.bin` of `length` bytes.
pub fn walk<R: Read + Seek>(reader: R, length: u64) -> anyhow::Result<Summary> {
    let mut file = Walker { reader, offset: 0, length };
    let (binary_version, spec) = header(&mut file)?;
    let (spec, spec_revision) = match spec {
        Some((spec, revision)) => (Some(spec), revision),
        None => (None, 1),
    };
    let variables = file.u32(|| "the number of variables".into())?;
    ensure!(variables > 0, "it holds no variables");
    for index in 0..variables {
        let number = index + 1;
        let name = file.string(|| format!("the name of variable #{number}"))?;
        let what = || format!("variable #{number} `{name}`");
        let rank = file.u8(|| format!("the rank of {}", what()))?;
        let mut shape = Vec::with_capacity(usize::from(rank));
        for _ in 0..rank {
            shape.push(file.u32(|| format!("the shape of {}", what()))?);
        }
        // A scalar (rank 0) holds one item.
        let items = shape.iter().try_fold(1u64, |items, &dimension| items.checked_mul(u64::from(dimension)));
        let data_bytes = if binary_version >= 4 {
            let id = file.u8(|| format!("the data type of {}", what()))?;
            let Some(data_type) = DataType::from_id(id) else {
                bail!(
                    "{} has data type {id}, which CTranslate2 does not have (0 float32, 1 int8, 2 int16, \
                     3 int32, 4 float16, 5 bfloat16)",
                    what()
                )
            };
            let bytes = u64::from(file.u32(|| format!("the size of {}", what()))?);
            let needed = items.and_then(|items| items.checked_mul(data_type.item_size()));
            ensure!(
                needed == Some(bytes),
                "{} declares {bytes} bytes of data, but its shape {shape:?} of {data_type} needs {}",
                what(),
                needed.map_or("more than 2^64".to_owned(), |needed| needed.to_string())
            );
            bytes
        } else {
            // Before version 4 the type was guessed from the item size, and the count is of items.
            let item_size = file.u8(|| format!("the item size of {}", what()))?;
            ensure!(
                matches!(item_size, 1 | 2 | 4),
                "{} has items of {item_size} bytes; CTranslate2 reads items of 1, 2 or 4 bytes",
                what()
            );
            let count = u64::from(file.u32(|| format!("the number of items of {}", what()))?);
            ensure!(
                items == Some(count),
                "{} declares {count} items, but its shape {shape:?} holds {}",
                what(),
                items.map_or("more than 2^64".to_owned(), |items| items.to_string())
            );
            count * u64::from(item_size)
        };
        file.skip(data_bytes, || format!("the data of {}", what()))?;
    }
    let mut aliases = 0;
    if binary_version >= 3 {
        aliases = file.u32(|| "the number of aliases".into())?;
        for index in 0..aliases {
            let number = index + 1;
            file.string(|| format!("alias #{number}"))?;
            file.string(|| format!("the variable alias #{number} names"))?;
        }
    }
    ensure!(
        file.offset == length,
        "{} unexpected bytes follow the end of the model at offset {} (the file is {length} bytes)",
        length - file.offset,
        file.offset
    );
    Ok(Summary { binary_version, spec, spec_revision, variables, aliases, bytes: length })
}

/// A position in the file, checked against its length before every read and seek.
struct Walker<R> {
    reader: R,
    offset: u64,
    length: u64,
}

impl<R: Read + Seek> Walker<R> {
    /// Fails unless `size` more bytes, `what`, fit in the file.
    fn fits(&self, size: u64, what: impl FnOnce() -> String) -> anyhow::Result<()> {
        if self.offset.checked_add(size).is_some_and(|end| end <= self.length) {
            return Ok(());
        }
        bail!(
            "it is truncated: {} needs {size} bytes at offset {}, but the file ends at {}",
            what(),
            self.offset,
            self.length
        )
    }

    fn bytes<const N: usize>(&mut self, what: impl Fn() -> String) -> anyhow::Result<[u8; N]> {
        self.fits(N as u64, &what)?;
        let mut bytes = [0; N];
        self.reader
            .read_exact(&mut bytes)
            .with_context(|| format!("cannot read {} at offset {}", what(), self.offset))?;
        self.offset += N as u64;
        Ok(bytes)
    }

    fn u8(&mut self, what: impl Fn() -> String) -> anyhow::Result<u8> {
        Ok(self.bytes::<1>(what)?[0])
    }

    fn u16(&mut self, what: impl Fn() -> String) -> anyhow::Result<u16> {
        Ok(u16::from_le_bytes(self.bytes(what)?))
    }

    fn u32(&mut self, what: impl Fn() -> String) -> anyhow::Result<u32> {
        Ok(u32::from_le_bytes(self.bytes(what)?))
    }

    /// A string: its length (counting the trailing NUL), then its bytes and the NUL.
    fn string(&mut self, what: impl Fn() -> String) -> anyhow::Result<String> {
        let start = self.offset;
        let length = self.u16(&what)?;
        ensure!(length > 0, "{} at offset {start} has length 0, without even its trailing NUL", what());
        self.fits(u64::from(length), &what)?;
        let mut bytes = vec![0; usize::from(length)];
        self.reader.read_exact(&mut bytes).with_context(|| format!("cannot read {} at offset {start}", what()))?;
        self.offset += u64::from(length);
        ensure!(bytes.pop() == Some(0), "{} at offset {start} does not end with a NUL", what());
        String::from_utf8(bytes).map_err(|_| anyhow::anyhow!("{} at offset {start} is not UTF-8", what()))
    }

    fn skip(&mut self, size: u64, what: impl Fn() -> String) -> anyhow::Result<()> {
        self.fits(size, &what)?;
        // `size` came from a u32 (times at most 4), so it fits an i64.
        let distance = i64::try_from(size).expect("a variable's size fits an i64");
        self.reader
            .seek_relative(distance)
            .with_context(|| format!("cannot skip {} at offset {}", what(), self.offset))?;
        self.offset += size;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use std::io::Cursor;

    use super::*;
    use crate::models::testing::{ModelBin, Variable};

    fn walk_bytes(bytes: &[u8]) -> anyhow::Result<Summary> {
        walk(Cursor::new(bytes), bytes.len() as u64)
    }

    fn error(bytes: &[u8]) -> String {
        format!("{:#}", walk_bytes(bytes).expect_err("the walk should fail"))
    }

    #[test]
    fn a_version_6_model_adds_up() {
        let model = ModelBin::small();
        let summary = walk_bytes(&model.bytes()).unwrap();
        assert_eq!(summary.binary_version, 6);
        assert_eq!(summary.spec.as_deref(), Some("TransformerSpec"));
        assert_eq!(summary.spec_revision, 7);
        assert_eq!(summary.variables, model.variables.len() as u32);
        assert_eq!(summary.aliases, 1);
    }

    #[test]
    fn every_binary_version_has_its_own_layout() {
        for version in VERSIONS {
            let model = ModelBin { version, ..ModelBin::small() };
            let summary = walk_bytes(&model.bytes()).unwrap_or_else(|error| panic!("version {version}: {error:#}"));
            assert_eq!(summary.binary_version, version);
            assert_eq!(summary.spec.is_some(), version >= 2);
            assert_eq!(summary.aliases, if version >= 3 { 1 } else { 0 });
        }
    }

    #[test]
    fn every_data_type_has_its_item_size() {
        for (id, size) in [(0, 4), (1, 1), (2, 2), (3, 4), (4, 2), (5, 2)] {
            let model = ModelBin { variables: vec![Variable::new("w", &[3, 5], id, 15 * size)], ..ModelBin::small() };
            walk_bytes(&model.bytes()).unwrap_or_else(|error| panic!("type {id}: {error:#}"));
        }
    }

    #[test]
    fn a_truncated_file_names_what_is_missing() {
        let bytes = ModelBin::small().bytes();
        let message = error(&bytes[..bytes.len() - 30]);
        assert!(message.contains("truncated"), "{message}");
        // Cut inside the header, too.
        assert!(error(&bytes[..3]).contains("the binary version"), "{}", error(&bytes[..3]));
        assert!(error(&bytes[..10]).contains("the spec's name"), "{}", error(&bytes[..10]));
    }

    #[test]
    fn bytes_after_the_aliases_are_refused() {
        let mut bytes = ModelBin::small().bytes();
        bytes.extend_from_slice(&[0, 0, 0]);
        let message = error(&bytes);
        assert!(message.contains("3 unexpected bytes follow the end of the model"), "{message}");
    }

    #[test]
    fn a_wrong_byte_count_is_refused() {
        let mut model = ModelBin::small();
        model.variables[1].bytes += 4;
        let message = error(&model.bytes());
        assert!(message.contains("declares 28 bytes of data, but its shape [2, 3] of float32 needs 24"), "{message}");
    }

    #[test]
    fn unknown_versions_and_types_are_refused() {
        let message = error(&ModelBin { version: 7, ..ModelBin::small() }.bytes());
        assert!(message.contains("binary version would be 7"), "{message}");
        assert!(error(&[0x50, 0x4b, 3, 4, 0, 0, 0, 0]).contains("not a CTranslate2 model"));
        let model = ModelBin { variables: vec![Variable::new("w", &[2], 9, 2)], ..ModelBin::small() };
        assert!(error(&model.bytes()).contains("data type 9"), "{}", error(&model.bytes()));
        // Before version 4, an item size instead of a type: after the name, the rank and the dimension.
        let mut bytes =
            ModelBin { version: 3, variables: vec![Variable::new("w", &[2], 1, 2)], ..ModelBin::small() }.bytes();
        let name = bytes.windows(2).position(|window| window == b"w\0").unwrap();
        assert_eq!(bytes[name + 2 + 1 + 4], 1);
        bytes[name + 2 + 1 + 4] = 3;
        assert!(error(&bytes).contains("items of 3 bytes"), "{}", error(&bytes));
    }

    #[test]
    fn the_spec_name_is_read_from_the_header_alone() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("model.bin.part1");
        let bytes = ModelBin { spec: "WhisperSpec".into(), ..ModelBin::small() }.bytes();
        std::fs::write(&path, &bytes[..40]).unwrap();
        assert_eq!(spec_name(&path).unwrap().as_deref(), Some("WhisperSpec"));
        std::fs::write(&path, ModelBin { version: 1, ..ModelBin::small() }.bytes()).unwrap();
        assert_eq!(spec_name(&path).unwrap(), None);
        std::fs::write(&path, b"PK\x03\x04").unwrap();
        assert!(format!("{:#}", spec_name(&path).unwrap_err()).contains("not a CTranslate2 model"));
    }

    #[test]
    fn strings_need_their_trailing_nul() {
        let mut bytes = ModelBin::small().bytes();
        // The spec's name starts at offset 4: its length (u16), then the bytes and the NUL.
        let length = usize::from(u16::from_le_bytes([bytes[4], bytes[5]]));
        bytes[6 + length - 1] = b'x';
        assert!(error(&bytes).contains("does not end with a NUL"), "{}", error(&bytes));
    }
}
