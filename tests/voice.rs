//! Component `voice`: real-time voice sessions over HTTP (`/v3/voice/realtime` and `/v1/…`),
//! and the internal routes the voice gateway uses: claims of single-use tokens, usage billed in
//! milliseconds within the key's limit, translations of segments, endings.

use e2e::{BOOTSTRAP_ADMIN_KEY, Json, Options, Reply, TestApp, json};

const TOKEN_SECRET: &str = "the e2e voice token secret";
const GATEWAY_SECRET: &str = "the e2e voice gateway secret";
const PUBLIC_URL: &str = "wss://voice.example.test";

fn app() -> (TestApp, String) {
    let app = TestApp::start(
        Options::app()
            .env("SPIN_VARIABLE_VOICE_TOKEN_SECRET", TOKEN_SECRET)
            .env("SPIN_VARIABLE_VOICE_GATEWAY_SECRET", GATEWAY_SECRET)
            .env("SPIN_VARIABLE_VOICE_PUBLIC_URL", PUBLIC_URL),
    );
    let key = app.developer_key();
    (app, key)
}

fn message(reply: &Reply) -> String {
    reply.json()["message"].as_str().unwrap_or_default().to_owned()
}

fn session(app: &TestApp, key: &str, body: Json) -> Reply {
    app.post_json("/v3/voice/realtime", key, &body)
}

fn opened(app: &TestApp, key: &str, body: Json) -> Json {
    let reply = session(app, key, body);
    assert_eq!(reply.status, 200, "{}", reply.text());
    reply.json()
}

fn reconnect(app: &TestApp, key: &str, token: &str, version: &str) -> Reply {
    // A token is letters, digits, dots and hyphens: nothing to escape in a query.
    app.call("GET", &format!("/{version}/voice/realtime?token={token}"), key)
}

/// A call of the gateway's, with its secret.
fn gateway(app: &TestApp, action: &str, body: Json) -> Reply {
    gateway_with(app, action, &format!("Bearer {GATEWAY_SECRET}"), body)
}

fn gateway_with(app: &TestApp, action: &str, authorization: &str, body: Json) -> Reply {
    app.request(
        "POST",
        &format!("/internal/voice/{action}"),
        &[("authorization", authorization), ("content-type", "application/json")],
        Some(body.to_string().as_bytes()),
    )
}

fn usage(app: &TestApp, key: &str) -> Json {
    app.call("GET", "/v2/usage", key).json()
}

/// A new developer key of the bootstrap subscription, with a speech limit set by the admin API.
fn key_with_speech_limit(app: &TestApp, milliseconds: i64) -> String {
    let created = app.create_developer_key(BOOTSTRAP_ADMIN_KEY, Some("limited"));
    let limits = json!({"key_id": created["key_id"], "characters": null, "speech_to_text_milliseconds": milliseconds});
    let authorization = format!("Service-Auth-Key {BOOTSTRAP_ADMIN_KEY}");
    let put = app.request(
        "PUT",
        "/v2/admin/developer-keys/limits",
        &[("authorization", &authorization), ("content-type", "application/json")],
        Some(limits.to_string().as_bytes()),
    );
    assert_eq!(put.status, 200, "{}", put.text());
    created["key"].as_str().expect("a key").to_owned()
}

fn pcm() -> Json {
    json!({"source_media_content_type": "audio/pcm;encoding=s16le;rate=16000"})
}

#[test]
fn a_session_answers_the_gateway_url_a_token_and_its_id() {
    let (app, key) = app();
    let body = json!({
        "source_media_content_type": "audio/ogg; codecs=opus",
        "message_format": "msgpack",
        "source_language": "en",
        "source_language_mode": "fixed",
        "target_languages": ["de", "fr", "zh-HANS"],
        "formality": "formal",
    });
    let answer = opened(&app, &key, body);
    assert_eq!(answer["streaming_url"], "wss://voice.example.test/v3/voice/realtime/connect");
    let token = answer["token"].as_str().unwrap();
    assert!(token.len() > 40, "{token}");
    assert!(!token.contains(TOKEN_SECRET));
    let id = answer["session_id"].as_str().unwrap();
    assert_eq!(id.len(), 36, "{id}");

    // The gateway claims it and learns the session's parameters.
    let claimed = gateway(&app, "claim", json!({"token": token}));
    assert_eq!(claimed.status, 200, "{}", claimed.text());
    let claimed = claimed.json();
    assert_eq!(claimed["session_id"], id);
    assert_eq!(claimed["connection"], 1);
    assert_eq!(claimed["remaining_ms"], Json::Null);
    let parameters = &claimed["parameters"];
    assert_eq!(parameters["source_media_content_type"], "audio/ogg;codecs=opus");
    assert_eq!(parameters["message_format"], "msgpack");
    assert_eq!(parameters["source_language"], "en");
    assert_eq!(parameters["source_language_mode"], "fixed");
    assert_eq!(parameters["target_languages"], json!(["de", "fr", "zh-HANS"]));
    assert_eq!(parameters["formality"], "formal");

    // The v1 path answers the v1 URL.
    let v1 = app.post_json("/v1/voice/realtime", &key, &pcm());
    assert_eq!(v1.status, 200, "{}", v1.text());
    assert_eq!(v1.json()["streaming_url"], "wss://voice.example.test/v1/voice/realtime/connect");
}

#[test]
fn every_parameter_is_checked_and_named() {
    let (app, key) = app();
    let cases = [
        (json!({}), "Parameter 'source_media_content_type' not specified"),
        (
            json!({"source_media_content_type": "audio/wav"}),
            "Value for 'source_media_content_type' not supported: 'audio/wav' is not a supported audio format.",
        ),
        (
            json!({"source_media_content_type": "audio/auto", "message_format": "xml"}),
            "Value for 'message_format' not supported: 'xml'; use json or msgpack.",
        ),
        (
            json!({"source_media_content_type": "audio/auto", "source_language": "eo"}),
            "Value for 'source_language' not supported: 'eo' is not a language of real-time voice.",
        ),
        (
            json!({"source_media_content_type": "audio/auto", "source_language_mode": "fixed"}),
            "Value for 'source_language_mode' not supported: 'fixed' needs a source_language.",
        ),
        (
            json!({"source_media_content_type": "audio/auto", "target_languages": ["de", "fr", "es", "it", "nl", "pl"]}),
            "Value for 'target_languages' not supported: at most 5 languages may be given.",
        ),
        (
            json!({"source_media_content_type": "audio/auto", "target_media_languages": ["de", "fr"]}),
            "Value for 'target_media_languages' not supported: at most 1 language may be given.",
        ),
        (
            json!({"source_media_content_type": "audio/auto", "target_media_content_type": "audio/mp4"}),
            "Value for 'target_media_content_type' not supported: 'audio/mp4' is not a supported audio format.",
        ),
        (
            json!({"source_media_content_type": "audio/auto", "formality": "polite"}),
            "Value for 'formality' not supported: 'polite'; use default, formal, more, informal or less.",
        ),
        (
            json!({"source_media_content_type": "audio/auto", "glossary_id": "x"}),
            "Value for 'glossary_id' not supported: not a glossary id.",
        ),
        (
            json!({"source_media_content_type": "audio/auto", "spoken_terms_id": "7c4f1080-cfe2-41d4-8269-0e6ec15a0354"}),
            "Value for 'spoken_terms_id' not supported: spoken terms lists are not available on this deployment yet.",
        ),
    ];
    for (body, expected) in cases {
        let reply = session(&app, &key, body.clone());
        assert_eq!(reply.status, 400, "{body}: {}", reply.text());
        assert_eq!(message(&reply), expected, "{body}");
    }
    let unknown = session(
        &app,
        &key,
        json!({"source_media_content_type": "audio/auto", "glossary_id": "def3a26b-3e84-45b3-84ae-0c0aaf3525f7"}),
    );
    assert_eq!(unknown.status, 404, "{}", unknown.text());
    let speech =
        session(&app, &key, json!({"source_media_content_type": "audio/auto", "target_media_languages": ["de"]}));
    assert_eq!(speech.status, 403, "{}", speech.text());
    assert!(message(&speech).contains("closed beta"), "{}", speech.text());
    assert_eq!(app.call("DELETE", "/v3/voice/realtime", &key).status, 405);
    assert_eq!(session(&app, "not-a-key", pcm()).status, 403);
}

#[test]
fn free_subscriptions_and_used_up_speech_limits_get_no_session() {
    let (app, _) = app();
    let (_, free_admin) = app.create_subscription("free");
    let free_key = app.create_developer_key(&free_admin, None)["key"].as_str().unwrap().to_owned();
    let reply = session(&app, &free_key, pcm());
    assert_eq!(reply.status, 403, "{}", reply.text());
    assert_eq!(message(&reply), "Real-time voice is available to Pro subscriptions only.");

    let blocked = key_with_speech_limit(&app, 0);
    let reply = session(&app, &blocked, pcm());
    assert_eq!(reply.status, 456, "{}", reply.text());
}

#[test]
fn a_token_connects_once_and_reconnects_supersede_the_connection() {
    let (app, key) = app();
    let first = opened(&app, &key, pcm());
    let token = first["token"].as_str().unwrap();
    assert_eq!(gateway(&app, "claim", json!({"token": token})).status, 200);

    // Reconnect: a fresh token for the same session; the first connection is superseded.
    let second = reconnect(&app, &key, token, "v3");
    assert_eq!(second.status, 200, "{}", second.text());
    let second = second.json();
    assert_eq!(second["session_id"], first["session_id"]);
    assert_ne!(second["token"], first["token"]);
    let superseded = gateway(
        &app,
        "usage",
        json!({"session_id": first["session_id"], "connection": 1, "sequence": 1, "milliseconds": 1500}),
    );
    assert_eq!(superseded.status, 409, "{}", superseded.text());
    assert_eq!(superseded.json()["code"], "superseded");
    let next = gateway(&app, "claim", json!({"token": second["token"]}));
    assert_eq!(next.json()["connection"], 2, "{}", next.text());

    // The second token again: the session ends.
    let reused = gateway(&app, "claim", json!({"token": second["token"]}));
    assert_eq!(reused.status, 409, "{}", reused.text());
    assert_eq!(reused.json()["code"], "token_reused");
    let after = reconnect(&app, &key, second["token"].as_str().unwrap(), "v1");
    assert_eq!(after.status, 400, "{}", after.text());
    assert_eq!(message(&after), "The session has ended: request a new session.");
    assert_eq!(usage(&app, &key)["speech_to_text_milliseconds_count"], 1500, "superseded audio is still billed");
}

#[test]
fn an_outdated_token_ends_the_session_and_forged_tokens_open_nothing() {
    let (app, key) = app();
    let first = opened(&app, &key, pcm());
    let token = first["token"].as_str().unwrap();
    let second = reconnect(&app, &key, token, "v3").json();
    let outdated = reconnect(&app, &key, token, "v3");
    assert_eq!(outdated.status, 400, "{}", outdated.text());
    assert_eq!(message(&outdated), "The token is outdated: the session has ended. Request a new session.");
    let ended = gateway(&app, "claim", json!({"token": second["token"]}));
    assert_eq!((ended.status, ended.json()["code"].clone()), (409, json!("session_ended")), "{}", ended.text());

    let forged = token.replace(".1.", ".2.");
    assert_eq!(reconnect(&app, &key, &forged, "v3").status, 400);
    assert_eq!(gateway(&app, "claim", json!({"token": forged})).status, 404);
    assert_eq!(reconnect(&app, &key, "", "v3").status, 400);
    // Another subscription cannot reconnect a session it does not own.
    let (_, other_admin) = app.create_subscription("pro");
    let other_key = app.create_developer_key(&other_admin, None)["key"].as_str().unwrap().to_owned();
    let mine = opened(&app, &key, pcm());
    let stranger = reconnect(&app, &other_key, mine["token"].as_str().unwrap(), "v3");
    assert_eq!(stranger.status, 404, "{}", stranger.text());
}

#[test]
fn usage_reports_bill_milliseconds_once_and_a_limit_ends_the_stream_with_456() {
    let (app, key) = app();
    let limited = &key_with_speech_limit(&app, 10_000);

    let answer = opened(&app, limited, pcm());
    let claimed = gateway(&app, "claim", json!({"token": answer["token"]})).json();
    assert_eq!(claimed["remaining_ms"], 10000);
    let report = |sequence: i64, milliseconds: i64| {
        gateway(
            &app,
            "usage",
            json!({"session_id": answer["session_id"], "connection": 1, "sequence": sequence, "milliseconds": milliseconds}),
        )
    };
    let first = report(1, 6000);
    assert_eq!((first.status, first.json()), (200, json!({"remaining_ms": 4000})), "{}", first.text());
    assert_eq!(report(1, 6000).json(), json!({"remaining_ms": 4000}), "a report sent again is billed once");
    let over = report(2, 6000);
    assert_eq!(over.status, 456, "{}", over.text());
    let billed = usage(&app, limited);
    assert_eq!(billed["speech_to_text_milliseconds_count"], 10000);
    assert_eq!(billed["speech_to_text_minutes_count"], 1);
    assert_eq!(usage(&app, &key)["speech_to_text_milliseconds_count"], 10000, "the subscription's count");
    let again = session(&app, limited, pcm());
    assert_eq!(again.status, 456, "{}", again.text());

    let checks = [
        (json!({"session_id": answer["session_id"], "connection": 0, "sequence": 1, "milliseconds": 1}), "connection"),
        (json!({"session_id": answer["session_id"], "connection": 1, "sequence": 1}), "milliseconds"),
        (json!({"session_id": "x", "connection": 1, "sequence": 1, "milliseconds": 1}), "session_id"),
    ];
    for (body, name) in checks {
        let reply = gateway(&app, "usage", body);
        assert_eq!(reply.status, 400, "{}", reply.text());
        assert!(message(&reply).contains(&format!("'{name}'")), "{}", reply.text());
    }
}

#[test]
fn the_gateway_translates_segments_into_the_session_targets_and_ends_connections() {
    let (app, key) = app();
    let answer = opened(
        &app,
        &key,
        json!({"source_media_content_type": "audio/auto", "source_language": "en", "target_languages": ["de", "fr"]}),
    );
    let id = answer["session_id"].clone();
    let translate = |target: &str| {
        gateway(
            &app,
            "translate",
            json!({"session_id": id, "texts": ["Good morning.", "How are you?"], "source_lang": "en", "target_lang": target}),
        )
    };
    let german = translate("de");
    assert_eq!(german.status, 200, "{}", german.text());
    let texts = german.json()["translations"].clone();
    assert_eq!(texts.as_array().map(Vec::len), Some(2), "{texts}");
    assert_ne!(texts[0], "Good morning.");
    let spanish = translate("es");
    assert_eq!(spanish.status, 400, "{}", spanish.text());
    assert!(message(&spanish).contains("'es' is not a target of this session"), "{}", spanish.text());
    assert_eq!(usage(&app, &key)["character_count"], 0, "segments bill milliseconds, not characters");

    let claimed = gateway(&app, "claim", json!({"token": answer["token"]}));
    assert_eq!(claimed.status, 200);
    let end = gateway(&app, "end", json!({"session_id": id, "connection": 1, "reason": "completed"}));
    assert_eq!(end.status, 204, "{}", end.text());
    let after = reconnect(&app, &key, answer["token"].as_str().unwrap(), "v3");
    assert_eq!(after.status, 400, "a completed session cannot be reconnected: {}", after.text());
    let bad = gateway(&app, "end", json!({"session_id": id, "connection": 1, "reason": "bored"}));
    assert_eq!(bad.status, 400, "{}", bad.text());
}

#[test]
fn internal_routes_need_the_gateway_secret_and_voice_needs_its_secrets() {
    let (app, key) = app();
    let answer = opened(&app, &key, pcm());
    let body = json!({"token": answer["token"]});
    for authorization in ["", "Bearer wrong secret, long enough", &format!("Service-Auth-Key {key}")] {
        let reply = gateway_with(&app, "claim", authorization, body.clone());
        assert_eq!(reply.status, 401, "{authorization}: {}", reply.text());
    }
    assert_eq!(gateway(&app, "claim", body).status, 200, "the refused calls claimed nothing");
    assert_eq!(app.call("GET", "/internal/voice/claim", &key).status, 405);
    assert_eq!(gateway(&app, "unknown", json!({})).status, 404);

    let bare = TestApp::start(Options::app());
    let bare_key = bare.developer_key();
    let reply = session(&bare, &bare_key, pcm());
    assert_eq!(reply.status, 503, "{}", reply.text());
    assert_eq!(message(&reply), "Real-time voice is not set up on this deployment.");
    let reply = gateway(&bare, "claim", json!({"token": "x"}));
    assert_eq!(reply.status, 503, "{}", reply.text());
}
