//! Style rule lists (`/v3/style_rules`): what a subscription configures once and names by
//! `style_id` in its translations.
//!
//! * `request.rs`: the requests as sent (`Raw…`) and validated: a new list, a name, configured
//!   rules (checked against `stylebook`'s catalogue), custom instructions, a listing's page.
//! * `store.rs`: the lists in SQLite, scoped by subscription; every change one transaction that
//!   raises the list's `version`.
//! * `source.rs`: the store as a translation's `StyleSource`.
//! * `views.rs`: the API's shapes (StyleRuleList, CustomInstruction).
//! * `edge.rs`: the only file importing `api`: readers from `Params` and the errors' answers.
//! * `limits.rs`: the reference's limits (name, instructions, label, prompt) and the listing's.

mod edge;
pub mod limits;
pub mod request;
mod source;
pub mod store;
pub mod views;

#[cfg(test)]
mod tests;

pub use edge::{configured_rules, instruction, instruction_id, listing, name, new_list, style_id};
pub use source::Styles;
pub use views::{InstructionObject, ListObject, Listing};
