//! Rephrasing by an LLM: [`EngineRephraser`], the [`Rephraser`] of a deployment whose translation
//! engine is `openai`, with one instruction per writing style and tone ([`instruction`]).
//!
//! The pipeline checks what comes back (`check_output`, then its language) and keeps the
//! corrected text when the check fails, so nothing here judges the model's answer beyond its shape.

use catalogue::Language;
use engines::{EngineError, EngineList, OpenAiEngine};

use crate::improve::{Rephraser, ToolsError};
use crate::request::{Change, Style, Tone};

/// What the model is told for each style and tone, and for none (a rephrase with the defaults).
const INSTRUCTIONS: [(Option<Change>, &str); 9] = [
    (None, "Improve its clarity, flow and word choice without changing its style, its tone or its level of formality."),
    (
        Some(Change::Style(Style::Academic)),
        "Use an academic style: precise, objective and formal wording, full forms instead of contractions, and no \
         colloquial expressions.",
    ),
    (
        Some(Change::Style(Style::Business)),
        "Use a business style: clear, concise and professional, polite without being stiff, with no slang and no \
         contractions.",
    ),
    (
        Some(Change::Style(Style::Casual)),
        "Use a casual style: relaxed, conversational wording as between friends or colleagues, with the contractions \
         people use when they speak.",
    ),
    (
        Some(Change::Style(Style::Simple)),
        "Use a simple style: short sentences and common, everyday words that a learner of the language understands; \
         split long sentences and replace wordy phrases.",
    ),
    (
        Some(Change::Tone(Tone::Confident)),
        "Use a confident tone: state things directly and assertively, and drop hedges such as \"I think\", \"maybe\" \
         or \"just\".",
    ),
    (
        Some(Change::Tone(Tone::Diplomatic)),
        "Use a diplomatic tone: tactful, respectful and considerate, softening criticism and demands without changing \
         what is asked.",
    ),
    (
        Some(Change::Tone(Tone::Enthusiastic)),
        "Use an enthusiastic tone: positive, energetic and warm, showing genuine excitement without exaggerating the \
         facts.",
    ),
    (
        Some(Change::Tone(Tone::Friendly)),
        "Use a friendly tone: warm, approachable and kind, as to someone the writer likes.",
    ),
];

/// The instruction for `change` (`None`: improve without changing the style or tone).
pub fn instruction(change: Option<Change>) -> &'static str {
    INSTRUCTIONS
        .iter()
        .find(|(candidate, _)| *candidate == change)
        .map(|(_, instruction)| *instruction)
        .expect("INSTRUCTIONS has every style, every tone and none")
}

/// The README's table of what the model is told per `writing_style` and `tone` (and with
/// neither), one row each.
pub fn instructions_table() -> String {
    let mut table = String::from("| parameter | the model is told |\n|---|---|\n");
    for (change, instruction) in INSTRUCTIONS {
        let parameter = change.map_or_else(
            || "neither (the defaults)".to_owned(),
            |change| format!("`{}={}`", change.parameter(), change.value()),
        );
        table.push_str(&format!("| {parameter} | {instruction} |\n"));
    }
    table
}

/// Rephrasing by the configured `openai` engine.
pub struct EngineRephraser<'a> {
    engine: OpenAiEngine<'a>,
}

impl<'a> EngineRephraser<'a> {
    /// The rephraser of the deployment: `Some` when the engine list has `openai`. Settings
    /// that cannot work give none here; a translation needing them answers the problem.
    pub fn configured(services: &platform::Services<'a>) -> Option<EngineRephraser<'a>> {
        let list = EngineList::from_variables(services.vars).ok()?;
        let settings = list.openai()?.clone();
        Some(EngineRephraser { engine: OpenAiEngine::new(settings, services.http) })
    }
}

impl Rephraser for EngineRephraser<'_> {
    fn rephrase(&self, language: &'static Language, text: &str, change: Option<Change>) -> Result<String, ToolsError> {
        self.engine.rewrite(language, text, instruction(change)).map_err(|error| match error {
            EngineError::Invalid(reason) => ToolsError::Invalid(reason),
            other => ToolsError::Unavailable(other.to_string()),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_style_and_tone_and_none_has_its_own_instruction() {
        let mut all: Vec<&str> = Change::ALL.iter().map(|&change| instruction(Some(change))).collect();
        all.push(instruction(None));
        let mut distinct = all.clone();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(distinct.len(), all.len());
        assert!(instruction(Some(Change::Style(Style::Casual))).contains("casual"));
        assert!(instruction(Some(Change::Tone(Tone::Confident))).contains("confident"));
        assert!(instruction(None).contains("without changing its style"));
    }

    #[test]
    fn the_readme_table_of_instructions_is_the_one_the_data_gives() {
        let readme = include_str!("../README.md");
        let table = instructions_table();
        assert!(
            readme.contains(&table),
            "README.md's table of instructions is out of date; replace it with:\n\n{table}"
        );
    }

    #[test]
    fn only_the_openai_engine_rephrases() {
        let host = platform::native::NativeHost::in_memory::<&str>(&[], platform::FixedClock::at_unix(0)).unwrap();
        let openai: std::collections::HashMap<String, String> =
            [("engine", "openai"), ("openai_url", "http://127.0.0.1:9"), ("openai_model", "m")]
                .into_iter()
                .map(|(name, value)| (name.to_owned(), value.to_owned()))
                .collect();
        assert!(EngineRephraser::configured(&platform::Services { vars: &openai, ..host.services() }).is_some());
        let deterministic: std::collections::HashMap<String, String> =
            [("engine".to_owned(), "deterministic".to_owned())].into();
        assert!(EngineRephraser::configured(&platform::Services { vars: &deterministic, ..host.services() }).is_none());
    }
}
