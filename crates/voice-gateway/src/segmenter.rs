//! Cutting the stream into transcript segments.
//!
//! The segmenter keeps the 16 kHz audio since the last concluded segment. About once per second of new
//! audio the session sends that buffer to the recogniser; of the segments that come back, those that end
//! at least a pause (~700 ms) before the end of the buffer are concluded (a pause followed them): they are
//! sent once and their audio is dropped. The others are tentative and replaced by the next update. When
//! the buffer reaches its limit (~25 s), or the stream ends, everything recognised is concluded.
//! Every time is an offset in the client's input stream, counted in samples, never the wall clock.

use crate::audio::RATE;
use crate::protocol::SourceSegment;

/// Segments the recogniser thinks hold no speech at least this likely are dropped.
const NO_SPEECH_THRESHOLD: f64 = 0.8;

/// The longest window sent to the recogniser (its limit is 60 s).
const MAX_WINDOW_MS: u64 = 55_000;

/// How the segmenter cuts.
#[derive(Debug, Clone)]
pub struct SegmenterConfig {
    /// New audio between two recognitions.
    pub interval_ms: u64,
    /// The silence after a segment that concludes it.
    pub pause_ms: u64,
    /// The buffer length at which everything recognised is concluded.
    pub max_buffer_ms: u64,
    /// Audio kept at the end of a buffer without speech (a word may be starting there).
    pub keep_tail_ms: u64,
}

impl Default for SegmenterConfig {
    fn default() -> SegmenterConfig {
        SegmenterConfig { interval_ms: 1_000, pause_ms: 700, max_buffer_ms: 25_000, keep_tail_ms: 1_000 }
    }
}

/// A segment as the recogniser returns it, times relative to the window sent.
#[derive(Debug, Clone, PartialEq)]
pub struct Recognized {
    pub text: String,
    pub start_ms: u64,
    pub end_ms: u64,
    pub no_speech_probability: f64,
}

/// Audio to recognise: its first sample's index in the stream, and the samples.
#[derive(Debug, Clone)]
pub struct Window {
    pub start_sample: u64,
    pub samples: Vec<i16>,
}

/// What one recognition changed.
#[derive(Debug, Default, PartialEq)]
pub struct Update {
    /// Newly concluded segments (sent once).
    pub concluded: Vec<SourceSegment>,
    /// The current tentative segments.
    pub tentative: Vec<SourceSegment>,
    /// Whether the client should be told (something concluded, or the tentative segments changed).
    pub changed: bool,
}

/// The buffer and what has been sent of it.
#[derive(Debug)]
pub struct Segmenter {
    config: SegmenterConfig,
    buffer: Vec<i16>,
    /// The stream index of `buffer[0]`.
    buffer_start: u64,
    /// How much of the buffer the last window covered.
    sent_len: usize,
    /// The tentative segments last reported.
    tentative: Vec<SourceSegment>,
}

fn samples(ms: u64) -> usize {
    (ms * u64::from(RATE) / 1000) as usize
}

fn millis(samples: u64) -> u64 {
    samples * 1000 / u64::from(RATE)
}

impl Segmenter {
    pub fn new(config: SegmenterConfig) -> Segmenter {
        Segmenter { config, buffer: Vec::new(), buffer_start: 0, sent_len: 0, tentative: Vec::new() }
    }

    /// Appends decoded audio.
    pub fn push(&mut self, audio: &[i16]) {
        self.buffer.extend_from_slice(audio);
    }

    /// Whether enough new audio arrived for another recognition.
    pub fn due(&self) -> bool {
        let new = self.buffer.len().saturating_sub(self.sent_len);
        new > 0 && (new >= samples(self.config.interval_ms) || self.buffer.len() >= samples(self.config.max_buffer_ms))
    }

    /// Whether anything is left to recognise or conclude at the end of the stream.
    pub fn pending(&self) -> bool {
        !self.buffer.is_empty() || !self.tentative.is_empty()
    }

    /// The audio to recognise next: the buffer (at most the recogniser's limit).
    pub fn window(&mut self) -> Window {
        let length = self.buffer.len().min(samples(MAX_WINDOW_MS));
        self.sent_len = length;
        Window { start_sample: self.buffer_start, samples: self.buffer[..length].to_vec() }
    }

    /// Applies the recogniser's answer for `window`; `last` concludes everything (the stream ended).
    pub fn apply(&mut self, window: &Window, language: &str, recognized: &[Recognized], last: bool) -> Update {
        let window_ms = millis(window.samples.len() as u64);
        let forced = last || window.samples.len() >= samples(self.config.max_buffer_ms);
        let speech: Vec<(u64, u64, &str)> = recognized
            .iter()
            .filter(|segment| segment.no_speech_probability < NO_SPEECH_THRESHOLD)
            .filter_map(|segment| {
                let text = segment.text.trim();
                let start = segment.start_ms.min(window_ms);
                let end = segment.end_ms.clamp(start, window_ms);
                (!text.is_empty()).then_some((start, end, text))
            })
            .collect();
        let concluded_count = if forced {
            speech.len()
        } else {
            speech.iter().take_while(|(_, end, _)| end + self.config.pause_ms <= window_ms).count()
        };
        let offset = millis(window.start_sample);
        let segment = |&(start, end, text): &(u64, u64, &str)| SourceSegment {
            language: language.to_string(),
            text: text.to_string(),
            start_time: offset + start,
            end_time: offset + end,
        };
        let concluded: Vec<SourceSegment> = speech[..concluded_count].iter().map(segment).collect();
        let tentative: Vec<SourceSegment> = speech[concluded_count..].iter().map(segment).collect();

        // Drop what is concluded; without speech after it, also all but a short tail of the silence.
        let mut drop_ms = speech[..concluded_count].last().map_or(0, |(_, end, _)| *end);
        if tentative.is_empty() {
            drop_ms = drop_ms.max(window_ms.saturating_sub(self.config.keep_tail_ms));
        }
        let mut drop = samples(drop_ms).min(window.samples.len());
        if last {
            drop = window.samples.len();
        }
        let drop = drop.min(self.buffer.len());
        self.buffer.drain(..drop);
        self.buffer_start += drop as u64;
        self.sent_len = self.sent_len.saturating_sub(drop);

        let changed = !concluded.is_empty() || tentative != self.tentative;
        self.tentative.clone_from(&tentative);
        Update { concluded, tentative, changed }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn recognized(text: &str, start_ms: u64, end_ms: u64) -> Recognized {
        Recognized { text: text.to_string(), start_ms, end_ms, no_speech_probability: 0.1 }
    }

    fn seconds(count: f64) -> Vec<i16> {
        vec![100; (count * 16_000.0) as usize]
    }

    #[test]
    fn recognition_is_due_about_once_per_second_of_new_audio() {
        let mut segmenter = Segmenter::new(SegmenterConfig::default());
        segmenter.push(&seconds(0.5));
        assert!(!segmenter.due());
        segmenter.push(&seconds(0.5));
        assert!(segmenter.due());
        let window = segmenter.window();
        assert_eq!(window.samples.len(), 16_000);
        assert!(!segmenter.due());
        segmenter.push(&seconds(0.9));
        assert!(!segmenter.due());
    }

    #[test]
    fn a_segment_followed_by_a_pause_is_concluded_and_dropped() {
        let mut segmenter = Segmenter::new(SegmenterConfig::default());
        segmenter.push(&seconds(3.0));
        let window = segmenter.window();
        // "Hello" ends 1.2 s before the end of the buffer: concluded. "world" ends 0.3 s before: tentative.
        let update = segmenter.apply(
            &window,
            "en",
            &[recognized("Hello", 200, 1_800), recognized(" world ", 2_000, 2_700)],
            false,
        );
        assert!(update.changed);
        assert_eq!(update.concluded.len(), 1);
        assert_eq!((update.concluded[0].start_time, update.concluded[0].end_time), (200, 1_800));
        assert_eq!(update.tentative[0].text, "world");
        assert_eq!((update.tentative[0].start_time, update.tentative[0].end_time), (2_000, 2_700));

        // The next window starts at 1.8 s, and its times are offsets in the stream.
        segmenter.push(&seconds(1.0));
        assert!(segmenter.due());
        let window = segmenter.window();
        assert_eq!(window.start_sample, 1_800 * 16);
        assert_eq!(window.samples.len(), (4_000 - 1_800) * 16);
        let update = segmenter.apply(&window, "en", &[recognized("world", 200, 900)], false);
        assert_eq!(update.concluded[0].start_time, 2_000);
        assert_eq!(update.concluded[0].end_time, 2_700);
        assert!(update.tentative.is_empty());
    }

    #[test]
    fn an_unchanged_tentative_segment_is_not_sent_again() {
        let mut segmenter = Segmenter::new(SegmenterConfig::default());
        segmenter.push(&seconds(1.0));
        let window = segmenter.window();
        let first = segmenter.apply(&window, "en", &[recognized("Hel", 100, 900)], false);
        assert!(first.changed && first.concluded.is_empty());
        segmenter.push(&seconds(0.2));
        let window = segmenter.window();
        let second = segmenter.apply(&window, "en", &[recognized("Hel", 100, 900)], false);
        assert!(!second.changed);
    }

    #[test]
    fn a_full_buffer_concludes_everything() {
        let mut segmenter = Segmenter::new(SegmenterConfig::default());
        segmenter.push(&seconds(25.0));
        let window = segmenter.window();
        let update = segmenter.apply(&window, "de", &[recognized("Lang", 0, 24_900)], false);
        assert_eq!(update.concluded.len(), 1);
        assert!(update.tentative.is_empty());
        assert!(!segmenter.due());
    }

    #[test]
    fn silence_is_dropped_except_a_tail_and_no_speech_segments_are_ignored() {
        let mut segmenter = Segmenter::new(SegmenterConfig::default());
        segmenter.push(&seconds(5.0));
        let window = segmenter.window();
        let noise = Recognized { no_speech_probability: 0.95, ..recognized("Thanks for watching", 0, 5_000) };
        let update = segmenter.apply(&window, "en", &[noise, recognized("  ", 0, 100)], false);
        assert_eq!(update, Update::default());
        segmenter.push(&seconds(1.0));
        let window = segmenter.window();
        assert_eq!(window.start_sample, 4_000 * 16);
    }

    #[test]
    fn the_last_window_concludes_and_empties() {
        let mut segmenter = Segmenter::new(SegmenterConfig::default());
        segmenter.push(&seconds(2.0));
        let window = segmenter.window();
        let update = segmenter.apply(&window, "en", &[recognized("Bye", 1_000, 1_950)], true);
        assert_eq!(update.concluded.len(), 1);
        assert!(!segmenter.pending());
    }

    #[test]
    fn times_beyond_the_window_are_clamped() {
        let mut segmenter = Segmenter::new(SegmenterConfig::default());
        segmenter.push(&seconds(1.0));
        let window = segmenter.window();
        let update = segmenter.apply(&window, "en", &[recognized("x", 900, 4_000)], true);
        assert_eq!((update.concluded[0].start_time, update.concluded[0].end_time), (900, 1_000));
    }
}
