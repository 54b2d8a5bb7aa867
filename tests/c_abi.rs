//! Compiles the C program of `tests/c/` (`abi_test.c` and one file per job) against
//! `include/sinew.h`, links it with the cdylib cargo built for this profile, runs it, and then
//! recomputes every parity line it printed with the Rust core, comparing each output float (and
//! status, and the solver result):
//!
//! | line     | C export                                                  | Rust core              |
//! |----------|-----------------------------------------------------------|------------------------|
//! | `CASE`   | `sinew_two_bone_ik_solve`                                 | `TwoBoneIk::solve`     |
//! | `POSE`   | `sinew_two_bone_ik_solve_pose`                            | `TwoBoneIk::solve_pose`|
//! | `CHAIN`  | `sinew_fabrik_solve`, `sinew_ccd_solve`                   | `Fabrik`/`Ccd::solve`  |
//! | `CHPOSE` | `sinew_fabrik_solve_pose`, `sinew_ccd_solve_pose`         | `*::solve_pose`        |
//! | `APPLY`  | `sinew_pose_apply_constraints`                            | `Pose::apply_constraint` |
//! | `HANDM`  | `sinew_hand_ik_retargeting_apply_model`                   | `HandIkRetargeting::apply_model` |
//! | `HANDP`  | `sinew_hand_ik_retargeting_apply_pose`                    | `HandIkRetargeting::apply_pose` |
//! | `BLEND`  | `sinew_pose_blend` (out distinct, == a, == b, a == b == out) | `Pose::blend`       |
//! | `LAYERS` | `sinew_pose_blend_layers`                                 | `Pose::blend_layers`   |
//! | `ADDMAKE`| `sinew_pose_make_additive`                                | `Pose::make_additive`  |
//! | `ADDAPPLY`| `sinew_pose_apply_additive` (out distinct or == base)    | `Pose::add_to`         |
//! | `MASK`   | `sinew_joint_mask_create{,_subtree}`, `set_weight{,s}`, `get_weights` | `JointMask` |
//! | `CLIP`   | `sinew_clip_create`, `set_*_track`, `clear_track`, `cursor_create`, `sample` | `Clip`, `Track`, `ClipCursor` |
//! | `FRAMES` | `sinew_clip_create_from_frames`, `duration`, `sample`      | `Clip::from_frames`    |
//! | `XFADE`  | `sinew_crossfade_*` (play, fade_to, update, get_pose, get_weights, fade_count) | `Crossfade` |
//!
//! A line is a keyword, an id, then tagged fields (`S ..`, `IN n ..`, `OUT ..`, ...); `-` stands
//! for NULL. To cover a new export, print a new keyword from C (counting it in a `LINES` line)
//! and add a checker to [`LINE_KINDS`]. Beyond parity, the chain checkers verify that every
//! joint constraint holds on the output, and the C program checks that
//! `sinew_pose_blend_layers_additive` gives each `LAYERS` case's result bit for bit (without
//! additive layers) and that result with `sinew_pose_apply_additive` applied (with one): equal,
//! through those lines, to the Rust core.
//!
//! Which `libsinew.so`: the one `tests/common/native.rs` finds (built with the rlib this test
//! links).
//!
//! `SINEW_ABI_TEST_VERBOSE=1` is passed through to the C program, which then prints every error
//! message. `CC`/`CFLAGS` are honoured through the `cc` crate.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use sinew::ffi::SinewStatus;
use sinew::ik::CcdJoint;
use sinew::{
    BlendSpace, Ccd, CcdSettings, ChainTarget, Clip, ClipCursor, Crossfade, EndRotation, Fabrik,
    FabrikSettings, FadeCurve, HandIkRetargeting, HandIkRetargetingSettings, HandPair, IkResult,
    Interpolation, JointConstraint, JointMask, Layer, Limit, Pose, Property, Quat, Skeleton, Track,
    Transform, TwoBoneIk, TwoBoneIkSettings, TwoBoneTarget, Vec3,
};

mod common;

use common::native;
use common::solvers::Solver;

const MANIFEST_DIR: &str = env!("CARGO_MANIFEST_DIR");

/// Outputs must agree within this (relative to the magnitude, for huge-input cases).
const TOLERANCE: f32 = 1e-6;

/// A constrained joint's output may lie this far (radians) outside its constraint.
const CONSTRAINT_SLACK: f32 = 1e-3;
/// How far past its rotation limit (radians) a CCD joint may end: rounding.
const LIMIT_SLACK: f32 = 1e-3;

/// Compiles every `.c` file of `tests/c/` (the program's main and one file per job) into one
/// program.
fn compile(out_dir: &Path) -> PathBuf {
    let manifest = Path::new(MANIFEST_DIR);
    let dir = manifest.join("tests/c");
    let mut sources: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("listing {}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "c"))
        .collect();
    sources.sort();
    let exe = out_dir.join("abi_test");
    let mut cmd = native::compiler().debug(true).get_compiler().to_command();
    cmd.args(["-std=c99", "-Wall", "-Wextra", "-Werror"])
        .arg("-I")
        .arg(manifest.join("include"))
        .args(&sources)
        .arg("-o")
        .arg(&exe);
    native::link_sinew(&mut cmd);
    native::build(&mut cmd, "the C compiler");
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

    /// A parity line's tokens after its `keyword` and id, and the case's name: `name` and the
    /// id.
    fn parity(line: &'a str, keyword: &str, name: &str) -> (Self, String) {
        let mut t = Self::new(line);
        t.tag(keyword);
        let id: u32 = t.parse();
        (t, format!("{name} {id}"))
    }

    /// [`Tokens::parity`] for a line that opens with a skeleton ([`Tokens::skeleton`]): the
    /// tokens after it, the case's name and the skeleton.
    fn parity_skeleton(line: &'a str, keyword: &str, name: &str) -> (Self, String, Arc<Skeleton>) {
        let (mut t, what) = Self::parity(line, keyword, name);
        let (skeleton, _) = t.skeleton(&what);
        (t, what, skeleton)
    }

    /// [`Tokens::parity`] for a line that opens with a pose ([`Tokens::pose`]): the tokens
    /// after it, the case's name, the pose and its joint names.
    fn parity_pose(line: &'a str, keyword: &str, name: &str) -> (Self, String, Pose, Vec<&'a str>) {
        let (mut t, what) = Self::parity(line, keyword, name);
        let (pose, names) = t.pose(&what);
        (t, what, pose, names)
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

    fn flag(&mut self) -> bool {
        flag(self.parse())
    }

    fn end_rotation(&mut self) -> EndRotation {
        let values = [
            EndRotation::KeepModel,
            EndRotation::CopyEffector,
            EndRotation::KeepLocal,
        ];
        decode("end_rotation", self.parse(), &values)
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

    /// `OUT <n transforms> MODEL <n transforms>`: a pose's local and model transforms.
    fn local_and_model(&mut self, n: usize) -> (Vec<Transform>, Vec<Transform>) {
        self.tag("OUT");
        let local = self.transforms(n);
        self.tag("MODEL");
        (local, self.transforms(n))
    }

    /// `TAG n` and n transforms.
    fn counted_transforms(&mut self, tag: &str) -> Vec<Transform> {
        self.tag(tag);
        let n = self.parse();
        self.transforms(n)
    }

    /// `TAG n` and n indices.
    fn indices(&mut self, tag: &str) -> Vec<u32> {
        self.tag(tag);
        let n: usize = self.parse();
        (0..n).map(|_| self.parse()).collect()
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
        TwoBoneIkSettings {
            weight: self.f32(),
            allow_stretching: self.flag(),
            start_stretch_ratio: self.f32(),
            max_stretch_scale: self.f32(),
            end_rotation: self.end_rotation(),
            soften: self.f32(),
            keep_twist: self.flag(),
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

    /// `E x y z R (x y z w | -)`.
    fn chain_target(&mut self) -> ChainTarget {
        self.tag("E");
        let position = self.vec3();
        self.tag("R");
        let rotation = self.optional(Self::quat);
        ChainTarget { position, rotation }
    }

    fn result(&mut self) -> (u32, f32, u32) {
        self.tag("RES");
        (self.parse(), self.f32(), self.parse())
    }

    /// [`Tokens::result`], the end of the line.
    fn last_result(mut self) -> (u32, f32, u32) {
        let result = self.result();
        self.end();
        result
    }

    fn status(&mut self) -> i32 {
        self.tag("ST");
        self.parse()
    }

    /// `NAMES n <names> PAR <n parents> REST <n transforms>`: a skeleton, checked to round-trip
    /// names.
    fn skeleton(&mut self, what: &str) -> (Arc<Skeleton>, Vec<&'a str>) {
        self.tag("NAMES");
        let n: usize = self.parse();
        let names: Vec<&str> = (0..n).map(|_| self.word()).collect();
        self.tag("PAR");
        let parents: Vec<i32> = (0..n).map(|_| self.parse()).collect();
        self.tag("REST");
        let rest = self.transforms(n);
        let skeleton = Skeleton::new(&parents, &rest, Some(&names))
            .unwrap_or_else(|e| panic!("{what}: skeleton: {e}"));
        for (i, name) in names.iter().enumerate() {
            assert_eq!(
                skeleton.find_joint(name),
                Some(i),
                "{what}: find_joint({name})"
            );
        }
        (Arc::new(skeleton), names)
    }

    /// `NAMES n <names> PAR <n parents> REST <n transforms> LOCAL <n transforms>`: a skeleton
    /// and a pose of it, checked to round-trip names.
    fn pose(&mut self, what: &str) -> (Pose, Vec<&'a str>) {
        let (skeleton, names) = self.skeleton(what);
        self.tag("LOCAL");
        let local = self.transforms(names.len());
        let mut pose = Pose::new(skeleton);
        pose.set_local(&local)
            .unwrap_or_else(|e| panic!("{what}: set_local: {e}"));
        (pose, names)
    }

    /// `TAG n <n transforms>`: a pose of `skeleton` holding exactly these local transforms (as
    /// C read them back with `sinew_pose_get_local`, so not renormalized again).
    fn exact_pose(&mut self, tag: &str, skeleton: &Arc<Skeleton>) -> Pose {
        let local = self.counted_transforms(tag);
        let mut pose = Pose::new(skeleton.clone());
        assert_eq!(local.len(), pose.joint_count(), "{tag} in: {}", self.line);
        pose.set_local(&local).unwrap();
        pose
    }

    /// One [`Tokens::exact_pose`] per tag, in order.
    fn exact_poses<const N: usize>(
        &mut self,
        tags: [&str; N],
        skeleton: &Arc<Skeleton>,
    ) -> [Pose; N] {
        tags.map(|tag| self.exact_pose(tag, skeleton))
    }

    /// `MASK -` (NULL) or `MASK n <n weights>`: a mask of `skeleton` with exactly these weights.
    fn mask(&mut self, skeleton: &Skeleton) -> Option<JointMask> {
        self.tag("MASK");
        self.optional(|t| {
            let n: usize = t.parse();
            let weights: Vec<f32> = (0..n).map(|_| t.f32()).collect();
            let mut mask = JointMask::uniform(skeleton, 0.0).expect("uniform mask");
            mask.set_weights(&weights)
                .unwrap_or_else(|e| panic!("mask weights {weights:?}: {e} in: {}", t.line));
            mask
        })
    }

    /// `n` floats.
    fn floats(&mut self, n: usize) -> Vec<f32> {
        (0..n).map(|_| self.f32()).collect()
    }

    /// A clip: `DUR d CST st TRACKS k` then k edits, each `J joint P prop I interp N n TIMES <n>
    /// VAL <n values> TAN (- | <n in> <n out>) ST st` or `CLR joint prop ST st` (values have 4
    /// components for rotations, 3 otherwise).
    fn clip_spec(&mut self) -> ClipSpec {
        self.tag("DUR");
        let duration = self.f32();
        let status = self.parse_tagged("CST");
        self.tag("TRACKS");
        let k: usize = self.parse();
        let edits = (0..k)
            .map(|_| match self.word() {
                "CLR" => TrackEdit {
                    clear: true,
                    joint: self.parse(),
                    property: self.parse(),
                    interpolation: 0,
                    times: Vec::new(),
                    values: Vec::new(),
                    tangents: None,
                    status: self.status(),
                },
                "J" => {
                    let joint = self.parse();
                    let property: i32 = self.parse_tagged("P");
                    let interpolation = self.parse_tagged("I");
                    let n: usize = self.parse_tagged("N");
                    let c = if property == 1 { 4 } else { 3 };
                    self.tag("TIMES");
                    let times = self.floats(n);
                    self.tag("VAL");
                    let values = self.floats(n * c);
                    self.tag("TAN");
                    let tangents = self.optional(|t| (t.floats(n * c), t.floats(n * c)));
                    TrackEdit {
                        clear: false,
                        joint,
                        property,
                        interpolation,
                        times,
                        values,
                        tangents,
                        status: self.status(),
                    }
                }
                w => panic!("expected J or CLR, got {w:?} in: {}", self.line),
            })
            .collect();
        ClipSpec {
            duration,
            status,
            edits,
        }
    }

    /// `TAG value`.
    fn parse_tagged<T: std::str::FromStr>(&mut self, tag: &str) -> T {
        self.tag(tag);
        self.parse()
    }

    /// A `SinewJointConstraint` (`C type limit_twist <reference> <axis> h1 h2 min max`) or `-`.
    fn constraint(&mut self) -> Option<ConstraintFields> {
        self.optional(|t| {
            t.tag("C");
            ConstraintFields {
                kind: t.parse(),
                limit_twist: t.parse(),
                reference: t.quat(),
                axis: t.vec3(),
                half_angle_1: t.f32(),
                half_angle_2: t.f32(),
                min: t.f32(),
                max: t.f32(),
            }
        })
    }

    /// `FS ..` (FABRIK) or `CS ..` (CCD) settings, then `MAXJ m`.
    fn chain_solver(&mut self) -> (ChainSettings, usize) {
        let settings = match self.word() {
            "FS" => ChainSettings::Fabrik(FabrikSettings {
                precision: self.f32(),
                relative_precision: self.flag(),
                max_iterations: self.parse(),
                stop_when_stalled: self.flag(),
                end_rotation: self.end_rotation(),
            }),
            "CS" => ChainSettings::Ccd(CcdSettings {
                precision: self.f32(),
                relative_precision: self.flag(),
                max_iterations: self.parse(),
                start_from_tail: self.flag(),
                fix_root: self.flag(),
                stop_when_stalled: self.flag(),
                end_rotation: self.end_rotation(),
            }),
            w => panic!("expected FS or CS, got {w:?} in: {}", self.line),
        };
        self.tag("MAXJ");
        (settings, self.parse())
    }

    /// `K <n constraints>` and, for CCD, `JT <n (limit weight) pairs>`.
    fn chain_joints(&mut self, settings: &ChainSettings, n: usize) -> ChainJoints {
        self.tag("K");
        let constraints = (0..n).map(|_| self.constraint()).collect();
        let tuning = match settings {
            ChainSettings::Fabrik(_) => Vec::new(),
            ChainSettings::Ccd(_) => {
                self.tag("JT");
                (0..n)
                    .map(|_| CcdJoint {
                        rotation_limit_degrees: self.f32(),
                        weight: self.f32(),
                    })
                    .collect()
            }
        };
        ChainJoints {
            constraints,
            tuning,
        }
    }

    /// `HS weight alpha.x alpha.y alpha.z H right_fk left_fk right_ik left_ik`.
    fn hand_settings(&mut self) -> (HandIkRetargetingSettings, HandPair) {
        self.tag("HS");
        let settings = HandIkRetargetingSettings {
            hand_fk_weight: self.f32(),
            per_axis_alpha: self.vec3(),
        };
        self.tag("H");
        let hands = HandPair {
            right_fk: self.parse(),
            left_fk: self.parse(),
            right_ik: self.parse(),
            left_ik: self.parse(),
        };
        (settings, hands)
    }

    /// `ST st OUT n <n>`, the end of a line: the status and output transforms of a call.
    fn status_and_out(self) -> (i32, Vec<Transform>) {
        let mut t = self;
        let status = t.status();
        let out = t.counted_transforms("OUT");
        t.end();
        (status, out)
    }

    fn end(mut self) {
        assert!(
            self.words.next().is_none(),
            "trailing tokens in: {}",
            self.line
        );
    }
}

/// The fields of a `SinewJointConstraint`, mapped to the core as the header documents them.
#[derive(Clone, Copy, Debug)]
struct ConstraintFields {
    kind: i32,
    limit_twist: u32,
    reference: Quat,
    axis: Vec3,
    half_angle_1: f32,
    half_angle_2: f32,
    min: f32,
    max: f32,
}

impl ConstraintFields {
    fn build(&self) -> sinew::Result<JointConstraint> {
        let range = (self.min, self.max);
        let limit = match self.kind {
            1 => Limit::Cone {
                half_angle_1: self.half_angle_1,
                half_angle_2: self.half_angle_2,
                twist: match self.limit_twist {
                    0 => None,
                    1 => Some(range),
                    v => panic!("limit_twist {v} in a parity line"),
                },
            },
            2 => Limit::Hinge {
                min: self.min,
                max: self.max,
            },
            3 => Limit::Twist {
                min: self.min,
                max: self.max,
            },
            k => panic!("constraint type {k} in a parity line"),
        };
        JointConstraint::new(self.reference, self.axis, limit)
    }
}

enum ChainSettings {
    Fabrik(FabrikSettings),
    Ccd(CcdSettings),
}

struct ChainJoints {
    constraints: Vec<Option<ConstraintFields>>,
    /// CCD only.
    tuning: Vec<CcdJoint>,
}

/// The FABRIK or CCD solver the C side configured (constraints and tuning included), with the
/// constraints it was given; or the first error setting it up.
fn chain_solver(
    settings: &ChainSettings,
    max_joints: usize,
    joints: &ChainJoints,
) -> sinew::Result<(Solver, Vec<Option<JointConstraint>>)> {
    let mut solver = match settings {
        ChainSettings::Fabrik(s) => Solver::Fabrik(Fabrik::new(*s, max_joints)?),
        ChainSettings::Ccd(s) => Solver::Ccd(Ccd::new(*s, max_joints)?),
    };
    let mut built = Vec::new();
    for (j, c) in joints.constraints.iter().enumerate() {
        let c = c.as_ref().map(ConstraintFields::build).transpose()?;
        solver.set_constraint(j, c)?;
        built.push(c);
    }
    if let Solver::Ccd(s) = &mut solver {
        for (j, tuning) in joints.tuning.iter().enumerate() {
            s.set_joint(j, *tuning)?;
        }
    }
    Ok((solver, built))
}

/// [`chain_solver`], or `None` after recording that the core rejects what C configured.
fn configured_chain_solver(
    cmp: &mut Compare,
    what: &str,
    settings: &ChainSettings,
    max_joints: usize,
    joints: &ChainJoints,
) -> Option<(Solver, Vec<Option<JointConstraint>>)> {
    match chain_solver(settings, max_joints, joints) {
        Ok(solver) => Some(solver),
        Err(e) => {
            cmp.property(what, format!("C configured a solver the core rejects: {e}"));
            None
        }
    }
}

// ------------------------------------------------------------------------------ comparison

#[derive(Default)]
struct Compare {
    floats: usize,
    identical: usize,
    max_diff: f32,
    mismatches: Vec<String>,
    /// The keyword of the line being checked, and per keyword: floats compared, bit-identical
    /// ones, largest difference.
    keyword: &'static str,
    per_kind: BTreeMap<&'static str, (usize, usize, f32)>,
}

impl Compare {
    fn float(&mut self, what: &str, c: f32, rust: f32) {
        self.floats += 1;
        let kind = self.per_kind.entry(self.keyword).or_default();
        kind.0 += 1;
        if c.to_bits() == rust.to_bits() {
            self.identical += 1;
            kind.1 += 1;
            return;
        }
        let diff = (c - rust).abs();
        if diff.is_finite() {
            self.max_diff = self.max_diff.max(diff);
            kind.2 = kind.2.max(diff);
        }
        if diff.is_nan() || diff > TOLERANCE * rust.abs().max(1.0) {
            self.mismatches
                .push(format!("{what}: C {c:e} vs Rust {rust:e}"));
        }
    }

    /// The hand offset C printed, if it asked for one.
    fn offset(&mut self, what: &str, c: Option<Vec3>, rust: Vec3) {
        let Some(c) = c else { return };
        for (k, (x, y)) in c.to_array().into_iter().zip(rust.to_array()).enumerate() {
            self.float(&format!("{what} offset component {k}"), x, y);
        }
    }

    /// Lists that must have the same length (of `items`), compared item by item by `item`.
    fn lists<T>(
        &mut self,
        (what, items): (&str, &str),
        c: &[T],
        rust: &[T],
        mut item: impl FnMut(&mut Self, usize, &T, &T),
    ) {
        if c.len() != rust.len() {
            self.mismatches.push(format!(
                "{what}: C wrote {} {items}, Rust {}",
                c.len(),
                rust.len()
            ));
            return;
        }
        for (i, (a, b)) in c.iter().zip(rust).enumerate() {
            item(self, i, a, b);
        }
    }

    fn transforms(&mut self, what: &str, c: &[Transform], rust: &[Transform]) {
        self.lists((what, "transforms"), c, rust, |cmp, i, a, b| {
            for (k, (x, y)) in components(a).into_iter().zip(components(b)).enumerate() {
                cmp.float(&format!("{what}[{i}] field {k}"), x, y);
            }
        });
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

    /// Compares the statuses of a call; when both sides succeeded, `ok` compares the outputs
    /// (given Rust's result), and when both failed, what C wrote back (`out`) must be what it
    /// passed in (`before`), as Rust leaves its own.
    fn outcome<T>(
        &mut self,
        what: &str,
        c: i32,
        rust: sinew::Result<T>,
        (out, before): (&[Transform], &[Transform]),
        ok: impl FnOnce(&mut Self, T),
    ) {
        if self.status(what, c, &rust) {
            ok(self, rust.expect("ok"));
        } else if rust.is_err() {
            self.transforms(&format!("{what} (error, untouched)"), out, before);
        }
    }

    /// Runs `job` on a copy of `input` and compares it with what C wrote back (`out`, after a call
    /// that returned `status`), as [`Compare::outcome`]; `more` compares the job's result.
    fn on_copy<T>(
        &mut self,
        what: &str,
        (status, out): (i32, &[Transform]),
        input: &[Transform],
        job: impl FnOnce(&mut [Transform]) -> sinew::Result<T>,
        more: impl FnOnce(&mut Self, &[Transform], T),
    ) {
        let mut copy = input.to_vec();
        let outcome = job(&mut copy);
        self.outcome(what, status, outcome, (out, input), |cmp, r| {
            cmp.transforms(what, out, &copy);
            more(cmp, &copy, r);
        });
    }

    /// Compares the model transforms C wrote with those of the Rust `pose`; a pose with no
    /// finite model is a property that does not hold (`which` pose: "solved", "moved").
    fn model(&mut self, what: &str, c: &[Transform], pose: &mut Pose, which: &str) {
        match pose.model() {
            Ok(model) => self.transforms(&format!("{what} model"), c, model),
            Err(e) => self.property(what, format!("{which} pose has no finite model: {e}")),
        }
    }

    /// Compares statuses; true when both sides succeeded.
    fn status<T>(&mut self, what: &str, c: i32, rust: &Result<T, sinew::Error>) -> bool {
        let code = match rust {
            Ok(_) => SinewStatus::Ok as i32,
            Err(e) => SinewStatus::from(e.kind()) as i32,
        };
        if code != c {
            let rust = rust
                .as_ref()
                .err()
                .map_or("Ok".into(), |e| format!("{e:?}"));
            self.mismatches
                .push(format!("{what}: status C {c} vs Rust {rust}"));
        }
        code == SinewStatus::Ok as i32 && c == code
    }

    /// Float lists of the same length, element by element.
    fn floats(&mut self, what: &str, c: &[f32], rust: &[f32]) {
        self.lists((what, "values"), c, rust, |cmp, i, &x, &y| {
            cmp.float(&format!("{what}[{i}]"), x, y);
        });
    }

    /// A count or flag that must be equal.
    fn same<T: PartialEq + std::fmt::Debug>(&mut self, what: &str, c: T, rust: T) {
        if c != rust {
            self.mismatches
                .push(format!("{what}: C {c:?} vs Rust {rust:?}"));
        }
    }

    /// A property of the library's output that does not hold (found on both sides alike).
    fn property(&mut self, what: &str, message: String) {
        self.mismatches.push(format!("{what}: {message}"));
    }

    /// Joint `i`'s local rotation lies within its constraint.
    fn within(&mut self, what: &str, i: usize, c: &JointConstraint, local: Quat) {
        let v = c.violation(local);
        if v.is_nan() || v > CONSTRAINT_SLACK {
            self.property(
                what,
                format!("joint {i} is {v} rad outside its constraint {c:?}"),
            );
        }
    }

    /// As documented for `sinew_ccd_set_joint`: CCD chain joint `k` (not the tip, whose
    /// rotation follows `end_rotation`) ends within its rotation limit of its input local
    /// rotation `input`, or of that rotation's projection onto its constraint `c` where the
    /// input breaks it. `i` names the joint in messages.
    fn limited(&mut self, what: &str, i: usize, tuning: &Tuned, input: Quat, local: Quat) {
        let Tuned { joint, limit, c } = *tuning;
        let reference = c.map_or(input, |c| c.project(input));
        let turned = sinew::rotation::angle(reference.conjugate() * local);
        if turned.is_nan() || turned > limit.rotation_limit_degrees.to_radians() + LIMIT_SLACK {
            self.property(
                what,
                format!(
                    "joint {i} (chain joint {joint}) turned {}°, limit {}°",
                    turned.to_degrees(),
                    limit.rotation_limit_degrees
                ),
            );
        }
    }
}

/// What [`Compare::limited`] checks a CCD chain joint against.
struct Tuned<'a> {
    /// The chain joint.
    joint: usize,
    limit: CcdJoint,
    c: Option<&'a JointConstraint>,
}

fn components(t: &Transform) -> [f32; 10] {
    let (p, q, s) = (t.translation, t.rotation, t.scale);
    [p.x, p.y, p.z, q.x, q.y, q.z, q.w, s.x, s.y, s.z]
}

// ------------------------------------------------------------------------------ checkers

/// What to do with one parity line, and how many such lines a run must have at least.
struct LineKind {
    keyword: &'static str,
    check: fn(&str, &mut Compare),
    at_least: usize,
}

const LINE_KINDS: &[LineKind] = &[
    LineKind {
        keyword: "CASE",
        check: check_case,
        at_least: 200,
    },
    LineKind {
        keyword: "POSE",
        check: check_pose,
        at_least: 20,
    },
    LineKind {
        keyword: "CHAIN",
        check: check_chain,
        at_least: 600,
    },
    LineKind {
        keyword: "CHPOSE",
        check: check_chain_pose,
        at_least: 30,
    },
    LineKind {
        keyword: "APPLY",
        check: check_apply,
        at_least: 20,
    },
    LineKind {
        keyword: "HANDM",
        check: check_hand_model,
        at_least: 30,
    },
    LineKind {
        keyword: "HANDP",
        check: check_hand_pose,
        at_least: 20,
    },
    LineKind {
        keyword: "BLEND",
        check: check_blend,
        at_least: 150,
    },
    LineKind {
        keyword: "LAYERS",
        check: check_layers,
        at_least: 90,
    },
    LineKind {
        keyword: "ADDMAKE",
        check: check_make_additive,
        at_least: 80,
    },
    LineKind {
        keyword: "ADDAPPLY",
        check: check_apply_additive,
        at_least: 80,
    },
    LineKind {
        keyword: "MASK",
        check: check_mask,
        at_least: 40,
    },
    LineKind {
        keyword: "CLIP",
        check: check_clip,
        at_least: 50,
    },
    LineKind {
        keyword: "XFADE",
        check: check_crossfade,
        at_least: 25,
    },
    LineKind {
        keyword: "FRAMES",
        check: check_frames,
        at_least: 40,
    },
];

/// `CASE id S .. IN <3 transforms> E .. R .. P .. ST st OUT <3 transforms> RES ..`
fn check_case(line: &str, cmp: &mut Compare) {
    let (mut t, what) = Tokens::parity(line, "CASE", "case");
    let settings = t.settings();
    t.tag("IN");
    let input: [Transform; 3] = std::array::from_fn(|_| t.transform());
    let target = t.target();
    let status = t.status();
    t.tag("OUT");
    let out = t.transforms(3);
    let result = t.result();
    t.end();

    let solver = TwoBoneIk::new(settings).unwrap_or_else(|e| panic!("{what}: settings: {e}"));
    let solve = |c: &mut [Transform]| solver.solve(c.try_into().expect("3 joints"), &target);
    cmp.on_copy(&what, (status, &out), &input, solve, |cmp, _, r| {
        cmp.result(&what, result, r);
    });
}

/// `POSE id NAMES n <names> PAR <n> REST <n> LOCAL <n> S .. J name i name i name i E .. R .. P ..
/// ST st OUT <n> MODEL <n> RES ..`
fn check_pose(line: &str, cmp: &mut Compare) {
    let (mut t, what, mut pose, names) = Tokens::parity_pose(line, "POSE", "pose case");
    let n = names.len();
    let settings = t.settings();
    t.tag("J");
    let mut joints = [0usize; 3];
    for j in &mut joints {
        let name = t.word();
        *j = t.parse();
        assert_eq!(names.get(*j), Some(&name), "{what}: joint name/index");
    }
    let target = t.target();
    let status = t.status();
    let (out_local, out_model) = t.local_and_model(n);
    let result = t.result();
    t.end();

    let solver = TwoBoneIk::new(settings).unwrap_or_else(|e| panic!("{what}: settings: {e}"));
    // The index type is inferred from `solve_pose` (it has been `usize` and `u32`).
    let indices = joints.map(|j| j.try_into().expect("joint index fits"));
    let before = pose.local().to_vec();
    let outcome = solver.solve_pose(&mut pose, indices, &target);
    cmp.outcome(&what, status, outcome, (&out_local, &before), |cmp, r| {
        cmp.transforms(&format!("{what} local"), &out_local, &pose.local().to_vec());
        cmp.transforms(
            &format!("{what} model"),
            &out_model,
            pose.model().expect("finite model"),
        );
        cmp.result(&what, result, r);
    });
}

fn solver_name(settings: &ChainSettings) -> &'static str {
    match settings {
        ChainSettings::Fabrik(_) => "FABRIK",
        ChainSettings::Ccd(_) => "CCD",
    }
}

/// `CHAIN id <FS|CS ..> MAXJ m IN n <n> K <n> [JT <n>] PARENT q|- E .. R .. ST st OUT n <n>
/// RES ..`
fn check_chain(line: &str, cmp: &mut Compare) {
    let (mut t, what) = Tokens::parity(line, "CHAIN", "case");
    let (settings, max_joints) = t.chain_solver();
    let what = format!("{} {what}", solver_name(&settings));
    let input = t.counted_transforms("IN");
    let joints = t.chain_joints(&settings, input.len());
    let configured = configured_chain_solver(cmp, &what, &settings, max_joints, &joints);
    t.tag("PARENT");
    let parent = t.optional(Tokens::quat);
    let target = t.chain_target();
    let status = t.status();
    let out = t.counted_transforms("OUT");
    let result = t.last_result();

    let Some((mut solver, constraints)) = configured else {
        return;
    };
    // As documented: NULL is the identity; a rotation of any length is renormalized.
    let parent = parent.map_or(Quat::IDENTITY, |q| {
        sinew::rotation::normalize_robust(q)
            .unwrap_or_else(|| panic!("{what}: unusable root parent rotation {q}"))
    });
    let solve = |c: &mut [Transform]| solver.solve(c, parent, &target);
    cmp.on_copy(&what, (status, &out), &input, solve, |cmp, chain, r| {
        cmp.result(&what, result, r);
        let mut parent_rotation = parent;
        let mut input_parent = parent;
        for (i, (joint, c)) in chain.iter().zip(&constraints).enumerate() {
            let local = parent_rotation.conjugate() * joint.rotation;
            if let Some(c) = c {
                cmp.within(&what, i, c, local);
            }
            if let Some(&limit) = joints.tuning.get(i).filter(|_| i + 1 < chain.len()) {
                let input_local = input_parent.conjugate() * input[i].rotation;
                let tuned = Tuned {
                    joint: i,
                    limit,
                    c: c.as_ref(),
                };
                cmp.limited(&what, i, &tuned, input_local, local);
            }
            parent_rotation = joint.rotation;
            input_parent = input[i].rotation;
        }
    });
}

/// `CHPOSE id NAMES .. PAR .. REST .. LOCAL .. <FS|CS ..> MAXJ m JOINTS k <k> K <k> [JT <k>]
/// E .. R .. ST st OUT <n> MODEL <n> RES ..`
fn check_chain_pose(line: &str, cmp: &mut Compare) {
    let (mut t, what, mut pose, names) = Tokens::parity_pose(line, "CHPOSE", "chain pose case");
    let n = names.len();
    let (settings, max_joints) = t.chain_solver();
    let what = format!("{} {what}", solver_name(&settings));
    let indices = t.indices("JOINTS");
    let joints = t.chain_joints(&settings, indices.len());
    let configured = configured_chain_solver(cmp, &what, &settings, max_joints, &joints);
    let target = t.chain_target();
    let status = t.status();
    let (out_local, out_model) = t.local_and_model(n);
    let result = t.last_result();

    let Some((mut solver, constraints)) = configured else {
        return;
    };
    let before = pose.local().to_vec();
    let outcome = solver.solve_pose(&mut pose, &indices, &target);
    cmp.outcome(&what, status, outcome, (&out_local, &before), |cmp, r| {
        cmp.transforms(&format!("{what} local"), &out_local, &pose.local().to_vec());
        cmp.result(&what, result, r);
        for (k, (&j, c)) in indices.iter().zip(&constraints).enumerate() {
            let local = pose.local().get(j as usize).rotation;
            if let Some(c) = c {
                cmp.within(&what, j as usize, c, local);
            }
            if let Some(&limit) = joints.tuning.get(k).filter(|_| k + 1 < indices.len()) {
                let tuned = Tuned {
                    joint: k,
                    limit,
                    c: c.as_ref(),
                };
                cmp.limited(
                    &what,
                    j as usize,
                    &tuned,
                    before[j as usize].rotation,
                    local,
                );
            }
        }
        cmp.model(&what, &out_model, &mut pose, "solved");
    });
}

/// `APPLY id NAMES .. PAR .. REST .. LOCAL .. LIST k (joint constraint)* ST st OUT <n>`
fn check_apply(line: &str, cmp: &mut Compare) {
    let (mut t, what, mut pose, names) = Tokens::parity_pose(line, "APPLY", "apply case");
    t.tag("LIST");
    let count: usize = t.parse();
    let list: Vec<(u32, ConstraintFields)> = (0..count)
        .map(|_| {
            let j = t.parse();
            (j, t.constraint().expect("a constraint, not NULL"))
        })
        .collect();
    let status = t.status();
    t.tag("OUT");
    let out_local = t.transforms(names.len());
    t.end();

    // As documented: every entry is validated before any is applied.
    let before = pose.local().to_vec();
    let validated: sinew::Result<Vec<(usize, JointConstraint)>> = list
        .iter()
        .map(|(j, c)| {
            pose.skeleton().check_joint(*j as usize)?;
            Ok((*j as usize, c.build()?))
        })
        .collect();
    let outcome = validated.and_then(|v| {
        for (j, c) in &v {
            pose.apply_constraint(*j, c)?;
        }
        Ok(v)
    });
    cmp.outcome(
        &what,
        status,
        outcome,
        (&out_local, &before),
        |cmp, applied| {
            cmp.transforms(&what, &out_local, &pose.local().to_vec());
            // The last constraint applied to each joint holds.
            for (k, (j, c)) in applied.iter().enumerate() {
                if !applied[k + 1..].iter().any(|(later, _)| later == j) {
                    cmp.within(&what, *j, c, pose.local().get(*j).rotation);
                }
            }
        },
    );
}

/// `HANDM id HS .. H .. IN n <n> BONES k <k> ST st OUT n <n> OFF v|-`
fn check_hand_model(line: &str, cmp: &mut Compare) {
    let (mut t, what) = Tokens::parity(line, "HANDM", "hand model case");
    let (settings, hands) = t.hand_settings();
    let input = t.counted_transforms("IN");
    let bones = t.indices("BONES");
    let status = t.status();
    let out = t.counted_transforms("OUT");
    t.tag("OFF");
    let offset = t.optional(Tokens::vec3);
    t.end();

    let node = HandIkRetargeting::new(settings).unwrap_or_else(|e| panic!("{what}: {e}"));
    let apply = |m: &mut [Transform]| node.apply_model(m, &hands, &bones);
    cmp.on_copy(&what, (status, &out), &input, apply, |cmp, _, r| {
        cmp.offset(&what, offset, r);
    });
}

/// `HANDP id NAMES .. PAR .. REST .. LOCAL .. HS .. H .. BONES k <k> ST st OUT <n> MODEL <n>
/// OFF v|-`
fn check_hand_pose(line: &str, cmp: &mut Compare) {
    let (mut t, what, mut pose, names) = Tokens::parity_pose(line, "HANDP", "hand pose case");
    let n = names.len();
    let (settings, hands) = t.hand_settings();
    let bones = t.indices("BONES");
    let status = t.status();
    let (out_local, out_model) = t.local_and_model(n);
    t.tag("OFF");
    let offset = t.optional(Tokens::vec3);
    t.end();

    let node = HandIkRetargeting::new(settings).unwrap_or_else(|e| panic!("{what}: {e}"));
    let before = pose.local().to_vec();
    let outcome = node.apply_pose(&mut pose, &hands, &bones);
    cmp.outcome(&what, status, outcome, (&out_local, &before), |cmp, r| {
        cmp.transforms(&format!("{what} local"), &out_local, &pose.local().to_vec());
        cmp.offset(&what, offset, r);
        cmp.model(&what, &out_model, &mut pose, "moved");
    });
}

// ------------------------------------------------------------------------------ blending

/// One `sinew_clip_set_*_track` or `sinew_clip_clear_track` call of a parity line.
struct TrackEdit {
    clear: bool,
    joint: u32,
    /// A `SinewTrackProperty`.
    property: i32,
    /// A `SinewInterpolation`.
    interpolation: i32,
    times: Vec<f32>,
    /// Flat components: 4 per key for rotations, 3 otherwise.
    values: Vec<f32>,
    tangents: Option<(Vec<f32>, Vec<f32>)>,
    status: i32,
}

/// A clip of a parity line: its duration, the status creating it, then every track edit.
struct ClipSpec {
    duration: f32,
    status: i32,
    edits: Vec<TrackEdit>,
}

/// The value a C enum's `code` stands for: `values` in the enum's order.
fn decode<T: Copy>(what: &str, code: i64, values: &[T]) -> T {
    usize::try_from(code)
        .ok()
        .and_then(|i| values.get(i).copied())
        .unwrap_or_else(|| panic!("{what} {code} in a parity line"))
}

fn property(value: i32) -> Property {
    let values = [Property::Translation, Property::Rotation, Property::Scale];
    decode("property", value.into(), &values)
}

fn interpolation(value: i32) -> Interpolation {
    let values = [
        Interpolation::Step,
        Interpolation::Linear,
        Interpolation::Slerp,
        Interpolation::Cubic,
    ];
    decode("interpolation", value.into(), &values)
}

fn vec3s(flat: &[f32]) -> Vec<Vec3> {
    flat.chunks_exact(3)
        .map(|c| Vec3::new(c[0], c[1], c[2]))
        .collect()
}

fn quats(flat: &[f32]) -> Vec<Quat> {
    flat.chunks_exact(4)
        .map(|c| Quat::from_xyzw(c[0], c[1], c[2], c[3]))
        .collect()
}

/// A track from C's arrays, built as the C ABI documents it (`Track::new` over the converted
/// keys, tangents given exactly when C passed both arrays).
fn track<T: sinew::clip::Keyframe>(
    e: &TrackEdit,
    duration: f32,
    convert: fn(&[f32]) -> Vec<T>,
) -> sinew::Result<Track<T>> {
    let values = convert(&e.values);
    let tangents = e.tangents.as_ref().map(|(i, o)| (convert(i), convert(o)));
    Track::new(
        interpolation(e.interpolation),
        &e.times,
        &values,
        tangents.as_ref().map(|(i, o)| (&i[..], &o[..])),
        duration,
    )
}

fn apply_edit(clip: &mut Clip, e: &TrackEdit) -> sinew::Result<()> {
    let joint = e.joint as usize;
    if e.clear {
        return clip.clear_track(joint, property(e.property));
    }
    let duration = clip.duration();
    match property(e.property) {
        Property::Translation => clip.set_translation_track(joint, track(e, duration, vec3s)?),
        Property::Rotation => clip.set_rotation_track(joint, track(e, duration, quats)?),
        Property::Scale => clip.set_scale_track(joint, track(e, duration, vec3s)?),
    }
}

/// Builds a clip as C did, comparing the status of its creation and of every edit; `None`
/// when it could not be created.
fn build_clip(cmp: &mut Compare, what: &str, skeleton: &Skeleton, spec: &ClipSpec) -> Option<Clip> {
    let created = Clip::new(skeleton, spec.duration);
    if !cmp.status(&format!("{what} clip_create"), spec.status, &created) {
        return None;
    }
    let mut clip = created.expect("ok");
    cmp.float(&format!("{what} duration"), spec.duration, clip.duration());
    for (k, e) in spec.edits.iter().enumerate() {
        let outcome = apply_edit(&mut clip, e);
        cmp.status(&format!("{what} track edit {k}"), e.status, &outcome);
    }
    Some(clip)
}

fn blend_space(value: i32) -> BlendSpace {
    let values = [BlendSpace::Local, BlendSpace::ModelRotation];
    decode("space", value.into(), &values)
}

fn fade_curve(value: i32) -> FadeCurve {
    let values = [FadeCurve::Linear, FadeCurve::Smooth, FadeCurve::Inertialize];
    decode("curve", value.into(), &values)
}

fn flag(value: u32) -> bool {
    decode("flag", value.into(), &[false, true])
}

/// Runs a job on `pose` and compares its output pose with what C wrote (`out`, after a call that
/// returned `status`): Rust's pose on success, the pose before the call when both failed.
fn pose_outcome<T>(
    cmp: &mut Compare,
    what: &str,
    (status, out): (i32, &[Transform]),
    pose: &mut Pose,
    job: impl FnOnce(&mut Pose) -> sinew::Result<T>,
) {
    let before = pose.local().to_vec();
    let outcome = job(pose);
    cmp.outcome(what, status, outcome, (out, &before), |cmp, _| {
        cmp.transforms(what, out, &pose.local().to_vec());
    });
}

/// `BLEND id NAMES .. PAR .. REST .. A n <n> B n <n> OUTIN n <n> T t MASK .. SPACE s ALIAS k
/// ST st OUT n <n>`. ALIAS: 0 distinct output, 1 out == a, 2 out == b, 3 a == b == out; every
/// form but the last must give the blend into a distinct pose (`Pose::blend`). For a == b == out
/// the header's rule is that a pose blended with itself is itself: the call validates (as
/// `Pose::blend` does) and leaves the pose bit for bit.
fn check_blend(line: &str, cmp: &mut Compare) {
    let (mut t, what, skeleton) = Tokens::parity_skeleton(line, "BLEND", "blend case");
    let [a, b, mut pose] = t.exact_poses(["A", "B", "OUTIN"], &skeleton);
    let factor = t.parse_tagged("T");
    let mask = t.mask(&skeleton);
    let space = blend_space(t.parse_tagged("SPACE"));
    let alias: u32 = t.parse_tagged("ALIAS");
    let (status, out) = t.status_and_out();

    let what = format!("{what} (alias {alias}, {space:?})");
    pose_outcome(cmp, &what, (status, &out), &mut pose, |p| {
        let itself = p.local().to_vec();
        p.blend(&a, &b, factor, mask.as_ref(), space)?;
        if alias == 3 {
            // Unit rotations pass through `set_local` bit for bit.
            p.set_local(&itself)?;
        }
        Ok(())
    });
}

/// `LAYERS id NAMES .. PAR .. REST .. OUTIN n <n> THR thr L k (P n <n> W w MASK ..)* ST st
/// OUT n <n>`
fn check_layers(line: &str, cmp: &mut Compare) {
    let (mut t, what, skeleton) = Tokens::parity_skeleton(line, "LAYERS", "layers case");
    let mut pose = t.exact_pose("OUTIN", &skeleton);
    let threshold = t.parse_tagged("THR");
    let k: usize = t.parse_tagged("L");
    let inputs: Vec<(Pose, f32, Option<JointMask>)> = (0..k)
        .map(|_| {
            let pose = t.exact_pose("P", &skeleton);
            let weight = t.parse_tagged("W");
            (pose, weight, t.mask(&skeleton))
        })
        .collect();
    let (status, out) = t.status_and_out();

    let layers: Vec<Layer<'_>> = inputs
        .iter()
        .map(|(pose, weight, mask)| Layer {
            pose,
            weight: *weight,
            mask: mask.as_ref(),
        })
        .collect();
    pose_outcome(cmp, &what, (status, &out), &mut pose, |p| {
        p.blend_layers(&layers, threshold)
    });
}

/// `ADDMAKE id NAMES .. PAR .. REST .. P n <n> R n <n> OUTIN n <n> ST st OUT n <n>`
fn check_make_additive(line: &str, cmp: &mut Compare) {
    let (mut t, what, skeleton) = Tokens::parity_skeleton(line, "ADDMAKE", "make_additive case");
    let [p, r, mut delta] = t.exact_poses(["P", "R", "OUTIN"], &skeleton);
    let (status, out) = t.status_and_out();
    pose_outcome(cmp, &what, (status, &out), &mut delta, |d| {
        d.make_additive(&p, &r)
    });
}

/// `ADDAPPLY id NAMES .. PAR .. REST .. BASE n <n> D n <n> OUTIN n <n> W w MASK .. ALIAS k
/// ST st OUT n <n>`. ALIAS: 0 distinct, 1 out == base, 2 base == delta; every form must give
/// `Pose::add_to` into a distinct pose.
fn check_apply_additive(line: &str, cmp: &mut Compare) {
    let (mut t, what, skeleton) = Tokens::parity_skeleton(line, "ADDAPPLY", "apply_additive case");
    let [base, delta, mut pose] = t.exact_poses(["BASE", "D", "OUTIN"], &skeleton);
    let weight = t.parse_tagged("W");
    let mask = t.mask(&skeleton);
    let alias: u32 = t.parse_tagged("ALIAS");
    let (status, out) = t.status_and_out();

    let what = format!("{what} (alias {alias})");
    pose_outcome(cmp, &what, (status, &out), &mut pose, |p| {
        p.add_to(&base, &delta, weight, mask.as_ref())
    });
}

enum MaskOp {
    Set(u32, f32, i32),
    SetAll(Vec<f32>, i32),
}

/// `MASK id NAMES .. PAR .. REST .. MK (U value | S root depth) ST st OPS k (W joint w ST st |
/// A n <n weights> ST st)* OUT (n <n weights> | -)`
fn check_mask(line: &str, cmp: &mut Compare) {
    let (mut t, what, skeleton) = Tokens::parity_skeleton(line, "MASK", "mask case");
    t.tag("MK");
    let created = match t.word() {
        "U" => JointMask::uniform(&skeleton, t.f32()),
        "S" => {
            let root: u32 = t.parse();
            let depth: u32 = t.parse();
            JointMask::subtree(&skeleton, root as usize, depth)
        }
        w => panic!("expected U or S, got {w:?} in: {line}"),
    };
    let status = t.status();
    let n_ops: usize = t.parse_tagged("OPS");
    let ops: Vec<MaskOp> = (0..n_ops)
        .map(|_| match t.word() {
            "W" => {
                let joint = t.parse();
                let weight = t.f32();
                MaskOp::Set(joint, weight, t.status())
            }
            "A" => {
                let n = t.parse();
                let weights = t.floats(n);
                MaskOp::SetAll(weights, t.status())
            }
            w => panic!("expected W or A, got {w:?} in: {line}"),
        })
        .collect();
    t.tag("OUT");
    let out = t.optional(|t| {
        let n = t.parse();
        t.floats(n)
    });
    t.end();

    if !cmp.status(&format!("{what} create"), status, &created) {
        return;
    }
    let mut mask = created.expect("ok");
    for (k, op) in ops.iter().enumerate() {
        let (outcome, status) = match op {
            MaskOp::Set(j, w, st) => (mask.set_weight(*j as usize, *w), *st),
            MaskOp::SetAll(w, st) => (mask.set_weights(w), *st),
        };
        cmp.status(&format!("{what} op {k}"), status, &outcome);
    }
    match out {
        Some(out) => cmp.floats(&format!("{what} weights"), &out, mask.weights()),
        None => cmp.property(&what, "C printed no weights for a created mask".into()),
    }
}

/// One sample of a CLIP or FRAMES line: time, looping, through the cursor, status, pose.
type ClipSample = (f32, bool, bool, i32, Vec<Transform>);

/// `SAMPLES m (T t L looping C cursor ST st OUT n <n>)*`.
fn clip_samples(t: &mut Tokens<'_>) -> Vec<ClipSample> {
    let m: usize = t.parse_tagged("SAMPLES");
    (0..m)
        .map(|_| {
            let time = t.parse_tagged("T");
            let looping = flag(t.parse_tagged("L"));
            let cursor = flag(t.parse_tagged("C"));
            let status = t.status();
            (time, looping, cursor, status, t.counted_transforms("OUT"))
        })
        .collect()
}

/// Replays C's samples in order into one pose, with one cursor for those marked C 1.
fn check_samples(
    cmp: &mut Compare,
    what: &str,
    clip: &Clip,
    skeleton: Arc<Skeleton>,
    samples: &[ClipSample],
) {
    let mut cursor = ClipCursor::new(clip);
    let mut pose = Pose::new(skeleton);
    for (k, (time, looping, use_cursor, status, out)) in samples.iter().enumerate() {
        let what = format!("{what} sample {k} at {time} (looping {looping}, cursor {use_cursor})");
        pose_outcome(cmp, &what, (*status, out), &mut pose, |p| {
            clip.sample(*time, *looping, use_cursor.then_some(&mut cursor), p)
        });
    }
}

/// `CLIP id NAMES .. PAR .. REST .. <clip> SAMPLES m (T t L looping C cursor ST st OUT n <n>)*`:
/// C samples into one pose, with one cursor for the samples marked C 1, in order.
fn check_clip(line: &str, cmp: &mut Compare) {
    let (mut t, what, skeleton) = Tokens::parity_skeleton(line, "CLIP", "clip case");
    let spec = t.clip_spec();
    let samples = clip_samples(&mut t);
    t.end();

    let Some(clip) = build_clip(cmp, &what, &skeleton, &spec) else {
        return;
    };
    check_samples(cmp, &what, &clip, skeleton, &samples);
}

/// `FRAMES id NAMES .. PAR .. REST .. FC fc RATE r INTERP i WRAP w MASK (- | <n bytes>) FR m
/// <m transforms> CST st DUR d SAMPLES k (T t L looping C cursor ST st OUT n <n>)*`: a clip from
/// frames, sampled in order with one cursor for the samples marked C 1.
fn check_frames(line: &str, cmp: &mut Compare) {
    let (mut t, what, skeleton) = Tokens::parity_skeleton(line, "FRAMES", "frames case");
    let count: usize = t.parse_tagged("FC");
    let rate: f32 = t.parse_tagged("RATE");
    let kind = interpolation(t.parse_tagged("INTERP"));
    let wrap = flag(t.parse_tagged("WRAP"));
    t.tag("MASK");
    let n = skeleton.joint_count();
    let mask = t.optional(|t| (0..n).map(|_| flag(t.parse())).collect::<Vec<bool>>());
    let frames = t.counted_transforms("FR");
    let status = t.parse_tagged("CST");
    let duration: f32 = t.parse_tagged("DUR");
    let samples = clip_samples(&mut t);
    t.end();

    let created = Clip::from_frames(&skeleton, count, rate, &frames, mask.as_deref(), kind, wrap);
    if !cmp.status(&format!("{what} create_from_frames"), status, &created) {
        return;
    }
    let clip = created.expect("ok");
    cmp.float(&format!("{what} duration"), duration, clip.duration());
    check_samples(cmp, &what, &clip, skeleton, &samples);
}

/// `XFADE id NAMES .. PAR .. REST .. MAXF m CLIPS k <k clips> OPS q (PLAY c looping ST st |
/// FADE c duration curve looping ST st Q (0|1|-) | UPD dt ST st OUT n <n> W count capacity
/// <min(count, capacity) weights> FC fades)*`: one controller driven through the script, each
/// operation checked as it is read (the whole line is read even when a clip or the controller
/// could not be created).
fn check_crossfade(line: &str, cmp: &mut Compare) {
    let (mut t, what, skeleton) = Tokens::parity_skeleton(line, "XFADE", "crossfade case");
    let max_fades: usize = t.parse_tagged("MAXF");
    let k: usize = t.parse_tagged("CLIPS");
    let specs: Vec<ClipSpec> = (0..k).map(|_| t.clip_spec()).collect();
    let clips: Option<Vec<Arc<Clip>>> = specs
        .iter()
        .enumerate()
        .map(|(c, spec)| {
            build_clip(cmp, &format!("{what} clip {c}"), &skeleton, spec).map(Arc::new)
        })
        .collect();
    let mut run = clips.and_then(|clips| match Crossfade::new(skeleton, max_fades) {
        Ok(controller) => Some((controller, clips)),
        Err(e) => {
            cmp.property(&what, format!("Crossfade::new: {e}"));
            None
        }
    });
    let n_ops: usize = t.parse_tagged("OPS");
    for k in 0..n_ops {
        let what = format!("{what} op {k}");
        match t.word() {
            "PLAY" => {
                let (clip, looping): (usize, u32) = (t.parse(), t.parse());
                let status = t.status();
                if let Some((controller, clips)) = &mut run {
                    let outcome = controller.play(clips[clip].clone(), flag(looping));
                    cmp.status(&format!("{what} play"), status, &outcome);
                }
            }
            "FADE" => {
                let (clip, duration, curve, looping): (usize, f32, i32, u32) =
                    (t.parse(), t.f32(), t.parse(), t.parse());
                let status = t.status();
                t.tag("Q");
                let queued: Option<u32> = t.optional(|t| t.parse());
                if let Some((controller, clips)) = &mut run {
                    let fade = fade_curve(curve);
                    let outcome =
                        controller.fade_to(clips[clip].clone(), duration, fade, flag(looping));
                    let what = format!("{what} fade_to");
                    if cmp.status(&what, status, &outcome) {
                        if let Some(q) = queued {
                            let rust = u32::from(outcome.expect("ok"));
                            cmp.same(&format!("{what} queued"), q, rust);
                        }
                    }
                }
            }
            "UPD" => {
                let dt = t.f32();
                let status = t.status();
                let out = t.counted_transforms("OUT");
                t.tag("W");
                let count: usize = t.parse();
                let capacity: usize = t.parse();
                let weights = t.floats(count.min(capacity));
                let fades: usize = t.parse_tagged("FC");
                let Some((controller, _)) = &mut run else {
                    continue;
                };
                let outcome = controller.update(dt);
                let what = format!("{what} update({dt})");
                cmp.status(&what, status, &outcome);
                cmp.transforms(
                    &format!("{what} pose"),
                    &out,
                    &controller.pose().local().to_vec(),
                );
                let mut buf = vec![f32::NAN; capacity];
                let rust_count = controller.weights(&mut buf);
                cmp.same(&format!("{what} weight count"), count, rust_count);
                buf.truncate(rust_count.min(capacity));
                cmp.floats(&format!("{what} weights"), &weights, &buf);
                cmp.same(
                    &format!("{what} fade_count"),
                    fades,
                    controller.fade_count(),
                );
            }
            w => panic!("expected PLAY, FADE or UPD, got {w:?} in: {line}"),
        }
    }
    t.end();
}

// ------------------------------------------------------------------------------ the test

#[test]
#[cfg_attr(not(unix), ignore = "links the cdylib with Unix linker flags")]
fn c_program_passes_and_matches_rust_core() {
    let run = native::Run::start("c_abi");
    let exe = compile(&run.dir);
    let output = native::run_program(&exe);
    let stdout = String::from_utf8(output.stdout).expect("C output is UTF-8");
    // FAIL lines go to stderr; the assertions below show them.
    let stderr = String::from_utf8_lossy(&output.stderr);

    // A crash leaves nothing to compare; failed checks still leave every parity line.
    let summary = stdout.lines().last().unwrap_or("");
    assert!(
        output.status.code().is_some() && summary.ends_with(" failed"),
        "the C ABI test program did not finish ({}), last line {summary:?}; stderr:\n{stderr}",
        output.status
    );
    let c_passed = output.status.success() && summary.ends_with(" 0 failed");

    let mut cmp = Compare::default();
    let mut parsed: BTreeMap<&str, usize> = BTreeMap::new();
    let mut declared: BTreeMap<&str, usize> = BTreeMap::new();
    for line in stdout.lines() {
        let Some(keyword) = line.split_whitespace().next() else {
            continue;
        };
        if let Some(kind) = LINE_KINDS.iter().find(|k| k.keyword == keyword) {
            cmp.keyword = kind.keyword;
            (kind.check)(line, &mut cmp);
            *parsed.entry(kind.keyword).or_default() += 1;
        } else if keyword == "LINES" {
            let mut t = Tokens::new(line);
            t.tag("LINES");
            let kind = t.word();
            declared.insert(kind, t.parse());
            t.end();
        } else if keyword == "VERSION" {
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
    }
    for kind in LINE_KINDS {
        let n = parsed.get(kind.keyword).copied().unwrap_or(0);
        assert_eq!(
            declared.get(kind.keyword),
            Some(&n),
            "the C program's LINES count for {} disagrees with the lines parsed",
            kind.keyword
        );
        assert!(
            n >= kind.at_least,
            "only {n} {} lines (at least {} expected)",
            kind.keyword,
            kind.at_least
        );
    }
    assert_eq!(
        declared.len(),
        LINE_KINDS.len(),
        "the C program declares line kinds this test does not check: {declared:?}"
    );

    let counts: Vec<String> = parsed.iter().map(|(k, n)| format!("{n} {k}")).collect();
    for (kind, (floats, identical, max_diff)) in &cmp.per_kind {
        println!(
            "  {kind}: {floats} floats, {identical} bit-identical, max |C - Rust| = {max_diff:e}"
        );
    }
    println!(
        "{summary}; parity: {} lines, {} floats compared, {} bit-identical, \
         max |C - Rust| = {:e} ({})",
        counts.join(" + "),
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
        c_passed && cmp.mismatches.is_empty(),
        "C checks: {summary} (see the FAIL lines above or below); {} C/Rust mismatches or \
         violated properties:\n{}\nC stderr:\n{stderr}",
        cmp.mismatches.len(),
        cmp.mismatches.join("\n")
    );
    run.finish("");
}
