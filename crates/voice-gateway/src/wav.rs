//! A WAV file of the gateway's audio: the canonical 44-byte RIFF header (one `fmt ` chunk for integer
//! PCM, then the `data` chunk) and the 16-bit little-endian mono samples.
//!
//! Written by hand: the header is eleven fixed fields, and the format never changes (16 kHz, mono,
//! 16 bits), so a crate would add a dependency for less code than its call sites.

use crate::audio::RATE;

/// The size of the header before the samples.
pub const HEADER_BYTES: usize = 44;

/// The header of a WAV file holding `sample_count` 16-bit mono samples at `rate` Hz.
///
/// The RIFF sizes are 32-bit: a length beyond them (over 18 hours at 16 kHz) is written as the largest
/// one, which readers treat as "to the end of the file".
pub fn header(sample_count: usize, rate: u32) -> [u8; HEADER_BYTES] {
    const CHANNELS: u16 = 1;
    const BITS: u16 = 16;
    let block_align = CHANNELS * BITS / 8;
    let data_bytes = u32::try_from(sample_count.saturating_mul(usize::from(block_align))).unwrap_or(u32::MAX - 36);
    let data_bytes = data_bytes.min(u32::MAX - 36);
    let mut header = [0u8; HEADER_BYTES];
    let fields: [&[u8]; 13] = [
        b"RIFF",
        &(36 + data_bytes).to_le_bytes(), // the RIFF chunk's size: everything after this field
        b"WAVE",
        b"fmt ",
        &16u32.to_le_bytes(), // the fmt chunk's size
        &1u16.to_le_bytes(),  // WAVE_FORMAT_PCM
        &CHANNELS.to_le_bytes(),
        &rate.to_le_bytes(),
        &(rate * u32::from(block_align)).to_le_bytes(), // bytes per second
        &block_align.to_le_bytes(),
        &BITS.to_le_bytes(),
        b"data",
        &data_bytes.to_le_bytes(),
    ];
    let mut at = 0;
    for field in fields {
        header[at..at + field.len()].copy_from_slice(field);
        at += field.len();
    }
    debug_assert_eq!(at, HEADER_BYTES);
    header
}

/// A whole WAV file of 16 kHz mono samples.
pub fn file(samples: &[i16]) -> Vec<u8> {
    let mut file = Vec::with_capacity(HEADER_BYTES + samples.len() * 2);
    file.extend_from_slice(&header(samples.len(), RATE));
    for sample in samples {
        file.extend_from_slice(&sample.to_le_bytes());
    }
    file
}

#[cfg(test)]
mod tests {
    use super::*;

    fn u16_at(bytes: &[u8], at: usize) -> u16 {
        u16::from_le_bytes([bytes[at], bytes[at + 1]])
    }

    fn u32_at(bytes: &[u8], at: usize) -> u32 {
        u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
    }

    /// The canonical layout, field by field, at the offsets the RIFF/WAVE specification gives.
    #[test]
    fn the_header_has_every_field_of_the_canonical_layout() {
        let header = header(16_000, 16_000);
        assert_eq!(&header[0..4], b"RIFF");
        assert_eq!(u32_at(&header, 4), 36 + 32_000, "RIFF size: the file's length minus 8");
        assert_eq!(&header[8..12], b"WAVE");
        assert_eq!(&header[12..16], b"fmt ");
        assert_eq!(u32_at(&header, 16), 16, "fmt chunk size for PCM");
        assert_eq!(u16_at(&header, 20), 1, "WAVE_FORMAT_PCM");
        assert_eq!(u16_at(&header, 22), 1, "channels");
        assert_eq!(u32_at(&header, 24), 16_000, "sample rate");
        assert_eq!(u32_at(&header, 28), 32_000, "byte rate = rate × block align");
        assert_eq!(u16_at(&header, 32), 2, "block align = channels × bits / 8");
        assert_eq!(u16_at(&header, 34), 16, "bits per sample");
        assert_eq!(&header[36..40], b"data");
        assert_eq!(u32_at(&header, 40), 32_000, "data size in bytes");
    }

    #[test]
    fn the_rate_goes_into_both_rate_fields() {
        let header = header(3, 8_000);
        assert_eq!(u32_at(&header, 24), 8_000);
        assert_eq!(u32_at(&header, 28), 16_000);
        assert_eq!(u32_at(&header, 40), 6);
        assert_eq!(u32_at(&header, 4), 42);
    }

    #[test]
    fn an_empty_file_is_a_valid_header_alone() {
        let file = file(&[]);
        assert_eq!(file.len(), HEADER_BYTES);
        assert_eq!(u32_at(&file, 4), 36);
        assert_eq!(u32_at(&file, 40), 0);
    }

    #[test]
    fn the_samples_follow_the_header_little_endian() {
        let file = file(&[1, -2, i16::MAX, i16::MIN]);
        assert_eq!(file.len(), HEADER_BYTES + 8);
        assert_eq!(u32_at(&file, 4) as usize, file.len() - 8);
        assert_eq!(u32_at(&file, 40) as usize, file.len() - HEADER_BYTES);
        assert_eq!(&file[HEADER_BYTES..], &[0x01, 0x00, 0xfe, 0xff, 0xff, 0x7f, 0x00, 0x80]);
        assert_eq!(u32_at(&file, 24), RATE);
    }

    #[test]
    fn sizes_beyond_32_bits_are_capped_not_wrapped() {
        let header = header(usize::MAX / 4, 16_000);
        assert_eq!(u32_at(&header, 4), u32::MAX);
        assert_eq!(u32_at(&header, 40), u32::MAX - 36);
    }
}
