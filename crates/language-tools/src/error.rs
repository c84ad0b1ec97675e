//! The crate's errors: what can fail while loading the models, and what a correction request can ask for
//! that the service does not offer.

use std::path::PathBuf;

/// A dictionary that could not be loaded; its language is then not offered.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("cannot read {}: {source}", path.display())]
    Read { path: PathBuf, source: std::io::Error },
    #[error("{} declares the encoding '{label}', which is not known", path.display())]
    Encoding { path: PathBuf, label: String },
    #[error("cannot parse the dictionary {}: {message}", path.display())]
    Dictionary { path: PathBuf, message: String },
}

/// A correction the service cannot make.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CorrectError {
    #[error("Language '{0}' is not supported for correction")]
    Unsupported(String),
}
