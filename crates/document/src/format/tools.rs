//! What the language-tools service does for documents: OCR on images and the translation painted
//! back, a PDF's text layout read, its scanned pages read by OCR, its pictures taken out (for
//! its Word document), and the translated PDF written ([`LayoutTools`]).

use engines::language_tools::{
    LanguageTools, PaintParagraph, PdfImage, PdfLayout, PdfPageText, ReadImage, ScannedPage, ToolsError,
};

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

    /// Scanned page `page` (counted from 1) of `pdf` read by OCR, in `language` (a base code) or
    /// in the language the service finds.
    fn read_scanned_page(&self, pdf: &[u8], page: usize, language: Option<&str>) -> Result<ScannedPage, ToolsError>;

    /// The pictures `pdf`'s pages draw, with their boxes (for its Word document).
    fn pdf_images(&self, pdf: &[u8]) -> Result<Vec<PdfImage>, ToolsError>;
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

    fn read_scanned_page(&self, pdf: &[u8], page: usize, language: Option<&str>) -> Result<ScannedPage, ToolsError> {
        LanguageTools::read_scanned_page(self, pdf, page, language)
    }

    fn pdf_images(&self, pdf: &[u8]) -> Result<Vec<PdfImage>, ToolsError> {
        LanguageTools::pdf_images(self, pdf)
    }
}
