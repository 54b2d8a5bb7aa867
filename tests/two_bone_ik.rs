//! Two-bone IK: the behaviour a user relies on, checked on random chains and along paths. Validity
//! first: invalid settings are rejected and errors leave the chain untouched.

use std::sync::Arc;

use proptest::prelude::*;
use sinew::rotation::swing_twist;
use sinew::{
    EndRotation, ErrorKind, Pose, Quat, Skeleton, Transform, TwoBoneIk, TwoBoneIkSettings,
    TwoBoneTarget, Vec3,
};

mod common;

use common::chains::bits;
use common::props::{config, unit_dir, unit_quat, vec3};
use common::rotations::{rot_between, same_rotation};

// ------------------------------------------------------------------------------------ helpers

fn solver(settings: TwoBoneIkSettings) -> TwoBoneIk {
    TwoBoneIk::new(settings).expect("valid settings")
}

fn defaults() -> TwoBoneIkSettings {
    TwoBoneIkSettings::default()
}

/// A model-space chain built like a rig: each bone offset along its parent's local X.
fn build_chain(root: Vec3, r0: Quat, bend: Quat, r2: Quat, l1: f32, l2: f32) -> [Transform; 3] {
    let a = Transform::from_rotation_translation(r0, root);
    let b = a.mul_transform(&Transform::from_rotation_translation(bend, Vec3::X * l1));
    let c = b.mul_transform(&Transform::from_rotation_translation(r2, Vec3::X * l2));
    [a, b, c]
}

/// A chain rooted at `root`, turned `turn` rad about Y, bent `bend` rad about Z at the joint,
/// with bones of `lengths` along X and the end unturned.
fn arm(root: [f32; 3], (turn, bend): (f32, f32), (l1, l2): (f32, f32)) -> [Transform; 3] {
    let (r0, bend) = (Quat::from_rotation_y(turn), Quat::from_rotation_z(bend));
    build_chain(root.into(), r0, bend, Quat::IDENTITY, l1, l2)
}

#[derive(Clone, Debug)]
struct Case {
    chain: [Transform; 3],
    l1: f32,
    l2: f32,
    /// Overall size of the rig, so absolute tolerances scale with it.
    scale: f32,
}

impl Case {
    fn length(&self) -> f32 {
        self.l1 + self.l2
    }
    fn root(&self) -> Vec3 {
        self.chain[0].translation
    }
    /// A target along `dir` from the root, the fraction `f` of the way across the reachable
    /// shell kept `margin` (a fraction of the chain length) inside its edges; and its distance.
    fn in_reach(&self, dir: Vec3, f: f32, margin: f32) -> (Vec3, f32) {
        in_reach(self.root(), (self.l1, self.l2), dir, (f, margin))
    }

    /// A pole `offset` from the root, scaled like the case.
    fn pole(&self, offset: Option<Vec3>) -> Option<Vec3> {
        offset.map(|p| self.root() + p * self.scale)
    }
}

/// A target along `dir` from `root` for bones of `l1` and `l2`, the fraction `f` of the way
/// across the reachable shell kept `margin` (a fraction of the chain length) inside its edges;
/// and its distance.
fn in_reach(root: Vec3, (l1, l2): (f32, f32), dir: Vec3, (f, margin): (f32, f32)) -> (Vec3, f32) {
    let len = l1 + l2;
    let margin = margin * len;
    let lo = (l1 - l2).abs() + margin;
    let hi = len - margin;
    let d = lo + (hi - lo) * f;
    (root + dir * d, d)
}

/// Default settings with or without stretching, any end rotation mode, twist kept or not.
fn varied_settings() -> impl Strategy<Value = TwoBoneIkSettings> {
    let end = prop_oneof![
        Just(EndRotation::KeepModel),
        Just(EndRotation::KeepLocal),
        Just(EndRotation::CopyEffector)
    ];
    (any::<bool>(), end, any::<bool>()).prop_map(|(allow_stretching, end_rotation, keep_twist)| {
        TwoBoneIkSettings {
            allow_stretching,
            end_rotation,
            keep_twist,
            ..defaults()
        }
    })
}

/// A goal and maybe a pole, each with components in `-r..r`.
fn goal_and_pole(r: f32) -> impl Strategy<Value = (Vec3, Option<Vec3>)> {
    (vec3(r), proptest::option::of(vec3(r)))
}

/// A chain case aimed at: a unit direction from its root, a number from `fraction` (how far,
/// in some unit of the test's), and maybe a pole offset (see [`Case::pole`]).
fn aimed(fraction: std::ops::Range<f32>) -> impl Strategy<Value = (Case, Vec3, f32, Option<Vec3>)> {
    (
        chain_case(),
        unit_dir(),
        fraction,
        proptest::option::of(vec3(3.0)),
    )
}

/// Random chains: random rotations, random bone lengths (ratio up to 10), random overall scale.
fn chain_case() -> impl Strategy<Value = Case> {
    (
        vec3(2.0),
        unit_quat(),
        unit_quat(),
        unit_quat(),
        0.2f32..2.0,
        0.2f32..2.0,
        -2.0f32..2.0,
    )
        .prop_map(|(root, r0, bend, r2, l1, l2, e)| {
            let s = 10f32.powf(e);
            Case {
                chain: build_chain(root * s, r0, bend, r2, l1 * s, l2 * s),
                l1: l1 * s,
                l2: l2 * s,
                scale: s,
            }
        })
}

fn bone_lengths(chain: &[Transform; 3]) -> (f32, f32) {
    (
        (chain[1].translation - chain[0].translation).length(),
        (chain[2].translation - chain[1].translation).length(),
    )
}

fn all_finite(chain: &[Transform; 3]) -> bool {
    chain.iter().all(Transform::is_finite)
}

/// Angle between two directions in degrees (atan2 form: accurate for small angles).
fn dir_angle_deg(u: Vec3, v: Vec3) -> f32 {
    u.cross(v).length().atan2(u.dot(v)).to_degrees()
}

/// Angle between two rotations in degrees (robust for small angles).
fn rot_angle_deg(a: Quat, b: Quat) -> f32 {
    rot_between(a, b).to_degrees()
}

/// cos(swing angle / 2) of `q` about `axis`: near 0 the twist is numerically undefined.
fn twist_conditioning(q: Quat, axis: Vec3) -> f32 {
    let along = Vec3::new(q.x, q.y, q.z).dot(axis);
    (q.w * q.w + along * along).sqrt()
}

/// Part of `v` perpendicular to unit `axis`.
fn perp(v: Vec3, axis: Vec3) -> Vec3 {
    v - axis * v.dot(axis)
}

/// Largest per-frame turn in degrees of any bone, by model rotation and by bone direction.
fn max_turn(frames: &[[Transform; 3]]) -> (f32, f32) {
    let mut rot: f32 = 0.0;
    let mut dir: f32 = 0.0;
    for w in frames.windows(2) {
        let (p, q) = (&w[0], &w[1]);
        for i in 0..3 {
            rot = rot.max(rot_angle_deg(p[i].rotation, q[i].rotation));
        }
        for i in 0..2 {
            let u = p[i + 1].translation - p[i].translation;
            let v = q[i + 1].translation - q[i].translation;
            if u.length() > 1e-6 && v.length() > 1e-6 {
                dir = dir.max(dir_angle_deg(u, v));
            }
        }
    }
    (rot, dir)
}

// ------------------------------------------------------------------------------------ validity

#[test]
fn errors_leave_the_chain_untouched() {
    let chain = build_chain(
        Vec3::new(0.1, 0.2, 0.3),
        Quat::from_rotation_y(0.4),
        Quat::from_rotation_z(0.7),
        Quat::from_rotation_x(0.1),
        1.0,
        0.8,
    );
    let ok = TwoBoneTarget::at(Vec3::new(1.0, 0.5, 0.0));
    let (nan, inf) = (f32::NAN, f32::INFINITY);
    let q = Quat::from_xyzw;
    // The valid chain and target with one thing broken.
    let chain_with = |edit: &dyn Fn(&mut [Transform; 3])| {
        let mut c = chain;
        edit(&mut c);
        (c, ok)
    };
    let target_with = |edit: &dyn Fn(&mut TwoBoneTarget)| {
        let mut t = ok;
        edit(&mut t);
        (chain, t)
    };
    use ErrorKind::{InvalidArgument as Invalid, NonFinite};
    let cases = [
        (
            "NaN effector",
            target_with(&|t| t.position.x = nan),
            NonFinite,
        ),
        (
            "infinite effector",
            target_with(&|t| t.position.y = -inf),
            NonFinite,
        ),
        (
            "NaN pole",
            target_with(&|t| t.pole = Some(Vec3::new(0.0, 0.0, nan))),
            NonFinite,
        ),
        (
            "NaN effector rotation",
            target_with(&|t| t.rotation = Some(q(nan, 0.0, 0.0, 1.0))),
            NonFinite,
        ),
        (
            "zero effector rotation",
            target_with(&|t| t.rotation = Some(q(0.0, 0.0, 0.0, 0.0))),
            Invalid,
        ),
        (
            "NaN root",
            chain_with(&|c| c[0].translation.y = nan),
            NonFinite,
        ),
        (
            "NaN joint rotation",
            chain_with(&|c| c[1].rotation = q(0.0, nan, 0.0, 1.0)),
            NonFinite,
        ),
        (
            "infinite end scale",
            chain_with(&|c| c[2].scale.z = inf),
            NonFinite,
        ),
        (
            "zero joint rotation",
            chain_with(&|c| c[1].rotation = q(0.0, 0.0, 0.0, 0.0)),
            Invalid,
        ),
    ];
    for settings in all_settings() {
        for (name, (input, target), kind) in &cases {
            let mut c = *input;
            let err = solver(settings).solve(&mut c, target).unwrap_err();
            assert_eq!(err.kind(), *kind, "{name}: {err:?}");
            assert!(!err.message().is_empty());
            assert_eq!(bits(&c), bits(input), "{name}: chain changed on error");
        }
    }
}

#[test]
fn invalid_settings_are_rejected() {
    let d = defaults();
    let bad = [
        (
            TwoBoneIkSettings { weight: -0.1, ..d },
            ErrorKind::InvalidArgument,
        ),
        (
            TwoBoneIkSettings { weight: 1.5, ..d },
            ErrorKind::InvalidArgument,
        ),
        (
            TwoBoneIkSettings {
                weight: f32::NAN,
                ..d
            },
            ErrorKind::NonFinite,
        ),
        (
            TwoBoneIkSettings { soften: 0.0, ..d },
            ErrorKind::InvalidArgument,
        ),
        (
            TwoBoneIkSettings { soften: 1.01, ..d },
            ErrorKind::InvalidArgument,
        ),
        (
            TwoBoneIkSettings {
                pole_weight: 2.0,
                ..d
            },
            ErrorKind::InvalidArgument,
        ),
        (
            TwoBoneIkSettings {
                max_stretch_scale: 0.9,
                ..d
            },
            ErrorKind::InvalidArgument,
        ),
        (
            TwoBoneIkSettings {
                start_stretch_ratio: 0.0,
                ..d
            },
            ErrorKind::InvalidArgument,
        ),
        (
            TwoBoneIkSettings {
                start_stretch_ratio: f32::INFINITY,
                ..d
            },
            ErrorKind::NonFinite,
        ),
    ];
    for (s, kind) in bad {
        assert_eq!(TwoBoneIk::new(s).unwrap_err().kind(), kind, "{s:?}");
        let mut ik = solver(d);
        assert_eq!(ik.set_settings(s).unwrap_err().kind(), kind);
        assert_eq!(*ik.settings(), d, "settings changed on error");
    }
}

// ------------------------------------------------------------------------------------ reach

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn reachable_targets_are_reached(
        (case, dir, f, pole) in aimed(0.0..1.0),
        pole_weight in prop_oneof![Just(1.0f32), 0.0f32..=1.0],
        keep_twist in any::<bool>(),
    ) {
        let len = case.length();
        let (goal, d) = case.in_reach(dir, f, 0.01);
        let target = TwoBoneTarget {
            position: goal,
            rotation: None,
            pole: case.pole(pole),
        };
        let mut chain = case.chain;
        let settings = TwoBoneIkSettings { pole_weight, keep_twist, ..defaults() };
        let result = solver(settings).solve(&mut chain, &target).unwrap();
        let err = (chain[2].translation - goal).length();
        prop_assert!(err < 1e-4 * len, "error {err} for chain length {len} (d = {d})");
        prop_assert!(result.reached, "{result:?}");
        prop_assert!((result.error - err).abs() <= 1e-6 * len, "{result:?} vs {err}");
        prop_assert_eq!(result.iterations, 1);
    }

    #[test]
    fn bone_lengths_are_kept_without_stretching(
        (case, dir, f, pole) in aimed(0.0..1.0),
        kind in 0u32..5,
        soften in prop_oneof![Just(1.0f32), 0.5f32..1.0],
    ) {
        let (l1, l2, len) = (case.l1, case.l2, case.length());
        let inner = (l1 - l2).abs();
        let d = match kind {
            0 => 0.0,                               // target exactly at the root
            1 => inner * f,                         // nearer than |l1 - l2|
            2 => inner + (len - inner) * f,         // reachable
            3 => len * (1.0 + 3.0 * f),             // unreachable
            _ => len * 1e3 * (1.0 + f),             // far away
        };
        let target = TwoBoneTarget {
            position: case.root() + dir * d,
            rotation: None,
            pole: case.pole(pole),
        };
        let settings = TwoBoneIkSettings { soften, ..defaults() };
        let mut chain = case.chain;
        solver(settings).solve(&mut chain, &target).unwrap();
        prop_assert!(all_finite(&chain));
        let (n1, n2) = bone_lengths(&chain);
        prop_assert!((n1 - l1).abs() <= 1e-5 * l1, "upper {n1} vs {l1} (d = {d}, kind {kind})");
        prop_assert!((n2 - l2).abs() <= 1e-5 * l2, "lower {n2} vs {l2} (d = {d}, kind {kind})");
        prop_assert_eq!(chain[0].translation, case.chain[0].translation, "the root never moves");
        for (out, input) in chain.iter().zip(&case.chain) {
            prop_assert_eq!(out.scale, input.scale);
            prop_assert!((out.rotation.length() - 1.0).abs() < 1e-5);
        }
    }

    /// Nearly degenerate bend planes: a pole almost on the root-target line, or (no pole) an
    /// input upper bone almost along the target direction. The bend direction is then
    /// ill-defined, but whichever one is picked, the bones must keep their lengths and a
    /// reachable target must still be reached.
    #[test]
    fn near_degenerate_bend_planes_keep_lengths_and_reach(
        case in chain_case(),
        dir in unit_dir(),
        side in unit_dir(),
        f in 0.0f32..1.0,
        along in -3.0f32..3.0,
        e in -8.0f32..-2.0,
        with_pole in any::<bool>(),
    ) {
        let side = perp(side, dir);
        prop_assume!(side.length() > 0.2);
        let side = side.normalize();
        let (l1, l2, len) = (case.l1, case.l2, case.length());
        let a = case.root();
        let offset = 10f32.powf(e);
        let mut input = case.chain;
        let pole = if with_pole {
            Some(a + (dir * along + side * offset) * len)
        } else {
            // Joint almost on the root-target line; the end keeps its offset from the joint.
            let lower = input[2].translation - input[1].translation;
            input[1].translation = a + (dir + side * offset).normalize() * l1;
            input[2].translation = input[1].translation + lower;
            None
        };
        let (goal, _) = in_reach(a, (l1, l2), dir, (f, 0.01));
        let (in1, in2) = bone_lengths(&input);
        let mut chain = input;
        let target = TwoBoneTarget { position: goal, rotation: None, pole };
        let result = solver(defaults()).solve(&mut chain, &target).unwrap();
        let (n1, n2) = bone_lengths(&chain);
        prop_assert!((n1 - in1).abs() <= 1e-5 * in1, "upper {in1} -> {n1} (offset {offset:e}, pole {pole:?})");
        prop_assert!((n2 - in2).abs() <= 1e-5 * in2, "lower {in2} -> {n2} (offset {offset:e}, pole {pole:?})");
        let err = (chain[2].translation - goal).length();
        prop_assert!(err < 1e-4 * len && result.reached, "missed by {err} (chain {len}, offset {offset:e}, pole {pole:?})");
    }

    #[test]
    fn unreachable_targets_get_a_straight_chain(
        (case, dir, f, pole) in aimed(0.01..3.0),
    ) {
        let len = case.length();
        let goal = case.root() + dir * len * (1.0 + f);
        let target = TwoBoneTarget {
            position: goal,
            rotation: None,
            pole: case.pole(pole),
        };
        let mut chain = case.chain;
        let result = solver(defaults()).solve(&mut chain, &target).unwrap();
        let a = chain[0].translation;
        let upper = (chain[1].translation - a).normalize();
        let lower = (chain[2].translation - chain[1].translation).normalize();
        prop_assert!(dir_angle_deg(upper, dir) < 1e-2, "upper {upper:?} vs {dir:?}");
        prop_assert!(dir_angle_deg(lower, dir) < 1e-2, "lower {lower:?} vs {dir:?}");
        let expected_end = a + dir * len;
        prop_assert!((chain[2].translation - expected_end).length() < 1e-5 * len);
        prop_assert!(!result.reached);
        prop_assert!((result.error - len * f).abs() < 1e-4 * len, "{result:?}");
        // The bones' rotations follow their directions.
        let input_upper = (case.chain[1].translation - case.chain[0].translation).normalize();
        let rotated = chain[0].rotation * (case.chain[0].rotation.conjugate() * input_upper);
        prop_assert!(dir_angle_deg(rotated, upper) < 1e-2);
    }

    #[test]
    fn joint_bends_toward_the_pole(
        case in chain_case(),
        dir in unit_dir(),
        f in 0.0f32..1.0,
        pole_dir in unit_dir(),
        pole_dist in 0.2f32..5.0,
        along in -2.0f32..2.0,
    ) {
        let len = case.length();
        // Reachable and not nearly straight (nor nearly folded).
        let (goal, _) = case.in_reach(dir, f, 0.05);
        // A pole well off the root-target line.
        let side = perp(pole_dir, dir);
        prop_assume!(side.length() > 0.2);
        let side = side.normalize();
        let pole = case.root() + (dir * along + side * pole_dist) * len;
        let mut chain = case.chain;
        solver(defaults()).solve(&mut chain, &TwoBoneTarget::at(goal).with_pole(pole)).unwrap();
        let a = case.root();
        let joint_off = perp(chain[1].translation - a, dir);
        let pole_off = perp(pole - a, dir);
        prop_assert!(joint_off.dot(pole_off) > 0.0, "joint {joint_off:?} vs pole {pole_off:?}");
        // With full pole weight, the joint is in the half-plane through the line and the pole.
        prop_assert!(
            dir_angle_deg(joint_off, pole_off) < 0.1,
            "joint off the pole plane by {} degrees",
            dir_angle_deg(joint_off, pole_off)
        );
    }

    #[test]
    fn pole_weight_zero_ignores_the_pole(case in chain_case(), dir in unit_dir(), f in 0.1f32..0.9, pole in vec3(3.0)) {
        let len = case.length();
        let target = TwoBoneTarget::at(case.root() + dir * len * f);
        let mut plain = case.chain;
        solver(defaults()).solve(&mut plain, &target).unwrap();
        let mut weighted = case.chain;
        let s = TwoBoneIkSettings { pole_weight: 0.0, ..defaults() };
        solver(s).solve(&mut weighted, &target.with_pole(case.root() + pole * case.scale)).unwrap();
        for i in 0..3 {
            prop_assert!((plain[i].translation - weighted[i].translation).length() < 1e-5 * len);
        }
    }
}

// ------------------------------------------------------------------------------------ continuity

/// A closed path in the plane, in units of the chain length, as a function of a parameter.
#[derive(Clone, Copy, Debug)]
enum Path {
    /// Circle centred at (0.8, 0.2), radius 0.45: distance from the root in [0.37, 1.27].
    Circle,
    /// Figure-eight around (0.75, 0): distance from the root in [0.3, 1.2].
    FigureEight,
}

impl Path {
    fn point(self, t: f32) -> (f32, f32) {
        match self {
            Path::Circle => (0.8 + 0.45 * t.cos(), 0.2 + 0.45 * t.sin()),
            Path::FigureEight => (0.75 + 0.45 * t.cos(), 0.35 * (2.0 * t).sin()),
        }
    }
    /// Parameter step so that consecutive samples are at most `step` apart (in chain lengths).
    fn dt(self, step: f32) -> f32 {
        match self {
            Path::Circle => step / 0.45,
            Path::FigureEight => step / (0.45f32.hypot(0.7)),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Feed {
    /// Each frame solves the previous frame's output.
    PreviousOutput,
    /// Each frame solves the same fixed input chain.
    FixedInput,
}

struct PathSetup {
    root: Vec3,
    plane: Quat,
    len: f32,
    l1: f32,
    l2: f32,
}

impl PathSetup {
    fn at(&self, x: f32, y: f32) -> Vec3 {
        self.root + self.plane * Vec3::new(x * self.len, y * self.len, 0.0)
    }
    fn normal(&self) -> Vec3 {
        self.plane * Vec3::Z
    }
    /// Input chain pointing at the path's middle, bent out of the plane (toward +normal),
    /// with the root bone twisted about its own axis by `twist` radians.
    fn fixed_input(&self, twist: f32) -> [Transform; 3] {
        let to_mid = (self.at(0.8, 0.1) - self.root).normalize();
        let k = to_mid.cross(self.normal()).normalize();
        let r0 = Quat::from_axis_angle(k, 0.4)
            * Quat::from_rotation_arc(Vec3::X, to_mid)
            * Quat::from_rotation_x(twist);
        let bend = Quat::from_axis_angle(r0.conjugate() * k, -0.8);
        build_chain(
            self.root,
            r0.normalize(),
            bend,
            Quat::IDENTITY,
            self.l1,
            self.l2,
        )
    }
}

/// One continuity run: name, settings, pole, how frames are fed, first input.
type Run = (
    &'static str,
    TwoBoneIkSettings,
    Option<Vec3>,
    Feed,
    [Transform; 3],
);

/// Runs a path and returns the solved frames (first frame included).
fn run_path(
    setup: &PathSetup,
    path: Path,
    laps: f32,
    settings: TwoBoneIkSettings,
    pole: Option<Vec3>,
    feed: Feed,
    input: [Transform; 3],
) -> Vec<[Transform; 3]> {
    let ik = solver(settings);
    let dt = path.dt(0.0025);
    let steps = (laps * std::f32::consts::TAU / dt).ceil() as usize;
    let mut frames = Vec::with_capacity(steps + 1);
    let mut current = input;
    for k in 0..=steps {
        let (x, y) = path.point(k as f32 * dt);
        let target = TwoBoneTarget {
            position: setup.at(x, y),
            rotation: None,
            pole,
        };
        let mut chain = if feed == Feed::FixedInput {
            input
        } else {
            current
        };
        ik.solve(&mut chain, &target).unwrap();
        assert!(all_finite(&chain), "frame {k}: {chain:?}");
        current = chain;
        frames.push(chain);
    }
    frames
}

proptest! {
    #![proptest_config(config(6))]

    #[test]
    fn solves_are_continuous_along_paths(
        root in vec3(2.0),
        plane in unit_quat(),
        ratio in 0.6f32..1.6,
        bend in unit_quat(),
        r0 in unit_quat(),
        twist in -3.0f32..3.0,
        scale_exp in -1.0f32..1.0,
    ) {
        let s = 10f32.powf(scale_exp);
        let l1 = s;
        let l2 = s * ratio;
        let setup = PathSetup { root: root * s, plane, len: l1 + l2, l1, l2 };
        // Random initial pose for the previous-output runs; a tidy one for fixed-input runs.
        let random_input = build_chain(setup.root, r0, bend, Quat::IDENTITY, l1, l2);
        let fixed_input = setup.fixed_input(twist);
        let pole = setup.root + setup.normal() * setup.len + setup.plane * Vec3::X * 0.3 * setup.len;
        let stretch = TwoBoneIkSettings { allow_stretching: true, ..defaults() };
        let runs: [Run; 5] = [
            ("previous output, pole", defaults(), Some(pole), Feed::PreviousOutput, random_input),
            ("previous output, no pole", defaults(), None, Feed::PreviousOutput, random_input),
            ("previous output, stretch, pole", stretch, Some(pole), Feed::PreviousOutput, random_input),
            ("fixed input, pole", defaults(), Some(pole), Feed::FixedInput, fixed_input),
            ("fixed input, stretch, pole", stretch, Some(pole), Feed::FixedInput, fixed_input),
        ];
        for path in [Path::Circle, Path::FigureEight] {
            for (name, settings, pole, feed, input) in runs {
                let frames = run_path(&setup, path, 2.0, settings, pole, feed, input);
                // The first solve may jump from an arbitrary input; continuity is frame to frame.
                let (rot, dir) = max_turn(&frames);
                prop_assert!(rot <= 15.0, "{path:?}, {name}: a bone rotation turned {rot} degrees in one frame");
                prop_assert!(dir <= 15.0, "{path:?}, {name}: a bone direction turned {dir} degrees in one frame");
            }
        }
    }
}

/// The per-frame turn along a deterministic path, printed for reference.
#[test]
fn continuity_reference_numbers() {
    let setup = PathSetup {
        root: Vec3::ZERO,
        plane: Quat::IDENTITY,
        len: 1.8,
        l1: 1.0,
        l2: 0.8,
    };
    let input = setup.fixed_input(0.0);
    let pole = Vec3::new(0.5, 0.0, 2.0);
    for path in [Path::Circle, Path::FigureEight] {
        for (name, p, feed) in [
            ("previous output, pole", Some(pole), Feed::PreviousOutput),
            ("previous output, no pole", None, Feed::PreviousOutput),
            ("fixed input, pole", Some(pole), Feed::FixedInput),
        ] {
            let frames = run_path(&setup, path, 2.0, defaults(), p, feed, input);
            let (rot, dir) = max_turn(&frames);
            eprintln!("{path:?}, {name}: max turn per frame {rot:.3} deg (rotation), {dir:.3} deg (direction)");
            assert!(rot <= 15.0 && dir <= 15.0);
        }
    }
}

/// Target moving straight out past full extension and back along a line through the root, no
/// pole, each frame solved from the previous output: the chain goes exactly straight, so the
/// bend plane must come from the fallback (the root's frame) without a jump on the way back.
#[test]
fn radial_out_and_back_without_pole_is_continuous() {
    for (l1, l2) in [(1.0f32, 1.0f32), (1.0, 0.6), (0.6, 1.0)] {
        let len = l1 + l2;
        let ik = solver(defaults());
        let mut chain = arm([0.2, -0.1, 0.3], (0.3, -1.0), (l1, l2));
        let dir = Vec3::new(1.0, 0.4, -0.2).normalize();
        let step = 0.0025 * len;
        let mut frames = Vec::new();
        let mut worst_length_change: f32 = 0.0;
        // 0.5 L -> 1.5 L -> 0.5 L, twice.
        for k in 0..1600 {
            let phase = k % 800;
            let x = if phase < 400 { phase } else { 800 - phase } as f32;
            let goal = chain[0].translation + dir * (0.5 * len + x * step);
            let (in1, in2) = bone_lengths(&chain);
            ik.solve(&mut chain, &TwoBoneTarget::at(goal)).unwrap();
            let (n1, n2) = bone_lengths(&chain);
            worst_length_change = worst_length_change
                .max((n1 - in1).abs() / in1)
                .max((n2 - in2).abs() / in2);
            frames.push(chain);
        }
        let (rot, dir_turn) = max_turn(&frames[1..]);
        eprintln!(
            "radial out and back, no pole, bones {l1}/{l2}: max turn {rot:.3} deg (rotation), \
             {dir_turn:.3} deg (direction); worst relative bone length change in one solve \
             {worst_length_change:e}"
        );
        assert!(rot <= 15.0 && dir_turn <= 15.0, "{rot} {dir_turn}");
        assert!(
            worst_length_change <= 1e-5,
            "bones {l1}/{l2}: a solve changed a bone length by {worst_length_change:e} (relative)"
        );
    }
}

/// Deterministic reproducers for the near-degenerate bend plane case (see
/// `near_degenerate_bend_planes_keep_lengths_and_reach`).
#[test]
fn pole_almost_on_the_line_keeps_lengths() {
    let ik = solver(defaults());
    let input = [
        Transform::from_translation(Vec3::ZERO),
        Transform::from_translation(Vec3::new(1.0, 0.0, 0.0)),
        Transform::from_translation(Vec3::new(1.0, 1.0, 0.0)),
    ];
    let goal = Vec3::new(1.0, 2.0, 3.0).normalize() * 1.2;
    // About 2.2e-6 off the root-target line.
    let pole = Vec3::new(0.30200502, 0.6040123, 0.9060144);
    let mut chain = input;
    let result = ik
        .solve(&mut chain, &TwoBoneTarget::at(goal).with_pole(pole))
        .unwrap();
    let (n1, n2) = bone_lengths(&chain);
    assert!(
        (n1 - 1.0).abs() < 1e-5 && (n2 - 1.0).abs() < 1e-5,
        "bone lengths 1, 1 became {n1}, {n2}"
    );
    assert!(result.reached, "reachable target missed: {result:?}");
}

#[test]
fn nearly_straight_input_without_pole_keeps_lengths() {
    let ik = solver(defaults());
    let dir = Vec3::new(1.0, 2.0, 3.0).normalize();
    // The joint is about 1e-5 off the root-target line.
    let joint = Vec3::new(0.26726046, 0.53453106, 0.8017783);
    let input = [
        Transform::from_translation(Vec3::ZERO),
        Transform::from_translation(joint),
        Transform::from_translation(joint + dir),
    ];
    let (l1, l2) = bone_lengths(&input);
    let mut chain = input;
    let result = ik.solve(&mut chain, &TwoBoneTarget::at(dir)).unwrap();
    let (n1, n2) = bone_lengths(&chain);
    assert!(
        (n1 - l1).abs() < 1e-5 * l1 && (n2 - l2).abs() < 1e-5 * l2,
        "bone lengths {l1}, {l2} became {n1}, {n2}"
    );
    assert!(result.reached, "reachable target missed: {result:?}");
}

// ------------------------------------------------------------------------------------ soften

/// Target moving outward along a line through the root at constant speed (0.25% of the chain
/// length per frame), chain bending in the plane of a pole; returns the largest per-frame turn
/// (degrees) and checks the end never overshoots.
fn radial_sweep(l1: f32, l2: f32, soften: f32) -> f32 {
    let len = l1 + l2;
    let ik = solver(TwoBoneIkSettings {
        soften,
        ..defaults()
    });
    let pole = Vec3::new(0.3 * len, len, 0.0);
    let mut chain = build_chain(
        Vec3::ZERO,
        Quat::from_rotation_z(0.6),
        Quat::from_rotation_z(-1.2),
        Quat::IDENTITY,
        l1,
        l2,
    );
    let mut frames = Vec::new();
    let step = 0.0025 * len;
    for k in 0..=600 {
        let d = 0.5 * len + k as f32 * step;
        let goal = Vec3::X * d;
        let result = ik
            .solve(&mut chain, &TwoBoneTarget::at(goal).with_pole(pole))
            .unwrap();
        let end_dist = chain[2].translation.length();
        if soften < 1.0 && d > soften * len {
            // In the soft zone the end eases in: never past the target, never fully extended.
            assert!(
                end_dist <= d,
                "soften {soften}: end at {end_dist} overshoots the target at {d}"
            );
            assert!(
                end_dist < len,
                "soften {soften}: the chain reached full extension"
            );
        } else {
            // Outside it a reachable end sits on the target (to float precision, a few ulps).
            assert!(
                end_dist <= d + 1e-6 * len,
                "soften {soften}: end at {end_dist}, target at {d}"
            );
        }
        if d <= 0.99 * soften * len {
            assert!(
                result.reached,
                "soften {soften}: not reached at {d} below the soft zone"
            );
        }
        frames.push(chain);
    }
    let (rot, dir) = max_turn(&frames);
    rot.max(dir)
}

#[test]
fn soften_reduces_the_snap_at_full_extension() {
    for (l1, l2) in [(1.0, 1.0), (1.0, 0.6)] {
        let hard = radial_sweep(l1, l2, 1.0);
        let soft97 = radial_sweep(l1, l2, 0.97);
        let soft90 = radial_sweep(l1, l2, 0.9);
        eprintln!(
            "soften, bones {l1}/{l2}: max turn per frame: soften 1 = {hard:.3} deg, \
             0.97 = {soft97:.3} deg, 0.9 = {soft90:.3} deg"
        );
        assert!(soft97 < hard, "0.97: {soft97} vs {hard}");
        assert!(soft90 < hard, "0.9: {soft90} vs {hard}");
        assert!(soft90 <= soft97, "0.9: {soft90} vs 0.97: {soft97}");
    }
}

// ------------------------------------------------------------------------------------ stretch

fn straight_toward(chain: &[Transform; 3], dir: Vec3) -> bool {
    let a = chain[0].translation;
    let upper = chain[1].translation - a;
    let lower = chain[2].translation - chain[1].translation;
    dir_angle_deg(upper, dir) < 1e-2 && dir_angle_deg(lower, dir) < 1e-2
}

#[test]
fn stretch_uses_the_unreal_formula() {
    let ik = solver(TwoBoneIkSettings {
        allow_stretching: true,
        ..defaults()
    });
    let (l1, l2) = (1.0, 0.7);
    let len = l1 + l2;
    let input = arm([0.5, -1.0, 2.0], (0.3, 0.9), (l1, l2));
    let dir = Vec3::new(1.0, 2.0, -0.5).normalize();
    let a = input[0].translation;

    // 1.1 L: scale 1 + 0.2 * (0.1 / 0.2) = 1.1, exactly enough to reach.
    let mut chain = input;
    let goal = a + dir * 1.1 * len;
    let result = ik.solve(&mut chain, &TwoBoneTarget::at(goal)).unwrap();
    assert!(result.reached, "{result:?}");
    assert!((chain[2].translation - goal).length() < 1e-4 * len);
    let (n1, n2) = bone_lengths(&chain);
    assert!((n1 - 1.1 * l1).abs() < 1e-5 * len, "upper {n1}");
    assert!((n2 - 1.1 * l2).abs() < 1e-5 * len, "lower {n2}");

    // 1.5 L: clamped at max scale 1.2, straight toward the target.
    let mut chain = input;
    let goal = a + dir * 1.5 * len;
    let result = ik.solve(&mut chain, &TwoBoneTarget::at(goal)).unwrap();
    assert!(!result.reached);
    let (n1, n2) = bone_lengths(&chain);
    assert!(
        (n1 + n2 - 1.2 * len).abs() < 1e-5 * len,
        "chain length {}",
        n1 + n2
    );
    assert!((n1 - 1.2 * l1).abs() < 1e-5 * len && (n2 - 1.2 * l2).abs() < 1e-5 * len);
    assert!(straight_toward(&chain, dir), "{chain:?}");
    assert!((result.error - 0.3 * len).abs() < 1e-4 * len, "{result:?}");
}

proptest! {
    #![proptest_config(config(128))]

    #[test]
    fn stretch_matches_the_formula_everywhere(
        case in chain_case(),
        dir in unit_dir(),
        ratio in 0.1f32..2.5,
        start in 0.8f32..1.1,
        max in 1.0f32..1.5,
    ) {
        let settings = TwoBoneIkSettings {
            allow_stretching: true,
            start_stretch_ratio: start,
            max_stretch_scale: max,
            ..defaults()
        };
        let len = case.length();
        let goal = case.root() + dir * ratio * len;
        let mut chain = case.chain;
        let result = solver(settings).solve(&mut chain, &TwoBoneTarget::at(goal)).unwrap();
        let range = max - start;
        let scale = if range > 1e-6 {
            1.0 + (max - 1.0) * ((ratio - start) / range).clamp(0.0, 1.0)
        } else {
            1.0
        };
        let (n1, n2) = bone_lengths(&chain);
        prop_assert!((n1 - scale * case.l1).abs() < 1e-4 * len, "upper {n1} vs {}", scale * case.l1);
        prop_assert!((n2 - scale * case.l2).abs() < 1e-4 * len, "lower {n2} vs {}", scale * case.l2);
        let inner = scale * (case.l1 - case.l2).abs();
        if ratio * len > inner + 0.01 * len && ratio < scale * 0.99 {
            prop_assert!(result.reached, "{result:?} at ratio {ratio}, scale {scale}");
        }
        if ratio > scale * 1.001 {
            prop_assert!(straight_toward(&chain, dir));
        }
    }
}

// ------------------------------------------------------------------------------------ weight

proptest! {
    #![proptest_config(config(128))]

    #[test]
    fn weight_zero_leaves_the_chain_bit_identical(
        case in chain_case(),
        (goal, pole) in goal_and_pole(3.0),
        settings in varied_settings(),
    ) {
        let settings = TwoBoneIkSettings { weight: 0.0, ..settings };
        let target = TwoBoneTarget {
            position: case.root() + goal * case.scale,
            rotation: Some(Quat::from_rotation_x(0.5)),
            pole: case.pole(pole),
        };
        let mut chain = case.chain;
        let result = solver(settings).solve(&mut chain, &target).unwrap();
        prop_assert_eq!(bits(&chain), bits(&case.chain), "weight 0 changed the chain: {:?} -> {:?}", case.chain, chain);
        let err = (case.chain[2].translation - target.position).length();
        prop_assert!((result.error - err).abs() <= 1e-6 * (1.0 + err));
    }

    #[test]
    fn weight_one_is_the_default_and_half_is_between(
        (case, dir, f, pole) in aimed(0.0..1.5),
    ) {
        let len = case.length();
        let target = TwoBoneTarget {
            position: case.root() + dir * f * len,
            rotation: None,
            pole: case.pole(pole),
        };
        let mut full = case.chain;
        let full_result = solver(defaults()).solve(&mut full, &target).unwrap();
        let mut one = case.chain;
        let one_result = solver(TwoBoneIkSettings { weight: 1.0, ..defaults() }).solve(&mut one, &target).unwrap();
        prop_assert_eq!(bits(&one), bits(&full));
        prop_assert_eq!(one_result, full_result);

        let mut half = case.chain;
        solver(TwoBoneIkSettings { weight: 0.5, ..defaults() }).solve(&mut half, &target).unwrap();
        prop_assert!(all_finite(&half));
        let input = &case.chain;
        let a = input[0].translation;
        // A rotation `of` the chain half way between the input's and the full solve's.
        let half_way = |what: &str, of: &dyn Fn(&[Transform; 3]) -> Quat| {
            let total = rot_angle_deg(of(input), of(&full));
            let first = rot_angle_deg(of(input), of(&half));
            let second = rot_angle_deg(of(&half), of(&full));
            prop_assert!((first - total / 2.0).abs() < 0.05 && (second - total / 2.0).abs() < 0.05,
                "{what}: {first} + {second} vs {total}");
            Ok(())
        };
        // Root bone: half way round, in rotation and in direction.
        half_way("root rotation", &|c| c[0].rotation)?;
        let (u_in, u_half, u_full) = (input[1].translation - a, half[1].translation - a, full[1].translation - a);
        let total = dir_angle_deg(u_in, u_full);
        prop_assert!((dir_angle_deg(u_in, u_half) - total / 2.0).abs() < 0.05);
        prop_assert!((dir_angle_deg(u_half, u_full) - total / 2.0).abs() < 0.05);
        // Joint bone: local rotation half way round; end bone: its rotation relative to the
        // joint bone too.
        half_way("joint local rotation", &|c| c[0].rotation.conjugate() * c[1].rotation)?;
        half_way("end local rotation", &|c| c[1].rotation.conjugate() * c[2].rotation)?;
        // Bone lengths kept and positions follow the rotations (forward kinematics of the
        // blended local rotations with the input's local offsets).
        let (n1, n2) = bone_lengths(&half);
        prop_assert!((n1 - case.l1).abs() < 1e-4 * len && (n2 - case.l2).abs() < 1e-4 * len);
        for i in 0..2 {
            let offset = input[i].inverse_mul(&input[i + 1]).translation;
            let expected = half[i].transform_point(offset);
            prop_assert!((half[i + 1].translation - expected).length() < 1e-4 * len);
        }
        // Note: the blended *end position* need not lie between the input and solved ends:
        // blending is in local rotation space (like Unreal's alpha), so when the pole swings
        // the bend plane the end can swing out sideways mid-blend.
    }
}

// ------------------------------------------------------------------------------------ end rotation

proptest! {
    #![proptest_config(config(128))]

    #[test]
    fn end_rotation_modes(
        case in chain_case(),
        goal in vec3(2.0),
        effector in unit_quat(),
        pole in proptest::option::of(vec3(3.0)),
        keep_twist in any::<bool>(),
        stretch in any::<bool>(),
    ) {
        let target = TwoBoneTarget {
            position: case.root() + goal * case.scale,
            rotation: Some(effector * 2.0), // not normalized on purpose
            pole: case.pole(pole),
        };
        let run = |end_rotation| {
            let mut chain = case.chain;
            let s = TwoBoneIkSettings { end_rotation, keep_twist, allow_stretching: stretch, ..defaults() };
            solver(s).solve(&mut chain, &target).unwrap();
            chain
        };
        let keep_model = run(EndRotation::KeepModel);
        prop_assert!(same_rotation(keep_model[2].rotation, case.chain[2].rotation, 1e-6));

        let copy = run(EndRotation::CopyEffector);
        prop_assert!(same_rotation(copy[2].rotation, effector, 1e-5), "{:?} vs {effector:?}", copy[2].rotation);

        let keep_local = run(EndRotation::KeepLocal);
        let before = case.chain[1].rotation.conjugate() * case.chain[2].rotation;
        let after = keep_local[1].rotation.conjugate() * keep_local[2].rotation;
        prop_assert!(same_rotation(after, before, 1e-5), "{after:?} vs {before:?}");

        // The mode only changes the end rotation.
        for chain in [&copy, &keep_local] {
            for i in 0..3 {
                prop_assert_eq!(chain[i].translation, keep_model[i].translation);
            }
            prop_assert_eq!(chain[0].rotation, keep_model[0].rotation);
            prop_assert_eq!(chain[1].rotation, keep_model[1].rotation);
        }

        // CopyEffector without an effector rotation keeps the model rotation.
        let mut chain = case.chain;
        let s = TwoBoneIkSettings { end_rotation: EndRotation::CopyEffector, ..defaults() };
        solver(s).solve(&mut chain, &TwoBoneTarget { rotation: None, ..target }).unwrap();
        prop_assert!(same_rotation(chain[2].rotation, case.chain[2].rotation, 1e-6));
    }

    #[test]
    fn keep_twist_keeps_the_joint_twist_and_the_aim(
        case in chain_case(),
        goal in vec3(2.0),
        pole in proptest::option::of(vec3(3.0)),
        end_rotation in prop_oneof![Just(EndRotation::KeepModel), Just(EndRotation::KeepLocal)],
    ) {
        let target = TwoBoneTarget {
            position: case.root() + goal * case.scale,
            rotation: None,
            pole: case.pole(pole),
        };
        let mut plain = case.chain;
        solver(TwoBoneIkSettings { end_rotation, ..defaults() }).solve(&mut plain, &target).unwrap();
        let mut kept = case.chain;
        solver(TwoBoneIkSettings { end_rotation, keep_twist: true, ..defaults() }).solve(&mut kept, &target).unwrap();

        let input = &case.chain;
        // Bone axis in the joint bone's own frame.
        let axis = (input[1].rotation.conjugate() * (input[2].translation - input[1].translation)).normalize();
        let local = |c: &[Transform; 3]| c[0].rotation.conjugate() * c[1].rotation;
        // The twist is only defined away from a half-turn swing (a fully folded joint); skip
        // cases where it is ill-conditioned in the input or the output.
        prop_assume!(twist_conditioning(local(input), axis) > 0.2);
        prop_assume!(twist_conditioning(local(&kept), axis) > 0.2);
        let (_, twist_in) = swing_twist(local(input), axis);
        let (_, twist_out) = swing_twist(local(&kept), axis);
        prop_assert!(same_rotation(twist_in, twist_out, 1e-4), "twist {twist_in:?} became {twist_out:?}");

        // Same positions and root rotation as without keep_twist; the joint bone still aims
        // where it did.
        for i in 0..3 {
            prop_assert_eq!(kept[i].translation, plain[i].translation);
        }
        prop_assert_eq!(kept[0].rotation, plain[0].rotation);
        let aim = kept[1].rotation * axis;
        let bone = kept[2].translation - kept[1].translation;
        prop_assert!(dir_angle_deg(aim, bone) < 0.02, "aim {aim:?} vs bone {bone:?}");
        prop_assert!(dir_angle_deg(aim, plain[1].rotation * axis) < 0.02);
        // KeepLocal follows the twisted joint rotation.
        if end_rotation == EndRotation::KeepLocal {
            let before = input[1].rotation.conjugate() * input[2].rotation;
            let after = kept[1].rotation.conjugate() * kept[2].rotation;
            prop_assert!(same_rotation(after, before, 1e-5));
        }
    }
}

// ------------------------------------------------------------------------------------ degenerate

fn all_settings() -> Vec<TwoBoneIkSettings> {
    let d = defaults();
    vec![
        d,
        TwoBoneIkSettings {
            allow_stretching: true,
            ..d
        },
        TwoBoneIkSettings { soften: 0.9, ..d },
        TwoBoneIkSettings {
            soften: 1e-6,
            allow_stretching: true,
            ..d
        },
        TwoBoneIkSettings {
            keep_twist: true,
            end_rotation: EndRotation::KeepLocal,
            ..d
        },
        TwoBoneIkSettings {
            weight: 0.5,
            pole_weight: 0.5,
            ..d
        },
        TwoBoneIkSettings {
            end_rotation: EndRotation::CopyEffector,
            start_stretch_ratio: 1e-3,
            max_stretch_scale: 1e3,
            allow_stretching: true,
            ..d
        },
    ]
}

/// Solves and checks: no panic, Ok with finite output (or, when `overflow_ok`, an untouched
/// chain and `NumericOverflow`).
fn check_solve(name: &str, chain: [Transform; 3], target: TwoBoneTarget, overflow_ok: bool) {
    for (k, settings) in all_settings().into_iter().enumerate() {
        let mut out = chain;
        match solver(settings).solve(&mut out, &target) {
            Ok(result) => {
                assert!(
                    all_finite(&out),
                    "{name}, settings {k}: non-finite output {out:?}"
                );
                assert!(result.error.is_finite(), "{name}, settings {k}: {result:?}");
                for t in &out {
                    assert!(
                        (t.rotation.length() - 1.0).abs() < 1e-4,
                        "{name}, settings {k}: {out:?}"
                    );
                }
            }
            Err(e) => {
                assert!(overflow_ok, "{name}, settings {k}: unexpected error {e:?}");
                assert_eq!(
                    e.kind(),
                    ErrorKind::NumericOverflow,
                    "{name}, settings {k}: {e:?}"
                );
                assert_eq!(
                    bits(&out),
                    bits(&chain),
                    "{name}, settings {k}: chain changed on error"
                );
            }
        }
    }
}

#[test]
fn degenerate_inputs_never_nan_or_panic() {
    let bent = arm([0.1, 0.2, 0.3], (0.4, 0.7), (1.0, 0.8));
    let straight = arm([0.0; 3], (0.0, 0.0), (1.0, 0.8));
    let a = bent[0].translation;
    let dir = Vec3::new(0.3, 1.0, -0.2).normalize();
    let goal = a + dir * 1.2;
    let with_rot = |t: TwoBoneTarget| TwoBoneTarget {
        rotation: Some(Quat::from_rotation_x(1.0)),
        ..t
    };

    check_solve(
        "target at root",
        bent,
        with_rot(TwoBoneTarget::at(a)),
        false,
    );
    check_solve(
        "target at root, pole",
        bent,
        with_rot(TwoBoneTarget::at(a).with_pole(a + Vec3::Y)),
        false,
    );
    check_solve(
        "target at root, pole at root",
        bent,
        TwoBoneTarget::at(a).with_pole(a),
        false,
    );
    check_solve(
        "pole on root-target line",
        bent,
        TwoBoneTarget::at(goal).with_pole(a + dir * 0.5),
        false,
    );
    check_solve(
        "pole beyond target on line",
        bent,
        TwoBoneTarget::at(goal).with_pole(a + dir * 5.0),
        false,
    );
    check_solve(
        "pole behind root on line",
        bent,
        TwoBoneTarget::at(goal).with_pole(a - dir * 5.0),
        false,
    );
    check_solve(
        "pole at root",
        bent,
        TwoBoneTarget::at(goal).with_pole(a),
        false,
    );
    check_solve(
        "pole at target",
        bent,
        TwoBoneTarget::at(goal).with_pole(goal),
        false,
    );

    for (name, l1, l2) in [
        ("zero upper", 0.0, 0.8),
        ("zero lower", 1.0, 0.0),
        ("both zero", 0.0, 0.0),
    ] {
        let c = arm([0.1, 0.2, 0.3], (0.4, 0.7), (l1, l2));
        for target in [
            TwoBoneTarget::at(goal),
            TwoBoneTarget::at(a),
            TwoBoneTarget::at(a + dir * 0.1).with_pole(a + Vec3::Z),
            TwoBoneTarget::at(a + dir * 100.0).with_pole(a + dir),
        ] {
            check_solve(name, c, with_rot(target), false);
        }
    }

    // Straight input, no pole: target along the chain, off the chain, behind it, at the root.
    let sa = straight[0].translation;
    for (name, t) in [
        ("straight, target along", sa + Vec3::X * 1.0),
        ("straight, target along, far", sa + Vec3::X * 10.0),
        ("straight, target behind", sa - Vec3::X * 1.0),
        ("straight, target off axis", sa + Vec3::new(1.0, 0.5, 0.0)),
        ("straight, target at root", sa),
    ] {
        check_solve(name, straight, TwoBoneTarget::at(t), false);
        let mut chain = straight;
        solver(defaults())
            .solve(&mut chain, &TwoBoneTarget::at(t))
            .unwrap();
        let (n1, n2) = bone_lengths(&chain);
        assert!(
            (n1 - 1.0).abs() < 1e-5 && (n2 - 0.8).abs() < 1e-5,
            "{name}: {n1} {n2}"
        );
        if name == "straight, target along" {
            let err = (chain[2].translation - t).length();
            assert!(err < 1e-4 * 1.8, "{name}: reachable target missed by {err}");
        }
    }

    // Scale 0 on any or all chain transforms.
    for mask in 1u32..8 {
        let mut c = bent;
        for (i, t) in c.iter_mut().enumerate() {
            if mask & (1 << i) != 0 {
                t.scale = Vec3::ZERO;
            }
        }
        check_solve(
            "scale 0",
            c,
            TwoBoneTarget::at(goal).with_pole(a + Vec3::Z),
            false,
        );
        check_solve("scale 0, target at root", c, TwoBoneTarget::at(a), false);
    }
    let mut flat = bent;
    flat[0].scale = Vec3::new(0.0, 1.0, 1.0);
    check_solve("flattened root", flat, TwoBoneTarget::at(goal), false);

    // Huge finite values: overflow is reported, never NaN.
    let big = 1e30f32;
    let huge_chain = arm([big; 3], (0.4, 0.7), (big, big));
    check_solve(
        "huge chain",
        huge_chain,
        TwoBoneTarget::at(Vec3::splat(-big)),
        true,
    );
    check_solve(
        "huge chain, pole",
        huge_chain,
        TwoBoneTarget::at(Vec3::ZERO).with_pole(Vec3::splat(big)),
        true,
    );
    check_solve(
        "huge target",
        bent,
        TwoBoneTarget::at(Vec3::new(big, -big, big)),
        true,
    );
    check_solve(
        "huge pole",
        bent,
        TwoBoneTarget::at(goal).with_pole(Vec3::splat(big)),
        true,
    );
    check_solve(
        "huge root offset",
        arm([big; 3], (0.0, 0.5), (1.0, 1.0)),
        TwoBoneTarget::at(Vec3::splat(big)),
        true,
    );
    check_solve(
        "huge scale",
        {
            let mut c = bent;
            c[1].scale = Vec3::splat(big);
            c
        },
        TwoBoneTarget::at(goal),
        true,
    );
    check_solve(
        "max values",
        arm([f32::MAX; 3], (0.0, 0.0), (0.0, 0.0)),
        TwoBoneTarget::at(Vec3::splat(-f32::MAX)),
        true,
    );
}

proptest! {
    #![proptest_config(config(256))]

    /// Random near-degenerate chains: tiny bones, coincident joints, tiny or huge offsets.
    #[test]
    fn random_degenerate_inputs_stay_finite(
        root in vec3(1.0),
        r in (unit_quat(), unit_quat(), unit_quat()),
        e in (-40i32..32, -40i32..32, -40i32..32, -40i32..32),
        goal in vec3(1.0),
        pole in proptest::option::of(vec3(1.0)),
        settings_index in 0usize..7,
    ) {
        let p = |k: i32| 10f32.powi(k);
        let chain = build_chain(root * p(e.0), r.0, r.1, r.2, p(e.1), p(e.2));
        let target = TwoBoneTarget {
            position: goal * p(e.3),
            rotation: Some(r.0),
            pole: pole.map(|v| v * p(e.3)),
        };
        let settings = all_settings()[settings_index];
        prop_assume!(all_finite(&chain));
        let mut out = chain;
        match solver(settings).solve(&mut out, &target) {
            Ok(result) => {
                prop_assert!(all_finite(&out), "{out:?}");
                prop_assert!(result.error.is_finite());
            }
            Err(err) => {
                prop_assert_eq!(err.kind(), ErrorKind::NumericOverflow, "{:?}", err);
                prop_assert_eq!(bits(&out), bits(&chain));
            }
        }
    }
}

// ------------------------------------------------------------------------------------ errors

// ------------------------------------------------------------------------------------ solve_pose

/// Skeleton: 0 (parent) -> 1 (root) -> 2 (joint) -> 3 (end), plus 4 child of 2 and 5 child of 3.
fn arm_pose(locals: &[Transform]) -> Pose {
    let parents = [-1, 0, 1, 2, 2, 3];
    let skeleton = Skeleton::new(&parents, locals, None).unwrap();
    Pose::new(Arc::new(skeleton))
}

/// Local transforms with positive scale, uniform or per-axis.
fn local_strategy() -> impl Strategy<Value = Vec<Transform>> {
    let scale = prop_oneof![
        (0.5f32..2.0).prop_map(Vec3::splat),
        (0.5f32..2.0, 0.5f32..2.0, 0.5f32..2.0).prop_map(|(x, y, z)| Vec3::new(x, y, z)),
    ];
    proptest::collection::vec(
        (vec3(1.0), unit_quat(), scale).prop_map(|(t, r, s)| Transform::new(t, r, s)),
        6,
    )
}

fn transform_close(a: &Transform, b: &Transform, eps: f32) -> bool {
    let scale = 1.0 + a.translation.length();
    (a.translation - b.translation).length() <= eps * scale
        && same_rotation(a.rotation, b.rotation, eps)
        && (a.scale - b.scale).length() <= eps * (1.0 + a.scale.length())
}

proptest! {
    #![proptest_config(config(128))]

    #[test]
    fn solve_pose_matches_the_chain_solve(
        locals in local_strategy(),
        (goal, pole) in goal_and_pole(4.0),
        settings in varied_settings(),
        effector in unit_quat(),
    ) {
        let mut pose = arm_pose(&locals);
        let local_before = pose.local().to_vec();
        let model_before = pose.model().unwrap().to_vec();
        let ik = solver(settings);
        let target = TwoBoneTarget { position: goal, rotation: Some(effector), pole };

        let mut chain = [model_before[1], model_before[2], model_before[3]];
        let chain_result = ik.solve(&mut chain, &target).unwrap();
        let pose_result = ik.solve_pose(&mut pose, [1, 2, 3], &target).unwrap();
        prop_assert_eq!(pose_result.reached, chain_result.reached);
        prop_assert!((pose_result.error - chain_result.error).abs() < 1e-4 * (1.0 + chain_result.error));

        let model = pose.model().unwrap().to_vec();
        for (j, c) in [1, 2, 3].into_iter().zip(&chain) {
            prop_assert!(transform_close(&model[j], c, 1e-5), "joint {j}: {:?} vs {c:?}", model[j]);
        }
        prop_assert_eq!(pose.local().get(0), local_before[0]);
        prop_assert_eq!(model[0], model_before[0]);
        // Other children of the chain follow with their local transforms unchanged.
        prop_assert_eq!(pose.local().get(4), local_before[4]);
        prop_assert_eq!(pose.local().get(5), local_before[5]);
        if !settings.allow_stretching {
            for (after, before) in pose.local().to_vec()[1..4].iter().zip(&local_before[1..4]) {
                prop_assert_eq!(after.translation, before.translation);
                prop_assert_eq!(after.scale, before.scale);
            }
        }
    }

    #[test]
    fn solve_pose_rejects_bad_chains(locals in local_strategy(), goal in vec3(4.0)) {
        let ik = solver(defaults());
        let target = TwoBoneTarget::at(goal);
        let mut pose = arm_pose(&locals);
        let before = pose.local().to_vec();
        for joints in [[1, 3, 2], [0, 2, 3], [1, 2, 5], [2, 1, 0], [1, 1, 2], [0, 1, 3]] {
            let err = ik.solve_pose(&mut pose, joints, &target).unwrap_err();
            prop_assert_eq!(err.kind(), ErrorKind::InvalidArgument, "{:?}: {:?}", joints, err);
            prop_assert_eq!(pose.local(), &before[..]);
        }
        for joints in [[1, 2, 6], [6, 7, 8], [u32::MAX, 0, 1], [0, 1, 100]] {
            let err = ik.solve_pose(&mut pose, joints, &target).unwrap_err();
            prop_assert_eq!(err.kind(), ErrorKind::OutOfRange, "{:?}: {:?}", joints, err);
            prop_assert_eq!(pose.local(), &before[..]);
        }
        let err = ik.solve_pose(&mut pose, [1, 2, 3], &TwoBoneTarget::at(Vec3::NAN)).unwrap_err();
        prop_assert_eq!(err.kind(), ErrorKind::NonFinite);
        prop_assert_eq!(pose.local(), &before[..]);
        // A chain starting at a root joint works too.
        ik.solve_pose(&mut pose, [0, 1, 2], &target).unwrap();
    }
}

proptest! {
    #![proptest_config(config(128))]

    /// What the user sees after `solve_pose`: the end joint's model position on a reachable
    /// target, and an `IkResult` that describes the pose.
    #[test]
    fn solve_pose_reaches_reachable_targets(
        locals in local_strategy(),
        dir in unit_dir(),
        f in 0.0f32..1.0,
        pole in proptest::option::of(vec3(4.0)),
    ) {
        let mut pose = arm_pose(&locals);
        let model = pose.model().unwrap().to_vec();
        let chain = [model[1], model[2], model[3]];
        let (l1, l2) = bone_lengths(&chain);
        let len = l1 + l2;
        let (goal, _) = in_reach(chain[0].translation, (l1, l2), dir, (f, 0.01));
        let target = TwoBoneTarget { position: goal, rotation: None, pole };
        let result = solver(defaults()).solve_pose(&mut pose, [1, 2, 3], &target).unwrap();
        let end = pose.model().unwrap()[3].translation;
        let miss = (end - goal).length();
        prop_assert!(miss < 1e-4 * len, "pose end misses by {miss:e} (chain {len}), {result:?}");
        prop_assert!(result.reached);
        prop_assert!((result.error - miss).abs() < 1e-4 * len, "{result:?} vs actual {miss:e}");
    }

    /// The lower bone turning almost half a turn (pi - delta): the solved joint rotation must
    /// still carry the lower bone onto its solved direction, or poses built from the rotations
    /// (`solve_pose`) miss the target the chain solve reports as reached.
    #[test]
    fn lower_bone_turning_nearly_half_a_turn(
        log_delta in -5.0f32..-1.5,
        phi in 0.5f32..1.2,
        ratio in 0.7f32..1.4,
        place in unit_quat(),
        origin in vec3(2.0),
    ) {
        let delta = 10f32.powf(log_delta);
        let (l1, l2) = (1.0f32, ratio);
        let len = l1 + l2;
        // Input: upper along X, lower along Y (in the rig's frame).
        let root = Transform::from_rotation_translation(place, origin);
        let locals = [
            root,
            Transform::from_translation(Vec3::X * l1),
            Transform::from_translation(Vec3::Y * l2),
        ];
        // Solution: joint at angle phi on the same side, lower bone pointing (almost) along -Y.
        // The joint crosses the input's root-end line, so a pole far up picks that side.
        let joint = Vec3::new(phi.cos(), phi.sin(), 0.0) * l1;
        let goal_local = joint + Vec3::new(delta.sin(), -delta.cos(), 0.0) * l2;
        let goal = root.transform_point(goal_local);
        let target = TwoBoneTarget::at(goal).with_pole(root.transform_point(Vec3::Y * 10.0));
        let skeleton = Arc::new(Skeleton::new(&[-1, 0, 1], &locals, None).unwrap());
        let mut pose = Pose::new(skeleton);
        let model = pose.model().unwrap().to_vec();
        let input = [model[0], model[1], model[2]];

        let mut chain = input;
        let ik = solver(defaults());
        let result = ik.solve(&mut chain, &target).unwrap();
        prop_assume!((chain[1].translation - root.transform_point(joint)).length() < 1e-3);
        prop_assert!(result.reached);
        for i in 0..2 {
            let before = input[i + 1].translation - input[i].translation;
            let after = chain[i + 1].translation - chain[i].translation;
            let carried = chain[i].rotation * (input[i].rotation.conjugate() * before);
            let mismatch = dir_angle_deg(carried, after).to_radians();
            prop_assert!(mismatch < 1e-4, "bone {i}: rotation and direction disagree by {mismatch:e} rad (delta {delta:e})");
        }

        ik.solve_pose(&mut pose, [0, 1, 2], &target).unwrap();
        let end = pose.model().unwrap()[2].translation;
        let miss = (end - goal).length();
        prop_assert!(miss < 1e-4 * len, "solve_pose end misses by {miss:e} (chain {len}, delta {delta:e})");
    }
}

/// Deterministic reproducer for `lower_bone_turning_nearly_half_a_turn`.
#[test]
fn solve_pose_misses_when_the_lower_bone_turns_nearly_half_a_turn() {
    let rest = [
        Transform::IDENTITY,
        Transform::from_translation(Vec3::X),
        Transform::from_translation(Vec3::Y),
    ];
    let mut pose = Pose::new(Arc::new(Skeleton::new(&[-1, 0, 1], &rest, None).unwrap()));
    // Solution: joint at 60 degrees, lower bone at pi - 1e-3 from its input direction (the
    // pole puts the joint across the input's root-end line).
    let delta = 1e-3f32;
    let goal = Vec3::new(0.5 + delta.sin(), 3f32.sqrt() / 2.0 - delta.cos(), 0.0);
    let target = TwoBoneTarget::at(goal).with_pole(Vec3::Y * 10.0);
    let result = solver(defaults())
        .solve_pose(&mut pose, [0, 1, 2], &target)
        .unwrap();
    let joint = pose.model().unwrap()[1].translation;
    assert!(
        (joint - Vec3::new(0.5, 3f32.sqrt() / 2.0, 0.0)).length() < 1e-4,
        "{joint}"
    );
    let end = pose.model().unwrap()[2].translation;
    let miss = (end - goal).length();
    assert!(
        miss < 1e-4 * 2.0,
        "end misses the target by {miss:e} while the solve reports {result:?}"
    );
}

// ------------------------------------------------------------------------------------ no pole

/// The documented rule, written independently: the input's bend direction (the joint's offset
/// from the root–end line, perpendicular to it) carried by the minimal rotation from the
/// input's root→end direction to the root→target direction.
fn reference_bend(input: &[Transform; 3], goal: Vec3) -> Vec3 {
    let a = input[0].translation;
    let from = (input[2].translation - a).normalize();
    let bend = perp(input[1].translation - a, from).normalize();
    Quat::from_rotation_arc(from, (goal - a).normalize()) * bend
}

proptest! {
    #![proptest_config(config(256))]

    /// Without a pole the joint bends toward the input's bend direction carried by the
    /// minimal arc onto the aim line; with a pole at `pole_weight` w it turns from there
    /// toward the pole by w of the angle between them (about the aim line).
    #[test]
    fn without_a_pole_the_input_bend_is_carried_by_the_minimal_arc(
        case in chain_case(),
        dir in unit_dir(),
        f in 0.0f32..1.0,
        pole in vec3(3.0),
        w in 0.0f32..1.0,
    ) {
        let (l1, l2) = (case.l1, case.l2);
        let input = case.chain;
        let a = case.root();
        let from = (input[2].translation - a).normalize();
        // A bent input (joint clear of its root-end line) and a target neither nearly behind
        // the input's end nor nearly straight or folded, so every direction is well defined.
        prop_assume!(perp(input[1].translation - a, from).length() > 0.05 * l1);
        let dir = if dir.dot(from) > -0.9 { dir } else { -dir };
        let (goal, _) = in_reach(a, (l1, l2), dir, (f, 0.05));
        let expected = reference_bend(&input, goal);

        let mut chain = input;
        solver(defaults()).solve(&mut chain, &TwoBoneTarget::at(goal)).unwrap();
        let joint_off = perp(chain[1].translation - a, dir);
        prop_assert!(
            dir_angle_deg(joint_off, expected) < 0.05,
            "joint bends {} degrees away from the carried input bend",
            dir_angle_deg(joint_off, expected)
        );

        // Partial pole weight: turned from there toward the pole by w.
        let pole = a + pole * case.scale;
        let pole_off = perp(pole - a, dir);
        prop_assume!(pole_off.length() > 0.1 * case.scale);
        let pole_off = pole_off.normalize();
        let angle = expected.cross(pole_off).dot(dir).atan2(expected.dot(pole_off));
        let blended = Quat::from_axis_angle(dir, w * angle) * expected;
        let settings = TwoBoneIkSettings { pole_weight: w, ..defaults() };
        let mut chain = input;
        solver(settings).solve(&mut chain, &TwoBoneTarget::at(goal).with_pole(pole)).unwrap();
        let joint_off = perp(chain[1].translation - a, dir);
        prop_assert!(
            dir_angle_deg(joint_off, blended) < 0.05,
            "pole weight {w}: joint bends {} degrees away from the blend",
            dir_angle_deg(joint_off, blended)
        );
    }
}

/// A synthetic walk standing in for mocap legs with foot locking (there are no mocap files
/// here). One leg, Y up, walking along +X:
///
/// - thigh 0.45 m, shin 0.43 m; the hip 0.92 m above the ground plane, moving forward at
///   0.9 ± 0.08 m/s (a 4.3 s period, so no two cycles are alike), bobbing ±2 cm twice per
///   cycle and swaying ±2 cm sideways;
/// - a gait cycle of 1.1 s sampled at 120 fps, six cycles (792 frames);
/// - hip flexion 10° ± 20° (30° at contact, −10° at push-off), abduction −2° ± 3°, internal
///   rotation ±(6° ± 2°); knee flexion 5°–70°: a loading bump of about 18° early in stance and
///   the swing peak of 70°;
/// - stance is the first 60 % of each cycle: at contact the foot target locks where the
///   animated ankle is and stays there while the animated ankle slides back (the animation
///   skates: its hip moves slower than its foot sweeps), up to 20 cm from the lock; over the
///   first 12 frames of swing the target blends back to the animated ankle (smoothstep).
///
/// Every target is reachable. Each frame is solved from the animated chain (the input is the
/// animation, not the previous output), with no pole.
struct Walk;

impl Walk {
    const FPS: f32 = 120.0;
    const CYCLE: f32 = 1.1;
    const CYCLES: usize = 6;
    const STANCE: f32 = 0.6;
    const RELEASE_FRAMES: f32 = 12.0;

    fn frames() -> usize {
        (Self::CYCLES as f32 * Self::CYCLE * Self::FPS).round() as usize
    }

    /// Where in its gait cycle `frame` is, in [0, 1).
    fn phase(frame: usize) -> f32 {
        (frame as f32 / Self::FPS / Self::CYCLE).fract()
    }

    /// The animated chain (hip, knee, ankle in model space) on `frame`.
    fn chain(frame: usize) -> [Transform; 3] {
        use std::f32::consts::TAU;
        let t = frame as f32 / Self::FPS;
        let p = Self::phase(frame);
        // A periodic bump of width `w` centred on phase `c`.
        let bump = |c: f32, w: f32| {
            let d = (p - c + 0.5).rem_euclid(1.0) - 0.5;
            (-(d / w) * (d / w)).exp()
        };
        // Speed 0.9 ± 0.08 m/s over a 4.3 s period, so no two cycles are alike.
        let hip = Vec3::new(
            0.9 * t - 0.08 * 4.3 / TAU * (TAU * t / 4.3).cos(),
            0.92 + 0.02 * (2.0 * TAU * p).cos(),
            0.1 + 0.02 * (TAU * p).sin(),
        );
        let flexion = (10.0 + 20.0 * (TAU * p).cos()).to_radians();
        let abduction = (-2.0 + 3.0 * (TAU * p).sin()).to_radians();
        let rotation = ((6.0 + 2.0 * (TAU * t / 3.1).sin()) * (TAU * p + 0.5).sin()).to_radians();
        let knee = (5.0 + 13.0 * bump(0.15, 0.07) + 65.0 * bump(0.72, 0.11)).to_radians();
        let r_hip = Quat::from_rotation_z(flexion)
            * Quat::from_rotation_x(abduction)
            * Quat::from_rotation_y(rotation);
        let r_knee = r_hip * Quat::from_rotation_z(-knee);
        let k = hip + r_hip * Vec3::new(0.0, -0.45, 0.0);
        let ankle = k + r_knee * Vec3::new(0.0, -0.43, 0.0);
        [
            Transform::from_rotation_translation(r_hip, hip),
            Transform::from_rotation_translation(r_knee, k),
            Transform::from_rotation_translation(r_knee, ankle),
        ]
    }

    /// The animated chains and the locked foot targets of every frame.
    fn run() -> Vec<([Transform; 3], Vec3)> {
        let mut lock = Vec3::ZERO;
        let mut released_at = 0usize;
        (0..Self::frames())
            .map(|f| {
                let chain = Self::chain(f);
                let ankle = chain[2].translation;
                let p = Self::phase(f);
                let stance = p < Self::STANCE;
                if stance && (f == 0 || Self::phase(f - 1) >= Self::STANCE) {
                    lock = ankle;
                }
                if !stance && (f == 0 || Self::phase(f - 1) < Self::STANCE) {
                    released_at = f;
                }
                let w = if stance {
                    1.0
                } else {
                    let x = ((f - released_at) as f32 / Self::RELEASE_FRAMES).min(1.0);
                    1.0 - x * x * (3.0 - 2.0 * x)
                };
                (chain, ankle.lerp(lock, w))
            })
            .collect()
    }
}

/// The joint's offset from the root–end line, perpendicular to it.
fn bend_offset(chain: &[Transform; 3]) -> Vec3 {
    let a = chain[0].translation;
    perp(
        chain[1].translation - a,
        (chain[2].translation - a).normalize(),
    )
}

/// What [`measure_walk`] found, in degrees.
#[derive(Debug)]
struct WalkStats {
    max_deviation: f32,
    max_deviation_frame: usize,
    max_turn: f32,
    max_turn_frame: usize,
    max_input_turn: f32,
    max_lock_distance: f32,
    unreached: usize,
}

/// Solves every frame of the walk and measures the largest angle between the solved and the
/// animated bend directions (both projected perpendicular to the root→target line) and the
/// largest per-frame turn of the solved bend direction.
fn measure_walk(ik: &TwoBoneIk) -> WalkStats {
    let mut stats = WalkStats {
        max_deviation: 0.0,
        max_deviation_frame: 0,
        max_turn: 0.0,
        max_turn_frame: 0,
        max_input_turn: 0.0,
        max_lock_distance: 0.0,
        unreached: 0,
    };
    let mut previous: Option<(Vec3, Vec3)> = None;
    for (f, (input, goal)) in Walk::run().into_iter().enumerate() {
        let mut chain = input;
        let result = ik.solve(&mut chain, &TwoBoneTarget::at(goal)).unwrap();
        stats.unreached += usize::from(!result.reached);
        stats.max_lock_distance = stats
            .max_lock_distance
            .max((goal - input[2].translation).length());
        let axis = (goal - input[0].translation).normalize();
        let animated = perp(bend_offset(&input), axis);
        let solved = perp(bend_offset(&chain), axis);
        let deviation = dir_angle_deg(animated, solved);
        if deviation > stats.max_deviation {
            (stats.max_deviation, stats.max_deviation_frame) = (deviation, f);
        }
        if let Some((prev_in, prev_out)) = previous {
            let turn = dir_angle_deg(prev_out, solved);
            if turn > stats.max_turn {
                (stats.max_turn, stats.max_turn_frame) = (turn, f);
            }
            stats.max_input_turn = stats.max_input_turn.max(dir_angle_deg(prev_in, animated));
        }
        previous = Some((animated, solved));
    }
    stats
}

/// Before the carried bend (the upper bone made perpendicular to the aim line) the knee
/// swung up to 179.9 degrees from the animation's bend on this walk (142.8 degrees in one
/// frame): a nearly straight stance leg whose target sits ahead of the animated ankle bent
/// backwards. Now it stays within 0.21 degrees and turns at most 2.77 degrees per frame, as
/// much as the animation's own bend does (2.77).
#[test]
fn walk_with_locked_feet_keeps_the_animated_bend_without_a_pole() {
    let stats = measure_walk(&solver(defaults()));
    eprintln!("walk with locked feet, no pole: {stats:?}");
    // The workload is what it claims.
    assert_eq!(stats.unreached, 0, "{stats:?}");
    assert!(
        (0.15..=0.21).contains(&stats.max_lock_distance),
        "{stats:?}"
    );
    assert!(
        stats.max_deviation <= 45.0,
        "the knee swung {} degrees from the animation's bend (frame {})",
        stats.max_deviation,
        stats.max_deviation_frame
    );
    assert!(
        stats.max_turn <= 4.0,
        "the knee's bend turned {} degrees in one frame (frame {}); the animation's at most {}",
        stats.max_turn,
        stats.max_turn_frame,
        stats.max_input_turn
    );
}
