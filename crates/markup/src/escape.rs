//! Writing translated text back into markup.

use crate::options::TagHandling;
use crate::xml::is_xml_char;

/// Appends `text` to `out` as character data of the output.
///
/// `&`, `<` and `>` are escaped (escaping `>` also rules out `]]>` in XML). A character the
/// unit's source spelled as a reference ending in `;` (`&nbsp;`, `&#233;`) is spelled the same way
/// again, so translated HTML keeps its non-breaking spaces visible as such. In XML, characters
/// XML forbids (most control characters) are dropped, since no spelling of them is well-formed.
pub(crate) fn push_text(out: &mut String, text: &str, handling: TagHandling, references: &[(char, String)]) {
    for character in text.chars() {
        if let Some((_, spelled)) = references.iter().find(|(referenced, _)| *referenced == character) {
            out.push_str(spelled);
            continue;
        }
        match character {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            character if handling == TagHandling::Xml && !is_xml_char(character) => {}
            character => out.push(character),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn escaped(text: &str, handling: TagHandling, references: &[(char, String)]) -> String {
        let mut out = String::new();
        push_text(&mut out, text, handling, references);
        out
    }

    #[test]
    fn markup_characters_are_escaped() {
        assert_eq!(escaped("a & b < c > d ]]>", TagHandling::Xml, &[]), "a &amp; b &lt; c &gt; d ]]&gt;");
        assert_eq!(escaped("a & b <c>", TagHandling::Html, &[]), "a &amp; b &lt;c&gt;");
    }

    #[test]
    fn characters_xml_forbids_are_dropped_from_xml_only() {
        assert_eq!(escaped("a\u{1}b\u{FFFE}c\td", TagHandling::Xml, &[]), "abc\td");
        assert_eq!(escaped("a\u{1}b", TagHandling::Html, &[]), "a\u{1}b");
    }

    #[test]
    fn the_sources_spelling_of_a_character_is_reused() {
        let references = [('\u{a0}', "&nbsp;".to_owned()), ('é', "&#233;".to_owned())];
        assert_eq!(escaped("a\u{a0}b é", TagHandling::Html, &references), "a&nbsp;b &#233;");
    }
}
