//! Reading `tag_handling=html` texts with html5gum into tokens, and what HTML says about
//! element names (void, block, never translated).
//!
//! HTML has no well-formedness errors, only tag soup, so reading never fails. The tokenizer
//! switches to raw text after `script`, `style` and the like (html5gum's naive state switching,
//! good enough without a tree builder), so their content is never read as tags. Names come in
//! lower case from the tokenizer.

use html5gum::{DefaultEmitter, State, Token as HtmlToken, Tokenizer};

use crate::text_run::TextRun;
use crate::tokens::{Token, TokenKind};

/// Elements without content or end tag.
const VOID_ELEMENTS: &[&str] = &[
    "area", "base", "basefont", "bgsound", "br", "col", "embed", "frame", "hr", "img", "input", "keygen", "link",
    "meta", "param", "source", "track", "wbr",
];

/// Elements that end a unit by default: block-level and document structure. Every other element
/// (b, i, em, strong, span, a, code, sub, sup, u, small, mark, img, unknown and custom elements,
/// ...) stays inside the unit, as browsers lay unknown elements out inline.
const BLOCK_ELEMENTS: &[&str] = &[
    "address",
    "article",
    "aside",
    "base",
    "blockquote",
    "body",
    "br",
    "caption",
    "center",
    "col",
    "colgroup",
    "dd",
    "details",
    "dialog",
    "dir",
    "div",
    "dl",
    "dt",
    "fieldset",
    "figcaption",
    "figure",
    "footer",
    "form",
    "frame",
    "frameset",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "head",
    "header",
    "hgroup",
    "hr",
    "html",
    "legend",
    "li",
    "link",
    "main",
    "menu",
    "meta",
    "nav",
    "ol",
    "optgroup",
    "option",
    "p",
    "pre",
    "search",
    "section",
    "select",
    "summary",
    "table",
    "tbody",
    "td",
    "template",
    "textarea",
    "tfoot",
    "th",
    "thead",
    "title",
    "tr",
    "ul",
];

/// Elements whose content is never translated: scripts and styles, and the elements html5gum
/// reads as raw text (their content is not markup the unit builder could read).
const NEVER_TRANSLATED: &[&str] = &["script", "style", "noscript", "iframe", "noembed", "noframes", "xmp", "plaintext"];

pub(crate) fn is_block(name: &str) -> bool {
    BLOCK_ELEMENTS.contains(&name)
}

pub(crate) fn is_never_translated(name: &str) -> bool {
    NEVER_TRANSLATED.contains(&name)
}

/// Reads an HTML text into tokens.
pub(crate) fn tokenize(source: &str) -> Vec<Token> {
    let mut emitter = DefaultEmitter::<usize>::new_with_span();
    emitter.naively_switch_states(true);
    let mut tokens = Vec::new();
    for token in Tokenizer::new_with_emitter(source, emitter) {
        let Ok(token) = token;
        let (span, kind) = match token {
            HtmlToken::StartTag(tag) => {
                let name = String::from_utf8_lossy(&tag.name).into_owned();
                let kind = if tag.self_closing || VOID_ELEMENTS.contains(&name.as_str()) {
                    TokenKind::Empty { name }
                } else {
                    let attribute = |key: &[u8]| tag.attributes.get(key).map(|value| String::from_utf8_lossy(value));
                    let translate_no =
                        attribute(b"translate").is_some_and(|value| value.trim().eq_ignore_ascii_case("no"));
                    let notranslate = attribute(b"class")
                        .is_some_and(|classes| classes.split_ascii_whitespace().any(|class| class == "notranslate"));
                    TokenKind::Start { name, ignored: translate_no || notranslate }
                };
                (tag.span, kind)
            }
            HtmlToken::EndTag(tag) => {
                (tag.span, TokenKind::End { name: String::from_utf8_lossy(&tag.name).into_owned() })
            }
            HtmlToken::String(text) => {
                let range = text.span.start..text.span.end;
                let decoded = String::from_utf8_lossy(&text.value);
                (text.span, TokenKind::Text(decoded_run(source, range, &decoded)))
            }
            HtmlToken::Comment(comment) => (comment.span, TokenKind::Inline { name: "#comment" }),
            HtmlToken::Doctype(doctype) => (doctype.span, TokenKind::Break),
            HtmlToken::Error(_) => continue,
        };
        tokens.push(Token { span: span.start..span.end, kind });
    }
    tokens
}

/// The run for text whose source is `source[range]` and which the tokenizer decoded to `decoded`.
///
/// The source is cut before each `&` and around each carriage return; each piece is decoded on
/// its own (a reference never reaches past the next `&`, and a line break never holds one), so
/// references and normalised line breaks become coded atoms and everything else stays literal.
fn decoded_run(source: &str, range: std::ops::Range<usize>, decoded: &str) -> TextRun {
    let raw = &source[range.clone()];
    let mut run = TextRun::default();
    if raw == decoded {
        run.push_literal(raw, range.start);
        return run;
    }
    let mut piece_start = 0;
    let mut cuts: Vec<usize> = Vec::new();
    for (offset, character) in raw.char_indices() {
        if character == '&' || character == '\r' {
            cuts.push(offset);
        }
        if character == '\r' {
            let after = offset + 1;
            let next = if raw[after..].starts_with('\n') { after + 1 } else { after };
            cuts.push(next);
        }
    }
    cuts.push(raw.len());
    for cut in cuts {
        if cut <= piece_start {
            continue;
        }
        let piece = &raw[piece_start..cut];
        let source_start = range.start + piece_start;
        let piece_decoded = decode(piece);
        if piece_decoded == piece {
            run.push_literal(piece, source_start);
        } else if piece.starts_with('\r') {
            run.push_coded(&piece_decoded, source_start..source_start + piece.len());
        } else {
            // The decoded text ends with whatever followed the reference as it was written; the
            // reference itself decodes to at least its first character.
            let first = piece_decoded.chars().next().map_or(0, char::len_utf8);
            let common = common_suffix(piece, &piece_decoded).min(piece_decoded.len() - first);
            let coded_source = piece.len() - common;
            run.push_coded(&piece_decoded[..piece_decoded.len() - common], source_start..source_start + coded_source);
            run.push_literal(&piece[coded_source..], source_start + coded_source);
        }
        piece_start = cut;
    }
    if run.text != decoded {
        // Should not happen; if it does, the run is still right as one block.
        let mut whole = TextRun::default();
        whole.push_coded(decoded, range);
        return whole;
    }
    run
}

/// Decodes text as it would be read between tags (RCDATA: references decoded, no tags).
fn decode(piece: &str) -> String {
    let mut tokenizer = Tokenizer::new(piece);
    tokenizer.set_state(State::RcData);
    let mut text = Vec::new();
    for token in tokenizer {
        let Ok(token) = token;
        if let HtmlToken::String(value) = token {
            text.extend_from_slice(&value);
        }
    }
    String::from_utf8_lossy(&text).into_owned()
}

/// The length in bytes of the longest common suffix of two strings, on a character boundary.
fn common_suffix(left: &str, right: &str) -> usize {
    left.chars().rev().zip(right.chars().rev()).take_while(|(a, b)| a == b).map(|(a, _)| a.len_utf8()).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run_of(text: &str) -> TextRun {
        let tokens = tokenize(text);
        match &tokens[..] {
            [Token { kind: TokenKind::Text(run), .. }] => run.clone(),
            other => panic!("one text token expected, got {other:?}"),
        }
    }

    #[test]
    fn references_are_decoded_and_keep_their_source_spelling() {
        let source = "a&nbsp;b &amp; &copy c";
        let run = run_of(source);
        assert_eq!(run.text, "a\u{a0}b & © c");
        let references: Vec<(char, &str)> = run.references(source).collect();
        assert_eq!(references, [('\u{a0}', "&nbsp;"), ('&', "&amp;"), ('©', "&copy")]);
        assert_eq!(run.source(), 0..source.len());
    }

    #[test]
    fn carriage_returns_are_normalised_but_map_to_their_bytes() {
        let source = "one\r\ntwo\rthree";
        let run = run_of(source);
        assert_eq!(run.text, "one\ntwo\nthree");
        assert_eq!(run.source_at(4), 5);
        assert_eq!(run.source_at(8), 9);
    }

    #[test]
    fn void_and_self_closing_tags_are_empty_elements() {
        let tokens = tokenize("<br><img src=a.png><span/><b>");
        let kinds: Vec<&TokenKind> = tokens.iter().map(|token| &token.kind).collect();
        assert_eq!(
            kinds,
            [
                &TokenKind::Empty { name: "br".into() },
                &TokenKind::Empty { name: "img".into() },
                &TokenKind::Empty { name: "span".into() },
                &TokenKind::Start { name: "b".into(), ignored: false }
            ]
        );
    }

    #[test]
    fn translate_no_and_notranslate_mark_the_start_tag() {
        let tokens = tokenize("<span translate=NO><div class='a notranslate b'><p class=notranslated>");
        let ignored: Vec<bool> = tokens
            .iter()
            .map(|token| match &token.kind {
                TokenKind::Start { ignored, .. } => *ignored,
                _ => panic!("start tags only"),
            })
            .collect();
        assert_eq!(ignored, [true, true, false]);
    }

    #[test]
    fn script_content_is_one_text_token_even_with_tags_inside() {
        let tokens = tokenize("<script>if (a<b) { x = '<p>'; }</script>");
        assert_eq!(tokens.len(), 3);
        assert!(matches!(tokens[1].kind, TokenKind::Text(_)));
    }
}
