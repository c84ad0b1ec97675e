//! The `ctranslate2` engine end to end: the real inference service (`services/inference`) with
//! the real zh→en model package, in the engine list `ctranslate2,apertium` beside a real APY:
//! fluent English from Chinese, markup and glossary terms kept, the listings, the pivot through
//! English into Apertium's languages, and what happens when the service is stopped or was never
//! there.

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use e2e::{INFERENCE_SECRET, Json, Options, Reply, TestApp, free_port, json, request};

/// The application with the engine list `ctranslate2,apertium`, the tests' APY, and the
/// inference service at `inference`.
fn app_with(inference: &str) -> (TestApp, String) {
    let options = Options::app()
        .env("SPIN_VARIABLE_ENGINE", "ctranslate2,apertium")
        .env("SPIN_VARIABLE_APERTIUM_URL", e2e::apertium())
        .with_inference_at(inference);
    let app = TestApp::start(options);
    let key = app.developer_key();
    (app, key)
}

fn app() -> (TestApp, String) {
    app_with(e2e::inference())
}

fn translate(app: &TestApp, key: &str, body: Json) -> Reply {
    app.post_json("/v2/translate", key, &body)
}

fn texts(reply: &Reply) -> Vec<String> {
    reply.translated_texts()
}

fn characters_billed(app: &TestApp, key: &str) -> i64 {
    app.call("GET", "/v2/usage", key).json()["character_count"].as_i64().expect("character_count")
}

#[test]
fn chinese_comes_back_as_fluent_english_from_the_neural_model() {
    let (app, key) = app();
    let reply = translate(
        &app,
        &key,
        json!({
            "text": ["今天天气很好。", "我喜欢读书。", "请问火车站在哪里？"],
            "source_lang": "ZH",
            "target_lang": "EN-US",
            "model_type": "prefer_quality_optimized",
            // English has no formality: `prefer_*` falls back to the default.
            "formality": "prefer_more",
        }),
    );
    let out = texts(&reply);
    let first = out[0].to_lowercase();
    assert!(first.contains("weather") || first.contains("nice day"), "{out:?}");
    assert!(out[1].to_lowercase().contains("read") && out[1].contains("I "), "{out:?}");
    assert!(out[2].to_lowercase().contains("train station"), "{out:?}");
    assert_eq!(reply.header("x-service-engine"), Some("ctranslate2"));
    assert_eq!(reply.json()["translations"][0]["model_type_used"], "quality_optimized");
    assert_eq!(reply.json()["translations"][0]["detected_source_language"], "ZH");
    // Billed by code points, like every translation.
    assert_eq!(characters_billed(&app, &key), 7 + 6 + 9);
}

#[test]
fn markup_survives_the_model() {
    let (app, key) = app();
    let reply = translate(
        &app,
        &key,
        json!({
            "text": ["<p>请按<b>这个按钮</b>继续。</p>", "<p>点击<br/>保存。</p>"],
            "source_lang": "ZH",
            "target_lang": "EN-GB",
            "tag_handling": "html",
        }),
    );
    let out = texts(&reply);
    assert!(out[0].starts_with("<p>") && out[0].ends_with("</p>"), "{out:?}");
    let bold = out[0].split("<b>").nth(1).and_then(|rest| rest.split("</b>").next()).unwrap_or_default();
    assert!(bold.contains("button"), "the bold words are the button's: {out:?}");
    assert!(out[1].contains("<br>") || out[1].contains("<br/>"), "{out:?}");
    assert!(out[1].to_lowercase().contains("save"), "{out:?}");
}

#[test]
fn glossary_terms_come_out_as_defined() {
    let (app, key) = app();
    let created = app.post_json(
        "/v2/glossaries",
        &key,
        &json!({"name": "ui", "source_lang": "zh", "target_lang": "en", "entries": "按钮\tpush-button\n火车站\trailway terminus", "entries_format": "tsv"}),
    );
    assert_eq!(created.status, 201, "{}", created.text());
    let id = created.json()["glossary_id"].as_str().unwrap().to_owned();
    let reply = translate(
        &app,
        &key,
        json!({"text": ["请按这个按钮继续。", "火车站在哪里？"], "source_lang": "ZH", "target_lang": "EN-US", "glossary_id": id}),
    );
    let out = texts(&reply);
    assert!(out[0].contains("push-button") && !out[0].contains(" button"), "{out:?}");
    assert!(out[1].contains("railway terminus"), "{out:?}");
}

#[test]
fn the_listings_are_the_union_of_the_engines() {
    let (app, key) = app();
    let sources = app.call("GET", "/v2/languages?type=source", &key).json();
    let codes = |listing: &Json| -> Vec<String> {
        listing.as_array().unwrap().iter().map(|language| language["language"].as_str().unwrap().to_owned()).collect()
    };
    let source_codes = codes(&sources);
    assert!(source_codes.contains(&"ZH".to_owned()), "{source_codes:?}");
    assert!(source_codes.contains(&"CA".to_owned()), "Apertium's languages stay: {source_codes:?}");
    // Nothing translates into Chinese here.
    let target_codes = codes(&app.call("GET", "/v2/languages?type=target", &key).json());
    assert!(!target_codes.iter().any(|code| code.starts_with("ZH")), "{target_codes:?}");
    let refused = translate(&app, &key, json!({"text": ["Hello"], "source_lang": "EN", "target_lang": "ZH-HANS"}));
    assert_eq!(refused.status, 400, "{}", refused.text());
}

#[test]
fn chinese_pivots_through_english_into_apertiums_languages() {
    let (app, key) = app();
    let reply = translate(
        &app,
        &key,
        json!({"text": ["我喜欢读书。"], "source_lang": "ZH", "target_lang": "ES", "model_type": "quality_optimized"}),
    );
    let out = texts(&reply);
    assert!(out[0].to_lowercase().contains("libros") || out[0].to_lowercase().contains("leer"), "{out:?}");
    assert_eq!(reply.header("x-service-engine"), Some("ctranslate2+apertium"));
    assert_eq!(reply.json()["translations"][0]["model_type_used"], "latency_optimized");
    // Apertium's own pairs are still Apertium's.
    let reply = translate(&app, &key, json!({"text": ["Good morning"], "source_lang": "EN", "target_lang": "ES"}));
    assert!(texts(&reply)[0].contains("Buenos"), "{}", reply.text());
    assert_eq!(reply.header("x-service-engine"), Some("apertium"));
}

/// An inference service of this test's own (the shared one must stay up), stopped on drop.
struct OwnService {
    url: String,
    child: Child,
}

impl OwnService {
    fn start() -> OwnService {
        let port = free_port();
        let child = Command::new("sh")
            .arg("-c")
            .arg(e2e::inference_command(port))
            .env("INFERENCE_SECRET", INFERENCE_SECRET)
            .env("GLOSSA_LOG", "warn")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start the inference service");
        let url = format!("http://127.0.0.1:{port}");
        let deadline = Instant::now() + Duration::from_secs(120);
        while request(&url, "GET", "/health", &[], None).map(|reply| reply.status) != Ok(200) {
            assert!(Instant::now() < deadline, "the inference service did not start");
            std::thread::sleep(Duration::from_millis(200));
        }
        OwnService { url, child }
    }

    fn stop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for OwnService {
    fn drop(&mut self) {
        self.stop();
    }
}

#[test]
fn with_the_service_stopped_its_pairs_answer_503_and_the_others_fall_through() {
    let mut service = OwnService::start();
    let (app, key) = app_with(&service.url);
    let before = translate(&app, &key, json!({"text": ["你好"], "source_lang": "ZH", "target_lang": "EN-US"}));
    assert_eq!(before.status, 200, "{}", before.text());
    let billed = characters_billed(&app, &key);
    service.stop();

    // The model list it gave stands: ZH is still listed, and its requests are unavailable.
    let down = translate(&app, &key, json!({"text": ["你好"], "source_lang": "ZH", "target_lang": "EN-US"}));
    assert_eq!(down.status, 503, "{}", down.text());
    assert!(down.json()["message"].is_string(), "{}", down.text());
    assert_eq!(characters_billed(&app, &key), billed, "nothing billed");
    let sources = app.call("GET", "/v2/languages?type=source", &key).text();
    assert!(sources.contains("\"ZH\""), "{sources}");
    let other = translate(&app, &key, json!({"text": ["Good morning"], "source_lang": "EN", "target_lang": "ES"}));
    assert_eq!(texts(&other).len(), 1);
    assert_eq!(other.header("x-service-engine"), Some("apertium"));
}

#[test]
fn with_a_service_never_reached_chinese_is_unavailable_and_apertium_serves_the_rest() {
    let dead = format!("http://127.0.0.1:{}", free_port());
    let (app, key) = app_with(&dead);
    let down = translate(&app, &key, json!({"text": ["你好"], "source_lang": "ZH", "target_lang": "EN-US"}));
    assert_eq!(down.status, 503, "a pair the stopped engine may have is unavailable, not refused: {}", down.text());
    assert_eq!(characters_billed(&app, &key), 0);
    let other = translate(&app, &key, json!({"text": ["Good morning"], "source_lang": "EN", "target_lang": "ES"}));
    assert_eq!(texts(&other).len(), 1);
    let sources = app.call("GET", "/v2/languages?type=source", &key);
    assert_eq!(sources.status, 200, "the listing shows what the engines that answer cover");
    assert!(!sources.text().contains("\"ZH\""), "{}", sources.text());
}

#[test]
fn the_health_check_lists_the_model_pairs_and_degrades_while_the_service_is_down() {
    let (app, _) = app();
    let health = app.get("/health");
    assert_eq!(health.status, 200, "{}", health.text());
    assert_eq!(health.json()["status"], "ok");
    assert_eq!(health.json()["checks"]["inference"], json!({"status": "ok", "configured": true, "pairs": ["zh-en"]}));
    let (down, _) = app_with(&format!("http://127.0.0.1:{}", free_port()));
    let health = down.get("/health");
    assert_eq!(health.status, 200, "the other engines still serve: {}", health.text());
    assert_eq!(health.json()["status"], "degraded");
    assert_eq!(health.json()["checks"]["inference"]["status"], "error");
}

#[test]
fn without_the_inference_secret_the_health_check_names_it() {
    let app = TestApp::start(Options::app().env("SPIN_VARIABLE_ENGINE", "ctranslate2,apertium"));
    let health = app.get("/health");
    assert_eq!(health.status, 503, "{}", health.text());
    assert_eq!(health.json()["checks"]["engine"]["variable"], "inference_secret");
    let healthy = TestApp::start(
        Options::app().env("SPIN_VARIABLE_ENGINE", "ctranslate2, apertium").with_inference_at("http://127.0.0.1:9"),
    );
    assert_eq!(healthy.get("/health").json()["checks"]["engine"]["engine"], "ctranslate2,apertium");
}
