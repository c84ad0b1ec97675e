//! A subscription's real-time voice settings, set by its admins: today whether its sessions may
//! ask for translated speech, a closed beta off by default. The switch itself, and the audit entry
//! of each change, are `accounts`' (a closed beta of the subscription, which the languages listing
//! reads too); this is the shape the admin API answers.

use accounts::{Actor, StoreError};
use platform::{DbError, Services};
use serde::Serialize;

/// What `GET` and `PUT /v2/admin/translated-speech` answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct TranslatedSpeech {
    pub translated_speech: bool,
}

/// Whether `subscription`'s sessions may ask for translated speech.
pub fn translated_speech(services: &Services<'_>, subscription: &str) -> Result<TranslatedSpeech, DbError> {
    Ok(TranslatedSpeech { translated_speech: accounts::translated_speech(services.db, subscription)? })
}

/// Turns translated speech on or off for `subscription`, as `actor` asks; the audit log records
/// the change (none when it already was so).
pub fn set_translated_speech(
    services: &Services<'_>,
    subscription: &str,
    enabled: bool,
    actor: Actor<'_>,
) -> Result<TranslatedSpeech, StoreError> {
    Ok(TranslatedSpeech { translated_speech: accounts::set_translated_speech(services, subscription, enabled, actor)? })
}
