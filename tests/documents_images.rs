//! Component `documents` with images (PNG and JPEG, beta), with the language-tools service
//! running for real (Tesseract's OCR, the translation painted back) and Apertium translating:
//! signs made at test time by ImageMagick are uploaded, read, translated by paragraph and
//! downloaded, and Tesseract reads the translation back from the image, not the source. Images
//! bill nothing. Bad files (a header claiming 50,000 × 50,000 pixels, the wrong type, a file
//! over 3 MiB, a truncated one) are refused at upload or end as `error` with the reason, and a
//! deployment without the language-tools service refuses images with a 503.

use std::path::Path;
use std::process::Command;

use e2e::documents::{
    accepted, app_with_language_tools as app, assert_refused, assert_translated, keyed, spanish_words, upload,
    wait_until_done, wait_until_finished,
};
use e2e::{Json, Options, TestApp};

/// The paragraphs of the sign, as ImageMagick draws them: one line, two lines, one line.
const PARAGRAPHS: [&str; 3] =
    ["The weather is nice today.", "We are going to the beach with our friends.", "Open every day."];

/// A sign with [`PARAGRAPHS`] in dark blue on cream, drawn by ImageMagick into `path` (its type
/// from the extension).
fn sign(path: &Path) -> Vec<u8> {
    let status = Command::new("/usr/bin/convert")
        .args(["-size", "900x300", "xc:#f4f0e0", "-font", "DejaVu-Sans", "-fill", "#202060", "-pointsize", "34"])
        .args(["-annotate", "+30+60", PARAGRAPHS[0]])
        .args(["-annotate", "+30+130", "We are going to the beach"])
        .args(["-annotate", "+30+172", "with our friends."])
        .args(["-pointsize", "30", "-annotate", "+30+250", PARAGRAPHS[2]])
        .arg(path)
        .status()
        .expect("ImageMagick runs (make setup installs it)");
    assert!(status.success(), "ImageMagick made {}", path.display());
    std::fs::read(path).expect("the sign")
}

/// What Tesseract reads on `image` in `language` (its pack's code), lower-cased.
fn tesseract(image: &Path, language: &str) -> String {
    let output = Command::new("tesseract")
        .arg(image)
        .args(["stdout", "-l", language])
        .output()
        .expect("tesseract runs (make setup installs it)");
    assert!(output.status.success(), "tesseract: {}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8_lossy(&output.stdout).to_lowercase()
}

/// A PNG's width and height, from its header.
fn png_size(file: &[u8]) -> (u32, u32) {
    assert!(file.starts_with(b"\x89PNG\r\n\x1a\n"), "a PNG");
    let number = |at: usize| u32::from_be_bytes(file[at..at + 4].try_into().unwrap());
    (number(16), number(20))
}

#[test]
fn signs_made_by_imagemagick_come_back_translated_and_tesseract_reads_the_translation() {
    let app = app();
    let key = app.developer_key();
    let folder = tempfile::tempdir().expect("a temporary folder");
    let png = sign(&folder.path().join("sign.png"));
    let jpeg = sign(&folder.path().join("sign.jpg"));
    let expected = spanish_words(&app, &key, &PARAGRAPHS);
    let before = app.call("GET", "/v2/usage", &key).json();

    // The PNG's language is found by the service; the JPEG's is given.
    let png_doc = accepted(&upload(&app, &key, "sign.png", &png, &[("target_lang", "ES")]), "png");
    let jpeg_doc =
        accepted(&upload(&app, &key, "sign.jpg", &jpeg, &[("source_lang", "EN"), ("target_lang", "ES")]), "jpeg");
    for (doc, name, content_type) in [(&png_doc, "sign.png", "image/png"), (&jpeg_doc, "sign.jpg", "image/jpeg")] {
        let done = wait_until_done(&app, &key, doc, name);
        assert_eq!(done["billed_characters"], 0, "{name}: images bill nothing while in beta: {done}");
        let result = keyed(&app, &format!("/v2/document/{}/result", doc.id), &key, doc);
        assert_eq!(result.status, 200, "{name}: {}", result.text());
        assert_eq!(result.header("content-type"), Some(content_type), "{name}");
        let path = folder.path().join(format!("translated-{name}"));
        std::fs::write(&path, &result.body).expect("saved");
        if name.ends_with(".png") {
            assert_eq!(png_size(&result.body), (900, 300), "the same size");
        } else {
            assert!(result.body.starts_with(&[0xff, 0xd8, 0xff]), "a JPEG comes back a JPEG");
        }
        let english = ["weather", "beach", "friends", "every"];
        assert_translated(&tesseract(&path, "spa"), &expected, &english, &format!("Tesseract on {name}"));
    }
    let after = app.call("GET", "/v2/usage", &key).json();
    assert_eq!(after["character_count"], before["character_count"], "the images added nothing: {after}");
}

/// A PNG header claiming `width` × `height` pixels, with no pixels after it.
fn png_header(width: u32, height: u32) -> Vec<u8> {
    let mut file = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR".to_vec();
    file.extend_from_slice(&width.to_be_bytes());
    file.extend_from_slice(&height.to_be_bytes());
    file.extend_from_slice(&[8, 2, 0, 0, 0, 0, 0, 0, 0]);
    file
}

#[test]
fn bad_images_are_refused_at_upload_or_end_as_error_with_the_reason() {
    let app = app();
    let key = app.developer_key();
    let folder = tempfile::tempdir().expect("a temporary folder");
    let target = [("target_lang", "DE")];

    let bomb = upload(&app, &key, "bomb.png", &png_header(50_000, 50_000), &target);
    assert_refused(&bomb, "a decompression bomb", "50000 × 50000 pixels");
    let jpeg = sign(&folder.path().join("sign.jpg"));
    assert_refused(&upload(&app, &key, "sign.png", &jpeg, &target), "a JPEG named .png", "not a PNG one");
    assert_refused(&upload(&app, &key, "notes.png", b"just text", &target), "text named .png", "not an image");

    let noise = folder.path().join("noise.png");
    let made = Command::new("/usr/bin/convert")
        .args(["-size", "1100x1000", "xc:", "+noise", "Random"])
        .arg(&noise)
        .status()
        .expect("ImageMagick runs");
    assert!(made.success());
    let large = std::fs::read(&noise).expect("the noise");
    assert!(large.len() > 3 * 1024 * 1024, "{} bytes", large.len());
    let too_large = upload(&app, &key, "noise.png", &large, &target);
    assert_eq!(too_large.status, 413, "{}", too_large.text());

    // A header that promises what the file does not hold: only reading it finds out.
    let png = sign(&folder.path().join("sign.png"));
    let truncated = accepted(&upload(&app, &key, "cut.png", &png[..png.len() / 3], &target), "truncated");
    let failed = wait_until_finished(&app, &key, &truncated, "truncated");
    assert_eq!(failed["status"], "error", "{failed}");
    let message = failed["error_message"].as_str().unwrap_or_default();
    assert!(message.starts_with("The document cannot be translated: "), "{failed}");
    let usage: Json = app.call("GET", "/v2/usage", &key).json();
    assert_eq!(usage["character_count"], 0, "nothing billed: {usage}");
}

#[test]
fn without_a_language_tools_service_images_are_refused_with_a_503() {
    let app = TestApp::start(Options::app());
    let key = app.developer_key();
    let reply = upload(&app, &key, "sign.png", &png_header(640, 480), &[("target_lang", "DE")]);
    assert_eq!(reply.status, 503, "{}", reply.text());
    assert_eq!(
        reply.json()["message"],
        "PDFs and images are read and written by the language-tools service, which this deployment does not run."
    );
}
