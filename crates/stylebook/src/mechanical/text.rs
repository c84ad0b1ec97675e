//! The text the rewrites work on: characters, with everything no rule may touch masked.
//!
//! Before any rule runs, each placeholder tag (`<gN>`, `</gN>`, `<xN/>`), URL, e-mail address,
//! `` `code` `` span and `{placeholder}` becomes one mask: a private-use character (plane 15,
//! then 16) standing for the original text. No rule matches a private-use character, so masks
//! come out of every rule as they went in, and [`Text::unmask`] puts the originals back byte for
//! byte. A private-use character already in the input is masked too, as itself.
//!
//! Tags are transparent: a rule that looks at a character's neighbours looks through them
//! ([`Masks::prev`], [`Masks::next`]), so a quote opened before a tag and closed after it is one
//! quotation. The other masks stand for a word (URLs, addresses, code), or, once the date and
//! time rules have recognised them, for a date or a time, which later rules then leave alone.

/// What a mask stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum MaskKind {
    /// A placeholder tag: invisible to the rules, which look through it.
    Tag,
    /// A URL, an e-mail address, code or a placeholder: behaves as a word.
    Word,
    /// A date: behaves as a number.
    Date,
    /// A time of day: behaves as a number.
    Time,
    /// A private-use character of the input: behaves as a symbol.
    Other,
}

/// One masked piece of the original text.
#[derive(Debug, Clone)]
pub(crate) struct Mask {
    pub(crate) text: String,
    pub(crate) kind: MaskKind,
}

/// The masks of a text, indexed by their characters.
#[derive(Debug, Default)]
pub(crate) struct Masks(Vec<Mask>);

/// A text being rewritten.
#[derive(Debug)]
pub(crate) struct Text {
    pub(crate) chars: Vec<char>,
    pub(crate) masks: Masks,
}

/// Code points available for masks: planes 15 and 16, less their two non-characters each.
const PLANE_SIZE: u32 = 0xFFFE;

fn mask_char(index: usize) -> Option<char> {
    let index = u32::try_from(index).ok()?;
    if index < PLANE_SIZE {
        char::from_u32(0xF0000 + index)
    } else if index < 2 * PLANE_SIZE {
        char::from_u32(0x100000 + index - PLANE_SIZE)
    } else {
        None
    }
}

fn mask_index(c: char) -> Option<usize> {
    let c = c as u32;
    let index = match c {
        0xF0000..=0xFFFFD => c - 0xF0000,
        0x100000..=0x10FFFD => c - 0x100000 + PLANE_SIZE,
        _ => return None,
    };
    Some(index as usize)
}

/// Whether `c` is a mask (or, in the input, a character that will be masked as itself).
pub(crate) fn is_mask(c: char) -> bool {
    mask_index(c).is_some()
}

impl Masks {
    /// A new mask for `text`; `None` when the text has more masks than code points for them.
    pub(crate) fn push(&mut self, text: String, kind: MaskKind) -> Option<char> {
        let c = mask_char(self.0.len())?;
        self.0.push(Mask { text, kind });
        Some(c)
    }

    /// The mask `c` stands for, if `c` is a mask.
    pub(crate) fn get(&self, c: char) -> Option<&Mask> {
        self.0.get(mask_index(c)?)
    }

    /// What kind of mask `c` is, if it is one.
    pub(crate) fn kind(&self, c: char) -> Option<MaskKind> {
        self.get(c).map(|mask| mask.kind)
    }

    /// Whether `c` is a tag's mask.
    pub(crate) fn is_tag(&self, c: char) -> bool {
        self.kind(c) == Some(MaskKind::Tag)
    }

    /// `c` as the rules see it: a word's mask as a letter, a date's or time's as a digit, another
    /// mask as a symbol, any other character as itself.
    pub(crate) fn resolve(&self, c: char) -> char {
        match self.kind(c) {
            None => c,
            Some(MaskKind::Word) => 'a',
            Some(MaskKind::Date | MaskKind::Time) => '0',
            Some(MaskKind::Tag | MaskKind::Other) => '\u{FFFC}',
        }
    }

    /// The index of the nearest character before `i` that is not a tag.
    pub(crate) fn prev_index(&self, chars: &[char], i: usize) -> Option<usize> {
        (0..i).rev().find(|&j| !self.is_tag(chars[j]))
    }

    /// The index of the nearest character after `i` that is not a tag.
    pub(crate) fn next_index(&self, chars: &[char], i: usize) -> Option<usize> {
        (i + 1..chars.len()).find(|&j| !self.is_tag(chars[j]))
    }

    /// The nearest character before `i` that is not a tag, resolved.
    pub(crate) fn prev(&self, chars: &[char], i: usize) -> Option<char> {
        self.prev_index(chars, i).map(|j| self.resolve(chars[j]))
    }

    /// The nearest character after `i` that is not a tag, resolved.
    pub(crate) fn next(&self, chars: &[char], i: usize) -> Option<char> {
        self.next_index(chars, i).map(|j| self.resolve(chars[j]))
    }
}

impl Text {
    /// `input` with its tags, URLs, addresses, code and placeholders masked; `None` when it has
    /// more of them than there are masks (the caller then leaves the text as it is).
    pub(crate) fn mask(input: &str) -> Option<Text> {
        let mut masks = Masks::default();
        let mut chars = Vec::with_capacity(input.len());
        let mut rest = input;
        while let Some(c) = rest.chars().next() {
            if c == '<'
                && let Some(len) = tag_len(rest)
            {
                chars.push(masks.push(rest[..len].to_owned(), MaskKind::Tag)?);
                rest = &rest[len..];
                continue;
            }
            if is_mask(c) {
                chars.push(masks.push(c.to_string(), MaskKind::Other)?);
            } else {
                chars.push(c);
            }
            rest = &rest[c.len_utf8()..];
        }
        let mut text = Text { chars, masks };
        text.protect()?;
        Some(text)
    }

    /// The text with every mask replaced by what it stands for.
    pub(crate) fn unmask(&self) -> String {
        let mut out = String::with_capacity(self.chars.len() + 16);
        for &c in &self.chars {
            self.unmask_char(c, &mut out);
        }
        out
    }

    fn unmask_char(&self, c: char, out: &mut String) {
        match self.masks.get(c) {
            // A date or time is rewritten text, which may hold masks of its own.
            Some(Mask { text, kind: MaskKind::Date | MaskKind::Time }) => {
                for inner in text.chars() {
                    self.unmask_char(inner, out);
                }
            }
            // The others hold original text.
            Some(mask) => out.push_str(&mask.text),
            None => out.push(c),
        }
    }

    /// Masks URLs, e-mail addresses, `` `code` `` and `{placeholders}` as words.
    fn protect(&mut self) -> Option<()> {
        let chars = std::mem::take(&mut self.chars);
        let mut out = Vec::with_capacity(chars.len());
        let mut i = 0;
        while i < chars.len() {
            let span = url_len(&chars, i)
                .or_else(|| email_len(&chars, i))
                .or_else(|| code_len(&chars, i))
                .or_else(|| placeholder_len(&chars, i));
            match span {
                Some(len) => {
                    let text: String = chars[i..i + len].iter().collect();
                    out.push(self.masks.push(text, MaskKind::Word)?);
                    i += len;
                }
                None => {
                    out.push(chars[i]);
                    i += 1;
                }
            }
        }
        self.chars = out;
        Some(())
    }
}

/// The length in bytes of the placeholder tag `<gN>`, `</gN>` or `<xN/>` at the start of `text`.
pub(crate) fn tag_len(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let (digits_from, closing) = match bytes.get(1..3)? {
        [b'/', b'g'] => (3, ">".as_bytes()),
        [b'g', _] => (2, ">".as_bytes()),
        [b'x', _] => (2, "/>".as_bytes()),
        _ => return None,
    };
    let digits = bytes[digits_from..].iter().take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 {
        return None;
    }
    let end = digits_from + digits;
    bytes[end..].starts_with(closing).then_some(end + closing.len())
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Characters a URL may contain (before trailing punctuation is given back).
fn is_url_char(c: char) -> bool {
    !c.is_whitespace() && !is_mask(c) && !matches!(c, '<' | '>' | '"' | '“' | '”' | '«' | '»' | '「' | '」')
}

/// The length of a URL at `i`: `scheme://…` or `www.…`.
fn url_len(chars: &[char], i: usize) -> Option<usize> {
    if i > 0 && (is_word_char(chars[i - 1]) || matches!(chars[i - 1], '.' | '-' | '+')) {
        return None;
    }
    let scheme = chars[i..].iter().take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '.' | '-')).count();
    let starts = if scheme > 0 && chars[i].is_ascii_alphabetic() && chars[i + scheme..].starts_with(&[':', '/', '/']) {
        scheme + 3
    } else if chars[i..].iter().take(4).map(|c| c.to_ascii_lowercase()).eq("www.".chars()) {
        4
    } else {
        return None;
    };
    let mut len = starts + chars[i + starts..].iter().take_while(|&&c| is_url_char(c)).count();
    // Trailing punctuation belongs to the sentence; a closing bracket only if unopened.
    while len > starts {
        let last = chars[i + len - 1];
        let unopened = |open: char, close: char| {
            let span = &chars[i..i + len];
            span.iter().filter(|&&c| c == close).count() > span.iter().filter(|&&c| c == open).count()
        };
        let trailing = matches!(last, '.' | ',' | ';' | ':' | '!' | '?' | '\'' | '’' | '…')
            || (last == ')' && unopened('(', ')'))
            || (last == ']' && unopened('[', ']'));
        if !trailing {
            break;
        }
        len -= 1;
    }
    (len > starts).then_some(len)
}

fn is_email_local(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '%' | '+' | '-')
}

fn is_email_domain(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '.' | '-')
}

/// The length of an e-mail address starting at `i`.
fn email_len(chars: &[char], i: usize) -> Option<usize> {
    if !chars[i].is_ascii_alphanumeric() || (i > 0 && (is_email_local(chars[i - 1]) || chars[i - 1] == '@')) {
        return None;
    }
    let local = chars[i..].iter().take_while(|&&c| is_email_local(c)).count();
    if chars.get(i + local) != Some(&'@') {
        return None;
    }
    let from = i + local + 1;
    let mut domain = chars[from..].iter().take_while(|&&c| is_email_domain(c)).count();
    while domain > 0 && matches!(chars[from + domain - 1], '.' | '-') {
        domain -= 1;
    }
    let host = &chars[from..from + domain];
    let dot = host.iter().rposition(|&c| c == '.')?;
    let top_level = &host[dot + 1..];
    (dot > 0 && top_level.len() >= 2 && top_level.iter().all(|c| c.is_ascii_alphabetic())).then_some(local + 1 + domain)
}

/// The length of a `` `code` `` span at `i`, on one line.
fn code_len(chars: &[char], i: usize) -> Option<usize> {
    if chars[i] != '`' {
        return None;
    }
    let close = chars[i + 1..].iter().position(|&c| c == '`' || c == '\n')?;
    (chars[i + 1 + close] == '`' && close > 0).then_some(close + 2)
}

/// The length of a `{name}` or `{{name}}` placeholder at `i`.
fn placeholder_len(chars: &[char], i: usize) -> Option<usize> {
    if chars[i] != '{' {
        return None;
    }
    let double = chars.get(i + 1) == Some(&'{');
    let from = i + 1 + usize::from(double);
    let name = chars[from..].iter().take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | ':')).count();
    let close: &[char] = if double { &['}', '}'] } else { &['}'] };
    (name > 0 && chars[from + name..].starts_with(close)).then_some(from + name + close.len() - i)
}

/// Rewrites a text in one scan: at each position `at` may recognise something, returning where
/// it ends and what to write instead; elsewhere characters are kept.
pub(crate) fn rewrite(text: &mut Text, mut at: impl FnMut(&Masks, &[char], usize) -> Option<(usize, String)>) {
    let chars = std::mem::take(&mut text.chars);
    let mut out = Vec::with_capacity(chars.len() + 8);
    let mut i = 0;
    while i < chars.len() {
        match at(&text.masks, &chars, i) {
            Some((end, replacement)) if end > i => {
                out.extend(replacement.chars());
                i = end;
            }
            _ => {
                out.push(chars[i]);
                i += 1;
            }
        }
    }
    text.chars = out;
}

/// Whether a number (or date, time, amount) may start at `i`: not inside a word, a code, a
/// version number or an address. A sign before it counts when it stands apart (`-5`, `(+3`).
pub(crate) fn number_may_start(masks: &Masks, chars: &[char], i: usize) -> bool {
    let Some(j) = masks.prev_index(chars, i) else {
        return true;
    };
    let prev = masks.resolve(chars[j]);
    // The second number of a dimension (`10x20`).
    if matches!(prev, 'x' | 'X') && j > 0 && chars[j - 1].is_ascii_digit() {
        return true;
    }
    if matches!(prev, '-' | '−' | '+' | '±') {
        return masks.prev(chars, j).is_none_or(|before| {
            !before.is_alphanumeric() && !matches!(before, '-' | '−' | '+' | '.' | ',' | '\u{FFFC}')
        });
    }
    !(prev.is_alphanumeric() && !is_cjk(prev)
        || matches!(
            prev,
            '.' | ',' | '/' | ':' | '_' | '#' | '@' | '\\' | '&' | '%' | '^' | '=' | '\'' | '’' | '\u{FFFC}' | '°'
        ))
}

/// Whether a number (or date, time, amount) that ends before `i` ends there: it does not go on
/// as digits, a word, or another dotted, slashed or colon-separated part.
pub(crate) fn number_may_end(masks: &Masks, chars: &[char], i: usize) -> bool {
    let Some(j) = (i..chars.len()).find(|&j| !masks.is_tag(chars[j])) else {
        return true;
    };
    let next = masks.resolve(chars[j]);
    if next.is_alphanumeric() && !is_cjk(next) || matches!(next, '_' | '@' | '\u{FFFC}') {
        return false;
    }
    let after = masks.next(chars, j);
    !(matches!(next, '.' | ',' | '/' | ':' | '-' | '\'') && after.is_some_and(|c| c.is_ascii_digit()))
}

/// A run of ASCII digits read by a [`Cursor`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Digits {
    pub(crate) value: u32,
    pub(crate) len: usize,
}

impl Digits {
    /// Whether the run starts with a zero and has more digits (`05`).
    pub(crate) fn padded(self, chars: &[char], end: usize) -> bool {
        self.len > 1 && chars[end - self.len] == '0'
    }
}

/// Reads a pattern off a text, character by character.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Cursor<'a> {
    pub(crate) chars: &'a [char],
    pub(crate) pos: usize,
}

impl<'a> Cursor<'a> {
    pub(crate) fn new(chars: &'a [char], pos: usize) -> Cursor<'a> {
        Cursor { chars, pos }
    }

    pub(crate) fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    /// A whole run of `min` to `max` ASCII digits (at most 9), else nothing is read.
    pub(crate) fn digits(&mut self, min: usize, max: usize) -> Option<Digits> {
        let len = self.chars[self.pos..].iter().take_while(|c| c.is_ascii_digit()).count();
        if len < min || len > max {
            return None;
        }
        let value =
            self.chars[self.pos..self.pos + len].iter().fold(0, |value, c| value * 10 + (*c as u32 - '0' as u32));
        self.pos += len;
        Some(Digits { value, len })
    }

    /// Reads `c` if it comes next.
    pub(crate) fn eat(&mut self, c: char) -> bool {
        let next = self.peek() == Some(c);
        self.pos += usize::from(next);
        next
    }

    /// Reads `text` if it comes next.
    pub(crate) fn eat_str(&mut self, text: &str) -> bool {
        let mut at = self.pos;
        for c in text.chars() {
            if self.chars.get(at) != Some(&c) {
                return false;
            }
            at += 1;
        }
        self.pos = at;
        true
    }

    /// Reads one space if one comes next.
    pub(crate) fn eat_space(&mut self) -> bool {
        let next = self.peek().is_some_and(is_space);
        self.pos += usize::from(next);
        next
    }

    /// Reads every space that comes next; how many.
    pub(crate) fn eat_spaces(&mut self) -> usize {
        let from = self.pos;
        while self.eat_space() {}
        self.pos - from
    }
}

/// Spaces the rules treat as spaces between words: not line breaks or tabs.
pub(crate) fn is_space(c: char) -> bool {
    matches!(c, ' ' | '\u{a0}' | '\u{202f}' | '\u{2009}' | '\u{2007}' | '\u{2002}' | '\u{2003}')
}

/// A Han (Chinese) character.
pub(crate) fn is_han(c: char) -> bool {
    matches!(c, '\u{3400}'..='\u{4DBF}' | '\u{4E00}'..='\u{9FFF}' | '\u{F900}'..='\u{FAFF}' | '\u{20000}'..='\u{2FFFF}' | '\u{3007}')
}

/// A Japanese kana character (hiragana, katakana, the prolonged sound mark).
pub(crate) fn is_kana(c: char) -> bool {
    matches!(c, '\u{3040}'..='\u{30FF}' | '\u{31F0}'..='\u{31FF}' | '\u{FF66}'..='\u{FF9F}')
}

/// A Hangul (Korean) character.
pub(crate) fn is_hangul(c: char) -> bool {
    matches!(c, '\u{AC00}'..='\u{D7AF}' | '\u{1100}'..='\u{11FF}' | '\u{3130}'..='\u{318F}')
}

/// A character of a script written without spaces between words, or Korean.
pub(crate) fn is_cjk(c: char) -> bool {
    is_han(c) || is_kana(c) || is_hangul(c)
}

/// A letter of the Latin script.
pub(crate) fn is_latin(c: char) -> bool {
    c.is_ascii_alphabetic() || (matches!(c, '\u{C0}'..='\u{24F}') && c != '×' && c != '÷')
}

/// A letter of a spaced script (not Chinese, Japanese or Korean).
pub(crate) fn is_letter(c: char) -> bool {
    c.is_alphabetic() && !is_cjk(c)
}

/// The language a rewriter works for: its conventions decide ambiguous input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Lang {
    De,
    En,
    Es,
    Fr,
    It,
    Ja,
    Ko,
    Zh,
    /// A language without a style rule list: nothing ambiguous is rewritten.
    Other,
}

impl Lang {
    /// The base language of a code such as `de`, `EN-GB` or `zh-Hant`.
    pub(crate) fn parse(code: &str) -> Lang {
        let base = code.split(['-', '_']).next().unwrap_or_default().to_ascii_lowercase();
        match base.as_str() {
            "de" => Lang::De,
            "en" => Lang::En,
            "es" => Lang::Es,
            "fr" => Lang::Fr,
            "it" => Lang::It,
            "ja" => Lang::Ja,
            "ko" => Lang::Ko,
            "zh" => Lang::Zh,
            _ => Lang::Other,
        }
    }

    /// Whether the language writes decimals with a comma.
    pub(crate) fn decimal_comma(self) -> bool {
        matches!(self, Lang::De | Lang::Es | Lang::Fr | Lang::It)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn masked(input: &str) -> Vec<Option<MaskKind>> {
        let text = Text::mask(input).unwrap();
        text.chars.iter().map(|&c| text.masks.kind(c)).collect()
    }

    #[test]
    fn tags_are_recognised_exactly() {
        assert_eq!(tag_len("<g1>x"), Some(4));
        assert_eq!(tag_len("</g12>"), Some(6));
        assert_eq!(tag_len("<x3/>"), Some(5));
        assert_eq!(tag_len("<g>"), None);
        assert_eq!(tag_len("<x3>"), None);
        assert_eq!(tag_len("<b>"), None);
        assert_eq!(tag_len("</x1/>"), None);
        assert_eq!(tag_len("<g1"), None);
    }

    #[test]
    fn masking_and_unmasking_gives_the_input_back() {
        for input in [
            "",
            "plain",
            "<g1>a</g1> <x2/> b",
            "see https://example.com/a?b=1.000, then www.example.org.",
            "mail ana.b@example.co.uk or `code 1.5` {name} {{other}}",
            "private \u{F0000} and \u{10FFFD} use",
            "<g1<g2>>",
        ] {
            assert_eq!(Text::mask(input).unwrap().unmask(), input);
        }
    }

    #[test]
    fn protected_spans_become_one_word_mask() {
        let kinds = masked("a https://x.org/p.");
        assert_eq!(kinds, [None, None, Some(MaskKind::Word), None]);
        let kinds = masked("(x@y.de)");
        assert_eq!(kinds, [None, Some(MaskKind::Word), None]);
        let kinds = masked("<g1>x</g1>");
        assert_eq!(kinds, [Some(MaskKind::Tag), None, Some(MaskKind::Tag)]);
    }

    #[test]
    fn urls_keep_a_closing_bracket_they_opened() {
        let text = Text::mask("(see https://en.example.org/wiki/A_(b))").unwrap();
        let word = text.chars.iter().find_map(|&c| text.masks.get(c)).unwrap();
        assert_eq!(word.text, "https://en.example.org/wiki/A_(b)");
    }

    #[test]
    fn neighbours_look_through_tags() {
        let text = Text::mask("a<g1></g1>b").unwrap();
        assert_eq!(text.masks.next(&text.chars, 0), Some('b'));
        assert_eq!(text.masks.prev(&text.chars, 3), Some('a'));
        assert_eq!(text.masks.prev(&text.chars, 0), None);
    }

    #[test]
    fn languages_are_read_from_their_base_code() {
        assert_eq!(Lang::parse("EN-GB"), Lang::En);
        assert_eq!(Lang::parse("zh-Hant"), Lang::Zh);
        assert_eq!(Lang::parse("pt"), Lang::Other);
    }
}
