//! The end-to-end harness: start the application for real, speak HTTP to it, stop it.
//!
//! [`TestApp`] builds the runner and the components once per test process, starts the
//! application on a free port with a fresh state directory, waits until it answers, and stops it
//! (SIGTERM) when dropped. It starts the local runner (`target/debug/glossa up`) by default and
//! the real Spin CLI when `SPIN_BIN` names one (`$SPIN_BIN up --listen … --state-dir …
//! --sqlite @…`), so the same tests run under both hosts.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

pub mod documents;

pub use platform::HttpRequest;
use platform::OutboundHttp;
use platform::native::UreqHttp;
pub use serde_json::{Value as Json, json};

/// The admin key of the subscription the first request creates (see [`Options::app`]).
pub const BOOTSTRAP_ADMIN_KEY: &str = "e2e0b007-57a1-4c3e-9e11-0a0a0a0a0a0a:adm";

/// How long an application may take to answer after starting (it compiles its components).
const START_TIMEOUT: Duration = Duration::from_secs(120);

/// The workspace's root directory.
pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("tests/ has a parent").to_path_buf()
}

/// The real application's manifest.
pub fn app_manifest() -> PathBuf {
    workspace().join("spin.toml")
}

/// The runner's test application (component `probe` under several routes).
pub fn probe_manifest() -> PathBuf {
    workspace().join("tests/fixtures/spin.toml")
}

/// The real application's migrations, in order.
pub fn app_migrations() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(workspace().join("sql"))
        .expect("read sql/")
        .map(|entry| entry.expect("sql/ entry").path())
        .filter(|path| path.extension().is_some_and(|extension| extension == "sql"))
        .collect();
    files.sort();
    files
}

/// Which host serves the application.
fn spin_bin() -> Option<PathBuf> {
    std::env::var_os("SPIN_BIN").filter(|value| !value.is_empty()).map(PathBuf::from)
}

/// Whether the tests run under the Spin CLI (`SPIN_BIN`) rather than the local runner.
pub fn under_spin() -> bool {
    spin_bin().is_some()
}

/// The local runner's binary.
fn runner_bin() -> PathBuf {
    debug_bin("glossa")
}

/// A native binary of the workspace, as `cargo build` (debug) leaves it.
fn debug_bin(name: &str) -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| workspace().join("target"), PathBuf::from);
    target.join("debug").join(name)
}

/// Builds the native binaries (the runner, the language-tools service) once per process, with
/// the same selection as `make test` (every native package, its binaries and its tests): cargo
/// picks dependency features by the packages it builds, so building `-p runner` alone would
/// compile every shared dependency a second time with other features.
fn build_native() {
    static BUILT: OnceLock<()> = OnceLock::new();
    BUILT.get_or_init(|| {
        let components = std::fs::read_dir(workspace().join("components")).expect("the components folder");
        let mut excluded: Vec<String> =
            components.map(|entry| entry.expect("a component").file_name().to_string_lossy().into_owned()).collect();
        excluded.push("probe".to_owned());
        let mut command = Command::new(env!("CARGO"));
        command.args(["build", "--quiet", "--workspace", "--bins", "--tests"]);
        for component in &excluded {
            command.args(["--exclude", component]);
        }
        run(command.current_dir(workspace()));
    });
}

/// Builds the runner (unless Spin serves) and the components of `manifest`, once per process.
fn build_once(manifest: &Path) {
    static BUILT: OnceLock<Mutex<Vec<PathBuf>>> = OnceLock::new();
    let built = BUILT.get_or_init(|| Mutex::new(Vec::new()));
    let mut built = built.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    if built.is_empty() && spin_bin().is_none() {
        build_native();
    }
    if !built.iter().any(|done| done == manifest) {
        let mut command = match spin_bin() {
            Some(spin) => Command::new(spin),
            None => Command::new(runner_bin()),
        };
        run(command.arg("build").arg("-f").arg(manifest).current_dir(workspace()));
        built.push(manifest.to_path_buf());
    }
}

/// The local runner's binary and the real application's components, built (once per process).
pub fn built_runner() -> PathBuf {
    static BUILT: OnceLock<()> = OnceLock::new();
    BUILT.get_or_init(|| {
        build_native();
        run(Command::new(runner_bin()).arg("build").arg("-f").arg(app_manifest()).current_dir(workspace()));
    });
    runner_bin()
}

fn run(command: &mut Command) {
    let status = command.status().unwrap_or_else(|error| panic!("cannot run {command:?}: {error}"));
    assert!(status.success(), "{command:?} failed: {status}");
}

/// How to start an application.
#[derive(Debug, Clone)]
pub struct Options {
    pub manifest: PathBuf,
    pub migrations: Vec<PathBuf>,
    /// Extra environment for the host process (`SPIN_VARIABLE_*` for variables).
    pub env: Vec<(String, String)>,
    /// Extra arguments after `up`.
    pub args: Vec<String>,
}

impl Options {
    /// The real application with its migrations, the deterministic engine, the bootstrap
    /// admin key [`BOOTSTRAP_ADMIN_KEY`], and no brownout of legacy authentication.
    pub fn app() -> Options {
        Options { manifest: app_manifest(), migrations: app_migrations(), env: Vec::new(), args: Vec::new() }
            .env("SPIN_VARIABLE_ENGINE", "deterministic")
            .env("SPIN_VARIABLE_BOOTSTRAP_ADMIN_KEY", BOOTSTRAP_ADMIN_KEY)
            .env("SPIN_VARIABLE_LEGACY_AUTH_BROWNOUT", "never")
            .env("SPIN_VARIABLE_TEST_CLOCK", "on")
    }

    /// These options, with the application using the tests' language-tools service
    /// ([`language_tools`]).
    pub fn with_language_tools(self) -> Options {
        self.env("SPIN_VARIABLE_LANGUAGE_TOOLS_URL", language_tools())
            .env("SPIN_VARIABLE_LANGUAGE_TOOLS_SECRET", LANGUAGE_TOOLS_SECRET)
    }

    /// These options, with the application using the tests' inference service ([`inference`])
    /// and its zh→en model.
    pub fn with_inference(self) -> Options {
        self.with_inference_at(inference())
    }

    /// These options, with the application using the inference service at `url`.
    pub fn with_inference_at(self, url: &str) -> Options {
        self.env("SPIN_VARIABLE_INFERENCE_URL", url).env("SPIN_VARIABLE_INFERENCE_SECRET", INFERENCE_SECRET)
    }

    /// The runner's probe application.
    pub fn probe() -> Options {
        Options {
            manifest: probe_manifest(),
            migrations: vec![workspace().join("tests/fixtures/probe.sql")],
            env: Vec::new(),
            args: Vec::new(),
        }
    }

    pub fn env(mut self, name: &str, value: &str) -> Options {
        self.env.push((name.to_owned(), value.to_owned()));
        self
    }

    /// Translating with the `openai` engine, at an OpenAI-compatible server (a test's fake one)
    /// on `port` of this machine, with the model `test-model`.
    pub fn with_openai_at(self, port: u16) -> Options {
        self.env("SPIN_VARIABLE_ENGINE", "openai")
            .env("SPIN_VARIABLE_OPENAI_URL", &format!("http://127.0.0.1:{port}"))
            .env("SPIN_VARIABLE_OPENAI_MODEL", "test-model")
    }

    /// Real-time voice set up: the voice secrets, and `voice_public_url` naming a gateway on
    /// `gateway_port` of this machine (see [`VoiceGateway::start`]).
    pub fn with_voice(self, gateway_port: u16) -> Options {
        self.env("SPIN_VARIABLE_VOICE_TOKEN_SECRET", VOICE_TOKEN_SECRET)
            .env("SPIN_VARIABLE_VOICE_GATEWAY_SECRET", VOICE_GATEWAY_SECRET)
            .env("SPIN_VARIABLE_VOICE_PUBLIC_URL", &format!("ws://127.0.0.1:{gateway_port}"))
    }

    pub fn arg(mut self, arg: &str) -> Options {
        self.args.push(arg.to_owned());
        self
    }
}

/// A running application.
pub struct TestApp {
    pub base_url: String,
    pub options: Options,
    child: Option<Child>,
    state_dir: Arc<tempfile::TempDir>,
    log: Arc<Mutex<Vec<String>>>,
}

/// Why an application did not start; each carries what it logged.
enum Start {
    /// Another process bound the port first.
    PortTaken(String),
    Failed(String),
}

/// A response: status, headers and body.
#[derive(Debug, Clone)]
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Reply {
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    pub fn json(&self) -> Json {
        serde_json::from_slice(&self.body).unwrap_or_else(|error| panic!("not JSON ({error}): {}", self.text()))
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(key, _)| key.eq_ignore_ascii_case(name)).map(|(_, value)| value.as_str())
    }

    /// The texts of a `/v2/translate` answer that must have succeeded, in order.
    #[track_caller]
    pub fn translated_texts(&self) -> Vec<String> {
        assert_eq!(self.status, 200, "{}", self.text());
        self.json()["translations"]
            .as_array()
            .expect("translations")
            .iter()
            .map(|item| item["text"].as_str().expect("a text").to_owned())
            .collect()
    }
}

impl TestApp {
    /// Starts an application with a fresh state directory.
    pub fn start(options: Options) -> TestApp {
        let state_dir = Arc::new(tempfile::tempdir().expect("create a state directory"));
        Self::start_in(options, state_dir)
    }

    /// Starts an application on an existing state directory (to test persistence).
    pub fn start_in(options: Options, state_dir: Arc<tempfile::TempDir>) -> TestApp {
        Self::try_start_in(options, state_dir).unwrap_or_else(|log| panic!("the application did not start:\n{log}"))
    }

    /// Starts an application, or returns what it logged when it exits or never answers.
    pub fn try_start(options: Options) -> Result<TestApp, String> {
        Self::try_start_in(options, Arc::new(tempfile::tempdir().expect("create a state directory")))
    }

    fn try_start_in(options: Options, state_dir: Arc<tempfile::TempDir>) -> Result<TestApp, String> {
        build_once(&options.manifest);
        // A port that was free a moment ago can be taken by another test's application before
        // this one binds it; then this one exits, and it is started again on another port.
        let mut attempts = 0;
        loop {
            attempts += 1;
            match Self::spawn_on_free_port(options.clone(), Arc::clone(&state_dir)) {
                Err(Start::PortTaken(_)) if attempts < 5 => continue,
                Err(Start::PortTaken(log) | Start::Failed(log)) => return Err(log),
                Ok(app) => return Ok(app),
            }
        }
    }

    fn spawn_on_free_port(options: Options, state_dir: Arc<tempfile::TempDir>) -> Result<TestApp, Start> {
        let listen = format!("127.0.0.1:{}", free_port());
        let mut command = match spin_bin() {
            Some(spin) => Command::new(spin),
            None => Command::new(runner_bin()),
        };
        command
            .arg("up")
            .arg("-f")
            .arg(&options.manifest)
            .args(["--listen", &listen])
            .arg("--state-dir")
            .arg(state_dir.path());
        for migration in &options.migrations {
            command.arg("--sqlite").arg(format!("@{}", migration.display()));
        }
        command.args(&options.args).envs(options.env.iter().cloned()).current_dir(workspace());
        command.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
        let mut child = command.spawn().unwrap_or_else(|error| panic!("cannot start {command:?}: {error}"));
        let log = Arc::new(Mutex::new(Vec::new()));
        collect(child.stdout.take().expect("stdout"), Arc::clone(&log));
        collect(child.stderr.take().expect("stderr"), Arc::clone(&log));
        let mut app = TestApp { base_url: format!("http://{listen}"), options, child: Some(child), state_dir, log };
        app.wait_until_ready()?;
        Ok(app)
    }

    /// Waits until this application has bound its address (the host prints `Serving
    /// http://<address>` once it has, as Spin does) and answers its health check. Until the line
    /// appears, an answer on the port may come from another test's application.
    fn wait_until_ready(&mut self) -> Result<(), Start> {
        let serving = format!("Serving {}", self.base_url);
        let deadline = Instant::now() + START_TIMEOUT;
        while Instant::now() < deadline {
            if let Some(status) = self.child.as_mut().and_then(|child| child.try_wait().ok().flatten()) {
                std::thread::sleep(Duration::from_millis(100));
                let log = format!("exited with {status}:\n{}", self.log());
                let taken = log.to_ascii_lowercase().contains("already in use");
                return Err(if taken { Start::PortTaken(log) } else { Start::Failed(log) });
            }
            let bound = self
                .log
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner())
                .iter()
                .any(|line| line.trim().trim_end_matches('/') == serving);
            if bound
                && let Ok(reply) = self.try_request("GET", "/.well-known/spin/health", &[], None)
                && reply.status == 200
            {
                return Ok(());
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        Err(Start::Failed(format!("no answer within {} s:\n{}", START_TIMEOUT.as_secs(), self.log())))
    }

    /// The state directory, to start another application on the same data.
    pub fn state_dir(&self) -> Arc<tempfile::TempDir> {
        Arc::clone(&self.state_dir)
    }

    /// Runs `tests/python/<script>` (a script driving the official Python client) with this
    /// app's base URL and `key`, and answers the JSON report it prints; a failing script fails
    /// the test with its error output and the app's log.
    pub fn python_client_report(&self, script: &str, key: &str) -> Json {
        self.python_client_report_with(script, key, &[])
    }

    /// [`TestApp::python_client_report`] with more arguments after the key.
    pub fn python_client_report_with(&self, script: &str, key: &str, args: &[&str]) -> Json {
        self.client_report(Command::new(python()).arg(workspace().join("tests/python").join(script)), key, args)
    }

    /// [`TestApp::python_client_report`] for `tests/node/<script>`, driving the official Node
    /// client.
    pub fn node_client_report(&self, script: &str, key: &str) -> Json {
        self.node_client_report_with(script, key, &[])
    }

    /// [`TestApp::node_client_report`] with more arguments after the key.
    pub fn node_client_report_with(&self, script: &str, key: &str, args: &[&str]) -> Json {
        let folder = workspace().join("tests/node");
        assert!(
            folder.join("node_modules").is_dir(),
            "no Node client installed: run `scripts/setup.sh --tests` (npm ci in tests/node)"
        );
        self.client_report(Command::new("node").arg(folder.join(script)), key, args)
    }

    /// The JSON report `script` (a client script and its path) prints, given the base URL, `key`
    /// and `args`.
    fn client_report(&self, script: &mut Command, key: &str, args: &[&str]) -> Json {
        let output = script.arg(&self.base_url).arg(key).args(args).output().expect("run the client script");
        assert!(output.status.success(), "{}\n{}", String::from_utf8_lossy(&output.stderr), self.log());
        serde_json::from_slice(&output.stdout).expect("the script prints one JSON report")
    }

    /// Everything the host printed so far.
    pub fn log(&self) -> String {
        self.log.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).join("\n")
    }

    /// Waits (briefly) until a log line contains `needle`, and returns that line.
    pub fn wait_for_log(&self, needle: &str) -> Option<String> {
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            let found = self
                .log
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner())
                .iter()
                .find(|line| line.contains(needle))
                .cloned();
            if found.is_some() {
                return found;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        None
    }

    pub fn get(&self, path: &str) -> Reply {
        self.request("GET", path, &[], None)
    }

    pub fn request(&self, method: &str, path: &str, headers: &[(&str, &str)], body: Option<&[u8]>) -> Reply {
        self.try_request(method, path, headers, body)
            .unwrap_or_else(|error| panic!("{method} {path}: {error}\n{}", self.log()))
    }

    pub fn try_request(
        &self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: Option<&[u8]>,
    ) -> Result<Reply, String> {
        request(&self.base_url, method, path, headers, body)
    }

    /// Kills the application with SIGKILL, as a crash or a lost machine would: nothing it holds
    /// is let go, and work in flight stops where it is.
    pub fn kill(&mut self) {
        let mut child = self.child.take().expect("the application is running");
        let _ = child.kill();
        let _ = child.wait();
    }

    /// Stops the application with SIGTERM, as an operator would, and waits for it to exit.
    pub fn stop(&mut self) -> std::process::ExitStatus {
        let mut child = self.child.take().expect("the application is running");
        terminate(&child);
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            if let Some(status) = child.try_wait().expect("wait for the application") {
                return status;
            }
            if Instant::now() > deadline {
                let _ = child.kill();
                panic!("the application did not stop within 60 s after SIGTERM:\n{}", self.log());
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// A request with `Authorization: Service-Auth-Key <key>` and a JSON body.
    pub fn post_json(&self, path: &str, key: &str, body: &Json) -> Reply {
        let authorization = format!("Service-Auth-Key {key}");
        let body = body.to_string();
        self.request(
            "POST",
            path,
            &[("authorization", &authorization), ("content-type", "application/json")],
            Some(body.as_bytes()),
        )
    }

    /// A request with `Authorization: Service-Auth-Key <key>` and a form body.
    pub fn post_form(&self, path: &str, key: &str, form: &str) -> Reply {
        let authorization = format!("Service-Auth-Key {key}");
        self.request(
            "POST",
            path,
            &[("authorization", &authorization), ("content-type", "application/x-www-form-urlencoded")],
            Some(form.as_bytes()),
        )
    }

    /// A request with `Authorization: Service-Auth-Key <key>` and no body.
    pub fn call(&self, method: &str, path: &str, key: &str) -> Reply {
        let authorization = format!("Service-Auth-Key {key}");
        self.request(method, path, &[("authorization", &authorization)], None)
    }

    /// Creates a developer key with `admin_key` and answers the created key object (whose
    /// `key` is the secret).
    pub fn create_developer_key(&self, admin_key: &str, label: Option<&str>) -> Json {
        let body = match label {
            Some(label) => json!({ "label": label }),
            None => json!({}),
        };
        let reply = self.post_json("/v2/admin/developer-keys", admin_key, &body);
        assert_eq!(reply.status, 200, "creating a developer key: {}", reply.text());
        reply.json()
    }

    /// A new developer key's secret, in the bootstrap subscription.
    pub fn developer_key(&self) -> String {
        self.create_developer_key(BOOTSTRAP_ADMIN_KEY, None)["key"].as_str().expect("a key").to_owned()
    }

    /// A new developer key of the bootstrap subscription whose speech limit the admin API set
    /// to `milliseconds`.
    pub fn developer_key_with_speech_limit(&self, milliseconds: i64) -> String {
        let created = self.create_developer_key(BOOTSTRAP_ADMIN_KEY, Some("speech-limited"));
        let limits =
            json!({"key_id": created["key_id"], "characters": null, "speech_to_text_milliseconds": milliseconds});
        let authorization = format!("Service-Auth-Key {BOOTSTRAP_ADMIN_KEY}");
        let put = self.request(
            "PUT",
            "/v2/admin/developer-keys/limits",
            &[("authorization", &authorization), ("content-type", "application/json")],
            Some(limits.to_string().as_bytes()),
        );
        assert_eq!(put.status, 200, "setting a speech limit: {}", put.text());
        created["key"].as_str().expect("a key").to_owned()
    }

    /// Runs `glossa admin <args>` on this application's state directory and answers its output.
    pub fn admin_command(&self, args: &[&str]) -> String {
        let output = Command::new(runner_bin())
            .arg("admin")
            .args(args)
            .arg("-f")
            .arg(&self.options.manifest)
            .arg("--state-dir")
            .arg(self.state_dir.path())
            .current_dir(workspace())
            .output()
            .expect("run glossa admin");
        assert!(output.status.success(), "glossa admin {args:?}: {}", String::from_utf8_lossy(&output.stderr));
        String::from_utf8_lossy(&output.stdout).into_owned()
    }

    /// Creates a subscription with `glossa admin` and answers its id and admin key.
    pub fn create_subscription(&self, plan: &str) -> (String, String) {
        let output = self.admin_command(&["create-subscription", "--plan", plan]);
        let find = |prefix: &str| {
            output
                .lines()
                .find_map(|line| line.strip_prefix(prefix))
                .unwrap_or_else(|| panic!("no `{prefix}` in {output}"))
                .trim()
                .to_owned()
        };
        let subscription = find("Created subscription ").split(' ').next().unwrap_or_default().to_owned();
        (subscription, find("Admin key (shown only now, keep it safe): "))
    }

    /// Whether the host process is still running.
    pub fn is_running(&mut self) -> bool {
        self.child.as_mut().is_some_and(|child| child.try_wait().ok().flatten().is_none())
    }
}

impl Drop for TestApp {
    fn drop(&mut self) {
        if let Some(child) = self.child.take() {
            stop_within(child, Duration::from_secs(10));
        }
    }
}

/// Stops `child` with SIGTERM, or SIGKILL when it has not exited within `grace`.
fn stop_within(mut child: Child, grace: Duration) {
    terminate(&child);
    let deadline = Instant::now() + grace;
    while Instant::now() < deadline {
        if child.try_wait().ok().flatten().is_some() {
            return;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = child.kill();
    let _ = child.wait();
}

fn terminate(child: &Child) {
    let pid = libc::pid_t::try_from(child.id()).expect("a pid fits pid_t");
    // SAFETY: kill(2) with a pid this process spawned and has not reaped yet.
    unsafe {
        libc::kill(pid, libc::SIGTERM);
    }
}

/// Sends one request to `base_url` + `path`.
pub fn request(
    base_url: &str,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<&[u8]>,
) -> Result<Reply, String> {
    let mut outgoing = HttpRequest::new(method, format!("{base_url}{path}")).body(body.unwrap_or_default());
    for (name, value) in headers {
        outgoing = outgoing.header(name, *value);
    }
    let response = UreqHttp.send(outgoing).map_err(|error| error.to_string())?;
    Ok(Reply { status: response.status, headers: response.headers, body: response.body })
}

/// The URL of an Apertium APY for the tests: started once per test process from Debian's
/// packages (`make setup` installs them) through `scripts/apy-loopback.py`, and stopped when
/// the process ends.
pub fn apertium() -> &'static str {
    static APY: OnceLock<String> = OnceLock::new();
    APY.get_or_init(|| {
        assert!(
            Path::new("/usr/share/apertium/modes").is_dir(),
            "Apertium is not installed: run `make setup` (Debian's apertium-apy and language pairs)"
        );
        let wrapper = workspace().join("scripts/apy-loopback.py");
        let command = |port| format!("{} -p {port} /usr/share/apertium/modes", wrapper.display());
        serve_while_alive("Apertium APY", command, &[], "/listPairs", Duration::from_secs(60))
    })
}

/// The secret the tests' language-tools service is started with.
pub const LANGUAGE_TOOLS_SECRET: &str = "e2e-language-tools-secret";

/// The language-tools service's binary (debug), built once per process.
pub fn built_language_tools() -> PathBuf {
    build_native();
    debug_bin("glossa-language-tools")
}

/// The URL of a language-tools service for the tests (`crates/language-tools`, with its models
/// and Debian's Hunspell dictionaries): built and started once per test process, and stopped
/// when the process ends. It answers once every model is loaded.
pub fn language_tools() -> &'static str {
    static TOOLS: OnceLock<String> = OnceLock::new();
    TOOLS.get_or_init(|| {
        let binary = built_language_tools();
        let command = |port| format!("{} --listen 127.0.0.1:{port}", binary.display());
        let env = [("LANGUAGE_TOOLS_SECRET", LANGUAGE_TOOLS_SECRET), ("GLOSSA_LOG", "warn")];
        serve_while_alive("the language-tools service", command, &env, "/health", Duration::from_secs(120))
    })
}

/// The secrets of the tests' real-time voice: tokens, and the gateway's calls to the application.
pub const VOICE_TOKEN_SECRET: &str = "e2e-voice-token-secret";
pub const VOICE_GATEWAY_SECRET: &str = "e2e-voice-gateway-secret";

/// The voice gateway's binary (debug), built once per process.
pub fn built_voice_gateway() -> PathBuf {
    build_native();
    debug_bin("voice-gateway")
}

/// A voice gateway (`crates/voice-gateway`, debug) in front of one application, stopped with
/// SIGTERM when dropped.
pub struct VoiceGateway {
    /// `http://127.0.0.1:<port>`.
    pub base_url: String,
    child: Option<Child>,
    log: Arc<Mutex<Vec<String>>>,
}

impl VoiceGateway {
    /// Starts a gateway on `port` (the one the application was started [`Options::with_voice`]
    /// for) in front of `app`, recognising speech with the inference service at
    /// `inference_url`, with `args` after the others (short limits, say).
    pub fn start(app: &TestApp, port: u16, inference_url: &str, args: &[&str]) -> VoiceGateway {
        let mut command = Command::new(built_voice_gateway());
        command
            .args(["--listen", &format!("127.0.0.1:{port}"), "--app-url", &app.base_url])
            .args(["--inference-url", inference_url])
            .args(args)
            .env("VOICE_GATEWAY_SECRET", VOICE_GATEWAY_SECRET)
            .env("INFERENCE_SECRET", INFERENCE_SECRET)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = command.spawn().unwrap_or_else(|error| panic!("cannot start {command:?}: {error}"));
        let log = Arc::new(Mutex::new(Vec::new()));
        collect(child.stdout.take().expect("stdout"), Arc::clone(&log));
        collect(child.stderr.take().expect("stderr"), Arc::clone(&log));
        let gateway = VoiceGateway { base_url: format!("http://127.0.0.1:{port}"), child: Some(child), log };
        let serving = format!("Serving {}", gateway.base_url);
        let deadline = Instant::now() + START_TIMEOUT;
        while Instant::now() < deadline {
            let bound = gateway.log().lines().any(|line| line.contains(&serving));
            if bound && request(&gateway.base_url, "GET", "/health", &[], None).is_ok_and(|reply| reply.status == 200) {
                return gateway;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        panic!("the voice gateway did not start:\n{}", gateway.log());
    }

    /// What the gateway logged so far.
    pub fn log(&self) -> String {
        self.log.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).join("\n")
    }
}

impl Drop for VoiceGateway {
    fn drop(&mut self) {
        if let Some(child) = self.child.take() {
            stop_within(child, Duration::from_secs(10));
        }
    }
}

/// The secret the tests' inference services are started with.
pub const INFERENCE_SECRET: &str = "e2e-inference-secret";

/// A models folder (`target/test-models`) holding what `scripts/setup.sh` fetched: the zh→en
/// package and the two whisper speech models, each installed with `glossa models install` once
/// (an installation is renamed into place whole, so test processes racing here each see it
/// complete).
pub fn models_dir() -> &'static Path {
    static MODELS: OnceLock<PathBuf> = OnceLock::new();
    MODELS.get_or_init(|| {
        let folder = workspace().join("target/test-models");
        let models = [
            ("zh-en", "translate-zh_en.argosmodel"),
            ("whisper-tiny.en", "whisper-tiny.en"),
            ("whisper-base", "whisper-base"),
        ];
        for (installed, fetched) in models {
            if !folder.join(installed).join("installed.json").exists() {
                let package = workspace().join("target/models").join(fetched);
                assert!(package.exists(), "no {fetched} in target/models: run `scripts/setup.sh`");
                build_native();
                let mut install = Command::new(runner_bin());
                run(install.args(["models", "install", "--models-dir"]).arg(&folder).arg(&package));
            }
        }
        folder
    })
}

/// The shell command line that serves the inference service (`services/inference`, in the
/// environment `scripts/setup.sh` makes) on `port` with the models of [`models_dir`]; speech is
/// recognised with whisper tiny.en unless a request names another model (the tests speak English).
pub fn inference_command(port: u16) -> String {
    let python = workspace().join("target/inference-venv/bin/python");
    assert!(python.exists(), "no inference service environment: run `scripts/setup.sh`");
    format!(
        "cd {} && exec {} -m glossa_inference --listen 127.0.0.1:{port} --models {} --threads 1 \
         --speech-model whisper-tiny.en",
        workspace().join("services/inference").display(),
        python.display(),
        models_dir().display()
    )
}

/// The URL of the inference service for the tests, with the zh→en model: started once per test
/// process, stopped when the process ends. It answers once its models are loaded.
pub fn inference() -> &'static str {
    static INFERENCE: OnceLock<String> = OnceLock::new();
    INFERENCE.get_or_init(|| {
        let env = [("INFERENCE_SECRET", INFERENCE_SECRET), ("GLOSSA_LOG", "warn")];
        serve_while_alive("the inference service", inference_command, &env, "/health", Duration::from_secs(120))
    })
}

/// Starts the shell command line `command(port)` (serving HTTP on `port`) under a watching
/// shell that stops it when this process ends, and waits until `path` answers 200; its URL.
///
/// A port that was free a moment ago can be taken before the service binds it: then the service
/// exits, its watcher with it (within a second), and it is started again on another port. An
/// answer counts only once the watcher has outlived that second.
fn serve_while_alive(
    name: &str,
    command: impl Fn(u16) -> String,
    env: &[(&str, &str)],
    path: &str,
    patience: Duration,
) -> String {
    static WATCHERS: Mutex<Vec<Child>> = Mutex::new(Vec::new());
    let deadline = Instant::now() + patience;
    loop {
        let port = free_port();
        let script = format!(
            "{} & served=$!; \
             while kill -0 {parent} 2>/dev/null && kill -0 $served 2>/dev/null; do sleep 1; done; kill $served 2>/dev/null",
            command(port),
            parent = std::process::id()
        );
        let mut watcher = Command::new("sh")
            .arg("-c")
            .arg(script)
            .envs(env.iter().copied())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            // Its log only where the tests' own logs go (`GLOSSA_TEST_LOG`).
            .stderr(if std::env::var_os("GLOSSA_TEST_LOG").is_some() { Stdio::inherit() } else { Stdio::null() })
            .spawn()
            .unwrap_or_else(|error| panic!("start {name}: {error}"));
        let started = Instant::now();
        let url = format!("http://127.0.0.1:{port}");
        let exited = loop {
            assert!(Instant::now() < deadline, "{name} did not start (last on port {port})");
            if watcher.try_wait().ok().flatten().is_some() {
                break true;
            }
            if started.elapsed() > Duration::from_millis(2500)
                && request(&url, "GET", path, &[], None).map(|reply| reply.status) == Ok(200)
            {
                break false;
            }
            std::thread::sleep(Duration::from_millis(200));
        };
        if !exited {
            // The watching shell ends on its own with this process; nobody waits for it.
            WATCHERS.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).push(watcher);
            return url;
        }
    }
}

/// The Python interpreter of the test environment (`make setup` creates it with the official
/// Python client library).
pub fn python() -> PathBuf {
    let python = workspace().join("target/venv/bin/python");
    assert!(python.exists(), "no test Python environment: run `scripts/setup.sh --tests`");
    python
}

/// A port nobody listens on right now.
pub fn free_port() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind an ephemeral port");
    listener.local_addr().expect("local address").port()
}

fn collect(stream: impl std::io::Read + Send + 'static, log: Arc<Mutex<Vec<String>>>) {
    std::thread::spawn(move || {
        for line in BufReader::new(stream).lines() {
            let Ok(line) = line else { break };
            if std::env::var_os("GLOSSA_TEST_LOG").is_some() {
                eprintln!("{line}");
            }
            log.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).push(line);
        }
    });
}

/// An OpenAI-compatible chat server on a free port that answers every request with the message
/// content `answer` and keeps each request it received (head and body); its port and the requests.
pub fn fake_chat_server(answer: &'static str) -> (u16, Arc<Mutex<Vec<String>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let received = Arc::new(Mutex::new(Vec::new()));
    let bodies = Arc::clone(&received);
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { return };
            let mut request = Vec::new();
            let mut buffer = [0u8; 8192];
            let body = loop {
                let read = stream.read(&mut buffer).unwrap_or(0);
                if read == 0 {
                    break String::new();
                }
                request.extend_from_slice(&buffer[..read]);
                let text = String::from_utf8_lossy(&request).into_owned();
                if let Some((head, body)) = text.split_once("\r\n\r\n") {
                    let lower = head.to_ascii_lowercase();
                    let header = |name: &str| lower.lines().find_map(|line| line.strip_prefix(name).map(str::trim));
                    if header("transfer-encoding:") == Some("chunked") {
                        if let Some(body) = dechunk(body) {
                            break format!("{head}\n\n{body}");
                        }
                    } else {
                        let length = header("content-length:").and_then(|v| v.parse::<usize>().ok()).unwrap_or(0);
                        if body.len() >= length {
                            break format!("{head}\n\n{body}");
                        }
                    }
                }
            };
            bodies.lock().unwrap().push(body);
            let content = json!({"choices": [{"message": {"role": "assistant", "content": answer}}]}).to_string();
            let response = format!(
                "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{content}",
                content.len()
            );
            let _ = stream.write_all(response.as_bytes());
        }
    });
    (port, received)
}

/// A chunked body's content once its last chunk has arrived; `None` while more is to come.
fn dechunk(mut body: &str) -> Option<String> {
    let mut content = String::new();
    loop {
        let (size, rest) = body.split_once("\r\n")?;
        let size = usize::from_str_radix(size.split(';').next()?.trim(), 16).ok()?;
        if size == 0 {
            return Some(content);
        }
        content.push_str(rest.get(..size)?);
        body = rest.get(size..)?.strip_prefix("\r\n")?;
    }
}
