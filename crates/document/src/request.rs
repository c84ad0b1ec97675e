//! An upload's parameters, validated: the file, its type and limits, and the translation's
//! parameters, which are checked exactly as text translation checks them.

use accounts::Plan;
use serde::{Deserialize, Serialize};
use translation::{RawTranslateRequest, RequestError, TranslateRequest};

use crate::format::{self, Cut, Format, FormatError};

/// The translation parameters an upload takes, as sent: stored with the document and read again
/// (they were valid at upload) for each slice of its work.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Options {
    pub target_lang: Option<String>,
    pub source_lang: Option<String>,
    pub formality: Option<String>,
    pub glossary_id: Option<String>,
    pub glossary_ids: Option<Vec<String>>,
    pub style_id: Option<String>,
    pub translation_memory_id: Option<String>,
    pub translation_memory_threshold: Option<i64>,
    /// `docx` for a PDF translated into a Word document; absent for a document's own type.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_format: Option<String>,
}

impl Options {
    /// The translate request for `texts` of a document of type `format`, from `source` (the
    /// given or detected source language) into the target.
    pub fn request(
        &self,
        format: Format,
        source: Option<&str>,
        texts: Vec<String>,
    ) -> Result<TranslateRequest, RequestError> {
        let tags = format.tags();
        let names = |names: &[&str]| (!names.is_empty()).then(|| names.iter().map(|name| (*name).to_owned()).collect());
        let raw = RawTranslateRequest {
            text: Some(texts),
            target_lang: self.target_lang.clone(),
            source_lang: source.map(str::to_owned).or_else(|| self.source_lang.clone()),
            formality: self.formality.clone(),
            tag_handling: tags.handling.map(|handling| handling.as_str().to_owned()),
            outline_detection: tags.handling.map(|_| tags.outline_detection),
            splitting_tags: names(tags.splitting_tags),
            non_splitting_tags: names(tags.non_splitting_tags),
            ignore_tags: names(tags.ignore_tags),
            glossary_id: self.glossary_id.clone(),
            glossary_ids: self.glossary_ids.clone(),
            style_id: self.style_id.clone(),
            translation_memory_id: self.translation_memory_id.clone(),
            translation_memory_threshold: self.translation_memory_threshold,
            ..RawTranslateRequest::default()
        };
        TranslateRequest::parse(raw)
    }
}

/// An upload as sent: each parameter of the right type, none checked.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RawUpload {
    /// The `file` part: the file name its `Content-Disposition` gives, and its bytes.
    pub file: Option<(Option<String>, Vec<u8>)>,
    /// The `filename` parameter, which names the file when given.
    pub filename: Option<String>,
    pub output_format: Option<String>,
    pub options: Options,
}

/// A valid upload, cut into pieces.
#[derive(Debug, Clone)]
pub struct Upload {
    pub file_name: String,
    pub format: Format,
    /// The file as uploaded.
    pub file: Vec<u8>,
    pub cut: Cut,
    pub options: Options,
    /// The translation's parameters, validated (no texts): what they name by id is checked
    /// before the document is accepted.
    pub request: TranslateRequest,
}

impl Upload {
    /// The characters the document bills: its text's, and at least its type's minimum.
    pub fn billed_characters(&self) -> i64 {
        self.cut.characters.max(self.format.minimum_characters())
    }
}

/// Why an upload is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UploadError {
    /// `Invalid file data.`, with why.
    #[error("Invalid file data.")]
    InvalidFile(String),
    /// A file over its type's limit, in bytes (the edge writes the limit as the API's messages do).
    #[error("Document too large: a {format} file may be at most {limit} bytes.")]
    TooLarge { format: &'static str, limit: usize },
    #[error("Document has too many characters: {count}, at most {max} per document on this plan.")]
    TooManyCharacters { count: i64, max: i64 },
    #[error("Value for 'output_format' not supported: a {format} document is translated into a {format} document.")]
    OutputFormat { format: &'static str },
    #[error("Value for 'target_lang' not supported: it is the document's source language.")]
    SameLanguage,
    #[error(transparent)]
    Request(#[from] RequestError),
}

impl From<FormatError> for UploadError {
    fn from(error: FormatError) -> UploadError {
        UploadError::InvalidFile(error.to_string())
    }
}

/// Validates an upload by `plan`'s limits: the file (its name, type, size, text and
/// characters), `output_format`, and the translation's parameters.
pub fn parse(raw: RawUpload, plan: Plan) -> Result<Upload, UploadError> {
    let (part_name, file) = raw.file.ok_or_else(|| UploadError::InvalidFile("no `file` part".into()))?;
    let file_name =
        raw.filename.or(part_name).map(|name| name.trim().to_owned()).filter(|name| !name.is_empty()).ok_or_else(
            || {
                UploadError::InvalidFile(
                    "the file has no name: send it as the `file` part's filename, or as `filename`".into(),
                )
            },
        )?;
    let format = Format::of_file_name(&file_name)?;
    let mut options = raw.options;
    if let Some(output) = raw.output_format.map(|output| output.trim().to_ascii_lowercase())
        && !output.is_empty()
    {
        if format == Format::Pdf && output == "docx" {
            options.output_format = Some(output);
        } else if !format.accepts_output(&output) {
            return Err(UploadError::OutputFormat { format: format.as_str() });
        }
    }
    let request = options.request(format, None, vec![String::new()])?;
    if let Some(source) = request.source
        && source.base_code() == request.target.base_code()
    {
        return Err(UploadError::SameLanguage);
    }
    let limit = format.max_bytes(plan);
    if file.len() > limit {
        return Err(UploadError::TooLarge { format: format.as_str(), limit });
    }
    let cut = format.cut(&file, request.target.lang())?;
    let max = format::max_characters(plan);
    if cut.characters > max {
        return Err(UploadError::TooManyCharacters { count: cut.characters, max });
    }
    let request = TranslateRequest { texts: Vec::new(), ..request };
    Ok(Upload { file_name, format, file, cut, options, request })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn upload(name: &str, file: &str) -> RawUpload {
        RawUpload {
            file: Some((Some(name.into()), file.as_bytes().to_vec())),
            options: Options { target_lang: Some("DE".into()), ..Options::default() },
            ..RawUpload::default()
        }
    }

    fn refusal(raw: RawUpload) -> UploadError {
        parse(raw, Plan::Free).unwrap_err()
    }

    #[test]
    fn a_text_file_is_accepted_with_its_parameters() {
        let mut raw = upload("notes.txt", "Hello.\n\nWorld.\n");
        raw.options.formality = Some("more".into());
        raw.output_format = Some("TXT".into());
        let upload = parse(raw, Plan::Free).unwrap();
        assert_eq!((upload.file_name.as_str(), upload.format), ("notes.txt", Format::Txt));
        assert_eq!(upload.billed_characters(), 12);
        assert_eq!(upload.request.target.code(), "DE");
        assert!(upload.request.texts.is_empty());
    }

    #[test]
    fn the_filename_parameter_names_the_file() {
        let mut raw = upload("blob", "<p>Hi</p>");
        raw.filename = Some("page.html".into());
        assert_eq!(parse(raw, Plan::Pro).unwrap().format, Format::Html);
    }

    #[test]
    fn invalid_files_are_refused_with_why() {
        let missing = RawUpload { file: None, ..upload("a.txt", "x") };
        assert_eq!(refusal(missing), UploadError::InvalidFile("no `file` part".into()));
        let nameless = RawUpload { file: Some((None, b"x".to_vec())), ..upload("a.txt", "x") };
        assert!(matches!(refusal(nameless), UploadError::InvalidFile(why) if why.contains("no name")));
        assert!(matches!(refusal(upload("a.exe", "x")), UploadError::InvalidFile(why) if why.contains("a.exe")));
        assert!(matches!(refusal(upload("a.docx", "x")), UploadError::InvalidFile(why) if why.contains("docx")));
        assert!(matches!(refusal(upload("a.txt", "")), UploadError::InvalidFile(why) if why == "the file is empty"));
        assert_eq!(refusal(upload("a.txt", "")).to_string(), "Invalid file data.");
    }

    #[test]
    fn parameters_are_checked_as_text_translation_checks_them() {
        let mut raw = upload("a.txt", "x");
        raw.options.target_lang = Some("XX".into());
        assert!(matches!(refusal(raw), UploadError::Request(_)));
        let mut raw = upload("a.txt", "x");
        raw.options.target_lang = None;
        assert_eq!(refusal(raw).to_string(), "Parameter 'target_lang' not specified");
        let mut raw = upload("a.txt", "x");
        raw.options.source_lang = Some("de".into());
        assert_eq!(refusal(raw), UploadError::SameLanguage);
        let mut raw = upload("a.txt", "x");
        raw.output_format = Some("docx".into());
        assert_eq!(refusal(raw), UploadError::OutputFormat { format: "txt" });
        let mut raw = upload("a.pdf", "%PDF-1.7");
        raw.output_format = Some("DOCX".into());
        assert_eq!(parse(raw, Plan::Free).unwrap().options.output_format.as_deref(), Some("docx"));
        let mut raw = upload("a.pdf", "%PDF-1.7");
        raw.output_format = Some("xlsx".into());
        assert_eq!(refusal(raw), UploadError::OutputFormat { format: "pdf" });
        let mut raw = upload("a.txt", "x");
        raw.options.glossary_ids = Some(vec!["a".into()]);
        assert!(matches!(refusal(raw), UploadError::Request(_)), "glossaries need source_lang");
    }

    #[test]
    fn limits_are_the_plans() {
        let big = "a".repeat(1024 * 1024 + 1);
        assert_eq!(refusal(upload("a.txt", &big)), UploadError::TooLarge { format: "txt", limit: 1024 * 1024 });
        let many = "word ".repeat(110_000);
        assert_eq!(refusal(upload("a.txt", &many)), UploadError::TooManyCharacters { count: 549_999, max: 500_000 });
        assert!(parse(upload("a.txt", &many), Plan::Pro).is_ok());
    }
}
