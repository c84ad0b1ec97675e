//! The errors of the catalogue, whose texts are the API's own messages so a caller can answer them as they are.

use thiserror::Error;

/// A language code that cannot be used where it was given. The message names the parameter, as the API does:
/// `Value for 'target_lang' not supported.`
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum LanguageError {
    /// No language of the catalogue has this code.
    #[error("Value for '{parameter}' not supported.")]
    Unknown { parameter: &'static str, value: String },
    /// A variant (`EN-GB`) given as a source language; variants are targets only.
    #[error("Value for '{parameter}' not supported.")]
    TargetOnly { parameter: &'static str, value: String },
}

impl LanguageError {
    /// The request parameter that carried the code.
    pub fn parameter(&self) -> &'static str {
        match self {
            LanguageError::Unknown { parameter, .. } | LanguageError::TargetOnly { parameter, .. } => parameter,
        }
    }

    /// The code as the client sent it.
    pub fn value(&self) -> &str {
        match self {
            LanguageError::Unknown { value, .. } | LanguageError::TargetOnly { value, .. } => value,
        }
    }

    /// The same error for an endpoint whose parameter has another name (e.g. `source_language` in voice).
    pub fn for_parameter(self, name: &'static str) -> LanguageError {
        match self {
            LanguageError::Unknown { value, .. } => LanguageError::Unknown { parameter: name, value },
            LanguageError::TargetOnly { value, .. } => LanguageError::TargetOnly { parameter: name, value },
        }
    }
}

/// A query parameter of the language endpoints that cannot be served.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum QueryError {
    /// `/v3/languages` called with the parameter's old name, `product`.
    #[error("Bad request. Reason: The 'product' parameter has been renamed to 'resource'.")]
    ProductRenamed,
    /// A required parameter is absent.
    #[error("Parameter '{parameter}' not specified")]
    Missing { parameter: &'static str },
    /// A parameter's value is not one the endpoint knows.
    #[error("Value for '{parameter}' not supported.")]
    Unsupported { parameter: &'static str, value: String },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn language_errors_name_the_parameter_in_the_api_message() {
        let error = LanguageError::Unknown { parameter: "target_lang", value: "XX".into() };
        assert_eq!(error.to_string(), "Value for 'target_lang' not supported.");
        let error = LanguageError::TargetOnly { parameter: "source_lang", value: "EN-GB".into() };
        assert_eq!(error.to_string(), "Value for 'source_lang' not supported.");
    }

    #[test]
    fn a_language_error_can_be_renamed_for_another_parameter() {
        let error =
            LanguageError::Unknown { parameter: "source_lang", value: "xx".into() }.for_parameter("source_language");
        assert_eq!(error.parameter(), "source_language");
        assert_eq!(error.value(), "xx");
        assert_eq!(error.to_string(), "Value for 'source_language' not supported.");
    }

    #[test]
    fn query_errors_carry_the_api_messages() {
        assert_eq!(
            QueryError::ProductRenamed.to_string(),
            "Bad request. Reason: The 'product' parameter has been renamed to 'resource'."
        );
        assert_eq!(QueryError::Missing { parameter: "resource" }.to_string(), "Parameter 'resource' not specified");
        assert_eq!(
            QueryError::Unsupported { parameter: "type", value: "both".into() }.to_string(),
            "Value for 'type' not supported."
        );
    }
}
