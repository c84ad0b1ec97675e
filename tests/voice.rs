//! Component `voice`: real-time voice sessions over HTTP (`/v3/voice/realtime` and `/v1/…`),
//! the internal routes the voice gateway uses: claims of single-use tokens, usage billed in
//! milliseconds within the key's limit, translations of segments, endings; and the spoken terms
//! lists admin keys manage (`/v2/admin/spoken-terms`) and sessions name.

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
            json!({"source_media_content_type": "audio/auto", "spoken_terms_id": "7c4f1080"}),
            "Value for 'spoken_terms_id' not supported: not a UUID.",
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
    let terms = session(
        &app,
        &key,
        json!({"source_media_content_type": "audio/auto", "spoken_terms_id": "7c4f1080-cfe2-41d4-8269-0e6ec15a0354"}),
    );
    assert_eq!((terms.status, message(&terms)), (404, "Spoken terms list not found.".to_owned()), "{}", terms.text());
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

    let blocked = app.developer_key_with_speech_limit(0);
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
    let limited = &app.developer_key_with_speech_limit(10_000);

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

/// An admin call with a JSON body (none for `GET` and `DELETE`).
fn admin_call(app: &TestApp, method: &str, path: &str, admin_key: &str, body: Option<Json>) -> Reply {
    let authorization = format!("Service-Auth-Key {admin_key}");
    match body {
        Some(body) => app.request(
            method,
            path,
            &[("authorization", &authorization), ("content-type", "application/json")],
            Some(body.to_string().as_bytes()),
        ),
        None => app.call(method, path, admin_key),
    }
}

const SPOKEN_TERMS: &str = "/v2/admin/spoken-terms";

fn terms_list(app: &TestApp, admin_key: &str, name: &str, terms: &[&str]) -> Json {
    let reply = admin_call(app, "POST", SPOKEN_TERMS, admin_key, Some(json!({"name": name, "terms": terms})));
    assert_eq!(reply.status, 201, "{}", reply.text());
    reply.json()
}

#[test]
fn admin_keys_create_read_list_replace_and_delete_spoken_terms_lists() {
    let (app, _) = app();
    let admin = BOOTSTRAP_ADMIN_KEY;
    let created = terms_list(&app, admin, "  Products ", &[" Glossa", "Spin ", "WebAssembly"]);
    let id = created["spoken_terms_id"].as_str().expect("an id").to_owned();
    assert_eq!(id.len(), 36, "{id}");
    assert_eq!(created["name"], "Products");
    assert_eq!(created["terms"], json!(["Glossa", "Spin", "WebAssembly"]));
    let created_at = created["creation_time"].as_str().unwrap().to_owned();
    assert!(created_at.ends_with('Z') && created_at.len() == 24, "{created_at}");
    assert_eq!(created["updated_time"], created["creation_time"]);
    let path = format!("{SPOKEN_TERMS}/{id}");

    let read = admin_call(&app, "GET", &path, admin, None);
    assert_eq!((read.status, read.json()), (200, created.clone()), "{}", read.text());
    let upper = admin_call(&app, "GET", &format!("{SPOKEN_TERMS}/{}", id.to_uppercase()), admin, None);
    assert_eq!(upper.status, 200, "a UUID in any case: {}", upper.text());

    // A form body repeats `terms`.
    let authorization = format!("Service-Auth-Key {admin}");
    let form = app.request(
        "POST",
        SPOKEN_TERMS,
        &[("authorization", &authorization), ("content-type", "application/x-www-form-urlencoded")],
        Some(b"name=Places&terms=Zurich&terms=Lausanne"),
    );
    assert_eq!(form.status, 201, "{}", form.text());
    assert_eq!(form.json()["terms"], json!(["Zurich", "Lausanne"]));
    let listed = admin_call(&app, "GET", SPOKEN_TERMS, admin, None);
    assert_eq!(listed.status, 200, "{}", listed.text());
    assert_eq!(listed.json(), json!({"spoken_terms": [created, form.json()]}), "oldest first, with their terms");

    let renamed = admin_call(&app, "PUT", &path, admin, Some(json!({"name": "Brands"})));
    assert_eq!(renamed.status, 200, "{}", renamed.text());
    assert_eq!(
        (renamed.json()["name"].clone(), renamed.json()["terms"].clone()),
        (json!("Brands"), created["terms"].clone())
    );
    let replaced = admin_call(&app, "PUT", &path, admin, Some(json!({"terms": ["SQLite", "Glossa"]})));
    assert_eq!(replaced.status, 200, "{}", replaced.text());
    let replaced = replaced.json();
    assert_eq!((replaced["name"].clone(), replaced["terms"].clone()), (json!("Brands"), json!(["SQLite", "Glossa"])));
    assert_eq!(replaced["creation_time"], created_at);
    let both = admin_call(&app, "PUT", &path, admin, Some(json!({"name": "Both", "terms": ["One"]}))).json();
    assert_eq!((both["name"].clone(), both["terms"].clone()), (json!("Both"), json!(["One"])));

    let deleted = admin_call(&app, "DELETE", &path, admin, None);
    assert_eq!(deleted.status, 204, "{}", deleted.text());
    assert!(deleted.body.is_empty());
    for method in ["GET", "DELETE"] {
        let gone = admin_call(&app, method, &path, admin, None);
        assert_eq!((gone.status, message(&gone)), (404, "Spoken terms list not found.".to_owned()), "{method}");
    }
    let gone = admin_call(&app, "PUT", &path, admin, Some(json!({"name": "x"})));
    assert_eq!(gone.status, 404, "{}", gone.text());
    assert_eq!(admin_call(&app, "GET", SPOKEN_TERMS, admin, None).json()["spoken_terms"].as_array().unwrap().len(), 1);
}

#[test]
fn spoken_terms_lists_refuse_what_is_wrong_by_name_and_only_admins_of_their_subscription_see_them() {
    let (app, developer) = app();
    let admin = BOOTSTRAP_ADMIN_KEY;
    let long_term = "t".repeat(101);
    let many: Vec<String> = (0..251).map(|n| format!("term {n}")).collect();
    let wide: Vec<String> = (0..11).map(|n| format!("{n:02}{}", "x".repeat(88))).collect();
    let cases = [
        (json!({"terms": ["a"]}), "Parameter 'name' not specified"),
        (json!({"name": "n"}), "Parameter 'terms' not specified"),
        (json!({"name": " ", "terms": ["a"]}), "Value for 'name' not supported: the name may not be empty."),
        (
            json!({"name": "n".repeat(1025), "terms": ["a"]}),
            "Value for 'name' not supported: the name may hold at most 1024 characters.",
        ),
        (json!({"name": ["n"], "terms": ["a"]}), "Value for 'name' not supported."),
        (json!({"name": "n", "terms": 5}), "Value for 'terms' not supported."),
        (json!({"name": "n", "terms": []}), "Value for 'terms' not supported: give at least one term."),
        (json!({"name": "n", "terms": ["a", "  "]}), "Value for 'terms' not supported: term 2 is empty."),
        (
            json!({"name": "n", "terms": [long_term]}),
            "Value for 'terms' not supported: term 1 is longer than 100 characters.",
        ),
        (
            json!({"name": "n", "terms": ["line\nbreak"]}),
            "Value for 'terms' not supported: term 1 holds a control character (a line break, a tab).",
        ),
        (
            json!({"name": "n", "terms": ["Glossa", "glossa "]}),
            "Value for 'terms' not supported: 'glossa' is listed twice.",
        ),
        (
            json!({"name": "n", "terms": many}),
            "Value for 'terms' not supported: a list holds at most 250 terms; 251 were given.",
        ),
        (
            json!({"name": "n", "terms": wide}),
            "Value for 'terms' not supported: the terms together hold 1010 characters (joined by \", \"); at most 1000 fit the recogniser's prompt.",
        ),
    ];
    for (body, expected) in cases {
        let reply = admin_call(&app, "POST", SPOKEN_TERMS, admin, Some(body.clone()));
        assert_eq!(reply.status, 400, "{body}: {}", reply.text());
        assert_eq!(message(&reply), expected, "{body}");
    }
    let list = terms_list(&app, admin, "Mine", &["Glossa"]);
    let path = format!("{SPOKEN_TERMS}/{}", list["spoken_terms_id"].as_str().unwrap());
    let empty = admin_call(&app, "PUT", &path, admin, Some(json!({})));
    assert_eq!((empty.status, message(&empty)), (400, "Parameter 'name' or 'terms' not specified".to_owned()));
    let bad = admin_call(&app, "PUT", &path, admin, Some(json!({"name": "ok", "terms": ["a", "A"]})));
    assert_eq!((bad.status, message(&bad)), (400, "Value for 'terms' not supported: 'A' is listed twice.".to_owned()));
    assert_eq!(admin_call(&app, "GET", &path, admin, None).json(), list, "a refused change changes nothing");
    for method in ["GET", "PUT", "DELETE"] {
        let reply = admin_call(&app, method, &format!("{SPOKEN_TERMS}/not-a-uuid"), admin, Some(json!({"name": "x"})));
        assert_eq!(reply.status, 400, "{method}: {}", reply.text());
        assert_eq!(message(&reply), "Value for 'spoken_terms_id' not supported: not a UUID.");
        let unknown = format!("{SPOKEN_TERMS}/7c4f1080-cfe2-41d4-8269-0e6ec15a0354");
        assert_eq!(admin_call(&app, method, &unknown, admin, Some(json!({"name": "x"}))).status, 404, "{method}");
    }
    assert_eq!(admin_call(&app, "PATCH", &path, admin, Some(json!({"name": "x"}))).status, 405);
    assert_eq!(admin_call(&app, "DELETE", SPOKEN_TERMS, admin, None).status, 405);
    assert_eq!(admin_call(&app, "GET", &format!("{path}/terms"), admin, None).status, 404);

    // Developer keys, and no key, get 403, as everywhere in the admin API.
    for (method, route) in
        [("GET", SPOKEN_TERMS), ("POST", SPOKEN_TERMS), ("GET", &path), ("PUT", &path), ("DELETE", &path)]
    {
        let reply = admin_call(&app, method, route, &developer, Some(json!({"name": "x", "terms": ["y"]})));
        assert_eq!(reply.status, 403, "{method} {route}: {}", reply.text());
    }
    assert_eq!(app.get(SPOKEN_TERMS).status, 403);

    // Another subscription's admin sees none of them, and cannot change or delete them.
    let (_, other_admin) = app.create_subscription("pro");
    assert_eq!(admin_call(&app, "GET", SPOKEN_TERMS, &other_admin, None).json(), json!({"spoken_terms": []}));
    for method in ["GET", "PUT", "DELETE"] {
        let reply = admin_call(&app, method, &path, &other_admin, Some(json!({"name": "theirs"})));
        assert_eq!((reply.status, message(&reply)), (404, "Spoken terms list not found.".to_owned()), "{method}");
    }
    assert_eq!(admin_call(&app, "GET", &path, admin, None).json(), list);
    // Nor may its keys' sessions name them.
    let other_key = app.create_developer_key(&other_admin, None)["key"].as_str().unwrap().to_owned();
    let theirs = session(
        &app,
        &other_key,
        json!({"source_media_content_type": "audio/auto", "spoken_terms_id": list["spoken_terms_id"]}),
    );
    assert_eq!(
        (theirs.status, message(&theirs)),
        (404, "Spoken terms list not found.".to_owned()),
        "{}",
        theirs.text()
    );

    // A subscription holds at most 100 lists.
    for n in 0..100 {
        terms_list(&app, &other_admin, &format!("list {n}"), &["term"]);
    }
    let over = admin_call(&app, "POST", SPOKEN_TERMS, &other_admin, Some(json!({"name": "one more", "terms": ["x"]})));
    assert_eq!(over.status, 456, "{}", over.text());
    assert_eq!(message(&over), "Quota exceeded. The maximum number of spoken terms lists (100) has been reached.");
}

#[test]
fn a_session_names_its_subscriptions_list_and_the_gateway_claim_carries_its_terms() {
    let (app, key) = app();
    let list = terms_list(&app, BOOTSTRAP_ADMIN_KEY, "Products", &["Glossa", "Spin"]);
    let id = list["spoken_terms_id"].as_str().unwrap();
    let body = json!({"source_media_content_type": "audio/auto", "target_languages": ["de"], "spoken_terms_id": id.to_uppercase()});
    let answer = opened(&app, &key, body.clone());

    // The terms are read when the gateway claims the token: a change made since counts.
    let path = format!("{SPOKEN_TERMS}/{id}");
    let put = admin_call(&app, "PUT", &path, BOOTSTRAP_ADMIN_KEY, Some(json!({"terms": ["Glossa", "WebAssembly"]})));
    assert_eq!(put.status, 200, "{}", put.text());
    let claimed = gateway(&app, "claim", json!({"token": answer["token"]}));
    assert_eq!(claimed.status, 200, "{}", claimed.text());
    let claimed = claimed.json();
    assert_eq!(claimed["spoken_terms"], json!(["Glossa", "WebAssembly"]));
    assert_eq!(claimed["parameters"]["spoken_terms"], json!(["Glossa", "WebAssembly"]), "where the gateway reads them");
    assert_eq!(claimed["parameters"]["spoken_terms_id"], id);

    // A reconnect's claim reads them again; a deleted list leaves the session without terms.
    let next = reconnect(&app, &key, answer["token"].as_str().unwrap(), "v3").json();
    assert_eq!(admin_call(&app, "DELETE", &path, BOOTSTRAP_ADMIN_KEY, None).status, 204);
    let claimed = gateway(&app, "claim", json!({"token": next["token"]}));
    assert_eq!(claimed.status, 200, "{}", claimed.text());
    assert_eq!(claimed.json()["spoken_terms"], json!([]));
    // A new session cannot name the deleted list.
    let gone = session(&app, &key, body);
    assert_eq!((gone.status, message(&gone)), (404, "Spoken terms list not found.".to_owned()), "{}", gone.text());

    // Without a list, the claim carries none.
    let plain = opened(&app, &key, pcm());
    let claimed = gateway(&app, "claim", json!({"token": plain["token"]})).json();
    assert_eq!(
        (claimed["spoken_terms"].clone(), claimed["parameters"]["spoken_terms_id"].clone()),
        (json!([]), Json::Null)
    );
}

#[test]
fn admins_turn_translated_speech_on_for_their_subscription_and_sessions_may_then_ask_for_it() {
    let (app, key) = app();
    let admin = format!("Service-Auth-Key {BOOTSTRAP_ADMIN_KEY}");
    let switch = |authorization: &str, method: &str, body: Option<Json>| {
        let mut headers = vec![("authorization", authorization)];
        if body.is_some() {
            headers.push(("content-type", "application/json"));
        }
        let body = body.map(|body| body.to_string());
        app.request(method, "/v2/admin/translated-speech", &headers, body.as_deref().map(str::as_bytes))
    };
    assert_eq!(switch(&admin, "GET", None).json(), json!({"translated_speech": false}));
    let speaking = json!({"source_media_content_type": "audio/auto", "target_languages": ["fr"],
                          "target_media_languages": ["de"], "target_media_voice": "female"});
    assert_eq!(session(&app, &key, speaking.clone()).status, 403);

    let on = switch(&admin, "PUT", Some(json!({"enabled": true})));
    assert_eq!((on.status, on.json()), (200, json!({"translated_speech": true})), "{}", on.text());
    assert_eq!(switch(&admin, "GET", None).json(), json!({"translated_speech": true}));
    let answer = opened(&app, &key, speaking.clone());
    let claimed = gateway(&app, "claim", json!({"token": answer["token"]})).json();
    assert_eq!(claimed["parameters"]["target_languages"], json!(["fr", "de"]));
    assert_eq!(claimed["parameters"]["target_media_languages"], json!(["de"]));
    assert_eq!(claimed["parameters"]["target_media_voice"], "female");

    let developer = format!("Service-Auth-Key {key}");
    assert_eq!(switch(&developer, "PUT", Some(json!({"enabled": false}))).status, 403);
    let missing = switch(&admin, "PUT", Some(json!({})));
    assert_eq!((missing.status, message(&missing)), (400, "Parameter 'enabled' not specified".to_owned()));
    assert_eq!(switch(&admin, "DELETE", None).status, 405);
    let (_, other_admin) = app.create_subscription("pro");
    let other = switch(&format!("Service-Auth-Key {other_admin}"), "GET", None);
    assert_eq!(other.json(), json!({"translated_speech": false}), "one subscription's switch only");
    assert_eq!(switch(&admin, "PUT", Some(json!({"enabled": false}))).status, 200);
    assert_eq!(session(&app, &key, speaking).status, 403);
}

#[test]
fn spoken_terms_lists_and_the_translated_speech_switch_are_in_the_audit_log() {
    let (app, _) = app();
    let authorization = format!("Service-Auth-Key {BOOTSTRAP_ADMIN_KEY}");
    let at = "2026-05-04T10:00:00Z";
    let send = |method: &str, path: &str, body: Json| {
        let headers = [
            ("authorization", authorization.as_str()),
            ("content-type", "application/json"),
            ("x-service-test-time", at),
        ];
        let reply = app.request(method, path, &headers, Some(body.to_string().as_bytes()));
        assert!(reply.status < 300, "{method} {path}: {}", reply.text());
        reply.json()
    };
    let list = send("POST", SPOKEN_TERMS, json!({"name": "Products", "terms": ["Glossa", "Spin"]}));
    let list_id = list["spoken_terms_id"].as_str().unwrap().to_owned();
    send("PUT", "/v2/admin/translated-speech", json!({"enabled": true}));
    send("PUT", "/v2/admin/translated-speech", json!({"enabled": true})); // no change: no entry

    let log = app.call("GET", "/v2/admin/audit-log?start_date=2026-05-04&end_date=2026-05-04", BOOTSTRAP_ADMIN_KEY);
    assert_eq!(log.status, 200, "{}", log.text());
    let log = log.json();
    let entries = log["audit_log"]["entries"].as_array().unwrap();
    assert_eq!(entries.len(), 2, "{log}");
    let (switch, created) = (&entries[0], &entries[1]);
    assert_eq!(
        (&switch["action"], &switch["target_type"], &switch["old_value"], &switch["new_value"]),
        (
            &json!("change_translated_speech"),
            &json!("subscription"),
            &json!({"translated_speech": false}),
            &json!({"translated_speech": true})
        )
    );
    assert_eq!(
        (&created["action"], &created["target_type"], &created["target_id"], &created["old_value"]),
        (&json!("create_spoken_terms"), &json!("spoken_terms"), &json!(list_id), &Json::Null)
    );
    assert_eq!(created["new_value"], json!({"name": "Products", "terms": ["Glossa", "Spin"]}));
    // Both by the subscription's one admin key, the bootstrap key.
    let admins = app.call("GET", "/v2/admin/admin-keys", BOOTSTRAP_ADMIN_KEY).json();
    let admin_id = admins.as_array().expect("the admin keys")[0]["key_id"].clone();
    for entry in entries {
        assert_eq!(
            (&entry["time"], &entry["actor"], &entry["admin_key_id"]),
            (&json!(at), &json!("admin_key"), &admin_id)
        );
    }
    assert!(!log.to_string().contains(BOOTSTRAP_ADMIN_KEY), "no secret");
}
