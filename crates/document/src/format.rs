//! The document types, their limits, and how a document is cut into pieces and put back
//! together.
//!
//! A document is cut, at upload, into [`Piece`]s whose sources joined in order are the file
//! itself: text to translate, and what is kept byte for byte between. Its translation is the
//! pieces' translations (or, for kept pieces, their sources) joined in order.
//!
//! * **txt**: a paragraph (a run of lines that are not blank) is one piece to translate, as one
//!   text whose line breaks the translation keeps; blank lines, the whitespace around a
//!   paragraph and a byte order mark are kept.
//! * **html**: the file is read as translation reads HTML ([`markup::Markup`]), and cut between
//!   its units where markup separates them, into pieces of about [`HTML_PIECE_BYTES`] each that
//!   are translated with tag handling; markup outside units (scripts, styles, comments, tags and
//!   attributes) comes back byte for byte.

use accounts::Plan;
use markup::{Markup, Segment, SplitSentences, TagHandling, TagOptions};

/// How much of an HTML file one piece holds, at least (it ends at the next unit that markup
/// separates from the one after it): small enough that a slice of work translates a few, large
/// enough that a sentence's context is rarely cut.
pub const HTML_PIECE_BYTES: usize = 4 * 1024;

/// A type of document, by its file name's extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Txt,
    Html,
}

/// Why a file is refused as a document.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FormatError {
    /// No extension, or one that names no document type.
    #[error(
        "the file name `{0}` has no extension of a document type (txt, html, htm, docx, pptx, xlsx, pdf, xlf, xliff, srt, jpg, jpeg, png)"
    )]
    Unknown(String),
    /// A document type the API knows that this deployment does not translate yet.
    #[error("documents of type {0} are not translated by this deployment yet; it translates txt, html and htm files")]
    NotYet(String),
    #[error("the file is empty")]
    Empty,
    #[error("the {0} file is not UTF-8 text")]
    NotUtf8(&'static str),
}

/// Extensions of the API's document types that this deployment does not translate yet.
const NOT_YET: [&str; 11] = ["docx", "doc", "pptx", "xlsx", "pdf", "xlf", "xliff", "srt", "jpg", "jpeg", "png"];

impl Format {
    /// The type a file name's extension names (case-insensitive).
    pub fn of_file_name(name: &str) -> Result<Format, FormatError> {
        let extension = name.rsplit_once('.').map(|(_, extension)| extension.to_ascii_lowercase());
        match extension.as_deref() {
            Some("txt") => Ok(Format::Txt),
            Some("html" | "htm") => Ok(Format::Html),
            Some(other) if NOT_YET.contains(&other) => Err(FormatError::NotYet(other.to_owned())),
            _ => Err(FormatError::Unknown(name.to_owned())),
        }
    }

    /// The name stored and shown.
    pub fn as_str(self) -> &'static str {
        match self {
            Format::Txt => "txt",
            Format::Html => "html",
        }
    }

    pub fn stored(name: &str) -> Option<Format> {
        match name {
            "txt" => Some(Format::Txt),
            "html" => Some(Format::Html),
            _ => None,
        }
    }

    /// Whether `output_format` (lower case) names this type: the only output each type has.
    pub fn accepts_output(self, output_format: &str) -> bool {
        match self {
            Format::Txt => output_format == "txt",
            Format::Html => matches!(output_format, "html" | "htm"),
        }
    }

    /// The largest file of this type (bytes): 1 MiB of text, 5 MiB of HTML, whatever the plan.
    pub fn max_bytes(self, _plan: Plan) -> usize {
        match self {
            Format::Txt => 1024 * 1024,
            Format::Html => 5 * 1024 * 1024,
        }
    }

    /// The least a document of this type is billed (characters).
    pub fn minimum_characters(self) -> i64 {
        0
    }

    pub fn content_type(self) -> &'static str {
        match self {
            Format::Txt => "text/plain; charset=utf-8",
            Format::Html => "text/html; charset=utf-8",
        }
    }

    /// How the translation reads this type's pieces: with HTML tag handling, or as plain text.
    pub fn tag_handling(self) -> Option<TagHandling> {
        match self {
            Format::Txt => None,
            Format::Html => Some(TagHandling::Html),
        }
    }

    /// Cuts `file` into pieces (see the module documentation).
    pub fn cut(self, file: &[u8]) -> Result<Cut, FormatError> {
        if file.is_empty() {
            return Err(FormatError::Empty);
        }
        let text = std::str::from_utf8(file).map_err(|_| FormatError::NotUtf8(self.as_str()))?;
        Ok(match self {
            Format::Txt => cut_text(text),
            Format::Html => cut_html(text),
        })
    }
}

/// The most characters a document may hold on `plan`.
pub fn max_characters(plan: Plan) -> i64 {
    match plan {
        Plan::Free => 500_000,
        Plan::Pro => 1_000_000,
    }
}

/// A part of a document: text to translate, or kept as it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Piece {
    pub translate: bool,
    pub text: String,
}

/// A document cut into pieces, with the characters its translation bills.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cut {
    pub pieces: Vec<Piece>,
    pub characters: i64,
}

impl Cut {
    fn push(&mut self, translate: bool, text: &str) {
        if text.is_empty() {
            return;
        }
        match self.pieces.last_mut() {
            Some(last) if !translate && !last.translate => last.text.push_str(text),
            _ => self.pieces.push(Piece { translate, text: text.to_owned() }),
        }
    }
}

fn cut_text(text: &str) -> Cut {
    let mut cut = Cut { pieces: Vec::new(), characters: 0 };
    let (bom, body) = match text.strip_prefix('\u{feff}') {
        Some(rest) => ("\u{feff}", rest),
        None => ("", text),
    };
    cut.push(false, bom);
    // A paragraph's lines: from the start of its first line to the end of its last one.
    let mut paragraph: Option<(usize, usize)> = None;
    let mut offset = 0;
    let flush = |cut: &mut Cut, paragraph: &mut Option<(usize, usize)>| {
        if let Some((start, end)) = paragraph.take() {
            let lines = &body[start..end];
            let trimmed = lines.trim();
            let lead = lines.len() - lines.trim_start().len();
            cut.push(false, &lines[..lead]);
            cut.push(true, trimmed);
            cut.push(false, &lines[lead + trimmed.len()..]);
            cut.characters += trimmed.chars().count() as i64;
        }
    };
    for line in body.split_inclusive('\n') {
        let end = offset + line.len();
        if line.trim().is_empty() {
            flush(&mut cut, &mut paragraph);
            cut.push(false, line);
        } else {
            paragraph = Some((paragraph.map_or(offset, |(start, _)| start), end));
        }
        offset = end;
    }
    flush(&mut cut, &mut paragraph);
    cut
}

fn cut_html(text: &str) -> Cut {
    let options = TagOptions { handling: TagHandling::Html, ..TagOptions::default() };
    let split = SplitSentences::default_for(Some(TagHandling::Html));
    let mut cut = Cut { pieces: Vec::new(), characters: 0 };
    let markup = match Markup::parse(text, &options, split) {
        Ok(markup) => markup,
        // HTML is read as browsers read tag soup and never fails; were it to, the file is kept
        // whole and translated as one piece.
        Err(_) => {
            cut.push(true, text);
            return cut;
        }
    };
    let units = markup.units();
    let mut start = 0;
    for (index, unit) in units.iter().enumerate() {
        cut.characters += unit
            .segments()
            .iter()
            .map(|segment| match segment {
                Segment::Text(text) => text.chars().count() as i64,
                _ => 0,
            })
            .sum::<i64>();
        let end = unit.source_span().end;
        let next = units.get(index + 1).map_or(text.len(), |next| next.source_span().start);
        let separated = text[end..next].contains('<');
        if separated && end - start >= HTML_PIECE_BYTES {
            cut.push(true, &text[start..end]);
            start = end;
        }
    }
    match units.last() {
        Some(last) if last.source_span().end > start => {
            let end = last.source_span().end;
            cut.push(true, &text[start..end]);
            cut.push(false, &text[end..]);
        }
        _ => cut.push(false, &text[start..]),
    }
    cut
}

/// The translated document: each piece's translation, or its source where it is kept.
pub fn assemble<'a>(pieces: impl IntoIterator<Item = &'a str>) -> Vec<u8> {
    pieces.into_iter().collect::<String>().into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn joined(cut: &Cut) -> String {
        cut.pieces.iter().map(|piece| piece.text.as_str()).collect()
    }

    fn translated(cut: &Cut) -> Vec<&str> {
        cut.pieces.iter().filter(|piece| piece.translate).map(|piece| piece.text.as_str()).collect()
    }

    #[test]
    fn a_file_name_names_its_type() {
        assert_eq!(Format::of_file_name("notes.TXT"), Ok(Format::Txt));
        assert_eq!(Format::of_file_name("page.htm"), Ok(Format::Html));
        assert_eq!(Format::of_file_name("a.b.html"), Ok(Format::Html));
        assert_eq!(Format::of_file_name("report.docx"), Err(FormatError::NotYet("docx".into())));
        assert_eq!(Format::of_file_name("archive.zip"), Err(FormatError::Unknown("archive.zip".into())));
        assert_eq!(Format::of_file_name("README"), Err(FormatError::Unknown("README".into())));
        assert!(FormatError::NotYet("docx".into()).to_string().contains("docx"));
    }

    #[test]
    fn output_formats_are_the_type_itself() {
        assert!(Format::Txt.accepts_output("txt"));
        assert!(!Format::Txt.accepts_output("docx"));
        assert!(Format::Html.accepts_output("htm") && Format::Html.accepts_output("html"));
        assert!(!Format::Html.accepts_output("pdf"));
    }

    #[test]
    fn text_is_cut_into_paragraphs_with_everything_between_kept() {
        let text = "\u{feff}  First line\nsame paragraph.\n\n\r\n Second.  \nThird\n\n";
        let cut = Format::Txt.cut(text.as_bytes()).unwrap();
        assert_eq!(joined(&cut), text, "the pieces are the file");
        assert_eq!(translated(&cut), ["First line\nsame paragraph.", "Second.  \nThird"]);
        assert_eq!(cut.characters, 26 + 15);
        assert_eq!(cut.pieces[0], Piece { translate: false, text: "\u{feff}  ".into() });
        assert_eq!(cut.pieces.last().unwrap().text, "\n\n");
    }

    #[test]
    fn text_without_letters_or_without_a_final_newline() {
        let cut = Format::Txt.cut(b"only").unwrap();
        assert_eq!(translated(&cut), ["only"]);
        assert_eq!(cut.pieces.len(), 1);
        let blank = Format::Txt.cut(b" \n\n").unwrap();
        assert!(translated(&blank).is_empty());
        assert_eq!((joined(&blank).as_str(), blank.characters), (" \n\n", 0));
    }

    #[test]
    fn bad_files_are_refused() {
        assert_eq!(Format::Txt.cut(b""), Err(FormatError::Empty));
        assert_eq!(Format::Txt.cut(b"caf\xe9"), Err(FormatError::NotUtf8("txt")));
        assert_eq!(Format::Html.cut(b"<p>\xff</p>"), Err(FormatError::NotUtf8("html")));
    }

    #[test]
    fn html_counts_its_text_and_keeps_its_markup_outside_the_pieces() {
        let html = "<!doctype html><html><head><title>Hello</title><script>var x = '<p>';</script></head>\
                    <body><p class=\"a\">One <b>bold</b> word.</p>\n<!-- note --></body></html>\n";
        let cut = Format::Html.cut(html.as_bytes()).unwrap();
        assert_eq!(joined(&cut), html);
        assert_eq!(cut.characters, "Hello".len() as i64 + "One bold word.".len() as i64);
        let last = cut.pieces.last().unwrap();
        assert!(!last.translate && last.text.ends_with("<!-- note --></body></html>\n"));
    }

    #[test]
    fn a_long_html_file_is_cut_between_its_blocks() {
        let paragraph = format!("<p>{} end.</p>\n", "word ".repeat(200));
        let html = format!("<html><body>{}</body></html>", paragraph.repeat(20));
        let cut = Format::Html.cut(html.as_bytes()).unwrap();
        assert_eq!(joined(&cut), html);
        let pieces = translated(&cut);
        assert!(pieces.len() > 3, "cut into pieces: {}", pieces.len());
        for piece in &pieces[1..] {
            assert!(piece.starts_with("</p>"), "cut right after a unit: {:?}", &piece[..20]);
        }
    }
}
