//! The HTTP protocol's documents: the request bodies of `/detect`, `/correct`, `/ocr` and `/render`, read
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
        let language = match object.get("language") {
            None | Some(Value::Null) => return Err("Field 'language' is required".to_string()),
            Some(Value::String(language)) if language.trim().is_empty() => {
                return Err("Field 'language' must not be empty".to_string());
            }
            Some(Value::String(language)) => language.trim().to_string(),
            Some(_) => return Err("Field 'language' must be a string, such as \"en\"".to_string()),
        };
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
        let language = match object.get("language") {
            None | Some(Value::Null) => None,
            Some(Value::String(language)) if language.trim().is_empty() => {
                return Err("Field 'language' must not be empty".to_string());
            }
            Some(Value::String(language)) => Some(language.trim().to_ascii_lowercase()),
            Some(_) => return Err("Field 'language' must be a string, such as \"de\", or null".to_string()),
        };
        Ok(OcrRequest { image: image(&object)?, language })
    }
}

impl RenderRequest {
    /// Reads the body; `Err` is the message of a 400.
    pub fn parse(body: &[u8]) -> Result<RenderRequest, String> {
        let object = object(body)?;
        let language = match object.get("language") {
            None | Some(Value::Null) => return Err("Field 'language' is required".to_string()),
            Some(Value::String(language)) if language.trim().is_empty() => {
                return Err("Field 'language' must not be empty".to_string());
            }
            Some(Value::String(language)) => language.trim().to_ascii_lowercase(),
            Some(_) => return Err("Field 'language' must be a string, such as \"de\"".to_string()),
        };
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
        let health = Health { status: "ok", detection: &["de", "en"], correction: &["en"], ocr: &["de"] };
        assert_eq!(
            serde_json::to_value(&health).ok(),
            Some(serde_json::json!({"status": "ok", "detection": ["de", "en"], "correction": ["en"], "ocr": ["de"]}))
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
}
