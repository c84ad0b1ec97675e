//! `runtime-config.toml`: where the SQLite databases and key-value stores live.
//!
//! The runner serves local files only (`type = "spin"`). The remote kinds Spin offers (libSQL
//! databases, Redis key-value stores, ...) are recognised and refused with a message saying they
//! need the Spin CLI, so one file can document both setups. As in Spin, a relative database
//! `path` starts from the current directory and a relative key-value `path` from the directory of
//! the runtime configuration file.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use serde::Deserialize;

/// What the runtime configuration says, with paths resolved.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RuntimeConfig {
    /// Databases by label; `None` keeps the database in memory.
    pub sqlite_databases: BTreeMap<String, Option<PathBuf>>,
    /// Key-value stores by label; `None` keeps the store in memory.
    pub key_value_stores: BTreeMap<String, Option<PathBuf>>,
    /// `state_dir`, resolved against the current directory; `Some("")` switches it off.
    pub state_dir: Option<PathBuf>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawConfig {
    #[serde(default)]
    sqlite_database: BTreeMap<String, RawStore>,
    #[serde(default)]
    key_value_store: BTreeMap<String, RawStore>,
    #[serde(default)]
    state_dir: Option<String>,
    #[serde(default)]
    log_dir: Option<toml::Value>,
    #[serde(default)]
    variables_provider: Option<toml::Value>,
    #[serde(default)]
    config_provider: Option<toml::Value>,
    #[serde(default)]
    llm_compute: Option<toml::Value>,
    #[serde(default)]
    outbound_networking: Option<toml::Value>,
    #[serde(default)]
    client_tls: Option<toml::Value>,
    #[serde(default)]
    outbound_http: Option<toml::Value>,
    #[serde(default)]
    max_instance_memory: Option<toml::Value>,
}

#[derive(Debug, Deserialize)]
struct RawStore {
    #[serde(rename = "type")]
    kind: String,
    #[serde(flatten)]
    settings: toml::Table,
}

impl RuntimeConfig {
    /// Reads the file at `path`; `cwd` is the directory relative database paths start from.
    pub fn load(path: &Path, cwd: &Path) -> anyhow::Result<RuntimeConfig> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read the runtime configuration {}", path.display()))?;
        let config_dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
        Self::parse(&text, &config_dir, cwd)
            .with_context(|| format!("invalid runtime configuration {}", path.display()))
    }

    fn parse(text: &str, config_dir: &Path, cwd: &Path) -> anyhow::Result<RuntimeConfig> {
        let raw: RawConfig = toml::from_str(text).map_err(|error| anyhow::anyhow!("{error}"))?;
        let unsupported = [
            ("log_dir", raw.log_dir.is_some()),
            ("variables_provider", raw.variables_provider.is_some()),
            ("config_provider", raw.config_provider.is_some()),
            ("llm_compute", raw.llm_compute.is_some()),
            ("outbound_networking", raw.outbound_networking.is_some()),
            ("client_tls", raw.client_tls.is_some()),
            ("outbound_http", raw.outbound_http.is_some()),
            ("max_instance_memory", raw.max_instance_memory.is_some()),
        ];
        if let Some((key, _)) = unsupported.iter().find(|(_, present)| *present) {
            bail!("`{key}` is a Spin setting this runner does not support; use the Spin CLI for it");
        }
        let mut config = RuntimeConfig::default();
        for (label, store) in raw.sqlite_database {
            let path = local_path(&store, &format!("sqlite_database.{label}"), &["allow_attach_file"], "libsql")?;
            config.sqlite_databases.insert(label, path.map(|path| cwd.join(path)));
        }
        for (label, store) in raw.key_value_store {
            let path = local_path(&store, &format!("key_value_store.{label}"), &[], "redis")?;
            config.key_value_stores.insert(label, path.map(|path| config_dir.join(path)));
        }
        config.state_dir = raw.state_dir.map(|dir| if dir.is_empty() { PathBuf::new() } else { cwd.join(dir) });
        Ok(config)
    }
}

/// The `path` of a `type = "spin"` store; other types are refused.
fn local_path(
    store: &RawStore,
    name: &str,
    extra_keys: &[&str],
    remote_example: &str,
) -> anyhow::Result<Option<String>> {
    if store.kind != "spin" {
        bail!(
            "[{name}] has type `{}`: the local runner keeps data in local SQLite files only (`type = \"spin\"`); \
             serve the application with the Spin CLI to use {remote_example} and other remote stores",
            store.kind
        );
    }
    for key in store.settings.keys() {
        if key != "path" && !extra_keys.contains(&key.as_str()) {
            bail!("[{name}]: unknown field `{key}`");
        }
    }
    match store.settings.get("path") {
        None => Ok(None),
        Some(toml::Value::String(path)) => Ok(Some(path.clone())),
        Some(_) => bail!("[{name}]: `path` must be a string"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn local_stores_resolve_their_paths_as_spin_does() {
        let text = r#"
            state_dir = "var/state"
            [sqlite_database.default]
            type = "spin"
            path = "data/app.db"
            [sqlite_database.scratch]
            type = "spin"
            [key_value_store.cache]
            type = "spin"
            path = "cache.db"
        "#;
        let config = RuntimeConfig::parse(text, Path::new("/etc/glossa"), Path::new("/srv")).unwrap();
        assert_eq!(config.sqlite_databases["default"], Some(PathBuf::from("/srv/data/app.db")));
        assert_eq!(config.sqlite_databases["scratch"], None);
        assert_eq!(config.key_value_stores["cache"], Some(PathBuf::from("/etc/glossa/cache.db")));
        assert_eq!(config.state_dir, Some(PathBuf::from("/srv/var/state")));
    }

    #[test]
    fn remote_stores_are_refused_with_a_pointer_to_spin() {
        let text = "[sqlite_database.default]\ntype = \"libsql\"\nurl = \"https://db.example\"\ntoken = \"t\"\n";
        let error = RuntimeConfig::parse(text, Path::new("."), Path::new(".")).unwrap_err().to_string();
        assert!(error.contains("Spin CLI"), "{error}");
    }

    #[test]
    fn unknown_keys_are_rejected() {
        assert!(
            RuntimeConfig::parse("[sqlite_databse.default]\ntype = \"spin\"\n", Path::new("."), Path::new("."))
                .is_err()
        );
        assert!(
            RuntimeConfig::parse(
                "[sqlite_database.default]\ntype = \"spin\"\npth = \"x\"\n",
                Path::new("."),
                Path::new(".")
            )
            .is_err()
        );
    }
}
