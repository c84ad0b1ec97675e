//! Cutting the stream into transcript segments.
//!
//! The segmenter keeps the 16 kHz audio since the last concluded segment, and watches it arrive with an
//! energy detector (`activity`). While someone speaks, the session sends the buffer to the recogniser
//! about once per second of new audio (less often when recognitions are slow), and what comes back is
//! tentative. When the voice stops (200 ms of
//! silence) the buffer is recognised once more, at once; if the pause lasts (500 ms), that answer, which
//! holds all the speech, is concluded without another recognition: sent once, translated, and its audio
//! dropped. A pause heard without such an answer is recognised and concluded at once. The recogniser's timestamps conclude
//! segments too: a segment that ends a pause before the end of its window was followed by one, even where
//! the detector heard none (in noise). Without voice, the buffer is recognised only every five intervals,
//! for what the detector may have missed. When the buffer reaches its limit (~25 s), or the stream ends,
//! everything recognised is concluded. Every time is an offset in the client's input stream, counted in
//! samples, never the wall clock.

use std::time::Duration;

use crate::activity::{Activity, Pause};
use crate::audio::RATE;
use crate::protocol::SourceSegment;

/// Segments the recogniser thinks hold no speech at least this likely are dropped.
const NO_SPEECH_THRESHOLD: f64 = 0.8;

/// The longest window sent to the recogniser (its limit is 60 s).
const MAX_WINDOW_MS: u64 = 55_000;

/// Silence after voice from which the speaker may be pausing: the buffer is recognised once more, at
/// once, and that answer is concluded without another recognition if the pause lasts.
const HOLD_MS: u64 = 200;

/// Without voice, the buffer is recognised once per this many intervals.
const QUIET_INTERVALS: u64 = 5;

/// The longest interval between tentative recognitions that a slow recogniser brings.
const MAX_PACED_INTERVAL_MS: u64 = 5_000;

/// How the segmenter cuts.
#[derive(Debug, Clone)]
pub struct SegmenterConfig {
    /// New audio between two recognitions while someone speaks.
    pub interval_ms: u64,
    /// The silence after speech that concludes it.
    pub pause_ms: u64,
    /// The buffer length at which everything recognised is concluded.
    pub max_buffer_ms: u64,
    /// Audio kept at the end of a buffer without speech (a word may be starting there).
    pub keep_tail_ms: u64,
}

impl Default for SegmenterConfig {
    fn default() -> SegmenterConfig {
        SegmenterConfig { interval_ms: 1_000, pause_ms: 500, max_buffer_ms: 25_000, keep_tail_ms: 1_000 }
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
    /// It ends in a pause after speech: everything in it is concluded.
    pub at_pause: bool,
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
    /// Where the voice is.
    activity: Activity,
    /// The stream index up to which every voice heard is concluded.
    settled: u64,
    /// The last answer, when its window holds every voice heard so far: concluded as it is if the pause
    /// after that voice lasts.
    held: Option<Held>,
    /// How long recognitions take (a moving average; 0 before the first).
    recognition_ms: u64,
}

/// A recognition kept for a pause to confirm.
#[derive(Debug)]
struct Held {
    window: Window,
    language: String,
    recognized: Vec<Recognized>,
}

fn samples(ms: u64) -> usize {
    (ms * u64::from(RATE) / 1000) as usize
}

fn millis(samples: u64) -> u64 {
    samples * 1000 / u64::from(RATE)
}

/// Whether a window ending at `window_end` holds the voice that ended at `last_voice` and the start of the
/// pause after it.
fn held_all(last_voice: u64, window_end: u64) -> bool {
    last_voice + samples(HOLD_MS) as u64 <= window_end
}

/// Whether a window ending at `end` ends inside `pause`, 200 ms or more after its voice stopped.
fn ends_in(pause: Pause, end: u64) -> bool {
    held_all(pause.voice_end, end) && pause.resume.is_none_or(|resume| end <= resume)
}

impl Segmenter {
    pub fn new(config: SegmenterConfig) -> Segmenter {
        Segmenter {
            buffer: Vec::new(),
            buffer_start: 0,
            sent_len: 0,
            tentative: Vec::new(),
            activity: Activity::new(samples(config.pause_ms) as u64),
            settled: 0,
            held: None,
            recognition_ms: 0,
            config,
        }
    }

    /// Appends decoded audio.
    pub fn push(&mut self, audio: &[i16]) {
        self.buffer.extend_from_slice(audio);
        self.activity.push(audio);
    }

    /// Whether it is time for another recognition: an interval of new speech, the start of a pause (unless
    /// the last window already holds all the speech), a pause that no held answer covers, a full buffer, or
    /// five seconds without voice.
    pub fn due(&self) -> bool {
        let new = self.buffer.len().saturating_sub(self.sent_len);
        if new == 0 {
            return false;
        }
        if self.buffer.len() >= samples(self.config.max_buffer_ms) {
            return true;
        }
        if let Some(pause) = self.open_pause() {
            return !self.held_for(pause);
        }
        match self.silence_after_speech() {
            Some(silence) if silence >= samples(HOLD_MS) => self.held_voice().is_none(),
            Some(_) => new >= samples(self.interval_ms()),
            None => new >= samples(self.interval_ms() * QUIET_INTERVALS),
        }
    }

    /// The audio between two tentative recognitions: the configured interval, or twice the time the
    /// recognitions take when that is longer (at most 5 s), so that guesses keep the recogniser busy at most
    /// half the time and the recognition at the start of a pause seldom waits for one.
    fn interval_ms(&self) -> u64 {
        self.config.interval_ms.max((2 * self.recognition_ms).min(MAX_PACED_INTERVAL_MS))
    }

    /// Records how long a recognition took (a moving average of the last few).
    pub fn recognised_in(&mut self, took: Duration) {
        let took = took.as_millis().min(60_000) as u64;
        self.recognition_ms = if self.recognition_ms == 0 { took } else { (3 * self.recognition_ms + took) / 4 };
    }

    /// The held answer, if its window still holds every voice heard and the start of the pause after it.
    fn held_voice(&self) -> Option<&Held> {
        let last = self.activity.last_voice()?;
        self.held.as_ref().filter(|held| held_all(last, held.window.start_sample + held.window.samples.len() as u64))
    }

    /// The first pause heard after speech that is not concluded yet (it may be over: the recogniser was
    /// busy while it passed).
    fn open_pause(&self) -> Option<Pause> {
        self.activity.pause_after(self.settled)
    }

    /// Where the window of `pause` ends: `pause_ms` into the silence, or where the voice resumed.
    fn pause_cut(&self, pause: Pause) -> u64 {
        let cut = pause.voice_end + samples(self.config.pause_ms) as u64;
        pause.resume.map_or(cut, |resume| cut.min(resume))
    }

    /// Whether the held answer covers `pause`: its window holds the voice before it, the start of the
    /// silence, and no voice after.
    fn held_for(&self, pause: Pause) -> bool {
        self.held
            .as_ref()
            .is_some_and(|held| ends_in(pause, held.window.start_sample + held.window.samples.len() as u64))
    }

    /// Whether a window ending at `end` ends in silence that began at least 200 ms before.
    fn ends_in_silence(&self, end: u64) -> bool {
        let after_last = self.activity.last_voice().is_some_and(|voice| voice > self.settled && held_all(voice, end));
        after_last || self.open_pause().is_some_and(|pause| ends_in(pause, end))
    }

    /// Once a pause lasts that the held answer covers: that answer, concluded.
    pub fn confirm(&mut self) -> Option<(Update, String)> {
        let pause = self.open_pause()?;
        if !self.held_for(pause) {
            return None;
        }
        let Held { mut window, language, recognized } = self.held.take()?;
        window.at_pause = true;
        let update = self.apply(&window, &language, &recognized, false);
        Some((update, language))
    }

    /// The silence (in samples) since voice that is not yet concluded; `None` when there is no such voice.
    fn silence_after_speech(&self) -> Option<usize> {
        let last = self.activity.last_voice()?;
        (last > self.settled).then(|| self.activity.silence_since_voice() as usize)
    }

    /// Whether anything is left to recognise or conclude at the end of the stream.
    pub fn pending(&self) -> bool {
        !self.buffer.is_empty() || !self.tentative.is_empty()
    }

    /// The audio to recognise next: the buffer up to the first open pause, else all of it (at most the
    /// recogniser's limit).
    pub fn window(&mut self) -> Window {
        let (end, at_pause) = match self.open_pause() {
            Some(pause) => (self.pause_cut(pause), true),
            None => (self.buffer_start + self.buffer.len() as u64, false),
        };
        let length =
            (end.saturating_sub(self.buffer_start) as usize).min(self.buffer.len()).min(samples(MAX_WINDOW_MS));
        self.sent_len = length;
        self.held = None;
        Window { start_sample: self.buffer_start, samples: self.buffer[..length].to_vec(), at_pause }
    }

    /// Applies the recogniser's answer for `window`; `last` concludes everything (the stream ended).
    pub fn apply(&mut self, window: &Window, language: &str, recognized: &[Recognized], last: bool) -> Update {
        let window_ms = millis(window.samples.len() as u64);
        let window_end = window.start_sample + window.samples.len() as u64;
        let forced = last || window.at_pause || window.samples.len() >= samples(self.config.max_buffer_ms);
        if forced {
            self.settled = self.settled.max(window_end);
            self.activity.forget_pauses(self.settled);
        }
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
        if last || window.at_pause {
            // Everything in it is concluded, and what follows a pause's window is new.
            drop = window.samples.len();
        }
        let drop = drop.min(self.buffer.len());
        self.buffer.drain(..drop);
        self.buffer_start += drop as u64;
        self.sent_len = self.sent_len.saturating_sub(drop);

        // The window ends 200 ms or more into a silence: what is left of it is held for the pause to confirm.
        if !forced && self.ends_in_silence(window_end) {
            let dropped_ms = millis(drop as u64);
            let recognized = speech[concluded_count..]
                .iter()
                .map(|&(start, end, text)| Recognized {
                    text: text.to_string(),
                    start_ms: start.saturating_sub(dropped_ms),
                    end_ms: end.saturating_sub(dropped_ms),
                    no_speech_probability: 0.0,
                })
                .collect();
            let rest =
                Window { start_sample: self.buffer_start, samples: window.samples[drop..].to_vec(), at_pause: false };
            self.held = Some(Held { window: rest, language: language.to_string(), recognized });
        }

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

    /// Speech: a tone in syllables (its loudness falls to nothing four times a second, as between
    /// syllables), which the energy detector hears as voice however long it lasts.
    fn seconds(count: f64) -> Vec<i16> {
        (0..(count * 16_000.0) as usize)
            .map(|n| {
                let syllables = (n as f64 * std::f64::consts::PI * 4.0 / 16_000.0).sin().abs();
                ((n as f64 * 0.12).sin() * 6_000.0 * syllables) as i16
            })
            .collect()
    }

    fn silence(count: f64) -> Vec<i16> {
        vec![0; (count * 16_000.0) as usize]
    }

    #[test]
    fn recognition_is_due_about_once_per_second_of_new_speech() {
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
    fn a_slow_recogniser_spaces_the_tentative_recognitions() {
        let mut segmenter = Segmenter::new(SegmenterConfig::default());
        segmenter.recognised_in(Duration::from_millis(1_500));
        segmenter.push(&seconds(2.9));
        assert!(!segmenter.due());
        segmenter.push(&seconds(0.1));
        assert!(segmenter.due());
        segmenter.window();
        // A fast one keeps the configured second (the average follows it over a few recognitions).
        for _ in 0..12 {
            segmenter.recognised_in(Duration::from_millis(200));
        }
        segmenter.push(&seconds(1.0));
        assert!(segmenter.due());
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
        segmenter.push(&silence(5.0));
        let window = segmenter.window();
        let noise = Recognized { no_speech_probability: 0.95, ..recognized("Thanks for watching", 0, 5_000) };
        let update = segmenter.apply(&window, "en", &[noise, recognized("  ", 0, 100)], false);
        assert_eq!(update, Update::default());
        segmenter.push(&silence(1.0));
        let window = segmenter.window();
        assert_eq!(window.start_sample, 4_000 * 16);
    }

    #[test]
    fn the_answer_at_the_start_of_a_pause_is_concluded_when_the_pause_lasts() {
        let mut segmenter = Segmenter::new(SegmenterConfig::default());
        segmenter.push(&seconds(1.2));
        assert!(segmenter.due());
        let window = segmenter.window();
        segmenter.apply(&window, "en", &[recognized("Hello", 100, 1_200)], false);
        // 300 ms of silence: the voice stopped, so the buffer is recognised once more, at once.
        segmenter.push(&silence(0.3));
        assert!(segmenter.due());
        let window = segmenter.window();
        assert!(!window.at_pause);
        // The recogniser's timestamp alone keeps it tentative (it ends 100 ms before the window's end).
        let update = segmenter.apply(&window, "en", &[recognized("Hello there", 100, 1_400)], false);
        assert!(update.concluded.is_empty() && update.tentative.len() == 1);
        assert!(!segmenter.due());
        assert!(segmenter.confirm().is_none());
        // The pause lasts: that answer is concluded, without another recognition.
        segmenter.push(&silence(0.2));
        assert!(!segmenter.due());
        let (update, language) = segmenter.confirm().expect("concluded");
        assert_eq!(language, "en");
        assert_eq!(update.concluded.len(), 1);
        assert_eq!(update.concluded[0].text, "Hello there");
        assert_eq!((update.concluded[0].start_time, update.concluded[0].end_time), (100, 1_400));
        assert!(update.tentative.is_empty() && update.changed);
        // The pause is concluded once; more silence is not speech.
        assert!(segmenter.confirm().is_none());
        segmenter.push(&silence(2.0));
        assert!(!segmenter.due());
        // The next words are tentative again until their own pause.
        segmenter.push(&seconds(1.0));
        assert!(segmenter.due());
        assert!(!segmenter.window().at_pause);
    }

    #[test]
    fn speech_that_resumes_drops_the_held_answer() {
        let mut segmenter = Segmenter::new(SegmenterConfig::default());
        segmenter.push(&seconds(1.2));
        segmenter.push(&silence(0.3));
        let window = segmenter.window();
        segmenter.apply(&window, "en", &[recognized("Hello", 100, 1_200)], false);
        segmenter.push(&seconds(0.5));
        segmenter.push(&silence(0.5));
        assert!(segmenter.confirm().is_none());
        // The new pause is recognised with all the speech before it, and concluded at once.
        assert!(segmenter.due());
        let window = segmenter.window();
        assert!(window.at_pause);
        assert_eq!((window.start_sample, window.samples.len()), (0, 2_500 * 16));
        let update = segmenter.apply(&window, "en", &[recognized("Hello again", 100, 1_900)], false);
        assert_eq!(update.concluded.len(), 1);
    }

    #[test]
    fn a_pause_that_passed_while_the_recogniser_was_busy_is_still_concluded_there() {
        let mut segmenter = Segmenter::new(SegmenterConfig::default());
        segmenter.push(&seconds(1.2));
        let busy = segmenter.window();
        // While that window is recognised, a pause passes and the next words begin.
        segmenter.push(&silence(0.8));
        segmenter.push(&seconds(1.0));
        let update = segmenter.apply(&busy, "en", &[recognized("Hello", 100, 1_200)], false);
        assert!(update.concluded.is_empty());
        assert!(segmenter.due());
        let window = segmenter.window();
        assert!(window.at_pause);
        // The window ends 500 ms into the pause, before the next words.
        assert_eq!((window.start_sample, window.samples.len()), (0, 1_700 * 16));
        let update = segmenter.apply(&window, "en", &[recognized("Hello", 100, 1_200)], false);
        assert_eq!(update.concluded.len(), 1);
        // The next words are recognised from the end of that window, tentatively.
        assert!(segmenter.due());
        let next = segmenter.window();
        assert!(!next.at_pause);
        assert_eq!((next.start_sample, next.samples.len()), (1_700 * 16, 1_300 * 16));
    }

    #[test]
    fn a_pause_heard_without_an_answer_is_recognised_and_concluded_at_once() {
        let mut segmenter = Segmenter::new(SegmenterConfig::default());
        segmenter.push(&seconds(1.2));
        segmenter.push(&silence(0.6));
        assert!(segmenter.due());
        let window = segmenter.window();
        assert!(window.at_pause);
        let update = segmenter.apply(&window, "en", &[recognized("Hello", 100, 1_500)], false);
        assert_eq!(update.concluded.len(), 1);
        assert!(!segmenter.due());
        assert!(segmenter.confirm().is_none());
    }

    #[test]
    fn audio_without_voice_is_recognised_every_five_seconds() {
        let mut segmenter = Segmenter::new(SegmenterConfig::default());
        segmenter.push(&silence(4.9));
        assert!(!segmenter.due());
        segmenter.push(&silence(0.1));
        assert!(segmenter.due());
        assert!(!segmenter.window().at_pause);
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
