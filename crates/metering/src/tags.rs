//! Custom reporting tags (`X-Service-Reporting-Tag`): which team, project or customer a request
//! is attributed to in the usage analytics.

/// The longest tag, in characters.
pub const MAX_TAG_LENGTH: usize = 100;

/// A valid tag: ASCII, trimmed, lower-cased, without whitespace or control characters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReportingTag(String);

/// Why a tag was refused (each a 400 naming the header).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TagError {
    #[error("Invalid X-Service-Reporting-Tag header: the tag is empty.")]
    Empty,
    #[error("Invalid X-Service-Reporting-Tag header: the tag is longer than 100 characters.")]
    TooLong,
    #[error("Invalid X-Service-Reporting-Tag header: the tag may contain only ASCII characters.")]
    NotAscii,
    #[error("Invalid X-Service-Reporting-Tag header: the tag may not contain whitespace or control characters.")]
    Whitespace,
    #[error("Invalid X-Service-Reporting-Tag header: send one tag per request.")]
    Repeated,
}

impl ReportingTag {
    /// Validates the header's values (`None` when the header is absent).
    pub fn from_headers<'a>(mut values: impl Iterator<Item = &'a [u8]>) -> Result<Option<ReportingTag>, TagError> {
        let Some(first) = values.next() else { return Ok(None) };
        if values.next().is_some() {
            return Err(TagError::Repeated);
        }
        Self::parse(first).map(Some)
    }

    /// Validates one header value.
    pub fn parse(raw: &[u8]) -> Result<ReportingTag, TagError> {
        if !raw.is_ascii() {
            return Err(TagError::NotAscii);
        }
        let text =
            std::str::from_utf8(raw).map_err(|_| TagError::NotAscii)?.trim_matches(|c: char| c == ' ' || c == '\t');
        if text.is_empty() {
            return Err(TagError::Empty);
        }
        if text.len() > MAX_TAG_LENGTH {
            return Err(TagError::TooLong);
        }
        if text.chars().any(|c| c.is_ascii_whitespace() || c.is_ascii_control()) {
            return Err(TagError::Whitespace);
        }
        Ok(ReportingTag(text.to_ascii_lowercase()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_are_trimmed_and_lower_cased() {
        assert_eq!(ReportingTag::parse(b"  Team-Alpha_2 ").unwrap().as_str(), "team-alpha_2");
    }

    #[test]
    fn invalid_tags_say_why() {
        assert_eq!(ReportingTag::parse(b"   "), Err(TagError::Empty));
        assert_eq!(ReportingTag::parse("équipe".as_bytes()), Err(TagError::NotAscii));
        assert_eq!(ReportingTag::parse(b"two words"), Err(TagError::Whitespace));
        assert_eq!(ReportingTag::parse(b"tab\there"), Err(TagError::Whitespace));
        assert_eq!(ReportingTag::parse(b"bell\x07"), Err(TagError::Whitespace));
        assert_eq!(ReportingTag::parse("x".repeat(101).as_bytes()), Err(TagError::TooLong));
        assert!(ReportingTag::parse("x".repeat(100).as_bytes()).is_ok());
    }

    #[test]
    fn one_tag_per_request() {
        let values: Vec<&[u8]> = vec![b"a", b"b"];
        assert_eq!(ReportingTag::from_headers(values.into_iter()), Err(TagError::Repeated));
        assert_eq!(ReportingTag::from_headers(std::iter::empty()), Ok(None));
    }
}
