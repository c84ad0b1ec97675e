//! Spelling for the languages other than English: Hunspell dictionaries (Debian's `hunspell-*` packages)
//! found in one directory, read once by spellbook, and a pass that replaces each misspelled word by the
//! dictionary's first close suggestion.
//!
//! Which file serves a language: the catalogue's base codes are looked up by file name, the language's
//! usual region first (`de_DE`, `pt_PT`, `sv_SE`), then the bare code (`fr`, `nl`), then any other region
//! in name order (`pt_BR`). A language without files is simply not offered.

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};

use encoding_rs::Encoding;
use spellbook::Dictionary;

use super::text::{
    Word, edit_distance, has_inner_capital, in_ranges, is_all_caps, match_case, protected_ranges, starts_upper, words,
};
use crate::error::LoadError;

/// The region whose dictionary serves a language first, where it is not the code itself in capitals.
const USUAL_REGION: &[(&str, &str)] = &[
    ("cs", "CZ"),
    ("da", "DK"),
    ("sv", "SE"),
    ("el", "GR"),
    ("nb", "NO"),
    ("uk", "UA"),
    ("sl", "SI"),
    ("et", "EE"),
    ("he", "IL"),
    ("ko", "KR"),
    ("ga", "IE"),
    ("ca", "ES"),
    ("gl", "ES"),
    ("eu", "ES"),
    ("sr", "RS"),
    ("af", "ZA"),
    ("hi", "IN"),
    ("vi", "VN"),
    ("sw", "TZ"),
    ("kk", "KZ"),
    ("be", "BY"),
    ("bn", "BD"),
    ("ne", "NP"),
    ("fa", "IR"),
    ("ar", "SA"),
];

/// One language's dictionary files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DictionaryFiles {
    /// The catalogue base code it serves.
    pub language: &'static str,
    pub aff: PathBuf,
    pub dic: PathBuf,
}

/// The dictionary files in `dir` for every catalogue base language but English (Harper's), one per language.
/// A missing or unreadable directory finds none.
pub fn discover(dir: &Path) -> Vec<DictionaryFiles> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut stems: Vec<String> = entries
        .filter_map(Result::ok)
        .filter_map(|entry| entry.file_name().to_str()?.strip_suffix(".aff").map(str::to_string))
        .filter(|stem| dir.join(format!("{stem}.dic")).is_file())
        .collect();
    stems.sort();
    catalogue::all()
        .iter()
        .filter(|language| !language.is_variant() && language.base_code() != "en")
        .filter_map(|language| {
            let code = language.base_code();
            let stem = preferred_stem(code, &stems)?;
            Some(DictionaryFiles {
                language: code,
                aff: dir.join(format!("{stem}.aff")),
                dic: dir.join(format!("{stem}.dic")),
            })
        })
        .collect()
}

/// The file stem that serves `code` among `stems` (sorted): the usual region, the bare code, another region.
fn preferred_stem<'a>(code: &str, stems: &'a [String]) -> Option<&'a str> {
    let region = USUAL_REGION
        .iter()
        .find(|(language, _)| *language == code)
        .map_or_else(|| code.to_uppercase(), |(_, r)| r.to_string());
    let usual = format!("{code}_{region}");
    let regional = format!("{code}_");
    stems
        .iter()
        .find(|stem| **stem == usual)
        .or_else(|| stems.iter().find(|stem| *stem == code))
        .or_else(|| {
            stems
                .iter()
                .find(|stem| stem.strip_prefix(&regional).is_some_and(|r| r.chars().all(|c| c.is_ascii_uppercase())))
        })
        .map(String::as_str)
}

/// How many misspelled words' corrections a speller remembers. A suggestion search costs tens to hundreds
/// of milliseconds, and documents repeat their unknown words (names above all), so the same search is not
/// run twice; when full, the memory starts afresh.
const REMEMBERED_CORRECTIONS: usize = 4096;

/// A loaded dictionary, checking and suggesting words of one language.
pub struct Speller {
    language: &'static str,
    dictionary: Dictionary,
    remembered: Mutex<HashMap<String, Option<String>>>,
}

impl Speller {
    /// Reads and parses one language's files, decoding them from the encoding the `.aff` file's `SET` line
    /// names (UTF-8 without one).
    pub fn load(files: &DictionaryFiles) -> Result<Speller, LoadError> {
        let read =
            |path: &Path| std::fs::read(path).map_err(|source| LoadError::Read { path: path.to_path_buf(), source });
        let aff_bytes = read(&files.aff)?;
        let dic_bytes = read(&files.dic)?;
        let encoding =
            declared_encoding(&aff_bytes).map_err(|label| LoadError::Encoding { path: files.aff.clone(), label })?;
        let (aff, _, _) = encoding.decode(&aff_bytes);
        let (dic, _, _) = encoding.decode(&dic_bytes);
        let dic = escape_literal_slashes(&aff, &dic);
        let dictionary = Dictionary::new(&aff, &dic)
            .map_err(|source| LoadError::Dictionary { path: files.aff.clone(), message: source.to_string() })?;
        Ok(Speller { language: files.language, dictionary, remembered: Mutex::new(HashMap::new()) })
    }

    /// The catalogue base code this dictionary serves.
    pub fn language(&self) -> &'static str {
        self.language
    }

    /// Whether the dictionary knows `word`; a hyphenated or elided word (`peut-être`, `l'homme`) is also
    /// known when each of its parts is.
    pub fn knows(&self, word: &str) -> bool {
        if self.dictionary.check(word) {
            return true;
        }
        let typographic = word.replace('’', "'");
        if typographic != word && self.dictionary.check(&typographic) {
            return true;
        }
        if let Some((head, tail)) = typographic.split_once('\'') {
            // Elision: "l'", "dell'", "qu'" are listed with the apostrophe, or the head alone.
            let head_known = self.dictionary.check(&format!("{head}'")) || self.dictionary.check(head);
            return head_known && !tail.is_empty() && self.knows(tail);
        }
        typographic.contains('-') && typographic.split('-').all(|part| !part.is_empty() && self.knows(part))
    }

    /// The replacement for a misspelled word: the first suggestion, if it is close enough to be a correction
    /// rather than a guess, in the word's case shape. A capitalised word may be a name the dictionary lacks
    /// ("Schmidtke" must not become "Schmidt"), so it takes only a one-letter fix; a lower-case word one edit
    /// per three letters.
    pub fn correction(&self, word: &str) -> Option<String> {
        if let Some(known) = self.remembered.lock().unwrap_or_else(PoisonError::into_inner).get(word) {
            return known.clone();
        }
        let mut suggestions = Vec::new();
        self.dictionary.suggest(word, &mut suggestions);
        let correction = suggestions
            .into_iter()
            .next()
            .filter(|first| edit_distance(word, first) <= edit_limit(word))
            .map(|first| match_case(word, &first, self.language));
        let mut remembered = self.remembered.lock().unwrap_or_else(PoisonError::into_inner);
        if remembered.len() >= REMEMBERED_CORRECTIONS {
            remembered.clear();
        }
        remembered.insert(word.to_string(), correction.clone());
        correction
    }

    /// `text` with every misspelled word replaced (see [`Speller::correction`]). Words with digits, all-caps
    /// acronyms, words with an inner capital, single letters, URLs, e-mail addresses and code are left alone.
    pub fn correct(&self, text: &str) -> String {
        let protected = protected_ranges(text);
        let mut out = String::with_capacity(text.len());
        let mut from = 0;
        for word in words(text) {
            if !self.checked(&word, &protected) || self.knows(word.text) {
                continue;
            }
            // Dictionaries list abbreviations with their full stop ("Mio.", "usw."): one before a full stop is
            // known, not a misspelling of itself with a dot.
            if text[word.end..].starts_with('.') && self.dictionary.check(&text[word.start..word.end + 1]) {
                continue;
            }
            if let Some(replacement) = self.correction(word.text) {
                out.push_str(&text[from..word.start]);
                out.push_str(&replacement);
                from = word.end;
            }
        }
        out.push_str(&text[from..]);
        out
    }

    fn checked(&self, word: &Word<'_>, protected: &[(usize, usize)]) -> bool {
        let text = word.text;
        text.chars().count() > 1
            && !text.chars().any(|c| c.is_numeric())
            && !is_all_caps(text)
            && !has_inner_capital(text)
            && !in_ranges(protected, word.start)
    }
}

/// How many edits a suggestion may be from `word` and still replace it (see [`Speller::correction`]).
pub fn edit_limit(word: &str) -> usize {
    if starts_upper(word) { 1 } else { 1 + word.chars().count() / 3 }
}

/// Loads every dictionary found in `dir`, in parallel (parsing is CPU work, and dictionaries are
/// independent). A dictionary that cannot be read or parsed is skipped with a warning: its language is not
/// offered, like a missing one.
pub fn load_all(dir: &Path) -> BTreeMap<&'static str, Speller> {
    let found = discover(dir);
    let threads = std::thread::available_parallelism().map_or(2, usize::from).max(1);
    let chunk = found.len().div_ceil(threads).max(1);
    let loaded: Vec<Result<Speller, LoadError>> = std::thread::scope(|scope| {
        let handles: Vec<_> = found
            .chunks(chunk)
            .map(|files| scope.spawn(move || files.iter().map(Speller::load).collect::<Vec<_>>()))
            .collect();
        handles
            .into_iter()
            .flat_map(|handle| handle.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
            .collect()
    });
    let mut spellers = BTreeMap::new();
    for result in loaded {
        match result {
            Ok(speller) => {
                spellers.insert(speller.language(), speller);
            }
            Err(error) => tracing::warn!(%error, "dictionary skipped"),
        }
    }
    spellers
}

/// Debian's Danish dictionary (`FLAG num`) has entries such as `"A/S"`, whose slash belongs to the word
/// rather than starting the flags: Hunspell ignores the malformed flags, spellbook refuses the whole file. In
/// a `FLAG num` dictionary, a slash followed by anything but numbers and commas is escaped (`\/`), so the
/// entry is read as the word it is.
fn escape_literal_slashes<'a>(aff: &str, dic: &'a str) -> Cow<'a, str> {
    let numeric = aff.lines().any(|line| line.split_whitespace().eq(["FLAG", "num"]));
    if !numeric || !dic.contains('/') {
        return Cow::Borrowed(dic);
    }
    let mut out = String::with_capacity(dic.len() + 64);
    for line in dic.split_inclusive('\n') {
        let mut rest = line;
        loop {
            let Some(slash) = unescaped_slash(rest) else {
                out.push_str(rest);
                break;
            };
            let flags = rest[slash + 1..].split(char::is_whitespace).next().unwrap_or("");
            let valid = !flags.is_empty() && flags.chars().all(|c| c.is_ascii_digit() || c == ',');
            out.push_str(&rest[..slash]);
            if valid {
                out.push_str(&rest[slash..]);
                break;
            }
            out.push_str("\\/");
            rest = &rest[slash + 1..];
        }
    }
    Cow::Owned(out)
}

/// The byte offset of the first `/` in `text` not escaped by a backslash.
fn unescaped_slash(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    (0..bytes.len()).find(|&i| bytes[i] == b'/' && (i == 0 || bytes[i - 1] != b'\\'))
}

/// The encoding the `.aff` file declares on its `SET` line (Hunspell's names: `UTF-8`, `ISO8859-2`,
/// `microsoft-cp1251`, `KOI8-R`); UTF-8 without one. `Err` carries an unknown label.
fn declared_encoding(aff: &[u8]) -> Result<&'static Encoding, String> {
    let line = aff
        .split(|&b| b == b'\n')
        .map(|line| line.strip_suffix(b"\r").unwrap_or(line))
        .find_map(|line| line.strip_prefix(b"SET").filter(|rest| rest.first().is_some_and(u8::is_ascii_whitespace)));
    let Some(rest) = line else {
        return Ok(encoding_rs::UTF_8);
    };
    let label = String::from_utf8_lossy(rest).trim().to_string();
    let whatwg_label = label.strip_prefix("microsoft-").unwrap_or(&label);
    Encoding::for_label(whatwg_label.as_bytes())
        // `ISO8859-n` (Hunspell's spelling) is `ISO-8859-n` to the WHATWG table.
        .or_else(|| Encoding::for_label(whatwg_label.replace("ISO8859", "ISO-8859").as_bytes()))
        .ok_or(label)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::speller;

    #[test]
    fn discovery_prefers_the_usual_region_then_the_bare_code_then_another_region() {
        let dir = tempfile::tempdir().expect("temporary directory");
        for stem in [
            "pt_BR",
            "pt_PT",
            "de_AT",
            "de_DE",
            "fr",
            "fr_CA",
            "sv_FI",
            "sv_SE",
            "nl_BE",
            "en_US",
            "xx_YY",
            "de_DE_frami",
        ] {
            std::fs::write(dir.path().join(format!("{stem}.aff")), "SET UTF-8\n").expect("write");
            std::fs::write(dir.path().join(format!("{stem}.dic")), "1\nword\n").expect("write");
        }
        // An .aff without its .dic does not count.
        std::fs::write(dir.path().join("it_IT.aff"), "SET UTF-8\n").expect("write");
        let found: Vec<(&str, String)> = discover(dir.path())
            .into_iter()
            .map(|files| {
                (files.language, files.aff.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default())
            })
            .collect();
        assert_eq!(
            found,
            [
                ("de", "de_DE.aff".to_string()),
                ("fr", "fr.aff".to_string()),
                ("nl", "nl_BE.aff".to_string()),
                ("pt", "pt_PT.aff".to_string()),
                ("sv", "sv_SE.aff".to_string()),
            ]
        );
        assert!(discover(&dir.path().join("missing")).is_empty());
    }

    #[test]
    fn encodings_come_from_the_set_line() {
        assert_eq!(declared_encoding(b"# c\nSET UTF-8\nTRY abc\n"), Ok(encoding_rs::UTF_8));
        assert_eq!(declared_encoding(b"SET ISO8859-2\r\n"), Ok(encoding_rs::ISO_8859_2));
        assert_eq!(declared_encoding(b"SET microsoft-cp1251\n"), Ok(encoding_rs::WINDOWS_1251));
        assert_eq!(declared_encoding(b"SET KOI8-R\n"), Ok(encoding_rs::KOI8_R));
        assert_eq!(declared_encoding(b"TRY abc\n"), Ok(encoding_rs::UTF_8));
        assert_eq!(declared_encoding(b"SET klingon\n"), Err("klingon".to_string()));
    }

    #[test]
    fn slashes_inside_words_of_numeric_flag_dictionaries_are_escaped() {
        let aff = "SET UTF-8\nFLAG num\n";
        let dic = "4\n\"A/S\"\nA3-format/10,4\nhus/1\nvej\n";
        assert_eq!(escape_literal_slashes(aff, dic), "4\n\"A\\/S\"\nA3-format/10,4\nhus/1\nvej\n");
        assert_eq!(escape_literal_slashes(aff, "2\nA/S/10\nx\\/y/3\n"), "2\nA\\/S/10\nx\\/y/3\n");
        // Other flag types read any character as a flag: nothing to repair.
        assert_eq!(escape_literal_slashes("SET UTF-8\n", dic), dic);
        let dictionary = Dictionary::new(aff, &escape_literal_slashes(aff, "2\n\"A/S\"\nhus/1\n"));
        assert!(dictionary.is_ok_and(|dictionary| dictionary.check("\"A/S\"") && dictionary.check("hus")));
    }

    #[test]
    fn a_small_latin2_dictionary_loads_and_corrects() {
        let dir = tempfile::tempdir().expect("temporary directory");
        let (aff, _, _) = encoding_rs::ISO_8859_2.encode("SET ISO8859-2\nTRY ąęółżźćńśabcdefghijklmnoprstuwyz\n");
        let (dic, _, _) = encoding_rs::ISO_8859_2.encode("3\nżółw\nkot\npies\n");
        std::fs::write(dir.path().join("pl_PL.aff"), aff).expect("write");
        std::fs::write(dir.path().join("pl_PL.dic"), dic).expect("write");
        let spellers = load_all(dir.path());
        let polish = spellers.get("pl").expect("Polish loaded");
        assert!(polish.knows("żółw"));
        assert_eq!(polish.correct("Żółw i kott"), "Żółw i kot");
    }

    #[test]
    fn a_broken_dictionary_is_skipped() {
        let dir = tempfile::tempdir().expect("temporary directory");
        std::fs::write(dir.path().join("it_IT.aff"), "SET klingon\n").expect("write");
        std::fs::write(dir.path().join("it_IT.dic"), "1\nparola\n").expect("write");
        assert!(load_all(dir.path()).is_empty());
    }

    #[test]
    fn misspelled_words_get_the_first_suggestion_in_their_case() {
        let cases = [
            ("de", "Ich habe das Buch gelessen.", "Ich habe das Buch gelesen."),
            ("de", "Vielen Dnak für die Hilfe.", "Vielen Dank für die Hilfe."),
            ("fr", "Je suis très hereux de vous voir.", "Je suis très heureux de vous voir."),
            ("es", "Es nesesario dormir.", "Es necesario dormir."),
            ("it", "Grazie per la colaborazione.", "Grazie per la collaborazione."),
            ("pt", "Obrigado pela ajudda.", "Obrigado pela ajuda."),
            ("nl", "Dank je wel voor de hulpp.", "Dank je wel voor de hulp."),
            ("pl", "Dziękuję za pomoc i cierpliwośc.", "Dziękuję za pomoc i cierpliwość."),
            ("sv", "Tack för hjälpen och tålamodett.", "Tack för hjälpen och tålamodet."),
        ];
        for (language, text, expected) in cases {
            assert_eq!(speller(language).correct(text), expected, "{language}: {text}");
        }
    }

    #[test]
    fn correct_words_names_and_special_tokens_stay() {
        let cases = [
            (
                "de",
                "Die Protonenstrahl-Therapie der EU kostet 300 Euro, siehe https://beispiel.de/seite oder info@beispiel.de.",
            ),
            ("fr", "L'homme est arrivé aujourd'hui ; peut-être qu'il reste."),
            ("it", "Dell'anno scorso ricordo l'estate."),
            ("de", "Der NATO-Gipfel und das iPhone sind bekannt."),
            ("de", "Ein Vertrag über 2,5 Mio. Euro, usw. und so fort."),
        ];
        for (language, text) in cases {
            assert_eq!(speller(language).correct(text), text, "{language}");
        }
    }

    #[test]
    fn capitalised_words_keep_their_capital_and_names_stay() {
        assert_eq!(speller("fr").correct("Bonjur."), "Bonjour.");
        assert_eq!(speller("de").correct("Dnak"), "Dank");
        // Two edits from a dictionary word: a name, not a typo.
        assert_eq!(speller("de").correct("Frau Schmidtke kommt."), "Frau Schmidtke kommt.");
        assert_eq!(edit_limit("Schmidtke"), 1);
        assert_eq!(edit_limit("colaborazione"), 5);
    }

    #[test]
    fn corrections_are_remembered() {
        let french = speller("fr");
        let first = std::time::Instant::now();
        // A word no other test asks about, so the first call searches.
        assert_eq!(french.correction("maisson").as_deref(), Some("maison"));
        let searched = first.elapsed();
        let again = std::time::Instant::now();
        assert_eq!(french.correction("maisson").as_deref(), Some("maison"));
        assert!(again.elapsed() < searched, "the second answer is remembered, not searched again");
        assert_eq!(french.correction("Bonjur").as_deref(), Some("Bonjour"), "each case shape on its own");
    }

    #[test]
    fn danish_loads() {
        assert!(speller("da").knows("hus"));
    }
}
