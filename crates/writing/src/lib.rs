//! `POST /v2/write/rephrase` and `POST /v2/write/correct`: text improvement, from parameters to
//! improved texts.
//!
//! * `request.rs`: [`WriteRequest::parse`] validates `text`, `target_lang`, `writing_style` and
//!   `tone` against the language catalogue and the API's rules, with the API's messages.
//! * `improve.rs`: [`improve`], the pipeline: detection, translation into the target when a text
//!   is in another language, correction, and (for rephrasing) the style or tone, through the
//!   traits the component implements ([`TextTools`] for the language-tools service, [`Rephraser`]
//!   for an LLM engine, whose output is checked before it is used); [`billed_characters`].
//! * `rephrase/`: the rule-based rephraser for English and German ([`rephrase_with_rules`]), from
//!   phrase tables kept as data, and what it does per language, style and tone
//!   ([`rule_based_effect`], [`effects_table`], the README's table).
//! * `engine.rs`: [`EngineRephraser`], rephrasing by the `openai` engine, with one instruction
//!   per style and tone ([`instruction`]).
//! * `tools.rs`: [`ServiceTools`], the [`TextTools`] of a deployment: the language-tools
//!   service (detection through translation's detector, and correction) and the translation
//!   engine, from the variables.
//! * `edge.rs`: the only file that knows HTTP: the request from its parameters, and the answer
//!   for each failure.
//!
//! Authentication, quotas and billing are not here: the component charges
//! [`billed_characters`] through `metering` once [`improve`] succeeded.

mod edge;
mod engine;
mod improve;
mod rephrase;
mod request;
mod tools;

pub use engine::{EngineRephraser, instruction, instructions_table};
pub use improve::{
    Improvement, Improvements, LENGTH_FACTOR, LENGTH_SLACK, NotHonoured, Outcome, Rejection, Rephraser, Rewriter,
    TextTools, ToolsError, WriteError, billed_characters, check_output, improve,
};
pub use rephrase::{Effect, Rephrased, effects_table, rephrase_with_rules, rule_based_effect};
pub use request::{
    Change, Kind, RawWriteRequest, RequestError, Requested, Resolved, Style, Tone, WriteRequest, answered_target,
    write_language_codes,
};
pub use tools::ServiceTools;
