//! Regenerates `include/sinew.h` from `src/` with cbindgen. The header is committed; the
//! `header_is_current` test fails when the committed copy differs from this output.

use std::path::PathBuf;

fn main() {
    println!("cargo:rerun-if-changed=src");
    println!("cargo:rerun-if-changed=cbindgen.toml");
    println!("cargo:rerun-if-changed=build.rs");
    let target = std::env::var("TARGET").expect("TARGET is set by cargo");
    println!("cargo:rustc-env=SINEW_BUILD_TARGET={target}");

    let crate_dir = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let config = cbindgen::Config::from_file(crate_dir.join("cbindgen.toml"))
        .expect("cbindgen.toml is valid");
    let bindings = cbindgen::Builder::new()
        .with_crate(&crate_dir)
        .with_config(config)
        .generate()
        .expect("cbindgen can parse the crate");
    let mut text = Vec::new();
    bindings.write(&mut text);

    let out_dir = PathBuf::from(std::env::var("OUT_DIR").expect("set by cargo"));
    std::fs::write(out_dir.join("sinew.h"), &text).expect("write OUT_DIR/sinew.h");
    let header = crate_dir.join("include").join("sinew.h");
    if std::fs::read(&header).ok().as_deref() != Some(&text[..]) {
        std::fs::create_dir_all(header.parent().unwrap()).expect("create include/");
        std::fs::write(&header, &text).expect("write include/sinew.h");
    }
}
