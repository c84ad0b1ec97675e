//! What the XML and HTML readers hand to the unit builder: a flat list of tokens that together
//! cover every byte of the text, in order.

use std::ops::Range;

use crate::text_run::TextRun;

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Token {
    /// The source bytes of the token.
    pub span: Range<usize>,
    pub kind: TokenKind,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum TokenKind {
    /// A start tag; `ignored` when its attributes say the content is not to be translated
    /// (HTML `translate="no"`, class `notranslate`).
    Start {
        name: String,
        ignored: bool,
    },
    End {
        name: String,
    },
    /// An element without content: XML `<x/>`, an HTML void element or self-closing tag.
    Empty {
        name: String,
    },
    Text(TextRun),
    /// Markup without text that may sit inside a sentence: a comment, a processing instruction,
    /// a reference the reader keeps as it is. `name` is `#comment`, `#pi`, `#reference`, ...
    Inline {
        name: &'static str,
    },
    /// Markup that always ends a unit: an XML declaration, a doctype.
    Break,
}

impl Token {
    /// The same token for a text that has `by` more bytes before it.
    pub(crate) fn shifted(mut self, by: usize) -> Token {
        if by == 0 {
            return self;
        }
        self.span = self.span.start + by..self.span.end + by;
        if let TokenKind::Text(run) = &mut self.kind {
            run.shift_source(by);
        }
        self
    }
}

/// Makes sure the tokens cover the whole text: bytes a reader skipped become `Inline` tokens
/// (kept verbatim), and adjacent text tokens become one.
pub(crate) fn normalise(tokens: Vec<Token>, length: usize) -> Vec<Token> {
    let mut covered: Vec<Token> = Vec::with_capacity(tokens.len());
    let mut position = 0;
    let push = |covered: &mut Vec<Token>, token: Token| {
        if let (Some(Token { span, kind: TokenKind::Text(previous) }), TokenKind::Text(next)) =
            (covered.last_mut(), &token.kind)
            && span.end == token.span.start
        {
            previous.append(next.clone());
            span.end = token.span.end;
            return;
        }
        covered.push(token);
    };
    for token in tokens {
        if token.span.start < position || token.span.is_empty() {
            continue;
        }
        if token.span.start > position {
            push(
                &mut covered,
                Token { span: position..token.span.start, kind: TokenKind::Inline { name: "#unknown" } },
            );
        }
        position = token.span.end;
        push(&mut covered, token);
    }
    if position < length {
        covered.push(Token { span: position..length, kind: TokenKind::Inline { name: "#unknown" } });
    }
    covered
}
