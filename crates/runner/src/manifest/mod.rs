//! `spin.toml` (manifest version 2): parsing and validation.
//!
//! Only fields Spin itself knows are accepted, so a manifest this runner serves also serves under
//! `spin up`; unknown fields are rejected, as Spin rejects them. Every problem is reported with
//! the manifest's path and the field at fault.

pub mod files;
pub mod outbound;
pub mod routes;
pub mod runtime_config;
pub mod template;
pub mod variables;

use std::collections::{BTreeMap, HashSet};
use std::fmt;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use serde::Deserialize;

use routes::Route;
use template::Template;

/// A validated application manifest.
#[derive(Debug, Clone)]
pub struct Manifest {
    /// The manifest file.
    pub path: PathBuf,
    /// The directory relative paths in the manifest start from.
    pub dir: PathBuf,
    pub name: String,
    pub variables: BTreeMap<String, VariableDecl>,
    pub triggers: Vec<HttpTrigger>,
    pub components: BTreeMap<String, Component>,
}

/// An application variable.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VariableDecl {
    #[serde(default)]
    pub default: Option<String>,
    #[serde(default)]
    pub required: bool,
    #[serde(default)]
    pub secret: bool,
    #[serde(default)]
    pub description: Option<String>,
}

/// One `[[trigger.http]]`.
#[derive(Debug, Clone)]
pub struct HttpTrigger {
    pub route: Route,
    pub component: String,
}

/// One `[component.<id>]`.
#[derive(Debug, Clone)]
pub struct Component {
    pub id: String,
    pub description: Option<String>,
    /// The Wasm file, resolved against the manifest's directory.
    pub source: PathBuf,
    pub allowed_outbound_hosts: Vec<Template>,
    pub key_value_stores: Vec<String>,
    pub sqlite_databases: Vec<String>,
    pub environment: BTreeMap<String, String>,
    pub files: Vec<FileMount>,
    pub exclude_files: Vec<String>,
    pub variables: BTreeMap<String, Template>,
    pub build: Option<Build>,
}

/// One entry of a component's `files`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum FileMount {
    /// A glob pattern relative to the manifest's directory; matches keep their relative path.
    Pattern(String),
    /// A file or directory placed at `destination` in the component's file system.
    Placement { source: String, destination: String },
}

/// A component's `[component.<id>.build]`.
#[derive(Debug, Clone, PartialEq)]
pub struct Build {
    pub commands: Vec<String>,
    /// Where the commands run, resolved against the manifest's directory.
    pub workdir: PathBuf,
}

impl Manifest {
    /// Reads and validates the manifest at `path`.
    pub fn load(path: &Path) -> anyhow::Result<Manifest> {
        let text =
            std::fs::read_to_string(path).with_context(|| format!("cannot read the manifest {}", path.display()))?;
        Self::parse(path, &text)
    }

    /// Validates manifest `text` as if read from `path`.
    pub fn parse(path: &Path, text: &str) -> anyhow::Result<Manifest> {
        let context = || format!("invalid manifest {}", path.display());
        let raw: RawManifest =
            toml::from_str(text).map_err(|error| anyhow::anyhow!("{error}")).with_context(context)?;
        let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
        let dir = if dir.as_os_str().is_empty() { PathBuf::from(".") } else { dir };
        raw.validate(path.to_path_buf(), dir).with_context(context)
    }

    /// The component serving `id`.
    pub fn component(&self, id: &str) -> Option<&Component> {
        self.components.get(id)
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawManifest {
    spin_manifest_version: toml::Value,
    application: RawApplication,
    #[serde(default)]
    variables: BTreeMap<String, VariableDecl>,
    #[serde(default)]
    trigger: BTreeMap<String, Vec<RawTrigger>>,
    #[serde(default)]
    component: BTreeMap<String, RawComponent>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code, reason = "accepted for compatibility with Spin; the runner does not use them")]
struct RawApplication {
    name: String,
    #[serde(default)]
    version: Option<String>,
    #[serde(default)]
    description: Option<String>,
    #[serde(default)]
    authors: Vec<String>,
    #[serde(default)]
    targets: Vec<String>,
    #[serde(default)]
    trigger: Option<toml::Table>,
    #[serde(default)]
    tool: Option<toml::Table>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTrigger {
    #[serde(default)]
    id: Option<String>,
    #[serde(default)]
    route: Option<RawRoute>,
    #[serde(default)]
    component: Option<toml::Value>,
    #[serde(default)]
    executor: Option<RawExecutor>,
    #[serde(default)]
    static_response: Option<toml::Table>,
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum RawRoute {
    Path(String),
    Private { private: bool },
}

#[derive(Debug, Deserialize)]
struct RawExecutor {
    #[serde(rename = "type")]
    kind: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code, reason = "accepted for compatibility with Spin; the runner does not use them")]
struct RawComponent {
    source: toml::Value,
    #[serde(default)]
    description: Option<String>,
    #[serde(default)]
    allowed_outbound_hosts: Vec<String>,
    #[serde(default)]
    allowed_http_hosts: Vec<String>,
    #[serde(default)]
    key_value_stores: Vec<String>,
    #[serde(default)]
    sqlite_databases: Vec<String>,
    #[serde(default)]
    environment: BTreeMap<String, String>,
    #[serde(default)]
    files: Vec<FileMount>,
    #[serde(default)]
    exclude_files: Vec<String>,
    #[serde(default)]
    variables: BTreeMap<String, String>,
    #[serde(default)]
    build: Option<RawBuild>,
    #[serde(default)]
    ai_models: Vec<String>,
    #[serde(default)]
    targets: Option<toml::Value>,
    #[serde(default)]
    dependencies_inherit_configuration: Option<bool>,
    #[serde(default)]
    dependencies: Option<toml::Table>,
    #[serde(default)]
    tool: Option<toml::Table>,
    #[serde(default)]
    profile: Option<toml::Table>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBuild {
    command: RawCommand,
    #[serde(default)]
    workdir: Option<String>,
    #[serde(default)]
    #[allow(dead_code, reason = "used by `spin watch`, which the runner does not offer")]
    watch: Vec<String>,
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum RawCommand {
    One(String),
    Many(Vec<String>),
}

impl RawManifest {
    fn validate(self, path: PathBuf, dir: PathBuf) -> anyhow::Result<Manifest> {
        if self.spin_manifest_version.as_integer() != Some(2) {
            bail!("spin_manifest_version is {}, but only manifest version 2 is supported", self.spin_manifest_version);
        }
        if self.application.name.trim().is_empty() {
            bail!("application.name must not be empty");
        }
        check_application_trigger(self.application.trigger.as_ref())?;

        for (name, decl) in &self.variables {
            check_variable_name(name).with_context(|| format!("variable `{name}`"))?;
            if decl.required == decl.default.is_some() {
                bail!("variable `{name}` must be `required` or have a `default` (one of the two)");
            }
        }

        let mut components = BTreeMap::new();
        for (id, raw) in self.component {
            let component = raw.validate(&id, &dir, &self.variables).with_context(|| format!("component `{id}`"))?;
            components.insert(id, component);
        }

        let mut triggers = Vec::new();
        let mut seen_routes = HashSet::new();
        for (kind, list) in self.trigger {
            if kind != "http" {
                bail!("trigger type `{kind}` is not supported: the runner serves HTTP triggers only");
            }
            for (index, raw) in list.into_iter().enumerate() {
                let trigger = raw.validate(&components).with_context(|| format!("trigger.http[{index}]"))?;
                if let Some(key) = trigger.route.conflict_key()
                    && !seen_routes.insert(key)
                {
                    bail!("trigger.http[{index}]: route `{}` is declared twice", trigger.route);
                }
                triggers.push(trigger);
            }
        }
        if triggers.is_empty() {
            bail!("the application has no [[trigger.http]]");
        }

        Ok(Manifest { path, dir, name: self.application.name, variables: self.variables, triggers, components })
    }
}

impl RawTrigger {
    fn validate(self, components: &BTreeMap<String, Component>) -> anyhow::Result<HttpTrigger> {
        let _ = self.id;
        if let Some(executor) = &self.executor
            && executor.kind != "spin"
            && executor.kind != "http"
        {
            bail!("executor type `{}` is not supported (only `http`, also called `spin`)", executor.kind);
        }
        if self.static_response.is_some() {
            bail!("static_response is not supported by this runner");
        }
        let route = match self.route {
            Some(RawRoute::Path(path)) => Route::parse(&path)?,
            Some(RawRoute::Private { private: true }) => Route::Private,
            Some(RawRoute::Private { private: false }) => bail!("route = {{ private = false }} is not a route"),
            None => bail!("route is missing"),
        };
        let component = match self.component {
            Some(toml::Value::String(id)) => id,
            Some(_) => {
                bail!("component must be the id of a [component.<id>] table (inline components are not supported)")
            }
            None => bail!("component is missing"),
        };
        if !components.contains_key(&component) {
            bail!("component `{component}` is not defined (no [component.{component}])");
        }
        Ok(HttpTrigger { route, component })
    }
}

impl RawComponent {
    fn validate(
        self,
        id: &str,
        dir: &Path,
        app_variables: &BTreeMap<String, VariableDecl>,
    ) -> anyhow::Result<Component> {
        check_component_id(id)?;
        let source = match self.source {
            toml::Value::String(source) => dir.join(source),
            _ => bail!("source must be a path to a .wasm file (remote sources are not supported)"),
        };
        if !self.allowed_http_hosts.is_empty() {
            bail!("allowed_http_hosts was replaced by allowed_outbound_hosts in manifest version 2");
        }
        if !self.ai_models.is_empty() {
            bail!("ai_models is not supported by this runner");
        }
        if self.dependencies.is_some() {
            bail!("component dependencies are not supported by this runner");
        }
        let allowed_outbound_hosts = self
            .allowed_outbound_hosts
            .iter()
            .map(|host| {
                let template =
                    Template::parse(host).with_context(|| format!("allowed_outbound_hosts entry `{host}`"))?;
                template.check_references(app_variables)?;
                Ok(template)
            })
            .collect::<anyhow::Result<Vec<_>>>()?;
        let mut variables = BTreeMap::new();
        for (name, value) in self.variables {
            check_variable_name(&name).with_context(|| format!("variable `{name}`"))?;
            let template = Template::parse(&value).with_context(|| format!("variable `{name}`"))?;
            template.check_references(app_variables).with_context(|| format!("variable `{name}`"))?;
            variables.insert(name, template);
        }
        for label in self.key_value_stores.iter().chain(&self.sqlite_databases) {
            check_label(label)?;
        }
        let build = match self.build {
            Some(build) => {
                if build.workdir.as_deref().is_some_and(|workdir| Path::new(workdir).is_absolute()) {
                    bail!("build.workdir must be relative to the manifest's directory");
                }
                Some(Build {
                    commands: match build.command {
                        RawCommand::One(command) => vec![command],
                        RawCommand::Many(commands) => commands,
                    },
                    workdir: build.workdir.map_or_else(|| dir.to_path_buf(), |workdir| dir.join(workdir)),
                })
            }
            None => None,
        };
        Ok(Component {
            id: id.to_owned(),
            description: self.description,
            source,
            allowed_outbound_hosts,
            key_value_stores: self.key_value_stores,
            sqlite_databases: self.sqlite_databases,
            environment: self.environment,
            files: self.files,
            exclude_files: self.exclude_files,
            variables,
            build,
        })
    }
}

/// `[application.trigger.http]` may only hold the deprecated `base = "/"`.
fn check_application_trigger(trigger: Option<&toml::Table>) -> anyhow::Result<()> {
    let Some(trigger) = trigger else { return Ok(()) };
    for (kind, settings) in trigger {
        if kind != "http" {
            bail!(
                "application.trigger.{kind}: trigger type `{kind}` is not supported: the runner serves HTTP triggers only"
            );
        }
        let settings =
            settings.as_table().ok_or_else(|| anyhow::anyhow!("application.trigger.http must be a table"))?;
        for (key, value) in settings {
            match (key.as_str(), value.as_str()) {
                ("base", Some("/")) => {}
                ("base", _) => bail!(
                    "application.trigger.http.base is deprecated and only \"/\" is accepted: put the base in front of each [[trigger.http]] route"
                ),
                (other, _) => bail!("application.trigger.http: unknown field `{other}`"),
            }
        }
    }
    Ok(())
}

/// Component ids are kebab-case: words joined by single dashes, each word starting with a letter
/// and made of letters and digits, all lower-case or all upper-case.
fn check_component_id(id: &str) -> anyhow::Result<()> {
    let valid = id.split('-').all(|word| {
        word.bytes().next().is_some_and(|b| b.is_ascii_alphabetic())
            && word.bytes().all(|b| b.is_ascii_alphanumeric())
            && (word.bytes().all(|b| !b.is_ascii_uppercase()) || word.bytes().all(|b| !b.is_ascii_lowercase()))
    });
    if !valid {
        bail!(
            "`{id}` is not a valid component id: use words of letters and digits joined by single dashes, each starting with a letter"
        );
    }
    Ok(())
}

/// Variable names are snake_case: lower-case words joined by single underscores, each word
/// starting with a letter.
pub fn check_variable_name(name: &str) -> anyhow::Result<()> {
    let valid = name.split('_').all(|word| {
        word.bytes().next().is_some_and(|b| b.is_ascii_lowercase())
            && word.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
    });
    if !valid {
        bail!(
            "`{name}` is not a valid variable name: use lower-case words of letters and digits joined by single underscores, each starting with a letter"
        );
    }
    Ok(())
}

fn check_label(label: &str) -> anyhow::Result<()> {
    let valid = !label.is_empty() && label.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    if !valid {
        bail!("`{label}` is not a valid store or database label");
    }
    Ok(())
}

impl fmt::Display for Manifest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.name, self.path.display())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> anyhow::Result<Manifest> {
        Manifest::parse(Path::new("/app/spin.toml"), text)
    }

    const MINIMAL: &str = r#"
        spin_manifest_version = 2
        [application]
        name = "demo"
        [variables]
        region = { default = "eu" }
        token = { required = true, secret = true }
        [[trigger.http]]
        route = "/..."
        component = "web"
        [component.web]
        source = "target/web.wasm"
        allowed_outbound_hosts = ["https://{{ region }}.example.com"]
        key_value_stores = ["default"]
        sqlite_databases = ["default"]
        environment = { LOG = "debug" }
        files = ["static/**/*", { source = "assets", destination = "/assets" }]
        [component.web.variables]
        api_url = "https://{{ region }}.example.com/v1"
        [component.web.build]
        command = "cargo build --release"
        workdir = "web"
        watch = ["src/**/*.rs"]
    "#;

    #[test]
    fn a_complete_manifest_is_understood() {
        let manifest = parse(MINIMAL).unwrap();
        assert_eq!(manifest.name, "demo");
        assert!(manifest.variables["token"].required);
        assert!(manifest.variables["token"].secret);
        let web = manifest.component("web").unwrap();
        assert_eq!(web.source, Path::new("/app/target/web.wasm"));
        assert_eq!(web.environment["LOG"], "debug");
        assert_eq!(web.files.len(), 2);
        assert_eq!(
            web.build,
            Some(Build { commands: vec!["cargo build --release".into()], workdir: PathBuf::from("/app/web") })
        );
        assert_eq!(manifest.triggers[0].component, "web");
    }

    fn error_of(text: &str) -> String {
        format!("{:#}", parse(text).unwrap_err())
    }

    #[test]
    fn an_unknown_field_is_rejected_with_its_name() {
        let text = MINIMAL.replace("key_value_stores", "key_value_store");
        let error = error_of(&text);
        assert!(error.contains("unknown field `key_value_store`"), "{error}");
        assert!(error.contains("/app/spin.toml"), "{error}");
    }

    #[test]
    fn only_manifest_version_two_is_accepted() {
        let error = error_of(&MINIMAL.replace("spin_manifest_version = 2", "spin_manifest_version = 1"));
        assert!(error.contains("only manifest version 2"), "{error}");
    }

    #[test]
    fn a_trigger_must_name_a_defined_component() {
        let error = error_of(&MINIMAL.replace("component = \"web\"", "component = \"api\""));
        assert!(error.contains("component `api` is not defined"), "{error}");
    }

    #[test]
    fn a_template_must_reference_a_declared_variable() {
        let error = error_of(&MINIMAL.replace("/v1", "/{{ version }}"));
        assert!(error.contains("`version`"), "{error}");
    }

    #[test]
    fn a_route_declared_twice_is_rejected() {
        let text = format!("{MINIMAL}\n[[trigger.http]]\nroute = \"/...\"\ncomponent = \"web\"\n");
        let error = error_of(&text);
        assert!(error.contains("declared twice"), "{error}");
    }

    #[test]
    fn component_ids_and_variable_names_are_checked() {
        assert!(check_component_id("translate").is_ok());
        assert!(check_component_id("style-rules2").is_ok());
        assert!(check_component_id("API-v2").is_ok());
        assert!(check_component_id("Api").is_err());
        assert!(check_component_id("rules-2").is_err());
        assert!(check_component_id("style--rules").is_err());
        assert!(check_component_id("-x").is_err());
        assert!(check_variable_name("openai_api_key").is_ok());
        assert!(check_variable_name("OpenAI").is_err());
        assert!(check_variable_name("1st").is_err());
        assert!(check_variable_name("key__id").is_err());
        assert!(check_variable_name("key_").is_err());
    }

    #[test]
    fn a_variable_is_either_required_or_has_a_default() {
        let both = MINIMAL
            .replace("token = { required = true, secret = true }", "token = { required = true, default = \"x\" }");
        assert!(error_of(&both).contains("must be `required` or have a `default`"));
        let neither = MINIMAL.replace("token = { required = true, secret = true }", "token = { secret = true }");
        assert!(error_of(&neither).contains("must be `required` or have a `default`"));
    }
}
