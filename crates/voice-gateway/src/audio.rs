//! The source media formats, and decoding the raw ones in-process.
//!
//! PCM (s16le at 8, 16, 44.1 or 48 kHz) and G.711 (A-law, µ-law at 8 kHz) are decoded here: G.711 through
//! a 256-entry table per law, and every rate but 16 kHz resampled to the recogniser's 16 kHz by rubato's
//! synchronous FFT resampler (band-limited, so 48 kHz speech does not alias into the speech band; its
//! fixed delay is trimmed so that sample n of the output is time n/16000 s of the input). Every other
//! format of the API goes through ffmpeg (`ffmpeg.rs`).

use rubato::audioadapter_buffers::direct::InterleavedSlice;
use rubato::audioadapter_buffers::owned::InterleavedOwned;
use rubato::{Fft, FixedSync, Resampler};

/// The recogniser's sample rate: every decoder produces mono s16 samples at this rate.
pub const RATE: u32 = 16_000;

/// The session's source media format.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SourceFormat {
    /// Raw samples, decoded in-process.
    Pcm { encoding: PcmEncoding, rate: u32 },
    /// A container or codec ffmpeg decodes: the demuxer to force, or `None` to let ffmpeg probe.
    Ffmpeg { demuxer: Option<&'static str> },
}

/// How raw samples are encoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PcmEncoding {
    S16le,
    Alaw,
    Ulaw,
}

impl PcmEncoding {
    /// Bytes per (mono) frame.
    pub fn frame_bytes(self) -> usize {
        match self {
            PcmEncoding::S16le => 2,
            PcmEncoding::Alaw | PcmEncoding::Ulaw => 1,
        }
    }
}

impl SourceFormat {
    /// The format a `source_media_content_type` names, or `None` for one the API does not list.
    /// Parameters may come in any order and case, with or without spaces.
    pub fn parse(content_type: &str) -> Option<SourceFormat> {
        let lower = content_type.to_ascii_lowercase();
        let mut parts = lower.split(';').map(str::trim);
        let essence = parts.next()?;
        let mut encoding = None;
        let mut rate = None;
        let mut codecs = None;
        for parameter in parts.filter(|part| !part.is_empty()) {
            let (name, value) = parameter.split_once('=')?;
            let value = value.trim().trim_matches('"');
            match name.trim() {
                "encoding" if encoding.is_none() => encoding = Some(value.to_string()),
                "rate" if rate.is_none() => rate = Some(value.parse::<u32>().ok()?),
                "codecs" if codecs.is_none() => codecs = Some(value.to_string()),
                _ => return None,
            }
        }
        if essence == "audio/pcm" {
            if codecs.is_some() {
                return None;
            }
            let encoding = match encoding?.as_str() {
                "s16le" => PcmEncoding::S16le,
                "alaw" => PcmEncoding::Alaw,
                "ulaw" => PcmEncoding::Ulaw,
                _ => return None,
            };
            let rate = rate?;
            let allowed = match encoding {
                PcmEncoding::S16le => [8_000, 16_000, 44_100, 48_000].contains(&rate),
                PcmEncoding::Alaw | PcmEncoding::Ulaw => rate == 8_000,
            };
            return allowed.then_some(SourceFormat::Pcm { encoding, rate });
        }
        if encoding.is_some() || rate.is_some() {
            return None;
        }
        let codecs = codecs.as_deref();
        let demuxer = match (essence, codecs) {
            ("audio/auto", None) => None,
            ("audio/flac", None) => Some("flac"),
            ("audio/mpeg", None) => Some("mp3"),
            ("audio/ogg", None | Some("flac" | "opus")) => Some("ogg"),
            ("audio/webm", None | Some("opus")) => Some("matroska"),
            ("audio/x-matroska", None | Some("aac" | "flac" | "mp3" | "opus")) => Some("matroska"),
            _ => return None,
        };
        Some(SourceFormat::Ffmpeg { demuxer })
    }
}

/// A-law byte → linear sample (ITU-T G.711).
const fn alaw_to_linear(byte: u8) -> i16 {
    let value = byte ^ 0x55;
    let mut sample = ((value & 0x0f) as i16) << 4;
    let segment = (value & 0x70) >> 4;
    match segment {
        0 => sample += 8,
        1 => sample += 0x108,
        _ => {
            sample += 0x108;
            sample <<= segment - 1;
        }
    }
    if value & 0x80 != 0 { sample } else { -sample }
}

/// µ-law byte → linear sample (ITU-T G.711).
const fn ulaw_to_linear(byte: u8) -> i16 {
    let value = !byte;
    let mut sample = (((value & 0x0f) as i16) << 3) + 0x84;
    sample <<= (value & 0x70) >> 4;
    if value & 0x80 != 0 { 0x84 - sample } else { sample - 0x84 }
}

/// Every byte's sample under one law (`alaw`: A-law, else µ-law), built at compile time.
const fn table(alaw: bool) -> [i16; 256] {
    let mut table = [0i16; 256];
    let mut index = 0;
    while index < 256 {
        table[index] = if alaw { alaw_to_linear(index as u8) } else { ulaw_to_linear(index as u8) };
        index += 1;
    }
    table
}

/// G.711 A-law, every byte's sample.
static ALAW: [i16; 256] = table(true);
/// G.711 µ-law, every byte's sample.
static ULAW: [i16; 256] = table(false);

/// Decodes raw chunks to 16 kHz samples. Chunks must hold whole frames (the session checks).
pub struct PcmDecoder {
    encoding: PcmEncoding,
    resampler: Option<StreamResampler>,
}

impl PcmDecoder {
    pub fn new(encoding: PcmEncoding, rate: u32) -> Result<PcmDecoder, String> {
        let resampler = if rate == RATE { None } else { Some(StreamResampler::new(rate)?) };
        Ok(PcmDecoder { encoding, resampler })
    }

    /// The 16 kHz samples of one chunk (a resampler holds some back until the next chunk or `finish`).
    pub fn decode(&mut self, bytes: &[u8]) -> Result<Vec<i16>, String> {
        let samples: Vec<i16> = match self.encoding {
            PcmEncoding::S16le => bytes.chunks_exact(2).map(|pair| i16::from_le_bytes([pair[0], pair[1]])).collect(),
            PcmEncoding::Alaw => bytes.iter().map(|&byte| ALAW[usize::from(byte)]).collect(),
            PcmEncoding::Ulaw => bytes.iter().map(|&byte| ULAW[usize::from(byte)]).collect(),
        };
        match &mut self.resampler {
            None => Ok(samples),
            Some(resampler) => resampler.push(&samples),
        }
    }

    /// The samples still held back, at the end of the stream.
    pub fn finish(&mut self) -> Result<Vec<i16>, String> {
        match &mut self.resampler {
            None => Ok(Vec::new()),
            Some(resampler) => resampler.finish(),
        }
    }
}

/// A streaming resampler to 16 kHz whose output is aligned with its input: its delay is dropped from the
/// start and the end is padded, so that n input frames give exactly floor(n · 16000 / rate) output frames.
struct StreamResampler {
    rate: u32,
    resampler: Fft<f32>,
    pending: Vec<f32>,
    /// Output frames still to drop: the resampler's delay.
    delay_left: usize,
    input_frames: u64,
    output_frames: u64,
}

impl StreamResampler {
    fn new(rate: u32) -> Result<StreamResampler, String> {
        // 50 ms chunks: small enough for latency, large enough for the FFT to be cheap.
        let chunk = (rate / 20) as usize;
        let resampler = Fft::<f32>::new(rate as usize, RATE as usize, chunk, 1, FixedSync::Input)
            .map_err(|error| format!("cannot resample from {rate} Hz: {error}"))?;
        let delay_left = resampler.output_delay();
        Ok(StreamResampler { rate, resampler, pending: Vec::new(), delay_left, input_frames: 0, output_frames: 0 })
    }

    fn push(&mut self, samples: &[i16]) -> Result<Vec<i16>, String> {
        self.input_frames += samples.len() as u64;
        self.pending.extend(samples.iter().map(|&sample| f32::from(sample) / 32768.0));
        let mut output = Vec::new();
        while self.pending.len() >= self.resampler.input_frames_next() {
            let needed = self.resampler.input_frames_next();
            self.run(needed, needed, &mut output)?;
            self.pending.drain(..needed);
        }
        Ok(self.emit(output, false))
    }

    fn finish(&mut self) -> Result<Vec<i16>, String> {
        let expected = self.input_frames * u64::from(RATE) / u64::from(self.rate);
        let mut output = Vec::new();
        // Feed silence until the delayed tail of the real input has come out.
        let mut rounds = 0;
        while self.output_frames + (output.len() as u64) < expected + self.delay_left as u64 && rounds < 64 {
            let needed = self.resampler.input_frames_next();
            let available = self.pending.len().min(needed);
            self.pending.resize(needed, 0.0);
            self.run(needed, available, &mut output)?;
            self.pending.clear();
            rounds += 1;
        }
        Ok(self.emit(output, true))
    }

    /// Resamples the first `needed` pending frames (of which `available` are real) into `output`.
    fn run(&mut self, needed: usize, available: usize, output: &mut Vec<f32>) -> Result<(), String> {
        let input = InterleavedSlice::new(&self.pending[..needed], 1, needed).map_err(|error| error.to_string())?;
        let mut buffer = InterleavedOwned::new(0.0f32, 1, self.resampler.output_frames_max());
        let indexing = rubato::Indexing {
            input_offset: 0,
            output_offset: 0,
            partial_len: (available < needed).then_some(available),
            active_channels_mask: None,
        };
        let (_, written) = self
            .resampler
            .process_into_buffer(&input, &mut buffer, Some(&indexing))
            .map_err(|error| format!("resampling failed: {error}"))?;
        output.extend_from_slice(&buffer.take_data()[..written]);
        Ok(())
    }

    /// Drops the delay, converts to i16 and, at the end, cuts the output to the input's length.
    fn emit(&mut self, output: Vec<f32>, last: bool) -> Vec<i16> {
        let skip = self.delay_left.min(output.len());
        self.delay_left -= skip;
        let mut samples: Vec<i16> =
            output[skip..].iter().map(|&value| (value * 32768.0).round().clamp(-32768.0, 32767.0) as i16).collect();
        if last {
            let expected = self.input_frames * u64::from(RATE) / u64::from(self.rate);
            let room = expected.saturating_sub(self.output_frames) as usize;
            samples.resize(room, 0);
        }
        self.output_frames += samples.len() as u64;
        samples
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_types_of_the_api_are_recognised() {
        assert_eq!(
            SourceFormat::parse("audio/pcm;encoding=s16le;rate=16000"),
            Some(SourceFormat::Pcm { encoding: PcmEncoding::S16le, rate: 16_000 })
        );
        assert_eq!(
            SourceFormat::parse("audio/pcm; rate=8000; encoding=ulaw"),
            Some(SourceFormat::Pcm { encoding: PcmEncoding::Ulaw, rate: 8_000 })
        );
        assert_eq!(SourceFormat::parse("audio/ogg;codecs=opus"), Some(SourceFormat::Ffmpeg { demuxer: Some("ogg") }));
        assert_eq!(SourceFormat::parse("audio/webm"), Some(SourceFormat::Ffmpeg { demuxer: Some("matroska") }));
        assert_eq!(SourceFormat::parse("audio/mpeg"), Some(SourceFormat::Ffmpeg { demuxer: Some("mp3") }));
        assert_eq!(SourceFormat::parse("audio/auto"), Some(SourceFormat::Ffmpeg { demuxer: None }));
        for refused in [
            "audio/pcm;encoding=s16le;rate=22050",
            "audio/pcm;encoding=alaw;rate=16000",
            "audio/pcm;encoding=s16le",
            "audio/wav",
            "audio/ogg;codecs=vorbis",
            "audio/webm;codecs=opus;rate=8000",
            "video/mp4",
        ] {
            assert_eq!(SourceFormat::parse(refused), None, "{refused}");
        }
    }

    #[test]
    fn g711_tables_match_the_standard() {
        // Known values of G.711: the smallest and largest magnitudes of each law.
        assert_eq!(ALAW[0xd5], 8);
        assert_eq!(ALAW[0x55], -8);
        assert_eq!(ALAW[0xaa], 32256);
        assert_eq!(ALAW[0x2a], -32256);
        assert_eq!(ULAW[0xff], 0);
        assert_eq!(ULAW[0x7f], 0);
        assert_eq!(ULAW[0x80], 32124);
        assert_eq!(ULAW[0x00], -32124);
        // Both laws are monotonic within each sign.
        let ulaw_positive: Vec<i16> = (0x80..=0xffu8).rev().map(|byte| ULAW[usize::from(byte)]).collect();
        assert!(ulaw_positive.windows(2).all(|pair| pair[0] <= pair[1]));
    }

    #[test]
    fn sixteen_khz_pcm_passes_through() {
        let mut decoder = PcmDecoder::new(PcmEncoding::S16le, 16_000).expect("a decoder");
        assert_eq!(decoder.decode(&[1, 0, 0xff, 0xff]), Ok(vec![1, -1]));
        assert_eq!(decoder.finish(), Ok(vec![]));
    }

    /// A 440 Hz tone at 48 kHz comes out at 16 kHz with the input's length, in phase with it.
    #[test]
    fn resampling_keeps_length_and_timing() {
        for rate in [8_000u32, 44_100, 48_000] {
            let total = rate as usize * 3 / 2;
            let tone: Vec<i16> = (0..total)
                .map(|n| ((n as f32 * 440.0 * std::f32::consts::TAU / rate as f32).sin() * 10_000.0) as i16)
                .collect();
            let bytes: Vec<u8> = tone.iter().flat_map(|sample| sample.to_le_bytes()).collect();
            let mut decoder = PcmDecoder::new(PcmEncoding::S16le, rate).expect("a decoder");
            let mut output = Vec::new();
            for chunk in bytes.chunks(rate as usize / 10 * 2 + 6) {
                output.extend(decoder.decode(chunk).expect("decoded"));
            }
            output.extend(decoder.finish().expect("flushed"));
            assert_eq!(output.len(), 24_000, "{rate} Hz");
            // In the middle, the output follows the same sine at 16 kHz.
            for n in (8_000..16_000).step_by(397) {
                let expected = (n as f32 * 440.0 * std::f32::consts::TAU / 16_000.0).sin() * 10_000.0;
                assert!((f32::from(output[n]) - expected).abs() < 600.0, "{rate} Hz, sample {n}: {}", output[n]);
            }
        }
    }
}
