//! The answers' shapes.

use serde::Serialize;

use crate::store::{Document, Status};
use crate::work;

/// What an upload answers: the document's id, and the key every later call must send.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Handle {
    pub document_id: String,
    pub document_key: String,
}

/// A document's status: `seconds_remaining` while it is being translated, `billed_characters`
/// once it is done, `error_message` (and the older `message`, the same) when it failed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StatusView<'a> {
    pub document_id: &'a str,
    pub status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seconds_remaining: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub billed_characters: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error_message: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<&'a str>,
}

impl<'a> From<&'a Document> for StatusView<'a> {
    fn from(document: &'a Document) -> StatusView<'a> {
        let error = document.error_message.as_deref().filter(|_| document.status == Status::Error);
        StatusView {
            document_id: &document.id,
            status: document.status.as_str(),
            seconds_remaining: work::unfinished(document).then(|| work::seconds_remaining(document)),
            billed_characters: (document.status == Status::Done).then_some(document.characters),
            error_message: error,
            message: error,
        }
    }
}
