//! A guided tour of Sinew: each section builds a small rig, runs one feature on a set of named
//! cases, prints a table and writes a picture under `target/tour/`.
//!
//! Run it with `cargo run --release --example tour`.
//!
//! Sections live in their own modules and take the output directory, so a new one slots in as
//! one more call in `main`.

mod aim;
mod crossfade;
mod figure;
mod hand_retarget;
mod multi_fabrik;
mod svg;
mod table;
mod tentacle;
mod timing;
mod two_bone;

use std::fs;
use std::path::{Path, PathBuf};

fn main() {
    let out_dir = output_dir();
    fs::create_dir_all(&out_dir)
        .unwrap_or_else(|e| panic!("cannot create {}: {e}", out_dir.display()));

    println!("Sinew tour");
    println!("==========");
    two_bone::two_bone_section(&out_dir);
    tentacle::tentacle_section(&out_dir);
    hand_retarget::hand_retarget_section(&out_dir);
    crossfade::crossfade_section(&out_dir);
    multi_fabrik::multi_fabrik_section(&out_dir);
    aim::aim_section(&out_dir);
}

/// `target/tour`: under `CARGO_TARGET_DIR` when that is set, else under this crate's `target/`.
fn output_dir() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target"));
    target.join("tour")
}

/// Prints a numbered section heading, underlined.
fn heading(title: &str) {
    println!("\n{title}");
    println!("{}", "-".repeat(title.chars().count()));
}

/// Writes `contents` to `dir/name` and prints where it went.
fn write_output(dir: &Path, name: &str, contents: &str) {
    let path = dir.join(name);
    fs::write(&path, contents).unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
    println!("\nWrote {}", path.display());
}
