//! The committed `include/sinew.h` and `bindings/csharp/NativeMethods.g.cs` are what the sources
//! generate: an export, a type or a doc comment changed in `src/ffi/` without
//! `cargo run -p sinew-bindgen` fails here. The generator (cbindgen, csbindgen) is its own
//! package, so a normal build neither compiles it nor writes into the source tree; this test
//! runs its `--check` mode with a target directory of its own (the outer `cargo test` holds
//! this one's lock).

use std::path::Path;
use std::process::Command;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

#[test]
fn committed_bindings_are_current() {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let target = Path::new(env!("CARGO_TARGET_TMPDIR")).join("bindgen");
    let output = Command::new(cargo)
        .current_dir(ROOT)
        .args([
            "run",
            "--quiet",
            "--locked",
            "-p",
            "sinew-bindgen",
            "--",
            "--check",
        ])
        .env("CARGO_TARGET_DIR", &target)
        .output()
        .expect("run cargo");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "the committed bindings are stale or the generator failed:\n{stdout}{stderr}"
    );
    for file in ["include/sinew.h", "bindings/csharp/NativeMethods.g.cs"] {
        assert!(
            stdout.contains(&format!("{file}: current")),
            "{file} was not checked:\n{stdout}"
        );
    }
}
