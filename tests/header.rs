//! The committed C header is what the build generates: `build.rs` rewrites `include/sinew.h`,
//! so a header that was not committed after an API change shows up as a git difference.

use std::path::Path;
use std::process::Command;

const HEADER: &str = "include/sinew.h";

#[test]
fn header_matches_build_output() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let generated = std::fs::read_to_string(Path::new(env!("OUT_DIR")).join("sinew.h")).unwrap();
    let in_tree = std::fs::read_to_string(root.join(HEADER)).unwrap();
    assert!(
        generated == in_tree,
        "include/sinew.h differs from the build's cbindgen output"
    );
}

#[test]
fn committed_header_is_current() {
    let root = env!("CARGO_MANIFEST_DIR");
    let committed = Command::new("git")
        .args(["-C", root, "show", &format!("HEAD:{HEADER}")])
        .output();
    let committed = match committed {
        Ok(out) if out.status.success() => out.stdout,
        _ => {
            eprintln!("SKIPPED: not a git checkout with a committed {HEADER}; cannot compare");
            return;
        }
    };
    let in_tree = std::fs::read(Path::new(root).join(HEADER)).unwrap();
    assert!(
        committed == in_tree,
        "the committed {HEADER} is stale: the build regenerated it; commit the new header"
    );
}
