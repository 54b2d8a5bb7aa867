//! Builds and runs the C++ wrapper's test program, `tests/cpp/wrapper_test.cpp` with
//! `tests/cpp/wrapper_blending_test.cpp`, against `bindings/cpp/sinew.hpp` and `include/sinew.h`,
//! linked with the cdylib cargo built for this profile (the `target/<profile>/deps/libsinew.so`
//! `tests/common/native.rs` finds). Two builds, both `-std=c++17 -Wall -Wextra -Werror -pedantic`:
//!
//! | build           | flags                                   | what it covers                |
//! |-----------------|-----------------------------------------|-------------------------------|
//! | `no_exceptions` | `-fno-exceptions`                       | the default layer only        |
//! | `exceptions`    | `-fexceptions -DSINEW_CPP_EXCEPTIONS`   | plus the opt-in throwing layer |
//!
//! Each program compares every wrapper operation with the C function it wraps, bit for bit, and
//! prints `N passed, N failed` last. Three snippets must fail to compile, each for its stated
//! reason: a discarded `Result` (`[[nodiscard]]` under `-Werror`), a copied handle (move-only),
//! and `SINEW_CPP_EXCEPTIONS` with exceptions disabled (`#error`).
//!
//! The C++ compiler comes from the `cc` crate (`CXX`, `CXXFLAGS` are honoured). Without one when
//! sinew was built, the test is ignored with that reason (build.rs); `SINEW_REQUIRE_TOOLS=1`, as
//! in `.ci/run`, keeps it, so a missing compiler fails.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod common;

use common::native;

const MANIFEST_DIR: &str = env!("CARGO_MANIFEST_DIR");

/// The test program's sources, compiled together (helpers in `tests/cpp/wrapper_test.hpp`).
const SOURCES: [&str; 2] = ["wrapper_test.cpp", "wrapper_blending_test.cpp"];

/// Warnings are errors in every build, as the brief for the wrapper requires.
const COMMON_FLAGS: &[&str] = &["-std=c++17", "-Wall", "-Wextra", "-Werror", "-pedantic"];

/// The test program must report at least this many passed checks (it has over 2000), so a
/// program that silently skips its sections does not pass.
const MIN_CHECKS: u32 = 1500;

struct Variant {
    name: &'static str,
    flags: &'static [&'static str],
    /// The first line the program prints, proving which layer it was built with.
    mode: &'static str,
}

const VARIANTS: [Variant; 2] = [
    Variant {
        name: "no_exceptions",
        flags: &["-fno-exceptions"],
        mode: "MODE no-exceptions",
    },
    Variant {
        name: "exceptions",
        flags: &["-fexceptions", "-DSINEW_CPP_EXCEPTIONS"],
        mode: "MODE exceptions",
    },
];

/// Snippets that must not compile: (name, source, extra flags, a word the diagnostic contains).
const MUST_NOT_COMPILE: [(&str, &str, &[&str], &str); 3] = [
    (
        "discarded_result",
        "#include \"sinew.hpp\"\nvoid f(sinew::Pose& p) { p.reset(); }\n",
        &["-fno-exceptions"],
        "nodiscard",
    ),
    (
        "copied_handle",
        "#include \"sinew.hpp\"\nvoid f(const sinew::Pose& p) { sinew::Pose q = p; (void)q; }\n",
        &["-fno-exceptions"],
        "deleted",
    ),
    (
        "exceptions_layer_without_exceptions",
        "#include \"sinew.hpp\"\n",
        &["-fno-exceptions", "-DSINEW_CPP_EXCEPTIONS"],
        "SINEW_CPP_EXCEPTIONS",
    ),
];

fn compiler() -> cc::Tool {
    native::compiler().cpp(true).debug(false).get_compiler()
}

/// A compiler command with the common flags and both include directories.
fn compile_command(compiler: &cc::Tool, extra: &[&str]) -> Command {
    let manifest = Path::new(MANIFEST_DIR);
    let mut cmd = compiler.to_command();
    cmd.args(COMMON_FLAGS)
        .args(extra)
        .arg("-I")
        .arg(manifest.join("include"))
        .arg("-I")
        .arg(manifest.join("bindings/cpp"));
    cmd
}

fn run(mut cmd: Command) -> (String, Output) {
    let text = format!("{cmd:?}");
    let output = cmd
        .output()
        .unwrap_or_else(|e| panic!("running {text}: {e}"));
    (text, output)
}

fn both_streams(output: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

/// Compiles and links one build of the test program; returns the executable.
fn build(compiler: &cc::Tool, variant: &Variant, out_dir: &Path) -> PathBuf {
    let dir = Path::new(MANIFEST_DIR).join("tests/cpp");
    let sources = SOURCES.map(|s| dir.join(s));
    let exe = out_dir.join(format!("wrapper_test_{}", variant.name));
    let mut cmd = compile_command(compiler, variant.flags);
    cmd.args(&sources).arg("-o").arg(&exe);
    native::link_sinew(&mut cmd);
    native::build(&mut cmd, &format!("C++ compilation ({})", variant.name));
    exe
}

/// Checks that a snippet is rejected, and for the expected reason.
fn reject(
    compiler: &cc::Tool,
    out_dir: &Path,
    name: &str,
    source: &str,
    flags: &[&str],
    word: &str,
) {
    let path = out_dir.join(format!("{name}.cpp"));
    std::fs::write(&path, source).expect("write snippet");
    let mut cmd = compile_command(compiler, flags);
    cmd.arg("-fsyntax-only").arg(&path);
    let (text, output) = run(cmd);
    let diagnostics = both_streams(&output);
    assert!(
        !output.status.success(),
        "{name} compiled but must not: {text}"
    );
    assert!(
        diagnostics.contains(word),
        "{name} failed to compile, but not for the expected reason (no {word:?} in the \
         diagnostics): {text}\n{diagnostics}"
    );
}

/// Runs one build; returns its summary line after checking it passed.
fn run_program(variant: &Variant, exe: &Path) -> String {
    let output = Command::new(exe)
        .output()
        .unwrap_or_else(|e| panic!("running {}: {e}", exe.display()));
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    let summary = stdout.lines().last().unwrap_or("").to_owned();
    assert!(
        output.status.success() && summary.ends_with(" 0 failed"),
        "the C++ wrapper test ({}) failed ({}), last line {summary:?}\nstdout:\n{stdout}\n\
         stderr:\n{stderr}",
        variant.name,
        output.status
    );
    assert_eq!(
        stdout.lines().next(),
        Some(variant.mode),
        "the {} build ran the wrong layer",
        variant.name
    );
    let (passed, _) = native::passed_failed(&summary)
        .unwrap_or_else(|| panic!("unexpected summary line {summary:?}"));
    assert!(
        passed >= MIN_CHECKS,
        "{}: only {passed} checks ran (at least {MIN_CHECKS} expected)",
        variant.name
    );
    let version = stdout
        .lines()
        .find_map(|l| l.strip_prefix("VERSION "))
        .unwrap_or_else(|| panic!("{}: no VERSION line", variant.name));
    assert_eq!(
        version,
        format!(
            "{} ABI {}",
            env!("CARGO_PKG_VERSION"),
            sinew::ffi::SINEW_ABI_VERSION
        ),
        "{}: sinew::version() / sinew::abi_version()",
        variant.name
    );
    summary
}

#[test]
#[cfg_attr(not(unix), ignore = "links the cdylib with Unix linker flags")]
#[cfg_attr(
    sinew_no_cxx,
    ignore = "no C++ compiler (c++, or $CXX) was found when sinew was built: apt-get install g++"
)]
fn cpp_wrapper_builds_and_matches_c_abi() {
    let compiler = compiler();
    if let Err(e) = Command::new(compiler.path()).arg("--version").output() {
        panic!(
            "the C++ compiler {} does not run: {e}",
            compiler.path().display()
        );
    }

    let run = native::Run::start("cpp_wrapper");
    let out_dir = &run.dir;

    // Compile everything at once: the two builds dominate the test's time.
    let exes: Vec<PathBuf> = std::thread::scope(|scope| {
        let builds: Vec<_> = VARIANTS
            .iter()
            .map(|v| {
                let compiler = &compiler;
                scope.spawn(move || build(compiler, v, out_dir))
            })
            .collect();
        let rejections: Vec<_> = MUST_NOT_COMPILE
            .iter()
            .map(|&(name, source, flags, word)| {
                let compiler = &compiler;
                scope.spawn(move || reject(compiler, out_dir, name, source, flags, word))
            })
            .collect();
        for r in rejections {
            if let Err(panic) = r.join() {
                std::panic::resume_unwind(panic);
            }
        }
        builds
            .into_iter()
            .map(|b| b.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
            .collect()
    });

    for (variant, exe) in VARIANTS.iter().zip(&exes) {
        let summary = run_program(variant, exe);
        println!("{}: {summary}", variant.name);
    }
    run.finish(&format!("compiler {}; ", compiler.path().display()));
}
