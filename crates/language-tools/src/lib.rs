//! The language-tools service: the language work whose models are too large to load per request, loaded
//! once in a native process and served to the Wasm components over local HTTP.
//!
//! * `detect`: language detection with lingua, in the catalogue's base codes.
//! * `correct`: spelling and grammar correction (Harper for English, Hunspell dictionaries for the other
//!   languages, rule-based checks for all).
//! * `protocol`: the request and response documents of the HTTP protocol.
//! * `server`: the HTTP server (routes, secret, limits, worker pool).
//! * `error`: loading and correction errors.
//!
//! `main.rs` is the command line around them.

pub mod correct;
pub mod detect;
pub mod error;
pub mod protocol;
pub mod server;

#[cfg(test)]
mod testing;

use std::path::Path;

pub use correct::Corrector;
pub use detect::{Detection, Detector};

/// Every model the service answers with.
pub struct Tools {
    pub detector: Detector,
    pub corrector: Corrector,
}

impl Tools {
    /// Loads the detector and the corrector side by side (they are independent, and each takes seconds).
    pub fn load(dictionaries: &Path) -> Tools {
        std::thread::scope(|scope| {
            let detector = scope.spawn(Detector::load);
            let corrector = Corrector::load(dictionaries);
            let detector = detector.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            Tools { detector, corrector }
        })
    }

    /// The language of `text`: lingua's, with the correction dictionaries settling short texts; with
    /// `among`, only those languages compete (see [`Detector::detect`]).
    pub fn detect(&self, text: &str, among: Option<&[String]>) -> Detection {
        self.detector.detect(text, &self.corrector, among)
    }
}
