//! The health check behind `GET /health`.
//!
//! A check that only answers "ok" proves little, so this one exercises every host service a request
//! relies on: it reads the `deployment_name` variable, checks the engine's settings (the variables
//! `engine` and those of the engine it names, parsed as a translation parses them, without
//! reading the secret API key or calling the engine), records the check in the database (one
//! upsert that returns the running count) and in the key-value store (the time of the previous
//! check), and reports what it found. Operators point load balancers and monitors at it; the
//! counters also show that data survives restarts.
//!
//! A setting that cannot work fails the `engine` check, which names the variable and the problem
//! (never a secret or a URL): every request that needs the engine answers 503 until it is fixed.
//!
//! The `language_tools` check says which detector serves and whether correction (write) works:
//! with the service configured it asks the service's own `/health` (no secret needed) for the
//! languages it covers. The service is optional: when it is down, detection falls back to the
//! built-in detector and only text improvement stops, so the report is `degraded`, still a 200,
//! not `unavailable` (a load balancer must not take translation away for it).
//!
//! The `inference` check says which language pairs the `ctranslate2` engine's models translate,
//! asking the inference service (with its secret) when the engine list names it. A service that
//! does not answer makes the report `degraded` too: the other engines of the list still serve,
//! and its pairs answer 503 until it is back.

use engines::language_tools::{LanguageTools, ToolsSettings};

use std::time::{Duration, SystemTime};

use engines::{Ctranslate2Engine, EngineList};
use platform::{Database, KeyValue, OutboundHttp, Services, Value, Variables};
use serde::Serialize;
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

/// The variable naming this deployment in the report.
pub const DEPLOYMENT_VARIABLE: &str = "deployment_name";
/// The key-value key holding the time of the last check.
pub const LAST_CHECK_KEY: &str = "health:last-check-at";

const SQL_RECORD_CHECK: &str = "INSERT INTO health_checks (id, checks, last_check_at) VALUES (1, 1, ?)
    ON CONFLICT (id) DO UPDATE SET checks = checks + 1, last_check_at = excluded.last_check_at
    RETURNING checks";

/// What `GET /health` answers.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    /// `ok` when every check passed, `degraded` when only the language-tools or the inference
    /// service failed, `unavailable` when another check did.
    pub status: &'static str,
    /// The `deployment_name` variable, if set.
    pub deployment: Option<String>,
    /// When this check ran (RFC 3339, UTC).
    pub checked_at: String,
    pub checks: Checks,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Checks {
    pub engine: EngineCheck,
    pub database: DatabaseCheck,
    pub key_value: KeyValueCheck,
    pub language_tools: LanguageToolsCheck,
    pub inference: InferenceCheck,
}

/// Whether the inference service answers, and the pairs its models translate.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct InferenceCheck {
    /// `ok` (answering, or not used), `error` (the engine list names `ctranslate2` and the
    /// service does not answer).
    pub status: &'static str,
    /// Whether the engine list names `ctranslate2`.
    pub configured: bool,
    /// The pairs of the installed models, `zh-en` style, sorted; empty when not answering.
    pub pairs: Vec<String>,
    /// What is wrong, when something is (never a secret or a URL).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

/// How long the check waits for the inference service.
const INFERENCE_TIMEOUT: Duration = Duration::from_secs(5);

/// Which detector serves, and whether the language-tools service answers.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LanguageToolsCheck {
    /// `ok` (configured and answering, or not configured), `error` (configured but failing, or
    /// its variables cannot work).
    pub status: &'static str,
    /// Whether the variables name a service (`language_tools_secret` is set).
    pub configured: bool,
    /// Who detects languages right now: `language-tools`, or `built-in` (whatlang).
    pub detection: &'static str,
    /// The languages the service corrects; empty when text improvement is unavailable.
    pub correction: Vec<String>,
    /// What is wrong, when something is (never a secret or a URL).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

/// Whether the engine's settings can work (the engine itself is not called).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EngineCheck {
    pub status: &'static str,
    /// The engines the settings list, comma-separated in priority order, when they can work.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub engine: Option<String>,
    /// The variable at fault, when they cannot.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub variable: Option<&'static str>,
    /// What is wrong with it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DatabaseCheck {
    pub status: &'static str,
    /// How many checks the database has recorded, this one included.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub checks_recorded: Option<i64>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct KeyValueCheck {
    pub status: &'static str,
    /// When the previous check ran, as the store remembered it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub previous_check_at: Option<String>,
}

impl Report {
    /// Whether the application serves: every check passed, or only the language-tools or the
    /// inference service failed (`degraded`).
    pub fn is_healthy(&self) -> bool {
        self.status != "unavailable"
    }
}

/// Runs every check. A failing service makes its check `error` and the report `unavailable`;
/// the cause goes to the log, never into the report.
pub fn check(services: &Services<'_>) -> Report {
    let checked_at = rfc3339(services.clock.now());
    let deployment = services.vars.get(DEPLOYMENT_VARIABLE).unwrap_or_else(|error| {
        eprintln!("health: reading variable {DEPLOYMENT_VARIABLE}: {error}");
        None
    });
    let engine = check_engine(services.vars);
    let database = match record_in_database(services.db, &checked_at) {
        Ok(count) => DatabaseCheck { status: "ok", checks_recorded: Some(count) },
        Err(error) => {
            eprintln!("health: database check failed: {error}");
            DatabaseCheck { status: "error", checks_recorded: None }
        }
    };
    let key_value = match record_in_key_value(services.kv, &checked_at) {
        Ok(previous) => KeyValueCheck { status: "ok", previous_check_at: previous },
        Err(error) => {
            eprintln!("health: key-value check failed: {error}");
            KeyValueCheck { status: "error", previous_check_at: None }
        }
    };
    let language_tools = check_language_tools(services.vars, services.http);
    let inference = check_inference(services.vars, services.http);
    let healthy = engine.status == "ok" && database.status == "ok" && key_value.status == "ok";
    let status = match (healthy, language_tools.status, inference.status) {
        (false, _, _) => "unavailable",
        (true, "ok", "ok") => "ok",
        (true, _, _) => "degraded",
    };
    Report { status, deployment, checked_at, checks: Checks { engine, database, key_value, language_tools, inference } }
}

/// Asks the inference service for its models when the engine list names `ctranslate2`. Settings
/// that cannot work are the `engine` check's to report.
fn check_inference(vars: &dyn Variables, http: &dyn OutboundHttp) -> InferenceCheck {
    let not_used = InferenceCheck { status: "ok", configured: false, pairs: Vec::new(), message: None };
    let Ok(list) = EngineList::from_variables(vars) else { return not_used };
    let Some(settings) = list.ctranslate2() else { return not_used };
    let mut settings = settings.clone();
    settings.timeout = settings.timeout.min(INFERENCE_TIMEOUT);
    match Ctranslate2Engine::new(settings, http, None).models() {
        Ok(models) => {
            let mut pairs: Vec<String> =
                models.iter().map(|model| format!("{}-{}", model.source, model.target)).collect();
            pairs.sort();
            InferenceCheck { status: "ok", configured: true, pairs, message: None }
        }
        Err(error) => {
            eprintln!("health: inference service: {error}");
            InferenceCheck {
                status: "error",
                configured: true,
                pairs: Vec::new(),
                message: Some("the inference service does not answer: the ctranslate2 engine's pairs go to the next engine in the list, or answer 503".into()),
            }
        }
    }
}

fn check_language_tools(vars: &dyn Variables, http: &dyn OutboundHttp) -> LanguageToolsCheck {
    let failed = |message: String| LanguageToolsCheck {
        status: "error",
        configured: true,
        detection: "built-in",
        correction: Vec::new(),
        message: Some(message),
    };
    match ToolsSettings::from_variables(vars) {
        Ok(None) => LanguageToolsCheck {
            status: "ok",
            configured: false,
            detection: "built-in",
            correction: Vec::new(),
            message: Some("no language-tools service is configured (language_tools_secret is not set): detection uses the built-in detector and text improvement is unavailable".into()),
        },
        Ok(Some(settings)) => match LanguageTools::new(settings, http).languages() {
            Ok(languages) => LanguageToolsCheck {
                status: "ok",
                configured: true,
                detection: "language-tools",
                correction: languages.correction,
                message: None,
            },
            Err(error) => {
                eprintln!("health: language-tools service: {error}");
                failed("the language-tools service does not answer: detection uses the built-in detector and text improvement is unavailable".into())
            }
        },
        Err(error) => {
            eprintln!("health: language-tools configuration: {error}");
            failed(error.problem())
        }
    }
}

fn check_engine(vars: &dyn Variables) -> EngineCheck {
    match EngineList::check_variables(vars) {
        Ok(engine) => EngineCheck { status: "ok", engine: Some(engine), variable: None, message: None },
        Err(error) => {
            eprintln!("health: engine configuration: {error}");
            EngineCheck {
                status: "error",
                engine: None,
                variable: Some(error.variable()),
                message: Some(error.problem()),
            }
        }
    }
}

fn record_in_database(db: &dyn Database, checked_at: &str) -> Result<i64, platform::DbError> {
    let result = db.execute(SQL_RECORD_CHECK, &[Value::from(checked_at)])?;
    let row = result.first().ok_or_else(|| platform::DbError::Decode("the upsert returned no row".into()))?;
    row.get(0)
}

fn record_in_key_value(kv: &dyn KeyValue, checked_at: &str) -> Result<Option<String>, platform::KvError> {
    let previous = kv.get(LAST_CHECK_KEY)?.map(|bytes| String::from_utf8_lossy(&bytes).into_owned());
    kv.set(LAST_CHECK_KEY, checked_at.as_bytes())?;
    Ok(previous)
}

fn rfc3339(now: SystemTime) -> String {
    OffsetDateTime::from(now).format(&Rfc3339).unwrap_or_else(|_| "invalid time".into())
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use platform::native::NativeHost;
    use platform::{DbError, FixedClock, QueryResult};

    use super::*;

    const MIGRATION: &str = include_str!("../../../sql/0001_health.sql");

    /// A host whose engine settings can work.
    fn host(unix_seconds: u64) -> NativeHost {
        let mut host = NativeHost::in_memory(&[MIGRATION], FixedClock::at_unix(unix_seconds)).unwrap();
        host.vars.insert("engine".to_owned(), "deterministic".to_owned());
        host
    }

    #[test]
    fn a_healthy_check_counts_itself_and_remembers_the_previous_one() {
        let mut host = host(1_700_000_000);
        host.vars.insert(DEPLOYMENT_VARIABLE.to_owned(), "eu-1".to_owned());
        let services = host.services();

        let first = check(&services);
        host.clock.advance(Duration::from_secs(60));
        let second = check(&services);

        assert!(first.is_healthy());
        assert_eq!(
            first.checks.engine,
            EngineCheck { status: "ok", engine: Some("deterministic".into()), variable: None, message: None }
        );
        assert_eq!(first.deployment.as_deref(), Some("eu-1"));
        assert_eq!(first.checked_at, "2023-11-14T22:13:20Z");
        assert_eq!(first.checks.database.checks_recorded, Some(1));
        assert_eq!(first.checks.key_value.previous_check_at, None);
        assert_eq!(second.checks.database.checks_recorded, Some(2));
        assert_eq!(second.checks.key_value.previous_check_at.as_deref(), Some("2023-11-14T22:13:20Z"));
    }

    struct BrokenDb;
    impl Database for BrokenDb {
        fn execute(&self, _: &str, _: &[Value]) -> Result<QueryResult, DbError> {
            Err(DbError::Other("disk I/O error at /var/lib/secret-path".into()))
        }
    }

    #[test]
    fn a_failing_database_makes_the_report_unavailable_without_leaking_the_cause() {
        let host = host(0);
        let report = check(&host.services().with_db(&BrokenDb));

        assert!(!report.is_healthy());
        assert_eq!(report.deployment, None);
        assert_eq!(report.checks.database, DatabaseCheck { status: "error", checks_recorded: None });
        assert_eq!(report.checks.key_value.status, "ok");
        let json = serde_json::to_string(&report).unwrap();
        assert!(!json.contains("secret-path"), "{json}");
    }

    #[test]
    fn engine_settings_that_cannot_work_fail_the_check_naming_the_variable() {
        // (the variables, the variable at fault, part of the problem)
        type Case<'a> = (&'a [(&'a str, &'a str)], &'a str, &'a str);
        let cases: &[Case] = &[
            (&[("engine", "google")], "engine", "unknown engine \"google\""),
            (&[], "engine", "variable `engine` is not set"),
            (&[("engine", "apertium"), ("apertium_url", "ftp://user:hunter2@apy")], "apertium_url", "absolute http"),
            (&[("engine", "apertium"), ("engine_timeout_ms", "soon")], "engine_timeout_ms", "milliseconds"),
            (
                &[("engine", "openai"), ("openai_url", "https://llm"), ("openai_api_key", "sk-secret")],
                "openai_model",
                "not set",
            ),
        ];
        for (variables, variable, problem) in cases {
            let mut host = host(0);
            host.vars = variables.iter().map(|(name, value)| (name.to_string(), value.to_string())).collect();
            let report = check(&host.services());
            assert!(!report.is_healthy(), "{variables:?}");
            assert_eq!(report.checks.engine.status, "error");
            assert_eq!(report.checks.engine.variable, Some(*variable));
            let message = report.checks.engine.message.as_deref().unwrap_or_default();
            assert!(message.contains(problem), "{message}");
            // The other checks still ran, and nothing secret is reported.
            assert_eq!((report.checks.database.status, report.checks.key_value.status), ("ok", "ok"));
            let json = serde_json::to_string(&report).unwrap();
            assert!(!json.contains("hunter2") && !json.contains("sk-secret"), "{json}");
        }
    }

    /// Answers every request with `body` (status 200), or fails as unreachable when `None`.
    struct FakeTools(Option<&'static str>);

    impl OutboundHttp for FakeTools {
        fn send(&self, request: platform::HttpRequest) -> Result<platform::HttpResponse, platform::HttpError> {
            assert_eq!(request.url, "http://127.0.0.1:2740/health");
            assert!(request.headers.iter().all(|(name, _)| name != "authorization"), "health needs no secret");
            match self.0 {
                Some(body) => Ok(platform::HttpResponse { status: 200, headers: Vec::new(), body: body.into() }),
                None => Err(platform::HttpError::Unreachable { url: request.url, reason: "refused".into() }),
            }
        }
    }

    fn with_tools(host: &mut NativeHost) {
        host.vars.insert("language_tools_url".to_owned(), "http://127.0.0.1:2740".to_owned());
        host.vars.insert("language_tools_secret".to_owned(), "tools-secret".to_owned());
    }

    #[test]
    fn without_a_language_tools_service_the_built_in_detector_serves() {
        let host = host(0);
        let report = check(&host.services());
        assert_eq!(report.status, "ok");
        let tools = &report.checks.language_tools;
        assert_eq!((tools.status, tools.configured, tools.detection), ("ok", false, "built-in"));
        assert!(tools.message.as_deref().unwrap().contains("text improvement is unavailable"));
    }

    #[test]
    fn a_configured_service_reports_its_languages() {
        let mut host = host(0);
        with_tools(&mut host);
        let http = FakeTools(Some(r#"{"status": "ok", "detection": ["de", "en"], "correction": ["de", "en"]}"#));
        let report = check(&Services { http: &http, ..host.services() });
        assert_eq!(report.status, "ok");
        let tools = &report.checks.language_tools;
        assert_eq!((tools.status, tools.configured, tools.detection), ("ok", true, "language-tools"));
        assert_eq!(tools.correction, ["de", "en"]);
    }

    #[test]
    fn a_service_that_does_not_answer_degrades_the_report_without_failing_it() {
        let mut host = host(0);
        with_tools(&mut host);
        let report = check(&Services { http: &FakeTools(None), ..host.services() });
        assert_eq!(report.status, "degraded");
        assert!(report.is_healthy(), "translation still works: a load balancer keeps the instance");
        let tools = &report.checks.language_tools;
        assert_eq!((tools.status, tools.detection), ("error", "built-in"));
        let json = serde_json::to_string(&report).unwrap();
        assert!(!json.contains("tools-secret") && !json.contains("127.0.0.1"), "{json}");
    }

    /// An inference service with one zh→en model, or one that does not answer (`None`).
    struct FakeInference(Option<&'static str>);

    impl OutboundHttp for FakeInference {
        fn send(&self, request: platform::HttpRequest) -> Result<platform::HttpResponse, platform::HttpError> {
            assert_eq!(request.url, "http://127.0.0.1:2741/v1/translation/models");
            assert!(request.timeout.is_some_and(|timeout| timeout <= INFERENCE_TIMEOUT));
            match self.0 {
                Some(body) => Ok(platform::HttpResponse { status: 200, headers: Vec::new(), body: body.into() }),
                None => Err(platform::HttpError::Unreachable { url: request.url, reason: "refused".into() }),
            }
        }
    }

    #[test]
    fn the_inference_check_lists_the_model_pairs_or_degrades_the_report() {
        let host = host(0);
        let report = check(&host.services());
        assert_eq!(
            report.checks.inference,
            InferenceCheck { status: "ok", configured: false, pairs: vec![], message: None }
        );
        let mut host = self::host(0);
        host.vars.insert("engine".to_owned(), "ctranslate2,deterministic".to_owned());
        host.vars.insert("inference_secret".to_owned(), "inference-secret".to_owned());
        let models = r#"{"models": [{"source": "zh", "target": "en", "name": "m", "version": "1"},
            {"source": "de", "target": "en", "name": "n", "version": "2"}]}"#;
        let report = check(&Services { http: &FakeInference(Some(models)), ..host.services() });
        assert_eq!(report.status, "ok");
        assert_eq!(
            (report.checks.inference.configured, &report.checks.inference.pairs[..]),
            (true, &["de-en".to_owned(), "zh-en".to_owned()][..])
        );
        let report = check(&Services { http: &FakeInference(None), ..host.services() });
        assert_eq!(report.status, "degraded");
        assert_eq!(report.checks.inference.status, "error");
        let json = serde_json::to_string(&report).unwrap();
        assert!(!json.contains("inference-secret") && !json.contains("127.0.0.1"), "{json}");
    }

    #[test]
    fn a_secret_without_a_url_names_the_variable() {
        let mut host = host(0);
        host.vars.insert("language_tools_secret".to_owned(), "tools-secret".to_owned());
        let report = check(&host.services());
        assert_eq!(report.status, "degraded");
        let message = report.checks.language_tools.message.clone().unwrap();
        assert!(message.contains("language_tools_url"), "{message}");
    }
}
