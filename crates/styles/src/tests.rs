//! The store and the source, against an in-memory database with the real schema.

use std::time::{Duration, UNIX_EPOCH};

use platform::native::NativeHost;
use platform::{FixedClock, Id};
use serde_json::json;
use stylebook::{ConfiguredRules, StyleSource};

use crate::request::{Listing, NewInstruction, NewList, RawList};
use crate::store::{self, StyleError, StyleList};
use crate::{Styles, limits};

/// Fresh in-memory storage with the style rule schema, at 2026-11-21T10:00:00.123Z.
fn fixture() -> NativeHost {
    let clock = FixedClock::new(UNIX_EPOCH + Duration::from_millis(1_795_255_200_123));
    NativeHost::in_memory(&[include_str!("../../../sql/0010_style_rules.sql")], clock).expect("set up the host")
}

fn new_list(value: serde_json::Value) -> NewList {
    let text = |name: &str| value.get(name).and_then(|value| value.as_str()).map(str::to_owned);
    RawList {
        name: text("name"),
        language: text("language"),
        configured_rules: value.get("configured_rules").cloned(),
        custom_instructions: value.get("custom_instructions").cloned(),
    }
    .parse()
    .expect("a valid list")
}

fn id(list: &StyleList) -> Id {
    Id::parse(&list.id).expect("list ids are UUIDs")
}

fn instruction(label: &str, prompt: &str) -> NewInstruction {
    NewInstruction { label: label.into(), prompt: prompt.into(), source_language: None }
}

const ALICE: &str = "subscription-alice";
const BOB: &str = "subscription-bob";

#[test]
fn a_list_is_created_read_renamed_and_deleted_within_its_subscription() {
    let host = fixture();
    let services = host.services();
    let created = store::create(
        &services,
        ALICE,
        &new_list(json!({"name": "House", "language": "de",
            "configured_rules": {"punctuation": {"apostrophe": "use_curly_apostrophes"}},
            "custom_instructions": [{"label": "Tone", "prompt": "Be brief.", "source_language": "en"}]})),
    )
    .unwrap();
    assert_eq!((created.name.as_str(), created.language.as_str(), created.version), ("House", "de", 1));
    assert_eq!(created.creation_time, "2026-11-21T10:00:00.123Z");
    assert_eq!(created.updated_time, created.creation_time);
    let details = created.details.as_ref().unwrap();
    assert_eq!(details.rules.len(), 1);
    assert_eq!(details.instructions[0].source_language.as_deref(), Some("en"));

    let id = id(&created);
    assert_eq!(store::get(services.db, ALICE, &id).unwrap(), created);
    assert!(matches!(store::get(services.db, BOB, &id), Err(StyleError::NotFound)));
    assert!(matches!(store::rename(&services, BOB, &id, "Mine"), Err(StyleError::NotFound)));
    assert!(matches!(store::delete(services.db, BOB, &id), Err(StyleError::NotFound)));

    let renamed = store::rename(&services, ALICE, &id, "Hausstil").unwrap();
    assert_eq!((renamed.name.as_str(), renamed.version), ("Hausstil", 2));
    store::delete(services.db, ALICE, &id).unwrap();
    assert!(matches!(store::get(services.db, ALICE, &id), Err(StyleError::NotFound)));
    assert!(matches!(store::delete(services.db, ALICE, &id), Err(StyleError::NotFound)));
}

#[test]
fn every_change_raises_the_version() {
    let host = fixture();
    let services = host.services();
    let list = store::create(&services, ALICE, &new_list(json!({"name": "x", "language": "en"}))).unwrap();
    let id = id(&list);
    let rules = ConfiguredRules::parse(&json!({"punctuation": {"apostrophe": "use_straight_apostrophes"}})).unwrap();
    assert_eq!(store::replace_rules(&services, ALICE, &id, &rules).unwrap().version, 2);
    let added = store::add_instruction(&services, ALICE, &id, &instruction("a", "Be brief.")).unwrap();
    let added_id = Id::parse(&added.id).unwrap();
    let replaced =
        store::replace_instruction(&services, ALICE, &id, &added_id, &instruction("b", "Be briefer.")).unwrap();
    assert_eq!((replaced.id.as_str(), replaced.label.as_str()), (added.id.as_str(), "b"));
    store::delete_instruction(&services, ALICE, &id, &added_id).unwrap();
    let read = store::get(services.db, ALICE, &id).unwrap();
    assert_eq!(read.version, 5);
    assert_eq!(read.details.unwrap().rules, rules);
}

#[test]
fn instructions_keep_their_order_and_belong_to_their_list() {
    let host = fixture();
    let services = host.services();
    let first = store::create(&services, ALICE, &new_list(json!({"name": "1", "language": "en"}))).unwrap();
    let second = store::create(&services, ALICE, &new_list(json!({"name": "2", "language": "en"}))).unwrap();
    let (first, second) = (id(&first), id(&second));
    for label in ["a", "b", "c"] {
        store::add_instruction(&services, ALICE, &first, &instruction(label, "p")).unwrap();
    }
    let read = store::get(services.db, ALICE, &first).unwrap().details.unwrap();
    let labels: Vec<&str> = read.instructions.iter().map(|instruction| instruction.label.as_str()).collect();
    assert_eq!(labels, ["a", "b", "c"]);
    let a = Id::parse(&read.instructions[0].id).unwrap();
    assert!(matches!(store::get_instruction(services.db, ALICE, &second, &a), Err(StyleError::InstructionNotFound)));
    assert!(matches!(store::get_instruction(services.db, BOB, &first, &a), Err(StyleError::NotFound)));
    assert!(matches!(store::delete_instruction(&services, ALICE, &second, &a), Err(StyleError::InstructionNotFound)));
    // A refused change raises no version.
    assert_eq!(store::get(services.db, ALICE, &second).unwrap().version, 1);
}

#[test]
fn a_list_holds_at_most_200_instructions() {
    let host = fixture();
    let services = host.services();
    let instructions: Vec<serde_json::Value> =
        (0..limits::MAX_INSTRUCTIONS).map(|index| json!({"label": format!("{index}"), "prompt": "p"})).collect();
    let list = store::create(
        &services,
        ALICE,
        &new_list(json!({"name": "full", "language": "en", "custom_instructions": instructions})),
    )
    .unwrap();
    let refused = store::add_instruction(&services, ALICE, &id(&list), &instruction("one more", "p"));
    assert!(matches!(refused, Err(StyleError::TooManyInstructions)));
}

#[test]
fn listings_are_paged_in_creation_order_and_detailed_on_request() {
    let host = fixture();
    let services = host.services();
    for index in 0..12 {
        store::create(&services, ALICE, &new_list(json!({"name": format!("list {index}"), "language": "fr"}))).unwrap();
    }
    store::create(&services, BOB, &new_list(json!({"name": "bob's", "language": "fr"}))).unwrap();
    let page =
        |page, page_size, detailed| store::list(services.db, ALICE, &Listing { page, page_size, detailed }).unwrap();
    let names = |lists: Vec<StyleList>| lists.into_iter().map(|list| list.name).collect::<Vec<_>>();
    assert_eq!(names(page(0, 5, false)), ["list 0", "list 1", "list 2", "list 3", "list 4"]);
    assert_eq!(names(page(2, 5, false)), ["list 10", "list 11"]);
    assert!(page(3, 5, false).is_empty());
    assert!(page(0, 1, false)[0].details.is_none());
    assert!(page(0, 1, true)[0].details.is_some());
}

#[test]
fn the_source_reads_the_callers_list_in_full() {
    let host = fixture();
    let services = host.services();
    let list = store::create(
        &services,
        ALICE,
        &new_list(json!({"name": "x", "language": "en",
            "configured_rules": {"punctuation": {"apostrophe": "use_curly_apostrophes"}},
            "custom_instructions": [{"label": "l", "prompt": "Say 'sign in', not 'log in'.", "source_language": "de"}]})),
    )
    .unwrap();
    let rules = Styles::new(services.db, ALICE).style_rules(&id(&list)).unwrap().expect("found");
    assert_eq!(rules.language.code(), "EN");
    assert_eq!(rules.rules.len(), 1);
    assert_eq!(rules.instructions[0].prompt, "Say 'sign in', not 'log in'.");
    assert_eq!(rules.instructions[0].source_language.map(|language| language.code()), Some("DE"));
    assert!(Styles::new(services.db, BOB).style_rules(&id(&list)).unwrap().is_none());
}
