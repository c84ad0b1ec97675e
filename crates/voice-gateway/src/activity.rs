//! Where the voice is: a frame-energy detector over the 16 kHz stream.
//!
//! The recogniser's own voice-activity filter (whisper's Silero) says where speech is only when asked,
//! about once a second, and whisper's timestamps are coarse. To conclude a segment as soon as the
//! speaker pauses, the segmenter also watches the audio as it arrives: each 20 ms frame is voiced when
//! its RMS level stands 12 dB above the noise floor and above −50 dBFS. The floor follows quiet frames
//! at once and louder ones slowly, so it settles on the level between words. A sound that goes on
//! unchanged (a fan, a hum) becomes the floor: within about a second when it is quiet, within ~10 s
//! when it is loud; until then no pause is seen and the recogniser's timestamps decide alone. The
//! detector only hastens decisions: what it misses, the recogniser still hears.

use std::collections::VecDeque;

use crate::audio::RATE;

/// Samples per analysed frame: 20 ms.
pub const FRAME: usize = RATE as usize / 50;

/// The floor at the start, before any quiet frame was heard: a quiet room (≈ −60 dBFS).
const INITIAL_FLOOR: f64 = 30.0;

/// The lowest RMS level that can be voiced (≈ −50 dBFS).
const MIN_VOICE: f64 = 100.0;

/// How far above the floor a voiced frame stands, in amplitude (12 dB).
const ABOVE_FLOOR: f64 = 4.0;

/// How fast the floor rises towards a louder frame: voiced (~40 s) and unvoiced (~1 s).
const RISE_VOICED: f64 = 0.0005;
const RISE_UNVOICED: f64 = 0.02;

/// A pause heard: where the voice before it ended, and where voice resumed (none yet).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pause {
    pub voice_end: u64,
    pub resume: Option<u64>,
}

/// The detector's state along the stream.
#[derive(Debug)]
pub struct Activity {
    /// The silence after voice that makes a pause, in samples.
    pause: u64,
    /// The pauses heard and not yet forgotten, in stream order.
    pauses: VecDeque<Pause>,
    floor: f64,
    /// Samples of the frame being filled.
    partial: Vec<i16>,
    /// The stream index where the analysed frames end.
    analysed: u64,
    /// The stream index where the last voiced frame ends.
    last_voice: Option<u64>,
}

impl Activity {
    /// A detector that records the silences of at least `pause` samples after voice.
    pub fn new(pause: u64) -> Activity {
        Activity {
            pause: pause.max(1),
            pauses: VecDeque::new(),
            floor: INITIAL_FLOOR,
            partial: Vec::with_capacity(FRAME),
            analysed: 0,
            last_voice: None,
        }
    }

    /// Analyses the samples that follow those already pushed.
    pub fn push(&mut self, mut samples: &[i16]) {
        while !samples.is_empty() {
            let take = (FRAME - self.partial.len()).min(samples.len());
            self.partial.extend_from_slice(&samples[..take]);
            samples = &samples[take..];
            if self.partial.len() == FRAME {
                self.frame();
                self.partial.clear();
            }
        }
    }

    fn frame(&mut self) {
        let energy: f64 = self.partial.iter().map(|&sample| f64::from(sample) * f64::from(sample)).sum();
        let level = (energy / FRAME as f64).sqrt();
        let voiced = level > (self.floor * ABOVE_FLOOR).max(MIN_VOICE);
        if level < self.floor {
            self.floor = level;
        } else {
            self.floor += (level - self.floor) * if voiced { RISE_VOICED } else { RISE_UNVOICED };
        }
        let start = self.analysed;
        self.analysed += FRAME as u64;
        if voiced {
            if let Some(pause) = self.pauses.back_mut().filter(|pause| pause.resume.is_none()) {
                pause.resume = Some(start);
            }
            self.last_voice = Some(self.analysed);
        } else if let Some(voice_end) = self.last_voice
            && start - voice_end < self.pause
            && self.analysed - voice_end >= self.pause
        {
            self.pauses.push_back(Pause { voice_end, resume: None });
        }
    }

    /// The first pause whose voice ended after `after`.
    pub fn pause_after(&self, after: u64) -> Option<Pause> {
        self.pauses.iter().find(|pause| pause.voice_end > after).copied()
    }

    /// Forgets the pauses whose voice ended at or before `upto`.
    pub fn forget_pauses(&mut self, upto: u64) {
        while self.pauses.front().is_some_and(|pause| pause.voice_end <= upto) {
            self.pauses.pop_front();
        }
    }

    /// The stream index where the last voiced frame ends, if any was heard.
    pub fn last_voice(&self) -> Option<u64> {
        self.last_voice
    }

    /// Samples of silence since the last voiced frame, up to the analysed end (0 while voiced).
    pub fn silence_since_voice(&self) -> u64 {
        self.last_voice.map_or(self.analysed, |end| self.analysed - end)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tone(amplitude: f64, milliseconds: u64) -> Vec<i16> {
        let count = milliseconds as usize * RATE as usize / 1000;
        (0..count).map(|n| ((n as f64 * 0.12).sin() * amplitude) as i16).collect()
    }

    fn noise(amplitude: f64, milliseconds: u64, seed: &mut u64) -> Vec<i16> {
        let count = milliseconds as usize * RATE as usize / 1000;
        (0..count)
            .map(|_| {
                // A small linear congruential generator: uniform noise in [-amplitude, amplitude].
                *seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
                ((*seed >> 33) as f64 / f64::from(u32::MAX >> 1) * 2.0 - 1.0) * amplitude
            })
            .map(|value| value as i16)
            .collect()
    }

    #[test]
    fn speech_in_digital_silence_is_found_to_the_frame() {
        let mut activity = Activity::new(8_000);
        activity.push(&tone(0.0, 500));
        assert_eq!(activity.last_voice(), None);
        activity.push(&tone(3_000.0, 1_200));
        activity.push(&tone(0.0, 300));
        assert_eq!(activity.last_voice(), Some(1_700 * 16));
        assert_eq!(activity.silence_since_voice(), 300 * 16);
    }

    #[test]
    fn pauses_are_remembered_with_where_the_voice_resumed() {
        let mut activity = Activity::new(500 * 16);
        activity.push(&tone(3_000.0, 1_000));
        activity.push(&tone(0.0, 300));
        assert_eq!(activity.pause_after(0), None, "300 ms is no pause");
        activity.push(&tone(3_000.0, 1_000));
        activity.push(&tone(0.0, 600));
        assert_eq!(activity.pause_after(0), Some(Pause { voice_end: 2_300 * 16, resume: None }));
        activity.push(&tone(3_000.0, 400));
        activity.push(&tone(0.0, 2_000));
        let first = Pause { voice_end: 2_300 * 16, resume: Some(2_900 * 16) };
        assert_eq!(activity.pause_after(0), Some(first));
        assert_eq!(activity.pause_after(2_300 * 16), Some(Pause { voice_end: 3_300 * 16, resume: None }));
        activity.forget_pauses(2_300 * 16);
        assert_eq!(activity.pause_after(0).map(|pause| pause.voice_end), Some(3_300 * 16));
    }

    #[test]
    fn frames_may_arrive_in_pieces_of_any_size() {
        let mut whole = Activity::new(8_000);
        let mut pieces = Activity::new(8_000);
        let audio = [tone(0.0, 130), tone(2_000.0, 410), tone(0.0, 270)].concat();
        whole.push(&audio);
        for piece in audio.chunks(77) {
            pieces.push(piece);
        }
        assert_eq!(whole.last_voice(), pieces.last_voice());
        assert_eq!(whole.silence_since_voice(), pieces.silence_since_voice());
    }

    #[test]
    fn speech_over_steady_noise_is_found_and_the_noise_is_not_speech() {
        let mut seed = 7;
        let mut activity = Activity::new(8_000);
        // Noise at about −48 dBFS: louder than the initial floor, learnt within a second or two.
        activity.push(&noise(220.0, 3_000, &mut seed));
        assert!(activity.silence_since_voice() >= 1_000 * 16, "the noise is still taken for voice");
        let before = activity.last_voice();
        let speech: Vec<i16> =
            tone(4_000.0, 800).iter().zip(noise(220.0, 800, &mut seed)).map(|(a, b)| a.saturating_add(b)).collect();
        activity.push(&speech);
        activity.push(&noise(220.0, 600, &mut seed));
        assert_ne!(activity.last_voice(), before);
        let end = activity.last_voice().unwrap();
        assert!((3_780 * 16..=3_800 * 16).contains(&end), "speech ends at 3.8 s, found {end}");
        assert!(activity.silence_since_voice() >= 580 * 16);
    }

    #[test]
    fn very_quiet_audio_is_never_voiced() {
        let mut activity = Activity::new(8_000);
        activity.push(&tone(0.0, 1_000));
        activity.push(&tone(90.0, 1_000));
        assert_eq!(activity.last_voice(), None);
    }

    #[test]
    fn a_steady_sound_is_voice_for_seconds_and_then_the_floor() {
        let mut activity = Activity::new(8_000);
        activity.push(&tone(0.0, 200));
        activity.push(&tone(5_000.0, 10_000));
        assert_eq!(activity.silence_since_voice(), 0);
        activity.push(&tone(5_000.0, 10_000));
        assert!(activity.silence_since_voice() > 5_000 * 16);
    }
}
