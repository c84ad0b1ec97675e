//! Marks the build with `cfg(spin_host)` when `SPIN_BIN` names a host other than the local
//! runner, so that tests of the runner's own behaviour carry
//! `#[cfg_attr(spin_host, ignore = "why")]` and are reported as ignored, with their reason,
//! rather than passing without running.

fn main() {
    println!("cargo::rerun-if-env-changed=SPIN_BIN");
    if std::env::var_os("SPIN_BIN").is_some_and(|value| !value.is_empty()) {
        println!("cargo::rustc-cfg=spin_host");
    }
}
