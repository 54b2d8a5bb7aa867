//! Link settings of the native library, and which outside tools the test programs can use.
//! The header and C# bindings are not generated here: `cargo run -p sinew-bindgen` regenerates
//! them on request (tools/bindgen), so a build never writes into the source tree.

use std::path::{Path, PathBuf};

/// Tests that need a tool beyond Rust and `cc`: the cfg set when any of its programs is missing
/// (the tests are then compiled as ignored, with the reason in `cargo test`'s summary), and the
/// programs, each an environment variable that may name it, else its name on PATH.
const TOOLS: [(&str, &[(&str, &str)]); 2] = [
    ("sinew_no_mono", &[("MCS", "mcs"), ("MONO", "mono")]),
    ("sinew_no_cxx", &[("CXX", "c++")]),
];

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let target = std::env::var("TARGET").expect("TARGET is set by cargo");
    println!("cargo:rustc-env=SINEW_BUILD_TARGET={target}");
    // A SONAME lets programs linked against the .so by path (Unreal's build does) find it by
    // name at run time, wherever it is deployed.
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux") {
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libsinew.so");
    }
    detect_test_tools();
}

/// Sets `sinew_no_*` for each tool group with a missing program, unless `SINEW_REQUIRE_TOOLS=1`
/// (CI), which keeps every test so that a missing tool fails it. Reruns when a found program
/// changes or a PATH directory changes (a tool installed), not on every build.
fn detect_test_tools() {
    println!("cargo::rustc-check-cfg=cfg(sinew_no_mono, sinew_no_cxx)");
    println!("cargo:rerun-if-env-changed=SINEW_REQUIRE_TOOLS");
    println!("cargo:rerun-if-env-changed=PATH");
    let required = std::env::var("SINEW_REQUIRE_TOOLS").as_deref() == Ok("1");
    let path_dirs: Vec<PathBuf> = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).filter(|d| d.is_dir()).collect())
        .unwrap_or_default();
    let mut watch_path = false;
    for (cfg, programs) in TOOLS {
        let mut missing = false;
        for &(var, name) in programs {
            println!("cargo:rerun-if-env-changed={var}");
            match find_program(var, name, &path_dirs) {
                Some(found) => println!("cargo:rerun-if-changed={}", found.display()),
                None => missing = true,
            }
        }
        if missing && !required {
            println!("cargo:rustc-cfg={cfg}");
        }
        watch_path |= missing;
    }
    if watch_path {
        for dir in &path_dirs {
            println!("cargo:rerun-if-changed={}", dir.display());
        }
    }
}

/// `$var` when set (a path, or a name looked up on PATH), else `name` on PATH.
fn find_program(var: &str, name: &str, path_dirs: &[PathBuf]) -> Option<PathBuf> {
    let wanted = std::env::var_os(var).map_or_else(|| PathBuf::from(name), PathBuf::from);
    if wanted.components().count() > 1 {
        return wanted.is_file().then_some(wanted);
    }
    path_dirs
        .iter()
        .map(|dir| dir.join(&wanted))
        .find(|p| is_program(p))
}

fn is_program(path: &Path) -> bool {
    path.is_file() || path.with_extension("exe").is_file()
}
