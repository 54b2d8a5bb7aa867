//! The committed generated files are what the build generates: `build.rs` rewrites
//! `include/sinew.h` (cbindgen) and `bindings/csharp/NativeMethods.g.cs` (csbindgen), so a file
//! that was not committed after an API change shows up as a git difference.

use std::path::Path;
use std::process::Command;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Each generated file: its path in the tree, its name in the build's `OUT_DIR`, its generator.
const GENERATED: [(&str, &str, &str); 2] = [
    ("include/sinew.h", "sinew.h", "cbindgen"),
    (
        "bindings/csharp/NativeMethods.g.cs",
        "NativeMethods.g.cs",
        "csbindgen",
    ),
];

#[test]
fn generated_files_match_build_output() {
    for (path, built, generator) in GENERATED {
        let generated = std::fs::read(Path::new(env!("OUT_DIR")).join(built)).unwrap();
        let in_tree = std::fs::read(Path::new(ROOT).join(path)).unwrap();
        assert!(
            generated == in_tree,
            "{path} differs from the build's {generator} output"
        );
    }
}

#[test]
fn committed_generated_files_are_current() {
    for (path, _, _) in GENERATED {
        let committed = Command::new("git")
            .args(["-C", ROOT, "show", &format!("HEAD:{path}")])
            .output();
        let committed = match committed {
            Ok(out) if out.status.success() => out.stdout,
            _ => {
                eprintln!("SKIPPED: not a git checkout with a committed {path}; cannot compare");
                continue;
            }
        };
        let in_tree = std::fs::read(Path::new(ROOT).join(path)).unwrap();
        assert!(
            committed == in_tree,
            "the committed {path} is stale: the build regenerated it; commit the new file"
        );
    }
}
