//! Spoken terms lists (beta): a name and terms (names, jargon) that inform the recognition of a
//! session's speech. Admin keys manage them under `/v2/admin/spoken-terms`; a session names one
//! by `spoken_terms_id`, and a gateway's claim reads its terms (`gateway.rs`), which the gateway
//! gives the recogniser as its prompt, joined by [`TERMS_SEPARATOR`].
//!
//! * `request.rs`: a list's `name` and `terms`, checked against the limits below.
//! * `store.rs`: the lists and their terms (`sql/0016_spoken_terms.sql`), scoped by subscription.
//!
//! The limits, in one place. The inference service takes a prompt of at most
//! [`MAX_PROMPT_CHARS`] characters, so a list's terms, joined as the gateway joins them, must fit
//! in it: a list the recogniser could not use is refused when it is written, not when a session
//! streams.

pub mod request;
pub mod store;

#[cfg(test)]
mod tests;

/// Characters in a list's name (after trimming; at least one).
pub const MAX_NAME_CHARS: usize = 1024;
/// Terms in one list (at least one).
pub const MAX_TERMS: usize = 250;
/// Characters in one term (after trimming; at least one).
pub const MAX_TERM_CHARS: usize = 100;
/// How the gateway joins a list's terms into the recogniser's prompt.
pub const TERMS_SEPARATOR: &str = ", ";
/// Characters in a list's terms joined by [`TERMS_SEPARATOR`]: the inference service's limit
/// on a recognition prompt.
pub const MAX_PROMPT_CHARS: usize = 1000;
/// Lists one subscription may hold.
pub const MAX_LISTS: i64 = 100;
