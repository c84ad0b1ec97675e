//! The two error types of this crate: what went wrong while translating, and what is wrong with
//! the configuration.

use catalogue::Language;
use platform::VarError;

/// Why an engine could not translate a request.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EngineError {
    /// The engine is down, refused the request, timed out or answered a server error. The caller
    /// answers 503 and bills nothing.
    #[error("the {engine} engine is unavailable: {reason}")]
    Unavailable { engine: &'static str, reason: String },
    /// The engine does not serve this language pair (the caller answers 400). The message is the
    /// API's.
    #[error("The translation engine does not translate from {} to {}.", .from.code(), .to.code())]
    UnsupportedPair { from: &'static Language, to: &'static Language },
    /// The engine answered, but with something unusable (the caller answers 503).
    #[error("the engine answered something unusable: {0}")]
    Invalid(String),
}

/// Why the engine configuration cannot be used. Every variant names the variable at fault; none
/// carries the value of a secret.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ConfigError {
    /// A required variable is not set (or set to an empty string).
    #[error("variable `{variable}` is not set; it must be {expected}")]
    Missing { variable: &'static str, expected: &'static str },
    /// The variable is set to something unusable.
    #[error("variable `{variable}`: {reason}")]
    Invalid { variable: &'static str, reason: String },
    /// The host could not produce the variable.
    #[error("variable `{variable}` could not be read: {source}")]
    Unreadable {
        variable: &'static str,
        #[source]
        source: VarError,
    },
}

impl ConfigError {
    /// What is wrong, for the API's answers and the health report: the variable and the problem,
    /// without the host's cause of an unreadable variable (which goes only to the log). No
    /// variant quotes a secret or a URL.
    pub fn problem(&self) -> String {
        match self {
            ConfigError::Unreadable { variable, .. } => format!("variable `{variable}` could not be read"),
            other => other.to_string(),
        }
    }

    /// The variable this error is about.
    pub fn variable(&self) -> &'static str {
        match self {
            ConfigError::Missing { variable, .. }
            | ConfigError::Invalid { variable, .. }
            | ConfigError::Unreadable { variable, .. } => variable,
        }
    }
}

/// The [`EngineError::Unavailable`] for a request that got no response.
pub(crate) fn unreachable(
    engine: &'static str,
    error: platform::HttpError,
    timeout: std::time::Duration,
) -> EngineError {
    use platform::HttpError;
    let reason = match error {
        HttpError::Timeout(url) => format!("no answer from {url} within {} ms", timeout.as_millis()),
        HttpError::Unreachable { url, reason } => format!("could not reach {url}: {reason}"),
        HttpError::Denied(url) => {
            format!("the host refused to send the request to {url} (is it in allowed_outbound_hosts?)")
        }
        HttpError::Invalid(reason) => format!("could not send the request: {reason}"),
    };
    EngineError::Unavailable { engine, reason }
}

/// At most `max` characters of a back end's text, for error messages.
pub(crate) fn excerpt(text: &str, max: usize) -> String {
    let mut chars = text.trim().chars();
    let mut excerpt: String = chars.by_ref().take(max).collect();
    if chars.next().is_some() {
        excerpt.push('…');
    }
    excerpt
}

/// What a back end's error body says: its `explanation` (APY) or `message` (the inference
/// service), or else an excerpt of the body.
pub(crate) fn server_message(body: &[u8]) -> String {
    #[derive(serde::Deserialize)]
    struct ErrorBody {
        explanation: Option<String>,
        message: Option<String>,
    }
    match serde_json::from_slice::<ErrorBody>(body) {
        Ok(ErrorBody { explanation: Some(text), .. } | ErrorBody { message: Some(text), .. }) => excerpt(&text, 200),
        _ => excerpt(&String::from_utf8_lossy(body), 200),
    }
}
