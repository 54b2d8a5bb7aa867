//! The native test programs (C, C++, C# and the Unreal logic): the cdylib they load, where they
//! are built, and how a C or C++ program links against the library.
//!
//! Which `libsinew.so`: `cargo test` compiles the lib target once for all its crate types, so
//! `target/<profile>/deps/libsinew.so` comes from the same rustc run as the rlib the test links
//! and is rebuilt whenever `src/` changes. The uplifted `target/<profile>/libsinew.so` is NOT
//! refreshed by `cargo test` (cargo only uplifts the artifacts of the units it was asked for,
//! i.e. `cargo build`), so it can be stale or missing; no test uses it.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Instant, SystemTime};

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

/// The cdylib built with the rlib this test links. If it is newer than this test binary, the
/// lib was rebuilt after this test was linked (e.g. a concurrent `cargo build` after a source
/// change), and the native program and Rust would run different code.
pub fn shared_library() -> PathBuf {
    let lib = deps_dir().join(format!(
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

/// Adds the arguments that link a C or C++ program against [`shared_library`] and make it load
/// that very file at run time.
pub fn link_sinew(cmd: &mut Command) -> &mut Command {
    let dir = deps_dir();
    cmd.arg("-L")
        .arg(&dir)
        .arg("-lsinew")
        .arg(format!("-Wl,-rpath,{}", dir.display()))
        // DT_RPATH (not RUNPATH) so the rpath beats the LD_LIBRARY_PATH cargo sets, which lists
        // target/<profile>/ first, where a stale libsinew.so from an older `cargo build` may sit.
        .arg("-Wl,--disable-new-dtags")
        .arg("-lm")
}

/// A fresh scratch directory for one run of the test `name`.
pub fn scratch_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(name)
        .join(std::process::id().to_string());
    std::fs::create_dir_all(&dir).expect("create temp dir");
    dir
}

/// One run of a native test program: when it started, the [`shared_library`] it links and its
/// [`scratch_dir`].
pub struct Run {
    start: Instant,
    pub lib: PathBuf,
    pub dir: PathBuf,
}

impl Run {
    /// The run of the test `name`.
    pub fn start(name: &str) -> Self {
        Self {
            start: Instant::now(),
            lib: shared_library(),
            dir: scratch_dir(name),
        }
    }

    /// Removes the scratch directory and prints `what` with the library linked and the time
    /// the run took.
    pub fn finish(self, what: &str) {
        let _ = std::fs::remove_dir_all(&self.dir);
        let elapsed = self.start.elapsed();
        println!("{what}linked {}; took {elapsed:?}", self.lib.display());
    }
}

/// The counts of a program's closing `N passed, M failed` line.
pub fn passed_failed(summary: &str) -> Option<(u32, u32)> {
    let (passed, failed) = summary.strip_suffix(" failed")?.split_once(" passed, ")?;
    Some((passed.parse().ok()?, failed.parse().ok()?))
}

const TARGET: &str = env!("SINEW_BUILD_TARGET");

/// A `cc` build for this target as the tests compile their programs (no optimization, no cargo
/// metadata; `CC`, `CXX` and their flags honoured): callers add the language and options.
pub fn compiler() -> cc::Build {
    let mut build = cc::Build::new();
    build
        .cargo_metadata(false)
        .target(TARGET)
        .host(TARGET)
        .opt_level(0);
    build
}

/// Runs a build command (`what` names it), panicking with its output if it fails.
pub fn build(cmd: &mut Command, what: &str) {
    let output = cmd
        .output()
        .unwrap_or_else(|e| panic!("running {what} {cmd:?}: {e}"));
    assert!(
        output.status.success(),
        "{what} failed: {cmd:?}\n{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

/// Runs a test program to its end.
pub fn run_program(exe: &Path) -> Output {
    Command::new(exe)
        .output()
        .unwrap_or_else(|e| panic!("running {}: {e}", exe.display()))
}
