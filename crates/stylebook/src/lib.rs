//! Style rules: the catalogue of configurable rules, their validation, and the rules Glossa
//! applies itself.
//!
//! A style rule list configures rules as `{"<category>": {"<rule>": "<option>"}}`. This crate
//! owns what such an object may say and what Glossa does with it; it knows nothing of HTTP,
//! storage or engines, and runs natively and inside the WebAssembly components alike.
//!
//! * [`catalogue`]: every category, rule and option of the Service API's `ConfiguredRules`
//!   schema, as static data generated from the reference description (`generate.py`).
//! * [`lookup`]: finding names in the catalogue ([`category`], [`rule`], [`is_known_option`]),
//!   and the catalogue as a JSON schema object ([`catalogue_json`]).
//! * [`configured`]: [`ConfiguredRules`], a validated `configured_rules` object, and
//!   [`RuleError`], whose messages are the API's 400 messages.
//! * [`mechanical`]: the rules Glossa applies itself ([`is_mechanical`],
//!   [`mechanical_options`]) and the [`Rewriter`] that applies them to translated text.
//! * [`mod@instruction`]: the other rules as instructions a language model can follow
//!   ([`instruction()`]).
//! * [`source`]: [`StyleSource`], where a translation finds the list its request names (the
//!   style rule store implements it), and the [`StyleRules`] it answers.

pub mod catalogue;
pub mod configured;
pub mod instruction;
pub mod lookup;
pub mod mechanical;
pub mod source;

pub use catalogue::{CATEGORIES, Category, Rule};
pub use configured::{ConfiguredRules, RuleError};
pub use instruction::instruction;
pub use lookup::{catalogue_json, category, is_known_option, rule};
pub use mechanical::{LANGUAGES, Rewriter, is_mechanical, is_mechanical_in, mechanical_options};
pub use source::{CustomInstruction, NoStyleRules, SourceError, StyleRules, StyleSource};
