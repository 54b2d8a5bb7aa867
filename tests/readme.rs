//! The README's C example is a complete program: this test takes the ```c block of "Using it
//! from C" as written, compiles it with the flags the README gives (`-std=c99 -pedantic -Wall
//! -Werror`), links it with the library and checks what the README says it prints. It also
//! checks `SINEW_TRANSFORM_IDENTITY` against the core's identity.

use std::path::Path;

use sinew::Transform;

mod common;

use common::native;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The first ```c block after `heading` in the README.
fn c_block_after(heading: &str) -> String {
    let readme = std::fs::read_to_string(Path::new(ROOT).join("README.md")).unwrap();
    let section = &readme[readme.find(heading).expect("the README has the heading")..];
    let start = section.find("```c\n").expect("a ```c block follows") + "```c\n".len();
    let len = section[start..].find("```").expect("the block ends");
    section[start..start + len].to_string()
}

/// Compiles `source` as `name.c` with the README's flags, runs it and returns its stdout.
fn compile_and_run(name: &str, source: &str) -> String {
    let dir = native::scratch_dir(&format!("readme_{name}"));
    let file = dir.join(format!("{name}.c"));
    std::fs::write(&file, source).unwrap();
    let exe = dir.join(name);
    let mut cmd = native::compiler().get_compiler().to_command();
    cmd.args(["-std=c99", "-pedantic", "-Wall", "-Werror", "-I"])
        .arg(Path::new(ROOT).join("include"))
        .arg(&file)
        .arg("-o")
        .arg(&exe);
    native::link_sinew(&mut cmd);
    native::build(&mut cmd, "the C compiler");
    let output = native::run_program(&exe);
    assert!(
        output.status.success(),
        "{name} failed ({}): {}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
    String::from_utf8(output.stdout).unwrap()
}

#[test]
#[cfg_attr(not(unix), ignore = "links the cdylib with Unix linker flags")]
fn readme_c_example_compiles_pedantic_and_reaches() {
    let stdout = compile_and_run("arm", &c_block_after("## Using it from C"));
    let line = stdout.trim_end();
    let rest = line
        .strip_prefix("hand at (0.350, 1.200, 0.200), reached 1, error ")
        .unwrap_or_else(|| panic!("the README says what the example prints; it printed {line:?}"));
    let error: f32 = rest.parse().expect("an error figure");
    assert!(error <= 1e-4, "error {error}");
}

#[test]
#[cfg_attr(not(unix), ignore = "links the cdylib with Unix linker flags")]
fn transform_identity_initializer_is_the_identity() {
    let program = r#"
#include <stdio.h>
#include "sinew.h"
static const SinewTransform in_static = SINEW_TRANSFORM_IDENTITY;
int main(void)
{
    SinewTransform local[2] = { SINEW_TRANSFORM_IDENTITY, SINEW_TRANSFORM_IDENTITY };
    const SinewTransform *all[3];
    int i;
    all[0] = &in_static;
    all[1] = &local[0];
    all[2] = &local[1];
    for (i = 0; i < 3; ++i) {
        const SinewTransform *t = all[i];
        printf("%.9g %.9g %.9g %.9g %.9g %.9g %.9g %.9g %.9g %.9g\n", t->translation.x,
               t->translation.y, t->translation.z, t->rotation.x, t->rotation.y, t->rotation.z,
               t->rotation.w, t->scale.x, t->scale.y, t->scale.z);
    }
    return 0;
}
"#;
    let stdout = compile_and_run("identity", program);
    let id = Transform::IDENTITY;
    let (t, r, s) = (id.translation, id.rotation, id.scale);
    let expected = [t.x, t.y, t.z, r.x, r.y, r.z, r.w, s.x, s.y, s.z]
        .map(|v| v.to_string())
        .join(" ");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        lines,
        [expected.as_str(); 3],
        "static, array and local initializers"
    );
}
