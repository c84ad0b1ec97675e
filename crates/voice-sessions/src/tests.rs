//! Sessions against the real schema: opening, tokens used once, reconnects, usage billed once
//! within the limits, endings, and segments translated as the session says.

use accounts::{Actor, KeyKind, Plan, Principal, create_key, create_subscription};
use engines::DeterministicEngine;
use platform::native::NativeHost;
use platform::{Database, FixedClock, Id};

use crate::gateway::{self, ClaimError};
use crate::store::{self, Ending, SessionError, State, UsageOutcome, UsageReport};
use crate::*;

const URL: &str = "wss://voice.example.com/";

fn fixture() -> NativeHost {
    NativeHost::with_app_schema(FixedClock::at_unix(1_795_255_200)).expect("set up the host")
}

fn secret() -> TokenSecret {
    TokenSecret::new("the deployment's token secret").unwrap()
}

fn principal(fixture: &NativeHost, plan: Plan) -> Principal {
    let services = fixture.services();
    let subscription = create_subscription(&services, plan).unwrap();
    let key = create_key(&services, &subscription, KeyKind::Developer, None, Actor::Operator).unwrap().key;
    Principal { subscription, key }
}

fn parameters(targets: &[&str]) -> SessionParameters {
    RawSessionRequest {
        source_media_content_type: Some("audio/pcm;encoding=s16le;rate=16000".into()),
        source_language: Some("en".into()),
        target_languages: Some(targets.iter().map(|code| code.to_string()).collect()),
        formality: Some("more".into()),
        ..RawSessionRequest::default()
    }
    .parse()
    .unwrap()
}

fn opened(fixture: &NativeHost, principal: &Principal) -> StreamingAnswer {
    open(&fixture.services(), principal, parameters(&["de"]), &secret(), URL, "v3").unwrap()
}

fn state(fixture: &NativeHost, answer: &StreamingAnswer) -> store::Session {
    store::find(&fixture.services(), &Id::parse(&answer.session_id).unwrap()).unwrap().unwrap()
}

fn report(connection: i64, sequence: i64, milliseconds: i64) -> UsageReport {
    UsageReport { connection, sequence, milliseconds }
}

#[test]
fn a_pro_key_gets_a_session_a_signed_token_and_the_gateway_url() {
    let fixture = fixture();
    let pro = principal(&fixture, Plan::Pro);
    let answer = opened(&fixture, &pro);
    assert_eq!(answer.streaming_url, "wss://voice.example.com/v3/voice/realtime/connect");
    let token = secret().verify(&answer.token).unwrap();
    assert_eq!(token.session.to_string(), answer.session_id);
    assert_eq!(token.generation, 1);
    let session = state(&fixture, &answer);
    assert_eq!((session.state, session.key_id.as_str()), (State::Open, pro.key.id.as_str()));
    assert_eq!(session.parameters, parameters(&["de"]));

    let v1 = open(&fixture.services(), &pro, parameters(&[]), &secret(), URL, "v1").unwrap();
    assert_eq!(v1.streaming_url, "wss://voice.example.com/v1/voice/realtime/connect");
}

#[test]
fn free_plans_speech_targets_unknown_glossaries_and_used_up_limits_are_refused() {
    let fixture = fixture();
    let services = fixture.services();
    let free = principal(&fixture, Plan::Free);
    let error = open(&services, &free, parameters(&[]), &secret(), URL, "v3").unwrap_err();
    assert!(matches!(error, OpenError::FreePlan), "{error}");

    let pro = principal(&fixture, Plan::Pro);
    let mut speaking = parameters(&["de"]);
    speaking.target_media_languages = vec!["de".into()];
    let error = open(&services, &pro, speaking, &secret(), URL, "v3").unwrap_err();
    assert!(matches!(error, OpenError::SpeechNotEnabled), "{error}");

    let mut glossary = parameters(&["de"]);
    glossary.glossary_id = Some("def3a26b-3e84-45b3-84ae-0c0aaf3525f7".into());
    let error = open(&services, &pro, glossary, &secret(), URL, "v3").unwrap_err();
    assert_eq!(error.to_string(), "Glossary def3a26b-3e84-45b3-84ae-0c0aaf3525f7 not found.");

    let mut limited = pro.clone();
    limited.key.speech_limit_ms = Some(0);
    let error = open(&services, &limited, parameters(&[]), &secret(), URL, "v3").unwrap_err();
    assert!(matches!(error, OpenError::QuotaExceeded), "{error}");
    let sessions = fixture.db.execute("SELECT COUNT(*) FROM voice_sessions", &[]).unwrap();
    assert_eq!(sessions.first().unwrap().get::<i64>(0).unwrap(), 0);
}

#[test]
fn translated_speech_needs_the_subscription_switch_which_its_admins_turn_on_and_off() {
    let fixture = fixture();
    let services = fixture.services();
    let pro = principal(&fixture, Plan::Pro);
    let subscription = pro.subscription.id.as_str();
    let mut speaking = parameters(&["fr"]);
    speaking.target_media_languages = vec!["de".into()];
    speaking.target_languages.push("de".into());
    assert!(!crate::settings::translated_speech(&services, subscription).unwrap().translated_speech);
    let refused = open(&services, &pro, speaking.clone(), &secret(), URL, "v3").unwrap_err();
    assert!(matches!(refused, OpenError::SpeechNotEnabled), "{refused}");

    let admin = Actor::AdminKey("admin-key-1:adm");
    crate::settings::set_translated_speech(&services, subscription, true, admin).unwrap();
    let answer = open(&services, &pro, speaking.clone(), &secret(), URL, "v3").unwrap();
    let claimed = gateway::claim(&services, &secret(), &answer.token).unwrap();
    assert_eq!(claimed.parameters.target_media_languages, ["de"]);
    assert_eq!(claimed.parameters.target_media_content_type, "audio/webm;codecs=opus");
    // Another subscription is not affected; turning it off again refuses new sessions.
    let other = principal(&fixture, Plan::Pro);
    assert!(open(&services, &other, speaking.clone(), &secret(), URL, "v3").is_err());
    crate::settings::set_translated_speech(&services, subscription, false, admin).unwrap();
    assert!(open(&services, &pro, speaking, &secret(), URL, "v3").is_err());

    // Each change is in the subscription's audit log: who, and the switch before and after.
    crate::settings::set_translated_speech(&services, subscription, false, admin).unwrap();
    let entries = switch_entries(&fixture, &pro);
    let entry = |old: bool, new: bool| {
        (
            "change_translated_speech".to_owned(),
            Some("admin-key-1:adm".to_owned()),
            subscription.to_owned(),
            Some(serde_json::json!({"translated_speech": old})),
            Some(serde_json::json!({"translated_speech": new})),
        )
    };
    assert_eq!(entries, [entry(true, false), entry(false, true)], "newest first; off again records nothing");
    assert!(switch_entries(&fixture, &other).is_empty(), "one subscription's log");
}

/// The subscription's audit log entries for its subscription (not its keys), as the admin API
/// reads them: action, admin key, target, values before and after.
type Entry = (String, Option<String>, String, Option<serde_json::Value>, Option<serde_json::Value>);

fn switch_entries(fixture: &NativeHost, principal: &Principal) -> Vec<Entry> {
    let today = metering::DateRange::parse(Some("2026-11-21"), Some("2026-11-21")).unwrap();
    let log = metering::audit_log(&fixture.db, &principal.subscription, &today, 0).unwrap().audit_log;
    log.entries
        .into_iter()
        .filter(|entry| entry.target_type == "subscription")
        .map(|entry| (entry.action, entry.admin_key_id, entry.target_id, entry.old_value, entry.new_value))
        .collect()
}

#[test]
fn a_token_connects_once_and_a_second_use_ends_the_session() {
    let fixture = fixture();
    let services = fixture.services();
    let pro = principal(&fixture, Plan::Pro);
    let answer = opened(&fixture, &pro);
    let claimed = gateway::claim(&services, &secret(), &answer.token).unwrap();
    assert_eq!((claimed.session_id.as_str(), claimed.connection), (answer.session_id.as_str(), 1));
    assert_eq!(claimed.parameters.target_languages, ["de"]);
    assert_eq!(claimed.remaining_ms, None);

    let again = gateway::claim(&services, &secret(), &answer.token).unwrap_err();
    assert!(matches!(again, ClaimError::Session(SessionError::Reused)), "{again}");
    let session = state(&fixture, &answer);
    assert_eq!((session.state, session.ended_reason.as_deref()), (State::Terminated, Some("token_reused")));
    // The session is over for good: no reconnect, no claim.
    let error = reopen(&services, &pro, &answer.token, &secret(), URL, "v3").unwrap_err();
    assert!(matches!(error, OpenError::Session(SessionError::Ended)), "{error}");
    let error = gateway::claim(&services, &secret(), &answer.token).unwrap_err();
    assert!(matches!(error, ClaimError::Session(SessionError::Ended)), "{error}");
}

#[test]
fn forged_and_expired_tokens_claim_nothing() {
    let fixture = fixture();
    let services = fixture.services();
    let answer = opened(&fixture, &principal(&fixture, Plan::Pro));
    let other = TokenSecret::new("another deployment's secret").unwrap();
    let error = gateway::claim(&services, &other, &answer.token).unwrap_err();
    assert!(matches!(error, ClaimError::Token(TokenError::Invalid)), "{error}");
    let token = secret().verify(&answer.token).unwrap();
    let stale = secret().sign(&Token { expires_ms: 1_795_255_200_000, ..token });
    let error = gateway::claim(&services, &secret(), &stale).unwrap_err();
    assert!(matches!(error, ClaimError::Token(TokenError::Expired)), "{error}");
    assert_eq!(state(&fixture, &answer).state, State::Open);
}

#[test]
fn a_reconnect_gives_the_next_token_and_an_outdated_one_ends_the_session() {
    let fixture = fixture();
    let services = fixture.services();
    let pro = principal(&fixture, Plan::Pro);
    let first = opened(&fixture, &pro);
    gateway::claim(&services, &secret(), &first.token).unwrap();
    let second = reopen(&services, &pro, &first.token, &secret(), URL, "v3").unwrap();
    assert_eq!(second.session_id, first.session_id);
    assert_eq!(secret().verify(&second.token).unwrap().generation, 2);
    // The first connection learns at its next report that it was superseded; its audio is billed.
    let id = Id::parse(&first.session_id).unwrap();
    assert_eq!(store::report_usage(&services, &id, report(1, 1, 700)).unwrap(), UsageOutcome::Superseded);
    assert_eq!(state(&fixture, &first).milliseconds, 700);
    let claimed = gateway::claim(&services, &secret(), &second.token).unwrap();
    assert_eq!(claimed.connection, 2);

    // Another subscription's key cannot reconnect it.
    let stranger = principal(&fixture, Plan::Pro);
    let error = reopen(&services, &stranger, &second.token, &secret(), URL, "v3").unwrap_err();
    assert!(matches!(error, OpenError::Session(SessionError::NotFound)), "{error}");
    // The outdated first token ends the session.
    let error = reopen(&services, &pro, &first.token, &secret(), URL, "v3").unwrap_err();
    assert!(matches!(error, OpenError::Session(SessionError::Outdated)), "{error}");
    let session = state(&fixture, &first);
    assert_eq!((session.state, session.ended_reason.as_deref()), (State::Terminated, Some("token_outdated")));
}

#[test]
fn usage_is_billed_once_per_report_and_ends_the_session_at_the_limit() {
    let fixture = fixture();
    let services = fixture.services();
    let mut pro = principal(&fixture, Plan::Pro);
    fixture
        .db
        .execute("UPDATE api_keys SET speech_limit_ms = 5000 WHERE id = ?", &[pro.key.id.as_str().into()])
        .unwrap();
    pro.key.speech_limit_ms = Some(5_000);
    let answer = opened(&fixture, &pro);
    let claimed = gateway::claim(&services, &secret(), &answer.token).unwrap();
    assert_eq!(claimed.remaining_ms, Some(5_000));
    let id = Id::parse(&answer.session_id).unwrap();
    let go_on = |remaining| UsageOutcome::Continue { remaining_ms: Some(remaining) };
    let unknown = store::report_usage(&services, &id, report(2, 1, 3_000)).unwrap_err();
    assert!(matches!(unknown, SessionError::UnknownConnection(2)), "{unknown}");
    assert_eq!(store::report_usage(&services, &id, report(1, 1, 3_000)).unwrap(), go_on(2_000));
    // The same report again (its answer was lost): not billed twice.
    assert_eq!(store::report_usage(&services, &id, report(1, 1, 3_000)).unwrap(), go_on(2_000));
    assert_eq!(store::report_usage(&services, &id, report(1, 2, 0)).unwrap(), go_on(2_000));
    assert_eq!(store::report_usage(&services, &id, report(1, 3, 2_500)).unwrap(), UsageOutcome::LimitReached);
    let session = state(&fixture, &answer);
    assert_eq!(session.milliseconds, 5_000, "billed up to the limit, not past it");
    assert_eq!((session.state, session.ended_reason.as_deref()), (State::Terminated, Some("limit_reached")));
    let usage = metering::usage_report(&services, &pro).unwrap().pro.unwrap();
    assert_eq!(usage.speech_to_text_milliseconds_count, 5_000);
    assert_eq!(usage.speech_to_text_minutes_count, 1);
}

#[test]
fn a_completed_stream_ends_the_session_and_a_closed_one_may_reconnect() {
    let fixture = fixture();
    let services = fixture.services();
    let pro = principal(&fixture, Plan::Pro);
    let answer = opened(&fixture, &pro);
    let id = Id::parse(&answer.session_id).unwrap();
    gateway::claim(&services, &secret(), &answer.token).unwrap();
    store::end(&services, &id, 1, Ending::Closed).unwrap();
    assert_eq!(state(&fixture, &answer).state, State::Open);
    let next = reopen(&services, &pro, &answer.token, &secret(), URL, "v3").unwrap();
    gateway::claim(&services, &secret(), &next.token).unwrap();
    // An old connection's ending changes nothing; the current one's does.
    store::end(&services, &id, 1, Ending::Error).unwrap();
    assert_eq!(state(&fixture, &answer).state, State::Open);
    store::end(&services, &id, 2, Ending::Completed).unwrap();
    let session = state(&fixture, &answer);
    assert_eq!((session.state, session.ended_reason.as_deref()), (State::Ended, Some("completed")));
    assert_eq!(store::report_usage(&services, &id, report(2, 9, 100)).unwrap(), UsageOutcome::Ended);
    assert_eq!(state(&fixture, &answer).milliseconds, 100, "audio sent before the end is still billed");
}

#[test]
fn segments_are_translated_into_the_session_targets_without_billing_characters() {
    let fixture = fixture();
    let services = fixture.services();
    let pro = principal(&fixture, Plan::Pro);
    let answer = open(&services, &pro, parameters(&["de", "fr"]), &secret(), URL, "v3").unwrap();
    let id = Id::parse(&answer.session_id).unwrap();
    let texts = vec!["Good morning.".to_owned(), "The weather is fine.".to_owned()];
    let engine = DeterministicEngine;
    let detector = engines::detect::Builtin;
    let german =
        gateway::translate(&services, &engine, &detector, &id, texts.clone(), "en", "de").unwrap().translations;
    assert_eq!(german.len(), 2);
    assert_ne!(german, texts);
    // A language the recogniser names but the API does not translate from is detected instead.
    let hawaiian = gateway::translate(&services, &engine, &detector, &id, texts.clone(), "haw", "de").unwrap();
    assert_eq!(hawaiian.translations.len(), 2);
    let error = gateway::translate(&services, &engine, &detector, &id, texts, "en", "es").unwrap_err();
    assert!(error.to_string().contains("'es' is not a target of this session"), "{error}");
    let usage = metering::usage_report(&services, &pro).unwrap();
    assert_eq!(usage.character_count, 0);
}
