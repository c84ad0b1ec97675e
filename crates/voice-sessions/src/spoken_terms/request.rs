//! `POST` and `PUT /v2/admin/spoken-terms…`: a list's `name` and `terms`, each checked and named
//! when refused.

use std::collections::HashSet;

use super::{MAX_NAME_CHARS, MAX_PROMPT_CHARS, MAX_TERM_CHARS, MAX_TERMS, TERMS_SEPARATOR};
use crate::request::RequestError;

/// A list as sent: each parameter of the right type, none checked.
#[derive(Debug, Default, Clone)]
pub struct RawTermsList {
    pub name: Option<String>,
    pub terms: Option<Vec<String>>,
}

/// A valid new list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewTermsList {
    pub name: String,
    pub terms: Vec<String>,
}

/// A valid change: what is given replaces what the list holds; at least one of the two.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TermsChange {
    pub name: Option<String>,
    pub terms: Option<Vec<String>>,
}

fn unsupported(name: &'static str, reason: impl Into<String>) -> RequestError {
    RequestError::Unsupported { name, reason: reason.into() }
}

impl RawTermsList {
    /// A new list: both `name` and `terms` are required.
    pub fn parse_new(self) -> Result<NewTermsList, RequestError> {
        let name = self.name.ok_or(RequestError::Missing("name")).and_then(name)?;
        let terms = self.terms.ok_or(RequestError::Missing("terms")).and_then(terms)?;
        Ok(NewTermsList { name, terms })
    }

    /// A change: `name`, `terms` or both.
    pub fn parse_change(self) -> Result<TermsChange, RequestError> {
        if self.name.is_none() && self.terms.is_none() {
            return Err(RequestError::MissingEither("name", "terms"));
        }
        Ok(TermsChange { name: self.name.map(name).transpose()?, terms: self.terms.map(terms).transpose()? })
    }
}

/// A list's name: trimmed, 1 to [`MAX_NAME_CHARS`] characters, on one line.
pub fn name(text: String) -> Result<String, RequestError> {
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Err(unsupported("name", "the name may not be empty."));
    }
    if trimmed.chars().count() > MAX_NAME_CHARS {
        return Err(unsupported("name", format!("the name may hold at most {MAX_NAME_CHARS} characters.")));
    }
    if trimmed.chars().any(char::is_control) {
        return Err(unsupported("name", "the name may not hold control characters (line breaks, tabs)."));
    }
    Ok(trimmed.to_owned())
}

/// A list's terms in their order: 1 to [`MAX_TERMS`], each trimmed, 1 to [`MAX_TERM_CHARS`]
/// characters on one line, none twice (ignoring case), and all of them, joined by
/// [`TERMS_SEPARATOR`], at most [`MAX_PROMPT_CHARS`] characters.
pub fn terms(given: Vec<String>) -> Result<Vec<String>, RequestError> {
    if given.is_empty() {
        return Err(unsupported("terms", "give at least one term."));
    }
    if given.len() > MAX_TERMS {
        return Err(unsupported(
            "terms",
            format!("a list holds at most {MAX_TERMS} terms; {} were given.", given.len()),
        ));
    }
    let mut terms = Vec::with_capacity(given.len());
    let mut seen = HashSet::with_capacity(given.len());
    for (index, text) in given.iter().enumerate() {
        let number = index + 1;
        let term = text.trim();
        if term.is_empty() {
            return Err(unsupported("terms", format!("term {number} is empty.")));
        }
        if term.chars().count() > MAX_TERM_CHARS {
            return Err(unsupported("terms", format!("term {number} is longer than {MAX_TERM_CHARS} characters.")));
        }
        if term.chars().any(char::is_control) {
            return Err(unsupported(
                "terms",
                format!("term {number} holds a control character (a line break, a tab)."),
            ));
        }
        if !seen.insert(term.to_lowercase()) {
            return Err(unsupported("terms", format!("'{term}' is listed twice.")));
        }
        terms.push(term.to_owned());
    }
    let joined: usize = terms.iter().map(|term| term.chars().count()).sum::<usize>()
        + TERMS_SEPARATOR.chars().count() * (terms.len() - 1);
    if joined > MAX_PROMPT_CHARS {
        return Err(unsupported(
            "terms",
            format!(
                "the terms together hold {joined} characters (joined by \"{TERMS_SEPARATOR}\"); at most {MAX_PROMPT_CHARS} fit the recogniser's prompt."
            ),
        ));
    }
    Ok(terms)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(name: Option<&str>, terms: Option<&[&str]>) -> RawTermsList {
        RawTermsList {
            name: name.map(str::to_owned),
            terms: terms.map(|terms| terms.iter().map(|term| term.to_string()).collect()),
        }
    }

    fn refused_terms(terms: Vec<String>) -> String {
        super::terms(terms).unwrap_err().to_string()
    }

    #[test]
    fn a_list_is_trimmed_and_keeps_its_order() {
        let parsed = list(Some("  Product names "), Some(&[" Glossa", "Spin ", "WebAssembly"])).parse_new().unwrap();
        assert_eq!(parsed.name, "Product names");
        assert_eq!(parsed.terms, ["Glossa", "Spin", "WebAssembly"]);
    }

    #[test]
    fn a_new_list_needs_both_and_a_change_one_of_them() {
        assert_eq!(list(None, Some(&["a"])).parse_new().unwrap_err().to_string(), "Parameter 'name' not specified");
        assert_eq!(list(Some("n"), None).parse_new().unwrap_err().to_string(), "Parameter 'terms' not specified");
        assert_eq!(
            list(None, None).parse_change().unwrap_err().to_string(),
            "Parameter 'name' or 'terms' not specified"
        );
        let change = list(None, Some(&["b"])).parse_change().unwrap();
        assert_eq!(change, TermsChange { name: None, terms: Some(vec!["b".into()]) });
        let change = list(Some(" x "), None).parse_change().unwrap();
        assert_eq!(change, TermsChange { name: Some("x".into()), terms: None });
    }

    #[test]
    fn names_are_checked() {
        let refused = |text: &str| name(text.to_owned()).unwrap_err().to_string();
        assert_eq!(refused("   "), "Value for 'name' not supported: the name may not be empty.");
        assert!(name("n".repeat(MAX_NAME_CHARS)).is_ok());
        assert_eq!(
            refused(&"é".repeat(MAX_NAME_CHARS + 1)),
            "Value for 'name' not supported: the name may hold at most 1024 characters."
        );
        assert!(refused("two\nlines").starts_with("Value for 'name' not supported: the name may not hold control"));
    }

    #[test]
    fn terms_are_checked_one_by_one_and_named_by_their_place() {
        let strings = |terms: &[&str]| terms.iter().map(|term| term.to_string()).collect::<Vec<_>>();
        assert_eq!(refused_terms(Vec::new()), "Value for 'terms' not supported: give at least one term.");
        assert_eq!(refused_terms(strings(&["a", " "])), "Value for 'terms' not supported: term 2 is empty.");
        assert_eq!(
            refused_terms(vec!["a".into(), "b".repeat(MAX_TERM_CHARS + 1)]),
            "Value for 'terms' not supported: term 2 is longer than 100 characters."
        );
        assert!(super::terms(vec!["ü".repeat(MAX_TERM_CHARS)]).is_ok(), "characters, not bytes");
        assert!(refused_terms(strings(&["tab\there"])).contains("term 1 holds a control character"));
        assert_eq!(
            refused_terms(strings(&["Glossa", "Spin", " glossa "])),
            "Value for 'terms' not supported: 'glossa' is listed twice."
        );
        let many: Vec<String> = (0..=MAX_TERMS).map(|n| n.to_string()).collect();
        assert_eq!(
            refused_terms(many),
            "Value for 'terms' not supported: a list holds at most 250 terms; 251 were given."
        );
    }

    #[test]
    fn the_terms_together_must_fit_the_recognisers_prompt() {
        // 10 terms of 98 characters and their 9 separators: 998; two characters more fit,
        // a third does not.
        let fits: Vec<String> = (0..10).map(|n| format!("{n}{}", "x".repeat(97))).collect();
        assert_eq!(super::terms(fits.clone()).unwrap().len(), 10);
        let mut longer = fits.clone();
        longer[0].push('y');
        longer[0].push('y');
        assert!(super::terms(longer.clone()).is_ok(), "1000 characters fit");
        longer[1].push('y');
        assert_eq!(
            refused_terms(longer),
            "Value for 'terms' not supported: the terms together hold 1001 characters (joined by \", \"); at most 1000 fit the recogniser's prompt."
        );
    }
}
