//! A subscription's real-time voice settings (`sql/0017_voice_settings.sql`), set by its admins:
//! today whether its sessions may ask for translated speech, a closed beta off by default.

use platform::{DbError, Services};
use serde::Serialize;

/// What `GET` and `PUT /v2/admin/translated-speech` answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct TranslatedSpeech {
    pub translated_speech: bool,
}

/// Whether `subscription`'s sessions may ask for translated speech.
pub fn translated_speech(services: &Services<'_>, subscription: &str) -> Result<TranslatedSpeech, DbError> {
    let result = services
        .db
        .execute("SELECT translated_speech FROM voice_settings WHERE subscription_id = ?", &[subscription.into()])?;
    let enabled = result.first().map(|row| row.get::<i64>(0)).transpose()?.unwrap_or(0) != 0;
    Ok(TranslatedSpeech { translated_speech: enabled })
}

/// Turns translated speech on or off for `subscription`; one statement.
pub fn set_translated_speech(
    services: &Services<'_>,
    subscription: &str,
    enabled: bool,
) -> Result<TranslatedSpeech, DbError> {
    let now = services.clock.now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default().as_millis() as i64;
    services.db.execute(
        "INSERT INTO voice_settings (subscription_id, translated_speech, updated_at) VALUES (?1, ?2, ?3) \
         ON CONFLICT (subscription_id) DO UPDATE SET translated_speech = ?2, updated_at = ?3",
        &[subscription.into(), i64::from(enabled).into(), now.into()],
    )?;
    Ok(TranslatedSpeech { translated_speech: enabled })
}
