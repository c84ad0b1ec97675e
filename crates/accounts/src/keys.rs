//! API keys: ids, secrets, and their records.
//!
//! A key's id (two UUIDs joined by `:`) is public and names the key in the admin API; its secret
//! is shown once, at creation, and stored only as a SHA-256 digest. Secrets are UUIDs with a
//! suffix saying what they are, as clients expect: `:adm` for admin keys, `:fx` for developer
//! keys of Free subscriptions, none for developer keys of Pro subscriptions.

use platform::{Database, Random, Value};
use sha2::{Digest, Sha256};
use time::OffsetDateTime;

use crate::Services;
use crate::error::StoreError;
use crate::period::{now, parse_stored, rfc3339};
use crate::subscriptions::{Plan, Subscription};

/// How many developer keys a subscription may have active at once.
pub const MAX_ACTIVE_DEVELOPER_KEYS: usize = 25;

/// What a key may be used for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyKind {
    /// The admin API and `/v2/usage`.
    Admin,
    /// Everything but the admin API.
    Developer,
}

impl KeyKind {
    pub fn as_str(self) -> &'static str {
        match self {
            KeyKind::Admin => "admin",
            KeyKind::Developer => "developer",
        }
    }

    fn parse(text: &str) -> Option<KeyKind> {
        match text {
            "admin" => Some(KeyKind::Admin),
            "developer" => Some(KeyKind::Developer),
            _ => None,
        }
    }

    /// The label a key of this kind gets when none is given.
    pub fn default_label(self) -> &'static str {
        match self {
            KeyKind::Admin => "Service Admin Key",
            KeyKind::Developer => "Service API Key",
        }
    }
}

/// A key as stored (without its secret).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiKey {
    pub id: String,
    pub subscription_id: String,
    pub kind: KeyKind,
    pub label: String,
    pub created_at: OffsetDateTime,
    pub deactivated_at: Option<OffsetDateTime>,
    /// Characters per billing period (`None`: unlimited; `Some(0)`: blocked).
    pub character_limit: Option<i64>,
    /// Speech milliseconds per billing period (`None`: unlimited; `Some(0)`: blocked).
    pub speech_limit_ms: Option<i64>,
}

impl ApiKey {
    pub fn is_active(&self) -> bool {
        self.deactivated_at.is_none()
    }
}

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

pub(crate) fn new_uuid(random: &dyn Random) -> String {
    let mut bytes = [0u8; 16];
    random.fill(&mut bytes);
    uuid::Builder::from_random_bytes(bytes).into_uuid().hyphenated().to_string()
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

/// Creates a key for `subscription` with a fresh secret.
pub fn create_key(
    services: &Services<'_>,
    subscription: &Subscription,
    kind: KeyKind,
    label: Option<&str>,
) -> Result<NewKey, StoreError> {
    let secret = new_secret(services.random, kind, subscription.plan);
    create_key_with_secret(services, subscription, kind, label, secret)
}

/// Creates a key whose secret the caller chose (the bootstrap admin key).
pub fn create_key_with_secret(
    services: &Services<'_>,
    subscription: &Subscription,
    kind: KeyKind,
    label: Option<&str>,
    secret: String,
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
    fn find(&self, db: &dyn Database) -> Result<Option<ApiKey>, StoreError> {
        Ok(find_key(db, self.subscription_id, self.key_id)?.filter(|key| key.kind == self.kind))
    }
}

/// Deactivates a key, for good. Answers the key as it is now, or `None` when the subscription
/// has no such key. Deactivating a deactivated key changes nothing.
pub fn deactivate_key(services: &Services<'_>, key: KeyRef<'_>) -> Result<Option<ApiKey>, StoreError> {
    services.db.execute(
        "UPDATE api_keys SET deactivated_at = ?
          WHERE subscription_id = ? AND id = ? AND kind = ? AND deactivated_at IS NULL",
        &[
            Value::from(rfc3339(now(services.clock))),
            Value::from(key.subscription_id),
            Value::from(key.key_id),
            Value::from(key.kind.as_str()),
        ],
    )?;
    key.find(services.db)
}

/// Renames a key; `None` when the subscription has no such key.
pub fn relabel_key(db: &dyn Database, key: KeyRef<'_>, label: &str) -> Result<Option<ApiKey>, StoreError> {
    db.execute(
        "UPDATE api_keys SET label = ? WHERE subscription_id = ? AND id = ? AND kind = ?",
        &[
            Value::from(label),
            Value::from(key.subscription_id),
            Value::from(key.key_id),
            Value::from(key.kind.as_str()),
        ],
    )?;
    key.find(db)
}

/// Changes a key's limits; `None` when the subscription has no such key. The next charge of the
/// key reads the new limits.
pub fn set_key_limits(db: &dyn Database, key: KeyRef<'_>, change: LimitChange) -> Result<Option<ApiKey>, StoreError> {
    let Some(current) = key.find(db)? else { return Ok(None) };
    let characters = change.characters.unwrap_or(current.character_limit);
    let speech_ms = change.speech_ms.unwrap_or(current.speech_limit_ms);
    db.execute(
        "UPDATE api_keys SET character_limit = ?, speech_limit_ms = ? WHERE subscription_id = ? AND id = ? AND kind = ?",
        &[
            Value::from(characters),
            Value::from(speech_ms),
            Value::from(key.subscription_id),
            Value::from(key.key_id),
            Value::from(key.kind.as_str()),
        ],
    )?;
    Ok(Some(ApiKey { character_limit: characters, speech_limit_ms: speech_ms, ..current }))
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
    use platform::{Clock, FixedClock, OsRandom};

    use super::*;
    use crate::subscriptions::create_subscription;
    use crate::test_support::database;

    #[test]
    fn secrets_say_what_they_are_and_are_stored_only_as_digests() {
        let db = database();
        let clock = FixedClock::at_unix(1_800_000_000);
        let services = Services { db: &db, clock: &clock, random: &OsRandom };
        let free = create_subscription(&services, Plan::Free).unwrap();
        let pro = create_subscription(&services, Plan::Pro).unwrap();

        let admin = create_key(&services, &pro, KeyKind::Admin, None).unwrap();
        let free_developer = create_key(&services, &free, KeyKind::Developer, Some("CI")).unwrap();
        let pro_developer = create_key(&services, &pro, KeyKind::Developer, None).unwrap();
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
        let everything = db.execute("SELECT * FROM api_keys", &[]).unwrap();
        assert!(!format!("{everything:?}").contains(&admin.secret[..8]));
    }

    #[test]
    fn keys_are_deactivated_relabelled_and_limited_within_their_subscription() {
        let db = database();
        let clock = FixedClock::at_unix(1_800_000_000);
        let services = Services { db: &db, clock: &clock, random: &OsRandom };
        let mine = create_subscription(&services, Plan::Pro).unwrap();
        let theirs = create_subscription(&services, Plan::Pro).unwrap();
        let key = create_key(&services, &mine, KeyKind::Developer, None).unwrap().key;

        let reference = || KeyRef { subscription_id: &mine.id, key_id: &key.id, kind: KeyKind::Developer };
        let limited = set_key_limits(&db, reference(), LimitChange { characters: Some(Some(10)), speech_ms: None })
            .unwrap()
            .unwrap();
        assert_eq!((limited.character_limit, limited.speech_limit_ms), (Some(10), None));
        let cleared =
            set_key_limits(&db, reference(), LimitChange { characters: Some(None), speech_ms: Some(Some(0)) })
                .unwrap()
                .unwrap();
        assert_eq!((cleared.character_limit, cleared.speech_limit_ms), (None, Some(0)));
        assert_eq!(relabel_key(&db, reference(), "renamed").unwrap().unwrap().label, "renamed");
        let as_admin = KeyRef { kind: KeyKind::Admin, ..reference() };
        assert_eq!(relabel_key(&db, as_admin, "wrong kind").unwrap(), None);
        assert_eq!(find_key(&db, &mine.id, &key.id).unwrap().unwrap().label, "renamed", "a wrong kind changes nothing");

        let elsewhere = KeyRef { subscription_id: &theirs.id, ..reference() };
        assert_eq!(deactivate_key(&services, elsewhere).unwrap(), None);
        let deactivated = deactivate_key(&services, reference()).unwrap().unwrap();
        assert_eq!(deactivated.deactivated_at, Some(OffsetDateTime::from(clock.now())));
        clock.advance(std::time::Duration::from_secs(60));
        let again = deactivate_key(&services, reference()).unwrap().unwrap();
        assert_eq!(again.deactivated_at, deactivated.deactivated_at, "deactivation is once and for all");
    }

    #[test]
    fn keys_are_listed_per_subscription_and_kind() {
        let db = database();
        let clock = FixedClock::at_unix(1_800_000_000);
        let services = Services { db: &db, clock: &clock, random: &OsRandom };
        let mine = create_subscription(&services, Plan::Pro).unwrap();
        let theirs = create_subscription(&services, Plan::Pro).unwrap();
        let first = create_key(&services, &mine, KeyKind::Developer, Some("first")).unwrap();
        clock.advance(std::time::Duration::from_secs(1));
        create_key(&services, &mine, KeyKind::Developer, Some("second")).unwrap();
        create_key(&services, &mine, KeyKind::Admin, None).unwrap();
        let other = create_key(&services, &theirs, KeyKind::Developer, None).unwrap();

        let listed = list_keys(&db, &mine.id, KeyKind::Developer).unwrap();
        assert_eq!(listed.iter().map(|key| key.label.as_str()).collect::<Vec<_>>(), ["first", "second"]);
        assert_eq!(find_key(&db, &mine.id, &first.key.id).unwrap(), Some(first.key));
        assert_eq!(find_key(&db, &mine.id, &other.key.id).unwrap(), None);
    }
}
