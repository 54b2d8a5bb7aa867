//! The C# bindings (`bindings/csharp/`) under Mono (`tests/header.rs` checks that the committed
//! `bindings/csharp/NativeMethods.g.cs` is what the build generates).
//!
//! - `csharp_tests_pass_under_mono`: compiles `tests/csharp/SinewTests.cs` with every
//!   `bindings/csharp/*.cs` (`mcs -unsafe`), runs it with `mono` and requires its last line to
//!   be `N passed, 0 failed`. The program compares the idiomatic layer with raw `NativeMethods`
//!   calls in the same process and with golden numbers this test computes with the Rust core
//!   and hands over in a file (`golden.txt`: `NAME count hex-f32-bits...`); it also checks
//!   errors, disposal and finalization, and threads.
//!
//! Which `libsinew.so`: the cdylib cargo built together with the rlib this test links,
//! `target/<profile>/deps/libsinew.so` (`tests/common/native.rs` says why not the uplifted one). It
//! is copied next to `SinewTests.exe`: Mono resolves `DllImport("sinew")` by probing the
//! assembly's directory for `libsinew.so` (no dllmap or `LD_LIBRARY_PATH` needed, as for a
//! plug-in shipped next to a game's assemblies). The program prints the path it actually mapped
//! (from `/proc/self/maps`) and this test checks it is that copy.
//!
//! Without `mcs` or `mono` on PATH (override with `MCS` / `MONO`) when sinew was built, the Mono
//! test is ignored with that reason (build.rs); `SINEW_REQUIRE_TOOLS=1`, as in `.ci/run`, keeps
//! it, so a missing toolchain fails.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::time::Instant;

use sinew::ffi::SinewEndRotation;
use sinew::{
    BlendSpace, Ccd, CcdSettings, ChainTarget, Clip, ClipCursor, Crossfade, EffectorTarget,
    EndRotation, Fabrik, FabrikSettings, FadeCurve, HandIkRetargeting, HandIkRetargetingSettings,
    HandPair, Interpolation, JointMask, Layer, Mat4, MultiFabrik, MultiFabrikSettings, Pose, Quat,
    Skeleton, Skin, Track, Transform, TwoBoneIk, TwoBoneIkSettings, TwoBoneTarget, Vec3,
};

mod common;

use common::native;

const MANIFEST_DIR: &str = env!("CARGO_MANIFEST_DIR");

// ------------------------------------------------------------------------------ golden values
//
// The scenarios below are mirrored literally in tests/csharp/SinewTests.cs (same skeleton,
// poses, chains, tracks and targets); change both together.

/// Golden lines: name and values.
#[derive(Default)]
struct Golden {
    text: String,
}

impl Golden {
    fn floats(&mut self, name: &str, values: &[f32]) {
        write!(self.text, "{name} {}", values.len()).unwrap();
        for v in values {
            write!(self.text, " {:08x}", v.to_bits()).unwrap();
        }
        self.text.push('\n');
    }

    fn transforms(&mut self, name: &str, transforms: &[Transform]) {
        let values: Vec<f32> = transforms.iter().flat_map(components).collect();
        self.floats(name, &values);
    }

    fn result(&mut self, name: &str, r: sinew::IkResult) {
        self.floats(
            name,
            &[f32::from(u8::from(r.reached)), r.error, r.iterations as f32],
        );
    }
}

/// The C value of an end rotation mode.
fn end_rotation(e: EndRotation) -> f32 {
    let c = match e {
        EndRotation::KeepModel => SinewEndRotation::KeepModel,
        EndRotation::CopyEffector => SinewEndRotation::CopyEffector,
        EndRotation::KeepLocal => SinewEndRotation::KeepLocal,
    };
    c as i32 as f32
}

fn components(t: &Transform) -> [f32; 10] {
    let (p, q, s) = (t.translation, t.rotation, t.scale);
    [p.x, p.y, p.z, q.x, q.y, q.z, q.w, s.x, s.y, s.z]
}

fn tr(t: [f32; 3], r: [f32; 4], s: [f32; 3]) -> Transform {
    Transform::new(
        Vec3::from(t),
        Quat::from_xyzw(r[0], r[1], r[2], r[3]),
        Vec3::from(s),
    )
}

const ID: [f32; 4] = [0.0, 0.0, 0.0, 1.0];
const ONE: [f32; 3] = [1.0, 1.0, 1.0];
const Z45: [f32; 4] = [0.0, 0.0, 0.382_683_43, 0.923_879_5];
const Y22: [f32; 4] = [0.0, 0.195_090_32, 0.0, 0.980_785_25];
const X15: [f32; 4] = [0.130_526_19, 0.0, 0.0, 0.991_444_9];
const Z30: [f32; 4] = [0.0, 0.0, 0.258_819_04, 0.965_925_8];
const Y60: [f32; 4] = [0.0, 0.5, 0.0, 0.866_025_4];
const X90: [f32; 4] = [0.707_106_77, 0.0, 0.0, 0.707_106_77];

/// Skeleton S: root, spine, right arm and hand, left arm and hand.
fn skeleton() -> Arc<Skeleton> {
    let parents = [-1, 0, 1, 2, 1, 4];
    let rest = [
        tr([0.0, 1.0, 0.0], ID, ONE),
        tr([0.0, 0.5, 0.0], Z45, ONE),
        tr([0.3, 0.0, 0.0], Y22, ONE),
        tr([0.3, 0.0, 0.0], ID, ONE),
        tr([-0.3, 0.0, 0.0], X15, ONE),
        tr([-0.3, 0.0, 0.0], ID, ONE),
    ];
    let names = ["root", "spine", "arm_r", "hand_r", "arm_l", "hand_l"];
    Arc::new(Skeleton::new(&parents, &rest, Some(&names)).unwrap())
}

/// Pose B: the rest pose with joints 1 to 5 changed.
fn pose_b_local(skeleton: &Skeleton) -> Vec<Transform> {
    let mut b = skeleton.rest_pose().to_vec();
    b[1].rotation = Quat::from_xyzw(Z30[0], Z30[1], Z30[2], Z30[3]);
    b[2].rotation = Quat::from_xyzw(Y60[0], Y60[1], Y60[2], Y60[3]);
    b[3].translation = Vec3::new(0.35, 0.05, 0.0);
    b[4].rotation = Quat::from_xyzw(X90[0], X90[1], X90[2], X90[3]);
    b[5].scale = Vec3::splat(1.2);
    b
}

fn clip_one(skeleton: &Skeleton) -> Clip {
    let mut clip = Clip::new(skeleton, 1.0).unwrap();
    let q = |r: [f32; 4]| Quat::from_xyzw(r[0], r[1], r[2], r[3]);
    let d = clip.duration();
    let rot = Track::new(
        Interpolation::Linear,
        &[0.0, 0.5, 1.0],
        &[q(ID), q(Z45), q(X90)],
        None,
        d,
    );
    clip.set_rotation_track(1, rot.unwrap()).unwrap();
    let ins = [Vec3::ZERO, Vec3::new(0.0, 0.5, 0.0)];
    let outs = [Vec3::new(0.0, 0.5, 0.0), Vec3::ZERO];
    let translation = Track::new(
        Interpolation::Cubic,
        &[0.0, 1.0],
        &[Vec3::new(0.3, 0.0, 0.0), Vec3::new(0.3, 0.2, 0.0)],
        Some((&ins, &outs)),
        d,
    );
    clip.set_translation_track(2, translation.unwrap()).unwrap();
    let scale = Track::new(
        Interpolation::Step,
        &[0.0, 0.4],
        &[Vec3::ONE, Vec3::splat(1.2)],
        None,
        d,
    );
    clip.set_scale_track(4, scale.unwrap()).unwrap();
    clip
}

fn clip_two(skeleton: &Skeleton) -> Clip {
    let mut clip = Clip::new(skeleton, 2.0).unwrap();
    let values = [
        Quat::IDENTITY,
        Quat::from_xyzw(Y60[0], Y60[1], Y60[2], Y60[3]),
    ];
    let rot = Track::new(Interpolation::Slerp, &[0.0, 2.0], &values, None, 2.0);
    clip.set_rotation_track(3, rot.unwrap()).unwrap();
    clip
}

fn straight_chain(n: usize) -> Vec<Transform> {
    (0..n)
        .map(|i| tr([0.25 * i as f32, 0.0, 0.0], ID, ONE))
        .collect()
}

fn golden() -> String {
    let mut g = Golden::default();
    let version: Vec<f32> = env!("CARGO_PKG_VERSION")
        .split('.')
        .map(|p| p.parse::<u32>().unwrap() as f32)
        .collect();
    g.floats("VERSION", &version);
    g.floats("ABI", &[sinew::ffi::SINEW_ABI_VERSION as f32]);

    let flag = |b: bool| f32::from(u8::from(b));
    let t = TwoBoneIkSettings::default();
    g.floats(
        "DEFAULT_TWOBONE",
        &[
            t.weight,
            flag(t.allow_stretching),
            t.start_stretch_ratio,
            t.max_stretch_scale,
            end_rotation(t.end_rotation),
            t.soften,
            flag(t.keep_twist),
            t.pole_weight,
        ],
    );
    let f = FabrikSettings::default();
    g.floats(
        "DEFAULT_FABRIK",
        &[
            f.precision,
            flag(f.relative_precision),
            f.max_iterations as f32,
            flag(f.stop_when_stalled),
            end_rotation(f.end_rotation),
        ],
    );
    let c = CcdSettings::default();
    g.floats(
        "DEFAULT_CCD",
        &[
            c.precision,
            flag(c.relative_precision),
            c.max_iterations as f32,
            flag(c.start_from_tail),
            flag(c.fix_root),
            flag(c.stop_when_stalled),
            end_rotation(c.end_rotation),
        ],
    );
    let h = HandIkRetargetingSettings::default();
    g.floats(
        "DEFAULT_HAND",
        &[
            h.hand_fk_weight,
            h.per_axis_alpha.x,
            h.per_axis_alpha.y,
            h.per_axis_alpha.z,
        ],
    );

    let skeleton = skeleton();
    let mut rest = Pose::new(skeleton.clone());
    let rest_model = rest.model().unwrap().to_vec();
    g.transforms("REST_MODEL", &rest_model);

    // Two-bone IK: bent arm toward a target with a pole; then a stretching solve.
    let arm = || {
        [
            tr([0.0, 0.0, 0.0], ID, ONE),
            tr([0.3, 0.0, -0.05], ID, ONE),
            tr([0.6, 0.0, 0.0], ID, ONE),
        ]
    };
    let solver = TwoBoneIk::new(TwoBoneIkSettings::default()).unwrap();
    let mut chain = arm();
    let target = TwoBoneTarget::at(Vec3::new(0.35, 0.25, 0.1)).with_pole(Vec3::new(0.3, 0.0, -1.0));
    let r = solver.solve(&mut chain, &target).unwrap();
    g.transforms("TWOBONE", &chain);
    g.result("TWOBONE_RESULT", r);
    let stretch = TwoBoneIk::new(TwoBoneIkSettings {
        allow_stretching: true,
        ..TwoBoneIkSettings::default()
    })
    .unwrap();
    let mut chain = arm();
    let r = stretch
        .solve(&mut chain, &TwoBoneTarget::at(Vec3::new(0.9, 0.3, 0.0)))
        .unwrap();
    g.transforms("TWOBONE_STRETCH", &chain);
    g.result("TWOBONE_STRETCH_RESULT", r);
    let mut pose = Pose::new(skeleton.clone());
    let r = solver
        .solve_pose(
            &mut pose,
            [1, 2, 3],
            &TwoBoneTarget::at(Vec3::new(0.2, 1.6, 0.3)),
        )
        .unwrap();
    g.transforms("TWOBONE_POSE", &pose.local().to_vec());
    g.result("TWOBONE_POSE_RESULT", r);

    // FABRIK and CCD on a straight five-joint chain.
    let goal = ChainTarget::at(Vec3::new(0.5, 0.6, 0.2));
    let mut fabrik = Fabrik::new(FabrikSettings::default(), 8).unwrap();
    let mut chain = straight_chain(5);
    let r = fabrik.solve(&mut chain, Quat::IDENTITY, &goal).unwrap();
    g.transforms("FABRIK", &chain);
    g.result("FABRIK_RESULT", r);
    let mut ccd = Ccd::new(CcdSettings::default(), 8).unwrap();
    let mut chain = straight_chain(5);
    let r = ccd.solve(&mut chain, Quat::IDENTITY, &goal).unwrap();
    g.transforms("CCD", &chain);
    g.result("CCD_RESULT", r);

    // An aim chain: the straight chain's tip looks at a point with an eye offset, its up axis
    // rolled toward +Z, the second joint limited.
    let settings = sinew::AimIkSettings {
        aim_offset: Vec3::new(0.05, 0.1, 0.0),
        ..Default::default()
    };
    let mut aim = sinew::AimIk::new(settings, 8).unwrap();
    let tuning = sinew::AimJoint {
        weight: 2.0,
        max_angle_degrees: 20.0,
    };
    aim.set_joint(1, tuning).unwrap();
    let mut chain = straight_chain(5);
    let target = sinew::AimTarget::at(Vec3::new(-0.5, 1.6, 0.4)).with_up(Vec3::Z);
    let r = aim.solve(&mut chain, &target).unwrap();
    g.transforms("AIM", &chain);
    g.result("AIM_RESULT", r);

    // Multi-effector FABRIK: both hands from the spine, from pose B (pose, then model space).
    let targets = [
        EffectorTarget::at(Vec3::new(0.5, 1.6, 0.2))
            .with_rotation(Quat::from_xyzw(Y22[0], Y22[1], Y22[2], Y22[3])),
        EffectorTarget::at(Vec3::new(-0.45, 1.7, 0.15)).with_weight(0.5),
    ];
    let mut multi = MultiFabrik::new(MultiFabrikSettings::default(), 6, 2).unwrap();
    let mut pose = Pose::new(skeleton.clone());
    pose.set_local(&pose_b_local(&skeleton)).unwrap();
    let mut model = pose.model().unwrap().to_vec();
    let mut results = [sinew::IkResult::default(); 2];
    let hands = [3, 5];
    multi
        .solve_pose(&mut pose, 1, &hands, &targets, &mut results)
        .unwrap();
    g.transforms("MULTI_FABRIK", &pose.local().to_vec());
    let flat = |rs: &[sinew::IkResult]| -> Vec<f32> {
        let one =
            |r: &sinew::IkResult| [f32::from(u8::from(r.reached)), r.error, r.iterations as f32];
        rs.iter().flat_map(one).collect()
    };
    g.floats("MULTI_FABRIK_RESULTS", &flat(&results));
    multi
        .solve(&skeleton, &mut model, 1, &hands, &targets, &mut results)
        .unwrap();
    g.transforms("MULTI_FABRIK_MODEL", &model);
    g.floats("MULTI_FABRIK_MODEL_RESULTS", &flat(&results));

    // Blends and additive layers between the rest pose A and pose B.
    let a = Pose::new(skeleton.clone());
    let mut b = Pose::new(skeleton.clone());
    b.set_local(&pose_b_local(&skeleton)).unwrap();
    let mask = JointMask::subtree(&skeleton, 1, 2).unwrap();
    let mut out = Pose::new(skeleton.clone());
    out.blend(&a, &b, 0.3, Some(&mask), BlendSpace::Local)
        .unwrap();
    g.transforms("BLEND", &out.local().to_vec());
    out.blend(&a, &b, 0.6, None, BlendSpace::ModelRotation)
        .unwrap();
    g.transforms("BLEND_MODEL", &out.local().to_vec());
    let layers = [
        Layer {
            pose: &a,
            weight: 0.25,
            mask: None,
        },
        Layer {
            pose: &b,
            weight: 0.5,
            mask: Some(&mask),
        },
    ];
    out.blend_layers(&layers, 0.1).unwrap();
    g.transforms("LAYERS", &out.local().to_vec());
    let mut delta = Pose::new(skeleton.clone());
    delta.make_additive(&b, &a).unwrap();
    out.add_to(&a, &delta, 0.5, None).unwrap();
    g.transforms("ADDITIVE", &out.local().to_vec());

    // Clip sampling, then a crossfade between two clips.
    let one = Arc::new(clip_one(&skeleton));
    let two = Arc::new(clip_two(&skeleton));
    one.sample(0.3, true, None, &mut out).unwrap();
    g.transforms("CLIP", &out.local().to_vec());
    let mut cursor = ClipCursor::new(&one);
    one.sample(1.7, true, Some(&mut cursor), &mut out).unwrap();
    g.transforms("CLIP_WRAP", &out.local().to_vec());
    // Clips from frames: 4 frames of every joint at 10 per second (values exact in binary).
    let frames: Vec<Transform> = (0..4 * 6)
        .map(|i| {
            let (f, j) = ((i / 6) as f32, (i % 6) as f32);
            let r = Quat::from_xyzw(0.25 * f, 0.125 * j, 0.0, 1.0);
            Transform::new(
                Vec3::new(0.25 * f, 0.125 * j, -0.5),
                r,
                Vec3::new(1.0, 1.0 + 0.25 * f, 1.0),
            )
        })
        .collect();
    let mask = [true, false, true, true, true, true];
    let linear = Clip::from_frames(
        &skeleton,
        4,
        10.0,
        &frames,
        Some(&mask),
        Interpolation::Linear,
        false,
    );
    linear.unwrap().sample(0.15, true, None, &mut out).unwrap();
    g.transforms("FRAMES", &out.local().to_vec());
    let wrapping = Clip::from_frames(
        &skeleton,
        4,
        10.0,
        &frames,
        None,
        Interpolation::Slerp,
        true,
    );
    wrapping
        .unwrap()
        .sample(0.37, true, None, &mut out)
        .unwrap();
    g.transforms("FRAMES_WRAP", &out.local().to_vec());
    let mut fade = Crossfade::new(skeleton.clone(), 4).unwrap();
    fade.play(one.clone(), true).unwrap();
    fade.update(0.2).unwrap();
    assert!(fade
        .fade_to(two.clone(), 0.5, FadeCurve::Smooth, true)
        .unwrap());
    fade.update(0.25).unwrap();
    g.transforms("CROSSFADE", &fade.pose().local().to_vec());
    let mut weights = [0.0; 4];
    let n = fade.weights(&mut weights);
    g.floats("CROSSFADE_WEIGHTS", &weights[..n]);
    let mut times = [0.0; 4];
    let n = fade.clip_times(&mut times);
    g.floats("CROSSFADE_TIMES", &times[..n]);
    // An inertialized switch back to clip one, then the same request with looping off.
    assert!(fade
        .fade_to(one.clone(), 0.5, FadeCurve::Inertialize, true)
        .unwrap());
    fade.update(0.125).unwrap();
    let left = fade.inertialization_remaining().unwrap();
    g.floats("CROSSFADE_INERTIAL", &[1.0, left]);
    assert!(!fade
        .fade_to(one.clone(), 0.5, FadeCurve::Linear, false)
        .unwrap());
    fade.update(2.0).unwrap();
    g.transforms("CROSSFADE_HELD", &fade.pose().local().to_vec());
    let n = fade.clip_times(&mut times);
    g.floats("CROSSFADE_HELD_TIMES", &times[..n]);

    // Hand IK retargeting on the rest pose's model transforms.
    let node = HandIkRetargeting::new(HandIkRetargetingSettings {
        hand_fk_weight: 0.25,
        ..HandIkRetargetingSettings::default()
    })
    .unwrap();
    let mut model = rest_model;
    let hands = HandPair {
        right_fk: 3,
        left_fk: 5,
        right_ik: 2,
        left_ik: 4,
    };
    let offset = node.apply_model(&mut model, &hands, &[1]).unwrap();
    g.floats("HAND_OFFSET", &offset.to_array());
    g.transforms("HAND_MODEL", &model);

    // Model matrices of pose B, and the palette of a skin of joints 3, 1 and 5 bound at the
    // rest pose (inverse binds handed over as they are).
    let matrices = |pose: &Pose| {
        let mut out = vec![Mat4::ZERO; pose.joint_count()];
        pose.model_matrices_into(&mut out).unwrap();
        out
    };
    let flat = |ms: &[Mat4]| -> Vec<f32> { ms.iter().flat_map(|m| m.to_cols_array()).collect() };
    let bind_pose = Pose::new(skeleton.clone());
    let bound = matrices(&bind_pose);
    let joints = [3u32, 1, 5];
    let binds: Vec<Mat4> = joints
        .iter()
        .map(|&j| bound[j as usize].inverse())
        .collect();
    let mut posed = Pose::new(skeleton.clone());
    posed.set_local(&pose_b_local(&skeleton)).unwrap();
    g.floats("MATRICES", &flat(&matrices(&posed)));
    g.floats("INVERSE_BINDS", &flat(&binds));
    let skin = Skin::new(&skeleton, Some(&joints), &binds).unwrap();
    let mut palette = vec![Mat4::ZERO; joints.len()];
    posed.skinning_palette_into(&skin, &mut palette).unwrap();
    g.floats("PALETTE", &flat(&palette));
    g.text
}

// ------------------------------------------------------------------------------ Mono

/// A tool from the environment variable `var` or PATH, if it runs.
fn tool(var: &str, name: &str) -> Option<PathBuf> {
    let path = std::env::var_os(var).map_or_else(|| PathBuf::from(name), PathBuf::from);
    let runs = Command::new(&path)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    runs.then_some(path)
}

fn compile(mcs: &Path, exe: &Path) {
    let root = Path::new(MANIFEST_DIR);
    let mut sources: Vec<PathBuf> = std::fs::read_dir(root.join("bindings/csharp"))
        .expect("list bindings/csharp")
        .map(|e| e.expect("list bindings/csharp").path())
        .filter(|p| p.extension().is_some_and(|e| e == "cs"))
        .collect();
    sources.sort();
    sources.push(root.join("tests/csharp/SinewTests.cs"));
    let mut cmd = Command::new(mcs);
    cmd.args([
        "-unsafe",
        "-debug",
        "-warnaserror+",
        "-nologo",
        "-target:exe",
    ])
    .arg(format!("-out:{}", exe.display()))
    .args(&sources);
    native::build(&mut cmd, "mcs");
}

#[test]
#[cfg_attr(not(target_os = "linux"), ignore = "loads the cdylib the Linux way")]
#[cfg_attr(
    sinew_no_mono,
    ignore = "Mono (mcs, mono) was not found when sinew was built: apt-get install mono-mcs mono-runtime, or set MCS and MONO"
)]
fn csharp_tests_pass_under_mono() {
    let start = Instant::now();
    let (Some(mcs), Some(mono)) = (tool("MCS", "mcs"), tool("MONO", "mono")) else {
        panic!("mcs or mono does not run (apt-get install mono-mcs mono-runtime)");
    };
    let lib = native::shared_library();
    let dir = native::scratch_dir("csharp");

    let exe = dir.join("SinewTests.exe");
    compile(&mcs, &exe);
    let local_lib = dir.join(lib.file_name().unwrap());
    std::fs::copy(&lib, &local_lib).expect("copy libsinew next to the test program");
    let golden_file = dir.join("golden.txt");
    std::fs::write(&golden_file, golden()).expect("write golden.txt");
    let compiled = start.elapsed();

    let output = Command::new(&mono)
        .arg("--debug")
        .arg(&exe)
        .arg(&golden_file)
        .current_dir(&dir)
        .output()
        .unwrap_or_else(|e| panic!("running {} {}: {e}", mono.display(), exe.display()));
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    println!("{stdout}");
    let summary = stdout.lines().last().unwrap_or("");
    assert!(
        output.status.success() && summary.ends_with(" passed, 0 failed"),
        "the C# tests failed ({}), last line {summary:?}; stderr:\n{stderr}",
        output.status
    );
    let loaded = stdout
        .lines()
        .find_map(|l| l.strip_prefix("LIBRARY "))
        .expect("the C# program prints the libsinew it loaded");
    assert_eq!(
        Path::new(loaded).canonicalize().unwrap(),
        local_lib.canonicalize().unwrap(),
        "Mono loaded another libsinew"
    );
    let _ = std::fs::remove_dir_all(&dir);
    let elapsed = start.elapsed();
    println!(
        "C# bindings under Mono: {summary}; {} with {}; compile {compiled:?}, total {elapsed:?}",
        lib.display(),
        mono.display()
    );
}
