//! Choosing and configuring the engines from Spin variables.
//!
//! | variable | meaning |
//! |---|---|
//! | `engine` | a priority list, comma-separated, of `ctranslate2`, `apertium`, `openai` and `deterministic` (e.g. `ctranslate2,apertium`); required: no engine is chosen silently |
//! | `apertium_url` | APY's base URL; default `http://127.0.0.1:2737` |
//! | `inference_url`, `inference_secret` | the inference service of `ctranslate2` (see [`crate::ctranslate2`]); the secret is required for it |
//! | `openai_url` | the chat server's base URL; required for `openai` |
//! | `openai_model` | the model to ask; required for `openai` |
//! | `openai_api_key` | bearer token; optional; a secret, never in an error message |
//! | `engine_timeout_ms` | how long to wait for an engine per call; default 30000 |
//!
//! A variable set to an empty string counts as unset, so a manifest can declare every variable
//! with `default = ""`. Variables of engines not in the list are not read.
//! [`EngineList::from_variables`] parses (and can be tested without any engine);
//! [`EngineList::build`] builds the [`Chain`]; [`configured`] does both with a request's services.

use std::time::Duration;

use platform::{KeyValue, OutboundHttp, Services, Variables};

use crate::apertium::{self, ApertiumEngine, ApertiumSettings};
use crate::chain::Chain;
use crate::ctranslate2::{self, Ctranslate2Engine, Ctranslate2Settings};
use crate::openai::{self, OpenAiEngine, OpenAiSettings};
use crate::{ConfigError, DeterministicEngine, Engine, deterministic};

pub const ENGINE_VARIABLE: &str = "engine";
pub const APERTIUM_URL_VARIABLE: &str = "apertium_url";
pub const OPENAI_URL_VARIABLE: &str = "openai_url";
pub const OPENAI_MODEL_VARIABLE: &str = "openai_model";
pub const OPENAI_API_KEY_VARIABLE: &str = "openai_api_key";
pub const TIMEOUT_VARIABLE: &str = "engine_timeout_ms";

/// The engines the `engine` variable may name.
const EXPECTED: &str = "a comma-separated list of ctranslate2, apertium, openai, deterministic";

/// The timeout when `engine_timeout_ms` is unset: long enough for a slow model on a long request.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_millis(30_000);

/// One engine and its settings, parsed from variables.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EngineSettings {
    Deterministic,
    Apertium(ApertiumSettings),
    Ctranslate2(Ctranslate2Settings),
    OpenAi(OpenAiSettings),
}

impl EngineSettings {
    /// The engine's name, as the `engine` variable spells it.
    pub fn engine_name(&self) -> &'static str {
        match self {
            EngineSettings::Deterministic => deterministic::NAME,
            EngineSettings::Apertium(_) => apertium::NAME,
            EngineSettings::Ctranslate2(_) => ctranslate2::NAME,
            EngineSettings::OpenAi(_) => openai::NAME,
        }
    }

    /// The engine these settings describe, sending through `http` and caching in `cache`.
    pub fn build<'a>(self, http: &'a dyn OutboundHttp, cache: Option<&'a dyn KeyValue>) -> Box<dyn Engine + 'a> {
        match self {
            EngineSettings::Deterministic => Box::new(DeterministicEngine::new()),
            EngineSettings::Apertium(settings) => Box::new(ApertiumEngine::new(settings, http, cache)),
            EngineSettings::Ctranslate2(settings) => Box::new(Ctranslate2Engine::new(settings, http, cache)),
            EngineSettings::OpenAi(settings) => Box::new(OpenAiEngine::new(settings, http)),
        }
    }

    fn parse(name: &str, vars: &dyn Variables, secrets: Secrets) -> Result<EngineSettings, ConfigError> {
        match name {
            deterministic::NAME => Ok(EngineSettings::Deterministic),
            apertium::NAME => {
                let url = match read(vars, APERTIUM_URL_VARIABLE)? {
                    Some(url) => parse_url(APERTIUM_URL_VARIABLE, &url)?,
                    None => apertium::DEFAULT_URL.to_owned(),
                };
                Ok(EngineSettings::Apertium(ApertiumSettings { url, timeout: timeout(vars)? }))
            }
            ctranslate2::NAME => Ok(EngineSettings::Ctranslate2(Ctranslate2Settings::from_variables(
                vars,
                timeout(vars)?,
                matches!(secrets, Secrets::Read),
            )?)),
            openai::NAME => {
                let url = read(vars, OPENAI_URL_VARIABLE)?.ok_or(ConfigError::Missing {
                    variable: OPENAI_URL_VARIABLE,
                    expected: "the http:// or https:// base URL of an OpenAI-compatible server",
                })?;
                let model = read(vars, OPENAI_MODEL_VARIABLE)?
                    .ok_or(ConfigError::Missing { variable: OPENAI_MODEL_VARIABLE, expected: "the name of a model" })?;
                Ok(EngineSettings::OpenAi(OpenAiSettings {
                    url: parse_url(OPENAI_URL_VARIABLE, &url)?,
                    model,
                    api_key: match secrets {
                        Secrets::Read => read(vars, OPENAI_API_KEY_VARIABLE)?,
                        Secrets::Skip => None,
                    },
                    timeout: timeout(vars)?,
                }))
            }
            other => Err(ConfigError::Invalid {
                variable: ENGINE_VARIABLE,
                reason: format!("unknown engine {other:?}; expected {EXPECTED}"),
            }),
        }
    }
}

/// The engines of the `engine` variable, in priority order, with their settings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EngineList(pub Vec<EngineSettings>);

impl EngineList {
    /// The engines and settings the variables describe; every problem names its variable.
    pub fn from_variables(vars: &dyn Variables) -> Result<EngineList, ConfigError> {
        EngineList::parse(vars, Secrets::Read)
    }

    /// Checks the variables as [`EngineList::from_variables`] does, without reading the secrets
    /// among them (`openai_api_key`, `inference_secret`'s value), and answers the list as the
    /// variable should spell it: for the health check, which never sends anything to an engine.
    pub fn check_variables(vars: &dyn Variables) -> Result<String, ConfigError> {
        let list = EngineList::parse(vars, Secrets::Skip)?;
        if list.0.iter().any(|engine| matches!(engine, EngineSettings::Ctranslate2(_))) {
            // Required, so it must be there; its value is not kept.
            read(vars, ctranslate2::SECRET_VARIABLE)?.ok_or(ConfigError::Missing {
                variable: ctranslate2::SECRET_VARIABLE,
                expected: "the secret the inference service was started with (the ctranslate2 engine needs it)",
            })?;
        }
        Ok(list.names())
    }

    /// The engines' names, comma-separated, in priority order.
    pub fn names(&self) -> String {
        self.0.iter().map(EngineSettings::engine_name).collect::<Vec<_>>().join(",")
    }

    /// The settings of the `ctranslate2` engine, when the list has it.
    pub fn ctranslate2(&self) -> Option<&Ctranslate2Settings> {
        self.0.iter().find_map(|engine| match engine {
            EngineSettings::Ctranslate2(settings) => Some(settings),
            _ => None,
        })
    }

    /// The settings of the `openai` engine, when the list has it.
    pub fn openai(&self) -> Option<&OpenAiSettings> {
        self.0.iter().find_map(|engine| match engine {
            EngineSettings::OpenAi(settings) => Some(settings),
            _ => None,
        })
    }

    fn parse(vars: &dyn Variables, secrets: Secrets) -> Result<EngineList, ConfigError> {
        let value = read(vars, ENGINE_VARIABLE)?
            .ok_or(ConfigError::Missing { variable: ENGINE_VARIABLE, expected: EXPECTED })?;
        let mut engines: Vec<EngineSettings> = Vec::new();
        for name in value.split(',').map(str::trim) {
            if name.is_empty() {
                return Err(ConfigError::Invalid {
                    variable: ENGINE_VARIABLE,
                    reason: format!("an empty name in the list {value:?}; expected {EXPECTED}"),
                });
            }
            let engine = EngineSettings::parse(name, vars, secrets)?;
            if engines.iter().any(|named| named.engine_name() == engine.engine_name()) {
                return Err(ConfigError::Invalid {
                    variable: ENGINE_VARIABLE,
                    reason: format!("{name:?} is named twice in the list {value:?}"),
                });
            }
            engines.push(engine);
        }
        Ok(EngineList(engines))
    }

    /// The engines, in priority order, as one engine: sending through `http` and caching in
    /// `cache`.
    pub fn build<'a>(self, http: &'a dyn OutboundHttp, cache: Option<&'a dyn KeyValue>) -> Chain<'a> {
        Chain::new(self.0.into_iter().map(|engine| engine.build(http, cache)).collect())
    }
}

/// Whether parsing reads the secret variables.
#[derive(Clone, Copy)]
enum Secrets {
    Read,
    Skip,
}

/// The engines the variables of `services` list, sending through its outbound HTTP and caching
/// in its key-value store; see the module documentation.
pub fn configured<'a>(services: &Services<'a>) -> Result<Chain<'a>, ConfigError> {
    Ok(EngineList::from_variables(services.vars)?.build(services.http, Some(services.kv)))
}

/// The variable's trimmed value; `None` when unset or empty.
pub(crate) fn read(vars: &dyn Variables, variable: &'static str) -> Result<Option<String>, ConfigError> {
    let value = vars.get(variable).map_err(|source| ConfigError::Unreadable { variable, source })?;
    Ok(value.map(|value| value.trim().to_owned()).filter(|value| !value.is_empty()))
}

/// An absolute http(s) URL without a trailing slash. The value is not quoted in the error: a
/// URL may carry credentials.
pub(crate) fn parse_url(variable: &'static str, url: &str) -> Result<String, ConfigError> {
    let rest = url.strip_prefix("http://").or_else(|| url.strip_prefix("https://"));
    match rest {
        Some(host) if !host.is_empty() && !host.starts_with('/') => Ok(url.trim_end_matches('/').to_owned()),
        _ => Err(ConfigError::Invalid { variable, reason: "must be an absolute http:// or https:// URL".into() }),
    }
}

fn timeout(vars: &dyn Variables) -> Result<Duration, ConfigError> {
    match read(vars, TIMEOUT_VARIABLE)? {
        None => Ok(DEFAULT_TIMEOUT),
        Some(value) => match value.parse::<u64>() {
            Ok(millis) if millis > 0 => Ok(Duration::from_millis(millis)),
            _ => Err(ConfigError::Invalid {
                variable: TIMEOUT_VARIABLE,
                reason: format!("{value:?} is not a positive number of milliseconds"),
            }),
        },
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use platform::native::NativeHost;
    use platform::{FixedClock, VarError, Variables};

    use super::*;

    fn vars(pairs: &[(&str, &str)]) -> HashMap<String, String> {
        pairs.iter().map(|(name, value)| (name.to_string(), value.to_string())).collect()
    }

    /// The one engine the variables name.
    fn parse(pairs: &[(&str, &str)]) -> Result<EngineSettings, ConfigError> {
        let mut list = EngineList::from_variables(&vars(pairs))?;
        assert_eq!(list.0.len(), 1, "{list:?}");
        Ok(list.0.remove(0))
    }

    #[test]
    fn a_missing_or_empty_engine_names_the_variable() {
        for pairs in [&[][..], &[("engine", "")], &[("engine", "  ")]] {
            let error = parse(pairs).unwrap_err();
            assert_eq!(error.variable(), "engine");
            assert!(error.to_string().contains("`engine` is not set"), "{error}");
        }
    }

    #[test]
    fn an_unknown_engine_names_the_variable_and_the_choices() {
        let error = parse(&[("engine", "google")]).unwrap_err();
        assert_eq!(error.variable(), "engine");
        let text = error.to_string();
        assert!(text.contains("\"google\"") && text.contains("ctranslate2, apertium, openai, deterministic"), "{text}");
    }

    #[test]
    fn apertium_has_defaults_for_everything() {
        assert_eq!(
            parse(&[("engine", "apertium")]).unwrap(),
            EngineSettings::Apertium(ApertiumSettings {
                url: "http://127.0.0.1:2737".into(),
                timeout: Duration::from_secs(30)
            })
        );
        assert_eq!(
            parse(&[("engine", "apertium"), ("apertium_url", "http://apy:2737/"), ("engine_timeout_ms", "1500")])
                .unwrap(),
            EngineSettings::Apertium(ApertiumSettings {
                url: "http://apy:2737".into(),
                timeout: Duration::from_millis(1500)
            })
        );
    }

    #[test]
    fn openai_needs_a_url_and_a_model_and_takes_an_optional_key() {
        assert_eq!(parse(&[("engine", "openai"), ("openai_model", "m")]).unwrap_err().variable(), "openai_url");
        assert_eq!(
            parse(&[("engine", "openai"), ("openai_url", "http://llm")]).unwrap_err().variable(),
            "openai_model"
        );
        let settings = parse(&[
            ("engine", "openai"),
            ("openai_url", "https://llm/v1"),
            ("openai_model", "m"),
            ("openai_api_key", ""),
        ])
        .unwrap();
        assert_eq!(
            settings,
            EngineSettings::OpenAi(OpenAiSettings {
                url: "https://llm/v1".into(),
                model: "m".into(),
                api_key: None,
                timeout: DEFAULT_TIMEOUT,
            })
        );
    }

    #[test]
    fn bad_values_name_their_variable_without_quoting_urls() {
        let error = parse(&[("engine", "apertium"), ("apertium_url", "ftp://user:pw@apy")]).unwrap_err();
        assert_eq!(error.variable(), "apertium_url");
        assert!(!error.to_string().contains("pw"), "{error}");
        assert_eq!(
            parse(&[("engine", "apertium"), ("apertium_url", "http://")]).unwrap_err().variable(),
            "apertium_url"
        );
        for timeout in ["0", "-5", "soon", "1.5"] {
            let error = parse(&[("engine", "deterministic"), ("engine_timeout_ms", timeout)]);
            // The deterministic engine reads no timeout: only engines that call out check it.
            assert!(error.is_ok());
            let error = parse(&[("engine", "apertium"), ("engine_timeout_ms", timeout)]).unwrap_err();
            assert_eq!(error.variable(), "engine_timeout_ms");
        }
    }

    #[test]
    fn the_api_key_never_appears_in_errors_or_debug_output() {
        let settings = parse(&[
            ("engine", "openai"),
            ("openai_url", "http://llm"),
            ("openai_model", "m"),
            ("openai_api_key", "sk-very-secret"),
        ])
        .unwrap();
        assert!(!format!("{settings:?}").contains("sk-very-secret"));
        let error =
            parse(&[("engine", "openai"), ("openai_api_key", "sk-very-secret"), ("openai_model", "m")]).unwrap_err();
        assert!(!format!("{error} {error:?}").contains("sk-very-secret"));
    }

    #[test]
    fn unreadable_variables_are_reported_with_their_name() {
        struct Broken;
        impl Variables for Broken {
            fn get(&self, _: &str) -> Result<Option<String>, VarError> {
                Err(VarError::Provider("vault sealed".into()))
            }
        }
        let error = EngineList::from_variables(&Broken).unwrap_err();
        assert!(matches!(error, ConfigError::Unreadable { variable: "engine", .. }), "{error:?}");
    }

    #[test]
    fn checking_the_variables_names_the_engine_or_the_problem_without_reading_the_key() {
        /// Variables that fail the test if the API key is read.
        struct NoSecrets(HashMap<String, String>);
        impl Variables for NoSecrets {
            fn get(&self, name: &str) -> Result<Option<String>, VarError> {
                assert_ne!(name, OPENAI_API_KEY_VARIABLE, "the check read the secret");
                self.0.get(name).map(|value| Ok(Some(value.clone()))).unwrap_or(Ok(None))
            }
        }
        let check = |pairs: &[(&str, &str)]| EngineList::check_variables(&NoSecrets(vars(pairs)));
        assert_eq!(check(&[("engine", "deterministic")]).as_deref(), Ok("deterministic"));
        assert_eq!(check(&[("engine", "apertium"), ("apertium_url", "http://apy:2737")]).as_deref(), Ok("apertium"));
        assert_eq!(
            check(&[("engine", "openai"), ("openai_url", "http://llm"), ("openai_model", "m")]).as_deref(),
            Ok("openai")
        );
        assert_eq!(check(&[("engine", "google")]).unwrap_err().variable(), "engine");
        assert_eq!(
            check(&[("engine", "apertium"), ("apertium_url", "apy:2737")]).unwrap_err().variable(),
            "apertium_url"
        );
        assert_eq!(
            check(&[("engine", "openai"), ("openai_url", "http://llm")]).unwrap_err().variable(),
            "openai_model"
        );
        assert_eq!(
            check(&[
                ("engine", "openai"),
                ("openai_url", "http://llm"),
                ("openai_model", "m"),
                ("engine_timeout_ms", "x")
            ])
            .unwrap_err()
            .variable(),
            "engine_timeout_ms"
        );
        // The settings name their engine as the variable spells it.
        assert_eq!(parse(&[("engine", "apertium")]).unwrap().engine_name(), "apertium");
    }

    #[test]
    fn configured_builds_the_chosen_engine() {
        let mut host = NativeHost::in_memory::<&str>(&[], FixedClock::at_unix(0)).unwrap();
        for (engine, name) in [("deterministic", "deterministic"), ("apertium", "apertium")] {
            host.vars = vars(&[("engine", engine)]);
            assert_eq!(configured(&host.services()).unwrap().name(), name);
        }
        host.vars = vars(&[("engine", "openai"), ("openai_url", "http://127.0.0.1:9"), ("openai_model", "m")]);
        assert_eq!(configured(&host.services()).unwrap().name(), "openai");
        host.vars = vars(&[]);
        assert!(configured(&host.services()).is_err());
        host.vars = vars(&[("engine", "ctranslate2, apertium"), ("inference_secret", "s")]);
        assert_eq!(configured(&host.services()).unwrap().name(), "engine list");
    }

    #[test]
    fn the_engine_variable_is_a_priority_list() {
        let list = EngineList::from_variables(&vars(&[
            ("engine", " ctranslate2 , apertium,deterministic "),
            ("inference_secret", "s3cret"),
            ("inference_url", "http://10.0.0.5:2741/"),
        ]))
        .unwrap();
        assert_eq!(list.names(), "ctranslate2,apertium,deterministic");
        assert_eq!(
            list.0[0],
            EngineSettings::Ctranslate2(Ctranslate2Settings::new("http://10.0.0.5:2741", "s3cret", DEFAULT_TIMEOUT))
        );
        assert!(list.openai().is_none());
        for (value, problem) in [
            ("apertium,,deterministic", "an empty name"),
            ("apertium,", "an empty name"),
            ("apertium,apertium", "named twice"),
            ("apertium,google", "unknown engine \"google\""),
        ] {
            let error = EngineList::from_variables(&vars(&[("engine", value)])).unwrap_err();
            assert_eq!(error.variable(), "engine");
            assert!(error.to_string().contains(problem), "{value}: {error}");
        }
    }

    #[test]
    fn ctranslate2_needs_the_inference_secret_and_never_shows_it() {
        let error = parse(&[("engine", "ctranslate2")]).unwrap_err();
        assert_eq!(error.variable(), "inference_secret");
        assert_eq!(
            EngineList::check_variables(&vars(&[("engine", "ctranslate2")])).unwrap_err().variable(),
            "inference_secret"
        );
        let settings = parse(&[("engine", "ctranslate2"), ("inference_secret", "hunter2")]).unwrap();
        assert_eq!(
            settings,
            EngineSettings::Ctranslate2(Ctranslate2Settings::new("http://127.0.0.1:2741", "hunter2", DEFAULT_TIMEOUT))
        );
        assert!(!format!("{settings:?}").contains("hunter2"));
        assert_eq!(
            parse(&[("engine", "ctranslate2"), ("inference_secret", "x"), ("inference_url", "inference:2741")])
                .unwrap_err()
                .variable(),
            "inference_url"
        );
        assert_eq!(
            EngineList::check_variables(&vars(&[("engine", "ctranslate2,apertium"), ("inference_secret", "x")]))
                .as_deref(),
            Ok("ctranslate2,apertium")
        );
    }
}
