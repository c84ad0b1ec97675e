//! `POST /pdf/images`: the pictures of a PDF, for a translation written as another kind of document
//! (a PDF translated into a Word document keeps its pictures). A module of the server (`server.rs`
//! declares it), as its handler shares the server's errors, worker pool and answers.
//!
//! The body is `/pdf/read`'s, `{"pdf": "<base64>"}`; the answer `{"images": [{"page": 0, "x_min": 56.7,
//! "y_min": 98.0, "x_max": 146.7, "y_max": 158.0, "format": "png", "data": "<base64>"}, ...]}`, page by
//! page in the order they are drawn, boxes in points from the page's top-left corner, as
//! `pdf_document::images` extracts them (Poppler in bounded child processes; at most
//! [`pdf_document::MAX_IMAGES_BYTES`] of pictures, none smaller than [`pdf_document::MIN_IMAGE_PIXELS`]
//! on a side). Refusals are `/pdf/read`'s: 400 for a file that is not a readable PDF, 422 for one too
//! slow to read, 503 without Poppler.

use std::sync::Arc;

use bytes::Bytes;
use http_body_util::Full;
use hyper::{Response, StatusCode};
use serde::Serialize;

use super::{App, RequestError, json, pdf_error, poppler_pdf, run_blocking};
use crate::protocol::PdfReadRequest;

/// `POST /pdf/images`'s answer.
#[derive(Debug, Serialize)]
pub struct PdfImagesResponse {
    pub images: Vec<pdf_document::PageImage>,
}

/// `POST /pdf/images`: the PDF's pictures with their boxes.
pub(super) async fn pdf_images(app: &Arc<App>, body: Bytes) -> Result<Response<Full<Bytes>>, RequestError> {
    let PdfReadRequest { pdf } = PdfReadRequest::parse(&body).map_err(RequestError::BadRequest)?;
    drop(body);
    let bytes = poppler_pdf(app, pdf)?;
    let images = run_blocking(app, move |_| pdf_document::images(&bytes, &pdf_document::Limits::default()))
        .await?
        .map_err(pdf_error)?;
    Ok(json(StatusCode::OK, &PdfImagesResponse { images }))
}

#[cfg(test)]
mod tests {
    use base64::Engine;
    use base64::engine::general_purpose::STANDARD;
    use http_body_util::BodyExt;
    use hyper::header::{self, HeaderValue};
    use hyper::{Method, Request};
    use lopdf::content::{Content, Operation};
    use lopdf::{Document, Object, Stream, dictionary};
    use serde_json::{Value, json};

    use super::super::{ServerConfig, handle};
    use super::*;

    const SECRET: &str = "test-secret";

    async fn post(app: Arc<App>, secret: Option<&str>, body: String) -> (StatusCode, Value) {
        let mut request = Request::builder().method(Method::POST).uri("/pdf/images");
        if let Some(secret) = secret {
            request =
                request.header(header::AUTHORIZATION, HeaderValue::from_str(&format!("Bearer {secret}")).unwrap());
        }
        let response = handle(app, request.body(Full::new(Bytes::from(body))).unwrap()).await;
        let status = response.status();
        let bytes = response.into_body().collect().await.expect("a body").to_bytes();
        (status, serde_json::from_slice(&bytes).expect("JSON"))
    }

    /// A JPEG of `width`×`height` pixels made by ImageMagick.
    fn jpeg(width: u32, height: u32) -> Vec<u8> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("picture.jpg");
        let status = std::process::Command::new("convert")
            .args(["-size", &format!("{width}x{height}"), "gradient:red-blue"])
            .arg(&path)
            .status()
            .expect("ImageMagick's convert is needed: apt-get install imagemagick");
        assert!(status.success());
        std::fs::read(path).unwrap()
    }

    /// An A4 page (595×842 points) drawing `picture`, a JPEG of 120×80 pixels, as 90×60 points with
    /// its top-left corner 100 points from the left and 82 from the top, written by lopdf.
    fn pdf_with_a_picture(picture: Vec<u8>) -> Vec<u8> {
        let mut document = Document::with_version("1.5");
        let pages_id = document.new_object_id();
        let image = Stream::new(
            dictionary! {
                "Type" => "XObject", "Subtype" => "Image", "Width" => 120, "Height" => 80,
                "ColorSpace" => "DeviceRGB", "BitsPerComponent" => 8, "Filter" => "DCTDecode",
            },
            picture,
        );
        let image_id = document.add_object(image);
        let operations = vec![
            Operation::new("q", vec![]),
            Operation::new("cm", vec![90.into(), 0.into(), 0.into(), 60.into(), 100.into(), 700.into()]),
            Operation::new("Do", vec![Object::Name(b"Im1".to_vec())]),
            Operation::new("Q", vec![]),
        ];
        let content = Content { operations }.encode().unwrap();
        let content_id = document.add_object(Stream::new(dictionary! {}, content));
        let page_id = document.add_object(dictionary! {
            "Type" => "Page", "Parent" => pages_id, "Contents" => content_id,
            "MediaBox" => vec![0.into(), 0.into(), 595.into(), 842.into()],
            "Resources" => dictionary! { "XObject" => dictionary! { "Im1" => image_id } },
        });
        document.objects.insert(
            pages_id,
            Object::Dictionary(dictionary! { "Type" => "Pages", "Kids" => vec![page_id.into()], "Count" => 1 }),
        );
        let catalog_id = document.add_object(dictionary! { "Type" => "Catalog", "Pages" => pages_id });
        document.trailer.set("Root", catalog_id);
        let mut bytes = Vec::new();
        document.save_to(&mut bytes).unwrap();
        bytes
    }

    #[tokio::test]
    async fn answers_each_picture_with_its_page_box_and_file() {
        let app = Arc::new(App::new(crate::testing::tools(), &ServerConfig::new(SECRET.to_string())));
        let picture = jpeg(120, 80);
        let pdf = pdf_with_a_picture(picture.clone());
        let body = json!({"pdf": STANDARD.encode(&pdf)}).to_string();
        let (status, answer) = post(app.clone(), Some(SECRET), body.clone()).await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        let images = answer["images"].as_array().expect("a list");
        assert_eq!(images.len(), 1, "{answer}");
        let image = &images[0];
        assert_eq!(image["page"], 0);
        assert_eq!(image["format"], "jpeg");
        let at = |name: &str| image[name].as_f64().expect("a number");
        assert_eq!([at("x_min"), at("y_min"), at("x_max"), at("y_max")], [100.0, 82.0, 190.0, 142.0]);
        // A JPEG is carried over as it is stored.
        assert_eq!(STANDARD.decode(image["data"].as_str().expect("base64")).unwrap(), picture);

        let (status, _) = post(app.clone(), None, body).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
        let (status, answer) = post(app.clone(), Some(SECRET), json!({"pdf": "%%%"}).to_string()).await;
        assert_eq!(
            (status, answer["message"].as_str()),
            (StatusCode::BAD_REQUEST, Some("Field 'pdf' is not valid base64"))
        );
        let damaged = json!({"pdf": STANDARD.encode(b"%PDF-1.4\nnothing else")}).to_string();
        let (status, answer) = post(app, Some(SECRET), damaged).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{answer}");
        assert!(answer["message"].as_str().is_some_and(|message| message.starts_with("the PDF cannot be read")));
    }
}
