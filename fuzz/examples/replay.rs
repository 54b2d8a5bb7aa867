//! Replays fuzz inputs through a target without libFuzzer or sanitizers: for debugging a crash
//! under a plain debugger, and for seeing what a corpus exercises.
//!
//! ```sh
//! cd fuzz
//! cargo run --release --example replay -- <target> <file-or-dir>...
//! SINEW_FUZZ_STATS=1 cargo run --release --example replay -- blend corpus/blend
//! ```
//!
//! Prints each input that produced a finding (and keeps going), then, with `SINEW_FUZZ_STATS`
//! set, how often each export succeeded and failed over all inputs.

use std::path::PathBuf;

fn main() {
    let mut args = std::env::args().skip(1);
    let target = args.next().unwrap_or_default();
    let run: fn(&[u8]) = match target.as_str() {
        "skeleton" => sinew_fuzz::targets::skeleton::run,
        "two_bone" => sinew_fuzz::targets::two_bone::run,
        "chain" => sinew_fuzz::targets::chain::run,
        "blend" => sinew_fuzz::targets::blend::run,
        "clip" => sinew_fuzz::targets::clip::run,
        _ => {
            eprintln!("usage: replay <skeleton|two_bone|chain|blend|clip> <file-or-dir>...");
            std::process::exit(2);
        }
    };
    let mut files: Vec<PathBuf> = Vec::new();
    for a in args {
        let p = PathBuf::from(a);
        if p.is_dir() {
            let mut entries: Vec<PathBuf> = std::fs::read_dir(&p)
                .expect("readable directory")
                .map(|e| e.expect("directory entry").path())
                .collect();
            entries.sort();
            files.extend(entries);
        } else {
            files.push(p);
        }
    }
    let mut findings = 0usize;
    for f in &files {
        let data = std::fs::read(f).expect("readable input");
        if std::panic::catch_unwind(|| run(&data)).is_err() {
            findings += 1;
            eprintln!("^ finding in {}", f.display());
        }
    }
    println!(
        "{} inputs, {findings} with findings, {} tolerated",
        files.len(),
        sinew_fuzz::check::tolerated()
    );
    let stats = sinew_fuzz::check::stats();
    if !stats.is_empty() {
        println!("{:<48} {:>10} {:>10}", "export", "ok", "failed");
        for (what, [ok, failed]) in stats {
            println!("{what:<48} {ok:>10} {failed:>10}");
        }
    }
    if findings > 0 {
        std::process::exit(1);
    }
}
