//! Syntax check of the SinewIK Unreal plugin without an engine: runs
//! `g++ -std=c++17 -fsyntax-only -Wall -Wshadow -Werror` on every `.cpp` under
//! `unreal-sample/Plugins/SinewIK/Source`, with `tests/unreal-shim` (stand-in declarations of
//! the Unreal API the plugin uses, and empty `*.generated.h`) first on the include path, then
//! `include/`, `bindings/cpp`, `bindings/cpp/unreal` and the plugin's own folders.
//!
//! This proves the plugin is valid C++ against the Sinew headers and against the engine API
//! *as the shim declares it* (including Unreal's function-like `check` macro, which collides
//! with `sinew::detail::check` unless the plugin sets it aside). It does not prove the plugin
//! builds in Unreal Engine: see `tests/unreal-shim/README.md`.

mod common;
mod unreal_support;

use std::path::{Path, PathBuf};

use unreal_support::{cxx_command, root};

const PLUGIN_SOURCE: &str = "unreal-sample/Plugins/SinewIK/Source";

fn cpp_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries {
        let path = entry.expect("directory entry").path();
        if path.is_dir() {
            cpp_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "cpp") {
            out.push(path);
        }
    }
}

#[test]
#[cfg_attr(not(unix), ignore = "uses GCC/Clang flags")]
#[cfg_attr(
    sinew_no_cxx,
    ignore = "no C++ compiler (c++, or $CXX) was found when sinew was built: apt-get install g++"
)]
fn every_plugin_source_file_parses_against_the_shim() {
    let source = root().join(PLUGIN_SOURCE);
    let mut files = Vec::new();
    cpp_files(&source, &mut files);
    files.sort();

    // The files the plugin cannot do without; a rename must update this list.
    let expected = [
        "SinewIK/Private/SinewIKModule.cpp",
        "SinewIK/Private/AnimNode_SinewTwoBoneIK.cpp",
        "SinewIK/Private/AnimNode_SinewFabrik.cpp",
        "SinewIK/Private/AnimNode_SinewAim.cpp",
        "SinewIK/Private/AnimNode_SinewCCDIK.cpp",
        "SinewIK/Private/AnimNode_SinewHandIKRetargeting.cpp",
        "SinewIK/Private/AnimNode_SinewMultiFabrik.cpp",
        "SinewIK/Private/AnimNode_SinewBase.cpp",
        "SinewIKEditor/Private/AnimGraphNode_Sinew.cpp",
    ];
    for name in expected {
        assert!(
            files.contains(&source.join(name)),
            "{PLUGIN_SOURCE}/{name} is missing"
        );
    }

    let include_first: Vec<PathBuf> = std::iter::once(root().join("tests/unreal-shim"))
        .chain(
            [
                "SinewIK/Public",
                "SinewIK/Private",
                "SinewIKEditor/Public",
                "SinewIKEditor/Private",
            ]
            .iter()
            .map(|d| source.join(d)),
        )
        .collect();

    // Start every compiler, then collect them (they are independent).
    let jobs: Vec<(PathBuf, std::process::Child)> = files
        .iter()
        .map(|file| {
            let mut cmd = cxx_command(&include_first);
            cmd.args(["-fsyntax-only", "-Wall", "-Wshadow", "-Werror"])
                .arg(file)
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped());
            let child = cmd
                .spawn()
                .unwrap_or_else(|e| panic!("running {cmd:?}: {e}"));
            (file.clone(), child)
        })
        .collect();

    let mut failures = Vec::new();
    for (file, child) in jobs {
        let output = child.wait_with_output().expect("wait for the compiler");
        let name = file
            .strip_prefix(&source)
            .unwrap_or(&file)
            .display()
            .to_string();
        if output.status.success() {
            println!("ok   {name}");
        } else {
            failures.push(format!(
                "{name}:\n{}{}",
                String::from_utf8_lossy(&output.stdout),
                String::from_utf8_lossy(&output.stderr)
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} plugin files do not parse:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
    println!("{} plugin files parse against the Unreal shim", files.len());
}
