//! Collects the WIT definitions of the Spin host interfaces that the runner implements.
//!
//! The interfaces are defined by the `spin-sdk` package that the components are built with, which
//! ships its WIT files. Rather than carrying copies, this script asks `cargo metadata` where that
//! package was unpacked, copies the few WIT files the runner implements into `OUT_DIR`, adds a world
//! importing them, and writes the `bindgen!` invocation that `src/host/bindings.rs` includes.

use std::env;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The major version of `spin-sdk` whose interfaces the runner implements.
const SPIN_SDK_MAJOR: &str = "5.";

/// WIT files taken from the SDK's `fermyon:spin@2.0.0` package (its `world.wit` is not taken: it
/// includes every WASI interface, which wasmtime-wasi already provides).
const FERMYON_SPIN_FILES: &[&str] = &["key-value.wit", "variables.wit", "sqlite.wit"];

fn main() {
    let manifest_dir = PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR"));
    let out_dir = PathBuf::from(env::var("OUT_DIR").expect("OUT_DIR"));
    let workspace_root = manifest_dir.join("../..");
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed={}", workspace_root.join("Cargo.lock").display());

    let sdk_wit = spin_sdk_wit_dir(&workspace_root);
    let wit = out_dir.join("wit");
    let deps = wit.join("deps");
    let _ = fs::remove_dir_all(&wit);

    let fermyon = deps.join("fermyon-spin");
    fs::create_dir_all(&fermyon).expect("create wit dir");
    for file in FERMYON_SPIN_FILES {
        copy(&sdk_wit.join("deps/spin@2.0.0").join(file), &fermyon.join(file));
    }
    fs::write(fermyon.join("package.wit"), "package fermyon:spin@2.0.0;\n").expect("write wit");

    let sqlite3 = deps.join("spin-sqlite");
    fs::create_dir_all(&sqlite3).expect("create wit dir");
    copy(&sdk_wit.join("deps/spin-sqlite@3.0.0/sqlite.wit"), &sqlite3.join("sqlite.wit"));

    fs::write(
        wit.join("world.wit"),
        "package glossa:runner;\n\n\
         world spin-host {\n\
         \x20 import fermyon:spin/key-value@2.0.0;\n\
         \x20 import fermyon:spin/variables@2.0.0;\n\
         \x20 import fermyon:spin/sqlite@2.0.0;\n\
         \x20 import spin:sqlite/sqlite@3.0.0;\n\
         }\n",
    )
    .expect("write world");

    let bindings = format!(
        "wasmtime::component::bindgen!({{\n\
         \x20   path: {path:?},\n\
         \x20   world: \"glossa:runner/spin-host\",\n\
         \x20   imports: {{\n\
         \x20       \"fermyon:spin/sqlite.[method]connection.execute\": async | trappable,\n\
         \x20       \"spin:sqlite/sqlite.[method]connection.execute\": async | trappable,\n\
         \x20       \"fermyon:spin/key-value.[method]store.set\": async | trappable,\n\
         \x20       \"fermyon:spin/key-value.[method]store.delete\": async | trappable,\n\
         \x20       default: trappable,\n\
         \x20   }},\n\
         \x20   with: {{\n\
         \x20       \"fermyon:spin/key-value.store\": crate::host::key_value::Store,\n\
         \x20       \"fermyon:spin/sqlite.connection\": crate::host::sqlite::Connection,\n\
         \x20       \"spin:sqlite/sqlite.connection\": crate::host::sqlite::Connection,\n\
         \x20   }},\n\
         }});\n",
        path = wit.display().to_string(),
    );
    fs::write(out_dir.join("bindings.rs"), bindings).expect("write bindings");
}

/// Finds the `wit` directory of the `spin-sdk` package in the workspace's resolved dependencies.
fn spin_sdk_wit_dir(workspace_root: &Path) -> PathBuf {
    let cargo = env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let metadata = |offline: bool| {
        let mut command = Command::new(&cargo);
        command.args(["metadata", "--format-version", "1"]).current_dir(workspace_root);
        if offline {
            command.arg("--offline");
        }
        command.output().expect("run cargo metadata")
    };
    // Offline first: usually every package is already downloaded. Otherwise let cargo fetch
    // spin-sdk's sources (the runner itself does not depend on it).
    let mut output = metadata(true);
    if !output.status.success() {
        output = metadata(false);
    }
    if !output.status.success() {
        panic!("cargo metadata failed: {}", String::from_utf8_lossy(&output.stderr));
    }
    let metadata: serde_json::Value = serde_json::from_slice(&output.stdout).expect("parse cargo metadata");
    let packages = metadata["packages"].as_array().expect("packages");
    let sdk = packages
        .iter()
        .find(|package| {
            package["name"] == "spin-sdk"
                && package["version"].as_str().is_some_and(|version| version.starts_with(SPIN_SDK_MAJOR))
        })
        .expect("spin-sdk 5.x is not among the workspace's dependencies (the components use it)");
    let manifest_path = PathBuf::from(sdk["manifest_path"].as_str().expect("manifest_path"));
    let wit = manifest_path.parent().expect("package dir").join("wit");
    assert!(wit.is_dir(), "spin-sdk has no wit directory at {}", wit.display());
    wit
}

fn copy(from: &Path, to: &Path) {
    fs::copy(from, to).unwrap_or_else(|error| panic!("copy {}: {error}", from.display()));
}
