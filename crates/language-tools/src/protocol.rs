//! The HTTP protocol's documents: the request bodies of `/detect`, `/correct`, `/ocr`, `/render`,
//! `/pdf/read` and `/pdf/write`, read
//! from JSON with errors that name the field and the reason, and the response bodies.
//!
//! Requests are read from a `serde_json::Value` by hand rather than derived, so that every refusal names its
//! field (`texts[3]`) in words a developer can act on. Unknown fields are ignored, so a newer client can
//! send more.

use serde::Serialize;
use serde_json::{Map, Value};

use crate::detect::Detection;
use crate::ocr::Paragraph;
use crate::render::{BoxSpec, TextBlock};
use pdf_document::{BlockText, Cover, PageText};

/// The most texts one request may carry.
pub const MAX_TEXTS: usize = 50;

/// `POST /detect`'s body: `{"texts": [...], "among"?: ["en", ...]}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DetectRequest {
    pub texts: Vec<String>,
    /// The only languages that may be answered (catalogue base codes), when the caller names them.
    pub among: Option<Vec<String>>,
}

/// `POST /correct`'s body: `{"language": "en", "texts": [...]}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CorrectRequest {
    pub language: String,
    pub texts: Vec<String>,
}

impl DetectRequest {
    /// Reads the body; `Err` is the message of a 400.
    pub fn parse(body: &[u8]) -> Result<DetectRequest, String> {
        let object = object(body)?;
        let among = match object.get("among") {
            None | Some(Value::Null) => None,
            Some(Value::Array(codes)) if !codes.is_empty() => Some(
                codes
                    .iter()
                    .enumerate()
                    .map(|(index, code)| match code {
                        Value::String(code) => Ok(code.trim().to_ascii_lowercase()),
                        _ => Err(format!("Field 'among[{index}]' must be a string")),
                    })
                    .collect::<Result<Vec<String>, String>>()?,
            ),
            Some(_) => return Err("Field 'among' must be a non-empty array of language codes".to_string()),
        };
        Ok(DetectRequest { texts: texts(&object)?, among })
    }
}

impl CorrectRequest {
    /// Reads the body; `Err` is the message of a 400.
    pub fn parse(body: &[u8]) -> Result<CorrectRequest, String> {
        let object = object(body)?;
        let language = language(&object)?.ok_or("Field 'language' is required")?;
        Ok(CorrectRequest { language, texts: texts(&object)? })
    }
}

/// `POST /ocr`'s body: `{"image": "<base64>", "language"?: "de"}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OcrRequest {
    /// The base64 text of the image, checked by [`crate::picture::Picture::from_base64`].
    pub image: String,
    /// The language to read, lower case, when the caller knows it.
    pub language: Option<String>,
}

/// `POST /render`'s body: `{"image": "<base64>", "language": "de", "paragraphs": [{"text": "...",
/// "lines": [{"left": 0, "top": 0, "width": 10, "height": 10}, ...]}, ...]}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RenderRequest {
    pub image: String,
    pub language: String,
    pub paragraphs: Vec<TextBlock>,
}

/// The most paragraphs one `/render` request may carry, and the most lines one paragraph may have.
pub const MAX_PARAGRAPHS: usize = 2_000;
pub const MAX_LINES: usize = 500;

impl OcrRequest {
    /// Reads the body; `Err` is the message of a 400.
    pub fn parse(body: &[u8]) -> Result<OcrRequest, String> {
        let object = object(body)?;
        let language = language(&object)?.map(|code| code.to_ascii_lowercase());
        Ok(OcrRequest { image: image(&object)?, language })
    }
}

impl RenderRequest {
    /// Reads the body; `Err` is the message of a 400.
    pub fn parse(body: &[u8]) -> Result<RenderRequest, String> {
        let object = object(body)?;
        let language = language(&object)?.ok_or("Field 'language' is required")?.to_ascii_lowercase();
        let items = match object.get("paragraphs") {
            None | Some(Value::Null) => return Err("Field 'paragraphs' is required".to_string()),
            Some(Value::Array(items)) => items,
            Some(_) => return Err("Field 'paragraphs' must be an array of paragraphs".to_string()),
        };
        if items.len() > MAX_PARAGRAPHS {
            return Err(format!(
                "Field 'paragraphs' holds {} paragraphs; at most {MAX_PARAGRAPHS} are allowed",
                items.len()
            ));
        }
        let paragraphs =
            items.iter().enumerate().map(|(index, item)| text_block(index, item)).collect::<Result<_, _>>()?;
        Ok(RenderRequest { image: image(&object)?, language, paragraphs })
    }
}

/// `POST /pdf/read`'s body: `{"pdf": "<base64>"}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PdfReadRequest {
    /// The base64 text of the PDF, checked by [`crate::pdf::decode`].
    pub pdf: String,
}

/// `POST /pdf/write`'s body: `{"pdf": "<base64 of the original>", "language": "de", "pages": [{"blocks":
/// [{"text": "...", "x_min": 56.8, "y_min": 40.2, "x_max": 219.8, "y_max": 66.2, "font_size": 20.0}, ...]},
/// ...]}`, one page per page of the PDF, in order.
#[derive(Debug, Clone, PartialEq)]
pub struct PdfWriteRequest {
    pub pdf: String,
    pub language: String,
    pub pages: Vec<PageText>,
}

/// `POST /pdf/ocr`'s body: `{"pdf": "<base64>", "page": 1, "language"?: "de"}`, the page counted from 1.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PdfOcrRequest {
    pub pdf: String,
    pub page: usize,
    /// The language to read, lower case, when the caller knows it.
    pub language: Option<String>,
}

impl PdfOcrRequest {
    /// Reads the body; `Err` is the message of a 400.
    pub fn parse(body: &[u8]) -> Result<PdfOcrRequest, String> {
        let object = object(body)?;
        let page = match object.get("page") {
            None | Some(Value::Null) => return Err("Field 'page' is required".to_string()),
            Some(value) => value
                .as_u64()
                .filter(|page| *page >= 1)
                .and_then(|page| usize::try_from(page).ok())
                .ok_or("Field 'page' must be a page number, counted from 1")?,
        };
        let language = language(&object)?.map(|code| code.to_ascii_lowercase());
        Ok(PdfOcrRequest { pdf: pdf(&object)?, page, language })
    }
}

impl PdfReadRequest {
    /// Reads the body; `Err` is the message of a 400.
    pub fn parse(body: &[u8]) -> Result<PdfReadRequest, String> {
        Ok(PdfReadRequest { pdf: pdf(&object(body)?)? })
    }
}

impl PdfWriteRequest {
    /// Reads the body; `Err` is the message of a 400.
    pub fn parse(body: &[u8]) -> Result<PdfWriteRequest, String> {
        let object = object(body)?;
        let language = language(&object)?.ok_or("Field 'language' is required")?.to_ascii_lowercase();
        let pages = match object.get("pages") {
            None | Some(Value::Null) => return Err("Field 'pages' is required".to_string()),
            Some(Value::Array(pages)) => pages,
            Some(_) => return Err("Field 'pages' must be an array of pages, one per page of the PDF".to_string()),
        };
        let pages = pages.iter().enumerate().map(|(index, page)| page_text(index, page)).collect::<Result<_, _>>()?;
        Ok(PdfWriteRequest { pdf: pdf(&object)?, language, pages })
    }
}

fn pdf(object: &Map<String, Value>) -> Result<String, String> {
    match object.get("pdf") {
        None | Some(Value::Null) => Err("Field 'pdf' is required".to_string()),
        Some(Value::String(pdf)) => Ok(pdf.clone()),
        Some(_) => Err("Field 'pdf' must be a string: the standard base64 of a PDF file".to_string()),
    }
}

fn page_text(index: usize, page: &Value) -> Result<PageText, String> {
    let field = format!("pages[{index}]");
    let Value::Object(page) = page else {
        return Err(format!("Field '{field}' must be an object with 'blocks'"));
    };
    let blocks = match page.get("blocks") {
        None | Some(Value::Null) => return Err(format!("Field '{field}.blocks' is required")),
        Some(Value::Array(blocks)) => blocks,
        Some(_) => return Err(format!("Field '{field}.blocks' must be an array of blocks")),
    };
    let blocks = blocks
        .iter()
        .enumerate()
        .map(|(block_index, block)| {
            let field = format!("{field}.blocks[{block_index}]");
            let Value::Object(block) = block else {
                return Err(format!(
                    "Field '{field}' must be an object with 'text', 'x_min', 'y_min', 'x_max', 'y_max' and 'font_size'"
                ));
            };
            let text = match block.get("text") {
                None | Some(Value::Null) => return Err(format!("Field '{field}.text' is required")),
                Some(Value::String(text)) => text.clone(),
                Some(_) => return Err(format!("Field '{field}.text' must be a string")),
            };
            // Finite in f32 (what the PDF is drawn in): 1e39 is a JSON number but no coordinate.
            let number = |name: &str| match block.get(name) {
                None | Some(Value::Null) => Err(format!("Field '{field}.{name}' is required")),
                Some(Value::Number(number)) => number
                    .as_f64()
                    .map(|value| value as f32)
                    .filter(|value| value.is_finite())
                    .ok_or_else(|| format!("Field '{field}.{name}' must be a number")),
                Some(_) => Err(format!("Field '{field}.{name}' must be a number")),
            };
            let font_size = number("font_size")?;
            if font_size <= 0.0 {
                return Err(format!("Field '{field}.font_size' must be a positive number"));
            }
            Ok(BlockText {
                text,
                x_min: number("x_min")?,
                y_min: number("y_min")?,
                x_max: number("x_max")?,
                y_max: number("y_max")?,
                font_size,
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
    let covers = match page.get("covers") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(covers)) if covers.len() <= MAX_COVERS => covers
            .iter()
            .enumerate()
            .map(|(cover_index, cover)| page_cover(&field, cover_index, cover))
            .collect::<Result<_, _>>()?,
        Some(Value::Array(covers)) => {
            return Err(format!(
                "Field '{field}.covers' holds {} rectangles; at most {MAX_COVERS} are allowed",
                covers.len()
            ));
        }
        Some(_) => return Err(format!("Field '{field}.covers' must be an array of rectangles")),
    };
    Ok(PageText { blocks, covers })
}

/// The most rectangles one page's `covers` may hold.
pub const MAX_COVERS: usize = 10_000;

/// One of a page's `covers`: `{"x_min": 1, "y_min": 2, "x_max": 3, "y_max": 4, "colour": [255, 255, 255]}`.
fn page_cover(page_field: &str, index: usize, cover: &Value) -> Result<Cover, String> {
    let field = format!("{page_field}.covers[{index}]");
    let Value::Object(cover) = cover else {
        return Err(format!("Field '{field}' must be an object with 'x_min', 'y_min', 'x_max', 'y_max' and 'colour'"));
    };
    let number = |name: &str| {
        cover
            .get(name)
            .and_then(Value::as_f64)
            .map(|value| value as f32)
            .filter(|value| value.is_finite())
            .ok_or_else(|| format!("Field '{field}.{name}' must be a number"))
    };
    let channel = |value: &Value| value.as_u64().and_then(|value| u8::try_from(value).ok());
    let colour = match cover.get("colour") {
        Some(Value::Array(channels)) if channels.len() == 3 => {
            match (channel(&channels[0]), channel(&channels[1]), channel(&channels[2])) {
                (Some(red), Some(green), Some(blue)) => [red, green, blue],
                _ => return Err(format!("Field '{field}.colour' must be three integers from 0 to 255")),
            }
        }
        _ => return Err(format!("Field '{field}.colour' must be three integers from 0 to 255")),
    };
    Ok(Cover {
        x_min: number("x_min")?,
        y_min: number("y_min")?,
        x_max: number("x_max")?,
        y_max: number("y_max")?,
        colour,
    })
}

fn image(object: &Map<String, Value>) -> Result<String, String> {
    match object.get("image") {
        None | Some(Value::Null) => Err("Field 'image' is required".to_string()),
        Some(Value::String(image)) => Ok(image.clone()),
        Some(_) => Err("Field 'image' must be a string: the standard base64 of a PNG or JPEG file".to_string()),
    }
}

fn text_block(index: usize, item: &Value) -> Result<TextBlock, String> {
    let field = format!("paragraphs[{index}]");
    let Value::Object(paragraph) = item else {
        return Err(format!("Field '{field}' must be an object with 'text' and 'lines'"));
    };
    let text = match paragraph.get("text") {
        None | Some(Value::Null) => return Err(format!("Field '{field}.text' is required")),
        Some(Value::String(text)) => text.clone(),
        Some(_) => return Err(format!("Field '{field}.text' must be a string")),
    };
    let lines = match paragraph.get("lines") {
        None | Some(Value::Null) => return Err(format!("Field '{field}.lines' is required")),
        Some(Value::Array(lines)) => lines,
        Some(_) => return Err(format!("Field '{field}.lines' must be an array of boxes")),
    };
    if lines.len() > MAX_LINES {
        return Err(format!("Field '{field}.lines' holds {} boxes; at most {MAX_LINES} are allowed", lines.len()));
    }
    let lines = lines
        .iter()
        .enumerate()
        .map(|(line_index, line)| {
            let field = format!("{field}.lines[{line_index}]");
            let Value::Object(line) = line else {
                return Err(format!("Field '{field}' must be an object with 'left', 'top', 'width' and 'height'"));
            };
            let number = |name: &str| match line.get(name) {
                None | Some(Value::Null) => Err(format!("Field '{field}.{name}' is required")),
                Some(Value::Number(number)) => number
                    .as_u64()
                    .map(|value| u32::try_from(value).unwrap_or(u32::MAX))
                    .ok_or_else(|| format!("Field '{field}.{name}' must be a non-negative integer")),
                Some(_) => Err(format!("Field '{field}.{name}' must be a non-negative integer")),
            };
            Ok(BoxSpec {
                left: number("left")?,
                top: number("top")?,
                width: number("width")?,
                height: number("height")?,
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
    Ok(TextBlock { text, lines })
}

/// The `language` field, trimmed: `None` when it is absent or null.
fn language(object: &Map<String, Value>) -> Result<Option<String>, String> {
    match object.get("language") {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(language)) if language.trim().is_empty() => {
            Err("Field 'language' must not be empty".to_string())
        }
        Some(Value::String(language)) => Ok(Some(language.trim().to_string())),
        Some(_) => Err("Field 'language' must be a string, such as \"de\"".to_string()),
    }
}

fn object(body: &[u8]) -> Result<Map<String, Value>, String> {
    match serde_json::from_slice::<Value>(body) {
        Ok(Value::Object(object)) => Ok(object),
        Ok(_) => Err("The body must be a JSON object".to_string()),
        Err(error) => Err(format!("The body is not valid JSON: {error}")),
    }
}

fn texts(object: &Map<String, Value>) -> Result<Vec<String>, String> {
    let items = match object.get("texts") {
        None | Some(Value::Null) => return Err("Field 'texts' is required".to_string()),
        Some(Value::Array(items)) => items,
        Some(_) => return Err("Field 'texts' must be an array of strings".to_string()),
    };
    if items.is_empty() {
        return Err("Field 'texts' must hold at least one text".to_string());
    }
    if items.len() > MAX_TEXTS {
        return Err(format!("Field 'texts' holds {} texts; at most {MAX_TEXTS} are allowed", items.len()));
    }
    items
        .iter()
        .enumerate()
        .map(|(index, item)| match item {
            Value::String(text) => Ok(text.clone()),
            _ => Err(format!("Field 'texts[{index}]' must be a string")),
        })
        .collect()
}

/// `GET /health`'s body.
#[derive(Debug, Serialize)]
pub struct Health<'a> {
    pub status: &'static str,
    pub detection: &'a [&'static str],
    pub correction: &'a [&'static str],
    /// The languages `/ocr` reads (an installed Tesseract pack serves them).
    pub ocr: &'a [&'static str],
    /// Whether Poppler's `pdftotext` is installed (`/pdf/read` and `/pdf/write` answer 503 otherwise).
    pub pdf: bool,
}

/// `POST /pdf/write`'s body: the translated PDF, base64.
#[derive(Debug, Serialize)]
pub struct PdfWriteResponse {
    pub pdf: String,
}

/// `POST /ocr`'s body.
#[derive(Debug, Serialize)]
pub struct OcrResponse {
    pub language: &'static str,
    pub width: u32,
    pub height: u32,
    pub paragraphs: Vec<Paragraph>,
}

/// `POST /render`'s body: the painted image, base64, in the format it came in.
#[derive(Debug, Serialize)]
pub struct RenderResponse {
    pub image: String,
}

/// `POST /detect`'s body: one result per text, in order.
#[derive(Debug, Serialize)]
pub struct DetectResponse {
    pub results: Vec<Detection>,
}

/// `POST /correct`'s body: one corrected text per text, in order.
#[derive(Debug, Serialize)]
pub struct CorrectResponse {
    pub texts: Vec<String>,
}

/// Every error's body.
#[derive(Debug, Serialize)]
pub struct ErrorBody<'a> {
    pub message: &'a str,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_valid_requests_and_ignores_unknown_fields() {
        let detect = DetectRequest::parse(br#"{"texts": ["a", ""], "extra": 1}"#);
        assert_eq!(detect, Ok(DetectRequest { texts: vec!["a".to_string(), String::new()], among: None }));
        let among = DetectRequest::parse(br#"{"texts": ["a"], "among": ["EN", " de"]}"#);
        let expected = DetectRequest { texts: vec!["a".to_string()], among: Some(vec!["en".into(), "de".into()]) };
        assert_eq!(among, Ok(expected));
        for (body, message) in [
            (&br#"{"texts": ["a"], "among": []}"#[..], "Field 'among' must be a non-empty array"),
            (br#"{"texts": ["a"], "among": "en"}"#, "Field 'among' must be a non-empty array"),
            (br#"{"texts": ["a"], "among": ["en", 1]}"#, "Field 'among[1]' must be a string"),
        ] {
            assert!(DetectRequest::parse(body).expect_err("refused").starts_with(message));
        }
        let correct = CorrectRequest::parse(br#"{"language": " de ", "texts": ["x"]}"#);
        assert_eq!(correct, Ok(CorrectRequest { language: "de".to_string(), texts: vec!["x".to_string()] }));
    }

    #[test]
    fn refusals_name_the_field_and_the_reason() {
        let too_many = format!(r#"{{"texts": [{}]}}"#, vec!["\"a\""; 51].join(","));
        let cases: [(&[u8], &str); 9] = [
            (b"{", "The body is not valid JSON"),
            (b"[1]", "The body must be a JSON object"),
            (b"{}", "Field 'texts' is required"),
            (br#"{"texts": "a"}"#, "Field 'texts' must be an array of strings"),
            (br#"{"texts": []}"#, "Field 'texts' must hold at least one text"),
            (br#"{"texts": ["a", 3]}"#, "Field 'texts[1]' must be a string"),
            (too_many.as_bytes(), "Field 'texts' holds 51 texts; at most 50 are allowed"),
            (br#"{"texts": null}"#, "Field 'texts' is required"),
            (b"", "The body is not valid JSON"),
        ];
        for (body, expected) in cases {
            let message = DetectRequest::parse(body).expect_err("refused");
            assert!(message.starts_with(expected), "{message}");
        }
        for (body, expected) in [
            (&br#"{"texts": ["a"]}"#[..], "Field 'language' is required"),
            (br#"{"language": 1, "texts": ["a"]}"#, "Field 'language' must be a string"),
            (br#"{"language": " ", "texts": ["a"]}"#, "Field 'language' must not be empty"),
            (br#"{"language": "en"}"#, "Field 'texts' is required"),
        ] {
            let message = CorrectRequest::parse(body).expect_err("refused");
            assert!(message.starts_with(expected), "{message}");
        }
    }

    #[test]
    fn responses_have_the_documented_shapes() {
        let detect = DetectResponse {
            results: vec![
                Detection { language: Some("de"), confidence: 0.5, outside: None },
                Detection { language: None, confidence: 0.0, outside: None },
                Detection {
                    language: Some("en"),
                    confidence: 0.75,
                    outside: Some(crate::detect::Outside { language: "hi", confidence: 0.9 }),
                },
            ],
        };
        assert_eq!(
            serde_json::to_value(&detect).ok(),
            Some(serde_json::json!({"results": [
                {"language": "de", "confidence": 0.5}, {"language": null, "confidence": 0.0},
                {"language": "en", "confidence": 0.75, "outside": {"language": "hi", "confidence": 0.9}},
            ]}))
        );
        let health = Health { status: "ok", detection: &["de", "en"], correction: &["en"], ocr: &["de"], pdf: true };
        assert_eq!(
            serde_json::to_value(&health).ok(),
            Some(serde_json::json!({
                "status": "ok", "detection": ["de", "en"], "correction": ["en"], "ocr": ["de"], "pdf": true
            }))
        );
    }

    #[test]
    fn reads_image_requests() {
        assert_eq!(
            OcrRequest::parse(br#"{"image": "aGk=", "language": " DE "}"#),
            Ok(OcrRequest { image: "aGk=".to_string(), language: Some("de".to_string()) })
        );
        assert_eq!(
            OcrRequest::parse(br#"{"image": "aGk=", "language": null}"#),
            Ok(OcrRequest { image: "aGk=".to_string(), language: None })
        );
        let render = RenderRequest::parse(
            br#"{"image": "aGk=", "language": "de", "paragraphs": [{"text": "Hallo", "lines": [{"left": 1, "top": 2, "width": 3, "height": 4}]}]}"#,
        );
        let expected = RenderRequest {
            image: "aGk=".to_string(),
            language: "de".to_string(),
            paragraphs: vec![TextBlock {
                text: "Hallo".to_string(),
                lines: vec![BoxSpec { left: 1, top: 2, width: 3, height: 4 }],
            }],
        };
        assert_eq!(render, Ok(expected));
        for (body, expected) in [
            (&br#"{}"#[..], "Field 'image' is required"),
            (br#"{"image": 5}"#, "Field 'image' must be a string"),
            (br#"{"image": "aGk=", "language": 5}"#, "Field 'language' must be a string"),
        ] {
            let message = OcrRequest::parse(body).expect_err("refused");
            assert!(message.starts_with(expected), "{message}");
        }
        let line = |line: &str| {
            format!(
                r#"{{"image": "aGk=", "language": "de", "paragraphs": [{{"text": "a", "lines": []}}, {{"text": "b", "lines": [{line}]}}]}}"#
            )
        };
        for (body, expected) in [
            (r#"{"image": "aGk=", "paragraphs": []}"#.to_string(), "Field 'language' is required"),
            (r#"{"image": "aGk=", "language": "de"}"#.to_string(), "Field 'paragraphs' is required"),
            (
                r#"{"image": "aGk=", "language": "de", "paragraphs": [{"lines": []}]}"#.to_string(),
                "Field 'paragraphs[0].text' is required",
            ),
            (
                line(r#"{"left": 1, "top": 2, "width": "3", "height": 4}"#),
                "Field 'paragraphs[1].lines[0].width' must be a non-negative integer",
            ),
            (
                line(r#"{"left": -1, "top": 2, "width": 3, "height": 4}"#),
                "Field 'paragraphs[1].lines[0].left' must be a non-negative integer",
            ),
            (
                line(r#"{"left": 1.5, "top": 2, "width": 3, "height": 4}"#),
                "Field 'paragraphs[1].lines[0].left' must be a non-negative integer",
            ),
            (line(r#"{"left": 1, "top": 2, "width": 3}"#), "Field 'paragraphs[1].lines[0].height' is required"),
            (line("7"), "Field 'paragraphs[1].lines[0]' must be an object"),
        ] {
            let message = RenderRequest::parse(body.as_bytes()).expect_err("refused");
            assert!(message.starts_with(expected), "{message}");
        }
    }

    #[test]
    fn reads_pdf_ocr_requests() {
        let parsed = PdfOcrRequest::parse(br#"{"pdf": "JVBERi0=", "page": 2, "language": "DE"}"#);
        assert_eq!(parsed, Ok(PdfOcrRequest { pdf: "JVBERi0=".into(), page: 2, language: Some("de".into()) }));
        let parsed = PdfOcrRequest::parse(br#"{"pdf": "JVBERi0=", "page": 1}"#).unwrap();
        assert_eq!(parsed.language, None);
        for (body, expected) in [
            (r#"{"pdf": "JVBERi0="}"#, "Field 'page' is required"),
            (r#"{"pdf": "JVBERi0=", "page": 0}"#, "Field 'page' must be a page number, counted from 1"),
            (r#"{"pdf": "JVBERi0=", "page": "1"}"#, "Field 'page' must be a page number, counted from 1"),
            (r#"{"pdf": "JVBERi0=", "page": 1.5}"#, "Field 'page' must be a page number, counted from 1"),
            (r#"{"page": 1}"#, "Field 'pdf' is required"),
        ] {
            assert_eq!(PdfOcrRequest::parse(body.as_bytes()), Err(expected.to_string()), "{body}");
        }
    }

    #[test]
    fn reads_pdf_requests() {
        assert_eq!(PdfReadRequest::parse(br#"{"pdf": "JVBERi0="}"#), Ok(PdfReadRequest { pdf: "JVBERi0=".into() }));
        let write = PdfWriteRequest::parse(
            br#"{"pdf": "JVBERi0=", "language": " DE ", "pages": [{"blocks": []}, {"blocks": [
                {"text": "Hallo", "x_min": 1, "y_min": 2.5, "x_max": 30, "y_max": 14, "font_size": 12}]}]}"#,
        );
        let block =
            BlockText { text: "Hallo".into(), x_min: 1.0, y_min: 2.5, x_max: 30.0, y_max: 14.0, font_size: 12.0 };
        let expected = PdfWriteRequest {
            pdf: "JVBERi0=".into(),
            language: "de".into(),
            pages: vec![PageText { blocks: vec![], covers: vec![] }, PageText { blocks: vec![block], covers: vec![] }],
        };
        assert_eq!(write, Ok(expected));
        let block = |block: &str| {
            format!(r#"{{"pdf": "JVBERi0=", "language": "de", "pages": [{{"blocks": []}}, {{"blocks": [{block}]}}]}}"#)
        };
        for (body, expected) in [
            (r#"{}"#.to_string(), "Field 'language' is required"),
            (r#"{"language": "de"}"#.to_string(), "Field 'pages' is required"),
            (r#"{"language": "de", "pages": {}}"#.to_string(), "Field 'pages' must be an array"),
            (r#"{"language": "de", "pages": []}"#.to_string(), "Field 'pdf' is required"),
            (r#"{"language": "de", "pages": [], "pdf": 3}"#.to_string(), "Field 'pdf' must be a string"),
            (r#"{"language": "de", "pages": [3]}"#.to_string(), "Field 'pages[0]' must be an object"),
            (r#"{"language": "de", "pages": [{}]}"#.to_string(), "Field 'pages[0].blocks' is required"),
            (block("1"), "Field 'pages[1].blocks[0]' must be an object"),
            (block(r#"{"x_min": 1}"#), "Field 'pages[1].blocks[0].text' is required"),
            (
                block(r#"{"text": "a", "x_min": "1", "y_min": 2, "x_max": 3, "y_max": 4, "font_size": 5}"#),
                "Field 'pages[1].blocks[0].x_min' must be a number",
            ),
            (
                block(r#"{"text": "a", "x_min": 1, "y_min": 2, "x_max": 1e39, "y_max": 4, "font_size": 5}"#),
                "Field 'pages[1].blocks[0].x_max' must be a number",
            ),
            (
                block(r#"{"text": "a", "x_min": 1, "y_min": 2, "x_max": 3, "font_size": 5}"#),
                "Field 'pages[1].blocks[0].y_max' is required",
            ),
            (
                block(r#"{"text": "a", "x_min": 1, "y_min": 2, "x_max": 3, "y_max": 4, "font_size": 0}"#),
                "Field 'pages[1].blocks[0].font_size' must be a positive number",
            ),
        ] {
            let message = PdfWriteRequest::parse(body.as_bytes()).expect_err("refused");
            assert!(message.starts_with(expected), "{message}");
        }
    }
}
