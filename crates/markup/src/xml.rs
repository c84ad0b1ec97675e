//! Reading `tag_handling=xml` texts with quick-xml into tokens, and the well-formedness checks
//! of each `tag_handling_version` (documented on `Markup::parse`).
//!
//! Nesting is checked here rather than by quick-xml, so that an error can name where the element
//! it concerns was opened. v1's leniency about nesting lives in the tag pairing of the `markup`
//! module, shared with HTML.

use quick_xml::escape::resolve_predefined_entity;
use quick_xml::events::Event;
use quick_xml::reader::Reader;

use crate::error::{MarkupError, XmlProblem};
use crate::options::TagHandlingVersion;
use crate::text_run::TextRun;
use crate::tokens::{Token, TokenKind};

/// Reads an XML text into tokens.
pub(crate) fn tokenize(source: &str, version: TagHandlingVersion) -> Result<Vec<Token>, MarkupError> {
    let strict = version == TagHandlingVersion::V2;
    let mut reader = Reader::from_str(source);
    let config = reader.config_mut();
    // Nesting is checked below, for both versions, so that errors name where the element opened.
    config.check_end_names = false;
    config.allow_unmatched_ends = true;
    config.allow_dangling_amp = !strict;
    config.check_comments = strict;
    config.trim_text(false);
    config.expand_empty_elements = false;

    let mut tokens = Vec::new();
    let mut open: Vec<(String, usize)> = Vec::new();
    loop {
        let start = reader.buffer_position() as usize;
        let event = match reader.read_event() {
            Ok(event) => event,
            Err(error) => {
                let offset = reader.error_position() as usize;
                return Err(MarkupError { offset, problem: XmlProblem::Syntax { detail: error.to_string() } });
            }
        };
        let end = reader.buffer_position() as usize;
        let span = start..end;
        let kind = match event {
            Event::Eof => break,
            Event::Start(tag) => {
                let name = tag.name().as_ref().to_owned();
                if strict {
                    check_attributes(tag.attributes(), start)?;
                    open.push((name.clone(), start));
                }
                TokenKind::Start { name, ignored: false }
            }
            Event::Empty(tag) => {
                if strict {
                    check_attributes(tag.attributes(), start)?;
                }
                TokenKind::Empty { name: tag.name().as_ref().to_owned() }
            }
            Event::End(tag) => {
                let name = tag.name().as_ref().to_owned();
                if strict {
                    match open.pop() {
                        Some((expected, _)) if expected == name => {}
                        Some((expected, opened_at)) => {
                            let problem = XmlProblem::MismatchedEndTag { expected, found: name, opened_at };
                            return Err(MarkupError { offset: start, problem });
                        }
                        None => {
                            return Err(MarkupError { offset: start, problem: XmlProblem::UnmatchedEndTag { name } });
                        }
                    }
                }
                TokenKind::End { name }
            }
            Event::Text(_) => {
                let mut run = TextRun::default();
                run.push_literal(&source[span.clone()], start);
                TokenKind::Text(run)
            }
            Event::GeneralRef(reference) => {
                let name: &str = &reference;
                let resolved = match reference.resolve_char_ref() {
                    Ok(Some(character)) if is_xml_char(character) => Some(character.to_string()),
                    Ok(Some(_)) | Err(_) => {
                        if strict {
                            let problem = XmlProblem::InvalidCharacterReference { reference: name.to_owned() };
                            return Err(MarkupError { offset: start, problem });
                        }
                        None
                    }
                    Ok(None) => match resolve_predefined_entity(name) {
                        Some(text) => Some(text.to_owned()),
                        None if strict => {
                            let problem = XmlProblem::UnknownEntity { name: name.to_owned() };
                            return Err(MarkupError { offset: start, problem });
                        }
                        None => None,
                    },
                };
                match resolved {
                    Some(text) => {
                        let mut run = TextRun::default();
                        run.push_coded(&text, span.clone());
                        TokenKind::Text(run)
                    }
                    None => TokenKind::Inline { name: "#reference" },
                }
            }
            Event::CData(data) => {
                let content: &str = &data;
                if content.is_empty() {
                    TokenKind::Inline { name: "#cdata" }
                } else {
                    let mut run = TextRun::default();
                    run.push_coded(content, span.clone());
                    TokenKind::Text(run)
                }
            }
            Event::Comment(_) => TokenKind::Inline { name: "#comment" },
            Event::PI(_) => TokenKind::Inline { name: "#pi" },
            Event::Decl(_) | Event::DocType(_) => TokenKind::Break,
        };
        tokens.push(Token { span, kind });
    }
    if let Some((name, opened_at)) = open.pop() {
        return Err(MarkupError { offset: opened_at, problem: XmlProblem::UnclosedElement { name } });
    }
    Ok(tokens)
}

fn check_attributes(
    attributes: quick_xml::events::attributes::Attributes<'_>,
    tag_start: usize,
) -> Result<(), MarkupError> {
    for attribute in attributes {
        if let Err(error) = attribute {
            return Err(MarkupError {
                offset: tag_start,
                problem: XmlProblem::InvalidAttribute { detail: error.to_string() },
            });
        }
    }
    Ok(())
}

/// Whether XML 1.0 allows the character in a document (production `Char`).
pub(crate) fn is_xml_char(character: char) -> bool {
    matches!(character, '\t' | '\n' | '\r' | '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..='\u{10FFFF}')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(text: &str) -> MarkupError {
        tokenize(text, TagHandlingVersion::V2).expect_err("should be rejected")
    }

    #[test]
    fn tokens_cover_the_whole_text() {
        let text = "<?xml version=\"1.0\"?><r a='1'>x &amp; <![CDATA[y]]><e/><!--c--></r>";
        let tokens = tokenize(text, TagHandlingVersion::V2).unwrap();
        let mut position = 0;
        for token in &tokens {
            assert_eq!(token.span.start, position);
            position = token.span.end;
        }
        assert_eq!(position, text.len());
    }

    #[test]
    fn v2_names_a_mismatched_end_tag_and_where_its_element_opened() {
        let problem = error("<a>x <b>y</a></b>");
        assert_eq!(problem.offset, 9);
        assert_eq!(
            problem.problem,
            XmlProblem::MismatchedEndTag { expected: "b".into(), found: "a".into(), opened_at: 5 }
        );
        assert_eq!(
            problem.to_string(),
            "Invalid XML at byte 9: end tag </a> does not match the start tag <b> at byte 5"
        );
    }

    #[test]
    fn v2_rejects_an_unclosed_element() {
        let problem = error("Hello <b>world");
        assert_eq!(problem.offset, 6);
        assert_eq!(problem.to_string(), "Invalid XML at byte 6: start tag <b> is never closed");
    }

    #[test]
    fn v2_rejects_an_end_tag_without_start_tag() {
        assert_eq!(error("a</b>").problem, XmlProblem::UnmatchedEndTag { name: "b".into() });
    }

    #[test]
    fn v2_rejects_unknown_entities_and_bad_character_references() {
        assert_eq!(error("a &nbsp; b").to_string(), "Invalid XML at byte 2: unknown entity &nbsp;");
        assert_eq!(error("a &#xZZ; b").problem, XmlProblem::InvalidCharacterReference { reference: "#xZZ".into() });
        assert_eq!(error("a &#1; b").offset, 2);
    }

    #[test]
    fn v2_rejects_a_lone_ampersand_and_bad_attributes() {
        assert!(matches!(error("Tom & Jerry").problem, XmlProblem::Syntax { .. }));
        assert!(matches!(error("<a x=1>t</a>").problem, XmlProblem::InvalidAttribute { .. }));
        assert!(matches!(error("<a x='1' x='2'>t</a>").problem, XmlProblem::InvalidAttribute { .. }));
    }

    #[test]
    fn syntax_errors_are_rejected_by_both_versions_with_their_offset() {
        for version in [TagHandlingVersion::V1, TagHandlingVersion::V2] {
            let problem = tokenize("ok <b", version).unwrap_err();
            assert_eq!(problem.offset, 3);
            assert!(problem.to_string().starts_with("Invalid XML at byte 3: "), "{problem}");
            assert!(tokenize("a <!-- b", version).is_err());
        }
    }

    #[test]
    fn v1_keeps_unknown_entities_and_lone_ampersands() {
        let tokens = tokenize("Tom & Jerry &brand;", TagHandlingVersion::V1).unwrap();
        assert!(tokens.iter().any(|token| token.kind == TokenKind::Inline { name: "#reference" }));
    }
}
