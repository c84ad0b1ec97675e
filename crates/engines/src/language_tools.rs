//! The client of the language-tools service (`crates/language-tools`), the native program that
//! keeps large language models loaded: language detection (lingua), correction (harper for
//! English, Hunspell dictionaries for other languages), and the images of document translation
//! (Tesseract's OCR, and the translation painted back).
//!
//! | variable | meaning |
//! |---|---|
//! | `language_tools_secret` | the shared secret the service was started with (sent as `Authorization: Bearer`, never logged); unset or empty: no service is used (detection falls back to whatlang, correction is unavailable) |
//! | `language_tools_url` | the service's base URL, required with a secret (the manifest's default is the loopback address `make up` starts it on) |
//!
//! The secret, not the URL, says whether a service is used: a manifest's `allowed_outbound_hosts`
//! needs the URL to be a URL even where no service runs, and a service never runs without a
//! secret.
//!
//! The protocol, JSON both ways: `POST /detect {"texts": [...]}` answers one
//! `{"language": <base code> | null, "confidence": 0..1}` per text, `POST /correct {"language",
//! "texts"}` one corrected text per text, `GET /health` the languages of each. At most
//! [`BATCH`] texts go in one call; longer lists take several. Images: `POST /ocr {"image":
//! <base64>, "language"?}` answers the paragraphs read with their lines' boxes, `POST /render
//! {"image", "language", "paragraphs": [{"text", "lines"}]}` the image with them painted in.
//! PDFs: `POST /pdf/read {"pdf": <base64>}` answers its pages' text blocks, `POST /pdf/write
//! {"pdf", "language", "pages": [{"blocks": [...]}]}` the PDF with each block's new text, `POST
//! /pdf/images {"pdf"}` the pictures its pages draw (`{"images": [{"page", "x_min", "y_min",
//! "x_max", "y_max", "format", "data": <base64>}]}`).

use std::time::Duration;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use catalogue::Language;
use platform::{HttpRequest, OutboundHttp, Variables};
use serde::{Deserialize, Serialize};

use crate::ConfigError;
use crate::config::{parse_url, read};

pub const URL_VARIABLE: &str = "language_tools_url";
pub const SECRET_VARIABLE: &str = "language_tools_secret";

/// The most texts the service takes in one call.
pub const BATCH: usize = 50;

/// How long a detection may take: the service answers in milliseconds, so more means it is stuck.
pub const TIMEOUT: Duration = Duration::from_secs(10);

/// How long a correction may take. Most texts take milliseconds, but Hunspell's suggestions cost
/// up to about 0.1 s per misspelled word (French), and a 10 KiB body may hold a hundred of them.
pub const CORRECT_TIMEOUT: Duration = Duration::from_secs(30);

/// How long reading or painting an image may take: the service gives Tesseract 60 s.
pub const IMAGE_TIMEOUT: Duration = Duration::from_secs(70);

/// How long reading or writing a PDF may take: the service gives each Poppler tool 60 s.
pub const PDF_TIMEOUT: Duration = Duration::from_secs(130);

/// Where the service is and how to prove to it who is calling.
#[derive(Clone, PartialEq, Eq)]
pub struct ToolsSettings {
    /// The base URL, without a trailing slash.
    pub url: String,
    secret: String,
}

impl std::fmt::Debug for ToolsSettings {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.debug_struct("ToolsSettings").field("url", &self.url).finish_non_exhaustive()
    }
}

impl ToolsSettings {
    /// The settings the variables describe: `None` when no secret is set. A secret without a
    /// URL, or a malformed URL, names the URL's variable.
    pub fn from_variables(vars: &dyn Variables) -> Result<Option<ToolsSettings>, ConfigError> {
        let Some(secret) = read(vars, SECRET_VARIABLE)? else { return Ok(None) };
        let url = read(vars, URL_VARIABLE)?.ok_or(ConfigError::Missing {
            variable: URL_VARIABLE,
            expected: "the http:// base URL of the language-tools service",
        })?;
        Ok(Some(ToolsSettings { url: parse_url(URL_VARIABLE, &url)?, secret }))
    }
}

/// Why the service could not do what was asked. Neither variant carries the secret.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ToolsError {
    /// The service is down, too slow, refused the caller's secret, or answered a server error.
    #[error("the language-tools service is unavailable: {0}")]
    Unavailable(String),
    /// The service answered, but with something this client cannot use.
    #[error("the language-tools service answered something unusable: {0}")]
    Invalid(String),
    /// The service cannot do it with what it was sent (an image it cannot read, a language it has
    /// no OCR for): its message, which says why in words for the caller.
    #[error("{0}")]
    Refused(String),
}

/// The language of one text, as the service (or the built-in detector) sees it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Detection {
    /// The most likely language among the ones asked about, a base language of the catalogue;
    /// `None` only for a text without letters.
    pub language: Option<&'static Language>,
    /// How sure the detector is of it, from 0 to 1.
    pub confidence: f64,
    /// The most likely language of all, with its confidence, when it is none of the languages
    /// asked about (a text in Hindi, asked which auto-detectable source it is in).
    pub outside: Option<(&'static Language, f64)>,
}

/// What the service covers, from its `/health`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct ToolsLanguages {
    pub detection: Vec<String>,
    pub correction: Vec<String>,
}

/// A box on an image, in pixels from its top-left corner.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct TextBox {
    pub left: u32,
    pub top: u32,
    pub width: u32,
    pub height: u32,
}

/// A paragraph OCR read: its text, and the boxes of its lines.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct ReadParagraph {
    pub text: String,
    pub lines: Vec<TextBox>,
}

/// What OCR read on an image.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct ReadImage {
    /// The language read in: the one asked for, or the one the service found (a catalogue base
    /// code).
    pub language: String,
    pub paragraphs: Vec<ReadParagraph>,
}

/// A paragraph to paint: its new text, in the boxes its source's lines had.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PaintParagraph<'p> {
    pub text: &'p str,
    pub lines: &'p [TextBox],
}

/// A block of text on a PDF page: its text, its font size and its box (points from the top-left
/// corner of the page as shown).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PdfBlock {
    pub text: String,
    pub font_size: f64,
    pub x_min: f64,
    pub y_min: f64,
    pub x_max: f64,
    pub y_max: f64,
}

/// A PDF page as read: its blocks in reading order (none on a scanned page).
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct PdfPage {
    pub blocks: Vec<PdfBlock>,
    /// Whether the page is a scan (no text, an image drawn): its text is read by
    /// [`LanguageTools::read_scanned_page`].
    #[serde(default)]
    pub scanned: bool,
}

/// What the service read of a PDF: every page, in order.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct PdfLayout {
    pub pages: Vec<PdfPage>,
}

/// A page's blocks with their new texts, for writing, and the rectangles painted first.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PdfPageText {
    pub blocks: Vec<PdfBlock>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub covers: Vec<PdfCover>,
}

/// A rectangle a scanned page's line is painted over with, in its background colour (points
/// from the page's top-left corner; red, green, blue).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct PdfCover {
    pub x_min: f64,
    pub y_min: f64,
    pub x_max: f64,
    pub y_max: f64,
    pub colour: [u8; 3],
}

/// A scanned page read by OCR: the language read in (a catalogue base code), its paragraphs as
/// blocks, and the covers of its lines.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct ScannedPage {
    pub language: String,
    pub blocks: Vec<PdfBlock>,
    pub covers: Vec<PdfCover>,
}

/// A picture a PDF page draws: its page (counted from 0), its box (points from the page's
/// top-left corner, as a block's), its file's format (`png` or `jpeg`) and the file.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct PdfImage {
    pub page: usize,
    pub x_min: f64,
    pub y_min: f64,
    pub x_max: f64,
    pub y_max: f64,
    pub format: String,
    /// The file (standard base64 on the wire).
    #[serde(deserialize_with = "base64_data")]
    pub data: Vec<u8>,
}

/// The bytes of a standard base64 string.
fn base64_data<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Vec<u8>, D::Error> {
    let text = String::deserialize(deserializer)?;
    BASE64.decode(text.as_bytes()).map_err(serde::de::Error::custom)
}

#[derive(Deserialize)]
struct PdfImagesAnswer {
    images: Vec<PdfImage>,
}

#[derive(Serialize)]
struct ScannedPageBody<'b> {
    pdf: String,
    page: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    language: Option<&'b str>,
}

#[derive(Serialize)]
struct PdfBody<'b> {
    pdf: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    language: Option<&'b str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pages: Option<&'b [PdfPageText]>,
}

#[derive(Deserialize)]
struct PdfAnswer {
    pdf: String,
}

#[derive(Serialize)]
struct OcrBody<'b> {
    image: String,
    language: Option<&'b str>,
}

#[derive(Serialize)]
struct RenderBody<'b> {
    image: String,
    language: &'b str,
    paragraphs: &'b [PaintParagraph<'b>],
}

#[derive(Deserialize)]
struct RenderAnswer {
    image: String,
}

/// The service, reached through a request's outbound HTTP.
pub struct LanguageTools<'a> {
    settings: ToolsSettings,
    http: &'a dyn OutboundHttp,
}

#[derive(Serialize)]
struct DetectBody<'t> {
    texts: &'t [String],
    #[serde(skip_serializing_if = "Option::is_none")]
    among: Option<&'t [&'static str]>,
}

#[derive(Deserialize)]
struct DetectAnswer {
    results: Vec<DetectResult>,
}

#[derive(Deserialize)]
struct DetectResult {
    language: Option<String>,
    confidence: f64,
    outside: Option<OutsideResult>,
}

#[derive(Deserialize)]
struct OutsideResult {
    language: String,
    confidence: f64,
}

#[derive(Serialize)]
struct CorrectBody<'t> {
    language: &'t str,
    texts: &'t [String],
}

#[derive(Deserialize)]
struct CorrectAnswer {
    texts: Vec<String>,
}

impl<'a> LanguageTools<'a> {
    pub fn new(settings: ToolsSettings, http: &'a dyn OutboundHttp) -> Self {
        LanguageTools { settings, http }
    }

    /// The language of each text, in order, among the base languages `among` names (all the
    /// service knows when `None`).
    pub fn detect(&self, texts: &[String], among: Option<&[&'static str]>) -> Result<Vec<Detection>, ToolsError> {
        let mut detections = Vec::with_capacity(texts.len());
        for batch in texts.chunks(BATCH) {
            let answer: DetectAnswer = self.post("/detect", &DetectBody { texts: batch, among }, TIMEOUT)?;
            if answer.results.len() != batch.len() {
                return Err(ToolsError::Invalid(format!("{} results for {} texts", answer.results.len(), batch.len())));
            }
            for result in answer.results {
                let language = result.language.as_deref().map(base_language).transpose()?;
                let outside = match result.outside {
                    None => None,
                    Some(outside) => Some((base_language(&outside.language)?, confidence(outside.confidence)?)),
                };
                detections.push(Detection { language, confidence: confidence(result.confidence)?, outside });
            }
        }
        Ok(detections)
    }

    /// Each text with its spelling and grammar corrected in `language` (its base language).
    pub fn correct(&self, language: &'static Language, texts: &[String]) -> Result<Vec<String>, ToolsError> {
        let mut corrected = Vec::with_capacity(texts.len());
        for batch in texts.chunks(BATCH) {
            let body = CorrectBody { language: language.base_code(), texts: batch };
            let answer: CorrectAnswer = self.post("/correct", &body, CORRECT_TIMEOUT)?;
            if answer.texts.len() != batch.len() {
                return Err(ToolsError::Invalid(format!("{} texts back for {}", answer.texts.len(), batch.len())));
            }
            corrected.extend(answer.texts);
        }
        Ok(corrected)
    }

    /// The paragraphs of a PNG or JPEG `image`, read in `language` (a base code), or in the
    /// language the service finds when `None`.
    pub fn ocr(&self, image: &[u8], language: Option<&str>) -> Result<ReadImage, ToolsError> {
        let body = OcrBody { image: BASE64.encode(image), language };
        let read: ReadImage = self.post("/ocr", &body, IMAGE_TIMEOUT)?;
        base_language(&read.language)?;
        Ok(read)
    }

    /// `image` with `paragraphs` painted over their source's lines, in the fonts of `language`
    /// (a base code): a file of the same type.
    pub fn render(
        &self,
        image: &[u8],
        language: &str,
        paragraphs: &[PaintParagraph<'_>],
    ) -> Result<Vec<u8>, ToolsError> {
        let body = RenderBody { image: BASE64.encode(image), language, paragraphs };
        let answer: RenderAnswer = self.post("/render", &body, IMAGE_TIMEOUT)?;
        BASE64.decode(answer.image.as_bytes()).map_err(|error| ToolsError::Invalid(format!("the image: {error}")))
    }

    /// The text blocks of every page of `pdf`.
    pub fn read_pdf(&self, pdf: &[u8]) -> Result<PdfLayout, ToolsError> {
        self.post("/pdf/read", &PdfBody { pdf: BASE64.encode(pdf), language: None, pages: None }, PDF_TIMEOUT)
    }

    /// `pdf` with each page's text replaced by `pages`' blocks, in the fonts of `language` (a
    /// base code).
    pub fn write_pdf(&self, pdf: &[u8], language: &str, pages: &[PdfPageText]) -> Result<Vec<u8>, ToolsError> {
        let body = PdfBody { pdf: BASE64.encode(pdf), language: Some(language), pages: Some(pages) };
        let answer: PdfAnswer = self.post("/pdf/write", &body, PDF_TIMEOUT)?;
        BASE64.decode(answer.pdf.as_bytes()).map_err(|error| ToolsError::Invalid(format!("the PDF: {error}")))
    }

    /// Page `page` (counted from 1) of `pdf`, a scan, read by OCR in `language` (a base code) or
    /// in the language the service finds.
    pub fn read_scanned_page(
        &self,
        pdf: &[u8],
        page: usize,
        language: Option<&str>,
    ) -> Result<ScannedPage, ToolsError> {
        let body = ScannedPageBody { pdf: BASE64.encode(pdf), page, language };
        let read: ScannedPage = self.post("/pdf/ocr", &body, IMAGE_TIMEOUT + PDF_TIMEOUT)?;
        base_language(&read.language)?;
        Ok(read)
    }

    /// The pictures `pdf`'s pages draw, page by page, with their boxes; only `png` and `jpeg`
    /// files (the service extracts no other kind).
    pub fn pdf_images(&self, pdf: &[u8]) -> Result<Vec<PdfImage>, ToolsError> {
        let body = PdfBody { pdf: BASE64.encode(pdf), language: None, pages: None };
        let answer: PdfImagesAnswer = self.post("/pdf/images", &body, PDF_TIMEOUT)?;
        if let Some(image) = answer.images.iter().find(|image| !matches!(image.format.as_str(), "png" | "jpeg")) {
            return Err(ToolsError::Invalid(format!("an image in the format {:?}", image.format)));
        }
        Ok(answer.images)
    }

    /// The languages the service detects and corrects (its `/health`, which needs no secret).
    pub fn languages(&self) -> Result<ToolsLanguages, ToolsError> {
        let request = HttpRequest::new("GET", format!("{}/health", self.settings.url)).timeout(TIMEOUT);
        let response = self.http.send(request).map_err(|error| ToolsError::Unavailable(error.to_string()))?;
        decode(response.status, &response.body)
    }

    /// The base languages of the catalogue the service corrects, from its `/health` (a code the
    /// catalogue does not know is left out: the service may have more dictionaries than the API
    /// has languages).
    pub fn corrected(&self) -> Result<Vec<&'static Language>, ToolsError> {
        let languages = self.languages()?;
        Ok(languages.correction.iter().filter_map(|code| catalogue::find(code)).map(Language::base).collect())
    }

    fn post<T: for<'de> Deserialize<'de>>(
        &self,
        path: &str,
        body: &impl Serialize,
        timeout: Duration,
    ) -> Result<T, ToolsError> {
        let body = serde_json::to_vec(body).map_err(|error| ToolsError::Invalid(error.to_string()))?;
        let request = HttpRequest::new("POST", format!("{}{path}", self.settings.url))
            .header("content-type", "application/json")
            .header("authorization", format!("Bearer {}", self.settings.secret))
            .body(body)
            .timeout(timeout);
        let response = self.http.send(request).map_err(|error| ToolsError::Unavailable(error.to_string()))?;
        decode(response.status, &response.body)
    }
}

/// The catalogue's base language the service names by `code`.
fn base_language(code: &str) -> Result<&'static Language, ToolsError> {
    catalogue::find(code).map(Language::base).ok_or_else(|| ToolsError::Invalid(format!("unknown language {code:?}")))
}

fn confidence(value: f64) -> Result<f64, ToolsError> {
    if (0.0..=1.0).contains(&value) {
        Ok(value)
    } else {
        Err(ToolsError::Invalid(format!("confidence {value} outside 0..1")))
    }
}

/// A 200's JSON document. A 400 or 422 is the service's refusal of what it was sent (an image
/// it cannot read); any other status is its fault or its refusal of us (a wrong secret), which
/// the caller cannot fix per request either.
fn decode<T: for<'de> Deserialize<'de>>(status: u16, body: &[u8]) -> Result<T, ToolsError> {
    if status != 200 {
        let message = serde_json::from_slice::<serde_json::Value>(body)
            .ok()
            .and_then(|value| value.get("message").and_then(|message| message.as_str()).map(str::to_owned))
            .unwrap_or_default();
        if matches!(status, 400 | 422) && !message.is_empty() {
            return Err(ToolsError::Refused(message));
        }
        return Err(ToolsError::Unavailable(format!("status {status} {message}").trim_end().to_owned()));
    }
    serde_json::from_slice(body).map_err(|error| ToolsError::Invalid(error.to_string()))
}

#[cfg(test)]
mod tests {
    use std::cell::RefCell;
    use std::collections::HashMap;

    use platform::{HttpError, HttpResponse};

    use super::*;

    fn vars(pairs: &[(&str, &str)]) -> HashMap<String, String> {
        pairs.iter().map(|(name, value)| (name.to_string(), value.to_string())).collect()
    }

    /// Answers every request with `answer(request)` and remembers the requests.
    struct Fake<F: Fn(&HttpRequest) -> Result<HttpResponse, HttpError>> {
        answer: F,
        sent: RefCell<Vec<HttpRequest>>,
    }

    impl<F: Fn(&HttpRequest) -> Result<HttpResponse, HttpError>> OutboundHttp for Fake<F> {
        fn send(&self, request: HttpRequest) -> Result<HttpResponse, HttpError> {
            let answer = (self.answer)(&request);
            self.sent.borrow_mut().push(request);
            answer
        }
    }

    fn fake<F: Fn(&HttpRequest) -> Result<HttpResponse, HttpError>>(answer: F) -> Fake<F> {
        Fake { answer, sent: RefCell::new(Vec::new()) }
    }

    fn json(status: u16, body: serde_json::Value) -> Result<HttpResponse, HttpError> {
        Ok(HttpResponse { status, headers: Vec::new(), body: body.to_string().into_bytes() })
    }

    fn settings() -> ToolsSettings {
        ToolsSettings::from_variables(&vars(&[
            ("language_tools_url", "http://127.0.0.1:2740/"),
            ("language_tools_secret", "s3cret"),
        ]))
        .unwrap()
        .unwrap()
    }

    #[test]
    fn no_secret_means_no_service_and_a_secret_needs_a_url() {
        assert_eq!(ToolsSettings::from_variables(&vars(&[])).unwrap(), None);
        let unused = [("language_tools_url", "http://tools:2740"), ("language_tools_secret", " ")];
        assert_eq!(ToolsSettings::from_variables(&vars(&unused)).unwrap(), None);
        let error = ToolsSettings::from_variables(&vars(&[("language_tools_secret", "s")])).unwrap_err();
        assert_eq!(error.variable(), "language_tools_url");
        let error = ToolsSettings::from_variables(&vars(&[
            ("language_tools_url", "tools:2740"),
            ("language_tools_secret", "s"),
        ]))
        .unwrap_err();
        assert_eq!(error.variable(), "language_tools_url");
        assert_eq!(settings().url, "http://127.0.0.1:2740");
        assert!(!format!("{:?}", settings()).contains("s3cret"), "the secret never shows in a debug print");
    }

    #[test]
    fn detection_sends_the_secret_and_maps_the_codes_to_the_catalogue() {
        let http = fake(|_| {
            json(
                200,
                serde_json::json!({"results": [
                    {"language": "de", "confidence": 0.97},
                    {"language": null, "confidence": 0.0},
                    {"language": "pt", "confidence": 0.4, "outside": {"language": "hi", "confidence": 0.9}},
                ]}),
            )
        });
        let tools = LanguageTools::new(settings(), &http);
        let texts = vec!["Gute Nacht".to_owned(), "123".to_owned(), "Obrigado".to_owned()];
        let detections = tools.detect(&texts, Some(&["de", "pt"])).unwrap();
        assert_eq!(detections[0].language.map(Language::code), Some("DE"));
        assert_eq!(detections[0].outside, None);
        assert_eq!(detections[2].outside, Some((catalogue::find("hi").unwrap(), 0.9)));
        assert_eq!(detections[0].confidence, 0.97);
        assert_eq!(detections[1].language, None);
        assert_eq!(detections[2].language.map(Language::base_code), Some("pt"));
        let sent = http.sent.borrow();
        assert_eq!(sent[0].url, "http://127.0.0.1:2740/detect");
        assert!(sent[0].headers.contains(&("authorization".into(), "Bearer s3cret".into())));
        let body: serde_json::Value = serde_json::from_slice(&sent[0].body).unwrap();
        assert_eq!(body, serde_json::json!({"texts": ["Gute Nacht", "123", "Obrigado"], "among": ["de", "pt"]}));
    }

    #[test]
    fn long_lists_go_in_batches_of_fifty() {
        let http = fake(|request| {
            let body: serde_json::Value = serde_json::from_slice(&request.body).unwrap();
            let count = body["texts"].as_array().unwrap().len();
            assert!(count <= BATCH);
            json(
                200,
                serde_json::json!({"results": vec![serde_json::json!({"language": "en", "confidence": 1.0}); count]}),
            )
        });
        let tools = LanguageTools::new(settings(), &http);
        let texts = vec!["Hello there".to_owned(); 120];
        assert_eq!(tools.detect(&texts, None).unwrap().len(), 120);
        assert_eq!(http.sent.borrow().len(), 3);
    }

    #[test]
    fn a_down_or_refusing_service_is_unavailable_and_a_wrong_answer_invalid() {
        let down = fake(|request| {
            Err(HttpError::Unreachable { url: request.url.clone(), reason: "connection refused".into() })
        });
        let texts = vec!["Hello".to_owned()];
        assert!(matches!(LanguageTools::new(settings(), &down).detect(&texts, None), Err(ToolsError::Unavailable(_))));

        let refusing = fake(|_| json(401, serde_json::json!({"message": "wrong secret"})));
        let error = LanguageTools::new(settings(), &refusing).detect(&texts, None).unwrap_err();
        assert_eq!(error, ToolsError::Unavailable("status 401 wrong secret".into()));
        assert!(!error.to_string().contains("s3cret"));

        let short = fake(|_| json(200, serde_json::json!({"results": []})));
        assert!(matches!(LanguageTools::new(settings(), &short).detect(&texts, None), Err(ToolsError::Invalid(_))));
        let unknown = fake(|_| json(200, serde_json::json!({"results": [{"language": "xx", "confidence": 1.0}]})));
        assert!(matches!(LanguageTools::new(settings(), &unknown).detect(&texts, None), Err(ToolsError::Invalid(_))));
    }

    #[test]
    fn correction_names_the_base_language_and_keeps_the_order() {
        let http = fake(|request| {
            let body: serde_json::Value = serde_json::from_slice(&request.body).unwrap();
            assert_eq!(body["language"], "en");
            let texts: Vec<String> =
                body["texts"].as_array().unwrap().iter().map(|text| text.as_str().unwrap().to_uppercase()).collect();
            json(200, serde_json::json!({ "texts": texts }))
        });
        let tools = LanguageTools::new(settings(), &http);
        let english = catalogue::find("en-GB").unwrap();
        let corrected = tools.correct(english, &["one".to_owned(), "two".to_owned()]).unwrap();
        assert_eq!(corrected, ["ONE", "TWO"]);
        assert_eq!(http.sent.borrow()[0].url, "http://127.0.0.1:2740/correct");
    }

    #[test]
    fn the_corrected_languages_come_from_health_without_a_secret_and_without_unknown_codes() {
        let http = fake(|request| {
            assert_eq!((request.method.as_str(), request.url.as_str()), ("GET", "http://127.0.0.1:2740/health"));
            assert!(request.headers.iter().all(|(name, _)| name != "authorization"));
            json(200, serde_json::json!({"status": "ok", "detection": ["en"], "correction": ["de", "en", "xx"]}))
        });
        let corrected = LanguageTools::new(settings(), &http).corrected().unwrap();
        assert_eq!(corrected.iter().map(|language| language.lang()).collect::<Vec<_>>(), ["de", "en"]);
    }

    #[test]
    fn images_travel_as_base64_and_a_refusal_keeps_the_service_s_reason() {
        let http = fake(|request| {
            let body: serde_json::Value = serde_json::from_slice(&request.body).unwrap();
            assert_eq!(body["image"], "iVBORw==", "the bytes, in base64");
            match request.url.as_str() {
                "http://127.0.0.1:2740/ocr" if body["language"] == "fr" => {
                    json(400, serde_json::json!({"message": "Language 'fr' is not supported for OCR"}))
                }
                "http://127.0.0.1:2740/ocr" => json(
                    200,
                    serde_json::json!({"language": "en", "width": 9, "height": 9, "paragraphs": [
                        {"text": "Hi.", "confidence": 91.0, "lines": [
                            {"text": "Hi.", "left": 1, "top": 2, "width": 3, "height": 4, "confidence": 91.0, "words": []}
                        ]}
                    ]}),
                ),
                _ => {
                    assert_eq!(body["language"], "de");
                    assert_eq!(
                        body["paragraphs"][0],
                        serde_json::json!({"text": "Hallo.", "lines": [
                            {"left": 1, "top": 2, "width": 3, "height": 4}
                        ]})
                    );
                    json(200, serde_json::json!({"image": "AQID"}))
                }
            }
        });
        let tools = LanguageTools::new(settings(), &http);
        let image = [0x89, b'P', b'N', b'G'];
        let read = tools.ocr(&image, None).unwrap();
        let line = TextBox { left: 1, top: 2, width: 3, height: 4 };
        assert_eq!(read.language, "en");
        assert_eq!(read.paragraphs, [ReadParagraph { text: "Hi.".into(), lines: vec![line] }]);
        let refused = tools.ocr(&image, Some("fr")).unwrap_err();
        assert_eq!(refused, ToolsError::Refused("Language 'fr' is not supported for OCR".into()));
        let painted = tools.render(&image, "de", &[PaintParagraph { text: "Hallo.", lines: &[line] }]).unwrap();
        assert_eq!(painted, [1, 2, 3]);
    }

    #[test]
    fn pdfs_travel_as_base64_with_their_pages_blocks() {
        let block = PdfBlock { text: "Hallo.".into(), font_size: 12.0, x_min: 1.0, y_min: 2.0, x_max: 3.0, y_max: 4.0 };
        let expected = block.clone();
        let http = fake(move |request| {
            let body: serde_json::Value = serde_json::from_slice(&request.body).unwrap();
            assert_eq!(body["pdf"], "JVBERg==", "the bytes, in base64");
            match request.url.as_str() {
                "http://127.0.0.1:2740/pdf/read" => {
                    assert!(body.get("pages").is_none() && body.get("language").is_none(), "{body}");
                    json(
                        200,
                        serde_json::json!({"pages": [{"width": 595.0, "height": 842.0, "blocks": [
                        {"text": "Hello.", "font_size": 12.0, "x_min": 1.0, "y_min": 2.0, "x_max": 3.0, "y_max": 4.0,
                         "lines": []}
                    ]}, {"width": 595.0, "height": 842.0, "blocks": []}]}),
                    )
                }
                _ => {
                    assert_eq!(body["language"], "de");
                    assert_eq!(body["pages"][0]["blocks"][0], serde_json::to_value(&expected).unwrap());
                    json(200, serde_json::json!({"pdf": "AQID"}))
                }
            }
        });
        let tools = LanguageTools::new(settings(), &http);
        let layout = tools.read_pdf(b"%PDF").unwrap();
        assert_eq!(layout.pages.len(), 2);
        assert_eq!(layout.pages[0].blocks[0].text, "Hello.");
        let written = tools.write_pdf(b"%PDF", "de", &[PdfPageText { blocks: vec![block], covers: vec![] }]).unwrap();
        assert_eq!(written, [1, 2, 3]);
    }

    #[test]
    fn a_scanned_page_is_read_with_its_page_number_and_its_covers_go_back_with_the_page() {
        let cover = PdfCover { x_min: 1.0, y_min: 2.0, x_max: 3.0, y_max: 4.0, colour: [250, 240, 230] };
        let http = fake(move |request| {
            let body: serde_json::Value = serde_json::from_slice(&request.body).unwrap();
            match request.url.as_str() {
                "http://127.0.0.1:2740/pdf/ocr" => {
                    assert_eq!((body["pdf"].as_str(), body["page"].as_u64()), (Some("JVBERg=="), Some(3)));
                    assert_eq!(body.get("language"), None, "{body}");
                    json(
                        200,
                        serde_json::json!({"language": "en", "blocks": [
                            {"text": "Hello.", "font_size": 12.0, "x_min": 1.0, "y_min": 2.0, "x_max": 3.0, "y_max": 4.0}
                        ], "covers": [{"x_min": 1.0, "y_min": 2.0, "x_max": 3.0, "y_max": 4.0, "colour": [250, 240, 230]}]}),
                    )
                }
                _ => {
                    assert_eq!(body["pages"][0]["covers"][0]["colour"], serde_json::json!([250, 240, 230]));
                    assert!(body["pages"][1].get("covers").is_none(), "no covers, no field: {body}");
                    json(200, serde_json::json!({"pdf": "AQID"}))
                }
            }
        });
        let tools = LanguageTools::new(settings(), &http);
        let read = tools.read_scanned_page(b"%PDF", 3, None).unwrap();
        assert_eq!((read.language.as_str(), read.blocks[0].text.as_str()), ("en", "Hello."));
        assert_eq!(read.covers, [cover]);
        let pages = [PdfPageText { blocks: read.blocks, covers: read.covers }, PdfPageText::default()];
        assert_eq!(tools.write_pdf(b"%PDF", "de", &pages).unwrap(), [1, 2, 3]);
    }

    #[test]
    fn a_pdfs_images_come_with_their_pages_boxes_and_decoded_files() {
        let http = fake(|request| {
            assert_eq!(request.url, "http://127.0.0.1:2740/pdf/images");
            let body: serde_json::Value = serde_json::from_slice(&request.body).unwrap();
            assert_eq!(body, serde_json::json!({"pdf": "JVBERg=="}));
            json(
                200,
                serde_json::json!({"images": [{"page": 1, "x_min": 56.7, "y_min": 98.0, "x_max": 146.7, "y_max": 158.0,
                    "format": "png", "data": "iVBORw=="}]}),
            )
        });
        let tools = LanguageTools::new(settings(), &http);
        let images = tools.pdf_images(b"%PDF").unwrap();
        let expected = PdfImage {
            page: 1,
            x_min: 56.7,
            y_min: 98.0,
            x_max: 146.7,
            y_max: 158.0,
            format: "png".into(),
            data: b"\x89PNG".to_vec(),
        };
        assert_eq!(images, [expected]);

        let gif = fake(|_| {
            let image = serde_json::json!({"page": 0, "x_min": 0, "y_min": 0, "x_max": 1, "y_max": 1, "format": "gif", "data": ""});
            json(200, serde_json::json!({"images": [image]}))
        });
        assert!(matches!(LanguageTools::new(settings(), &gif).pdf_images(b"%PDF"), Err(ToolsError::Invalid(_))));
        let bad = fake(|_| {
            let image = serde_json::json!({"page": 0, "x_min": 0, "y_min": 0, "x_max": 1, "y_max": 1, "format": "png", "data": "%%"});
            json(200, serde_json::json!({"images": [image]}))
        });
        assert!(matches!(LanguageTools::new(settings(), &bad).pdf_images(b"%PDF"), Err(ToolsError::Invalid(_))));
        let refused = fake(|_| json(400, serde_json::json!({"message": "the PDF cannot be read: damaged file"})));
        let error = LanguageTools::new(settings(), &refused).pdf_images(b"%PDF").unwrap_err();
        assert_eq!(error, ToolsError::Refused("the PDF cannot be read: damaged file".into()));
    }
}
