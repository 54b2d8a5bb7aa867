//! Shared by `tests/unreal_logic.rs` and `tests/unreal_syntax.rs`: the C++ compiler and the
//! repo's include directories.

#![allow(dead_code)] // each test uses part of it

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::common::native;

pub const MANIFEST_DIR: &str = env!("CARGO_MANIFEST_DIR");

/// The repository root.
pub fn root() -> &'static Path {
    Path::new(MANIFEST_DIR)
}

/// The C++ compiler for this target (`CXX` is honoured through the `cc` crate; g++ here), with
/// no warning flags of its own: each test passes the ones it wants.
pub fn cxx() -> cc::Tool {
    native::compiler()
        .cpp(true)
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
