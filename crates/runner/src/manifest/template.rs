//! `{{ variable }}` templates, as used in component variables and `allowed_outbound_hosts`.

use std::collections::BTreeMap;
use std::fmt;

use anyhow::bail;

use crate::manifest::{VariableDecl, check_variable_name};

/// A string with `{{ name }}` references to application variables.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Template {
    parts: Vec<Part>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Part {
    Literal(String),
    Variable(String),
}

impl Template {
    pub fn parse(text: &str) -> anyhow::Result<Template> {
        let mut parts = Vec::new();
        let mut rest = text;
        while let Some(start) = rest.find("{{") {
            if start > 0 {
                parts.push(Part::Literal(rest[..start].to_owned()));
            }
            let after = &rest[start + 2..];
            let Some(end) = after.find("}}") else {
                bail!("`{{{{` without a closing `}}}}` in `{text}`");
            };
            let name = after[..end].trim();
            check_variable_name(name)?;
            parts.push(Part::Variable(name.to_owned()));
            rest = &after[end + 2..];
        }
        if rest.contains("}}") {
            bail!("`}}}}` without an opening `{{{{` in `{text}`");
        }
        if !rest.is_empty() {
            parts.push(Part::Literal(rest.to_owned()));
        }
        Ok(Template { parts })
    }

    /// Fails when the template references a variable the application does not declare.
    pub fn check_references(&self, declared: &BTreeMap<String, VariableDecl>) -> anyhow::Result<()> {
        for name in self.variables() {
            if !declared.contains_key(name) {
                bail!("references the undeclared application variable `{name}`");
            }
        }
        Ok(())
    }

    /// The variables the template references.
    pub fn variables(&self) -> impl Iterator<Item = &str> {
        self.parts.iter().filter_map(|part| match part {
            Part::Variable(name) => Some(name.as_str()),
            Part::Literal(_) => None,
        })
    }

    /// The text with every reference replaced by `lookup`'s value for it.
    pub fn render(&self, lookup: impl Fn(&str) -> anyhow::Result<String>) -> anyhow::Result<String> {
        let mut text = String::new();
        for part in &self.parts {
            match part {
                Part::Literal(literal) => text.push_str(literal),
                Part::Variable(name) => text.push_str(&lookup(name)?),
            }
        }
        Ok(text)
    }
}

impl fmt::Display for Template {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for part in &self.parts {
            match part {
                Part::Literal(literal) => f.write_str(literal)?,
                Part::Variable(name) => write!(f, "{{{{ {name} }}}}")?,
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references_are_replaced_and_literals_kept() {
        let template = Template::parse("http://{{host}}:{{ port }}/v1").unwrap();
        assert_eq!(template.variables().collect::<Vec<_>>(), ["host", "port"]);
        let text = template.render(|name| Ok(if name == "host" { "127.0.0.1".into() } else { "2737".into() }));
        assert_eq!(text.unwrap(), "http://127.0.0.1:2737/v1");
        assert_eq!(template.to_string(), "http://{{ host }}:{{ port }}/v1");
    }

    #[test]
    fn malformed_templates_are_rejected() {
        assert!(Template::parse("{{ host").is_err());
        assert!(Template::parse("host }}").is_err());
        assert!(Template::parse("{{ Host }}").is_err());
        assert!(Template::parse("{{}}").is_err());
    }

    #[test]
    fn a_plain_string_is_a_template_without_references() {
        let template = Template::parse("plain").unwrap();
        assert_eq!(template.render(|_| unreachable!()).unwrap(), "plain");
    }
}
