//! Glossary request bodies, read as they stream and refused at the first thing past a limit.
//!
//! A body is read into its parameters (`name`, `source_lang`, …, as JSON scalars) and its
//! `dictionaries`, without building anything else: a JSON body through a serde visitor that
//! keeps a dictionary's four strings and stops at the dictionary past [`MAX_DICTIONARIES`] or
//! at entries over [`MAX_ENTRIES_BYTES`]; a form one pair at a time. So a 40 MB upload of
//! 600,000 dictionaries costs a few hundred dictionaries' reading, not 600,000 objects.
//!
//! Dictionaries come as a JSON array of objects, or, in a form, as indexed keys
//! (`dictionaries[0].source_lang=en&dictionaries[0].entries=…&dictionaries[1]…`, as the official
//! Node client sends them) or as one `dictionaries` value holding the JSON array. A parameter
//! the request does not take, a repeated one, an index that is not a number or leaves a gap, and
//! a field a dictionary does not have are refused, each naming the key: nothing sent is ignored.

use serde::Deserializer as _;
use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

use crate::limits::{MAX_DICTIONARIES, MAX_ENTRIES_BYTES};
use crate::request::RawDictionary;

/// A glossary request's body as sent: its parameters and its dictionaries.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RawUpload {
    /// Every parameter but `dictionaries`, in the order sent; values are JSON scalars (a form's
    /// are strings).
    pub params: Vec<(String, Value)>,
    /// `None` when not sent (or `null`).
    pub dictionaries: Option<Vec<RawDictionary>>,
}

/// Why a body was refused: each a 400, but [`UploadError::EntriesTooLarge`] (413).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UploadError {
    #[error("Invalid request: the body is not valid JSON ({0}).")]
    Json(String),
    #[error("Invalid request: the JSON body must be an object.")]
    NotObject,
    /// A value of the wrong type, or a parameter sent twice.
    #[error("Value for '{0}' not supported.")]
    Invalid(String),
    #[error("Unknown parameter '{name}': this request takes {takes}.")]
    Unknown { name: String, takes: String },
    #[error("Value for 'dictionaries' not supported: it must be an array of dictionary objects.")]
    NotDictionaries,
    #[error(
        "Value for '{0}' not supported: a dictionary has the fields source_lang, target_lang, entries and entries_format."
    )]
    UnknownField(String),
    #[error("Value for '{0}' not supported: the key must be dictionaries[<index>].<field>, the index a number from 0.")]
    BadIndex(String),
    #[error(
        "Value for '{present}' not supported: '{missing}' was not sent; dictionaries are numbered from 0 without gaps."
    )]
    Gap { present: String, missing: String },
    #[error(
        "Value for 'dictionaries' not supported: send the dictionaries as dictionaries[<index>].<field> keys or as one 'dictionaries' value, not both."
    )]
    Mixed,
    #[error("Value for 'dictionaries' not supported: a glossary holds at most {MAX_DICTIONARIES} dictionaries.")]
    TooManyDictionaries,
    #[error(
        "Request Entity Too Large: the entries of one dictionary ('{0}') may not exceed 10 MiB ({MAX_ENTRIES_BYTES} bytes)."
    )]
    EntriesTooLarge(String),
}

/// The parameters one request takes (besides the legacy `auth_key`, which every one takes).
#[derive(Debug, Clone, Copy)]
pub struct Accepted<'a>(pub &'a [&'a str]);

impl Accepted<'_> {
    fn check(&self, name: &str) -> Result<(), UploadError> {
        if name == "auth_key" || self.0.contains(&name) {
            return Ok(());
        }
        let takes = match self.0 {
            [] => "no parameters".to_owned(),
            names => names.iter().map(|name| format!("'{name}'")).collect::<Vec<_>>().join(", "),
        };
        Err(UploadError::Unknown { name: name.to_owned(), takes })
    }
}

/// Reads a JSON body.
pub fn read_json(body: &[u8], accepted: Accepted<'_>) -> Result<RawUpload, UploadError> {
    let Some(&first) = body.iter().find(|byte| !byte.is_ascii_whitespace()) else {
        return Ok(RawUpload::default());
    };
    if first != b'{' {
        return match serde_json::from_slice::<IgnoredAny>(body) {
            Ok(_) => Err(UploadError::NotObject),
            Err(error) => Err(UploadError::Json(error.to_string())),
        };
    }
    let mut upload = RawUpload::default();
    let mut failure = None;
    let mut deserializer = serde_json::Deserializer::from_slice(body);
    let read = deserializer
        .deserialize_map(TopLevel { accepted, upload: &mut upload, failure: &mut failure })
        .and_then(|()| deserializer.end());
    match (failure, read) {
        (Some(error), _) => Err(error),
        (None, Err(error)) => Err(UploadError::Json(error.to_string())),
        (None, Ok(())) => Ok(upload),
    }
}

/// Reads a form's `name=value` pairs (already decoded), one at a time.
pub fn read_form(
    pairs: impl Iterator<Item = (String, String)>,
    accepted: Accepted<'_>,
) -> Result<RawUpload, UploadError> {
    let mut upload = RawUpload::default();
    let mut indexed: Vec<Option<RawDictionary>> = Vec::new();
    for (key, value) in pairs {
        if key == "dictionaries" || key.starts_with("dictionaries[") {
            accepted.check("dictionaries")?;
        } else {
            accepted.check(&key)?;
        }
        if let Some(rest) = key.strip_prefix("dictionaries[") {
            let (index, field) = rest.split_once("].").ok_or_else(|| UploadError::BadIndex(key.clone()))?;
            let index = dictionary_index(index).ok_or_else(|| UploadError::BadIndex(key.clone()))?;
            if index >= MAX_DICTIONARIES {
                return Err(UploadError::TooManyDictionaries);
            }
            if indexed.len() <= index {
                indexed.resize(index + 1, None);
            }
            let dictionary = indexed[index].get_or_insert_with(RawDictionary::default);
            let slot = field_slot(dictionary, field).ok_or_else(|| UploadError::UnknownField(key.clone()))?;
            if slot.is_some() {
                return Err(UploadError::Invalid(key));
            }
            if field == "entries" && value.len() > MAX_ENTRIES_BYTES {
                return Err(UploadError::EntriesTooLarge(key));
            }
            *slot = Some(value);
        } else if key == "dictionaries" {
            if upload.dictionaries.is_some() {
                return Err(UploadError::Invalid(key));
            }
            upload.dictionaries = dictionaries_from_text(&value)?;
        } else {
            if upload.params.iter().any(|(name, _)| *name == key) {
                return Err(UploadError::Invalid(key));
            }
            upload.params.push((key, Value::String(value)));
        }
    }
    if !indexed.is_empty() {
        if upload.dictionaries.is_some() {
            return Err(UploadError::Mixed);
        }
        if let Some(missing) = indexed.iter().position(Option::is_none) {
            // The vector only grows to a sent index, so a later one was sent.
            let present = (missing..indexed.len()).find(|&index| indexed[index].is_some()).unwrap_or(missing);
            return Err(UploadError::Gap {
                present: format!("dictionaries[{present}]"),
                missing: format!("dictionaries[{missing}]"),
            });
        }
        upload.dictionaries = Some(indexed.into_iter().flatten().collect());
    }
    Ok(upload)
}

/// `0`, `1`, … `12` (no sign, no leading zero); `None` for anything else.
fn dictionary_index(text: &str) -> Option<usize> {
    let canonical =
        !text.is_empty() && text.bytes().all(|byte| byte.is_ascii_digit()) && (text == "0" || !text.starts_with('0'));
    if !canonical {
        return None;
    }
    // Too many digits to be a usize is past any limit anyway.
    Some(text.parse().unwrap_or(usize::MAX))
}

/// The field of a dictionary a key names.
fn field_slot<'a>(dictionary: &'a mut RawDictionary, field: &str) -> Option<&'a mut Option<String>> {
    match field {
        "source_lang" => Some(&mut dictionary.source_lang),
        "target_lang" => Some(&mut dictionary.target_lang),
        "entries" => Some(&mut dictionary.entries),
        "entries_format" => Some(&mut dictionary.entries_format),
        _ => None,
    }
}

/// The dictionaries of a `dictionaries` value sent as JSON text (a form's, or a JSON string).
fn dictionaries_from_text(text: &str) -> Result<Option<Vec<RawDictionary>>, UploadError> {
    let mut failure = None;
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let read = DictionariesSeed { failure: &mut failure, nested: true }
        .deserialize(&mut deserializer)
        .and_then(|dictionaries| deserializer.end().map(|()| dictionaries));
    match (failure, read) {
        (Some(error), _) => Err(error),
        (None, Err(_)) => Err(UploadError::NotDictionaries),
        (None, Ok(dictionaries)) => Ok(dictionaries),
    }
}

/// Records why reading stopped, and stops the deserializer.
fn stop<E: de::Error>(failure: &mut Option<UploadError>, error: UploadError) -> E {
    let message = error.to_string();
    *failure = Some(error);
    E::custom(message)
}

/// The body's object: each member as it comes.
struct TopLevel<'s, 'a> {
    accepted: Accepted<'a>,
    upload: &'s mut RawUpload,
    failure: &'s mut Option<UploadError>,
}

impl<'de> Visitor<'de> for TopLevel<'_, '_> {
    type Value = ();

    fn expecting(&self, formatter: &mut std::fmt::Formatter) -> std::fmt::Result {
        formatter.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut dictionaries_seen = false;
        while let Some(key) = map.next_key::<String>()? {
            if let Err(error) = self.accepted.check(&key) {
                return Err(stop(self.failure, error));
            }
            if key == "dictionaries" {
                if dictionaries_seen {
                    return Err(stop(self.failure, UploadError::Invalid(key)));
                }
                dictionaries_seen = true;
                self.upload.dictionaries =
                    map.next_value_seed(DictionariesSeed { failure: self.failure, nested: false })?;
            } else {
                if self.upload.params.iter().any(|(name, _)| *name == key) {
                    return Err(stop(self.failure, UploadError::Invalid(key)));
                }
                let value = map.next_value_seed(ScalarSeed { name: &key, failure: self.failure })?;
                self.upload.params.push((key, value));
            }
        }
        Ok(())
    }
}

/// A parameter's value: a string, number, boolean or null; an array or object is refused
/// before it is read.
struct ScalarSeed<'s> {
    name: &'s str,
    failure: &'s mut Option<UploadError>,
}

impl<'de> DeserializeSeed<'de> for ScalarSeed<'_> {
    type Value = Value;

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for ScalarSeed<'_> {
    type Value = Value;

    fn expecting(&self, formatter: &mut std::fmt::Formatter) -> std::fmt::Result {
        formatter.write_str("a string, number, boolean or null")
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<Value, E> {
        Ok(Value::String(text.to_owned()))
    }

    fn visit_string<E: de::Error>(self, text: String) -> Result<Value, E> {
        Ok(Value::String(text))
    }

    fn visit_bool<E: de::Error>(self, flag: bool) -> Result<Value, E> {
        Ok(Value::Bool(flag))
    }

    fn visit_i64<E: de::Error>(self, number: i64) -> Result<Value, E> {
        Ok(Value::from(number))
    }

    fn visit_u64<E: de::Error>(self, number: u64) -> Result<Value, E> {
        Ok(Value::from(number))
    }

    fn visit_f64<E: de::Error>(self, number: f64) -> Result<Value, E> {
        Ok(Value::from(number))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, _: A) -> Result<Value, A::Error> {
        Err(stop(self.failure, UploadError::Invalid(self.name.to_owned())))
    }

    fn visit_map<A: MapAccess<'de>>(self, _: A) -> Result<Value, A::Error> {
        Err(stop(self.failure, UploadError::Invalid(self.name.to_owned())))
    }
}

/// `dictionaries`: an array of dictionary objects (or `null`), or the array as JSON text
/// (`nested` once inside such a text, where another text is refused).
struct DictionariesSeed<'s> {
    failure: &'s mut Option<UploadError>,
    nested: bool,
}

impl<'de> DeserializeSeed<'de> for DictionariesSeed<'_> {
    type Value = Option<Vec<RawDictionary>>;

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for DictionariesSeed<'_> {
    type Value = Option<Vec<RawDictionary>>;

    fn expecting(&self, formatter: &mut std::fmt::Formatter) -> std::fmt::Result {
        formatter.write_str("an array of dictionary objects")
    }

    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut items: A) -> Result<Self::Value, A::Error> {
        let mut dictionaries = Vec::new();
        loop {
            let seed = DictionarySeed { index: dictionaries.len(), failure: &mut *self.failure };
            match items.next_element_seed(seed)? {
                Some(dictionary) => dictionaries.push(dictionary),
                None => return Ok(Some(dictionaries)),
            }
        }
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<Self::Value, E> {
        if self.nested {
            return Err(stop(self.failure, UploadError::NotDictionaries));
        }
        dictionaries_from_text(text).map_err(|error| stop(self.failure, error))
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
        Err(stop(self.failure, UploadError::NotDictionaries))
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
        Err(stop(self.failure, UploadError::NotDictionaries))
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
        Err(stop(self.failure, UploadError::NotDictionaries))
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
        Err(stop(self.failure, UploadError::NotDictionaries))
    }

    fn visit_map<A: MapAccess<'de>>(self, _: A) -> Result<Self::Value, A::Error> {
        Err(stop(self.failure, UploadError::NotDictionaries))
    }
}

/// One dictionary object of the array, the `index`th: refused before it is read when it is
/// one too many.
struct DictionarySeed<'s> {
    index: usize,
    failure: &'s mut Option<UploadError>,
}

impl<'de> DeserializeSeed<'de> for DictionarySeed<'_> {
    type Value = RawDictionary;

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<RawDictionary, D::Error> {
        if self.index >= MAX_DICTIONARIES {
            return Err(stop(self.failure, UploadError::TooManyDictionaries));
        }
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for DictionarySeed<'_> {
    type Value = RawDictionary;

    fn expecting(&self, formatter: &mut std::fmt::Formatter) -> std::fmt::Result {
        formatter.write_str("a dictionary object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut fields: A) -> Result<RawDictionary, A::Error> {
        let mut dictionary = RawDictionary::default();
        while let Some(field) = fields.next_key::<String>()? {
            let key = format!("dictionaries[{}].{field}", self.index);
            let Some(slot) = field_slot(&mut dictionary, &field) else {
                return Err(stop(self.failure, UploadError::UnknownField(key)));
            };
            if slot.is_some() {
                return Err(stop(self.failure, UploadError::Invalid(key)));
            }
            let value = match fields.next_value_seed(ScalarSeed { name: &key, failure: &mut *self.failure })? {
                Value::String(text) => Some(text),
                Value::Null => None,
                _ => return Err(stop(self.failure, UploadError::Invalid(key))),
            };
            if field == "entries" && value.as_ref().is_some_and(|text| text.len() > MAX_ENTRIES_BYTES) {
                return Err(stop(self.failure, UploadError::EntriesTooLarge(key)));
            }
            *slot = value;
        }
        Ok(dictionary)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, _: A) -> Result<RawDictionary, A::Error> {
        Err(stop(self.failure, UploadError::NotDictionaries))
    }

    fn visit_str<E: de::Error>(self, _: &str) -> Result<RawDictionary, E> {
        Err(stop(self.failure, UploadError::NotDictionaries))
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<RawDictionary, E> {
        Err(stop(self.failure, UploadError::NotDictionaries))
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<RawDictionary, E> {
        Err(stop(self.failure, UploadError::NotDictionaries))
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<RawDictionary, E> {
        Err(stop(self.failure, UploadError::NotDictionaries))
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<RawDictionary, E> {
        Err(stop(self.failure, UploadError::NotDictionaries))
    }

    fn visit_unit<E: de::Error>(self) -> Result<RawDictionary, E> {
        Err(stop(self.failure, UploadError::NotDictionaries))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const V3: Accepted<'static> = Accepted(&["name", "dictionaries"]);

    fn raw(source: &str, target: &str, entries: &str, format: Option<&str>) -> RawDictionary {
        RawDictionary {
            source_lang: Some(source.into()),
            target_lang: Some(target.into()),
            entries: Some(entries.into()),
            entries_format: format.map(str::to_owned),
        }
    }

    fn form(pairs: &[(&str, &str)]) -> Result<RawUpload, UploadError> {
        read_form(pairs.iter().map(|(key, value)| (key.to_string(), value.to_string())), V3)
    }

    #[test]
    fn json_bodies_give_parameters_and_dictionaries_in_order() {
        let body = br#"{"name": "Terms", "dictionaries": [
            {"source_lang": "en", "target_lang": "de", "entries": "a\tb", "entries_format": "tsv"},
            {"source_lang": "de", "target_lang": "en", "entries": "c\td", "entries_format": null}], "auth_key": "k"}"#;
        let upload = read_json(body, V3).unwrap();
        assert_eq!(
            upload.params,
            [("name".to_owned(), Value::from("Terms")), ("auth_key".to_owned(), Value::from("k"))]
        );
        assert_eq!(upload.dictionaries.unwrap(), [raw("en", "de", "a\tb", Some("tsv")), raw("de", "en", "c\td", None)]);
        let as_text = read_json(br#"{"dictionaries": "[{\"source_lang\": \"en\"}]"}"#, V3).unwrap();
        assert_eq!(as_text.dictionaries.unwrap()[0].source_lang.as_deref(), Some("en"));
        assert_eq!(read_json(b" ", V3).unwrap(), RawUpload::default());
        assert_eq!(read_json(br#"{"dictionaries": null}"#, V3).unwrap().dictionaries, None);
    }

    #[test]
    fn json_bodies_are_refused_naming_what_is_wrong() {
        let refused = |body: &str| read_json(body.as_bytes(), V3).unwrap_err().to_string();
        assert_eq!(refused("[1]"), "Invalid request: the JSON body must be an object.");
        assert!(refused("{").starts_with("Invalid request: the body is not valid JSON"));
        assert!(refused(r#"{"name": "a"} x"#).starts_with("Invalid request: the body is not valid JSON"));
        assert_eq!(refused(r#"{"name": ["a"]}"#), "Value for 'name' not supported.");
        assert_eq!(refused(r#"{"name": "a", "name": "b"}"#), "Value for 'name' not supported.");
        assert_eq!(
            refused(r#"{"source_lang": "en"}"#),
            "Unknown parameter 'source_lang': this request takes 'name', 'dictionaries'."
        );
        assert_eq!(
            refused(r#"{"dictionaries": 5}"#),
            "Value for 'dictionaries' not supported: it must be an array of dictionary objects."
        );
        assert_eq!(refused(r#"{"dictionaries": [5]}"#), UploadError::NotDictionaries.to_string());
        assert_eq!(refused(r#"{"dictionaries": "\"[]\""}"#), UploadError::NotDictionaries.to_string());
        assert_eq!(
            refused(r#"{"dictionaries": [{"source_lang": "en"}, {"source": "en"}]}"#),
            UploadError::UnknownField("dictionaries[1].source".into()).to_string()
        );
        assert_eq!(
            refused(r#"{"dictionaries": [{"entries": 5}]}"#),
            "Value for 'dictionaries[0].entries' not supported."
        );
        let big = format!(r#"{{"dictionaries": [{{"entries": "{}"}}]}}"#, "a".repeat(MAX_ENTRIES_BYTES + 1));
        assert_eq!(
            read_json(big.as_bytes(), V3).unwrap_err(),
            UploadError::EntriesTooLarge("dictionaries[0].entries".into())
        );
    }

    #[test]
    fn reading_stops_at_the_dictionary_past_the_limit() {
        // The items after it are never read: garbage there does not change the answer.
        let mut body = String::from(r#"{"name": "x", "dictionaries": ["#);
        for _ in 0..MAX_DICTIONARIES {
            body.push_str(r#"{"source_lang": "en", "target_lang": "de", "entries": "a\tb"},"#);
        }
        body.push_str(r#"{"source_lang": "en"}, this is not JSON"#);
        assert_eq!(read_json(body.as_bytes(), V3).unwrap_err(), UploadError::TooManyDictionaries);
        let exactly: String =
            format!(r#"{{"dictionaries": [{}]}}"#, vec![r#"{"source_lang": "en"}"#; MAX_DICTIONARIES].join(","));
        assert_eq!(read_json(exactly.as_bytes(), V3).unwrap().dictionaries.unwrap().len(), MAX_DICTIONARIES);
    }

    #[test]
    fn indexed_form_keys_become_dictionaries_in_index_order() {
        let upload = form(&[
            ("name", "Terms"),
            ("dictionaries[1].source_lang", "de"),
            ("dictionaries[0].source_lang", "en"),
            ("dictionaries[0].target_lang", "de"),
            ("dictionaries[0].entries", "a\tb"),
            ("dictionaries[0].entries_format", "tsv"),
            ("dictionaries[1].target_lang", "en"),
            ("dictionaries[1].entries", "c,d"),
            ("dictionaries[1].entries_format", "csv"),
        ])
        .unwrap();
        assert_eq!(upload.params, [("name".to_owned(), Value::from("Terms"))]);
        assert_eq!(
            upload.dictionaries.unwrap(),
            [raw("en", "de", "a\tb", Some("tsv")), raw("de", "en", "c,d", Some("csv"))]
        );
        let as_text = form(&[("dictionaries", r#"[{"source_lang": "en", "entries": "a\tb"}]"#)]).unwrap();
        assert_eq!(as_text.dictionaries.unwrap()[0].entries.as_deref(), Some("a\tb"));
        assert_eq!(form(&[("name", "x")]).unwrap().dictionaries, None);
    }

    #[test]
    fn broken_indexed_form_keys_are_refused_naming_the_key() {
        let refused = |pairs: &[(&str, &str)]| form(pairs).unwrap_err();
        assert_eq!(
            refused(&[("dictionaries[0].source_lang", "en"), ("dictionaries[2].source_lang", "de")]),
            UploadError::Gap { present: "dictionaries[2]".into(), missing: "dictionaries[1]".into() }
        );
        assert_eq!(
            refused(&[("dictionaries[1].source_lang", "en")]).to_string(),
            "Value for 'dictionaries[1]' not supported: 'dictionaries[0]' was not sent; dictionaries are numbered from 0 without gaps."
        );
        for key in
            ["dictionaries[a].source_lang", "dictionaries[-1].entries", "dictionaries[01].entries", "dictionaries[0]"]
        {
            assert_eq!(refused(&[(key, "x")]), UploadError::BadIndex(key.into()), "{key}");
        }
        assert_eq!(
            refused(&[("dictionaries[0].source", "en")]),
            UploadError::UnknownField("dictionaries[0].source".into())
        );
        assert_eq!(
            refused(&[("dictionaries[0].entries", "a"), ("dictionaries[0].entries", "b")]),
            UploadError::Invalid("dictionaries[0].entries".into())
        );
        assert_eq!(refused(&[("name", "a"), ("name", "b")]), UploadError::Invalid("name".into()));
        assert_eq!(refused(&[("dictionaries[0].entries", "a"), ("dictionaries", "[]")]), UploadError::Mixed);
        assert!(matches!(refused(&[("entries", "a\tb")]), UploadError::Unknown { name, .. } if name == "entries"));
        assert_eq!(
            refused(&[(&format!("dictionaries[{MAX_DICTIONARIES}].entries"), "a")]),
            UploadError::TooManyDictionaries
        );
        assert_eq!(
            refused(&[("dictionaries[99999999999999999999999].entries", "a")]),
            UploadError::TooManyDictionaries
        );
        let big = "a".repeat(MAX_ENTRIES_BYTES + 1);
        assert_eq!(
            refused(&[("dictionaries[0].entries", big.as_str())]),
            UploadError::EntriesTooLarge("dictionaries[0].entries".into())
        );
    }

    #[test]
    fn a_request_without_parameters_names_that() {
        let error = read_form([("x".to_owned(), String::new())].into_iter(), Accepted(&[])).unwrap_err();
        assert_eq!(error.to_string(), "Unknown parameter 'x': this request takes no parameters.");
        assert!(read_form([("auth_key".to_owned(), "k".to_owned())].into_iter(), Accepted(&[])).is_ok());
    }
}
