//! Glossary entries as clients upload them (TSV or CSV), validated, and as they are read back
//! (TSV).
//!
//! The rules: every entry has a non-empty source and target term; no term holds a control
//! character (C0, DEL, C1) or a Unicode line or paragraph separator, starts or ends with
//! whitespace, or is longer than 1024 UTF-8 bytes; no source term occurs twice; the whole
//! upload is at most 10 MiB and [`MAX_DICTIONARY_ENTRIES`] entries (see `limits.rs`); reading
//! stops at the first entry past the limit. Blank lines are skipped. A broken rule is reported in the
//! `detail` of a 400, naming the entry by its index (0-based, among the non-blank lines) and the
//! byte position where its line starts.
//!
//! CSV is read by a real CSV parser (RFC 4180 quoting, so terms may hold commas, quotes and
//! line breaks are refused by the rules above). A row is `source,target` with optional third and
//! fourth columns naming the source and target language: rows whose languages differ from the
//! dictionary's are skipped.

use std::fmt;

pub use crate::limits::{MAX_DICTIONARY_ENTRIES, MAX_ENTRIES_BYTES, MAX_TERM_BYTES};

/// How the entries of a request are written (`entries_format`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum EntriesFormat {
    /// `source<TAB>target` per line.
    #[default]
    Tsv,
    /// `source,target[,source_lang[,target_lang]]` per row.
    Csv,
}

impl EntriesFormat {
    /// The `entries_format` values: `tsv`, `csv`.
    pub fn parse(value: &str) -> Option<EntriesFormat> {
        match value {
            "tsv" => Some(EntriesFormat::Tsv),
            "csv" => Some(EntriesFormat::Csv),
            _ => None,
        }
    }
}

/// One entry: a source term and the target term it must become.
pub type Entry = (String, String);

/// Why entries were refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EntriesError {
    /// An entry breaks a rule: the `detail` of the 400, naming the entry.
    Invalid(String),
    /// More entries than the limit given to [`parse`].
    TooMany { limit: usize },
    /// More bytes than [`MAX_ENTRIES_BYTES`].
    TooLarge { bytes: usize },
}

impl fmt::Display for EntriesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EntriesError::Invalid(detail) => f.write_str(detail),
            EntriesError::TooMany { limit } => write!(f, "more than {limit} entries"),
            EntriesError::TooLarge { bytes } => write!(f, "{bytes} bytes of entries, more than {MAX_ENTRIES_BYTES}"),
        }
    }
}

impl std::error::Error for EntriesError {}

/// Where an entry is, for error details.
#[derive(Debug, Clone, Copy)]
struct Place {
    index: usize,
    position: u64,
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "with the index {} (starting at position {})", self.index, self.position)
    }
}

fn refuse(place: Place, what: impl fmt::Display) -> EntriesError {
    EntriesError::Invalid(format!("Entry {place} {what}"))
}

/// Parses and validates the entries of one dictionary for the pair `(source_lang, target_lang)`
/// (lower-case base codes; CSV language columns are compared with them), at most `max_entries`
/// of them: reading stops at the first one past it.
pub fn parse(
    entries: &str,
    format: EntriesFormat,
    source_lang: &str,
    target_lang: &str,
    max_entries: usize,
) -> Result<Vec<Entry>, EntriesError> {
    if entries.len() > MAX_ENTRIES_BYTES {
        return Err(EntriesError::TooLarge { bytes: entries.len() });
    }
    let mut checker = Checker { max_entries, entries: Vec::new(), places: Vec::new() };
    let read = match format {
        EntriesFormat::Tsv => parse_tsv(entries, &mut checker),
        EntriesFormat::Csv => parse_csv(entries, source_lang, target_lang, &mut checker),
    };
    // An entry that repeats an earlier source comes before any later broken entry.
    if let Some(duplicate) = checker.first_duplicate() {
        return Err(duplicate);
    }
    read?;
    if checker.entries.is_empty() {
        return Err(EntriesError::Invalid("No entries provided".into()));
    }
    Ok(checker.entries)
}

fn parse_tsv(entries: &str, checker: &mut Checker) -> Result<(), EntriesError> {
    let mut index = 0;
    let mut position = 0u64;
    for raw in entries.split('\n') {
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        let place = Place { index, position };
        position += raw.len() as u64 + 1;
        if line.trim().is_empty() {
            continue;
        }
        index += 1;
        let mut fields = line.split('\t');
        let (Some(source), Some(target)) = (fields.next(), fields.next()) else {
            return Err(refuse(place, "misses tab separator"));
        };
        if fields.next().is_some() {
            return Err(refuse(place, "has more than one tab separator"));
        }
        checker.add(place, source, target)?;
    }
    Ok(())
}

fn parse_csv(entries: &str, source_lang: &str, target_lang: &str, checker: &mut Checker) -> Result<(), EntriesError> {
    let mut reader = csv::ReaderBuilder::new().has_headers(false).flexible(true).from_reader(entries.as_bytes());
    let mut index = 0;
    for record in reader.records() {
        let record = record.map_err(|error| csv_error(&error))?;
        let position = record.position().map_or(0, csv::Position::byte);
        if record.iter().all(|field| field.trim().is_empty()) {
            continue;
        }
        let place = Place { index, position };
        index += 1;
        if !(2..=4).contains(&record.len()) {
            return Err(refuse(place, format_args!("has {} columns; expected 2 to 4", record.len())));
        }
        let same_language = |column: usize, code: &str| {
            record.get(column).is_none_or(|value| value.trim().is_empty() || value.trim().eq_ignore_ascii_case(code))
        };
        if !same_language(2, source_lang) || !same_language(3, target_lang) {
            continue;
        }
        checker.add(place, &record[0], &record[1])?;
    }
    Ok(())
}

/// The CSV reader is lenient (it takes stray quotes as text, and rows of any length); what it
/// still refuses is reported as it says it.
fn csv_error(error: &csv::Error) -> EntriesError {
    EntriesError::Invalid(format!("CSV error: {error}"))
}

/// Collects entries, checking each term as it comes and the sources for duplicates at the end
/// (by sorting indices: 4 bytes an entry, where a map of the sources would copy every term).
struct Checker {
    max_entries: usize,
    entries: Vec<Entry>,
    /// Where each entry was.
    places: Vec<Place>,
}

impl Checker {
    fn add(&mut self, place: Place, source: &str, target: &str) -> Result<(), EntriesError> {
        if self.entries.len() == self.max_entries {
            return Err(EntriesError::TooMany { limit: self.max_entries });
        }
        check_term(place, "source", source)?;
        check_term(place, "target", target)?;
        self.entries.push((source.to_owned(), target.to_owned()));
        self.places.push(place);
        Ok(())
    }

    /// The first entry (in upload order) whose source an earlier entry has, as the error that
    /// names both.
    fn first_duplicate(&self) -> Option<EntriesError> {
        let mut order: Vec<u32> = (0..self.entries.len() as u32).collect();
        // Stable: equal sources keep upload order, so the first of each run is the original.
        order.sort_by(|&a, &b| self.entries[a as usize].0.cmp(&self.entries[b as usize].0));
        // Within a run of equal sources, each member is paired with the one before it; the
        // smallest second member is the run's second entry, paired with its first.
        let (duplicate, original) = order
            .windows(2)
            .filter(|pair| self.entries[pair[0] as usize].0 == self.entries[pair[1] as usize].0)
            .map(|pair| (pair[1] as usize, pair[0] as usize))
            .min()?;
        let (place, first) = (self.places[duplicate], self.places[original]);
        Some(EntriesError::Invalid(format!(
            "Key with the index {} (starting at position {}) duplicates key with the index {} (starting at position {})",
            place.index, place.position, first.index, first.position
        )))
    }
}

fn check_term(place: Place, side: &str, term: &str) -> Result<(), EntriesError> {
    if term.is_empty() {
        return Err(refuse(place, format_args!("has an empty {side} term")));
    }
    if let Some(control) = term.chars().find(|&c| is_forbidden(c)) {
        return Err(refuse(
            place,
            format_args!("contains a control character (U+{:04X}) in its {side} term", control as u32),
        ));
    }
    if term.starts_with(char::is_whitespace) || term.ends_with(char::is_whitespace) {
        return Err(refuse(place, format_args!("has leading or trailing whitespace in its {side} term")));
    }
    if term.len() > MAX_TERM_BYTES {
        return Err(refuse(place, format_args!("has a {side} term longer than {MAX_TERM_BYTES} UTF-8 bytes")));
    }
    Ok(())
}

/// C0 and C1 control characters, DEL, and the Unicode line and paragraph separators.
pub fn is_forbidden(character: char) -> bool {
    character.is_control() || matches!(character, '\u{2028}' | '\u{2029}')
}

/// Entries as the API reads them back: `source<TAB>target` lines joined by `\n`.
pub fn to_tsv(entries: &[Entry]) -> String {
    let mut tsv = String::with_capacity(entries.iter().map(|(source, target)| source.len() + target.len() + 2).sum());
    for (index, (source, target)) in entries.iter().enumerate() {
        if index > 0 {
            tsv.push('\n');
        }
        tsv.push_str(source);
        tsv.push('\t');
        tsv.push_str(target);
    }
    tsv
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tsv(entries: &str) -> Result<Vec<Entry>, String> {
        parse(entries, EntriesFormat::Tsv, "en", "de", MAX_DICTIONARY_ENTRIES).map_err(|error| error.to_string())
    }

    fn csv(entries: &str) -> Result<Vec<Entry>, String> {
        parse(entries, EntriesFormat::Csv, "en", "de", MAX_DICTIONARY_ENTRIES).map_err(|error| error.to_string())
    }

    fn pairs(entries: &[(&str, &str)]) -> Vec<Entry> {
        entries.iter().map(|(source, target)| (source.to_string(), target.to_string())).collect()
    }

    #[test]
    fn tsv_lines_become_entries_and_blank_lines_are_skipped() {
        assert_eq!(
            tsv("Hello\tHallo\r\n\n  \nworld\tWelt\n").unwrap(),
            pairs(&[("Hello", "Hallo"), ("world", "Welt")])
        );
        assert_eq!(to_tsv(&pairs(&[("Hello", "Hallo"), ("world", "Welt")])), "Hello\tHallo\nworld\tWelt");
    }

    #[test]
    fn tsv_errors_name_the_entry_and_its_position() {
        assert_eq!(
            tsv("Hello\tHallo\nworld Welt").unwrap_err(),
            "Entry with the index 1 (starting at position 12) misses tab separator"
        );
        assert_eq!(
            tsv("a\tb\tc").unwrap_err(),
            "Entry with the index 0 (starting at position 0) has more than one tab separator"
        );
        assert_eq!(
            tsv("Hello\tHallo\n\nHello\tServus").unwrap_err(),
            "Key with the index 1 (starting at position 13) duplicates key with the index 0 (starting at position 0)"
        );
    }

    #[test]
    fn every_term_rule_is_checked_on_both_sides() {
        assert!(tsv("\tHallo").unwrap_err().ends_with("has an empty source term"));
        assert!(tsv("Hello\t").unwrap_err().ends_with("has an empty target term"));
        assert!(
            tsv("Hel\u{7}lo\tHallo").unwrap_err().ends_with("contains a control character (U+0007) in its source term")
        );
        assert!(tsv("Hello\tHal\u{85}lo").unwrap_err().contains("(U+0085) in its target term"));
        assert!(tsv("Hello\tHal\u{2028}lo").unwrap_err().contains("(U+2028)"));
        assert!(tsv(" Hello\tHallo").unwrap_err().ends_with("has leading or trailing whitespace in its source term"));
        assert!(tsv("Hello\tHallo\u{a0}").unwrap_err().ends_with("whitespace in its target term"));
        let long = "é".repeat(513);
        assert!(tsv(&format!("{long}\tx")).unwrap_err().ends_with("has a source term longer than 1024 UTF-8 bytes"));
        assert!(tsv(&format!("{}\tx", "é".repeat(512))).is_ok(), "exactly 1024 bytes is allowed");
    }

    #[test]
    fn nothing_usable_and_oversized_uploads_are_refused() {
        assert_eq!(tsv("\n \n").unwrap_err(), "No entries provided");
        let huge = "a\tb\n".repeat(MAX_ENTRIES_BYTES / 4 + 1);
        let refused = parse(&huge, EntriesFormat::Tsv, "en", "de", usize::MAX).unwrap_err();
        assert_eq!(refused, EntriesError::TooLarge { bytes: huge.len() });
    }

    #[test]
    fn reading_stops_at_the_entry_limit() {
        let three = "a\tb\nc\td\ne\tf";
        assert_eq!(parse(three, EntriesFormat::Tsv, "en", "de", 3).unwrap().len(), 3);
        assert_eq!(parse(three, EntriesFormat::Tsv, "en", "de", 2).unwrap_err(), EntriesError::TooMany { limit: 2 });
        let csv_rows = "a,b\nc,d\ne,f";
        assert_eq!(parse(csv_rows, EntriesFormat::Csv, "en", "de", 2).unwrap_err(), EntriesError::TooMany { limit: 2 });
    }

    #[test]
    fn the_first_duplicate_in_upload_order_is_reported_before_later_errors() {
        assert_eq!(
            tsv("b\t1\na\t2\na\t3\nb\t4\na\t5").unwrap_err(),
            "Key with the index 2 (starting at position 8) duplicates key with the index 1 (starting at position 4)"
        );
        assert!(tsv("a\t1\na\t2\n\tbroken").unwrap_err().starts_with("Key with the index 1"));
        assert!(tsv("a\t1\n\tbroken\na\t2").unwrap_err().ends_with("has an empty source term"));
    }

    #[test]
    fn csv_rows_are_parsed_with_quoting_and_language_columns() {
        let entries =
            csv("\"Hello, world\",\"Hallo, \"\"Welt\"\"\"\nhouse,Haus,en,de\ncar,voiture,en,fr\ntree,Baum,EN\n\n")
                .unwrap();
        assert_eq!(entries, pairs(&[("Hello, world", "Hallo, \"Welt\""), ("house", "Haus"), ("tree", "Baum")]));
        assert_eq!(csv("a,b,en,fr").unwrap_err(), "No entries provided");
    }

    #[test]
    fn csv_errors_name_the_row() {
        assert_eq!(
            csv("a,b\nc").unwrap_err(),
            "Entry with the index 1 (starting at position 4) has 1 columns; expected 2 to 4"
        );
        assert_eq!(
            csv("a,b\nc,d,en,de,x").unwrap_err(),
            "Entry with the index 1 (starting at position 4) has 5 columns; expected 2 to 4"
        );
        assert!(csv("a,b\na,c").unwrap_err().starts_with("Key with the index 1"));
        assert!(csv(" a,b").unwrap_err().contains("whitespace"));
        assert!(csv("\"a\nb\",c").unwrap_err().contains("control character (U+000A)"));
    }

    #[test]
    fn formats_are_named_tsv_and_csv() {
        assert_eq!(EntriesFormat::parse("tsv"), Some(EntriesFormat::Tsv));
        assert_eq!(EntriesFormat::parse("csv"), Some(EntriesFormat::Csv));
        assert_eq!(EntriesFormat::parse("TSV"), None);
    }
}
