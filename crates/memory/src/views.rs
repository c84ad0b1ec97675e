//! Translation memories and segments as the API answers them.

use serde::Serialize;

use crate::request::code_of;
use crate::store::{Added, Imported, Segment, TranslationMemory};

/// A translation memory: `GET`, `POST` and `PATCH` answer it, listings hold it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MemoryObject {
    translation_memory_id: String,
    name: String,
    source_language: String,
    target_languages: Vec<String>,
    segment_count: i64,
}

impl From<&TranslationMemory> for MemoryObject {
    fn from(memory: &TranslationMemory) -> MemoryObject {
        MemoryObject {
            translation_memory_id: memory.id.to_string(),
            name: memory.name.clone(),
            source_language: code_of(memory.source),
            target_languages: memory.targets.iter().map(|language| code_of(language)).collect(),
            segment_count: memory.segment_count,
        }
    }
}

/// `GET /v3/translation_memories`: one page, and how many there are in all.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MemoryListing {
    translation_memories: Vec<MemoryObject>,
    total_count: i64,
}

impl MemoryListing {
    pub fn new(memories: &[TranslationMemory], total_count: i64) -> MemoryListing {
        MemoryListing { translation_memories: memories.iter().map(MemoryObject::from).collect(), total_count }
    }
}

/// A segment.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SegmentObject {
    segment_id: String,
    source: String,
    target: String,
    target_language: String,
}

impl From<&Segment> for SegmentObject {
    fn from(segment: &Segment) -> SegmentObject {
        SegmentObject {
            segment_id: segment.id.to_string(),
            source: segment.source.clone(),
            target: segment.target.clone(),
            target_language: code_of(segment.target_language),
        }
    }
}

/// `GET …/segments`: one page, and how many there are in all (of the target language asked
/// for, if any).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SegmentListing {
    segments: Vec<SegmentObject>,
    total_count: i64,
}

impl SegmentListing {
    pub fn new(segments: &[Segment], total_count: i64) -> SegmentListing {
        SegmentListing { segments: segments.iter().map(SegmentObject::from).collect(), total_count }
    }
}

/// `POST …/segments`: the memory as it is now, and each segment sent, in order, as stored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SegmentsAdded {
    #[serde(flatten)]
    memory: MemoryObject,
    segments: Vec<SegmentObject>,
}

impl From<&Added> for SegmentsAdded {
    fn from(added: &Added) -> SegmentsAdded {
        SegmentsAdded {
            memory: MemoryObject::from(&added.memory),
            segments: added.segments.iter().map(SegmentObject::from).collect(),
        }
    }
}

/// `POST` and `PUT …/tmx`: the memory as it is now; how many segments of the file were added,
/// how many it held already (or the file held twice), and how many translation units' variants
/// gave no segment (another language, or no text).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TmxImported {
    #[serde(flatten)]
    memory: MemoryObject,
    imported: usize,
    duplicates: usize,
    skipped: usize,
}

impl TmxImported {
    pub fn new(imported: &Imported, skipped: usize) -> TmxImported {
        TmxImported {
            memory: MemoryObject::from(&imported.memory),
            imported: imported.added,
            duplicates: imported.duplicates,
            skipped,
        }
    }
}

#[cfg(test)]
mod tests {
    use platform::Id;
    use serde_json::json;

    use super::*;

    fn memory() -> TranslationMemory {
        TranslationMemory {
            id: Id::parse("def3a26b-3e84-45b3-84ae-0c0aaf3525f7").unwrap(),
            name: "Support".into(),
            source: catalogue::find("en").unwrap(),
            targets: vec![catalogue::find("de").unwrap(), catalogue::find("zh-Hans").unwrap()],
            segment_count: 2,
        }
    }

    #[test]
    fn memories_answer_lower_case_codes_in_the_reference_shape() {
        let memories = [memory()];
        assert_eq!(
            serde_json::to_value(MemoryListing::new(&memories, 7)).unwrap(),
            json!({"translation_memories": [{"translation_memory_id": "def3a26b-3e84-45b3-84ae-0c0aaf3525f7",
                    "name": "Support", "source_language": "en", "target_languages": ["de", "zh-hans"],
                    "segment_count": 2}], "total_count": 7})
        );
    }

    #[test]
    fn additions_and_imports_are_the_memory_with_what_they_did() {
        let segment = Segment {
            id: Id::parse("0b5a3e1c-7d2f-4c1a-9e8b-3f6d2a1c0e9f").unwrap(),
            target_language: catalogue::find("de").unwrap(),
            source: "Hello".into(),
            target: "Hallo".into(),
        };
        let added = Added { memory: memory(), segments: vec![segment] };
        let value = serde_json::to_value(SegmentsAdded::from(&added)).unwrap();
        assert_eq!(value["segment_count"], 2);
        assert_eq!(
            value["segments"],
            json!([{"segment_id": "0b5a3e1c-7d2f-4c1a-9e8b-3f6d2a1c0e9f", "source": "Hello", "target": "Hallo",
                    "target_language": "de"}])
        );
        let imported = Imported { memory: memory(), added: 5, duplicates: 1 };
        let value = serde_json::to_value(TmxImported::new(&imported, 3)).unwrap();
        assert_eq!((&value["imported"], &value["duplicates"], &value["skipped"]), (&json!(5), &json!(1), &json!(3)));
        assert_eq!(value["translation_memory_id"], "def3a26b-3e84-45b3-84ae-0c0aaf3525f7");
    }
}
