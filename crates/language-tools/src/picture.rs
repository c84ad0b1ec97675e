//! The images `/ocr` and `/render` take: standard base64 of a PNG or JPEG file, recognised by its magic
//! bytes, its size read from the header alone (before anything is decoded, so that a small file claiming a
//! huge image is refused without allocating for it), decoded within limits, and encoded back in its own
//! format.

use std::io::Cursor;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use image::{DynamicImage, ImageFormat, ImageReader, Limits};

/// The most pixels on either side of an image.
pub const MAX_SIDE: u32 = 10_000;
/// The most pixels in an image.
pub const MAX_PIXELS: u64 = 40_000_000;

/// The two formats taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Png,
    Jpeg,
}

impl Kind {
    fn format(self) -> ImageFormat {
        match self {
            Kind::Png => ImageFormat::Png,
            Kind::Jpeg => ImageFormat::Jpeg,
        }
    }
}

/// An image file whose header has been read and whose size is within the limits; not decoded yet.
#[derive(Debug, Clone)]
pub struct Picture {
    pub bytes: Vec<u8>,
    pub kind: Kind,
    pub width: u32,
    pub height: u32,
}

/// Why an image is refused: the message of a 400.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PictureError {
    #[error("Field 'image' is not valid base64")]
    Base64,
    #[error("Field 'image' is neither a PNG nor a JPEG image")]
    NotAnImage,
    #[error("Field 'image' cannot be read: {0}")]
    Unreadable(String),
    #[error("The image is {width} × {height} pixels; at most 10,000 pixels per side and 40 megapixels are read")]
    TooLarge { width: u32, height: u32 },
}

impl Picture {
    /// Reads the base64 text of a PNG or JPEG file: its kind by the magic bytes, its size by the header.
    pub fn from_base64(text: &str) -> Result<Picture, PictureError> {
        // Line breaks are allowed inside the text (MIME-style wrapping); nothing else is.
        let compact: String = text.chars().filter(|c| !matches!(c, '\n' | '\r')).collect();
        let bytes = STANDARD.decode(compact.trim()).map_err(|_| PictureError::Base64)?;
        Picture::from_bytes(bytes)
    }

    /// Reads a PNG or JPEG file: its kind by the magic bytes, its size by the header.
    pub fn from_bytes(bytes: Vec<u8>) -> Result<Picture, PictureError> {
        let kind = if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
            Kind::Png
        } else if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
            Kind::Jpeg
        } else {
            return Err(PictureError::NotAnImage);
        };
        let unreadable = |error: image::ImageError| PictureError::Unreadable(short(&error));
        let header = || ImageReader::with_format(Cursor::new(&bytes[..]), kind.format());
        // A PNG's size is in its first chunk, IHDR: checked before the decoder reads any further.
        if kind == Kind::Png {
            let (width, height) = png_size(&bytes)?;
            check_size(width, height)?;
        }
        // Only the header is read here (a PNG's chunks up to the first image data, a JPEG's segments up to
        // its frame header): no pixel is decoded.
        let (width, height) = header().into_dimensions().map_err(unreadable)?;
        check_size(width, height)?;
        Ok(Picture { bytes, kind, width, height })
    }

    /// Decodes the pixels, with the decoder's own limits as a second guard (the size, and the memory a
    /// decoder may allocate: RGBA at 16 bits per channel of the largest image taken).
    pub fn decode(&self) -> Result<DynamicImage, PictureError> {
        let mut reader = ImageReader::with_format(Cursor::new(&self.bytes[..]), self.kind.format());
        let mut limits = Limits::default();
        limits.max_image_width = Some(MAX_SIDE);
        limits.max_image_height = Some(MAX_SIDE);
        limits.max_alloc = Some(MAX_PIXELS * 8 + (64 << 20));
        reader.limits(limits);
        reader.decode().map_err(|error| PictureError::Unreadable(short(&error)))
    }
}

/// The size a PNG's IHDR chunk declares.
fn png_size(bytes: &[u8]) -> Result<(u32, u32), PictureError> {
    let cut = || PictureError::Unreadable("the PNG header is cut short or damaged".to_string());
    let ihdr = bytes.get(8..24).ok_or_else(cut)?;
    if &ihdr[4..8] != b"IHDR" {
        return Err(cut());
    }
    let number = |range: std::ops::Range<usize>| {
        let mut word = [0u8; 4];
        word.copy_from_slice(&ihdr[range]);
        u32::from_be_bytes(word)
    };
    Ok((number(8..12), number(12..16)))
}

fn check_size(width: u32, height: u32) -> Result<(), PictureError> {
    if width == 0 || height == 0 {
        return Err(PictureError::Unreadable("the image has no pixels".to_string()));
    }
    if width > MAX_SIDE || height > MAX_SIDE || u64::from(width) * u64::from(height) > MAX_PIXELS {
        return Err(PictureError::TooLarge { width, height });
    }
    Ok(())
}

/// Encodes `image` as `kind`: PNG keeps RGB or RGBA (8 bits per channel), JPEG is RGB at quality 90.
pub fn encode(image: &DynamicImage, kind: Kind) -> Result<Vec<u8>, image::ImageError> {
    let mut out = Cursor::new(Vec::new());
    match kind {
        Kind::Png => {
            let image = if image.color().has_alpha() {
                DynamicImage::ImageRgba8(image.to_rgba8())
            } else {
                DynamicImage::ImageRgb8(image.to_rgb8())
            };
            image.write_to(&mut out, ImageFormat::Png)?;
        }
        Kind::Jpeg => {
            let rgb = image.to_rgb8();
            image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, 90).encode_image(&rgb)?;
        }
    }
    Ok(out.into_inner())
}

/// Standard base64 of `bytes`.
pub fn to_base64(bytes: &[u8]) -> String {
    STANDARD.encode(bytes)
}

/// A decoder's error in a few words, without a path (there is none: images are read from memory).
fn short(error: &image::ImageError) -> String {
    let text = error.to_string();
    let text = text.lines().next().unwrap_or("").trim();
    let mut short: String = text.chars().take(160).collect();
    if short.is_empty() {
        short = "the file is damaged".to_string();
    }
    short
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A PNG file of `width` × `height` whose header is valid but whose pixel data is absent: enough for
    /// the header checks, and a bomb when it claims a huge size.
    pub fn png_header(width: u32, height: u32) -> Vec<u8> {
        let mut bytes = b"\x89PNG\r\n\x1a\n".to_vec();
        let mut ihdr = b"IHDR".to_vec();
        ihdr.extend(width.to_be_bytes());
        ihdr.extend(height.to_be_bytes());
        ihdr.extend([8, 2, 0, 0, 0]);
        bytes.extend(13u32.to_be_bytes());
        bytes.extend(&ihdr);
        bytes.extend(crc32(&ihdr).to_be_bytes());
        bytes
    }

    fn crc32(data: &[u8]) -> u32 {
        let mut crc = 0xFFFF_FFFFu32;
        for &byte in data {
            crc ^= u32::from(byte);
            for _ in 0..8 {
                crc = if crc & 1 == 1 { (crc >> 1) ^ 0xEDB8_8320 } else { crc >> 1 };
            }
        }
        !crc
    }

    pub fn sample_png(width: u32, height: u32) -> Vec<u8> {
        let image = DynamicImage::ImageRgb8(image::RgbImage::from_pixel(width, height, image::Rgb([200, 100, 50])));
        encode(&image, Kind::Png).expect("encoded")
    }

    #[test]
    fn a_bomb_header_is_refused_before_decoding() {
        let bomb = png_header(50_000, 50_000);
        assert!(bomb.len() < 100);
        let error = Picture::from_bytes(bomb).expect_err("refused");
        assert_eq!(error, PictureError::TooLarge { width: 50_000, height: 50_000 });
        assert_eq!(
            error.to_string(),
            "The image is 50000 × 50000 pixels; at most 10,000 pixels per side and 40 megapixels are read"
        );
        // Within each side but above 40 megapixels.
        assert!(matches!(Picture::from_bytes(png_header(8_000, 8_000)), Err(PictureError::TooLarge { .. })));
        // A JPEG whose frame header claims 20,000 × 3,000.
        let mut jpeg = encode(&DynamicImage::ImageRgb8(image::RgbImage::new(16, 16)), Kind::Jpeg).expect("encoded");
        let frame = jpeg.windows(2).position(|pair| pair == [0xFF, 0xC0]).expect("a baseline frame header");
        jpeg[frame + 5..frame + 9].copy_from_slice(&[0x0B, 0xB8, 0x4E, 0x20]);
        assert_eq!(Picture::from_bytes(jpeg).err(), Some(PictureError::TooLarge { width: 20_000, height: 3_000 }));
        // A header within the limits and nothing after it: cut short.
        assert!(matches!(Picture::from_bytes(png_header(100, 50)), Err(PictureError::Unreadable(_))));
        assert!(matches!(Picture::from_bytes(png_header(0, 50)), Err(PictureError::Unreadable(_))));
    }

    #[test]
    fn files_that_are_not_images_or_are_cut_short_are_refused() {
        assert_eq!(Picture::from_base64("not base64!").err(), Some(PictureError::Base64));
        assert_eq!(Picture::from_base64(&to_base64(b"GIF89a....")).err(), Some(PictureError::NotAnImage));
        assert_eq!(Picture::from_bytes(Vec::new()).err(), Some(PictureError::NotAnImage));
        let png = sample_png(30, 20);
        let truncated = png[..12].to_vec();
        let error = Picture::from_bytes(truncated).expect_err("refused");
        assert!(matches!(&error, PictureError::Unreadable(_)), "{error:?}");
        assert!(error.to_string().starts_with("Field 'image' cannot be read: "));
        // JPEG magic without a frame header.
        assert!(matches!(Picture::from_bytes(vec![0xFF, 0xD8, 0xFF, 0xE0, 0, 2]), Err(PictureError::Unreadable(_))));
        // Cut after the header: the size is read, the pixels cannot be decoded.
        let cut = Picture::from_bytes(png[..png.len() - 20].to_vec()).expect("the header is whole");
        assert!(matches!(cut.decode(), Err(PictureError::Unreadable(_))));
    }

    #[test]
    fn round_trips_keep_the_format() {
        let png = Picture::from_base64(&to_base64(&sample_png(30, 20))).expect("a PNG");
        assert_eq!((png.kind, png.width, png.height), (Kind::Png, 30, 20));
        let decoded = png.decode().expect("decoded");
        let jpeg = encode(&decoded, Kind::Jpeg).expect("encoded");
        let jpeg = Picture::from_bytes(jpeg).expect("a JPEG");
        assert_eq!((jpeg.kind, jpeg.width, jpeg.height), (Kind::Jpeg, 30, 20));
        let rgba = DynamicImage::ImageRgba8(decoded.to_rgba8());
        let png = Picture::from_bytes(encode(&rgba, Kind::Png).expect("encoded")).expect("a PNG");
        assert!(png.decode().expect("decoded").color().has_alpha());
    }
}
