//! Compiles `tests/c/abi_test.c` against `include/sinew.h`, links it with the cdylib cargo built
//! for this profile, runs it, and then recomputes every parity line it printed (`CASE` for
//! `sinew_two_bone_ik_solve`, `POSE` for `sinew_two_bone_ik_solve_pose`) with the Rust core,
//! comparing each output float.
//!
//! Which `libsinew.so`: `cargo test` compiles the lib target once for all its crate types, so
//! `target/<profile>/deps/libsinew.so` comes from the same rustc run as the rlib this test links
//! and is rebuilt whenever `src/` changes. The uplifted `target/<profile>/libsinew.so` is NOT
//! refreshed by `cargo test` (cargo only uplifts the artifacts of the units it was asked for,
//! i.e. `cargo build`), so it can be stale or missing; this test never uses it.
//!
//! Environment knobs passed through to the C program: `SINEW_ABI_TEST_STRICT=1` turns checks
//! that fail on known library bugs (XFAIL) into failures; `SINEW_ABI_TEST_VERBOSE=1` prints
//! every error message. `CC`/`CFLAGS` are honoured through the `cc` crate.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::time::{Instant, SystemTime};

use sinew::ffi::SinewStatus;
use sinew::{
    EndRotation, IkResult, Pose, Quat, Skeleton, Transform, TwoBoneIk, TwoBoneIkSettings,
    TwoBoneTarget, Vec3,
};

const MANIFEST_DIR: &str = env!("CARGO_MANIFEST_DIR");
const TARGET: &str = env!("SINEW_BUILD_TARGET");

/// Outputs must agree within this (relative to the magnitude, for huge-input cases).
const TOLERANCE: f32 = 1e-6;

/// `target/<profile>/deps`, where this test binary and the lib target's artifacts live.
fn deps_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("current_exe");
    exe.parent()
        .expect("test binary is in target/<profile>/deps")
        .to_path_buf()
}

fn mtime(path: &Path) -> SystemTime {
    std::fs::metadata(path)
        .and_then(|m| m.modified())
        .unwrap_or_else(|e| panic!("mtime of {}: {e}", path.display()))
}

/// The cdylib built with the rlib this test links. If it is newer than this test binary, the
/// lib was rebuilt after this test was linked (e.g. a concurrent `cargo build` after a source
/// change), and C and Rust would run different code.
fn shared_library(dir: &Path) -> PathBuf {
    let lib = dir.join(format!(
        "{}sinew{}",
        std::env::consts::DLL_PREFIX,
        std::env::consts::DLL_SUFFIX
    ));
    assert!(
        lib.is_file(),
        "{} is missing: the lib target must keep crate-type cdylib",
        lib.display()
    );
    let exe = std::env::current_exe().expect("current_exe");
    assert!(
        mtime(&lib) <= mtime(&exe),
        "{} was rebuilt after this test binary was linked; rerun `cargo test`",
        lib.display()
    );
    lib
}

fn compile(lib_dir: &Path, out_dir: &Path) -> PathBuf {
    let manifest = Path::new(MANIFEST_DIR);
    let source = manifest.join("tests/c/abi_test.c");
    let exe = out_dir.join("abi_test");
    let compiler = cc::Build::new()
        .cargo_metadata(false)
        .target(TARGET)
        .host(TARGET)
        .opt_level(0)
        .debug(true)
        .get_compiler();
    let mut cmd = compiler.to_command();
    cmd.args(["-std=c99", "-Wall", "-Wextra", "-Werror"])
        .arg("-I")
        .arg(manifest.join("include"))
        .arg(&source)
        .arg("-o")
        .arg(&exe)
        .arg("-L")
        .arg(lib_dir)
        .arg("-lsinew")
        .arg(format!("-Wl,-rpath,{}", lib_dir.display()))
        .arg("-lm");
    let output = cmd
        .output()
        .unwrap_or_else(|e| panic!("running the C compiler {cmd:?}: {e}"));
    assert!(
        output.status.success(),
        "C compilation failed: {cmd:?}\n{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    exe
}

// ------------------------------------------------------------------------------ line parsing

struct Tokens<'a> {
    line: &'a str,
    words: std::str::SplitWhitespace<'a>,
}

impl<'a> Tokens<'a> {
    fn new(line: &'a str) -> Self {
        Self {
            line,
            words: line.split_whitespace(),
        }
    }

    fn word(&mut self) -> &'a str {
        self.words
            .next()
            .unwrap_or_else(|| panic!("line ended early: {}", self.line))
    }

    fn tag(&mut self, tag: &str) {
        let w = self.word();
        assert_eq!(w, tag, "expected tag {tag} in: {}", self.line);
    }

    fn parse<T: std::str::FromStr>(&mut self) -> T {
        let w = self.word();
        w.parse()
            .unwrap_or_else(|_| panic!("bad number {w:?} in: {}", self.line))
    }

    fn f32(&mut self) -> f32 {
        self.parse()
    }

    fn vec3(&mut self) -> Vec3 {
        Vec3::new(self.f32(), self.f32(), self.f32())
    }

    fn quat(&mut self) -> Quat {
        Quat::from_xyzw(self.f32(), self.f32(), self.f32(), self.f32())
    }

    fn transform(&mut self) -> Transform {
        Transform::new(self.vec3(), self.quat(), self.vec3())
    }

    fn transforms(&mut self, n: usize) -> Vec<Transform> {
        (0..n).map(|_| self.transform()).collect()
    }

    /// A value or the `-` marker for NULL.
    fn optional<T>(&mut self, read: impl FnOnce(&mut Self) -> T) -> Option<T> {
        let mut peek = self.words.clone();
        if peek.next() == Some("-") {
            self.words = peek;
            None
        } else {
            Some(read(self))
        }
    }

    fn settings(&mut self) -> TwoBoneIkSettings {
        self.tag("S");
        let flag = |v: u32| match v {
            0 => false,
            1 => true,
            _ => panic!("flag {v}"),
        };
        TwoBoneIkSettings {
            weight: self.f32(),
            allow_stretching: flag(self.parse()),
            start_stretch_ratio: self.f32(),
            max_stretch_scale: self.f32(),
            end_rotation: match self.parse::<i32>() {
                0 => EndRotation::KeepModel,
                1 => EndRotation::CopyEffector,
                2 => EndRotation::KeepLocal,
                v => panic!("end_rotation {v}"),
            },
            soften: self.f32(),
            keep_twist: flag(self.parse()),
            pole_weight: self.f32(),
        }
    }

    fn target(&mut self) -> TwoBoneTarget {
        self.tag("E");
        let position = self.vec3();
        self.tag("R");
        let rotation = self.optional(Self::quat);
        self.tag("P");
        let pole = self.optional(Self::vec3);
        TwoBoneTarget {
            position,
            rotation,
            pole,
        }
    }

    fn result(&mut self) -> (u32, f32, u32) {
        self.tag("RES");
        (self.parse(), self.f32(), self.parse())
    }

    fn end(mut self) {
        assert!(
            self.words.next().is_none(),
            "trailing tokens in: {}",
            self.line
        );
    }
}

// ------------------------------------------------------------------------------ comparison

#[derive(Default)]
struct Compare {
    floats: usize,
    identical: usize,
    max_diff: f32,
    mismatches: Vec<String>,
}

impl Compare {
    fn float(&mut self, what: &str, c: f32, rust: f32) {
        self.floats += 1;
        if c.to_bits() == rust.to_bits() {
            self.identical += 1;
            return;
        }
        let diff = (c - rust).abs();
        if diff.is_finite() {
            self.max_diff = self.max_diff.max(diff);
        }
        if diff.is_nan() || diff > TOLERANCE * rust.abs().max(1.0) {
            self.mismatches
                .push(format!("{what}: C {c:e} vs Rust {rust:e}"));
        }
    }

    fn transforms(&mut self, what: &str, c: &[Transform], rust: &[Transform]) {
        assert_eq!(c.len(), rust.len(), "{what}: lengths");
        for (i, (a, b)) in c.iter().zip(rust).enumerate() {
            for (k, (x, y)) in components(a).into_iter().zip(components(b)).enumerate() {
                self.float(&format!("{what}[{i}] field {k}"), x, y);
            }
        }
    }

    fn result(&mut self, what: &str, c: (u32, f32, u32), rust: IkResult) {
        if c.0 != u32::from(rust.reached) || c.2 != rust.iterations {
            self.mismatches.push(format!(
                "{what}: result reached/iterations C {}/{} vs Rust {}/{}",
                c.0, c.2, rust.reached, rust.iterations
            ));
        }
        self.float(&format!("{what} error"), c.1, rust.error);
    }

    fn status(&mut self, what: &str, c: i32, rust: Result<(), sinew::Error>) -> bool {
        let code = match &rust {
            Ok(()) => SinewStatus::Ok as i32,
            Err(e) => SinewStatus::from(e.kind()) as i32,
        };
        if code != c {
            self.mismatches
                .push(format!("{what}: status C {c} vs Rust {rust:?}"));
        }
        code == SinewStatus::Ok as i32 && c == code
    }
}

fn components(t: &Transform) -> [f32; 10] {
    let (p, q, s) = (t.translation, t.rotation, t.scale);
    [p.x, p.y, p.z, q.x, q.y, q.z, q.w, s.x, s.y, s.z]
}

/// `CASE id S .. IN <3 transforms> E .. R .. P .. ST st OUT <3 transforms> RES ..`
fn check_case(line: &str, cmp: &mut Compare) {
    let mut t = Tokens::new(line);
    t.tag("CASE");
    let id: u32 = t.parse();
    let what = format!("case {id}");
    let settings = t.settings();
    t.tag("IN");
    let input: [Transform; 3] = std::array::from_fn(|_| t.transform());
    let target = t.target();
    t.tag("ST");
    let status: i32 = t.parse();
    t.tag("OUT");
    let out = t.transforms(3);
    let result = t.result();
    t.end();

    let solver = TwoBoneIk::new(settings).unwrap_or_else(|e| panic!("{what}: settings: {e}"));
    let mut chain = input;
    match solver.solve(&mut chain, &target) {
        Ok(r) => {
            if cmp.status(&what, status, Ok(())) {
                cmp.transforms(&what, &out, &chain);
                cmp.result(&what, result, r);
            }
        }
        Err(e) => {
            cmp.status(&what, status, Err(e));
            // Both sides leave the chain as it was.
            cmp.transforms(&format!("{what} (error, untouched)"), &out, &input);
        }
    }
}

/// `POSE id NAMES n <names> PAR <n> REST <n> LOCAL <n> S .. J name i name i name i E .. R .. P ..
/// ST st OUT <n> MODEL <n> RES ..`
fn check_pose(line: &str, cmp: &mut Compare) {
    let mut t = Tokens::new(line);
    t.tag("POSE");
    let id: u32 = t.parse();
    let what = format!("pose case {id}");
    t.tag("NAMES");
    let n: usize = t.parse();
    let names: Vec<&str> = (0..n).map(|_| t.word()).collect();
    t.tag("PAR");
    let parents: Vec<i32> = (0..n).map(|_| t.parse()).collect();
    t.tag("REST");
    let rest = t.transforms(n);
    t.tag("LOCAL");
    let local = t.transforms(n);
    let settings = t.settings();
    t.tag("J");
    let mut joints = [0usize; 3];
    for j in &mut joints {
        let name = t.word();
        *j = t.parse();
        let skeleton_index = (*j < n).then(|| names[*j]);
        assert_eq!(skeleton_index, Some(name), "{what}: joint name/index");
    }
    let target = t.target();
    t.tag("ST");
    let status: i32 = t.parse();
    t.tag("OUT");
    let out_local = t.transforms(n);
    t.tag("MODEL");
    let out_model = t.transforms(n);
    let result = t.result();
    t.end();

    let skeleton = Skeleton::new(&parents, &rest, Some(&names))
        .unwrap_or_else(|e| panic!("{what}: skeleton: {e}"));
    for (i, name) in names.iter().enumerate() {
        assert_eq!(
            skeleton.find_joint(name),
            Some(i),
            "{what}: find_joint({name})"
        );
    }
    let mut pose = Pose::new(Arc::new(skeleton));
    pose.set_local(&local)
        .unwrap_or_else(|e| panic!("{what}: set_local: {e}"));
    let solver = TwoBoneIk::new(settings).unwrap_or_else(|e| panic!("{what}: settings: {e}"));
    // The index type is inferred from `solve_pose` (it has been `usize` and `u32`).
    let indices = joints.map(|j| j.try_into().expect("joint index fits"));
    let outcome = solver.solve_pose(&mut pose, indices, &target);
    let rust_result = outcome.as_ref().ok().copied();
    if cmp.status(&what, status, outcome.map(|_| ())) {
        cmp.transforms(&format!("{what} local"), &out_local, pose.local());
        cmp.transforms(
            &format!("{what} model"),
            &out_model,
            pose.model().expect("finite model"),
        );
        cmp.result(&what, result, rust_result.expect("ok"));
    }
}

// ------------------------------------------------------------------------------ the test

#[test]
#[cfg_attr(not(unix), ignore = "links the cdylib with Unix linker flags")]
fn c_program_passes_and_matches_rust_core() {
    let start = Instant::now();
    let lib_dir = deps_dir();
    let lib = shared_library(&lib_dir);
    let out_dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("c_abi")
        .join(std::process::id().to_string());
    std::fs::create_dir_all(&out_dir).expect("create temp dir");

    let exe = compile(&lib_dir, &out_dir);
    let output = Command::new(&exe)
        .output()
        .unwrap_or_else(|e| panic!("running {}: {e}", exe.display()));
    let stdout = String::from_utf8(output.stdout).expect("C output is UTF-8");
    let stderr = String::from_utf8_lossy(&output.stderr);
    // Failures, and XFAIL lines for known library bugs, are visible with --nocapture.
    eprint!("{stderr}");

    let summary = stdout.lines().last().unwrap_or("");
    assert!(
        output.status.success() && summary.ends_with(" 0 failed"),
        "C ABI test failed ({}), summary {summary:?}; stderr:\n{stderr}",
        output.status
    );

    let mut cmp = Compare::default();
    let (mut cases, mut poses) = (0, 0);
    for line in stdout.lines() {
        match line.split_whitespace().next() {
            Some("CASE") => {
                check_case(line, &mut cmp);
                cases += 1;
            }
            Some("POSE") => {
                check_pose(line, &mut cmp);
                poses += 1;
            }
            Some("VERSION") => {
                let mut t = Tokens::new(line);
                t.tag("VERSION");
                let version: Vec<u32> = (0..3).map(|_| t.parse()).collect();
                let expected: Vec<u32> = env!("CARGO_PKG_VERSION")
                    .split('.')
                    .map(|p| p.parse().expect("numeric version"))
                    .collect();
                assert_eq!(version, expected, "sinew_version");
                t.tag("ABI");
                assert_eq!(t.parse::<u32>(), sinew::ffi::SINEW_ABI_VERSION);
                t.end();
            }
            _ => {}
        }
    }
    let declared: usize = stdout
        .lines()
        .find_map(|l| l.strip_prefix("CASES "))
        .and_then(|n| n.parse().ok())
        .expect("CASES line");
    assert_eq!(cases, declared, "every CASE line was parsed");
    assert!(cases >= 200, "only {cases} chain cases");
    assert!(poses >= 20, "only {poses} pose cases");

    println!(
        "{summary}; parity: {cases} chain cases + {poses} pose cases, {} floats compared, \
         {} bit-identical, max |C - Rust| = {:e} ({})",
        cmp.floats,
        cmp.identical,
        cmp.max_diff,
        if cmp.identical == cmp.floats {
            "C and Rust outputs are bit-identical"
        } else {
            "NOT bit-identical"
        },
    );
    assert!(
        cmp.mismatches.is_empty(),
        "{} C/Rust mismatches:\n{}",
        cmp.mismatches.len(),
        cmp.mismatches.join("\n")
    );
    let _ = std::fs::remove_dir_all(&out_dir);
    let elapsed = start.elapsed();
    println!("linked {} ; took {elapsed:?}", lib.display());
    assert!(elapsed.as_secs() < 20, "took {elapsed:?}");
}
