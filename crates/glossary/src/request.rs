//! What glossary requests carry, validated: languages and pairs, names, dictionaries, patches.
//!
//! `edge.rs` reads the parameters as sent (of the right JSON or form type); the functions here
//! check them and name the parameter at fault, with the API's texts.

use catalogue::Coverage;

use crate::entries::{self, EntriesError, EntriesFormat};
use crate::limits::{MAX_DICTIONARIES, MAX_DICTIONARY_ENTRIES, MAX_ENTRIES_BYTES, MAX_REQUEST_ENTRIES, MAX_TERM_BYTES};
use crate::store::{LanguagePair, NewDictionary};

/// The message of every entry validation error; the `detail` says what and where.
pub const INVALID_ENTRIES: &str = "Invalid glossary entries provided";

/// Why a glossary request is refused: each a 400.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RequestError {
    #[error("Parameter '{0}' not specified")]
    Missing(&'static str),
    #[error("Value for '{0}' not supported.")]
    Invalid(&'static str),
    #[error("Glossaries are not supported for the language pair {0}.")]
    PairNotSupported(LanguagePair),
    #[error("Value for 'name' not supported: it is longer than {MAX_TERM_BYTES} UTF-8 bytes.")]
    NameTooLong,
    #[error("Value for 'name' not supported: it contains a control character.")]
    NameHasControlCharacter,
    /// An entry breaks a rule; the error says which and why (the answer's `detail`).
    #[error("{INVALID_ENTRIES}")]
    Entries(String),
    /// A 413.
    #[error(
        "Request Entity Too Large: the entries of one dictionary may not exceed 10 MiB ({MAX_ENTRIES_BYTES} bytes); these are {bytes} bytes."
    )]
    EntriesTooLarge { bytes: usize },
    #[error("Value for 'entries' not supported: a dictionary holds at most {MAX_DICTIONARY_ENTRIES} entries.")]
    TooManyEntries,
    #[error("Value for 'dictionaries' not supported: one request may carry at most {MAX_REQUEST_ENTRIES} entries.")]
    TooManyRequestEntries,
    #[error("Value for 'dictionaries' not supported: a glossary holds at most {MAX_DICTIONARIES} dictionaries.")]
    TooManyDictionaries,
    #[error("Value for 'dictionaries' not supported: it must be an array of dictionary objects.")]
    NotDictionaries,
    #[error("Value for 'dictionaries' not supported: two dictionaries for the language pair {0}.")]
    TwoDictionariesForPair(LanguagePair),
    #[error("Value for 'dictionaries' not supported: a PATCH takes at most one dictionary.")]
    PatchTakesOneDictionary,
    #[error("Parameter 'name' or 'dictionaries' not specified")]
    NothingToPatch,
    /// A v2 read of a glossary that has not exactly one dictionary.
    #[error("Glossary {id} holds {count} dictionaries: read it with /v3/glossaries/{id}.")]
    NotMonolingual { id: String, count: usize },
}

/// A dictionary's parameters as sent: `source_lang`, `target_lang`, `entries` and
/// `entries_format` (at the top level for v2 and `PUT .../dictionaries`, or one object of a v3
/// `dictionaries` array).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RawDictionary {
    pub source_lang: Option<String>,
    pub target_lang: Option<String>,
    pub entries: Option<String>,
    pub entries_format: Option<String>,
}

/// A glossary language of a request (`source_lang`/`target_lang`), as its lower-case base code:
/// any case, and a variant (`en-GB`) stands for its base; beta languages (`de-CH`) are refused.
pub fn language(parameter: &'static str, code: Option<&str>) -> Result<&'static str, RequestError> {
    let code = code.map(str::trim).filter(|code| !code.is_empty()).ok_or(RequestError::Missing(parameter))?;
    let language = catalogue::find(code).ok_or(RequestError::Invalid(parameter))?;
    // Beta languages have no glossaries, not even through their base.
    if language.is_beta() || !language.base().supports_glossary() {
        return Err(RequestError::Invalid(parameter));
    }
    Ok(language.base_code())
}

/// The pair a request names in `source_lang` and `target_lang` (for reading and deleting).
pub fn requested_pair(source_lang: Option<&str>, target_lang: Option<&str>) -> Result<LanguagePair, RequestError> {
    Ok(LanguagePair::new(language("source_lang", source_lang)?, language("target_lang", target_lang)?))
}

/// Checks that the engine translates the pair: a glossary for a pair it cannot translate would
/// never apply.
pub fn check_pair(pair: &LanguagePair, coverage: &Coverage) -> Result<(), RequestError> {
    let supported = pair.source != pair.target
        && match (catalogue::find(&pair.source), catalogue::find(&pair.target)) {
            (Some(source), Some(target)) => coverage.supports_pair(source, target),
            _ => false,
        };
    if supported { Ok(()) } else { Err(RequestError::PairNotSupported(pair.clone())) }
}

/// A glossary name: when given, not blank, at most 1024 UTF-8 bytes, no control characters.
pub fn name(name: Option<String>) -> Result<Option<String>, RequestError> {
    let Some(name) = name else { return Ok(None) };
    if name.trim().is_empty() {
        return Err(RequestError::Missing("name"));
    }
    if name.len() > MAX_TERM_BYTES {
        return Err(RequestError::NameTooLong);
    }
    if name.chars().any(entries::is_forbidden) {
        return Err(RequestError::NameHasControlCharacter);
    }
    Ok(Some(name))
}

impl NewDictionary {
    /// A dictionary to store: its pair, which the engine must translate, and its entries, every
    /// rule checked.
    pub fn parse(raw: RawDictionary, coverage: &Coverage) -> Result<NewDictionary, RequestError> {
        Self::parse_within(raw, coverage, MAX_DICTIONARY_ENTRIES)
    }

    /// [`NewDictionary::parse`] with at most `max_entries` entries (what is left of a request's
    /// budget): past it, [`EntriesError::TooMany`].
    fn parse_within(
        raw: RawDictionary,
        coverage: &Coverage,
        max_entries: usize,
    ) -> Result<NewDictionary, RequestError> {
        let pair = requested_pair(raw.source_lang.as_deref(), raw.target_lang.as_deref())?;
        check_pair(&pair, coverage)?;
        let format = match raw.entries_format {
            Some(value) => EntriesFormat::parse(value.trim()).ok_or(RequestError::Invalid("entries_format"))?,
            None => EntriesFormat::default(),
        };
        let text = raw.entries.filter(|text| !text.is_empty()).ok_or(RequestError::Missing("entries"))?;
        let entries =
            entries::parse(&text, format, &pair.source, &pair.target, max_entries.min(MAX_DICTIONARY_ENTRIES))
                .map_err(|error| match error {
                    EntriesError::Invalid(detail) => RequestError::Entries(detail),
                    EntriesError::TooLarge { bytes } => RequestError::EntriesTooLarge { bytes },
                    EntriesError::TooMany { limit } if limit < MAX_DICTIONARY_ENTRIES => {
                        RequestError::TooManyRequestEntries
                    }
                    EntriesError::TooMany { .. } => RequestError::TooManyEntries,
                })?;
        Ok(NewDictionary { pair, entries })
    }
}

/// The dictionaries of a v3 request, in the order sent, one per pair: at most
/// [`MAX_DICTIONARIES`], and [`MAX_REQUEST_ENTRIES`] entries in all (reading stops at the limit).
/// Each raw dictionary is dropped once read, so its text and its entries are never both held
/// for the whole request.
pub fn dictionaries(raws: Vec<RawDictionary>, coverage: &Coverage) -> Result<Vec<NewDictionary>, RequestError> {
    if raws.len() > MAX_DICTIONARIES {
        return Err(RequestError::TooManyDictionaries);
    }
    let mut dictionaries = Vec::with_capacity(raws.len());
    let mut budget = MAX_REQUEST_ENTRIES;
    for raw in raws {
        let dictionary = NewDictionary::parse_within(raw, coverage, budget)?;
        budget -= dictionary.entries.len();
        add_distinct(&mut dictionaries, dictionary)?;
    }
    Ok(dictionaries)
}

/// Adds `dictionary` to those of one request, refusing a second dictionary for its pair.
pub fn add_distinct(dictionaries: &mut Vec<NewDictionary>, dictionary: NewDictionary) -> Result<(), RequestError> {
    if dictionaries.iter().any(|other| other.pair == dictionary.pair) {
        return Err(RequestError::TwoDictionariesForPair(dictionary.pair));
    }
    dictionaries.push(dictionary);
    Ok(())
}

/// A v3 PATCH: a new name, entries to merge into one dictionary, or both.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Patch {
    pub name: Option<String>,
    pub merge: Option<NewDictionary>,
}

impl Patch {
    /// The patch `name` and `dictionaries` (at most one) describe; one of them is required.
    pub fn new(name: Option<String>, dictionaries: Option<Vec<NewDictionary>>) -> Result<Patch, RequestError> {
        let mut dictionaries = dictionaries.unwrap_or_default();
        if dictionaries.len() > 1 {
            return Err(RequestError::PatchTakesOneDictionary);
        }
        if name.is_none() && dictionaries.is_empty() {
            return Err(RequestError::NothingToPatch);
        }
        Ok(Patch { name, merge: dictionaries.pop() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(source: &str, target: &str, entries: &str) -> RawDictionary {
        RawDictionary {
            source_lang: Some(source.into()),
            target_lang: Some(target.into()),
            entries: Some(entries.into()),
            entries_format: None,
        }
    }

    fn message(result: Result<impl std::fmt::Debug, RequestError>) -> String {
        result.unwrap_err().to_string()
    }

    #[test]
    fn dictionaries_check_languages_pairs_and_entries() {
        let all = Coverage::All;
        let read = NewDictionary::parse(raw("EN", "pt-BR", "a\tb"), &all).unwrap();
        assert_eq!(read.pair, LanguagePair::new("en", "pt"), "a variant stands for its base");
        assert_eq!(
            message(NewDictionary::parse(raw("EN", "de-CH", "a\tb"), &all)),
            "Value for 'target_lang' not supported."
        );
        assert_eq!(
            message(NewDictionary::parse(raw("th", "en", "a\tb"), &all)),
            "Value for 'source_lang' not supported."
        );
        assert_eq!(
            message(NewDictionary::parse(raw("en", "EN", "a\tb"), &all)),
            "Glossaries are not supported for the language pair EN → EN."
        );
        let small = Coverage::pairs([("en", "es")]);
        assert!(NewDictionary::parse(raw("en", "de", "a\tb"), &small).is_err());
        assert!(NewDictionary::parse(raw("en", "es", "a\tb"), &small).is_ok());
        let broken = NewDictionary::parse(raw("en", "de", "a b"), &all).unwrap_err();
        assert_eq!(broken.to_string(), INVALID_ENTRIES);
        assert!(matches!(broken, RequestError::Entries(detail) if detail.contains("misses tab separator")));
        let xls = RawDictionary { entries_format: Some("xls".into()), ..raw("en", "de", "a,b") };
        assert_eq!(message(NewDictionary::parse(xls, &all)), "Value for 'entries_format' not supported.");
        let empty = RawDictionary { entries: None, ..raw("en", "de", "") };
        assert_eq!(message(NewDictionary::parse(empty, &all)), "Parameter 'entries' not specified");
    }

    #[test]
    fn a_request_carries_at_most_the_limits_of_dictionaries_and_entries() {
        let all = Coverage::All;
        let pairs = [("en", "de"), ("en", "fr"), ("de", "en")];
        let raws = |entries: &str| pairs.iter().map(|(s, t)| raw(s, t, entries)).collect::<Vec<_>>();
        let read = dictionaries(raws("a\tb"), &all).unwrap();
        let order: Vec<String> = read.iter().map(|d| d.pair.to_string()).collect();
        assert_eq!(order, ["EN → DE", "EN → FR", "DE → EN"], "in the order sent");

        let too_many: Vec<RawDictionary> = (0..=MAX_DICTIONARIES).map(|_| raw("en", "de", "a\tb")).collect();
        assert_eq!(dictionaries(too_many, &all).unwrap_err(), RequestError::TooManyDictionaries);

        // Three dictionaries of 400,000 entries pass the per-dictionary limit but not the
        // request's: the third stops being read at the budget left.
        let big: String = (0..400_000).map(|index| format!("t{index}\tz\n")).collect();
        assert_eq!(dictionaries(raws(&big), &all).unwrap_err(), RequestError::TooManyRequestEntries);
        let over: String = (0..=MAX_DICTIONARY_ENTRIES).map(|index| format!("t{index}\tz\n")).collect();
        assert_eq!(NewDictionary::parse(raw("en", "de", &over), &all).unwrap_err(), RequestError::TooManyEntries);
        let huge = RawDictionary { entries: Some("a".repeat(MAX_ENTRIES_BYTES + 1)), ..raw("en", "de", "") };
        assert!(matches!(NewDictionary::parse(huge, &all), Err(RequestError::EntriesTooLarge { .. })));
    }

    #[test]
    fn names_are_checked_when_given() {
        assert_eq!(name(Some("x".into())).unwrap().as_deref(), Some("x"));
        assert_eq!(name(None).unwrap(), None);
        assert_eq!(message(name(Some(" ".into()))), "Parameter 'name' not specified");
        assert_eq!(name(Some("n".repeat(1025))).unwrap_err(), RequestError::NameTooLong);
        assert_eq!(name(Some("a\u{7}".into())).unwrap_err(), RequestError::NameHasControlCharacter);
    }

    #[test]
    fn a_request_holds_one_dictionary_per_pair_and_a_patch_at_most_one() {
        let all = Coverage::All;
        let mut dictionaries = Vec::new();
        add_distinct(&mut dictionaries, NewDictionary::parse(raw("en", "de", "a\tb"), &all).unwrap()).unwrap();
        let again = NewDictionary::parse(raw("EN", "DE", "c\td"), &all).unwrap();
        assert!(message(add_distinct(&mut dictionaries, again)).contains("two dictionaries"));
        let other = NewDictionary::parse(raw("en", "fr", "c\td"), &all).unwrap();
        add_distinct(&mut dictionaries, other).unwrap();

        assert_eq!(Patch::new(None, Some(dictionaries.clone())).unwrap_err(), RequestError::PatchTakesOneDictionary);
        assert_eq!(Patch::new(None, None).unwrap_err(), RequestError::NothingToPatch);
        assert_eq!(Patch::new(None, Some(Vec::new())).unwrap_err(), RequestError::NothingToPatch);
        let renamed = Patch::new(Some("n".into()), None).unwrap();
        assert_eq!((renamed.name.as_deref(), renamed.merge), (Some("n"), None));
        let merge = Patch::new(None, Some(dictionaries[..1].to_vec())).unwrap();
        assert_eq!(merge.merge.unwrap().pair, LanguagePair::new("en", "de"));
    }
}
