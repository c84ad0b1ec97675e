//! The audit log: who changed which key, limit, cost control, rate limit, closed-beta switch or
//! spoken terms list, when, from what to what.
//!
//! Every change to a subscription's keys, limits and settings writes one entry in the same
//! transaction as the change itself, so the log can neither miss a change nor record one that did
//! not happen. A change that changes nothing (deactivating a deactivated key, a label set to
//! itself) writes nothing. Entries hold key ids, labels, names and terms, never secrets. Spoken
//! terms lists are `voice-sessions`' own: it records their changes through
//! [`record_spoken_terms`], the one way in from outside this crate. Entries are written for every plan;
//! only Pro subscriptions may read them (the admin API decides that), through `metering`'s
//! audit-log report.

use platform::{Clock, Database, Value};

use crate::error::StoreError;
use crate::model::KeyKind;
use crate::period::{now, rfc3339};

/// Who makes a change.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Actor<'a> {
    /// An admin key (its id), through the admin API.
    AdminKey(&'a str),
    /// The operator: the `glossa admin` commands, and the bootstrap key's first use.
    Operator,
}

impl Actor<'_> {
    fn key_id(&self) -> Option<&str> {
        match self {
            Actor::AdminKey(id) => Some(id),
            Actor::Operator => None,
        }
    }
}

/// What was done.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    CreateKey,
    RelabelKey,
    DeactivateKey,
    ChangeKeyLimits,
    ChangeCostControl,
    ChangeRateLimit,
    ChangeTranslatedSpeech,
    CreateSpokenTerms,
    ChangeSpokenTerms,
    DeleteSpokenTerms,
}

impl Action {
    fn as_str(self) -> &'static str {
        match self {
            Action::CreateKey => "create_key",
            Action::RelabelKey => "relabel_key",
            Action::DeactivateKey => "deactivate_key",
            Action::ChangeKeyLimits => "change_key_limits",
            Action::ChangeCostControl => "change_cost_control",
            Action::ChangeRateLimit => "change_rate_limit",
            Action::ChangeTranslatedSpeech => "change_translated_speech",
            Action::CreateSpokenTerms => "create_spoken_terms",
            Action::ChangeSpokenTerms => "change_spoken_terms",
            Action::DeleteSpokenTerms => "delete_spoken_terms",
        }
    }
}

/// What a change was made to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target<'a> {
    Key {
        kind: KeyKind,
        id: &'a str,
    },
    Subscription(&'a str),
    /// A spoken terms list, by its id.
    SpokenTerms(&'a str),
}

impl Target<'_> {
    fn parts(&self) -> (&'static str, &str) {
        match self {
            Target::Key { kind: KeyKind::Developer, id } => ("developer_key", id),
            Target::Key { kind: KeyKind::Admin, id } => ("admin_key", id),
            Target::Subscription(id) => ("subscription", id),
            Target::SpokenTerms(id) => ("spoken_terms", id),
        }
    }
}

/// One change, as [`record`] writes it.
pub(crate) struct Change<'a> {
    pub subscription_id: &'a str,
    pub at: time::OffsetDateTime,
    pub actor: Actor<'a>,
    pub action: Action,
    pub target: Target<'a>,
    /// The changed values before (`None` for a creation) and after.
    pub old: Option<serde_json::Value>,
    pub new: Option<serde_json::Value>,
}

/// Writes one entry; call it inside the transaction that makes the change.
pub(crate) fn record(db: &dyn Database, change: Change<'_>) -> Result<(), StoreError> {
    let (target_type, target_id) = change.target.parts();
    let json = |value: Option<serde_json::Value>| value.map(|value| value.to_string());
    db.execute(
        "INSERT INTO audit_log (subscription_id, at, actor_key_id, action, target_type, target_id, old_value, new_value)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        &[
            Value::from(change.subscription_id),
            Value::from(rfc3339(change.at)),
            Value::from(change.actor.key_id()),
            Value::from(change.action.as_str()),
            Value::from(target_type),
            Value::from(target_id),
            Value::from(json(change.old)),
            Value::from(json(change.new)),
        ],
    )?;
    Ok(())
}

/// What was done to a spoken terms list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SpokenTermsAction {
    Create,
    /// Its name, its terms or both replaced.
    Change,
    Delete,
}

/// A change to one of a subscription's spoken terms lists, as [`record_spoken_terms`] writes it.
#[derive(Debug, Clone, PartialEq)]
pub struct SpokenTermsChange<'a> {
    pub subscription_id: &'a str,
    /// The list's id.
    pub list_id: &'a str,
    pub actor: Actor<'a>,
    pub action: SpokenTermsAction,
    /// The changed values (`name`, `terms`) before (`None` for a creation) and after (`None` for
    /// a deletion).
    pub old: Option<serde_json::Value>,
    pub new: Option<serde_json::Value>,
}

/// Writes the entry of a change to a spoken terms list, at the clock's time; call it inside the
/// transaction that makes the change.
pub fn record_spoken_terms(
    db: &dyn Database,
    clock: &dyn Clock,
    change: SpokenTermsChange<'_>,
) -> Result<(), StoreError> {
    let action = match change.action {
        SpokenTermsAction::Create => Action::CreateSpokenTerms,
        SpokenTermsAction::Change => Action::ChangeSpokenTerms,
        SpokenTermsAction::Delete => Action::DeleteSpokenTerms,
    };
    record(
        db,
        Change {
            subscription_id: change.subscription_id,
            at: now(clock),
            actor: change.actor,
            action,
            target: Target::SpokenTerms(change.list_id),
            old: change.old,
            new: change.new,
        },
    )
}
