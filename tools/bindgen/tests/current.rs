//! The committed header and C# bindings are what the sources generate: an export, a type or a
//! doc comment changed in `src/ffi/` without `cargo run -p sinew-bindgen` fails here.

#[test]
fn committed_bindings_are_current() {
    let root = sinew_bindgen::crate_dir();
    for file in sinew_bindgen::generate(&root) {
        let committed = std::fs::read(root.join(file.path))
            .unwrap_or_else(|e| panic!("read {}: {e}", file.path));
        assert!(
            committed == file.content,
            "{} is stale: run `cargo run -p sinew-bindgen` and commit the result",
            file.path
        );
    }
}
