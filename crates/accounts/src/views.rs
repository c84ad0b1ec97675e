//! Keys as the admin API answers them.

use serde::Serialize;

use crate::model::ApiKey;
use crate::period::rfc3339;

/// The API's key object.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct KeyObject {
    key_id: String,
    label: String,
    creation_time: String,
    deactivated_time: Option<String>,
    is_deactivated: bool,
    usage_limits: UsageLimits,
    /// The secret, in the answer that created the key only.
    #[serde(skip_serializing_if = "Option::is_none")]
    key: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
struct UsageLimits {
    characters: Option<i64>,
    speech_to_text_milliseconds: Option<i64>,
}

impl KeyObject {
    /// `key` as the API shows it; `secret` only in the answer that created it.
    pub fn new(key: &ApiKey, secret: Option<String>) -> KeyObject {
        KeyObject {
            key_id: key.id.clone(),
            label: key.label.clone(),
            creation_time: rfc3339(key.created_at),
            deactivated_time: key.deactivated_at.map(rfc3339),
            is_deactivated: !key.is_active(),
            usage_limits: UsageLimits {
                characters: key.character_limit,
                speech_to_text_milliseconds: key.speech_limit_ms,
            },
            key: secret,
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use time::macros::datetime;

    use super::*;
    use crate::model::KeyKind;

    #[test]
    fn a_key_shows_its_secret_only_when_created() {
        let key = ApiKey {
            id: "a:b".into(),
            subscription_id: "s".into(),
            kind: KeyKind::Developer,
            label: "CI".into(),
            created_at: datetime!(2026-05-03 10:00:00 UTC),
            deactivated_at: None,
            character_limit: Some(500),
            speech_limit_ms: None,
        };
        let shown = json!({"key_id": "a:b", "label": "CI", "creation_time": "2026-05-03T10:00:00Z",
                           "deactivated_time": null, "is_deactivated": false,
                           "usage_limits": {"characters": 500, "speech_to_text_milliseconds": null}});
        assert_eq!(serde_json::to_value(KeyObject::new(&key, None)).unwrap(), shown);
        let mut created = shown.clone();
        created["key"] = json!("secret");
        assert_eq!(serde_json::to_value(KeyObject::new(&key, Some("secret".into()))).unwrap(), created);
    }
}
