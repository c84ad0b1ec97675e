//! The rule-based checks every language gets (English after Harper, the others after Hunspell): a repeated
//! word, spaces collapsed, spacing around punctuation, and a capital letter at the start of each sentence.
//!
//! Each rule is conservative: it changes only what is wrong in every style, and leaves URLs, e-mail
//! addresses and code-like chunks, numbers, abbreviations and ellipses alone, so that correct text comes back
//! unchanged. The language-specific parts are data: the words that may be doubled, the abbreviations a
//! sentence does not end with, and French's space before `; : ! ?`.

use super::text::{capitalise, has_inner_capital, in_ranges, is_word_char, protected_ranges, words};

/// The narrow no-break space French puts before `; : ! ?`.
const NARROW_NO_BREAK_SPACE: char = '\u{202F}';

/// Applies every rule, in an order where each leaves the next a simpler text.
pub fn apply(language: &str, text: &str) -> String {
    let text = collapse_spaces(text);
    let text = remove_repeated_words(language, &text);
    let text = remove_space_before_punctuation(language, &text);
    let text = insert_space_around_punctuation(language, &text);
    capitalise_sentences(language, &text)
}

/// Words that may legitimately stand twice in a row, per language: "that that", "had had"; German and
/// Dutch relative pronouns after articles ("die die"), French reflexives ("nous nous levons").
const REPEATABLE: &[(&str, &[&str])] = &[
    (
        "en",
        &[
            "had", "that", "is", "do", "very", "so", "no", "yes", "bye", "ha", "haha", "knock", "blah", "really",
            "far", "long", "well", "there", "now", "again", "more", "many", "much", "ever",
        ],
    ),
    ("de", &["die", "der", "das", "den", "dem", "des", "sie", "ist", "war"]),
    ("nl", &["die", "dat", "er"]),
    ("fr", &["nous", "vous"]),
    ("es", &["muy"]),
    ("it", &["molto"]),
    ("pt", &["muito"]),
];

/// Abbreviations a sentence does not end with ("etc. and so on", "bzw. die"), lower case, per language;
/// `*` for all. Words with an inner dot (`e.g.`, `z.B.`), single letters and numbers before a full stop are
/// recognised without a list.
const ABBREVIATIONS: &[(&str, &[&str])] = &[
    ("*", &["etc", "vs", "ca", "cf", "approx", "incl", "excl", "resp", "al", "vol", "ed", "eds", "cca", "min", "max"]),
    ("en", &["mr", "mrs", "ms", "dr", "prof", "st", "jr", "sr", "esp", "ft", "oz", "lb", "lbs", "dept", "est", "govt"]),
    (
        "de",
        &[
            "bzw", "usw", "vgl", "ggf", "evtl", "inkl", "bspw", "sog", "zzgl", "abs", "str", "hr", "fr", "nr", "allg",
            "bzgl", "ebd", "geb", "gegr", "jh", "jhd", "mio", "mrd", "zit",
        ],
    ),
    ("fr", &["env", "ex", "mme", "mlle", "pp"]),
    ("es", &["sr", "sra", "srta", "dr", "dra", "ud", "uds", "pág", "aprox"]),
    ("it", &["sig", "dott", "ecc", "pag"]),
    ("pt", &["sr", "sra", "dr", "dra", "pág", "aprox"]),
    ("nl", &["dhr", "mevr", "bijv", "enz", "nr"]),
    ("pl", &["np", "itd", "itp", "tzw", "dr", "prof", "ul", "wg", "tj"]),
    ("sv", &["bl", "osv", "dvs", "pga"]),
    ("da", &["bl", "osv", "evt", "fx", "mht", "vha"]),
    ("cs", &["tzv", "apod", "atd", "např", "tj", "tzn"]),
    ("ru", &["др", "пр", "см", "гг", "ул", "им", "тыс", "млн", "руб"]),
];

fn listed(table: &[(&str, &[&str])], language: &str, word: &str) -> bool {
    let word = word.to_lowercase();
    table.iter().any(|(code, words)| (*code == language || *code == "*") && words.contains(&word.as_str()))
}

/// Spaces, tabs and the no-break spaces, but not line breaks.
fn is_horizontal_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\u{00A0}' | NARROW_NO_BREAK_SPACE)
}

/// Characters that close a quotation or a bracket.
fn is_closing(c: char) -> bool {
    matches!(c, ')' | ']' | '}' | '"' | '\'' | '»' | '”' | '’' | '›')
}

/// Characters that open a quotation or a bracket, or Spanish's inverted marks, before a sentence's first word.
fn is_opening(c: char) -> bool {
    matches!(c, '(' | '[' | '"' | '\'' | '«' | '„' | '“' | '‘' | '‚' | '¿' | '¡' | '‹')
}

/// Whether a punctuation mark at `index` ends its token: nothing but whitespace, a closing quote or bracket,
/// or another mark follows. Marks inside tokens (`3.14`, `10:30`, `.NET`, `:-)`) are not spacing errors.
fn ends_token(chars: &[(usize, char)], index: usize) -> bool {
    let mark = chars[index].1;
    match chars.get(index + 1).map(|&(_, c)| c) {
        None => true,
        Some(next) if next.is_whitespace() || is_closing(next) => true,
        // "..." is an ellipsis, not a full stop after a space.
        Some('.') => mark != '.',
        Some(next) => matches!(next, '!' | '?' | ',' | ';' | ':' | '…'),
    }
}

/// Runs of two or more spaces between two non-blank characters become one space. Indentation at the start
/// of a line, spaces at its end and tabs are left as they are: they are layout, not typing errors.
pub fn collapse_spaces(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let mut previous: Option<char> = None;
    while let Some(c) = chars.next() {
        if c != ' ' {
            out.push(c);
            previous = Some(c);
            continue;
        }
        let mut run = 1;
        while chars.peek() == Some(&' ') {
            chars.next();
            run += 1;
        }
        let between_text =
            previous.is_some_and(|p| !p.is_whitespace()) && chars.peek().is_some_and(|n| !n.is_whitespace());
        let kept = if between_text { 1 } else { run };
        out.extend(std::iter::repeat_n(' ', kept));
        previous = Some(' ');
    }
    out
}

/// A word typed twice ("the the", "The the") becomes one, keeping the first. Only words separated by spaces
/// count (not a line break or punctuation), only words with a letter, and not the ones `REPEATABLE` lists.
pub fn remove_repeated_words(language: &str, text: &str) -> String {
    let words = words(text);
    let protected = protected_ranges(text);
    let mut cuts: Vec<(usize, usize)> = Vec::new();
    let mut anchor = 0;
    for next in 1..words.len() {
        let (first, second) = (words[anchor], words[next]);
        // The gap after the word just before (the anchor, or the last double removed).
        let gap = &text[words[next - 1].end..second.start];
        let repeated = !gap.is_empty()
            && gap.chars().all(|c| c == ' ')
            && first.text.chars().any(char::is_alphabetic)
            && first.text.to_lowercase() == second.text.to_lowercase()
            && !listed(REPEATABLE, language, first.text)
            && !in_ranges(&protected, first.start)
            && !in_ranges(&protected, second.start);
        if repeated {
            // Cut the gap and the second word; the next word is compared with the same first one, so
            // "the the the" becomes "the".
            cuts.push((words[next - 1].end, second.end));
        } else {
            anchor = next;
        }
    }
    cut(text, &cuts)
}

/// `text` without the byte ranges `cuts` (sorted, not overlapping).
fn cut(text: &str, cuts: &[(usize, usize)]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut from = 0;
    for &(start, end) in cuts {
        out.push_str(&text[from..start]);
        from = end;
    }
    out.push_str(&text[from..]);
    out
}

/// Removes the spaces before `,` and `.` in every language, and before `; : ! ?` except in French, which
/// puts a space there. Only where the mark ends its token and follows a word or a closing bracket, so
/// " .NET", "wait ..." and a list item starting with a mark stay.
pub fn remove_space_before_punctuation(language: &str, text: &str) -> String {
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let protected = protected_ranges(text);
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i].1;
        if !is_horizontal_space(c) {
            out.push(c);
            i += 1;
            continue;
        }
        let mut j = i;
        while j < chars.len() && is_horizontal_space(chars[j].1) {
            j += 1;
        }
        let removable = j < chars.len() && i > 0 && {
            let mark = chars[j].1;
            let previous = chars[i - 1].1;
            let forbidden = match mark {
                ',' | '.' => true,
                ';' | ':' | '!' | '?' => language != "fr",
                _ => false,
            };
            // "word ,next" is a misplaced space too: the comma moves left, and the space after it is
            // inserted by `insert_space_around_punctuation`.
            let moves_left =
                matches!(mark, ',' | ';') && chars.get(j + 1).is_some_and(|&(_, next)| next.is_alphabetic());
            forbidden
                && (is_word_char(previous) || is_closing(previous))
                && (ends_token(&chars, j) || moves_left)
                && !in_ranges(&protected, chars[j].0)
        };
        if !removable {
            out.extend(chars[i..j].iter().map(|&(_, c)| c));
        }
        i = j;
    }
    out
}

/// Inserts the missing spaces: one after `, ;` (and `:`) between two words, one after `. ! ?` before a new
/// sentence's capitalised word ("end.The" → "end. The"), and in French a narrow no-break space before
/// `; : ! ?` that follow a word directly. Numbers (`3,5`, `10:30`), abbreviations (`e.g.`), domain names
/// (`example.com`) and protected chunks are left alone.
pub fn insert_space_around_punctuation(language: &str, text: &str) -> String {
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let protected = protected_ranges(text);
    let at = |index: usize| chars.get(index).map(|&(_, c)| c);
    let is_letter = |index: Option<usize>| index.and_then(at).is_some_and(char::is_alphabetic);
    let is_lower = |index: Option<usize>| index.and_then(at).is_some_and(char::is_lowercase);
    let mut out = String::with_capacity(text.len() + 16);
    for (i, &(offset, c)) in chars.iter().enumerate() {
        let previous = i.checked_sub(1);
        let before_previous = i.checked_sub(2);
        let protected_here = in_ranges(&protected, offset);
        let next = Some(i + 1);
        let space_after = !protected_here
            && match c {
                ',' | ';' => is_letter(previous) && is_letter(next),
                // Finnish and Swedish inflect abbreviations after a colon ("EU:n", "USA:s").
                ':' => is_letter(previous) && is_letter(next) && !(matches!(language, "fi" | "sv") && is_lower(next)),
                '!' | '?' => is_letter(previous) && next.and_then(at).is_some_and(char::is_uppercase),
                '.' => {
                    is_lower(previous)
                        && is_lower(before_previous)
                        && next.and_then(at).is_some_and(char::is_uppercase)
                        && is_lower(Some(i + 2))
                }
                _ => false,
            };
        let french_space_before = language == "fr"
            && matches!(c, ';' | ':' | '!' | '?')
            && previous.and_then(at).is_some_and(|p| is_word_char(p) || is_closing(p))
            && (ends_token(&chars, i) || space_after)
            && !protected_here;
        if french_space_before {
            out.push(NARROW_NO_BREAK_SPACE);
        }
        out.push(c);
        if space_after {
            out.push(' ');
        }
    }
    out
}

/// Capitalises the first word of the text and of every sentence: a word after `.`, `!` or `?` and a space,
/// past any opening quote or bracket. Not after an abbreviation (`etc.`, `e.g.`, a single letter, a
/// number), an ellipsis or a closing quote (`"Stop!" he said`), and never a word with an inner capital
/// (`iPhone`), a digit, or in a protected chunk.
pub fn capitalise_sentences(language: &str, text: &str) -> String {
    let protected = protected_ranges(text);
    let mut out = String::with_capacity(text.len());
    let mut from = 0;
    for word in words(text) {
        let eligible = word.text.chars().next().is_some_and(char::is_lowercase)
            && !word.text.chars().any(|c| c.is_numeric())
            && !has_inner_capital(word.text)
            && !in_ranges(&protected, word.start)
            && starts_sentence(language, &text[..word.start]);
        if eligible {
            out.push_str(&text[from..word.start]);
            out.push_str(&capitalise(word.text, language));
            from = word.end;
        }
    }
    out.push_str(&text[from..]);
    out
}

/// Whether a word preceded by `before` starts a sentence.
fn starts_sentence(language: &str, before: &str) -> bool {
    let before = before.trim_end_matches(is_opening);
    let trimmed = before.trim_end();
    if trimmed.is_empty() {
        return true;
    }
    if trimmed.len() == before.len() {
        // No space between the previous sentence and this word: part of a token.
        return false;
    }
    let Some(terminator) = trimmed.chars().next_back() else {
        return true;
    };
    match terminator {
        '!' | '?' => true,
        '.' => {
            let rest = &trimmed[..trimmed.len() - 1];
            if rest.ends_with('.') {
                return false;
            }
            let token = rest.rsplit(|c: char| c.is_whitespace() || is_opening(c)).next().unwrap_or(rest);
            let letters = token.chars().filter(|c| c.is_alphabetic()).count();
            let abbreviation = token.contains('.')
                || letters <= 1
                || token.chars().all(|c| c.is_numeric())
                || listed(ABBREVIATIONS, language, token);
            !abbreviation
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeated_words_become_one() {
        assert_eq!(remove_repeated_words("en", "I saw the the cat."), "I saw the cat.");
        assert_eq!(remove_repeated_words("en", "The the cat sat."), "The cat sat.");
        assert_eq!(remove_repeated_words("en", "a a a b"), "a b");
        assert_eq!(remove_repeated_words("fr", "Il est est parti."), "Il est parti.");
        // Legitimate doubles, other separators, numbers and URLs stay.
        assert_eq!(remove_repeated_words("en", "He had had enough; that that is"), "He had had enough; that that is");
        assert_eq!(remove_repeated_words("de", "Die Frau, die die Zeitung liest."), "Die Frau, die die Zeitung liest.");
        assert_eq!(remove_repeated_words("fr", "Nous nous levons."), "Nous nous levons.");
        assert_eq!(remove_repeated_words("en", "the\nthe end, end"), "the\nthe end, end");
        assert_eq!(remove_repeated_words("en", "Room 12 12 and x.org/a x.org/a"), "Room 12 12 and x.org/a x.org/a");
    }

    #[test]
    fn multiple_spaces_collapse_but_layout_stays() {
        assert_eq!(collapse_spaces("one  two    three"), "one two three");
        assert_eq!(collapse_spaces("    indented\nline   \n\tTab\t\tstays"), "    indented\nline   \n\tTab\t\tstays");
        assert_eq!(collapse_spaces("end.  Next"), "end. Next");
    }

    #[test]
    fn no_space_before_punctuation_except_french_high_marks() {
        assert_eq!(remove_space_before_punctuation("en", "Hello , world ! Really ?"), "Hello, world! Really?");
        assert_eq!(remove_space_before_punctuation("en", "red ,green ;blue"), "red,green;blue");
        assert_eq!(remove_space_before_punctuation("de", "Ja ; nein : vielleicht ."), "Ja; nein: vielleicht.");
        assert_eq!(remove_space_before_punctuation("fr", "Quoi ? Oui , bien sûr !"), "Quoi ? Oui, bien sûr !");
        // Not a spacing error: ellipsis, a leading dot, an emoticon, a list item, a URL.
        for text in ["Wait ... what", "the .NET runtime", "Smile :-)", "- , item", "see http://x.y/a ?b"] {
            assert_eq!(remove_space_before_punctuation("en", text), text);
        }
    }

    #[test]
    fn one_space_after_punctuation() {
        assert_eq!(insert_space_around_punctuation("en", "Hello,world;again"), "Hello, world; again");
        assert_eq!(insert_space_around_punctuation("en", "It ended.The next day"), "It ended. The next day");
        assert_eq!(insert_space_around_punctuation("en", "Stop!Now?Yes"), "Stop! Now? Yes");
        assert_eq!(insert_space_around_punctuation("en", "Note:this"), "Note: this");
        // Numbers, abbreviations, domains, inflected abbreviations and URLs stay.
        for (language, text) in [
            ("en", "3,5 and 10:30 and 3.14"),
            ("en", "e.g. U.S.A. and example.com and Node.js"),
            ("fi", "EU:n jäsenmaat"),
            ("en", "https://example.com/a,b?Query=1"),
        ] {
            assert_eq!(insert_space_around_punctuation(language, text), text);
        }
    }

    #[test]
    fn french_gets_a_narrow_space_before_high_marks() {
        assert_eq!(
            insert_space_around_punctuation("fr", "Quoi?Vraiment!Oui; non: peut-être"),
            "Quoi\u{202F}? Vraiment\u{202F}! Oui\u{202F}; non\u{202F}: peut-être"
        );
        assert_eq!(insert_space_around_punctuation("fr", "Quoi?!"), "Quoi\u{202F}?!");
        // Already spaced (any space), times and URLs stay.
        for text in ["Quoi ? Oui !", "Quoi\u{00A0}?", "à 10:30", "https://exemple.fr/?q=1"] {
            assert_eq!(insert_space_around_punctuation("fr", text), text);
        }
        assert_eq!(insert_space_around_punctuation("en", "What?"), "What?");
    }

    #[test]
    fn sentences_start_with_a_capital() {
        assert_eq!(capitalise_sentences("en", "hello. how are you? fine! ok"), "Hello. How are you? Fine! Ok");
        assert_eq!(
            capitalise_sentences("en", "\"yes,\" she said. (then) we left."),
            "\"Yes,\" she said. (Then) we left."
        );
        assert_eq!(capitalise_sentences("es", "hola. ¿qué tal?"), "Hola. ¿Qué tal?");
        assert_eq!(capitalise_sentences("tr", "evet. istanbul"), "Evet. İstanbul");
        // Not after abbreviations, initials, numbers, ellipses or a quoted exclamation; not brands or URLs.
        for (language, text) in [
            ("en", "Apples, pears etc. and more. See e.g. the list."),
            ("en", "J. and Mr. smith"),
            ("de", "Am 3. oktober, bzw. am vierten."),
            ("en", "Wait... what? \"Stop!\" he said."),
            ("en", "Buy it. iPhone users know. www.example.com is up."),
        ] {
            assert_eq!(capitalise_sentences(language, text), text, "{text}");
        }
    }

    #[test]
    fn all_rules_together_leave_correct_text_unchanged() {
        let english = "On 3 March, Dr. Smith (the lead author) said: \"It works.\" Costs fell by 3.5% in the U.S., \
                       e.g. in Ohio; see https://example.com/report?id=7 or mail info@example.com!\n\nNew paragraph.";
        assert_eq!(apply("en", english), english);
        let german = "Am 3. Oktober, d.h. morgen, kommt Hr. Müller. Die Frau, die die Zeitung liest, lacht.";
        assert_eq!(apply("de", german), german);
        let french = "Bonjour\u{202F}! Comment allez-vous\u{00A0}? Très bien, merci.";
        assert_eq!(apply("fr", french), french);
    }

    #[test]
    fn all_rules_together_fix_a_sloppy_text() {
        assert_eq!(apply("en", "the  the cat sat ,and then. it left !"), "The cat sat, and then. It left!");
        assert_eq!(apply("fr", "merci beaucoup! à bientôt"), "Merci beaucoup\u{202F}! À bientôt");
    }
}
