//! A `multipart/form-data` body (RFC 7578): text fields and one file, as an OpenAI-compatible
//! transcription endpoint expects them.
//!
//! Written by hand: hyper has no form encoder, and the body is a handful of parts with names and a file
//! name the gateway chooses. The boundary is random, and checked against the content anyway.

/// One part of the form.
#[derive(Debug, Clone, Copy)]
pub enum Part<'a> {
    /// A text field.
    Text { name: &'a str, value: &'a str },
    /// A file: its field name, file name, content type and bytes.
    File { name: &'a str, filename: &'a str, content_type: &'a str, data: &'a [u8] },
}

impl Part<'_> {
    fn content(&self) -> &[u8] {
        match self {
            Part::Text { value, .. } => value.as_bytes(),
            Part::File { data, .. } => data,
        }
    }
}

/// A body and the `Content-Type` that announces its boundary.
#[derive(Debug)]
pub struct Form {
    pub content_type: String,
    pub body: Vec<u8>,
}

/// A fresh random boundary: 32 hex digits after a fixed prefix (70 characters at most, RFC 2046).
pub fn random_boundary() -> String {
    let mut bytes = [0u8; 16];
    // The OS's random source; should it fail, the content check below still keeps the body valid.
    let _ = getrandom::fill(&mut bytes);
    let hex: String = bytes.iter().map(|byte| format!("{byte:02x}")).collect();
    format!("glossa-form-{hex}")
}

/// The form with `parts` in order. `boundary` is used unless a part's content contains it (then a
/// fresh random one is drawn until none does). Names, file names and content types are the caller's
/// constants: quotes and line breaks in them are replaced, as no field this gateway sends has any.
pub fn form(parts: &[Part<'_>], boundary: String) -> Form {
    let mut boundary = boundary;
    while parts.iter().any(|part| contains(part.content(), boundary.as_bytes())) {
        boundary = random_boundary();
    }
    let clean = |text: &str| text.replace(['"', '\r', '\n'], "_");
    let mut body = Vec::with_capacity(parts.iter().map(|part| part.content().len() + 160).sum::<usize>() + 64);
    for part in parts {
        body.extend_from_slice(format!("--{boundary}\r\n").as_bytes());
        match part {
            Part::Text { name, value } => {
                body.extend_from_slice(
                    format!("Content-Disposition: form-data; name=\"{}\"\r\n\r\n", clean(name)).as_bytes(),
                );
                body.extend_from_slice(value.as_bytes());
            }
            Part::File { name, filename, content_type, data } => {
                body.extend_from_slice(
                    format!(
                        "Content-Disposition: form-data; name=\"{}\"; filename=\"{}\"\r\nContent-Type: {}\r\n\r\n",
                        clean(name),
                        clean(filename),
                        clean(content_type),
                    )
                    .as_bytes(),
                );
                body.extend_from_slice(data);
            }
        }
        body.extend_from_slice(b"\r\n");
    }
    body.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
    Form { content_type: format!("multipart/form-data; boundary={boundary}"), body }
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    !needle.is_empty() && haystack.windows(needle.len()).any(|window| window == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_and_a_file_are_laid_out_as_rfc_7578_says() {
        let form = form(
            &[
                Part::Text { name: "model", value: "whisper-1" },
                Part::File { name: "file", filename: "audio.wav", content_type: "audio/wav", data: b"RIFF\0\x01" },
                Part::Text { name: "timestamp_granularities[]", value: "segment" },
            ],
            "XyZ".to_string(),
        );
        assert_eq!(form.content_type, "multipart/form-data; boundary=XyZ");
        let expected: &[u8] = b"--XyZ\r\n\
            Content-Disposition: form-data; name=\"model\"\r\n\r\n\
            whisper-1\r\n\
            --XyZ\r\n\
            Content-Disposition: form-data; name=\"file\"; filename=\"audio.wav\"\r\n\
            Content-Type: audio/wav\r\n\r\n\
            RIFF\0\x01\r\n\
            --XyZ\r\n\
            Content-Disposition: form-data; name=\"timestamp_granularities[]\"\r\n\r\n\
            segment\r\n\
            --XyZ--\r\n";
        assert_eq!(String::from_utf8_lossy(&form.body), String::from_utf8_lossy(expected));
    }

    #[test]
    fn values_may_hold_line_breaks_and_any_bytes() {
        let form = form(&[Part::Text { name: "prompt", value: "a\r\nb" }], "B".repeat(8));
        let text = String::from_utf8(form.body).expect("text");
        assert!(text.contains("\r\n\r\na\r\nb\r\n--BBBBBBBB--\r\n"), "{text}");
    }

    #[test]
    fn a_boundary_found_in_the_content_is_replaced() {
        let data = b"...--clash...";
        let form = form(&[Part::File { name: "file", filename: "f", content_type: "x/y", data }], "clash".to_string());
        let boundary = form.content_type.strip_prefix("multipart/form-data; boundary=").expect("a boundary");
        assert_ne!(boundary, "clash");
        assert!(boundary.starts_with("glossa-form-"));
        assert!(form.body.starts_with(format!("--{boundary}\r\n").as_bytes()));
        assert!(form.body.ends_with(format!("\r\n--{boundary}--\r\n").as_bytes()));
    }

    #[test]
    fn random_boundaries_are_valid_and_differ() {
        let first = random_boundary();
        let second = random_boundary();
        assert_ne!(first, second);
        assert_eq!(first.len(), "glossa-form-".len() + 32);
        assert!(first.bytes().all(|byte| byte.is_ascii_alphanumeric() || byte == b'-'));
        assert!(first.len() <= 70);
    }

    #[test]
    fn quotes_and_line_breaks_cannot_break_out_of_a_header() {
        let form = form(&[Part::Text { name: "a\"b\r\nc", value: "v" }], "B".to_string());
        let text = String::from_utf8(form.body).expect("text");
        assert!(text.contains("name=\"a_b__c\"\r\n\r\nv"), "{text}");
    }
}
