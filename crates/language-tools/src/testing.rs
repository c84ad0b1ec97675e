//! The models the tests share: loaded once per test binary (the detector and Harper take seconds), from the
//! Debian dictionaries `scripts/setup.sh` installs. A missing dictionary fails the tests that need it,
//! saying so; it never lets them pass unchecked.

use std::path::Path;
use std::sync::{Arc, OnceLock};

use crate::Tools;
use crate::correct::{English, Speller};
use crate::detect::Detector;

/// Where Debian's hunspell packages put their dictionaries.
const DICTIONARIES: &str = "/usr/share/hunspell";

/// The languages whose dictionaries the tests need: every one `scripts/setup.sh` installs.
const REQUIRED: [&str; 12] = ["cs", "da", "de", "es", "fr", "it", "nl", "pl", "pt", "ro", "ru", "sv"];

/// The shared tools, for the server's `App`.
pub fn tools() -> Arc<Tools> {
    shared().clone()
}

fn shared() -> &'static Arc<Tools> {
    static TOOLS: OnceLock<Arc<Tools>> = OnceLock::new();
    TOOLS.get_or_init(|| {
        let fonts: Vec<std::path::PathBuf> = crate::DEFAULT_FONTS.iter().map(std::path::PathBuf::from).collect();
        let tools = Tools::load(Path::new(DICTIONARIES), &fonts);
        let offered = tools.corrector.languages();
        let missing: Vec<&str> = REQUIRED.into_iter().filter(|code| !offered.contains(code)).collect();
        assert!(
            missing.is_empty(),
            "no Hunspell dictionary for {missing:?} in {DICTIONARIES}: run scripts/setup.sh to install them"
        );
        Arc::new(tools)
    })
}

pub fn detector() -> &'static Detector {
    &shared().detector
}

pub fn corrector() -> &'static crate::Corrector {
    &shared().corrector
}

pub fn english() -> &'static English {
    corrector().english()
}

pub fn speller(language: &str) -> &'static Speller {
    corrector()
        .speller(language)
        .unwrap_or_else(|| panic!("no Hunspell dictionary for {language} in {DICTIONARIES}: run scripts/setup.sh"))
}
