//! The engines' failures as the API answers them.

use api::ApiError;

use crate::{ConfigError, EngineError};

/// What every client hears when the engine cannot serve a request: nothing internal.
const UNAVAILABLE: &str = "The translation engine is unavailable right now; try again later.";

/// An unusable engine configuration is the operator's to fix: logged, answered with a generic
/// 500.
impl From<ConfigError> for ApiError {
    fn from(error: ConfigError) -> ApiError {
        eprintln!("configuration: {error}");
        ApiError::new(500, api::INTERNAL_ERROR_MESSAGE)
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
    fn a_configuration_error_is_a_generic_500() {
        let error = ApiError::from(ConfigError::Missing { variable: "engine", expected: "an engine" });
        assert_eq!((error.status, error.message.as_str()), (500, api::INTERNAL_ERROR_MESSAGE));
    }
}
