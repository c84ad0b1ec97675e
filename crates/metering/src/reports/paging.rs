//! The `page` of a paged report (custom tags, audit log): absent or `0` for the first page,
//! otherwise a `next_page` the previous page answered, which the report checks is one of its own
//! ([`crate::ReportError`]).

use crate::error::QueryError;

/// The optional `page`: a non-negative integer (absent or empty: 0, the first page).
pub fn parse_page(value: Option<&str>) -> Result<i64, QueryError> {
    let Some(text) = value.map(str::trim).filter(|text| !text.is_empty()) else { return Ok(0) };
    match text.parse::<i64>() {
        Ok(page) if text.bytes().all(|byte| byte.is_ascii_digit()) => Ok(page),
        _ => Err(QueryError::Page),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_is_a_non_negative_integer_and_absent_means_the_first() {
        for (value, expected) in [(None, 0), (Some(""), 0), (Some("0"), 0), (Some("8388609"), 8_388_609)] {
            assert_eq!(parse_page(value).unwrap(), expected, "{value:?}");
        }
        for wrong in ["-1", "+3", "1.5", "abc", "99999999999999999999"] {
            let error = parse_page(Some(wrong)).unwrap_err().to_string();
            assert!(error.starts_with("Value for 'page' not supported"), "{wrong}: {error}");
        }
    }
}
