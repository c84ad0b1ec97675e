//! Glossaries as the API answers them: the v2 shape (one language pair) and the v3 shape
//! (dictionaries).

use serde::Serialize;

use crate::request::RequestError;
use crate::store::{DictionaryInfo, Glossary, LanguagePair};

/// `{"glossaries": [...]}`.
#[derive(Debug, Serialize)]
pub struct Listing<T> {
    pub glossaries: Vec<T>,
}

/// The v2 shape of a glossary.
#[derive(Debug, Serialize)]
pub struct Monolingual<'a> {
    glossary_id: &'a str,
    name: &'a str,
    ready: bool,
    source_lang: &'a str,
    target_lang: &'a str,
    creation_time: &'a str,
    entry_count: i64,
}

impl<'a> Monolingual<'a> {
    /// A glossary in the v2 shape; one without exactly one dictionary has none.
    pub fn of(glossary: &'a Glossary) -> Result<Monolingual<'a>, RequestError> {
        match glossary.dictionaries.as_slice() {
            [only] => Ok(Monolingual {
                glossary_id: &glossary.id,
                name: &glossary.name,
                ready: true,
                source_lang: &only.pair.source,
                target_lang: &only.pair.target,
                creation_time: &glossary.creation_time,
                entry_count: only.entry_count,
            }),
            dictionaries => Err(RequestError::NotMonolingual { id: glossary.id.clone(), count: dictionaries.len() }),
        }
    }

    /// The v2 listing: the glossaries it can describe, those with exactly one dictionary.
    pub fn listing(glossaries: &'a [Glossary]) -> Listing<Monolingual<'a>> {
        Listing { glossaries: glossaries.iter().filter_map(|glossary| Monolingual::of(glossary).ok()).collect() }
    }
}

/// The v3 shape of a glossary.
#[derive(Debug, Serialize)]
pub struct Multilingual<'a> {
    glossary_id: &'a str,
    name: &'a str,
    dictionaries: Vec<DictionaryObject<'a>>,
    creation_time: &'a str,
}

impl<'a> Multilingual<'a> {
    /// The v3 listing: every glossary.
    pub fn listing(glossaries: &'a [Glossary]) -> Listing<Multilingual<'a>> {
        Listing { glossaries: glossaries.iter().map(Multilingual::from).collect() }
    }
}

impl<'a> From<&'a Glossary> for Multilingual<'a> {
    fn from(glossary: &'a Glossary) -> Self {
        Multilingual {
            glossary_id: &glossary.id,
            name: &glossary.name,
            dictionaries: glossary.dictionaries.iter().map(DictionaryObject::from).collect(),
            creation_time: &glossary.creation_time,
        }
    }
}

/// A dictionary of the v3 shape, without its entries.
#[derive(Debug, Serialize)]
pub struct DictionaryObject<'a> {
    source_lang: &'a str,
    target_lang: &'a str,
    entry_count: i64,
}

impl<'a> From<&'a DictionaryInfo> for DictionaryObject<'a> {
    fn from(info: &'a DictionaryInfo) -> Self {
        let LanguagePair { source, target } = &info.pair;
        DictionaryObject { source_lang: source, target_lang: target, entry_count: info.entry_count }
    }
}

/// One dictionary's entries, as `GET /v3/glossaries/{id}/entries` answers them (TSV inside JSON).
#[derive(Debug, Serialize)]
pub struct DictionaryEntries<'a> {
    dictionaries: [EntriesObject<'a>; 1],
}

#[derive(Debug, Serialize)]
struct EntriesObject<'a> {
    source_lang: &'a str,
    target_lang: &'a str,
    entries: String,
    entries_format: &'static str,
}

impl<'a> DictionaryEntries<'a> {
    pub fn new(pair: &'a LanguagePair, entries: &[crate::entries::Entry]) -> DictionaryEntries<'a> {
        DictionaryEntries {
            dictionaries: [EntriesObject {
                source_lang: &pair.source,
                target_lang: &pair.target,
                entries: crate::entries::to_tsv(entries),
                entries_format: "tsv",
            }],
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn glossary(pairs: &[(&str, &str)]) -> Glossary {
        Glossary {
            id: "def3a26b-3e84-45b3-84ae-0c0aaf3525f7".into(),
            name: "Terms".into(),
            creation_time: "2026-11-21T10:00:00.123Z".into(),
            dictionaries: pairs
                .iter()
                .map(|(source, target)| DictionaryInfo { pair: LanguagePair::new(source, target), entry_count: 2 })
                .collect(),
        }
    }

    #[test]
    fn a_glossary_with_one_dictionary_has_the_v2_shape_and_others_point_to_v3() {
        let one = glossary(&[("en", "de")]);
        assert_eq!(
            serde_json::to_value(Monolingual::of(&one).unwrap()).unwrap(),
            json!({"glossary_id": one.id, "name": "Terms", "ready": true, "source_lang": "en", "target_lang": "de",
                   "creation_time": "2026-11-21T10:00:00.123Z", "entry_count": 2})
        );
        let two = glossary(&[("en", "de"), ("de", "en")]);
        let refused = Monolingual::of(&two).unwrap_err().to_string();
        assert_eq!(
            refused,
            format!("Glossary {id} holds 2 dictionaries: read it with /v3/glossaries/{id}.", id = two.id)
        );
        let both = [one, two];
        assert_eq!(Monolingual::listing(&both).glossaries.len(), 1);
        assert_eq!(Multilingual::listing(&both).glossaries.len(), 2);
    }

    #[test]
    fn entries_are_answered_as_tsv_inside_json() {
        let pair = LanguagePair::new("en", "de");
        let entries = vec![("house".to_owned(), "Haus".to_owned())];
        assert_eq!(
            serde_json::to_value(DictionaryEntries::new(&pair, &entries)).unwrap(),
            json!({"dictionaries": [{"source_lang": "en", "target_lang": "de", "entries": "house\tHaus",
                                     "entries_format": "tsv"}]})
        );
    }
}
