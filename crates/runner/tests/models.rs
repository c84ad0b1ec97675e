//! `glossa models` as an operator runs it: exit statuses, what it prints, and the models folder
//! taken from GLOSSA_MODELS_DIR. The package checks themselves are tested beside the code
//! (src/models/); the real package runs here too when GLOSSA_TEST_ARGOSMODEL names it.

use std::path::Path;
use std::process::{Command, Output};

fn glossa(models: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_glossa"))
        .args(args)
        .env("GLOSSA_MODELS_DIR", models)
        .output()
        .expect("glossa runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn an_empty_folder_is_listed_with_a_note_or_as_an_empty_array() {
    let scratch = tempfile::tempdir().unwrap();
    let models = scratch.path().join("models");
    let output = glossa(&models, &["models", "list"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stdout(&output).starts_with("No models are installed in"), "{}", stdout(&output));
    let output = glossa(&models, &["models", "list", "--json"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(stdout(&output).trim(), "[]");
}

#[test]
fn a_bad_package_fails_with_a_message_and_leaves_nothing() {
    let scratch = tempfile::tempdir().unwrap();
    let models = scratch.path().join("models");
    let package = scratch.path().join("model.argosmodel");
    std::fs::write(&package, "not a zip file").unwrap();
    let output = glossa(&models, &["models", "install", package.to_str().unwrap()]);
    assert!(!output.status.success());
    let message = stderr(&output);
    assert!(message.contains("cannot install"), "{message}");
    assert!(message.contains("it is not a readable zip archive"), "{message}");
    assert!(!models.exists(), "the models folder was left behind");

    let output = glossa(&models, &["models", "remove", "zh-en"]);
    assert!(!output.status.success());
    assert!(stderr(&output).contains("no model for zh-en is installed"), "{}", stderr(&output));
}

#[test]
fn a_real_package_installs_lists_and_removes() {
    let Some(package) = std::env::var_os("GLOSSA_TEST_ARGOSMODEL") else {
        eprintln!("GLOSSA_TEST_ARGOSMODEL is not set: skipping the real package");
        return;
    };
    let scratch = tempfile::tempdir().unwrap();
    let models = scratch.path().join("models");
    let output = glossa(&models, &["models", "install", package.to_str().unwrap()]);
    assert!(output.status.success(), "{}", stderr(&output));
    let printed = stdout(&output);
    assert!(printed.contains("Installed zh-en: translate-zh_en-1_9 version 1.9"), "{printed}");
    assert!(printed.contains("within a second") && printed.contains("within 15 seconds"), "{printed}");

    let output = glossa(&models, &["models", "list", "--json"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let listed: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(listed[0]["source"], "zh");
    assert_eq!(listed[0]["target"], "en");
    assert_eq!(listed[0]["installed_from"], Path::new(&package).file_name().unwrap().to_str().unwrap());

    let output = glossa(&models, &["models", "remove", "zh-en"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(std::fs::read_dir(&models).unwrap().count(), 0);
}
