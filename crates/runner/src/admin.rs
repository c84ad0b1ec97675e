//! `glossa admin`: the operator's commands for subscriptions and keys, run against the same
//! SQLite database `glossa up` serves (the service may be running meanwhile).
//!
//! A new deployment needs a first subscription and admin key before anyone can call the API;
//! under the Spin CLI the `bootstrap_admin_key` variable does that, here these commands do.

use std::path::PathBuf;

use accounts::{Actor, KeyKind, Plan, Subscription, create_key, create_subscription};
use anyhow::{Context, bail};
use platform::native::{NativeHost, SqliteDb};
use platform::{Database, SystemClock};

use crate::app::{database_file, migration_scripts};
use crate::manifest::Manifest;
use crate::manifest::runtime_config::RuntimeConfig;

/// Where the database is and how to bring its schema up to date.
pub struct Target {
    pub manifest: PathBuf,
    pub state_dir: Option<PathBuf>,
    pub runtime_config: Option<PathBuf>,
    /// The migrations directory (default: `sql/` beside the manifest).
    pub migrations: Option<PathBuf>,
}

impl Target {
    /// Opens the application's default database and applies the migrations.
    fn open(&self) -> anyhow::Result<SqliteDb> {
        let manifest = Manifest::load(&self.manifest)?;
        let cwd = std::env::current_dir().context("cannot read the current directory")?;
        let config = match &self.runtime_config {
            Some(path) => RuntimeConfig::load(path, &cwd)?,
            None => RuntimeConfig::default(),
        };
        let path = database_file(&manifest, &config, self.state_dir.as_deref(), &cwd)?
            .context("the default database is kept in memory (empty --state-dir): there is nothing to administer")?;
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).with_context(|| format!("cannot create {}", parent.display()))?;
        }
        let db = SqliteDb::open(&path).with_context(|| format!("cannot open the database {}", path.display()))?;
        let migrations = self.migrations.clone().unwrap_or_else(|| manifest.dir.join("sql"));
        db.migrate(&migration_scripts(&migrations)?)
            .with_context(|| format!("cannot apply the migrations in {}", migrations.display()))?;
        Ok(db)
    }
}

/// Creates a subscription and its first admin key, and prints both.
pub fn create_subscription_command(target: &Target, plan: &str) -> anyhow::Result<()> {
    let plan = Plan::parse(plan).with_context(|| format!("--plan {plan}: the plans are `free` and `pro`"))?;
    let host = NativeHost::with_db(target.open()?, SystemClock)?;
    let services = host.services();
    let subscription = create_subscription(&services, plan)?;
    let admin = create_key(&services, &subscription, KeyKind::Admin, None, Actor::Operator)?;
    println!("Created subscription {} (plan {}).", subscription.id, plan.as_str());
    println!("Admin key id: {}", admin.key.id);
    println!("Admin key (shown only now, keep it safe): {}", admin.secret);
    println!(
        "Create developer keys with `glossa admin create-key --subscription {}` or POST /v2/admin/developer-keys.",
        subscription.id
    );
    Ok(())
}

/// Creates a key for an existing subscription, and prints it.
pub fn create_key_command(
    target: &Target,
    subscription_id: &str,
    kind: &str,
    label: Option<&str>,
) -> anyhow::Result<()> {
    let kind = match kind {
        "developer" => KeyKind::Developer,
        "admin" => KeyKind::Admin,
        other => bail!("--kind {other}: the kinds are `developer` and `admin`"),
    };
    let host = NativeHost::with_db(target.open()?, SystemClock)?;
    let subscription = find_subscription(&host.db, subscription_id)?;
    let services = host.services();
    let key = create_key(&services, &subscription, kind, label, Actor::Operator)?;
    println!("Created {} key {} for subscription {}.", kind.as_str(), key.key.id, subscription.id);
    println!("Key (shown only now, keep it safe): {}", key.secret);
    Ok(())
}

/// Lists the subscriptions with their key counts.
pub fn list_subscriptions_command(target: &Target) -> anyhow::Result<()> {
    let db = target.open()?;
    let result = db.execute(
        "SELECT s.id, s.plan, s.created_at,
                (SELECT count(*) FROM api_keys k WHERE k.subscription_id = s.id AND k.kind = 'admin' AND k.deactivated_at IS NULL),
                (SELECT count(*) FROM api_keys k WHERE k.subscription_id = s.id AND k.kind = 'developer' AND k.deactivated_at IS NULL)
         FROM subscriptions s ORDER BY s.created_at, s.id",
        &[],
    )?;
    if result.rows.is_empty() {
        println!("No subscriptions yet: create one with `glossa admin create-subscription`.");
    }
    for row in &result.rows {
        let (id, plan, created): (String, String, String) = (row.get(0)?, row.get(1)?, row.get(2)?);
        let (admins, developers): (i64, i64) = (row.get(3)?, row.get(4)?);
        println!("{id}  plan {plan}  created {created}  active keys: {admins} admin, {developers} developer");
    }
    Ok(())
}

fn find_subscription(db: &SqliteDb, id: &str) -> anyhow::Result<Subscription> {
    accounts::find_subscription(db, id)?
        .with_context(|| format!("there is no subscription {id} (list them with `glossa admin list-subscriptions`)"))
}
