//! Request parameters, whichever way a client sends them.
//!
//! The API takes the same parameters as a JSON object, as an `application/x-www-form-urlencoded`
//! body, or (on a few deprecated GET routes) in the query string. In forms, lists repeat their
//! key (`text=a&text=b`) or, for tag and id lists, separate items with commas; booleans are
//! `1`/`0` or `true`/`false`. [`Params`] hides those differences from the handlers, and its
//! accessors turn a wrong value into a 400 that names the parameter.
//!
//! A form body is decoded in the `charset` its `Content-Type` declares (UTF-8 when it declares
//! none): any ASCII-compatible encoding of the WHATWG Encoding Standard, so `latin1`,
//! `ISO-8859-1` and `windows-1252` (one encoding there), the other ISO-8859 and windows code
//! pages, KOI8, Shift_JIS, EUC-KR, GBK and Big5. JSON is UTF-8 only (RFC 8259): a JSON body
//! declaring another charset, and a form declaring one that is unknown or not ASCII-compatible
//! (UTF-16), is a 415 that names the charset.

use encoding_rs::{Encoding, UTF_8};
use serde_json::Value;

use crate::ApiError;

/// A request's parameters, in the order they came.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Params {
    entries: Vec<(String, Value)>,
}

/// The largest request body the API reads (128 KiB, the text translation limit).
pub const MAX_BODY_BYTES: usize = 128 * 1024;

impl Params {
    /// Parameters from a request body, by its `Content-Type` (form when absent, as the API
    /// has always accepted). Other types, and charsets that cannot be read, are a 415.
    pub fn from_body(content_type: Option<&str>, body: &[u8]) -> Result<Params, ApiError> {
        Self::from_body_within(content_type, body, MAX_BODY_BYTES)
    }

    /// [`Params::from_body`] for endpoints that take larger bodies than text translation
    /// (glossary uploads): a body over `limit` bytes is a 413.
    pub fn from_body_within(content_type: Option<&str>, body: &[u8], limit: usize) -> Result<Params, ApiError> {
        check_body_size(body, limit)?;
        match BodyFormat::of(content_type)? {
            BodyFormat::Json => Self::from_json(body),
            BodyFormat::Form(charset) => Ok(Self::from_form_in(body, charset)),
        }
    }

    /// Parameters from a UTF-8 form body or a query string.
    pub fn from_form(encoded: &[u8]) -> Params {
        Self::from_form_in(encoded, Charset::UTF_8)
    }

    /// Parameters from a form body whose percent-decoded bytes are in `charset`.
    pub fn from_form_in(encoded: &[u8], charset: Charset) -> Params {
        form_pairs(encoded, charset).map(|(key, value)| (key, Value::String(value))).collect()
    }

    /// Parameters from a JSON object.
    pub fn from_json(body: &[u8]) -> Result<Params, ApiError> {
        if body.iter().all(u8::is_ascii_whitespace) {
            return Ok(Params::default());
        }
        match serde_json::from_slice::<Value>(body) {
            Ok(Value::Object(object)) => Ok(Params { entries: object.into_iter().collect() }),
            Ok(_) => Err(ApiError::bad_request("Invalid request: the JSON body must be an object.")),
            Err(error) => Err(ApiError::bad_request(format!("Invalid request: the body is not valid JSON ({error})."))),
        }
    }

    /// Parameters from a JSON object already parsed (an item of a list of objects).
    pub fn from_object(object: serde_json::Map<String, Value>) -> Params {
        Params { entries: object.into_iter().collect() }
    }

    /// Adds one parameter (after any of the same name).
    pub fn push(&mut self, name: impl Into<String>, value: Value) {
        self.entries.push((name.into(), value));
    }

    /// Adds parameters that were not given already (e.g. the query string's under a body's).
    pub fn merge_missing(&mut self, other: Params) {
        for (key, value) in other.entries {
            if !self.contains(&key) {
                self.entries.push((key, value));
            }
        }
    }

    pub fn contains(&self, name: &str) -> bool {
        self.entries.iter().any(|(key, _)| key == name)
    }

    /// The names of every parameter given.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.entries.iter().map(|(key, _)| key.as_str())
    }

    fn values<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Value> + 'a {
        self.entries.iter().filter(move |(key, _)| key == name).map(|(_, value)| value)
    }

    /// The raw value of a parameter given once (a JSON body's nested arrays and objects).
    pub fn value<'a>(&'a self, name: &'a str) -> Option<&'a Value> {
        self.values(name).next()
    }

    /// The first text value of a parameter, leniently (no error for lists or repeats): for
    /// credentials, where the first `auth_key` counts, as clients expect.
    pub fn first_text<'a>(&'a self, name: &'a str) -> Option<&'a str> {
        self.values(name).find_map(|value| value.as_str())
    }

    /// A single text value (`None` when absent). A list, object or repeated key is a 400.
    pub fn string(&self, name: &str) -> Result<Option<String>, ApiError> {
        let mut values = self.values(name);
        let Some(first) = values.next() else { return Ok(None) };
        if values.next().is_some() {
            return Err(invalid(name));
        }
        match first {
            Value::String(text) => Ok(Some(text.clone())),
            Value::Number(number) => Ok(Some(number.to_string())),
            Value::Bool(flag) => Ok(Some(flag.to_string())),
            Value::Null => Ok(None),
            _ => Err(invalid(name)),
        }
    }

    /// A required single text value.
    pub fn required_string(&self, name: &str) -> Result<String, ApiError> {
        self.string(name)?.ok_or_else(|| missing(name))
    }

    /// A list of texts: a JSON array (or a single string), or a repeated form key.
    pub fn strings(&self, name: &str) -> Result<Option<Vec<String>>, ApiError> {
        let mut items = Vec::new();
        let mut present = false;
        for value in self.values(name) {
            present = true;
            match value {
                Value::String(text) => items.push(text.clone()),
                Value::Array(array) => {
                    for item in array {
                        match item {
                            Value::String(text) => items.push(text.clone()),
                            _ => return Err(invalid(name)),
                        }
                    }
                }
                Value::Null => {}
                _ => return Err(invalid(name)),
            }
        }
        Ok(present.then_some(items))
    }

    /// A list of names or ids: a JSON array, repeated keys, or comma-separated items.
    pub fn list(&self, name: &str) -> Result<Option<Vec<String>>, ApiError> {
        Ok(self.strings(name)?.map(|items| {
            items
                .iter()
                .flat_map(|item| item.split(','))
                .map(str::trim)
                .filter(|item| !item.is_empty())
                .map(str::to_owned)
                .collect()
        }))
    }

    /// A boolean: JSON `true`/`false`, or `1`/`0`/`true`/`false` as text (any case).
    pub fn bool(&self, name: &str) -> Result<Option<bool>, ApiError> {
        let mut values = self.values(name);
        let Some(first) = values.next() else { return Ok(None) };
        if values.next().is_some() {
            return Err(invalid(name));
        }
        match first {
            Value::Bool(flag) => Ok(Some(*flag)),
            Value::Number(number) if number.as_i64() == Some(1) => Ok(Some(true)),
            Value::Number(number) if number.as_i64() == Some(0) => Ok(Some(false)),
            Value::String(text) => match text.trim().to_ascii_lowercase().as_str() {
                "1" | "true" => Ok(Some(true)),
                "0" | "false" => Ok(Some(false)),
                _ => Err(invalid(name)),
            },
            Value::Null => Ok(None),
            _ => Err(invalid(name)),
        }
    }

    /// An integer: a JSON number or its text.
    pub fn integer(&self, name: &str) -> Result<Option<i64>, ApiError> {
        let mut values = self.values(name);
        let Some(first) = values.next() else { return Ok(None) };
        if values.next().is_some() {
            return Err(invalid(name));
        }
        match first {
            Value::Number(number) => number.as_i64().map(Some).ok_or_else(|| invalid(name)),
            Value::String(text) => text.trim().parse().map(Some).map_err(|_| invalid(name)),
            Value::Null => Ok(None),
            _ => Err(invalid(name)),
        }
    }
}

impl FromIterator<(String, Value)> for Params {
    fn from_iter<I: IntoIterator<Item = (String, Value)>>(entries: I) -> Params {
        Params { entries: entries.into_iter().collect() }
    }
}

impl Params {
    /// A limit that may be cleared: absent (`None`: leave it as it is), `null` or empty
    /// (`Some(None)`: no limit), or a non-negative integer (`Some(Some(n))`).
    pub fn nullable_count(&self, name: &str) -> Result<Option<Option<i64>>, ApiError> {
        let mut values = self.values(name);
        let Some(first) = values.next() else { return Ok(None) };
        if values.next().is_some() {
            return Err(invalid(name));
        }
        let count = match first {
            Value::Null => return Ok(Some(None)),
            Value::String(text) if text.trim().is_empty() || text.trim() == "null" => return Ok(Some(None)),
            Value::String(text) => text.trim().parse::<i64>().ok(),
            Value::Number(number) => number.as_i64(),
            _ => None,
        };
        match count {
            Some(count) if count >= 0 => Ok(Some(Some(count))),
            _ => Err(ApiError::bad_request(format!(
                "Value for '{name}' not supported: it must be a non-negative integer or null."
            ))),
        }
    }
}

/// A 413 when `body` is longer than `limit` bytes.
pub fn check_body_size(body: &[u8], limit: usize) -> Result<(), ApiError> {
    if body.len() > limit { Err(crate::limits::too_large(limit)) } else { Ok(()) }
}

/// How a body is written, by its `Content-Type`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BodyFormat {
    /// `application/json`, UTF-8.
    Json,
    /// `application/x-www-form-urlencoded` (or no `Content-Type`), in this charset.
    Form(Charset),
}

impl BodyFormat {
    /// The format a `Content-Type` names: JSON in UTF-8, or a form in a charset that can be
    /// read; anything else is a 415 naming the media type or the charset.
    pub fn of(content_type: Option<&str>) -> Result<BodyFormat, ApiError> {
        let mut parts = content_type.unwrap_or_default().split(';');
        let media_type = parts.next().unwrap_or_default().trim().to_ascii_lowercase();
        let charset = parts.find_map(|parameter| {
            let (name, value) = parameter.split_once('=')?;
            name.trim().eq_ignore_ascii_case("charset").then(|| value.trim().trim_matches('"').to_owned())
        });
        match media_type.as_str() {
            "application/json" => match charset.as_deref() {
                None => Ok(BodyFormat::Json),
                Some(label) if Encoding::for_label(label.as_bytes()) == Some(UTF_8) => Ok(BodyFormat::Json),
                Some(label) => Err(unsupported_charset(format!(
                    "Unsupported charset `{label}`: a JSON body must be UTF-8 (RFC 8259)."
                ))),
            },
            "application/x-www-form-urlencoded" | "" => match charset {
                None => Ok(BodyFormat::Form(Charset::UTF_8)),
                Some(label) => Charset::for_label(&label).map(BodyFormat::Form).ok_or_else(|| {
                    unsupported_charset(format!(
                        "Unsupported charset `{label}`: send UTF-8, or an ASCII-compatible charset such as ISO-8859-1."
                    ))
                }),
            },
            other => Err(ApiError::new(
                415,
                format!(
                    "Unsupported Content-Type `{other}`: send application/json or application/x-www-form-urlencoded."
                ),
            )
            .with_code("invalid_content_type")),
        }
    }
}

fn unsupported_charset(message: String) -> ApiError {
    ApiError::new(415, message).with_code("invalid_content_type")
}

/// The character encoding of a form's percent-decoded bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Charset(&'static Encoding);

impl Charset {
    pub const UTF_8: Charset = Charset(UTF_8);

    /// The charset a `charset` label names (WHATWG labels, any case), if it is ASCII-compatible,
    /// as a form body's structure (`=`, `&`, `%XX`) must be.
    pub fn for_label(label: &str) -> Option<Charset> {
        Encoding::for_label(label.trim().as_bytes()).filter(|encoding| encoding.is_ascii_compatible()).map(Charset)
    }

    /// Its canonical name (`windows-1252` for `latin1`).
    pub fn name(self) -> &'static str {
        self.0.name()
    }

    /// `bytes` as text; bytes that are no character of the charset become U+FFFD.
    pub fn decode(self, bytes: &[u8]) -> String {
        self.0.decode_without_bom_handling(bytes).0.into_owned()
    }
}

/// The `name=value` pairs of a form body or query string, decoded one at a time (`+` is a
/// space, `%XX` a byte; the bytes are then read in `charset`), so a reader may stop early.
pub fn form_pairs(encoded: &[u8], charset: Charset) -> impl Iterator<Item = (String, String)> + '_ {
    encoded.split(|&byte| byte == b'&').filter(|pair| !pair.is_empty()).map(move |pair| {
        let (name, value) = match pair.iter().position(|&byte| byte == b'=') {
            Some(at) => (&pair[..at], &pair[at + 1..]),
            None => (pair, &[][..]),
        };
        (charset.decode(&percent_decode(name)), charset.decode(&percent_decode(value)))
    })
}

/// `+` → space and `%XX` → the byte XX; a `%` not followed by two hex digits stays as it is.
fn percent_decode(encoded: &[u8]) -> Vec<u8> {
    let hex = |byte: u8| (byte as char).to_digit(16).map(|digit| digit as u8);
    let mut decoded = Vec::with_capacity(encoded.len());
    let mut at = 0;
    while at < encoded.len() {
        match encoded[at] {
            b'+' => decoded.push(b' '),
            b'%' if at + 2 < encoded.len() => match (hex(encoded[at + 1]), hex(encoded[at + 2])) {
                (Some(high), Some(low)) => {
                    decoded.push(high << 4 | low);
                    at += 3;
                    continue;
                }
                _ => decoded.push(b'%'),
            },
            byte => decoded.push(byte),
        }
        at += 1;
    }
    decoded
}

/// `Parameter '<name>' not specified`.
pub fn missing(name: &str) -> ApiError {
    ApiError::bad_request(format!("Parameter '{name}' not specified"))
}

/// `Value for '<name>' not supported.`
pub fn invalid(name: &str) -> ApiError {
    ApiError::bad_request(format!("Value for '{name}' not supported."))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_and_form_bodies_give_the_same_parameters() {
        let json = Params::from_body(
            Some("application/json; charset=utf-8"),
            br#"{"text": ["Hello", "World"], "target_lang": "DE", "show_billed_characters": true, "splitting_tags": ["p", "h1"]}"#,
        )
        .unwrap();
        let form = Params::from_body(
            None,
            b"text=Hello&text=World&target_lang=DE&show_billed_characters=1&splitting_tags=p,h1",
        )
        .unwrap();
        for params in [json, form] {
            assert_eq!(params.strings("text").unwrap().unwrap(), ["Hello", "World"]);
            assert_eq!(params.required_string("target_lang").unwrap(), "DE");
            assert_eq!(params.bool("show_billed_characters").unwrap(), Some(true));
            assert_eq!(params.list("splitting_tags").unwrap().unwrap(), ["p", "h1"]);
            assert_eq!(params.string("source_lang").unwrap(), None);
        }
    }

    #[test]
    fn wrong_values_name_the_parameter() {
        let params = Params::from_json(br#"{"preserve_formatting": "yes", "text": 5, "threshold": "x"}"#).unwrap();
        assert_eq!(
            params.bool("preserve_formatting").unwrap_err().message,
            "Value for 'preserve_formatting' not supported."
        );
        assert_eq!(params.strings("text").unwrap_err().message, "Value for 'text' not supported.");
        assert_eq!(params.integer("threshold").unwrap_err().message, "Value for 'threshold' not supported.");
        assert_eq!(params.required_string("target_lang").unwrap_err().message, "Parameter 'target_lang' not specified");
    }

    #[test]
    fn unusable_bodies_are_refused_with_the_right_status() {
        assert_eq!(Params::from_body(Some("text/plain"), b"hi").unwrap_err().status, 415);
        assert_eq!(Params::from_body(Some("application/json"), b"[1]").unwrap_err().status, 400);
        assert_eq!(Params::from_body(Some("application/json"), b"{").unwrap_err().status, 400);
        let big = vec![b'a'; MAX_BODY_BYTES + 1];
        assert_eq!(Params::from_body(None, &big).unwrap_err().status, 413);
    }

    #[test]
    fn a_form_is_decoded_in_the_charset_it_declares() {
        // "Grüße" in ISO-8859-1: ü = FC, ß = DF, percent-encoded or as raw bytes.
        for content_type in [
            "application/x-www-form-urlencoded; charset=latin1",
            "application/x-www-form-urlencoded;charset=\"ISO-8859-1\"",
            "application/x-www-form-urlencoded; Charset=windows-1252",
        ] {
            let params = Params::from_body(Some(content_type), b"text=Gr%FC%DFe&text=Gr\xfc\xdfe+!").unwrap();
            assert_eq!(params.strings("text").unwrap().unwrap(), ["Grüße", "Grüße !"], "{content_type}");
        }
        let utf8 = Params::from_body(Some("application/x-www-form-urlencoded; charset=UTF-8"), b"t=Gr%C3%BC%C3%9Fe");
        assert_eq!(utf8.unwrap().required_string("t").unwrap(), "Grüße");
        assert_eq!(Params::from_form(b"t=Gr%C3%BC%C3%9Fe").required_string("t").unwrap(), "Grüße");
        // Invalid bytes of the charset become U+FFFD; a lone `%` stays as it is.
        assert_eq!(Params::from_form(b"t=%FF%&u=%4").required_string("t").unwrap(), "\u{FFFD}%");
        assert_eq!(Params::from_form(b"u=%4").required_string("u").unwrap(), "%4");
    }

    #[test]
    fn charsets_that_cannot_be_read_are_a_415_naming_them() {
        for (content_type, named) in [
            ("application/x-www-form-urlencoded; charset=klingon", "`klingon`"),
            ("application/x-www-form-urlencoded; charset=UTF-16", "`UTF-16`"),
            ("application/json; charset=latin1", "`latin1`"),
            ("application/json; charset=utf-16le", "`utf-16le`"),
        ] {
            let error = Params::from_body(Some(content_type), b"{}").unwrap_err();
            assert_eq!(error.status, 415, "{content_type}");
            assert!(error.message.contains(named), "{content_type}: {}", error.message);
        }
        assert!(Params::from_body(Some("application/json; charset=UTF-8"), br#"{"a": 1}"#).is_ok());
    }

    #[test]
    fn form_pairs_are_read_one_at_a_time() {
        let mut pairs = form_pairs(b"a=1&&b&c=x%3Dy", Charset::UTF_8);
        assert_eq!(pairs.next(), Some(("a".to_owned(), "1".to_owned())));
        assert_eq!(pairs.next(), Some(("b".to_owned(), String::new())));
        assert_eq!(pairs.next(), Some(("c".to_owned(), "x=y".to_owned())));
        assert_eq!(pairs.next(), None);
        assert_eq!(Charset::for_label("latin1").unwrap().name(), "windows-1252");
    }

    #[test]
    fn a_nullable_count_tells_absent_null_and_numbers_apart() {
        let json = Params::from_json(br#"{"characters": null, "speech": 5000, "bad": -1}"#).unwrap();
        assert_eq!(json.nullable_count("absent").unwrap(), None);
        assert_eq!(json.nullable_count("characters").unwrap(), Some(None));
        assert_eq!(json.nullable_count("speech").unwrap(), Some(Some(5000)));
        assert!(json.nullable_count("bad").unwrap_err().message.contains("non-negative"));
        let form = Params::from_form(b"characters=&speech=0");
        assert_eq!(form.nullable_count("characters").unwrap(), Some(None));
        assert_eq!(form.nullable_count("speech").unwrap(), Some(Some(0)));
    }

    #[test]
    fn query_parameters_fill_in_what_the_body_lacks() {
        let mut body = Params::from_form(b"text=Hi");
        body.merge_missing(Params::from_form(b"text=ignored&target_lang=FR"));
        assert_eq!(body.strings("text").unwrap().unwrap(), ["Hi"]);
        assert_eq!(body.required_string("target_lang").unwrap(), "FR");
    }
}
