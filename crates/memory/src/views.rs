//! Translation memories and segments as the API answers them.

use serde::Serialize;
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use crate::jobs::{Job, JobOperation, JobStatus};
use crate::request::code_of;
use crate::store::{Added, Imported, Segment, SegmentPage, SourceSegment, TranslationMemory};

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

/// A translation of a source segment.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TargetSegmentObject {
    target_segment_id: String,
    target_language: String,
    target_text: String,
}

/// A source segment: its text and its translations.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SourceSegmentObject {
    source_segment_id: String,
    source_text: String,
    targets: Vec<TargetSegmentObject>,
}

impl From<&SourceSegment> for SourceSegmentObject {
    fn from(segment: &SourceSegment) -> SourceSegmentObject {
        SourceSegmentObject {
            source_segment_id: segment.id.to_string(),
            source_text: segment.source.clone(),
            targets: segment
                .targets
                .iter()
                .map(|target| TargetSegmentObject {
                    target_segment_id: target.id.to_string(),
                    target_language: code_of(target.target_language),
                    target_text: target.target.clone(),
                })
                .collect(),
        }
    }
}

/// `GET …/segments`: one page of source segments, how many segments (translations) the memory
/// holds, and the cursor of the next page, if there may be one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SegmentListing {
    segments: Vec<SourceSegmentObject>,
    segment_count: i64,
    #[serde(skip_serializing_if = "Option::is_none")]
    next_page_cursor: Option<String>,
}

impl From<&SegmentPage> for SegmentListing {
    fn from(page: &SegmentPage) -> SegmentListing {
        SegmentListing {
            segments: page.segments.iter().map(SourceSegmentObject::from).collect(),
            segment_count: page.segment_count,
            next_page_cursor: page.next.map(|cursor| cursor.encode()),
        }
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

/// A translation memory job, as `GET …/jobs/{id}` answers it; `base` is the URL of the
/// application as the client reached it (`https://host`), for the download URL.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct JobObject {
    job_id: String,
    operation: &'static str,
    product: &'static str,
    creation_time: String,
    updated_time: String,
    parameters: JobParameters,
    #[serde(skip_serializing_if = "Option::is_none")]
    source_file: Option<SourceFileObject>,
    results: Vec<JobResult>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
struct JobParameters {
    #[serde(skip_serializing_if = "Option::is_none")]
    display_name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    translation_memory_id: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
struct SourceFileObject {
    file_name: String,
    content_type: String,
    content_length: i64,
}

/// A job's one result: where it is, and what it gave.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
struct JobResult {
    status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    status_metadata: Option<StatusMetadata>,
    #[serde(skip_serializing_if = "Option::is_none")]
    translation_memory_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    skipped_segment_count: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    download_url: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    expires_at: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<JobErrorObject>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
struct StatusMetadata {
    required_action: &'static str,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
struct JobErrorObject {
    message: String,
}

impl JobObject {
    pub fn new(job: &Job, base: &str) -> JobObject {
        let (import, export) = (job.operation == JobOperation::Import, job.operation == JobOperation::Export);
        let downloadable = export && matches!(job.status, JobStatus::Completed | JobStatus::Downloaded);
        let memory_id = job.memory_id.map(|id| id.to_string());
        let result = JobResult {
            status: job.status.name(),
            status_metadata: (job.status == JobStatus::AwaitingInput)
                .then_some(StatusMetadata { required_action: "Upload the TMX file to the import's upload_url." }),
            translation_memory_id: memory_id.clone().filter(|_| import && job.status == JobStatus::Completed),
            skipped_segment_count: job.skipped.filter(|_| import && job.status == JobStatus::Completed),
            download_url: downloadable.then(|| file_url(base, job)),
            expires_at: (downloadable || job.status == JobStatus::AwaitingInput).then(|| rfc3339(job.expires_at)),
            error: job.error.clone().map(|message| JobErrorObject { message }),
        };
        JobObject {
            job_id: job.id.to_string(),
            operation: job.operation.name(),
            product: "translation_memory",
            creation_time: rfc3339(job.created_at),
            updated_time: rfc3339(job.updated_at),
            parameters: JobParameters {
                display_name: job.display_name.clone(),
                translation_memory_id: memory_id.filter(|_| export),
            },
            source_file: job.file.as_ref().map(|file| SourceFileObject {
                file_name: file.file_name.clone(),
                content_type: file.content_type.clone(),
                content_length: file.content_length,
            }),
            results: vec![result],
        }
    }
}

/// `POST /v3/translation_memories/import`: the job, and where to upload the file until when.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ImportCreated {
    #[serde(flatten)]
    job: JobObject,
    upload_url: String,
    expires_at: String,
}

impl ImportCreated {
    pub fn new(job: &Job, base: &str) -> ImportCreated {
        ImportCreated {
            job: JobObject::new(job, base),
            upload_url: file_url(base, job),
            expires_at: rfc3339(job.expires_at),
        }
    }
}

/// The URL of a job's file (an import's upload, an export's download), with its token.
fn file_url(base: &str, job: &Job) -> String {
    format!("{base}/v3/translation_memories/jobs/{}/file?token={}", job.id, job.token)
}

/// Unix milliseconds as an RFC 3339 UTC time, to the second.
fn rfc3339(ms: i64) -> String {
    let moment = OffsetDateTime::from_unix_timestamp(ms.div_euclid(1000)).unwrap_or(OffsetDateTime::UNIX_EPOCH);
    moment.format(&Rfc3339).unwrap_or_default()
}
