//! Spoken terms lists against the real schema: written whole, scoped by subscription, bounded,
//! named by sessions of their subscription only, and read by the gateway's claim.

use std::time::Duration;

use accounts::{Actor, KeyKind, Plan, Principal, create_key, create_subscription};
use platform::native::NativeHost;
use platform::{Database, FixedClock, Id};
use serde_json::json;

use super::request::{NewTermsList, TermsChange};
use super::store::{self, TermsError};
use super::{MAX_LISTS, MAX_TERMS};
use crate::gateway::{self, Claimed};
use crate::request::RawSessionRequest;
use crate::{OpenError, SessionParameters, TokenSecret, open};

const URL: &str = "wss://voice.example.com";

/// The admin key the tests' changes are made with.
const ADMIN: Actor<'static> = Actor::AdminKey("admin-key-1:adm");

fn fixture() -> NativeHost {
    NativeHost::with_app_schema(FixedClock::at_unix(1_795_255_200)).expect("set up the host")
}

fn principal(fixture: &NativeHost) -> Principal {
    let services = fixture.services();
    let subscription = create_subscription(&services, Plan::Pro).unwrap();
    let key = create_key(&services, &subscription, KeyKind::Developer, None, Actor::Operator).unwrap().key;
    Principal { subscription, key }
}

fn new_list(name: &str, terms: &[&str]) -> NewTermsList {
    NewTermsList { name: name.to_owned(), terms: terms.iter().map(|term| term.to_string()).collect() }
}

fn secret() -> TokenSecret {
    TokenSecret::new("the deployment's token secret").unwrap()
}

fn parameters(spoken_terms_id: Option<&str>) -> SessionParameters {
    RawSessionRequest {
        source_media_content_type: Some("audio/pcm;encoding=s16le;rate=16000".into()),
        target_languages: Some(vec!["de".into()]),
        spoken_terms_id: spoken_terms_id.map(str::to_owned),
        ..RawSessionRequest::default()
    }
    .parse()
    .unwrap()
}

#[test]
fn a_list_is_created_read_listed_replaced_and_deleted() {
    let fixture = fixture();
    let services = fixture.services();
    let owner = principal(&fixture).subscription.id;
    let created = store::create(&services, &owner, &new_list("Products", &["Glossa", "Spin"]), ADMIN).unwrap();
    assert!(Id::parse(&created.spoken_terms_id).is_some(), "{}", created.spoken_terms_id);
    assert_eq!((created.name.as_str(), created.terms.as_slice()), ("Products", &["Glossa".into(), "Spin".into()][..]));
    assert_eq!(created.creation_time, "2026-11-21T10:00:00.000Z");
    assert_eq!(created.updated_time, created.creation_time);
    let id = Id::parse(&created.spoken_terms_id).unwrap();
    assert_eq!(store::get(services.db, &owner, &id).unwrap(), created);

    fixture.clock.advance(Duration::from_millis(1_500));
    let renamed =
        store::replace(&services, &owner, &id, &TermsChange { name: Some("Brands".into()), terms: None }, ADMIN)
            .unwrap();
    assert_eq!((renamed.name.as_str(), renamed.terms.len()), ("Brands", 2), "the terms stay");
    assert_eq!(renamed.updated_time, "2026-11-21T10:00:01.500Z");
    assert_eq!(renamed.creation_time, created.creation_time);
    let terms = vec!["WebAssembly".to_owned(), "SQLite".to_owned(), "Glossa".to_owned()];
    let replaced =
        store::replace(&services, &owner, &id, &TermsChange { name: None, terms: Some(terms.clone()) }, ADMIN).unwrap();
    assert_eq!((replaced.name.as_str(), &replaced.terms), ("Brands", &terms), "replaced whole, in order");

    let second = store::create(&services, &owner, &new_list("Second", &["x"]), ADMIN).unwrap();
    let listed = store::list(services.db, &owner).unwrap();
    assert_eq!(listed, [replaced.clone(), second.clone()], "oldest first, with their terms");

    store::delete(&services, &owner, &id, ADMIN).unwrap();
    assert!(matches!(store::get(services.db, &owner, &id), Err(TermsError::NotFound)));
    assert!(matches!(store::delete(&services, &owner, &id, ADMIN), Err(TermsError::NotFound)));
    let left = fixture.db.execute("SELECT count(*) FROM spoken_terms WHERE list_id = ?", &[(&id).into()]).unwrap();
    assert_eq!(left.first().unwrap().get::<i64>(0).unwrap(), 0, "its terms went with it");
    assert_eq!(store::list(services.db, &owner).unwrap(), [second]);
}

#[test]
fn another_subscriptions_list_is_not_found() {
    let fixture = fixture();
    let services = fixture.services();
    let owner = principal(&fixture).subscription.id;
    let stranger = principal(&fixture).subscription.id;
    let created = store::create(&services, &owner, &new_list("Mine", &["Glossa"]), ADMIN).unwrap();
    let id = Id::parse(&created.spoken_terms_id).unwrap();
    assert!(matches!(store::get(services.db, &stranger, &id), Err(TermsError::NotFound)));
    let change = TermsChange { name: Some("Theirs".into()), terms: Some(vec!["x".into()]) };
    assert!(matches!(store::replace(&services, &stranger, &id, &change, ADMIN), Err(TermsError::NotFound)));
    assert!(matches!(store::delete(&services, &stranger, &id, ADMIN), Err(TermsError::NotFound)));
    assert!(store::list(services.db, &stranger).unwrap().is_empty());
    assert_eq!(store::get(services.db, &owner, &id).unwrap(), created, "unchanged by the stranger");
}

#[test]
fn a_subscription_holds_a_bounded_number_of_lists() {
    let fixture = fixture();
    let services = fixture.services();
    let owner = principal(&fixture).subscription.id;
    let terms: Vec<String> = (0..MAX_TERMS).map(|n| format!("t{n}")).collect();
    let full = NewTermsList { name: "full".into(), terms };
    for _ in 0..MAX_LISTS {
        store::create(&services, &owner, &full, ADMIN).unwrap();
    }
    let error = store::create(&services, &owner, &full, ADMIN).unwrap_err();
    assert_eq!(error.to_string(), "Quota exceeded. The maximum number of spoken terms lists (100) has been reached.");
    assert_eq!(store::list(services.db, &owner).unwrap().len(), MAX_LISTS as usize);
    assert_eq!(store::list(services.db, &owner).unwrap()[0].terms.len(), MAX_TERMS);
    // Another subscription has its own count.
    store::create(&services, &principal(&fixture).subscription.id, &full, ADMIN).unwrap();
}

#[test]
fn a_session_names_a_list_of_its_subscription_and_the_claim_carries_its_terms() {
    let fixture = fixture();
    let services = fixture.services();
    let pro = principal(&fixture);
    let list =
        store::create(&services, &pro.subscription.id, &new_list("Products", &["Glossa", "Spin"]), ADMIN).unwrap();
    let id = list.spoken_terms_id.as_str();

    let unknown = open(&services, &pro, parameters(Some("def3a26b-3e84-45b3-84ae-0c0aaf3525f7")), &secret(), URL, "v3");
    assert!(matches!(unknown, Err(OpenError::SpokenTermsNotFound)), "{unknown:?}");
    let stranger = principal(&fixture);
    let theirs = open(&services, &stranger, parameters(Some(id)), &secret(), URL, "v3").unwrap_err();
    assert_eq!(theirs.to_string(), "Spoken terms list not found.");

    let answer = open(&services, &pro, parameters(Some(id)), &secret(), URL, "v3").unwrap();
    // The terms are read at the claim: a change made after the session was opened counts.
    let terms = vec!["Glossa".to_owned(), "WebAssembly".to_owned()];
    let list_id = Id::parse(id).unwrap();
    store::replace(
        &services,
        &pro.subscription.id,
        &list_id,
        &TermsChange { name: None, terms: Some(terms.clone()) },
        ADMIN,
    )
    .unwrap();
    let claimed = gateway::claim(&services, &secret(), &answer.token).unwrap();
    assert_eq!(claimed.parameters.spoken_terms_id.as_deref(), Some(id));
    assert_eq!(claimed.spoken_terms, terms);
    let wire = serde_json::to_value(&claimed).unwrap();
    assert_eq!(wire["spoken_terms"], serde_json::json!(terms));
    assert_eq!(wire["parameters"]["spoken_terms"], serde_json::json!(terms), "where the gateway reads them");
    assert_eq!(wire["parameters"]["spoken_terms_id"], id);
    assert_eq!(wire["parameters"]["target_languages"], serde_json::json!(["de"]));

    // Without a list, or once it is deleted, the claim carries no terms.
    let plain = open(&services, &pro, parameters(None), &secret(), URL, "v3").unwrap();
    let claimed: Claimed = gateway::claim(&services, &secret(), &plain.token).unwrap();
    assert!(claimed.spoken_terms.is_empty());
    assert_eq!(serde_json::to_value(&claimed).unwrap()["parameters"]["spoken_terms"], serde_json::json!([]));
    let later = open(&services, &pro, parameters(Some(id)), &secret(), URL, "v3").unwrap();
    store::delete(&services, &pro.subscription.id, &list_id, ADMIN).unwrap();
    assert!(gateway::claim(&services, &secret(), &later.token).unwrap().spoken_terms.is_empty());
}

#[test]
fn every_change_to_a_list_is_in_the_audit_log_with_the_admin_who_made_it() {
    let fixture = fixture();
    let services = fixture.services();
    let owner = principal(&fixture).subscription;
    let created = store::create(&services, &owner.id, &new_list("Products", &["Glossa", "Spin"]), ADMIN).unwrap();
    let id = Id::parse(&created.spoken_terms_id).unwrap();
    let rename = TermsChange { name: Some("Brands".into()), terms: None };
    store::replace(&services, &owner.id, &id, &rename, ADMIN).unwrap();
    // The same name and terms again: nothing changes, nothing is recorded.
    let same = TermsChange { name: Some("Brands".into()), terms: Some(vec!["Glossa".into(), "Spin".into()]) };
    store::replace(&services, &owner.id, &id, &same, ADMIN).unwrap();
    let retermed = TermsChange { name: Some("Brands".into()), terms: Some(vec!["SQLite".into()]) };
    store::replace(&services, &owner.id, &id, &retermed, Actor::Operator).unwrap();
    store::delete(&services, &owner.id, &id, ADMIN).unwrap();
    // A change refused records nothing either.
    assert!(store::delete(&services, &owner.id, &id, ADMIN).is_err());

    let today = metering::DateRange::parse(Some("2026-11-21"), Some("2026-11-21")).unwrap();
    let log = metering::audit_log(services.db, &owner, &today, 0).unwrap().audit_log;
    let entries: Vec<_> = log
        .entries
        .iter()
        .filter(|entry| entry.target_type == "spoken_terms")
        .map(|entry| {
            assert_eq!(entry.target_id, created.spoken_terms_id);
            (entry.action.as_str(), entry.actor, entry.admin_key_id.as_deref(), &entry.old_value, &entry.new_value)
        })
        .collect();
    let admin = Some("admin-key-1:adm");
    assert_eq!(
        entries,
        [
            ("delete_spoken_terms", "admin_key", admin, &Some(json!({"name": "Brands", "terms": ["SQLite"]})), &None),
            (
                "change_spoken_terms",
                "operator",
                None,
                &Some(json!({"terms": ["Glossa", "Spin"]})),
                &Some(json!({"terms": ["SQLite"]}))
            ),
            (
                "change_spoken_terms",
                "admin_key",
                admin,
                &Some(json!({"name": "Products"})),
                &Some(json!({"name": "Brands"}))
            ),
            (
                "create_spoken_terms",
                "admin_key",
                admin,
                &None,
                &Some(json!({"name": "Products", "terms": ["Glossa", "Spin"]}))
            ),
        ],
        "newest first"
    );
    let other = principal(&fixture).subscription;
    let theirs = metering::audit_log(services.db, &other, &today, 0).unwrap().audit_log;
    assert!(theirs.entries.iter().all(|entry| entry.target_type != "spoken_terms"), "one subscription's log");
}
