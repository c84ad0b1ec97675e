//! Configuration variables (Spin component variables, or any map natively).

/// Why a variable could not be read.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum VarError {
    /// The name is not a valid variable name.
    #[error("invalid variable name: {0}")]
    InvalidName(String),
    /// The host could not produce the value.
    #[error("variable provider error: {0}")]
    Provider(String),
}

/// Read access to configuration variables.
pub trait Variables {
    /// The variable's value, or `None` when it is not defined for this program.
    fn get(&self, name: &str) -> Result<Option<String>, VarError>;
}

impl Variables for std::collections::HashMap<String, String> {
    fn get(&self, name: &str) -> Result<Option<String>, VarError> {
        Ok(std::collections::HashMap::get(self, name).cloned())
    }
}
