//! How large a request body may be, per route: the one table every component reads.
//!
//! A body is checked twice against its route's limit: its `Content-Length` before a byte of it is
//! read, then while it streams in (a body without a length, or one longer than it said). Either
//! way the answer is `413` with a JSON message naming the limit.
//!
//! A request without an `Authorization` header is read to [`UNAUTHENTICATED_BODY_BYTES`] at most,
//! whatever its route allows: its key, if any, is the legacy `auth_key` parameter, which only a
//! read body can reveal. Routes whose limit is larger read a body only after its key has been
//! checked, so that no unauthenticated request ever causes a large read. The one exception is a
//! URL that carries its own credential ([`url_carries_credential`]): an import's upload URL, whose
//! token is checked, like a key, before its body is read past that size.

/// The most any body is read before its key is known: text translation's limit (128 KiB, the
/// reference's). Old clients that still send `auth_key` send small bodies.
pub const UNAUTHENTICATED_BODY_BYTES: usize = 128 * 1024;

/// Routes no row names: admin, usage, analytics, languages and health take small JSON or form
/// bodies, if any.
pub const DEFAULT_BODY_BYTES: usize = 64 * 1024;

/// The body limit of each route, by path prefix; the first prefix that matches wins.
pub const BODY_LIMITS: &[(&str, usize)] = &[
    // The reference's request size for text translation.
    ("/v2/translate", 128 * 1024),
    ("/v1/translate", 128 * 1024),
    // The reference's request size for text improvement.
    ("/v2/write", 10 * 1024),
    // Detection takes up to 50 texts, as translation does: the same room.
    ("/v3/detect/language", 128 * 1024),
    // A glossary's entries may be up to 10 MB of TSV; JSON escaping and several dictionaries in one
    // v3 request need room beyond that.
    ("/v2/glossaries", 64 * 1024 * 1024),
    ("/v3/glossaries", 64 * 1024 * 1024),
    // A style rule list with its 200 custom instructions (300 characters each, JSON-escaped)
    // and its configured rules.
    ("/v3/style_rules", 1024 * 1024),
    // A translation memory's TMX file (raw, or the `file` part of a multipart body) of up to 64 MiB.
    ("/v3/translation_memories", 64 * 1024 * 1024),
    // A document of up to 30 MiB (office files on Pro) as the `file` part of a multipart body,
    // with the other parts beside it.
    ("/v2/document", 31 * 1024 * 1024),
];

/// Whether a request's URL carries its own credential (a `token` query parameter), as a
/// pre-signed storage URL does, so that clients send no key with it: an import's upload URL,
/// `PUT /v3/translation_memories/jobs/{job_id}/file?token=…`. Its component checks the token
/// before the body is read past [`UNAUTHENTICATED_BODY_BYTES`].
pub fn url_carries_credential(path: &str, query: &str) -> bool {
    let job_file = path
        .strip_prefix("/v3/translation_memories/jobs/")
        .and_then(|rest| rest.strip_suffix("/file"))
        .is_some_and(|job| !job.is_empty() && !job.contains('/'));
    job_file && query.split('&').any(|pair| pair.strip_prefix("token=").is_some_and(|token| !token.is_empty()))
}

/// The most a body sent to `path` may carry.
pub fn body_limit(path: &str) -> usize {
    BODY_LIMITS
        .iter()
        .find(|(prefix, _)| path.strip_prefix(prefix).is_some_and(|rest| rest.is_empty() || rest.starts_with('/')))
        .map_or(DEFAULT_BODY_BYTES, |(_, limit)| *limit)
}

/// The `413` for a body over `limit` bytes.
pub fn too_large(limit: usize) -> crate::ApiError {
    crate::ApiError::new(413, format!("Request Entity Too Large: the body may not exceed {}.", human_size(limit)))
}

/// The `413` for a large body sent without an `Authorization` header.
pub fn too_large_unauthenticated() -> crate::ApiError {
    crate::ApiError::new(
        413,
        format!(
            "Request Entity Too Large: without an Authorization header a body may not exceed {}; send the key as `Authorization: Service-Auth-Key <key>`.",
            human_size(UNAUTHENTICATED_BODY_BYTES)
        ),
    )
}

/// `128 KiB`, `64 MiB`: a size as the API's messages write it.
pub fn human_size(bytes: usize) -> String {
    if bytes >= 1 << 20 && bytes.is_multiple_of(1 << 20) {
        format!("{} MiB", bytes >> 20)
    } else {
        format!("{} KiB", bytes.div_ceil(1 << 10))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_route_finds_its_own_limit() {
        assert_eq!(body_limit("/v2/translate"), 128 * 1024);
        assert_eq!(body_limit("/v3/glossaries/abc/dictionaries"), 64 * 1024 * 1024);
        assert_eq!(body_limit("/v2/glossaries"), 64 * 1024 * 1024);
        assert_eq!(body_limit("/v2/admin/developer-keys"), DEFAULT_BODY_BYTES);
        // A prefix matches whole segments only.
        assert_eq!(body_limit("/v2/translatex"), DEFAULT_BODY_BYTES);
    }

    #[test]
    fn the_413_names_the_limit() {
        assert_eq!(too_large(128 * 1024).message, "Request Entity Too Large: the body may not exceed 128 KiB.");
        assert_eq!(too_large(128 * 1024).status, 413);
        assert!(too_large_unauthenticated().message.contains("Authorization"));
        assert!(url_carries_credential("/v3/translation_memories/jobs/a1/file", "token=ab"));
        assert!(!url_carries_credential("/v3/translation_memories/jobs/a1/file", "token="));
        assert!(!url_carries_credential("/v3/translation_memories/jobs/a1/file", ""));
        assert!(!url_carries_credential("/v3/translation_memories/a1/tmx", "token=ab"));
        assert!(!url_carries_credential("/v3/translation_memories/jobs/a/b/file", "token=ab"));
    }
}
