//! Style rule lists as the API answers them.

use serde::Serialize;
use stylebook::ConfiguredRules;

use crate::store::{Instruction, StyleList};

/// `{"style_rules": [...]}`.
#[derive(Debug, Serialize)]
pub struct Listing<'a> {
    pub style_rules: Vec<ListObject<'a>>,
}

impl<'a> Listing<'a> {
    pub fn of(lists: &'a [StyleList]) -> Listing<'a> {
        Listing { style_rules: lists.iter().map(ListObject::from).collect() }
    }
}

/// A StyleRuleList: `configured_rules` and `custom_instructions` only when it was read in full.
#[derive(Debug, Serialize)]
pub struct ListObject<'a> {
    style_id: &'a str,
    name: &'a str,
    creation_time: &'a str,
    updated_time: &'a str,
    language: &'a str,
    version: i64,
    #[serde(skip_serializing_if = "Option::is_none")]
    configured_rules: Option<&'a ConfiguredRules>,
    #[serde(skip_serializing_if = "Option::is_none")]
    custom_instructions: Option<Vec<InstructionObject<'a>>>,
}

impl<'a> From<&'a StyleList> for ListObject<'a> {
    fn from(list: &'a StyleList) -> ListObject<'a> {
        ListObject {
            style_id: &list.id,
            name: &list.name,
            creation_time: &list.creation_time,
            updated_time: &list.updated_time,
            language: &list.language,
            version: list.version,
            configured_rules: list.details.as_ref().map(|details| &details.rules),
            custom_instructions: list
                .details
                .as_ref()
                .map(|details| details.instructions.iter().map(InstructionObject::from).collect()),
        }
    }
}

/// A CustomInstruction.
#[derive(Debug, Serialize)]
pub struct InstructionObject<'a> {
    id: &'a str,
    label: &'a str,
    prompt: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    source_language: Option<&'a str>,
}

impl<'a> From<&'a Instruction> for InstructionObject<'a> {
    fn from(instruction: &'a Instruction) -> InstructionObject<'a> {
        InstructionObject {
            id: &instruction.id,
            label: &instruction.label,
            prompt: &instruction.prompt,
            source_language: instruction.source_language.as_deref(),
        }
    }
}
