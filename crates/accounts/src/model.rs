//! The account model every part of this crate (and its callers) shares: plans, subscriptions,
//! keys, and who is calling. Plain data; the stores that read and write it are the other
//! modules.

use time::OffsetDateTime;

/// A subscription's plan.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Plan {
    Free,
    Pro,
}

impl Plan {
    pub fn as_str(self) -> &'static str {
        match self {
            Plan::Free => "free",
            Plan::Pro => "pro",
        }
    }

    pub fn parse(text: &str) -> Option<Plan> {
        match text.trim().to_ascii_lowercase().as_str() {
            "free" => Some(Plan::Free),
            "pro" => Some(Plan::Pro),
            _ => None,
        }
    }
}

/// A customer account.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Subscription {
    pub id: String,
    pub plan: Plan,
    pub created_at: OffsetDateTime,
    /// When the first billing period began; every period starts on its day of the month.
    pub billing_anchor: OffsetDateTime,
    /// Characters per period (`None`: unlimited).
    pub character_limit: Option<i64>,
    /// Speech milliseconds per period (`None`: unlimited).
    pub speech_limit_ms: Option<i64>,
}

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

    /// How the API's messages start with keys of this kind.
    pub fn title(self) -> &'static str {
        match self {
            KeyKind::Admin => "Admin key",
            KeyKind::Developer => "Developer key",
        }
    }

    /// How the API's messages name keys of this kind.
    pub fn noun(self) -> &'static str {
        match self {
            KeyKind::Admin => "admin key",
            KeyKind::Developer => "developer key",
        }
    }

    pub(crate) fn parse(text: &str) -> Option<KeyKind> {
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

/// Who is calling: the key and its subscription.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Principal {
    pub subscription: Subscription,
    pub key: ApiKey,
}
