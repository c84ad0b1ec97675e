//! What the language-tools service does for documents: OCR on images and the translation painted
//! back, a PDF's text layout read and the translated PDF written ([`LayoutTools`]).

use engines::language_tools::{LanguageTools, PaintParagraph, PdfLayout, PdfPageText, ReadImage, ToolsError};

/// The document work of the language-tools service.
pub trait LayoutTools {
    /// The paragraphs OCR reads on `image`, in `language` (a base code), or in the language the
    /// service finds.
    fn ocr(&self, image: &[u8], language: Option<&str>) -> Result<ReadImage, ToolsError>;

    /// `image` with each paragraph's text painted over its source's lines, in the fonts of
    /// `language`: a file of the same type.
    fn render(&self, image: &[u8], language: &str, paragraphs: &[PaintParagraph<'_>]) -> Result<Vec<u8>, ToolsError>;

    /// The text blocks of every page of `pdf`.
    fn read_pdf(&self, pdf: &[u8]) -> Result<PdfLayout, ToolsError>;

    /// `pdf` with each page's text replaced by `pages`' blocks, in the fonts of `language`.
    fn write_pdf(&self, pdf: &[u8], language: &str, pages: &[PdfPageText]) -> Result<Vec<u8>, ToolsError>;
}

impl LayoutTools for LanguageTools<'_> {
    fn ocr(&self, image: &[u8], language: Option<&str>) -> Result<ReadImage, ToolsError> {
        LanguageTools::ocr(self, image, language)
    }

    fn render(&self, image: &[u8], language: &str, paragraphs: &[PaintParagraph<'_>]) -> Result<Vec<u8>, ToolsError> {
        LanguageTools::render(self, image, language, paragraphs)
    }

    fn read_pdf(&self, pdf: &[u8]) -> Result<PdfLayout, ToolsError> {
        LanguageTools::read_pdf(self, pdf)
    }

    fn write_pdf(&self, pdf: &[u8], language: &str, pages: &[PdfPageText]) -> Result<Vec<u8>, ToolsError> {
        LanguageTools::write_pdf(self, pdf, language, pages)
    }
}
