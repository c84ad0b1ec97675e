//! Text as the rules see it: words, spaces, line breaks, punctuation and opaque spans, and the
//! sentences they make.
//!
//! * A **word** is a run of letters, digits and `_`, with an apostrophe (`'`, `’`), a hyphen or a
//!   period inside it joining its parts (`don't`, `well-known`, `e.g`, `3.5`), so that a rule never
//!   matches inside another word.
//! * **Opaque** spans are never read by a rule and never crossed by one: markup tags (`<b>`,
//!   `</g1>`, `<br/>`), placeholders (`{name}`, `{{name}}`, `%s`, `%(name)s`, `${name}`, `$name`),
//!   code in backticks, HTML entities (`&amp;`), URLs, e-mail addresses, `@mentions` and `#tags`.
//! * A **break** is whitespace with a line break in it; a phrase never spans one.
//!
//! Concatenating the tokens gives the text back byte for byte.

use std::ops::Range;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Word,
    /// Whitespace within a line.
    Space,
    /// Whitespace with a line break.
    Break,
    /// One character that is none of the others.
    Punct,
    /// Markup, a placeholder, code, a URL or an address: kept as it is.
    Opaque,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Token<'a> {
    pub kind: Kind,
    pub text: &'a str,
}

impl Token<'_> {
    pub fn is(&self, kind: Kind) -> bool {
        self.kind == kind
    }

    /// Whether this is the punctuation mark `mark`.
    pub fn is_punct(&self, mark: char) -> bool {
        self.kind == Kind::Punct && self.text.chars().next().map(normalise_char) == Some(mark)
    }

    /// Whether this ends a sentence: `.`, `!`, `?` or `…`.
    pub fn is_terminal(&self) -> bool {
        self.kind == Kind::Punct && matches!(self.text, "." | "!" | "?" | "…")
    }
}

/// What the language's sentences need to be found.
#[derive(Debug)]
pub(crate) struct Grammar {
    /// Words that end with a period without ending a sentence (lower case, without the final
    /// period: `dr`, `e.g`, `bzw`). A single letter followed by a period (an initial, `z. B.`)
    /// never ends one either.
    pub abbreviations: &'static [&'static str],
    /// Whether a number followed by a period is an ordinal (German `am 3. Mai`) rather than the
    /// end of a sentence.
    pub ordinal_dot: bool,
}

/// The tokens of `text`.
pub(crate) fn tokenize(text: &str) -> Vec<Token<'_>> {
    let mut tokens = Vec::new();
    let mut at = 0;
    while let Some(first) = text[at..].chars().next() {
        let rest = &text[at..];
        let (kind, len) = if first.is_whitespace() {
            let len = prefix_len(rest, char::is_whitespace);
            let kind = if rest[..len].chars().any(is_line_break) { Kind::Break } else { Kind::Space };
            (kind, len)
        } else if let Some(len) = opaque_len(rest) {
            (Kind::Opaque, len)
        } else if is_word_char(first) {
            (Kind::Word, word_len(rest))
        } else {
            (Kind::Punct, first.len_utf8())
        };
        tokens.push(Token { kind, text: &rest[..len] });
        at += len;
    }
    tokens
}

fn is_line_break(c: char) -> bool {
    matches!(c, '\n' | '\r' | '\u{000B}' | '\u{000C}' | '\u{0085}' | '\u{2028}' | '\u{2029}')
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// How many bytes at the start of `text` satisfy `predicate`.
fn prefix_len(text: &str, predicate: impl Fn(char) -> bool) -> usize {
    text.char_indices().find(|&(_, c)| !predicate(c)).map_or(text.len(), |(index, _)| index)
}

/// The length of the word `text` starts with: word characters, joined by an apostrophe, hyphen or
/// period with a word character on both sides.
fn word_len(text: &str) -> usize {
    let mut chars = text.char_indices().peekable();
    let mut end = 0;
    while let Some((index, c)) = chars.next() {
        if is_word_char(c) {
            end = index + c.len_utf8();
        } else if matches!(c, '\'' | '’' | '-' | '‐' | '.')
            && end == index
            && chars.peek().is_some_and(|&(_, next)| is_word_char(next))
        {
            continue;
        } else {
            break;
        }
    }
    end
}

/// The length of the opaque span `text` starts with, if it starts with one.
fn opaque_len(text: &str) -> Option<usize> {
    let mut chars = text.chars();
    let first = chars.next()?;
    let second = chars.next();
    match first {
        // A tag: `<` and a name, `/`, `!` or `?`, up to its `>` on the same line.
        '<' if second.is_some_and(|c| c.is_ascii_alphabetic() || matches!(c, '/' | '!' | '?')) => {
            find_in_line(text, 1, |c| matches!(c, '<' | '>')).filter(|&(_, c)| c == '>').map(|(end, _)| end + 1)
        }
        // `{{name}}` or `{name}` on one line.
        '{' if second == Some('{') => {
            let (end, _) = find_in_line(text, 2, |c| c == '}')?;
            text[end + 1..].starts_with('}').then_some(end + 2)
        }
        '{' if second.is_some_and(|c| is_word_char(c) || matches!(c, '$' | '%')) => {
            find_in_line(text, 1, |c| matches!(c, '{' | '}')).filter(|&(_, c)| c == '}').map(|(end, _)| end + 1)
        }
        // Code in backticks on one line.
        '`' => find_in_line(text, 1, |c| c == '`').map(|(end, _)| end + 1),
        // An entity: `&amp;`, `&#39;`.
        '&' => {
            let name = prefix_len(&text[1..], |c| c.is_ascii_alphanumeric() || c == '#');
            (name > 0 && name <= 10 && text[1 + name..].starts_with(';')).then_some(name + 2)
        }
        // printf placeholders: `%s`, `%1$s`, `%(name)s`.
        '%' if second.is_some_and(|c| c.is_ascii_alphanumeric() || c == '(') => {
            Some(1 + prefix_len(&text[1..], |c| c.is_ascii_alphanumeric() || matches!(c, '(' | ')' | '$' | '_')))
        }
        // `${name}` and `$name`.
        '$' if second == Some('{') => find_in_line(text, 2, |c| c == '}').map(|(end, _)| end + 1),
        '$' | '@' | '#' if second.is_some_and(|c| c.is_alphabetic() || c == '_') => {
            let len = 1 + prefix_len(&text[1..], |c| is_word_char(c) || matches!(c, '.' | '-'));
            Some(len - trailing_punctuation(&text[..len]))
        }
        // A URL or an e-mail address: the whole run of non-space characters, less the
        // punctuation that ends a sentence or closes a bracket after it.
        c if is_word_char(c) => {
            let run = &text[..prefix_len(text, |c| !c.is_whitespace())];
            let address = run.contains("://")
                || run.get(..4).is_some_and(|start| start.eq_ignore_ascii_case("www."))
                || run.find('@').is_some_and(|at| at > 0 && run[at + 1..].contains('.'));
            address.then(|| run.len() - trailing_punctuation(run))
        }
        _ => None,
    }
}

/// The first character from byte `from` of `text` that `stop` accepts, with its byte index, if
/// it comes before the end of the line.
fn find_in_line(text: &str, from: usize, stop: impl Fn(char) -> bool) -> Option<(usize, char)> {
    text[from..]
        .char_indices()
        .find(|&(_, c)| stop(c) || is_line_break(c))
        .filter(|&(_, c)| !is_line_break(c))
        .map(|(index, c)| (from + index, c))
}

/// How many bytes of punctuation `run` ends with.
fn trailing_punctuation(run: &str) -> usize {
    run.len() - run.trim_end_matches(['.', ',', ';', ':', '!', '?', ')', ']', '"', '\'', '’', '”', '»']).len()
}

/// A character as rules compare it: typographic apostrophes and hyphens as ASCII ones.
pub(crate) fn normalise_char(c: char) -> char {
    match c {
        '’' | 'ʼ' => '\'',
        '‐' => '-',
        other => other,
    }
}

/// A word or mark as rules compare it: lower case, ASCII apostrophes and hyphens.
pub(crate) fn normalise(text: &str) -> String {
    text.chars().map(normalise_char).flat_map(char::to_lowercase).collect()
}

/// The case a matched phrase was written in, to be given to its replacement.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Case {
    /// As the table writes it.
    AsWritten,
    /// First letter upper case (`Do not` → `Don't`).
    Capitalised,
    /// Every letter upper case (`DO NOT` → `DON'T`).
    Upper,
}

/// The case of a phrase made of `words`.
pub(crate) fn case_of<'a>(words: impl IntoIterator<Item = &'a str>) -> Case {
    let letters: Vec<char> = words.into_iter().flat_map(str::chars).filter(|c| c.is_alphabetic()).collect();
    if letters.len() >= 2 && letters.iter().all(|c| c.is_uppercase()) {
        Case::Upper
    } else if letters.first().is_some_and(|c| c.is_uppercase()) {
        Case::Capitalised
    } else {
        Case::AsWritten
    }
}

/// `text` in `case`.
pub(crate) fn in_case(text: &str, case: Case) -> String {
    match case {
        Case::AsWritten => text.to_owned(),
        Case::Capitalised => capitalise(text),
        Case::Upper => text.to_uppercase(),
    }
}

/// `text` with its first letter in upper case.
pub(crate) fn capitalise(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// `text` with its first letter in lower case.
pub(crate) fn decapitalise(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_lowercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// Whether every letter of `word` is lower case (and it has one): a word that may be capitalised
/// at the start of a sentence without changing a name or an acronym (`iPhone` stays).
pub(crate) fn is_lower_word(word: &str) -> bool {
    word.chars().any(char::is_alphabetic) && !word.chars().any(char::is_uppercase)
}

/// Whether `word` is written all in capitals (`ASAP`, `DO`), at least two letters.
pub(crate) fn is_upper_word(word: &str) -> bool {
    word.chars().filter(|c| c.is_alphabetic()).count() >= 2 && !word.chars().any(char::is_lowercase)
}

/// Closing quotes and brackets, which may follow the mark that ends a sentence.
fn is_closer(token: &Token<'_>) -> bool {
    token.kind == Kind::Punct && matches!(token.text, "\"" | "'" | "’" | "”" | "“" | "»" | "«" | "‘" | ")" | "]")
}

/// The sentences of `tokens`, each as the range from its first token to its last one that is
/// not whitespace. A sentence ends at `.`, `!`, `?` or `…` (and the quotes or brackets closing
/// after it) followed by whitespace or the end, unless the period ends an abbreviation, an
/// initial or (in `grammar`) an ordinal, or the next word starts in lower case; and at every line
/// break.
pub(crate) fn sentences(tokens: &[Token<'_>], grammar: &Grammar) -> Vec<Range<usize>> {
    let mut ranges = Vec::new();
    let mut current: Option<(usize, usize)> = None;
    let mut index = 0;
    while index < tokens.len() {
        let token = tokens[index];
        match token.kind {
            Kind::Space => {}
            Kind::Break => ranges.extend(current.take().map(|(start, end)| start..end + 1)),
            _ => {
                let start = current.map_or(index, |(start, _)| start);
                current = Some((start, index));
                if let Some(last) = sentence_end(tokens, index, grammar) {
                    ranges.push(start..last + 1);
                    current = None;
                    index = last;
                }
            }
        }
        index += 1;
    }
    ranges.extend(current.map(|(start, end)| start..end + 1));
    ranges
}

/// If the token at `index` ends a sentence, the index of the sentence's last token (the mark, or
/// the last quote or bracket closing after it).
fn sentence_end(tokens: &[Token<'_>], index: usize, grammar: &Grammar) -> Option<usize> {
    let mark = tokens[index];
    if !mark.is_terminal() {
        return None;
    }
    if mark.text == "." && index > 0 && tokens[index - 1].is(Kind::Word) {
        let word = normalise(tokens[index - 1].text);
        // `I.` is the English pronoun ending a sentence, not an initial.
        let initial = word.chars().count() == 1 && word.chars().all(char::is_alphabetic) && word != "i";
        let ordinal = grammar.ordinal_dot && word.chars().all(|c| c.is_ascii_digit());
        if initial || ordinal || grammar.abbreviations.contains(&word.as_str()) {
            return None;
        }
    }
    let mut last = index;
    while tokens.get(last + 1).is_some_and(is_closer) {
        last += 1;
    }
    match tokens.get(last + 1) {
        None => return Some(last),
        Some(next) if next.is(Kind::Break) => return Some(last),
        Some(next) if next.is(Kind::Space) => {}
        Some(_) => return None,
    }
    let next_content = tokens[last + 1..].iter().find(|token| !token.is(Kind::Space) && !is_closer(token));
    match next_content {
        Some(token) if token.is(Kind::Word) && token.text.chars().next().is_some_and(char::is_lowercase) => None,
        _ => Some(last),
    }
}

/// Where a token stands in its sentence.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Place {
    /// The first token of its sentence.
    pub start: bool,
    /// In a sentence that ends with `?`.
    pub question: bool,
}

/// For each token, where it stands in its sentence (whitespace between sentences: nowhere).
pub(crate) fn places(tokens: &[Token<'_>], grammar: &Grammar) -> Vec<Place> {
    let mut places = vec![Place::default(); tokens.len()];
    for range in sentences(tokens, grammar) {
        let question = tokens[range.end - 1].is_punct('?');
        for place in &mut places[range.clone()] {
            place.question = question;
        }
        places[range.start].start = true;
    }
    places
}

/// The number of words in `tokens`.
pub(crate) fn word_count(tokens: &[Token<'_>]) -> usize {
    tokens.iter().filter(|token| token.is(Kind::Word)).count()
}

/// The apostrophe a text uses: `’` if it has only typographic ones, else `'`.
pub(crate) fn apostrophe_of(text: &str) -> char {
    if text.contains('’') && !text.contains('\'') { '’' } else { '\'' }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GRAMMAR: Grammar = Grammar { abbreviations: &["dr", "e.g", "z.b"], ordinal_dot: true };

    fn kinds(text: &str) -> Vec<(Kind, &str)> {
        tokenize(text).into_iter().map(|token| (token.kind, token.text)).collect()
    }

    fn sentence_texts(text: &str) -> Vec<String> {
        let tokens = tokenize(text);
        sentences(&tokens, &GRAMMAR).into_iter().map(|range| tokens[range].iter().map(|t| t.text).collect()).collect()
    }

    #[test]
    fn words_keep_inner_apostrophes_hyphens_and_periods() {
        use Kind::*;
        assert_eq!(
            kinds("Don’t re-use e.g. 3.5 it's students' cat."),
            [
                (Word, "Don’t"),
                (Space, " "),
                (Word, "re-use"),
                (Space, " "),
                (Word, "e.g"),
                (Punct, "."),
                (Space, " "),
                (Word, "3.5"),
                (Space, " "),
                (Word, "it's"),
                (Space, " "),
                (Word, "students"),
                (Punct, "'"),
                (Space, " "),
                (Word, "cat"),
                (Punct, ".")
            ]
        );
    }

    #[test]
    fn markup_placeholders_code_and_addresses_are_opaque() {
        for (text, opaque) in [
            ("<b>do</b>", "<b>"),
            ("</g1> not", "</g1>"),
            ("<br/>", "<br/>"),
            ("{name} is", "{name}"),
            ("{{ user }} is", "{{ user }}"),
            ("%s is", "%s"),
            ("%(name)s is", "%(name)s"),
            ("${HOME} is", "${HOME}"),
            ("$name is", "$name"),
            ("`do not` run", "`do not`"),
            ("&amp; more", "&amp;"),
            ("https://example.com/do-not. Next", "https://example.com/do-not"),
            ("www.example.com, then", "www.example.com"),
            ("me@example.com.", "me@example.com"),
            ("@maria says", "@maria"),
            ("#release is", "#release"),
        ] {
            let tokens = tokenize(text);
            assert_eq!((tokens[0].kind, tokens[0].text), (Kind::Opaque, opaque), "{text}");
            assert_eq!(tokens.iter().map(|t| t.text).collect::<String>(), text);
        }
        // Not markup: a comparison, a lone brace, a price.
        for text in ["a < b", "5 > 3", "{ x", "$5", "50 %"] {
            assert!(tokenize(text).iter().all(|token| token.kind != Kind::Opaque), "{text}");
        }
    }

    #[test]
    fn line_breaks_are_their_own_kind() {
        assert_eq!(kinds("a \n b")[1], (Kind::Break, " \n "));
        assert_eq!(kinds("a \t b")[1], (Kind::Space, " \t "));
    }

    #[test]
    fn sentences_end_at_marks_but_not_after_abbreviations_initials_or_ordinals() {
        assert_eq!(sentence_texts("Hello there. How are you?  Fine!"), ["Hello there.", "How are you?", "Fine!"]);
        assert_eq!(sentence_texts("Ask Dr. Smith. Then go."), ["Ask Dr. Smith.", "Then go."]);
        assert_eq!(sentence_texts("Fruit, e.g. Apples."), ["Fruit, e.g. Apples."]);
        assert_eq!(sentence_texts("J. Smith came. Am 3. Mai kam er."), ["J. Smith came.", "Am 3. Mai kam er."]);
        assert_eq!(sentence_texts("Wait... what? No."), ["Wait... what?", "No."]);
        assert_eq!(sentence_texts("He said \"Go.\" Then left."), ["He said \"Go.\"", "Then left."]);
        assert_eq!(sentence_texts("One\nTwo three"), ["One", "Two three"]);
        assert_eq!(sentence_texts("Version 1.5 is out"), ["Version 1.5 is out"]);
    }

    #[test]
    fn case_is_read_from_the_matched_words() {
        assert_eq!(case_of(["do", "not"]), Case::AsWritten);
        assert_eq!(case_of(["Do", "not"]), Case::Capitalised);
        assert_eq!(case_of(["DO", "NOT"]), Case::Upper);
        assert_eq!(case_of(["I"]), Case::Capitalised);
        assert_eq!(in_case("don't", Case::Upper), "DON'T");
        assert_eq!(in_case("über", Case::Capitalised), "Über");
        assert!(is_lower_word("we") && !is_lower_word("iPhone") && !is_lower_word("42"));
        assert!(is_upper_word("ASAP") && !is_upper_word("I") && !is_upper_word("Do"));
        assert_eq!(apostrophe_of("it’s"), '’');
        assert_eq!(apostrophe_of("it's and it’s"), '\'');
    }
}
