//! Closed betas a subscription's admins switch on for it (`sql/0017_voice_settings.sql`): today
//! translated speech, which real-time voice sessions may ask for only once it is on (`voice-sessions`
//! checks it when a session opens, the languages listing before it offers the feature). A
//! subscription without a row has every switch off. Each change writes its audit entry in the same
//! transaction; setting a switch to what it is changes nothing and records nothing.

use platform::db::{RetryPolicy, transaction};
use platform::{Database, DbError, Services, Value};
use serde_json::json;

use crate::audit::{self, Action, Actor, Change, Target};
use crate::error::StoreError;
use crate::period::now;

/// The switch of one subscription (the primary key).
const SQL_TRANSLATED_SPEECH: &str = "SELECT translated_speech FROM voice_settings WHERE subscription_id = ?";

/// Sets the switch of one subscription (the primary key), `updated_at` in Unix milliseconds.
const SQL_SET_TRANSLATED_SPEECH: &str = "INSERT INTO voice_settings (subscription_id, translated_speech, updated_at) VALUES (?1, ?2, ?3) \
     ON CONFLICT (subscription_id) DO UPDATE SET translated_speech = ?2, updated_at = ?3";

/// Whether the subscription's voice sessions may ask for translated speech.
pub fn translated_speech(db: &dyn Database, subscription_id: &str) -> Result<bool, DbError> {
    let result = db.execute(SQL_TRANSLATED_SPEECH, &[Value::from(subscription_id)])?;
    Ok(result.first().map(|row| row.get::<i64>(0)).transpose()?.unwrap_or(0) != 0)
}

/// Turns translated speech on or off for the subscription, with its audit entry
/// (`change_translated_speech`, the subscription its target) unless it already was so. Answers
/// the switch as it is now.
pub fn set_translated_speech(
    services: &Services<'_>,
    subscription_id: &str,
    enabled: bool,
    actor: Actor<'_>,
) -> Result<bool, StoreError> {
    transaction(services.db, RetryPolicy::default(), |db| {
        let current = translated_speech(db, subscription_id)?;
        if current == enabled {
            return Ok(enabled);
        }
        let at = now(services.clock);
        let unix_ms = (at.unix_timestamp_nanos() / 1_000_000) as i64;
        db.execute(
            SQL_SET_TRANSLATED_SPEECH,
            &[Value::from(subscription_id), Value::Integer(i64::from(enabled)), Value::Integer(unix_ms)],
        )?;
        let change = Change {
            subscription_id,
            at,
            actor,
            action: Action::ChangeTranslatedSpeech,
            target: Target::Subscription(subscription_id),
            old: Some(json!({"translated_speech": current})),
            new: Some(json!({"translated_speech": enabled})),
        };
        audit::record(db, change)?;
        Ok(enabled)
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::model::Plan;
    use crate::subscriptions::create_subscription;
    use crate::test_support::{Logged, at, audit_log};

    #[test]
    fn translated_speech_is_off_until_an_admin_turns_it_on_and_each_change_is_audited() {
        let fixture = at(1_795_255_200);
        let services = fixture.services();
        let mine = create_subscription(&services, Plan::Pro).unwrap();
        let theirs = create_subscription(&services, Plan::Pro).unwrap();
        assert!(!translated_speech(services.db, &mine.id).unwrap(), "off by default");

        assert!(set_translated_speech(&services, &mine.id, true, Actor::AdminKey("admin-1")).unwrap());
        assert!(translated_speech(services.db, &mine.id).unwrap());
        assert!(!translated_speech(services.db, &theirs.id).unwrap(), "one subscription's switch only");
        assert!(set_translated_speech(&services, &mine.id, true, Actor::AdminKey("admin-1")).unwrap());
        assert!(!set_translated_speech(&services, &mine.id, false, Actor::Operator).unwrap());
        assert!(!translated_speech(services.db, &mine.id).unwrap());

        let entry = |admin: Option<&str>, old: bool, new: bool| Logged {
            action: "change_translated_speech".into(),
            admin_key_id: admin.map(str::to_owned),
            target_type: "subscription".into(),
            target_id: mine.id.clone(),
            old_value: Some(json!({"translated_speech": old})),
            new_value: Some(json!({"translated_speech": new})),
        };
        assert_eq!(
            audit_log(&fixture.db, &mine.id),
            [entry(None, true, false), entry(Some("admin-1"), false, true)],
            "newest first; turning on what is on records nothing"
        );
        assert!(audit_log(&fixture.db, &theirs.id).is_empty());
    }
}
