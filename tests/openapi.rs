//! The project's OpenAPI description (`docs/openapi.yaml`) against the running application:
//! valid, covering every route of spin.toml, and matching every answer, errors included.

use e2e::{BOOTSTRAP_ADMIN_KEY, Options, TestApp};

const GATEWAY_SECRET: &str = "the openapi check's gateway secret";

#[test]
fn the_openapi_description_matches_the_running_application() {
    // With the language-tools service, so that write is served and its answers are checked, and
    // with real-time voice set up.
    let app = TestApp::start(
        Options::app()
            .with_language_tools()
            .env("SPIN_VARIABLE_VOICE_TOKEN_SECRET", "the openapi check's token secret")
            .env("SPIN_VARIABLE_VOICE_GATEWAY_SECRET", GATEWAY_SECRET),
    );
    let key = app.developer_key();
    let output = std::process::Command::new(e2e::python())
        .arg(e2e::workspace().join("tests/python/openapi_check.py"))
        .arg(&app.base_url)
        .arg(BOOTSTRAP_ADMIN_KEY)
        .arg(&key)
        .arg(GATEWAY_SECRET)
        .output()
        .expect("run the OpenAPI check");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&output.stderr));
    assert!(stdout.contains("operations covered"), "{stdout}");
}
