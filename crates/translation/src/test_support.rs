//! What the translation tests share.

use crate::request::{RawTranslateRequest, TranslateRequest};

/// The valid request a JSON object of parameters describes (each of the right type: `edge.rs`
/// reads real requests).
pub fn request(json: &str) -> TranslateRequest {
    let raw: RawTranslateRequest = serde_json::from_str(json).expect("parameters of the right types");
    TranslateRequest::parse(raw).expect("a valid request")
}
