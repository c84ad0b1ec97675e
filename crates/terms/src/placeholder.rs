//! Placeholders, the numbered tags (`<g1>`, `</g1>`, `<x2/>`) a text to translate may contain, and
//! the pieces a text is cut into.

/// One piece of a text, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Segment<'t> {
    /// Text with neither placeholders nor glossary terms.
    Plain(&'t str),
    /// A placeholder, verbatim.
    Placeholder(&'t str),
    /// An occurrence of the glossary entry at index `entry` (of the slice the matcher was built
    /// from).
    ///
    /// `capitalised` is true only when the occurrence starts a sentence, its first character is
    /// upper-case and the entry's target term starts lower-case: the target term then comes out
    /// with its first character upper-cased ([`GlossaryMatcher::target`](crate::GlossaryMatcher::target)).
    /// A sentence starts at the beginning of the text and after `.`, `!`, `?`, `…`, `。`, `！` or
    /// `？`; whitespace, placeholders, quotes, brackets, `¿` and `¡` in between do not matter.
    Term { entry: usize, capitalised: bool },
}

/// The length in bytes of the placeholder at the start of `text`, if one starts there.
pub fn placeholder_len(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let (digits_from, closing): (usize, &[u8]) = match bytes {
        [b'<', b'/', b'g', ..] => (3, b">"),
        [b'<', b'g', ..] => (2, b">"),
        [b'<', b'x', ..] => (2, b"/>"),
        _ => return None,
    };
    let digits = bytes[digits_from..].iter().take_while(|byte| byte.is_ascii_digit()).count();
    let end = digits_from + digits;
    (digits > 0 && bytes[end..].starts_with(closing)).then_some(end + closing.len())
}

/// Splits a text into [`Segment::Plain`] runs and [`Segment::Placeholder`]s.
pub fn split_placeholders(text: &str) -> Vec<Segment<'_>> {
    let mut segments = Vec::new();
    let mut plain_from = 0;
    let mut index = 0;
    while let Some(offset) = text[index..].find('<') {
        let at = index + offset;
        match placeholder_len(&text[at..]) {
            Some(len) => {
                if plain_from < at {
                    segments.push(Segment::Plain(&text[plain_from..at]));
                }
                segments.push(Segment::Placeholder(&text[at..at + len]));
                plain_from = at + len;
                index = plain_from;
            }
            None => index = at + 1,
        }
    }
    if plain_from < text.len() {
        segments.push(Segment::Plain(&text[plain_from..]));
    }
    segments
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_are_recognised_only_when_well_formed() {
        assert_eq!(placeholder_len("<g1>x"), Some(4));
        assert_eq!(placeholder_len("</g12>"), Some(6));
        assert_eq!(placeholder_len("<x3/>"), Some(5));
        assert_eq!(placeholder_len("<g>"), None);
        assert_eq!(placeholder_len("<x3>"), None);
        assert_eq!(placeholder_len("<b>"), None);
        assert_eq!(placeholder_len("< g1>"), None);
        assert_eq!(placeholder_len("<G1>"), None);
    }

    #[test]
    fn texts_split_around_placeholders() {
        assert_eq!(
            split_placeholders("a <g1>b</g1><x2/> 1 < 2"),
            [
                Segment::Plain("a "),
                Segment::Placeholder("<g1>"),
                Segment::Plain("b"),
                Segment::Placeholder("</g1>"),
                Segment::Placeholder("<x2/>"),
                Segment::Plain(" 1 < 2"),
            ]
        );
        assert_eq!(split_placeholders(""), []);
        assert_eq!(split_placeholders("<g1"), [Segment::Plain("<g1")]);
    }
}
