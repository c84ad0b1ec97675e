//! The document types, their limits, and how a document is cut into pieces and put back
//! together, one module per type.
//!
//! A document is cut, at upload, into [`Piece`]s: text to translate and, where the type allows,
//! what is kept byte for byte between. Its translation is put together ([`Format::assemble`])
//! from every piece's output in order (a translation, or the kept piece itself); the types that
//! are packages of files (`docx`, `pptx`, `xlsx`) rebuild the package from the uploaded file,
//! which is then stored with the document ([`Format::keeps_source`]).
//!
//! How pieces are translated is the type's [`Tags`]: plain text, or tag handling with the
//! options its markup needs.
//!
//! PDFs and images are the exceptions: the language-tools service reads them and writes their
//! translations ([`LayoutTools`]). A PDF's text blocks are read at upload ([`pdf`]); an image's
//! text is read by OCR after the upload, so it is cut by its first worker ([`image`]).

mod docx;
mod html;
pub mod image;
mod ooxml;
pub mod pdf;
mod pdf_docx;
mod pptx;
mod srt;
mod text;
mod tools;
mod xliff;
mod xlsx;

use accounts::Plan;
use markup::TagHandling;

pub use pdf_docx::docx as pdf_to_docx;
pub use tools::LayoutTools;

/// A type of document, by its file name's extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Txt,
    Html,
    Docx,
    Pptx,
    Xlsx,
    /// XLIFF 2 (`.xlf`, `.xliff`).
    Xliff,
    /// SubRip subtitles.
    Srt,
    Pdf,
    /// PNG images (beta).
    Png,
    /// JPEG images (`.jpg`, `.jpeg`; beta).
    Jpeg,
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
    #[error("documents of type {0} are not translated by this deployment yet")]
    NotYet(String),
    #[error("the file is empty")]
    Empty,
    #[error("the {0} file is not UTF-8 text")]
    NotUtf8(&'static str),
    /// The file is not what its type says, or is damaged: why, in a sentence's words.
    #[error("the {format} file cannot be read: {why}")]
    Corrupt { format: &'static str, why: String },
}

/// How a type's pieces are translated: the translate parameters about markup.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tags {
    /// `None`: plain text.
    pub handling: Option<TagHandling>,
    pub outline_detection: bool,
    pub splitting_tags: &'static [&'static str],
    pub non_splitting_tags: &'static [&'static str],
    pub ignore_tags: &'static [&'static str],
}

impl Tags {
    const PLAIN: Tags = Tags {
        handling: None,
        outline_detection: true,
        splitting_tags: &[],
        non_splitting_tags: &[],
        ignore_tags: &[],
    };

    /// XML without outline detection and without splitting tags: a piece is one unit, cut only by
    /// sentences, and every element inside it is an inline placeholder (office paragraphs' runs,
    /// XLIFF's inline codes).
    const XML_INLINE: Tags = Tags { handling: Some(TagHandling::Xml), outline_detection: false, ..Tags::PLAIN };
}

/// Extensions of the API's document types that this deployment does not translate yet.
const NOT_YET: [&str; 1] = ["doc"];

/// Every type, as stored.
const ALL: [Format; 10] = [
    Format::Txt,
    Format::Html,
    Format::Docx,
    Format::Pptx,
    Format::Xlsx,
    Format::Xliff,
    Format::Srt,
    Format::Pdf,
    Format::Png,
    Format::Jpeg,
];

const MIB: usize = 1024 * 1024;

impl Format {
    /// The type a file name's extension names (case-insensitive).
    pub fn of_file_name(name: &str) -> Result<Format, FormatError> {
        let extension = name.rsplit_once('.').map(|(_, extension)| extension.to_ascii_lowercase());
        match extension.as_deref() {
            Some("txt") => Ok(Format::Txt),
            Some("html" | "htm") => Ok(Format::Html),
            Some("docx") => Ok(Format::Docx),
            Some("pptx") => Ok(Format::Pptx),
            Some("xlsx") => Ok(Format::Xlsx),
            Some("xlf" | "xliff") => Ok(Format::Xliff),
            Some("srt") => Ok(Format::Srt),
            Some("pdf") => Ok(Format::Pdf),
            Some("png") => Ok(Format::Png),
            Some("jpg" | "jpeg") => Ok(Format::Jpeg),
            Some(other) if NOT_YET.contains(&other) => Err(FormatError::NotYet(other.to_owned())),
            _ => Err(FormatError::Unknown(name.to_owned())),
        }
    }

    /// The name stored and shown.
    pub fn as_str(self) -> &'static str {
        match self {
            Format::Txt => "txt",
            Format::Html => "html",
            Format::Docx => "docx",
            Format::Pptx => "pptx",
            Format::Xlsx => "xlsx",
            Format::Xliff => "xliff",
            Format::Srt => "srt",
            Format::Pdf => "pdf",
            Format::Png => "png",
            Format::Jpeg => "jpeg",
        }
    }

    pub fn stored(name: &str) -> Option<Format> {
        ALL.into_iter().find(|format| format.as_str() == name)
    }

    /// The office packages: zip files of XML parts.
    fn is_office(self) -> bool {
        matches!(self, Format::Docx | Format::Pptx | Format::Xlsx)
    }

    /// The images, read by OCR and painted by the language-tools service: cut by their first
    /// worker rather than at upload, and not billed while they are in beta.
    pub fn is_image(self) -> bool {
        matches!(self, Format::Png | Format::Jpeg)
    }

    /// The types the language-tools service reads and writes: PDFs and images.
    pub fn needs_tools(self) -> bool {
        self == Format::Pdf || self.is_image()
    }

    /// Whether `output_format` (lower case) names this type: the only output each type has.
    pub fn accepts_output(self, output_format: &str) -> bool {
        match self {
            Format::Html => matches!(output_format, "html" | "htm"),
            Format::Xliff => matches!(output_format, "xliff" | "xlf"),
            Format::Jpeg => matches!(output_format, "jpeg" | "jpg"),
            other => output_format == other.as_str(),
        }
    }

    /// The largest file of this type (bytes) on `plan`.
    pub fn max_bytes(self, plan: Plan) -> usize {
        match (self, plan) {
            (Format::Txt, _) => MIB,
            (Format::Html, _) => 5 * MIB,
            (Format::Docx | Format::Pptx | Format::Xlsx | Format::Pdf, Plan::Free) => 10 * MIB,
            (Format::Docx | Format::Pptx | Format::Xlsx | Format::Pdf, Plan::Pro) => 30 * MIB,
            (Format::Xliff, _) => 10 * MIB,
            (Format::Srt, _) => 150 * 1024,
            (Format::Png | Format::Jpeg, _) => 3 * MIB,
        }
    }

    /// The least a document of this type is billed (characters): 50,000 for office files and
    /// PDFs.
    pub fn minimum_characters(self) -> i64 {
        if self.is_office() || self == Format::Pdf { 50_000 } else { 0 }
    }

    pub fn content_type(self) -> &'static str {
        match self {
            Format::Txt => "text/plain; charset=utf-8",
            Format::Html => "text/html; charset=utf-8",
            Format::Docx => "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
            Format::Pptx => "application/vnd.openxmlformats-officedocument.presentationml.presentation",
            Format::Xlsx => "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
            Format::Xliff => "application/xliff+xml",
            Format::Srt => "application/x-subrip",
            Format::Pdf => "application/pdf",
            Format::Png => "image/png",
            Format::Jpeg => "image/jpeg",
        }
    }

    /// How this type's pieces are translated.
    pub fn tags(self) -> Tags {
        match self {
            Format::Txt | Format::Srt | Format::Pdf | Format::Png | Format::Jpeg => Tags::PLAIN,
            Format::Html => Tags { handling: Some(TagHandling::Html), ..Tags::PLAIN },
            Format::Docx => docx::TAGS,
            Format::Pptx => pptx::TAGS,
            Format::Xlsx => xlsx::TAGS,
            Format::Xliff => xliff::TAGS,
        }
    }

    /// Whether putting the translation together needs the uploaded file.
    pub fn keeps_source(self) -> bool {
        self.is_office() || self.needs_tools()
    }

    /// Cuts `file` into pieces (see the module documentation), for a translation into `target`
    /// (a BCP 47 tag, as XLIFF's `trgLang` writes it). An image's header is checked, and its
    /// pieces come later ([`image::cut_read`]).
    pub fn cut(self, file: &[u8], target: &str) -> Result<Cut, FormatError> {
        if file.is_empty() {
            return Err(FormatError::Empty);
        }
        match self {
            Format::Txt => Ok(text::cut(utf8(self, file)?)),
            Format::Html => Ok(html::cut(utf8(self, file)?)),
            Format::Docx => ooxml::cut(&docx::KIND, file),
            Format::Pptx => ooxml::cut(&pptx::KIND, file),
            Format::Xlsx => ooxml::cut(&xlsx::KIND, file),
            Format::Xliff => xliff::cut(utf8(self, file)?, Some(target)),
            Format::Srt => srt::cut(utf8(self, file)?),
            Format::Pdf => pdf::check(file),
            Format::Png | Format::Jpeg => image::check(self, file),
        }
    }

    /// The translated document, from every piece's output in order (its translation, or a kept
    /// piece itself) and, for the types that keep it, the uploaded file.
    pub fn assemble(self, file: Option<&[u8]>, outputs: &[String]) -> Result<Vec<u8>, FormatError> {
        let file = || file.ok_or_else(|| corrupt(self, "the uploaded file was not kept"));
        match self {
            Format::Txt | Format::Html | Format::Xliff | Format::Srt => Ok(outputs.concat().into_bytes()),
            Format::Docx => ooxml::assemble(&docx::KIND, file()?, outputs),
            Format::Pptx => ooxml::assemble(&pptx::KIND, file()?, outputs),
            Format::Xlsx => ooxml::assemble(&xlsx::KIND, file()?, outputs),
            Format::Pdf | Format::Png | Format::Jpeg => {
                Err(corrupt(self, "it is written by the language-tools service"))
            }
        }
    }
}

/// A [`FormatError::Corrupt`] of `format`.
fn corrupt(format: Format, why: impl Into<String>) -> FormatError {
    FormatError::Corrupt { format: format.as_str(), why: why.into() }
}

fn utf8(format: Format, file: &[u8]) -> Result<&str, FormatError> {
    std::str::from_utf8(file).map_err(|_| FormatError::NotUtf8(format.as_str()))
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
    pub fn new() -> Cut {
        Cut { pieces: Vec::new(), characters: 0 }
    }

    /// Adds a piece (nothing for empty text); kept pieces next to each other become one.
    pub fn push(&mut self, translate: bool, text: &str) {
        if text.is_empty() {
            return;
        }
        match self.pieces.last_mut() {
            Some(last) if !translate && !last.translate => last.text.push_str(text),
            _ => self.pieces.push(Piece { translate, text: text.to_owned() }),
        }
    }
}

impl Default for Cut {
    fn default() -> Cut {
        Cut::new()
    }
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
        assert_eq!(Format::of_file_name("letter.doc"), Err(FormatError::NotYet("doc".into())));
        assert_eq!(Format::of_file_name("archive.zip"), Err(FormatError::Unknown("archive.zip".into())));
        assert_eq!(Format::of_file_name("README"), Err(FormatError::Unknown("README".into())));
        assert!(FormatError::NotYet("doc".into()).to_string().contains("doc"));
    }

    #[test]
    fn output_formats_are_the_type_itself() {
        assert!(Format::Txt.accepts_output("txt"));
        assert!(!Format::Txt.accepts_output("docx"));
        assert!(Format::Html.accepts_output("htm") && Format::Html.accepts_output("html"));
        assert!(!Format::Html.accepts_output("pdf"));
        assert!(Format::Jpeg.accepts_output("jpg") && Format::Jpeg.accepts_output("jpeg"));
        assert!(!Format::Png.accepts_output("jpeg"));
        assert_eq!(Format::of_file_name("Photo.JPG"), Ok(Format::Jpeg));
        assert_eq!(Format::stored(Format::Jpeg.as_str()), Some(Format::Jpeg));
    }

    #[test]
    fn text_is_cut_into_paragraphs_with_everything_between_kept() {
        let text = "\u{feff}  First line\nsame paragraph.\n\n\r\n Second.  \nThird\n\n";
        let cut = Format::Txt.cut(text.as_bytes(), "de").unwrap();
        assert_eq!(joined(&cut), text, "the pieces are the file");
        assert_eq!(translated(&cut), ["First line\nsame paragraph.", "Second.  \nThird"]);
        assert_eq!(cut.characters, 26 + 15);
        assert_eq!(cut.pieces[0], Piece { translate: false, text: "\u{feff}  ".into() });
        assert_eq!(cut.pieces.last().unwrap().text, "\n\n");
    }

    #[test]
    fn text_without_letters_or_without_a_final_newline() {
        let cut = Format::Txt.cut(b"only", "de").unwrap();
        assert_eq!(translated(&cut), ["only"]);
        assert_eq!(cut.pieces.len(), 1);
        let blank = Format::Txt.cut(b" \n\n", "de").unwrap();
        assert!(translated(&blank).is_empty());
        assert_eq!((joined(&blank).as_str(), blank.characters), (" \n\n", 0));
    }

    #[test]
    fn bad_files_are_refused() {
        assert_eq!(Format::Txt.cut(b"", "de"), Err(FormatError::Empty));
        assert_eq!(Format::Txt.cut(b"caf\xe9", "de"), Err(FormatError::NotUtf8("txt")));
        assert_eq!(Format::Html.cut(b"<p>\xff</p>", "de"), Err(FormatError::NotUtf8("html")));
    }

    #[test]
    fn html_counts_its_text_and_keeps_its_markup_outside_the_pieces() {
        let html = "<!doctype html><html><head><title>Hello</title><script>var x = '<p>';</script></head>\
                    <body><p class=\"a\">One <b>bold</b> word.</p>\n<!-- note --></body></html>\n";
        let cut = Format::Html.cut(html.as_bytes(), "de").unwrap();
        assert_eq!(joined(&cut), html);
        assert_eq!(cut.characters, "Hello".len() as i64 + "One bold word.".len() as i64);
        let last = cut.pieces.last().unwrap();
        assert!(!last.translate && last.text.ends_with("<!-- note --></body></html>\n"));
    }

    #[test]
    fn a_long_html_file_is_cut_between_its_blocks() {
        let paragraph = format!("<p>{} end.</p>\n", "word ".repeat(200));
        let html = format!("<html><body>{}</body></html>", paragraph.repeat(20));
        let cut = Format::Html.cut(html.as_bytes(), "de").unwrap();
        assert_eq!(joined(&cut), html);
        let pieces = translated(&cut);
        assert!(pieces.len() > 3, "cut into pieces: {}", pieces.len());
        for piece in &pieces[1..] {
            assert!(piece.starts_with("</p>"), "cut right after a unit: {:?}", &piece[..20]);
        }
    }
}
