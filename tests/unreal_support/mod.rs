//! Shared by `tests/unreal_logic.rs` and `tests/unreal_syntax.rs`: the C++ compiler, the repo's
//! include directories, and the cdylib cargo built for this profile.

#![allow(dead_code)] // each test uses part of it

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::SystemTime;

pub const MANIFEST_DIR: &str = env!("CARGO_MANIFEST_DIR");
const TARGET: &str = env!("SINEW_BUILD_TARGET");

/// The repository root.
pub fn root() -> &'static Path {
    Path::new(MANIFEST_DIR)
}

/// The C++ compiler for this target (`CXX` is honoured through the `cc` crate; g++ here), with
/// no warning flags of its own: each test passes the ones it wants.
pub fn cxx() -> cc::Tool {
    cc::Build::new()
        .cpp(true)
        .cargo_metadata(false)
        .target(TARGET)
        .host(TARGET)
        .opt_level(0)
        .debug(false)
        .warnings(false)
        .extra_warnings(false)
        .get_compiler()
}

/// A command running the C++ compiler with C++17 and `include/`, `bindings/cpp` and
/// `bindings/cpp/unreal` on the include path after any `first` directories.
pub fn cxx_command(first: &[PathBuf]) -> Command {
    let mut cmd = cxx().to_command();
    cmd.arg("-std=c++17");
    for dir in first {
        cmd.arg("-I").arg(dir);
    }
    for dir in ["include", "bindings/cpp", "bindings/cpp/unreal"] {
        cmd.arg("-I").arg(root().join(dir));
    }
    cmd
}

/// Runs `cmd`, panicking with its command line if it cannot start.
pub fn run(cmd: &mut Command) -> Output {
    cmd.output()
        .unwrap_or_else(|e| panic!("running {cmd:?}: {e}"))
}

/// `target/<profile>/deps`, where this test binary and the lib target's artifacts live.
pub fn deps_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("current_exe");
    exe.parent()
        .expect("test binary is in target/<profile>/deps")
        .to_path_buf()
}

fn mtime(path: &Path) -> SystemTime {
    std::fs::metadata(path)
        .and_then(|m| m.modified())
        .unwrap_or_else(|e| panic!("mtime of {}: {e}", path.display()))
}

/// The cdylib built with this test binary (see `tests/c_abi.rs` for why `deps/` and not the
/// uplifted `target/<profile>/libsinew.so`).
pub fn shared_library(dir: &Path) -> PathBuf {
    let lib = dir.join(format!(
        "{}sinew{}",
        std::env::consts::DLL_PREFIX,
        std::env::consts::DLL_SUFFIX
    ));
    assert!(
        lib.is_file(),
        "{} is missing: the lib target must keep crate-type cdylib",
        lib.display()
    );
    let exe = std::env::current_exe().expect("current_exe");
    assert!(
        mtime(&lib) <= mtime(&exe),
        "{} was rebuilt after this test binary was linked; rerun `cargo test`",
        lib.display()
    );
    lib
}

/// A fresh scratch directory for one test run.
pub fn scratch_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(name)
        .join(std::process::id().to_string());
    std::fs::create_dir_all(&dir).expect("create temp dir");
    dir
}
