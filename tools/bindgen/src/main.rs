//! `cargo run -p sinew-bindgen`: rewrites the committed header and C# bindings from `src/`.
//! With `--check`, writes nothing and exits 1 when a committed file is stale.

use std::process::ExitCode;

fn main() -> ExitCode {
    let check = match std::env::args().nth(1).as_deref() {
        None => false,
        Some("--check") => true,
        Some(other) => {
            eprintln!("sinew-bindgen: unknown argument {other} (use --check or nothing)");
            return ExitCode::from(2);
        }
    };
    let root = sinew_bindgen::crate_dir();
    let mut stale = false;
    for file in sinew_bindgen::generate(&root) {
        let path = root.join(file.path);
        if std::fs::read(&path).ok().as_deref() == Some(&file.content[..]) {
            println!("{}: current", file.path);
        } else if check {
            println!("{}: STALE", file.path);
            stale = true;
        } else {
            std::fs::write(&path, &file.content)
                .unwrap_or_else(|e| panic!("write {}: {e}", path.display()));
            println!("{}: rewritten", file.path);
        }
    }
    if stale {
        eprintln!("run `cargo run -p sinew-bindgen` and commit the result");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
