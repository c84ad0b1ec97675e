//! Small helpers over text shared by the correction passes: words with their byte ranges, case shapes, and
//! the chunks no rule may touch (URLs, e-mail addresses, code-like tokens).

/// A word of a text: its byte range and its text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Word<'a> {
    pub start: usize,
    pub end: usize,
    pub text: &'a str,
}

/// Whether a character belongs inside a word: letters, combining marks (Devanagari vowel signs, decomposed
/// accents) and digits.
pub fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || is_combining_mark(c)
}

fn is_combining_mark(c: char) -> bool {
    // The general category is not in std; these blocks hold the marks that follow letters in the scripts our
    // dictionaries cover (combining diacriticals and the Indic, Thai and Hebrew signs).
    matches!(c, '\u{0300}'..='\u{036F}' | '\u{0591}'..='\u{05C7}' | '\u{0900}'..='\u{0DFF}' | '\u{0E31}'..='\u{0E4E}')
}

/// Whether `c` joins two word parts when it stands between word characters: apostrophes (`it's`, `l'homme`)
/// and the hyphen (`E-Mail`, `peut-être`).
fn is_joiner(c: char) -> bool {
    matches!(c, '\'' | '’' | '-')
}

/// The words of `text`, in order: runs of word characters, joined across single apostrophes and hyphens.
pub fn words(text: &str) -> Vec<Word<'_>> {
    let mut words = Vec::new();
    let mut start: Option<usize> = None;
    let mut chars = text.char_indices().peekable();
    while let Some((index, c)) = chars.next() {
        if is_word_char(c) {
            start.get_or_insert(index);
            continue;
        }
        let joins = is_joiner(c) && start.is_some() && chars.peek().is_some_and(|&(_, next)| is_word_char(next));
        if joins {
            continue;
        }
        if let Some(begin) = start.take() {
            words.push(Word { start: begin, end: index, text: &text[begin..index] });
        }
    }
    if let Some(begin) = start {
        words.push(Word { start: begin, end: text.len(), text: &text[begin..] });
    }
    words
}

/// Whether the word has at least two letters and every letter is upper case (`NATO`, `EU`, `HTTP`).
pub fn is_all_caps(word: &str) -> bool {
    let mut letters = word.chars().filter(|c| c.is_alphabetic());
    let count = letters.clone().count();
    count >= 2 && letters.all(|c| c.is_uppercase())
}

/// Whether the word has an upper-case letter after its first character (`iPhone`, `McDonald`, `eBay`): a
/// name or brand written as its owner wants it.
pub fn has_inner_capital(word: &str) -> bool {
    word.chars().skip(1).any(char::is_uppercase)
}

/// Whether the first character is upper case.
pub fn starts_upper(word: &str) -> bool {
    word.chars().next().is_some_and(char::is_uppercase)
}

/// `word` with its first character in upper case, in the language's rules (Turkish and Azerbaijani dotted
/// `i` → `İ`).
pub fn capitalise(word: &str, language: &str) -> String {
    let mut chars = word.chars();
    let Some(first) = chars.next() else {
        return String::new();
    };
    let mut out = String::with_capacity(word.len() + 1);
    if first == 'i' && matches!(language, "tr" | "az") {
        out.push('İ');
    } else {
        out.extend(first.to_uppercase());
    }
    out.push_str(chars.as_str());
    out
}

/// Gives `replacement` the case shape of `original`: all capitals stay all capitals, a capitalised word
/// stays capitalised; otherwise the replacement is kept as written (it may know better, e.g. German nouns).
pub fn match_case(original: &str, replacement: &str, language: &str) -> String {
    if is_all_caps(original) {
        replacement.to_uppercase()
    } else if starts_upper(original) && !starts_upper(replacement) {
        capitalise(replacement, language)
    } else {
        replacement.to_string()
    }
}

/// Whether a whitespace-delimited chunk of text is a URL, an e-mail address or code-like (a path, an
/// assignment, a Rust path): punctuation and spelling rules leave such chunks alone.
pub fn is_protected_chunk(chunk: &str) -> bool {
    const MARKERS: [&str; 12] = ["://", "@", "www.", "/", "\\", "=", "_", "::", "#", "<", ">", "{"];
    MARKERS.iter().any(|marker| chunk.contains(marker))
}

/// The byte ranges of the whitespace-delimited chunks of `text` that [`is_protected_chunk`] protects.
pub fn protected_ranges(text: &str) -> Vec<(usize, usize)> {
    let mut ranges = Vec::new();
    let mut start = None;
    for (index, c) in text.char_indices().chain(std::iter::once((text.len(), ' '))) {
        if c.is_whitespace() {
            if let Some(begin) = start.take()
                && is_protected_chunk(&text[begin..index])
            {
                ranges.push((begin, index));
            }
        } else {
            start.get_or_insert(index);
        }
    }
    ranges
}

/// Whether byte offset `at` lies inside one of `ranges` (sorted and disjoint, as [`protected_ranges`] makes
/// them): a binary search, as the passes ask once per word.
pub fn in_ranges(ranges: &[(usize, usize)], at: usize) -> bool {
    let after = ranges.partition_point(|&(start, _)| start <= at);
    after > 0 && at < ranges[after - 1].1
}

/// The edit distance between two words, compared case-insensitively by character: insertions, deletions,
/// substitutions and transpositions of neighbours ("Dnak" → "Dank") count one each (optimal string
/// alignment).
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().flat_map(char::to_lowercase).collect();
    let b: Vec<char> = b.chars().flat_map(char::to_lowercase).collect();
    // Three rows of the table: two rows back (for transpositions), the previous one and the current one.
    let mut before: Vec<usize> = vec![0; b.len() + 1];
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    let mut current = vec![0; b.len() + 1];
    for i in 0..a.len() {
        current[0] = i + 1;
        for j in 0..b.len() {
            let mut cost = (previous[j] + usize::from(a[i] != b[j])).min(previous[j + 1] + 1).min(current[j] + 1);
            if i > 0 && j > 0 && a[i] == b[j - 1] && a[i - 1] == b[j] {
                cost = cost.min(before[j - 1] + 1);
            }
            current[j + 1] = cost;
        }
        std::mem::swap(&mut before, &mut previous);
        std::mem::swap(&mut previous, &mut current);
    }
    previous[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts<'a>(words: &[Word<'a>]) -> Vec<&'a str> {
        words.iter().map(|word| word.text).collect()
    }

    #[test]
    fn words_join_apostrophes_and_hyphens_between_letters_only() {
        let text = "L'homme d'aujourd'hui, peut-être - it's 'quoted' E-Mail 3,5 ok.";
        assert_eq!(
            texts(&words(text)),
            ["L'homme", "d'aujourd'hui", "peut-être", "it's", "quoted", "E-Mail", "3", "5", "ok"]
        );
        let first = words(text)[0];
        assert_eq!((first.start, first.end), (0, 7));
        assert_eq!(texts(&words("नमस्ते दुनिया")), ["नमस्ते", "दुनिया"]);
        assert!(words("  ... !!").is_empty());
    }

    #[test]
    fn case_shapes() {
        assert!(is_all_caps("NATO") && is_all_caps("EU") && !is_all_caps("I") && !is_all_caps("Nato"));
        assert!(has_inner_capital("iPhone") && has_inner_capital("McDonald") && !has_inner_capital("Haus"));
        assert_eq!(capitalise("istanbul", "tr"), "İstanbul");
        assert_eq!(capitalise("istanbul", "en"), "Istanbul");
        assert_eq!(capitalise("été", "fr"), "Été");
        assert_eq!(match_case("Tomorow", "tomorrow", "en"), "Tomorrow");
        assert_eq!(match_case("TOMOROW", "tomorrow", "en"), "TOMORROW");
        assert_eq!(match_case("haus", "Haus", "de"), "Haus");
    }

    #[test]
    fn urls_mails_and_code_are_protected() {
        for chunk in ["https://example.com/a,b", "mail@example.org", "www.example.com", "a=b", "std::fmt", "C:\\x"] {
            assert!(is_protected_chunk(chunk), "{chunk}");
        }
        for chunk in ["end.The", "Hello,world", "example.com"] {
            assert!(!is_protected_chunk(chunk), "{chunk}");
        }
        let text = "see https://x.y/z , or mail@x.y now";
        let ranges = protected_ranges(text);
        assert_eq!(ranges.len(), 2);
        assert_eq!(&text[ranges[0].0..ranges[0].1], "https://x.y/z");
        assert!(in_ranges(&ranges, 4) && in_ranges(&ranges, 16) && !in_ranges(&ranges, 0) && !in_ranges(&ranges, 17));
        assert!(in_ranges(&ranges, 23) && in_ranges(&ranges, 30) && !in_ranges(&ranges, 22) && !in_ranges(&ranges, 31));
        assert!(!in_ranges(&[], 0));
    }

    #[test]
    fn edit_distance_counts_single_character_edits() {
        assert_eq!(edit_distance("tomorow", "tomorrow"), 1);
        assert_eq!(edit_distance("Haus", "haus"), 0);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("Dnak", "Dank"), 1);
        assert_eq!(edit_distance("abcd", "badc"), 2);
        assert_eq!(edit_distance("", "abc"), 3);
    }
}
