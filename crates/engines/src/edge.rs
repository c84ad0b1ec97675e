//! The engines' failures as the API answers them.

use api::ApiError;

use crate::{ConfigError, EngineError};

/// What every client hears when the engine cannot serve a request: nothing internal.
const UNAVAILABLE: &str = "The translation engine is unavailable right now; try again later.";

/// An unusable engine configuration is the operator's to fix, and no retry helps until they do:
/// every request that needs the engine answers 503 naming the variable and the problem (never a
/// secret or a URL, see [`ConfigError::problem`]), and the whole cause goes to the log.
impl From<ConfigError> for ApiError {
    fn from(error: ConfigError) -> ApiError {
        eprintln!("configuration: {error}");
        ApiError::unavailable(format!(
            "The translation engine is not configured correctly: {}. An operator must fix this setting.",
            error.problem()
        ))
    }
}

/// A pair the engine does not translate is the client's 400; an engine that is down, or answered
/// something unusable, is a 503 whose cause goes to the log (nothing is billed either way).
impl From<EngineError> for ApiError {
    fn from(error: EngineError) -> ApiError {
        match error {
            unsupported @ EngineError::UnsupportedPair { .. } => ApiError::bad_request(unsupported.to_string()),
            EngineError::Unavailable { .. } | EngineError::Invalid(_) => {
                eprintln!("engine: {error}");
                ApiError::unavailable(UNAVAILABLE)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unsupported_pair_is_the_clients_400_naming_it() {
        let (de, en) = (catalogue::find("DE").unwrap(), catalogue::find("EN-GB").unwrap());
        let error = ApiError::from(EngineError::UnsupportedPair { from: de, to: en });
        assert_eq!(
            (error.status, error.message.as_str()),
            (400, "The translation engine does not translate from DE to EN-GB.")
        );
    }

    #[test]
    fn an_engine_failure_is_a_503_that_keeps_its_cause_to_the_log() {
        for failure in [
            EngineError::Unavailable { engine: "apertium", reason: "connection refused at 10.0.0.7".into() },
            EngineError::Invalid("listPairs is not JSON".into()),
        ] {
            let error = ApiError::from(failure);
            assert_eq!((error.status, error.message.as_str()), (503, UNAVAILABLE));
        }
    }

    #[test]
    fn a_configuration_error_is_a_503_naming_the_variable_and_the_problem() {
        let error = ApiError::from(ConfigError::Invalid {
            variable: "engine",
            reason: "unknown engine \"google\"; expected one of apertium, openai, deterministic".into(),
        });
        assert_eq!(error.status, 503);
        assert_eq!(
            error.message,
            "The translation engine is not configured correctly: variable `engine`: unknown engine \"google\"; \
             expected one of apertium, openai, deterministic. An operator must fix this setting."
        );
        let missing =
            ApiError::from(ConfigError::Missing { variable: "openai_model", expected: "the name of a model" });
        assert_eq!(missing.status, 503);
        assert!(missing.message.contains("variable `openai_model` is not set"), "{}", missing.message);
    }

    #[test]
    fn an_unreadable_variable_keeps_the_hosts_cause_to_the_log() {
        let error = ConfigError::Unreadable {
            variable: "openai_api_key",
            source: platform::VarError::Provider("vault at 10.0.0.7 sealed".into()),
        };
        // What the log gets (see the `From` above): the cause included.
        assert!(error.to_string().contains("vault at 10.0.0.7 sealed"), "{error}");
        let answer = ApiError::from(error);
        assert_eq!(answer.status, 503);
        assert!(answer.message.contains("variable `openai_api_key` could not be read"), "{}", answer.message);
        assert!(!answer.message.contains("10.0.0.7"), "{}", answer.message);
    }
}
