//! Link settings of the native library. The header and C# bindings are not generated here:
//! `cargo run -p sinew-bindgen` regenerates them on request (tools/bindgen), so a build never
//! writes into the source tree.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let target = std::env::var("TARGET").expect("TARGET is set by cargo");
    println!("cargo:rustc-env=SINEW_BUILD_TARGET={target}");
    // A SONAME lets programs linked against the .so by path (Unreal's build does) find it by
    // name at run time, wherever it is deployed.
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux") {
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libsinew.so");
    }
}
