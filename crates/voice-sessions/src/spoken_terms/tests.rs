//! Spoken terms lists against the real schema: written whole, scoped by subscription, bounded,
//! named by sessions of their subscription only, and read by the gateway's claim.

use std::time::Duration;

use accounts::{Actor, KeyKind, Plan, Principal, create_key, create_subscription};
use platform::native::NativeHost;
use platform::{Database, FixedClock, Id};

use super::request::{NewTermsList, TermsChange};
use super::store::{self, TermsError};
use super::{MAX_LISTS, MAX_TERMS};
use crate::gateway::{self, Claimed};
use crate::request::RawSessionRequest;
use crate::{OpenError, SessionParameters, TokenSecret, open};

const URL: &str = "wss://voice.example.com";

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
    let created = store::create(&services, &owner, &new_list("Products", &["Glossa", "Spin"])).unwrap();
    assert!(Id::parse(&created.spoken_terms_id).is_some(), "{}", created.spoken_terms_id);
    assert_eq!((created.name.as_str(), created.terms.as_slice()), ("Products", &["Glossa".into(), "Spin".into()][..]));
    assert_eq!(created.creation_time, "2026-11-21T10:00:00.000Z");
    assert_eq!(created.updated_time, created.creation_time);
    let id = Id::parse(&created.spoken_terms_id).unwrap();
    assert_eq!(store::get(services.db, &owner, &id).unwrap(), created);

    fixture.clock.advance(Duration::from_millis(1_500));
    let renamed =
        store::replace(&services, &owner, &id, &TermsChange { name: Some("Brands".into()), terms: None }).unwrap();
    assert_eq!((renamed.name.as_str(), renamed.terms.len()), ("Brands", 2), "the terms stay");
    assert_eq!(renamed.updated_time, "2026-11-21T10:00:01.500Z");
    assert_eq!(renamed.creation_time, created.creation_time);
    let terms = vec!["WebAssembly".to_owned(), "SQLite".to_owned(), "Glossa".to_owned()];
    let replaced =
        store::replace(&services, &owner, &id, &TermsChange { name: None, terms: Some(terms.clone()) }).unwrap();
    assert_eq!((replaced.name.as_str(), &replaced.terms), ("Brands", &terms), "replaced whole, in order");

    let second = store::create(&services, &owner, &new_list("Second", &["x"])).unwrap();
    let listed = store::list(services.db, &owner).unwrap();
    assert_eq!(listed, [replaced.clone(), second.clone()], "oldest first, with their terms");

    store::delete(services.db, &owner, &id).unwrap();
    assert!(matches!(store::get(services.db, &owner, &id), Err(TermsError::NotFound)));
    assert!(matches!(store::delete(services.db, &owner, &id), Err(TermsError::NotFound)));
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
    let created = store::create(&services, &owner, &new_list("Mine", &["Glossa"])).unwrap();
    let id = Id::parse(&created.spoken_terms_id).unwrap();
    assert!(matches!(store::get(services.db, &stranger, &id), Err(TermsError::NotFound)));
    let change = TermsChange { name: Some("Theirs".into()), terms: Some(vec!["x".into()]) };
    assert!(matches!(store::replace(&services, &stranger, &id, &change), Err(TermsError::NotFound)));
    assert!(matches!(store::delete(services.db, &stranger, &id), Err(TermsError::NotFound)));
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
        store::create(&services, &owner, &full).unwrap();
    }
    let error = store::create(&services, &owner, &full).unwrap_err();
    assert_eq!(error.to_string(), "Quota exceeded. The maximum number of spoken terms lists (100) has been reached.");
    assert_eq!(store::list(services.db, &owner).unwrap().len(), MAX_LISTS as usize);
    assert_eq!(store::list(services.db, &owner).unwrap()[0].terms.len(), MAX_TERMS);
    // Another subscription has its own count.
    store::create(&services, &principal(&fixture).subscription.id, &full).unwrap();
}

#[test]
fn a_session_names_a_list_of_its_subscription_and_the_claim_carries_its_terms() {
    let fixture = fixture();
    let services = fixture.services();
    let pro = principal(&fixture);
    let list = store::create(&services, &pro.subscription.id, &new_list("Products", &["Glossa", "Spin"])).unwrap();
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
    store::replace(&services, &pro.subscription.id, &list_id, &TermsChange { name: None, terms: Some(terms.clone()) })
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
    store::delete(services.db, &pro.subscription.id, &list_id).unwrap();
    assert!(gateway::claim(&services, &secret(), &later.token).unwrap().spoken_terms.is_empty());
}
