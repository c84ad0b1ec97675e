//! Damaged, encrypted, empty and malicious PDFs end as errors, quickly, without a panic.

mod common;

use std::time::{Duration, Instant};

use common::*;
use lopdf::{EncryptionState, EncryptionVersion, Object, Permissions};
use pdf_document::{BlockText, Fonts, Limits, PageText, PdfError, read, write};

/// Reads `pdf` with the default limits and checks it took less than 10 seconds.
fn read_quickly(pdf: &[u8]) -> Result<pdf_document::Layout, PdfError> {
    let started = Instant::now();
    let result = read(pdf, &Limits::default());
    assert!(started.elapsed() < Duration::from_secs(10), "took {:?}", started.elapsed());
    result
}

#[test]
fn a_truncated_pdf_cannot_be_read() {
    let original = office_pdf();
    let error = read_quickly(&original[..300]).unwrap_err();
    assert!(matches!(error, PdfError::Unreadable(_)), "{error:?}");
    assert_eq!(error.to_string(), "the PDF cannot be read: couldn't find trailer dictionary");
}

#[test]
fn a_pdf_cut_in_half_is_an_error_or_what_poppler_recovers() {
    let original = office_pdf();
    match read_quickly(&original[..original.len() / 2]) {
        Err(error) => assert!(matches!(error, PdfError::Unreadable(_) | PdfError::NoPages), "{error:?}"),
        Ok(layout) => assert!(layout.pages.len() <= 1),
    }
}

#[test]
fn something_else_than_a_pdf_is_refused() {
    let error = read_quickly(b"PK\x03\x04 this is a zip file, not a PDF").unwrap_err();
    assert_eq!(error.to_string(), "the PDF cannot be read: it is not a PDF file");
}

/// The simple PDF encrypted by lopdf (RC4, 128 bits) with `user_password`.
fn encrypted_pdf(user_password: &str) -> Vec<u8> {
    let mut doc = simple_pdf(&[&["Secret text"]]);
    let id = Object::string_literal(b"0123456789abcdef".to_vec());
    doc.trailer.set("ID", vec![id.clone(), id]);
    let version = EncryptionVersion::V2 {
        document: &doc,
        owner_password: "owner",
        user_password,
        key_length: 128,
        permissions: Permissions::all(),
    };
    let state = EncryptionState::try_from(version).unwrap();
    doc.encrypt(&state).unwrap();
    save(&mut doc)
}

#[test]
fn an_encrypted_pdf_without_a_user_password_is_refused() {
    let pdf = encrypted_pdf("");
    assert!(poppler("pdfinfo", &[], &pdf).contains("Encrypted:       yes"), "the fixture is not encrypted");
    let error = read_quickly(&pdf).unwrap_err();
    assert!(matches!(error, PdfError::Encrypted), "{error:?}");
    assert!(error.to_string().starts_with("the PDF is encrypted"));
    let fonts = Fonts::load_default().unwrap();
    let error = write(&pdf, &[PageText { blocks: vec![], covers: vec![] }], &fonts, "de").unwrap_err();
    assert!(matches!(error, PdfError::Encrypted), "{error:?}");
}

#[test]
fn an_encrypted_pdf_with_a_user_password_is_refused() {
    let error = read_quickly(&encrypted_pdf("secret")).unwrap_err();
    assert!(matches!(error, PdfError::Encrypted), "{error:?}");
}

#[test]
fn a_pdf_without_pages_is_refused() {
    let mut doc = simple_pdf(&[]);
    let error = read_quickly(&save(&mut doc)).unwrap_err();
    assert!(matches!(error, PdfError::NoPages | PdfError::Unreadable(_)), "{error:?}");
}

#[test]
fn too_many_pages_are_refused() {
    let mut doc = simple_pdf(&[&["one"], &["two"], &["three"]]);
    let limits = Limits { max_pages: 2, ..Limits::default() };
    let error = read(&save(&mut doc), &limits).unwrap_err();
    assert_eq!(error.to_string(), "the PDF has 3 pages, more than the 2 allowed: split it into smaller files");
}

/// The simple PDF with its page tree's /Kids holding the page tree itself.
fn kids_loop_pdf() -> Vec<u8> {
    let mut doc = simple_pdf(&[&["Loop"]]);
    let pages_id = doc.catalog().unwrap().get(b"Pages").unwrap().as_reference().unwrap();
    let pages = doc.get_dictionary_mut(pages_id).unwrap();
    pages.set("Kids", vec![Object::Reference(pages_id)]);
    save(&mut doc)
}

#[test]
fn a_page_tree_that_contains_itself_is_refused() {
    let error = read_quickly(&kids_loop_pdf()).unwrap_err();
    assert!(matches!(error, PdfError::NoPages | PdfError::Unreadable(_)), "{error:?}");
}

#[test]
fn writing_a_page_tree_that_contains_itself_ends() {
    let started = Instant::now();
    let fonts = Fonts::load_default().unwrap();
    let result = write(&kids_loop_pdf(), &[PageText { blocks: vec![], covers: vec![] }], &fonts, "de");
    assert!(started.elapsed() < Duration::from_secs(10));
    assert!(matches!(result, Err(PdfError::PageCount { given: 1, expected: 0 })), "{result:?}");
}

/// The simple PDF whose page's /Contents is an array holding itself.
fn contents_loop_pdf() -> Vec<u8> {
    let mut doc = simple_pdf(&[&["Loop"]]);
    let page_id = *doc.get_pages().values().next().unwrap();
    let loop_id = doc.new_object_id();
    doc.objects.insert(loop_id, Object::Array(vec![Object::Reference(loop_id)]));
    doc.get_dictionary_mut(page_id).unwrap().set("Contents", loop_id);
    save(&mut doc)
}

#[test]
fn page_contents_that_contain_themselves_end_without_text() {
    // Poppler treats the looping /Contents as an empty page: the file reads, without text.
    let pdf = contents_loop_pdf();
    match read_quickly(&pdf) {
        Ok(layout) => assert!(!layout.has_text(), "{layout:?}"),
        Err(error) => assert!(matches!(error, PdfError::Unreadable(_)), "{error:?}"),
    }
    let fonts = Fonts::load_default().unwrap();
    let block =
        BlockText { text: "Schleife".to_owned(), x_min: 72.0, y_min: 60.0, x_max: 300.0, y_max: 76.0, font_size: 12.0 };
    let started = Instant::now();
    let result = write(&pdf, &[PageText { blocks: vec![block], covers: vec![] }], &fonts, "de");
    assert!(started.elapsed() < Duration::from_secs(10));
    if let Ok(output) = result {
        assert_eq!(extracted_text(&output, None), "Schleife");
    }
}

#[test]
fn a_page_whose_parent_is_itself_is_refused() {
    let mut doc = simple_pdf(&[&["Parent loop"]]);
    let page_id = *doc.get_pages().values().next().unwrap();
    let page = doc.get_dictionary_mut(page_id).unwrap();
    page.set("Parent", page_id);
    page.set("Type", "Pages");
    page.set("Kids", vec![Object::Reference(page_id)]);
    let error = read_quickly(&save(&mut doc)).unwrap_err();
    assert!(matches!(error, PdfError::NoPages | PdfError::Unreadable(_)), "{error:?}");
}

#[test]
fn a_reader_that_runs_too_long_is_killed() {
    let pages: Vec<&[&str]> = vec![&["Slow"]; 50];
    let mut doc = simple_pdf(&pages);
    let limits = Limits { timeout: Duration::from_millis(1), ..Limits::default() };
    let started = Instant::now();
    let error = read(&save(&mut doc), &limits).unwrap_err();
    assert!(started.elapsed() < Duration::from_secs(2));
    assert!(matches!(error, PdfError::TimedOut(1)), "{error:?}");
}

#[test]
fn a_reader_without_enough_memory_fails_cleanly() {
    let limits = Limits { max_memory_bytes: 4 << 20, ..Limits::default() };
    let error = read(office_pdf(), &limits).unwrap_err();
    assert!(matches!(error, PdfError::Unreadable(_)), "{error:?}");
}
