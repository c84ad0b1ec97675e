//! API keys: ids, secrets, and their records.
//!
//! A key's id (two UUIDs joined by `:`) is public and names the key in the admin API; its secret
//! is shown once, at creation, and stored only as a SHA-256 digest. Secrets are UUIDs with a
//! suffix saying what they are, as clients expect: `:adm` for admin keys, `:fx` for developer
//! keys of Free subscriptions, none for developer keys of Pro subscriptions.

use platform::db::{RetryPolicy, TransactionError, transaction};
use platform::{Database, DbError, Id, Random, Services, Value};
use serde_json::json;
use sha2::{Digest, Sha256};

use crate::audit::{self, Action, Actor, Change, Target};
use crate::error::StoreError;
use crate::model::{ApiKey, KeyKind, Plan, Subscription};
use crate::period::{now, parse_stored, rfc3339};

/// How many keys of each kind a subscription may have active at once.
pub const MAX_ACTIVE_KEYS: usize = 25;

/// A key just created, with its secret (shown this once).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewKey {
    pub key: ApiKey,
    pub secret: String,
}

/// The digest under which a secret is stored and looked up.
pub fn secret_digest(secret: &str) -> [u8; 32] {
    Sha256::digest(secret.as_bytes()).into()
}

/// A random (version 4) UUID from the platform's randomness, lower case: ids of keys and of
/// other records the API names by UUID.
pub(crate) fn new_uuid(random: &dyn Random) -> String {
    Id::random(random).to_string()
}

fn new_secret(random: &dyn Random, kind: KeyKind, plan: Plan) -> String {
    let suffix = match (kind, plan) {
        (KeyKind::Admin, _) => ":adm",
        (KeyKind::Developer, Plan::Free) => ":fx",
        (KeyKind::Developer, Plan::Pro) => "",
    };
    format!("{}{suffix}", new_uuid(random))
}

/// The key columns, in the order [`from_row`] reads them.
pub(crate) const KEY_COLUMNS: &str =
    "id, subscription_id, kind, label, created_at, deactivated_at, character_limit, speech_limit_ms";

/// Why a key cannot be created or changed.
#[derive(Debug, thiserror::Error)]
pub enum KeyError {
    #[error(transparent)]
    Store(#[from] StoreError),
    /// 404: the subscription has no key of that kind and id (another subscription's keys are
    /// unknown too).
    #[error("{} {id} not found.", .kind.title())]
    NotFound { kind: KeyKind, id: String },
    /// 400: the key is deactivated, and a deactivated key's label and limits stay as they were.
    #[error("{} {id} is deactivated; a deactivated key cannot be changed.", .kind.title())]
    Deactivated { kind: KeyKind, id: String },
    #[error("A subscription may have at most {MAX_ACTIVE_KEYS} active {}s; deactivate one first.", .0.noun())]
    TooManyActive(KeyKind),
    #[error("This is the subscription's last active admin key; create another admin key before deactivating this one.")]
    LastActiveAdminKey,
    #[error("Value for 'label' not supported: the label is empty.")]
    EmptyLabel,
    #[error("Value for 'label' not supported: the label is longer than {MAX_LABEL_CHARS} characters.")]
    LongLabel,
    #[error("Value for 'label' not supported: the label contains control characters.")]
    LabelWithControlCharacters,
}

/// The longest key label, in characters.
pub const MAX_LABEL_CHARS: usize = 256;

/// A key label as given (`None`: not given), trimmed: 1 to 256 characters without control
/// characters.
pub fn label(label: Option<&str>) -> Result<Option<String>, KeyError> {
    let Some(label) = label else { return Ok(None) };
    let label = label.trim();
    if label.is_empty() {
        return Err(KeyError::EmptyLabel);
    }
    if label.chars().count() > MAX_LABEL_CHARS {
        return Err(KeyError::LongLabel);
    }
    if label.chars().any(char::is_control) {
        return Err(KeyError::LabelWithControlCharacters);
    }
    Ok(Some(label.to_owned()))
}

impl From<DbError> for KeyError {
    fn from(error: DbError) -> KeyError {
        KeyError::Store(error.into())
    }
}

impl TransactionError for KeyError {
    fn is_busy(&self) -> bool {
        matches!(self, KeyError::Store(StoreError::Db(DbError::Busy(_))))
    }
}

/// Creates a key for `subscription` with a fresh secret, unless the subscription already has
/// [`MAX_ACTIVE_KEYS`] active keys of that kind; the audit log records who did it.
pub fn create_key(
    services: &Services<'_>,
    subscription: &Subscription,
    kind: KeyKind,
    label: Option<&str>,
    actor: Actor<'_>,
) -> Result<NewKey, KeyError> {
    let secret = new_secret(services.random, kind, subscription.plan);
    transaction(services.db, RetryPolicy::default(), |db| {
        let active = db.execute(
            "SELECT COUNT(*) FROM api_keys WHERE subscription_id = ? AND kind = ? AND deactivated_at IS NULL",
            &[Value::from(subscription.id.as_str()), Value::from(kind.as_str())],
        )?;
        let active: i64 = active.first().map(|row| row.get(0)).transpose()?.unwrap_or(0);
        if active >= MAX_ACTIVE_KEYS as i64 {
            return Err(KeyError::TooManyActive(kind));
        }
        let services = services.with_db(db);
        Ok(insert_key(&services, subscription, kind, label, secret.clone(), actor)?)
    })
}

/// Writes a new key with the secret the caller chose, and its audit entry; the caller holds
/// the transaction.
pub(crate) fn insert_key(
    services: &Services<'_>,
    subscription: &Subscription,
    kind: KeyKind,
    label: Option<&str>,
    secret: String,
    actor: Actor<'_>,
) -> Result<NewKey, StoreError> {
    let key = ApiKey {
        id: format!("{}:{}", new_uuid(services.random), new_uuid(services.random)),
        subscription_id: subscription.id.clone(),
        kind,
        label: label.unwrap_or(kind.default_label()).to_owned(),
        created_at: now(services.clock),
        deactivated_at: None,
        character_limit: None,
        speech_limit_ms: None,
    };
    services.db.execute(
        &format!("INSERT INTO api_keys ({KEY_COLUMNS}, secret_hash) VALUES (?, ?, ?, ?, ?, NULL, NULL, NULL, ?)"),
        &[
            Value::from(key.id.as_str()),
            Value::from(key.subscription_id.as_str()),
            Value::from(kind.as_str()),
            Value::from(key.label.as_str()),
            Value::from(rfc3339(key.created_at)),
            Value::Blob(secret_digest(&secret).to_vec()),
        ],
    )?;
    audit::record(
        services.db,
        Change {
            subscription_id: &subscription.id,
            at: key.created_at,
            actor,
            action: Action::CreateKey,
            target: Target::Key { kind, id: &key.id },
            old: None,
            new: Some(json!({"label": key.label})),
        },
    )?;
    Ok(NewKey { key, secret })
}

/// The subscription's keys of one kind, oldest first, active and deactivated.
pub fn list_keys(db: &dyn Database, subscription_id: &str, kind: KeyKind) -> Result<Vec<ApiKey>, StoreError> {
    let result = db.execute(
        &format!("SELECT {KEY_COLUMNS} FROM api_keys WHERE subscription_id = ? AND kind = ? ORDER BY created_at, id"),
        &[Value::from(subscription_id), Value::from(kind.as_str())],
    )?;
    result.rows.iter().map(|row| from_row(row, 0)).collect()
}

/// One key of the subscription, by id (`None` for unknown ids and other subscriptions' keys).
pub fn find_key(db: &dyn Database, subscription_id: &str, key_id: &str) -> Result<Option<ApiKey>, StoreError> {
    let result = db.execute(
        &format!("SELECT {KEY_COLUMNS} FROM api_keys WHERE subscription_id = ? AND id = ?"),
        &[Value::from(subscription_id), Value::from(key_id)],
    )?;
    result.first().map(|row| from_row(row, 0)).transpose()
}

/// What to change about a key's limits: `None` leaves a limit as it is, `Some(None)` removes it,
/// `Some(Some(n))` sets it (`0` blocks the key).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LimitChange {
    pub characters: Option<Option<i64>>,
    pub speech_ms: Option<Option<i64>>,
}

/// One key of the subscription: by id and of the given kind.
pub struct KeyRef<'a> {
    pub subscription_id: &'a str,
    pub key_id: &'a str,
    pub kind: KeyKind,
}

impl KeyRef<'_> {
    fn find(&self, db: &dyn Database) -> Result<ApiKey, KeyError> {
        find_key(db, self.subscription_id, self.key_id)?
            .filter(|key| key.kind == self.kind)
            .ok_or_else(|| KeyError::NotFound { kind: self.kind, id: self.key_id.to_owned() })
    }
}

/// Runs `change` on the key inside a transaction ([`KeyError::NotFound`] when the subscription
/// has no such key). `change` answers the key as it is afterwards and what changed (`None`:
/// nothing), which goes into the audit log.
fn change_key(
    services: &Services<'_>,
    key: &KeyRef<'_>,
    actor: Actor<'_>,
    action: Action,
    change: impl Fn(&dyn Database, ApiKey) -> Result<(ApiKey, Option<Changed>), KeyError>,
) -> Result<ApiKey, KeyError> {
    transaction(services.db, RetryPolicy::default(), |db| {
        let current = key.find(db)?;
        let (updated, changed) = change(db, current)?;
        if let Some(Changed { old, new }) = changed {
            let entry = Change {
                subscription_id: key.subscription_id,
                at: now(services.clock),
                actor,
                action,
                target: Target::Key { kind: key.kind, id: key.key_id },
                old: Some(old),
                new: Some(new),
            };
            audit::record(db, entry)?;
        }
        Ok(updated)
    })
}

/// Refuses a change to a deactivated key ([`KeyError::Deactivated`]): only deactivation itself
/// may be asked again, and changes nothing.
fn still_active(key: &ApiKey) -> Result<(), KeyError> {
    match key.is_active() {
        true => Ok(()),
        false => Err(KeyError::Deactivated { kind: key.kind, id: key.id.clone() }),
    }
}

/// The values a change replaced, and their replacements.
struct Changed {
    old: serde_json::Value,
    new: serde_json::Value,
}

/// Deactivates a key, for good: it stops working at once. Answers the key as it is now.
/// Deactivating a deactivated key changes nothing.
/// A subscription's last active admin key cannot be deactivated.
pub fn deactivate_key(services: &Services<'_>, key: KeyRef<'_>, actor: Actor<'_>) -> Result<ApiKey, KeyError> {
    let moment = now(services.clock);
    change_key(services, &key, actor, Action::DeactivateKey, |db, current| {
        if !current.is_active() {
            return Ok((current, None));
        }
        if current.kind == KeyKind::Admin {
            let others = db.execute(
                "SELECT COUNT(*) FROM api_keys
                  WHERE subscription_id = ? AND kind = 'admin' AND deactivated_at IS NULL AND id <> ?",
                &[Value::from(key.subscription_id), Value::from(key.key_id)],
            )?;
            if others.first().map(|row| row.get::<i64>(0)).transpose()?.unwrap_or(0) == 0 {
                return Err(KeyError::LastActiveAdminKey);
            }
        }
        db.execute(
            "UPDATE api_keys SET deactivated_at = ? WHERE subscription_id = ? AND id = ?",
            &[Value::from(rfc3339(moment)), Value::from(key.subscription_id), Value::from(key.key_id)],
        )?;
        let changed = Changed {
            old: json!({"is_deactivated": false}),
            new: json!({"is_deactivated": true, "deactivated_time": rfc3339(moment)}),
        };
        Ok((ApiKey { deactivated_at: Some(parse_stored(&rfc3339(moment))?), ..current }, Some(changed)))
    })
}

/// Renames a key; a deactivated key cannot be renamed ([`KeyError::Deactivated`]).
pub fn relabel_key(
    services: &Services<'_>,
    key: KeyRef<'_>,
    label: &str,
    actor: Actor<'_>,
) -> Result<ApiKey, KeyError> {
    change_key(services, &key, actor, Action::RelabelKey, |db, current| {
        still_active(&current)?;
        if current.label == label {
            return Ok((current, None));
        }
        db.execute(
            "UPDATE api_keys SET label = ? WHERE subscription_id = ? AND id = ?",
            &[Value::from(label), Value::from(key.subscription_id), Value::from(key.key_id)],
        )?;
        let changed = Changed { old: json!({"label": current.label}), new: json!({"label": label}) };
        Ok((ApiKey { label: label.to_owned(), ..current }, Some(changed)))
    })
}

/// Changes a key's limits. The next charge of the key reads the new limits. A deactivated key's
/// limits cannot be changed ([`KeyError::Deactivated`]).
pub fn set_key_limits(
    services: &Services<'_>,
    key: KeyRef<'_>,
    change: LimitChange,
    actor: Actor<'_>,
) -> Result<ApiKey, KeyError> {
    change_key(services, &key, actor, Action::ChangeKeyLimits, |db, current| {
        still_active(&current)?;
        let characters = change.characters.unwrap_or(current.character_limit);
        let speech_ms = change.speech_ms.unwrap_or(current.speech_limit_ms);
        if (characters, speech_ms) == (current.character_limit, current.speech_limit_ms) {
            return Ok((current, None));
        }
        db.execute(
            "UPDATE api_keys SET character_limit = ?, speech_limit_ms = ? WHERE subscription_id = ? AND id = ?",
            &[
                Value::from(characters),
                Value::from(speech_ms),
                Value::from(key.subscription_id),
                Value::from(key.key_id),
            ],
        )?;
        let limits = |characters: Option<i64>, speech: Option<i64>| json!({"characters": characters, "speech_to_text_milliseconds": speech});
        let changed = Changed {
            old: limits(current.character_limit, current.speech_limit_ms),
            new: limits(characters, speech_ms),
        };
        Ok((ApiKey { character_limit: characters, speech_limit_ms: speech_ms, ..current }, Some(changed)))
    })
}

/// Reads the key columns (in [`KEY_COLUMNS`] order) starting at `offset` of a row.
pub(crate) fn from_row(row: &platform::Row, offset: usize) -> Result<ApiKey, StoreError> {
    let kind: String = row.get(offset + 2)?;
    Ok(ApiKey {
        id: row.get(offset)?,
        subscription_id: row.get(offset + 1)?,
        kind: KeyKind::parse(&kind).ok_or(StoreError::Corrupt { what: "key kind", value: kind })?,
        label: row.get(offset + 3)?,
        created_at: parse_stored(&row.get::<String>(offset + 4)?)?,
        deactivated_at: row.get::<Option<String>>(offset + 5)?.map(|text| parse_stored(&text)).transpose()?,
        character_limit: row.get(offset + 6)?,
        speech_limit_ms: row.get(offset + 7)?,
    })
}

#[cfg(test)]
mod tests {
    use platform::Clock;

    use super::*;
    use crate::subscriptions::create_subscription;
    use crate::test_support::{at, audit_log};

    #[test]
    fn secrets_say_what_they_are_and_are_stored_only_as_digests() {
        let fixture = at(1_800_000_000);
        let services = fixture.services();
        let db = &fixture.db;
        let free = create_subscription(&services, Plan::Free).unwrap();
        let pro = create_subscription(&services, Plan::Pro).unwrap();

        let admin = create_key(&services, &pro, KeyKind::Admin, None, Actor::Operator).unwrap();
        let free_developer = create_key(&services, &free, KeyKind::Developer, Some("CI"), Actor::Operator).unwrap();
        let pro_developer = create_key(&services, &pro, KeyKind::Developer, None, Actor::Operator).unwrap();
        assert!(admin.secret.ends_with(":adm"));
        assert!(free_developer.secret.ends_with(":fx"));
        assert_eq!(pro_developer.secret.len(), 36);
        assert_eq!(admin.key.label, "Service Admin Key");
        assert_eq!(free_developer.key.label, "CI");
        let (first, second) = admin.key.id.split_once(':').unwrap();
        assert_eq!((first.len(), second.len()), (36, 36));

        let stored =
            db.execute("SELECT secret_hash FROM api_keys WHERE id = ?", &[admin.key.id.as_str().into()]).unwrap();
        assert_eq!(stored.rows[0].get::<Vec<u8>>(0).unwrap(), secret_digest(&admin.secret).to_vec());
        for table in ["api_keys", "audit_log"] {
            let everything = db.execute(&format!("SELECT * FROM {table}"), &[]).unwrap();
            assert!(!format!("{everything:?}").contains(&admin.secret[..8]), "{table} holds no secret");
        }
    }

    #[test]
    fn keys_are_deactivated_relabelled_and_limited_within_their_subscription() {
        let fixture = at(1_800_000_000);
        let services = fixture.services();
        let mine = create_subscription(&services, Plan::Pro).unwrap();
        let theirs = create_subscription(&services, Plan::Pro).unwrap();
        let key = create_key(&services, &mine, KeyKind::Developer, None, Actor::Operator).unwrap().key;
        let admin = Actor::AdminKey("admin-key-id");

        let reference = || KeyRef { subscription_id: &mine.id, key_id: &key.id, kind: KeyKind::Developer };
        let limits = |characters, speech_ms| LimitChange { characters, speech_ms };
        let limited = set_key_limits(&services, reference(), limits(Some(Some(10)), None), admin).unwrap();
        assert_eq!((limited.character_limit, limited.speech_limit_ms), (Some(10), None));
        let cleared = set_key_limits(&services, reference(), limits(Some(None), Some(Some(0))), admin).unwrap();
        assert_eq!((cleared.character_limit, cleared.speech_limit_ms), (None, Some(0)));
        assert_eq!(find_key(&fixture.db, &mine.id, &key.id).unwrap().unwrap(), cleared);
        assert_eq!(relabel_key(&services, reference(), "renamed", admin).unwrap().label, "renamed");
        let as_admin = KeyRef { kind: KeyKind::Admin, ..reference() };
        assert!(matches!(relabel_key(&services, as_admin, "wrong kind", admin), Err(KeyError::NotFound { .. })));
        assert_eq!(
            find_key(&fixture.db, &mine.id, &key.id).unwrap().unwrap().label,
            "renamed",
            "a wrong kind changes nothing"
        );

        let elsewhere = KeyRef { subscription_id: &theirs.id, ..reference() };
        let unknown = deactivate_key(&services, elsewhere, admin).unwrap_err();
        assert_eq!(unknown.to_string(), format!("Developer key {} not found.", key.id));
        let deactivated = deactivate_key(&services, reference(), admin).unwrap();
        assert_eq!(deactivated.deactivated_at, Some(time::OffsetDateTime::from(fixture.clock.now())));
        fixture.clock.advance(std::time::Duration::from_secs(60));
        let again = deactivate_key(&services, reference(), admin).unwrap();
        assert_eq!(again.deactivated_at, deactivated.deactivated_at, "deactivation is once and for all");
    }

    #[test]
    fn every_change_and_only_a_change_is_audited_with_its_actor_and_values() {
        let fixture = at(1_800_000_000); // 2027-01-15
        let services = fixture.services();
        let mine = create_subscription(&services, Plan::Pro).unwrap();
        let key = create_key(&services, &mine, KeyKind::Developer, Some("ci"), Actor::Operator).unwrap().key;
        let admin = Actor::AdminKey("admin-key-id");
        let reference = || KeyRef { subscription_id: &mine.id, key_id: &key.id, kind: KeyKind::Developer };
        relabel_key(&services, reference(), "build", admin).unwrap();
        relabel_key(&services, reference(), "build", admin).unwrap();
        let limits = LimitChange { characters: Some(Some(500)), speech_ms: None };
        set_key_limits(&services, reference(), limits, admin).unwrap();
        set_key_limits(&services, reference(), limits, admin).unwrap();
        deactivate_key(&services, reference(), admin).unwrap();
        deactivate_key(&services, reference(), admin).unwrap();

        let log = audit_log(&fixture.db, &mine.id);
        let summary: Vec<_> = log
            .iter()
            .map(|entry| (entry.action.as_str(), entry.admin_key_id.as_deref(), entry.target_id == key.id))
            .collect();
        assert_eq!(
            summary,
            [
                ("deactivate_key", Some("admin-key-id"), true),
                ("change_key_limits", Some("admin-key-id"), true),
                ("relabel_key", Some("admin-key-id"), true),
                ("create_key", None, true),
            ]
        );
        let limits_entry = &log[1];
        assert_eq!(limits_entry.old_value, Some(json!({"characters": null, "speech_to_text_milliseconds": null})));
        assert_eq!(limits_entry.new_value, Some(json!({"characters": 500, "speech_to_text_milliseconds": null})));
        assert_eq!(log[2].old_value, Some(json!({"label": "ci"})));
        assert_eq!(log[3].new_value, Some(json!({"label": "ci"})));
    }

    #[test]
    fn a_deactivated_key_is_neither_relabelled_nor_limited_and_nothing_is_audited() {
        let fixture = at(1_800_000_000);
        let services = fixture.services();
        let mine = create_subscription(&services, Plan::Pro).unwrap();
        let admin = Actor::AdminKey("admin-key-id");
        for kind in [KeyKind::Developer, KeyKind::Admin] {
            let key = create_key(&services, &mine, kind, Some("old"), Actor::Operator).unwrap().key;
            let reference = || KeyRef { subscription_id: &mine.id, key_id: &key.id, kind };
            if kind == KeyKind::Admin {
                // Another active admin key, so this one may be deactivated.
                create_key(&services, &mine, KeyKind::Admin, None, Actor::Operator).unwrap();
            }
            deactivate_key(&services, reference(), admin).unwrap();
            let entries = audit_log(&fixture.db, &mine.id).len();

            let relabelled = relabel_key(&services, reference(), "new", admin).unwrap_err();
            assert!(matches!(relabelled, KeyError::Deactivated { kind: refused, .. } if refused == kind));
            assert_eq!(
                relabelled.to_string(),
                format!("{} {} is deactivated; a deactivated key cannot be changed.", kind.title(), key.id)
            );
            let same_label = relabel_key(&services, reference(), "old", admin);
            assert!(matches!(same_label, Err(KeyError::Deactivated { .. })), "{same_label:?}");
            let limits = LimitChange { characters: Some(Some(10)), speech_ms: None };
            let limited = set_key_limits(&services, reference(), limits, admin);
            assert!(matches!(limited, Err(KeyError::Deactivated { .. })), "{limited:?}");

            let stored = find_key(&fixture.db, &mine.id, &key.id).unwrap().unwrap();
            assert_eq!((stored.label.as_str(), stored.character_limit), ("old", None));
            assert_eq!(audit_log(&fixture.db, &mine.id).len(), entries, "a refused change is not audited");
            assert!(deactivate_key(&services, reference(), admin).is_ok(), "deactivating again still answers");
        }
    }

    #[test]
    fn the_last_active_admin_key_stays_active() {
        let fixture = at(1_800_000_000);
        let services = fixture.services();
        let mine = create_subscription(&services, Plan::Pro).unwrap();
        let first = create_key(&services, &mine, KeyKind::Admin, None, Actor::Operator).unwrap().key;
        let second = create_key(&services, &mine, KeyKind::Admin, None, Actor::AdminKey(&first.id)).unwrap().key;
        let first_ref = KeyRef { subscription_id: &mine.id, key_id: &first.id, kind: KeyKind::Admin };
        let second_ref = KeyRef { key_id: &second.id, ..first_ref };

        let gone = deactivate_key(&services, first_ref, Actor::AdminKey(&first.id)).unwrap();
        assert!(!gone.is_active(), "an admin key may deactivate itself while another stays");
        let refused = deactivate_key(&services, second_ref, Actor::AdminKey(&second.id));
        assert!(matches!(refused, Err(KeyError::LastActiveAdminKey)), "{refused:?}");
        assert!(find_key(&fixture.db, &mine.id, &second.id).unwrap().unwrap().is_active());
    }

    #[test]
    fn a_subscription_has_at_most_25_active_keys_of_each_kind() {
        let fixture = at(1_800_000_000);
        let services = fixture.services();
        let mine = create_subscription(&services, Plan::Pro).unwrap();
        let keys: Vec<ApiKey> = (0..MAX_ACTIVE_KEYS)
            .map(|_| create_key(&services, &mine, KeyKind::Developer, None, Actor::Operator).unwrap().key)
            .collect();
        let refused = create_key(&services, &mine, KeyKind::Developer, None, Actor::Operator);
        assert!(matches!(refused, Err(KeyError::TooManyActive(KeyKind::Developer))), "{refused:?}");
        assert_eq!(
            refused.unwrap_err().to_string(),
            "A subscription may have at most 25 active developer keys; deactivate one first."
        );
        create_key(&services, &mine, KeyKind::Admin, None, Actor::Operator).expect("admin keys count apart");
        let first = KeyRef { subscription_id: &mine.id, key_id: &keys[0].id, kind: KeyKind::Developer };
        deactivate_key(&services, first, Actor::Operator).unwrap();
        create_key(&services, &mine, KeyKind::Developer, None, Actor::Operator).expect("room after a deactivation");
    }

    #[test]
    fn keys_are_listed_per_subscription_and_kind() {
        let fixture = at(1_800_000_000);
        let services = fixture.services();
        let mine = create_subscription(&services, Plan::Pro).unwrap();
        let theirs = create_subscription(&services, Plan::Pro).unwrap();
        let first = create_key(&services, &mine, KeyKind::Developer, Some("first"), Actor::Operator).unwrap();
        fixture.clock.advance(std::time::Duration::from_secs(1));
        create_key(&services, &mine, KeyKind::Developer, Some("second"), Actor::Operator).unwrap();
        create_key(&services, &mine, KeyKind::Admin, None, Actor::Operator).unwrap();
        let other = create_key(&services, &theirs, KeyKind::Developer, None, Actor::Operator).unwrap();

        let listed = list_keys(&fixture.db, &mine.id, KeyKind::Developer).unwrap();
        assert_eq!(listed.iter().map(|key| key.label.as_str()).collect::<Vec<_>>(), ["first", "second"]);
        assert_eq!(find_key(&fixture.db, &mine.id, &first.key.id).unwrap(), Some(first.key));
        assert_eq!(find_key(&fixture.db, &mine.id, &other.key.id).unwrap(), None);
    }
}
