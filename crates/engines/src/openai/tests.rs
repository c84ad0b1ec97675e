//! The OpenAI-compatible engine's tests: the prompt and the answer parsing as pure functions,
//! and whole requests against a fake chat server on 127.0.0.1 that records what it received.

use platform::native::UreqHttp;

use super::*;
use crate::test_support::{FakeServer, dead_url, language};

fn texts(items: &[&str]) -> Vec<String> {
    items.iter().map(|text| text.to_string()).collect()
}

fn settings(url: &str, api_key: Option<&str>) -> OpenAiSettings {
    OpenAiSettings {
        url: url.to_owned(),
        model: "test-model".to_owned(),
        api_key: api_key.map(str::to_owned),
        timeout: Duration::from_secs(10),
    }
}

/// A chat-completions answer whose message content is `content`.
fn chat(content: &str) -> (u16, String) {
    let body = json!({
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
    });
    (200, body.to_string())
}

fn system_prompt(received: &crate::test_support::Received) -> String {
    received.json()["messages"][0]["content"].as_str().unwrap().to_owned()
}

fn user_message(received: &crate::test_support::Received) -> Value {
    serde_json::from_str(received.json()["messages"][1]["content"].as_str().unwrap()).unwrap()
}

#[test]
fn a_request_is_one_call_with_the_model_the_key_and_every_text() {
    let server = FakeServer::start(vec![chat(r#"["Hallo Welt", "Guten <g1>Morgen</g1>"]"#)]);
    let engine = OpenAiEngine::new(settings(&server.url, Some("sk-secret")), &UreqHttp);
    let input = texts(&["Hello world", "Good <g1>morning</g1>"]);
    let outputs = engine.translate(&EngineRequest::new(language("en"), language("de"), &input)).unwrap();
    assert_eq!(outputs, ["Hallo Welt", "Guten <g1>Morgen</g1>"]);

    let received = server.received();
    assert_eq!(received.len(), 1, "one call for the whole request");
    assert_eq!(received[0].method, "POST");
    assert_eq!(received[0].path, "/v1/chat/completions");
    assert_eq!(received[0].header("authorization"), Some("Bearer sk-secret"));
    let body = received[0].json();
    assert_eq!(body["model"], "test-model");
    assert_eq!(body["temperature"], 0);
    assert_eq!(body["messages"][0]["role"], "system");
    assert_eq!(body["messages"][1]["role"], "user");
    assert_eq!(user_message(&received[0]), json!(["Hello world", "Good <g1>morning</g1>"]));
    let system = system_prompt(&received[0]);
    assert!(system.contains("from English to German"), "{system}");
    assert!(system.contains("exactly 2 strings"), "{system}");
    assert!(system.contains("<g1>, </g1> and <x2/> unchanged"), "{system}");
}

#[test]
fn no_key_sends_no_authorization_header() {
    let server = FakeServer::start(vec![chat(r#"["Hola"]"#)]);
    let engine = OpenAiEngine::new(settings(&format!("{}/v1", server.url), None), &UreqHttp);
    let input = texts(&["Hello"]);
    engine.translate(&EngineRequest::new(language("en"), language("es"), &input)).unwrap();
    let received = server.received();
    assert_eq!(received[0].header("authorization"), None);
    assert_eq!(received[0].path, "/v1/chat/completions", "a base URL ending in /v1 gets no second /v1");
}

#[test]
fn the_prompt_carries_formality_context_instructions_and_glossary() {
    let server = FakeServer::start(vec![chat(r#"["Olá"]"#)]);
    let engine = OpenAiEngine::new(settings(&server.url, None), &UreqHttp);
    let input = texts(&["Hello, welcome to the House"]);
    let instructions = texts(&["Keep sentences short.", "Use British spelling for names."]);
    let glossary = vec![("house".to_owned(), "casa \"grande\"".to_owned()), ("garden".to_owned(), "jardim".to_owned())];
    let request = EngineRequest {
        formality: Formality::PreferLess,
        context: Some("A greeting between friends."),
        custom_instructions: &instructions,
        glossary: &glossary,
        ..EngineRequest::new(language("en"), language("pt-br"), &input)
    };
    engine.translate(&request).unwrap();
    let system = system_prompt(&server.received()[0]);
    assert!(system.contains("to Portuguese (Brazilian)"), "{system}");
    assert!(system.contains("If Portuguese (Brazilian) has an informal form of address, use it"), "{system}");
    assert!(system.contains("The following context is for understanding only; do not translate it"), "{system}");
    assert!(system.contains("A greeting between friends."), "{system}");
    assert!(system.contains("Follow these instructions:\n- Keep sentences short.\n- Use British spelling"), "{system}");
    assert!(
        system.contains("Use exactly these translations for these terms:\n- \"house\" → \"casa \\\"grande\\\"\""),
        "{system}"
    );
    assert!(!system.contains("jardim"), "only the terms that occur in the texts: {system}");
    // The context is not among the texts to translate.
    assert_eq!(user_message(&server.received()[0]), json!(["Hello, welcome to the House"]));
}

#[test]
fn formality_more_and_less_are_stated_plainly() {
    let input = texts(&["Hi"]);
    let prompt = |formality| {
        let request = EngineRequest { formality, ..EngineRequest::new(language("en"), language("de"), &input) };
        build_messages(&request, &["Hi"])[0]["content"].as_str().unwrap().to_owned()
    };
    assert!(prompt(Formality::More).contains("Use a formal tone and the formal form of address."));
    assert!(prompt(Formality::Less).contains("Use an informal tone and the informal form of address."));
    assert!(prompt(Formality::PreferMore).contains("If German has a formal form of address, use it"));
    assert!(!prompt(Formality::Default).contains("form of address"));
    assert!(prompt(Formality::Default).contains("exactly 1 string:"));
}

#[test]
fn examples_from_a_translation_memory_are_shown_as_earlier_translations() {
    let input = texts(&["Press the green button."]);
    let examples = vec![("Press the red button.".to_owned(), "Drücken Sie die \"rote\" Taste.".to_owned())];
    let request = EngineRequest { examples: &examples, ..EngineRequest::new(language("en"), language("de"), &input) };
    let system = build_messages(&request, &["Press the green button."])[0]["content"].as_str().unwrap().to_owned();
    assert!(
        system.contains(
            "Earlier approved translations of similar sentences; follow their wording and terminology where they fit:\n\
             - \"Press the red button.\" → \"Drücken Sie die \\\"rote\\\" Taste.\""
        ),
        "{system}"
    );
    let plain = EngineRequest::new(language("en"), language("de"), &input);
    assert!(!build_messages(&plain, &["x"])[0]["content"].as_str().unwrap().contains("Earlier approved"));
}

#[test]
fn a_fenced_answer_is_accepted() {
    let server = FakeServer::start(vec![chat("```json\n[\"Bonjour\", \"Au revoir\"]\n```")]);
    let engine = OpenAiEngine::new(settings(&server.url, None), &UreqHttp);
    let input = texts(&["Hello", "Goodbye"]);
    assert_eq!(
        engine.translate(&EngineRequest::new(language("en"), language("fr"), &input)).unwrap(),
        ["Bonjour", "Au revoir"]
    );
}

#[test]
fn a_miscounted_answer_is_retried_one_text_at_a_time() {
    let server =
        FakeServer::start(vec![chat(r#"["Bonjour et au revoir"]"#), chat(r#"["Bonjour"]"#), chat(r#"["Au revoir"]"#)]);
    let engine = OpenAiEngine::new(settings(&server.url, None), &UreqHttp);
    let input = texts(&["Hello", "", "Goodbye"]);
    let outputs = engine.translate(&EngineRequest::new(language("en"), language("fr"), &input)).unwrap();
    assert_eq!(outputs, ["Bonjour", "", "Au revoir"]);
    let received = server.received();
    assert_eq!(received.len(), 3);
    assert_eq!(user_message(&received[0]), json!(["Hello", "Goodbye"]), "blank texts are not sent");
    assert_eq!(user_message(&received[1]), json!(["Hello"]));
    assert_eq!(user_message(&received[2]), json!(["Goodbye"]));
    assert!(system_prompt(&received[1]).contains("exactly 1 string"));
}

#[test]
fn an_answer_that_stays_unusable_is_invalid() {
    let server = FakeServer::start(vec![chat("Sorry, I cannot help with that.")]);
    let engine = OpenAiEngine::new(settings(&server.url, None), &UreqHttp);
    let input = texts(&["Hello", "Goodbye"]);
    let error = engine.translate(&EngineRequest::new(language("en"), language("fr"), &input)).unwrap_err();
    assert!(matches!(&error, EngineError::Invalid(reason) if reason.contains("Sorry")), "{error:?}");
    assert_eq!(server.received().len(), 2, "the batch, then the first text alone");
}

#[test]
fn blank_requests_make_no_call() {
    let engine = OpenAiEngine::new(settings(&dead_url(), None), &UreqHttp);
    let input = texts(&["", " \n"]);
    assert_eq!(engine.translate(&EngineRequest::new(language("en"), language("fr"), &input)).unwrap(), input);
    assert_eq!(
        engine.translate(&EngineRequest::new(language("en"), language("fr"), &[])).unwrap(),
        Vec::<String>::new()
    );
}

#[test]
fn server_errors_are_unavailable_and_never_show_the_key() {
    let body = json!({"error": {"message": "model overloaded for key sk-secret", "type": "server_error"}}).to_string();
    let server = FakeServer::start(vec![(503, body)]);
    let engine = OpenAiEngine::new(settings(&server.url, Some("sk-secret")), &UreqHttp);
    let input = texts(&["Hello"]);
    let error = engine.translate(&EngineRequest::new(language("en"), language("fr"), &input)).unwrap_err();
    let EngineError::Unavailable { engine: "openai", reason } = &error else { panic!("{error:?}") };
    assert!(reason.contains("status 503") && reason.contains("model overloaded"), "{reason}");
    assert!(!format!("{error} {error:?}").contains("sk-secret"), "{error:?}");
    assert_eq!(server.received().len(), 1, "server errors are not retried");
}

#[test]
fn refused_credentials_are_unavailable_without_quoting_the_answer() {
    let body = json!({"error": {"message": "Incorrect API key provided: sk-sec***ret"}}).to_string();
    let server = FakeServer::start(vec![(401, body)]);
    let engine = OpenAiEngine::new(settings(&server.url, Some("sk-secret")), &UreqHttp);
    let input = texts(&["Hello"]);
    let error = engine.translate(&EngineRequest::new(language("en"), language("fr"), &input)).unwrap_err();
    let text = error.to_string();
    assert!(text.contains("refused the credentials (status 401)"), "{text}");
    assert!(!text.contains("sk-sec"), "{text}");
}

#[test]
fn a_server_that_is_down_is_unavailable() {
    let engine = OpenAiEngine::new(settings(&dead_url(), None), &UreqHttp);
    let input = texts(&["Hello"]);
    assert!(matches!(
        engine.translate(&EngineRequest::new(language("en"), language("fr"), &input)),
        Err(EngineError::Unavailable { engine: "openai", .. })
    ));
}

#[test]
fn a_chat_answer_without_content_is_invalid() {
    let server = FakeServer::start(vec![(200, r#"{"choices": []}"#.to_owned())]);
    let engine = OpenAiEngine::new(settings(&server.url, None), &UreqHttp);
    let input = texts(&["Hello"]);
    assert!(matches!(
        engine.translate(&EngineRequest::new(language("en"), language("fr"), &input)),
        Err(EngineError::Invalid(_))
    ));
}

#[test]
fn answers_are_parsed_leniently() {
    let parse = |content: &str| parse_translations(content);
    assert_eq!(parse(r#"["a", "b"]"#), Some(vec!["a".into(), "b".into()]));
    assert_eq!(parse("```\n[\"a\"]\n```"), Some(vec!["a".into()]));
    assert_eq!(parse("Here you are:\n[\"a\", \"b\"]\nEnjoy."), Some(vec!["a".into(), "b".into()]));
    assert_eq!(parse("<think>hmm [x]</think>\n[\"a\"]"), Some(vec!["a".into()]));
    assert_eq!(parse(r#"{"translations": ["a", "b"]}"#), Some(vec!["a".into(), "b".into()]));
    assert_eq!(parse(r#""a""#), Some(vec!["a".into()]));
    assert_eq!(parse(r#"["a", 42]"#), Some(vec!["a".into(), "42".into()]));
    assert_eq!(parse(r#"["a", ["b"]]"#), None);
    assert_eq!(parse("plain words"), None);
    assert_eq!(parse(r#"{"a": [], "b": []}"#), None);
}

#[test]
fn settings_debug_output_hides_the_key() {
    let debug = format!("{:?}", settings("http://x", Some("sk-secret")));
    assert!(!debug.contains("sk-secret") && debug.contains("[redacted]"), "{debug}");
}

#[test]
fn a_rewrite_sends_the_instruction_and_the_text_apart_and_reads_one_string() {
    let server = FakeServer::start(vec![chat(
        r#"```json
["We're not sure yet."]
```"#,
    )]);
    let engine = OpenAiEngine::new(settings(&server.url, Some("sk-secret")), &UreqHttp);
    let rewritten = engine.rewrite(language("en-US"), "We are not sure yet.", "Use a casual style.").unwrap();
    assert_eq!(rewritten, "We're not sure yet.");
    let received = server.received();
    assert_eq!(received[0].header("authorization"), Some("Bearer sk-secret"));
    assert_eq!(user_message(&received[0]), json!(["We are not sure yet."]));
    let system = system_prompt(&received[0]);
    assert!(system.contains("Rewrite the English (American) text"), "{system}");
    assert!(system.contains("\nUse a casual style.\n"), "{system}");
    assert!(system.contains("do not translate it"), "{system}");
    assert!(system.contains("exactly 1 string"), "{system}");
}

#[test]
fn a_rewrite_answer_that_is_not_one_text_is_invalid() {
    let server = FakeServer::start(vec![chat(r#"["One.", "Two."]"#)]);
    let engine = OpenAiEngine::new(settings(&server.url, None), &UreqHttp);
    let error = engine.rewrite(language("de"), "Eins. Zwei.", "Use a business style.").unwrap_err();
    assert!(matches!(&error, EngineError::Invalid(reason) if reason.contains("One.")), "{error:?}");
}
