//! Application and component variables.
//!
//! An application variable's value comes, first hit wins, from `--variable name=value`, from the
//! environment variable `SPIN_VARIABLE_<NAME>` (the name upper-cased), or from its `default`. A
//! `required` variable without a value stops the start with its name. Component variables are
//! templates over application variables, rendered once at start; they are what the component's
//! `variables::get` sees. Values of `secret` variables are never written anywhere.

use std::collections::BTreeMap;

use anyhow::bail;

use crate::manifest::{Component, Manifest};

/// The environment-variable prefix overriding application variables.
pub const ENV_PREFIX: &str = "SPIN_VARIABLE_";

/// Resolved application variables.
#[derive(Debug, Clone, Default)]
pub struct AppVariables {
    values: BTreeMap<String, String>,
}

impl AppVariables {
    /// Resolves every variable `manifest` declares.
    pub fn resolve(
        manifest: &Manifest,
        overrides: &[(String, String)],
        env: impl Fn(&str) -> Option<String>,
    ) -> anyhow::Result<AppVariables> {
        for (name, _) in overrides {
            if !manifest.variables.contains_key(name) {
                bail!("--variable {name}: the application declares no variable `{name}`");
            }
        }
        let mut values = BTreeMap::new();
        let mut missing = Vec::new();
        for (name, decl) in &manifest.variables {
            let value = overrides
                .iter()
                .rev()
                .find(|(key, _)| key == name)
                .map(|(_, value)| value.clone())
                .or_else(|| env(&format!("{ENV_PREFIX}{}", name.to_ascii_uppercase())))
                .or_else(|| decl.default.clone());
            match value {
                Some(value) => {
                    values.insert(name.clone(), value);
                }
                None => missing.push(format!("`{name}` (set {ENV_PREFIX}{})", name.to_ascii_uppercase())),
            }
        }
        if !missing.is_empty() {
            bail!("required variables have no value: {}", missing.join(", "));
        }
        Ok(AppVariables { values })
    }

    /// The value of application variable `name`.
    pub fn get(&self, name: &str) -> anyhow::Result<String> {
        match self.values.get(name) {
            Some(value) => Ok(value.clone()),
            None => bail!("unknown application variable `{name}`"),
        }
    }

    /// Renders a component's variables.
    pub fn component_variables(&self, component: &Component) -> anyhow::Result<BTreeMap<String, String>> {
        component
            .variables
            .iter()
            .map(|(name, template)| Ok((name.clone(), template.render(|reference| self.get(reference))?)))
            .collect()
    }
}

/// Splits a `name=value` command-line argument.
pub fn parse_assignment(text: &str) -> anyhow::Result<(String, String)> {
    match text.split_once('=') {
        Some((name, value)) if !name.is_empty() => Ok((name.to_owned(), value.to_owned())),
        _ => bail!("`{text}` must be of the form `name=value`"),
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    fn manifest() -> Manifest {
        Manifest::parse(
            Path::new("/app/spin.toml"),
            r#"
            spin_manifest_version = 2
            [application]
            name = "demo"
            [variables]
            engine = { default = "apertium" }
            api_key = { required = true, secret = true }
            [[trigger.http]]
            route = "/..."
            component = "web"
            [component.web]
            source = "web.wasm"
            [component.web.variables]
            engine = "{{ engine }}"
            authorization = "Bearer {{ api_key }}"
            "#,
        )
        .unwrap()
    }

    #[test]
    fn the_environment_overrides_defaults_and_flags_override_the_environment() {
        let manifest = manifest();
        let env = |name: &str| match name {
            "SPIN_VARIABLE_API_KEY" => Some("from-env".to_owned()),
            "SPIN_VARIABLE_ENGINE" => Some("openai".to_owned()),
            _ => None,
        };
        let resolved = AppVariables::resolve(&manifest, &[], env).unwrap();
        assert_eq!(resolved.get("engine").unwrap(), "openai");
        let flagged = AppVariables::resolve(&manifest, &[("engine".into(), "deterministic".into())], env).unwrap();
        assert_eq!(flagged.get("engine").unwrap(), "deterministic");
        let component = flagged.component_variables(manifest.component("web").unwrap()).unwrap();
        assert_eq!(component["authorization"], "Bearer from-env");
        assert_eq!(component["engine"], "deterministic");
    }

    #[test]
    fn a_required_variable_without_a_value_is_named() {
        let error = AppVariables::resolve(&manifest(), &[], |_| None).unwrap_err().to_string();
        assert!(error.contains("`api_key`"), "{error}");
        assert!(error.contains("SPIN_VARIABLE_API_KEY"), "{error}");
    }

    #[test]
    fn defaults_apply_without_overrides() {
        let resolved = AppVariables::resolve(&manifest(), &[("api_key".into(), "k".into())], |_| None).unwrap();
        assert_eq!(resolved.get("engine").unwrap(), "apertium");
    }

    #[test]
    fn a_flag_for_an_undeclared_variable_is_an_error() {
        let error = AppVariables::resolve(&manifest(), &[("nope".into(), "x".into())], |_| None).unwrap_err();
        assert!(error.to_string().contains("no variable `nope`"));
    }

    #[test]
    fn assignments_split_at_the_first_equals_sign() {
        assert_eq!(parse_assignment("a=b=c").unwrap(), ("a".into(), "b=c".into()));
        assert!(parse_assignment("novalue").is_err());
        assert!(parse_assignment("=x").is_err());
    }
}
