//! Joint constraints: validity cases first; then projection onto a limit follows the documented
//! rule, limits hold after every FABRIK and CCD solve (checked independently of
//! `JointConstraint::project`), a bone pushed against its cone slides along it without spinning,
//! constrained chains still reach targets the limits allow, and projection onto a limit is
//! continuous. Constrained chains frame after frame: chain_tracking.rs.

use std::f32::consts::PI;

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use sinew::{
    Ccd, CcdJoint, CcdSettings, ChainTarget, EndRotation, ErrorKind, JointConstraint, Limit, Quat,
    Transform, Vec3,
};

mod common;

use common::chain_contract::end_rotation;
use common::chains::{self, bone_axis, bone_lengths, build, locals_of, total_length, Draw};
use common::limits::{
    check_allowed, constrain, pose_chain, random_allowed, random_spec, random_spec_of, split, Spec,
    LIMIT_TOL,
};
use common::props::config;
use common::rng::Rng;
use common::rotations::rot_between;
use common::solvers::{common_settings, Kind, Solver};

// ------------------------------------------------------------------------------------ helpers

/// This file's random scenarios: SplitMix64 streams salted with this file's constant, so a
/// proptest seed describes a whole scenario and rates are reproducible.
fn seeded(seed: u64) -> Rng {
    Rng::salted(seed, 0x2545_F491_4F6C_DD1D)
}

/// A random chain as this file draws them (each bone's bend before its length).
fn random_chain(rng: &mut Rng, n: usize, bend: f32, x_aligned: bool) -> Vec<Transform> {
    chains::random_chain(rng, n, bend, x_aligned, Draw::BendFirst)
}

/// FABRIK, or CCD sweeping from the tail or from the root, for chains of up to 10 joints.
fn solver(
    kind: Kind,
    max_iterations: u32,
    stalled: bool,
    end: EndRotation,
    from_tail: bool,
) -> Solver {
    let (fabrik, ccd) = common_settings(max_iterations, stalled, end);
    let ccd = CcdSettings {
        start_from_tail: from_tail,
        ..ccd
    };
    Solver::of(kind, fabrik, ccd, 10)
}

/// The scenario of `seed` for one limit: its stream after drawing a random limit (about a random
/// reference and bone) and a random rotation to project, the limit and the rotation.
fn limit_case(seed: u64) -> (Rng, Spec, Quat) {
    let mut rng = seeded(seed);
    let (reference, bone) = (rng.rotation(PI), rng.dir());
    let spec = random_spec(&mut rng, reference, bone);
    let q = rng.rotation(PI);
    (rng, spec, q)
}

/// A random constrained chain: its model transforms, the root's parent rotation, each joint's
/// current local rotation, its limit if any and its length.
struct Rig {
    chain: Vec<Transform>,
    root_parent: Quat,
    reference: Vec<Quat>,
    specs: Vec<Option<Spec>>,
    total: f32,
}

/// A chain of `n` joints bent up to `bend` radians (bones on the parent's X when `x_aligned`),
/// a random root parent, and on each joint, with chance `p`, a random limit about its current
/// local rotation, of kind `kind` (as `random_spec_of`) or any.
fn random_rig(
    rng: &mut Rng,
    n: usize,
    (bend, x_aligned): (f32, bool),
    p: f32,
    kind: Option<usize>,
) -> Rig {
    let chain = random_chain(rng, n, bend, x_aligned);
    let root_parent = rng.rotation(PI);
    let reference = locals_of(&chain, root_parent);
    let specs = (0..n)
        .map(|i| {
            (p > 0.0 && rng.chance(p)).then(|| {
                let k = kind.unwrap_or_else(|| rng.index(4));
                random_spec_of(rng, reference[i], bone_axis(&chain, i), k)
            })
        })
        .collect();
    let total = total_length(&chain);
    Rig {
        chain,
        root_parent,
        reference,
        specs,
        total,
    }
}

/// Checks every constrained joint of a solved chain, independently and with `violation`.
fn check_chain_limits(
    what: &str,
    out: &[Transform],
    root_parent: Quat,
    specs: &[Option<Spec>],
) -> Result<(), TestCaseError> {
    let locals = locals_of(out, root_parent);
    for (i, spec) in specs.iter().enumerate() {
        if let Some(spec) = spec {
            if let Err(e) = check_allowed(spec, locals[i], LIMIT_TOL) {
                return Err(TestCaseError::fail(format!(
                    "{what}: joint {i} ({:?}): {e}",
                    spec.limit
                )));
            }
            let c = spec.constraint();
            let moved = rot_between(c.project(locals[i]), locals[i]);
            prop_assert!(
                moved <= LIMIT_TOL,
                "{what}: joint {i} projection moves it by {moved}"
            );
            let v = c.violation(locals[i]);
            prop_assert!(v <= LIMIT_TOL, "{what}: joint {i} violation {v}");
        }
    }
    Ok(())
}

// ----------------------------------------------------------------------------------- validity

#[test]
fn invalid_constraints_are_rejected() {
    let kind = |reference: Quat, axis: Vec3, limit: Limit| {
        JointConstraint::new(reference, axis, limit)
            .unwrap_err()
            .kind()
    };
    let q = Quat::IDENTITY;
    let cone = |a: f32, b: f32, twist| Limit::Cone {
        half_angle_1: a,
        half_angle_2: b,
        twist,
    };
    let ok = cone(0.5, 0.5, None);
    let nan = f32::NAN;
    use ErrorKind::{InvalidArgument as Invalid, NonFinite};
    assert_eq!(
        kind(Quat::from_xyzw(nan, 0.0, 0.0, 1.0), Vec3::X, ok),
        NonFinite
    );
    assert_eq!(
        kind(Quat::from_xyzw(0.0, 0.0, 0.0, 0.0), Vec3::X, ok),
        Invalid
    );
    assert_eq!(kind(q, Vec3::ZERO, ok), Invalid);
    assert_eq!(kind(q, Vec3::new(f32::INFINITY, 0.0, 0.0), ok), NonFinite);
    assert_eq!(kind(q, Vec3::X, cone(-0.1, 0.5, None)), Invalid);
    assert_eq!(kind(q, Vec3::X, cone(0.5, 3.2, None)), Invalid);
    assert_eq!(kind(q, Vec3::X, cone(nan, 0.5, None)), NonFinite);
    assert_eq!(kind(q, Vec3::X, cone(0.5, 0.5, Some((0.5, -0.5)))), Invalid);
    assert_eq!(kind(q, Vec3::X, cone(0.5, 0.5, Some((-4.0, 0.5)))), Invalid);
    assert_eq!(
        kind(q, Vec3::X, cone(0.5, 0.5, Some((nan, 0.5)))),
        NonFinite
    );
    for make in [
        (|min, max| Limit::Hinge { min, max }) as fn(f32, f32) -> Limit,
        |min, max| Limit::Twist { min, max },
    ] {
        assert_eq!(kind(q, Vec3::X, make(1.0, -1.0)), Invalid);
        assert_eq!(kind(q, Vec3::X, make(-1.0, 3.5)), Invalid);
        assert_eq!(kind(q, Vec3::X, make(-1.0, nan)), NonFinite);
        assert_eq!(kind(q, Vec3::X, make(f32::NEG_INFINITY, 0.0)), NonFinite);
        assert!(JointConstraint::new(q, Vec3::X, make(-PI, PI)).is_ok());
        assert!(JointConstraint::new(q, Vec3::X, make(0.3, 0.3)).is_ok());
    }
    // Boundary values are valid; a non-unit reference and axis are normalized.
    let c = JointConstraint::new(q * 3.0, Vec3::Y * 2.0, cone(0.0, PI, Some((-PI, PI)))).unwrap();
    assert!(c.reference().abs_diff_eq(q, 1e-6));
    assert!(c.axis().abs_diff_eq(Vec3::Y, 1e-6));
}

// ------------------------------------------------------------------- projection (unit level)

proptest! {
    #![proptest_config(config(256))]

    /// Projection lands inside the limit (checked independently), leaves allowed rotations
    /// alone, is idempotent, and violation is 0 exactly when allowed.
    #[test]
    fn projection_lands_inside_and_keeps_allowed_rotations(seed in any::<u64>()) {
        let (mut rng, spec, q) = limit_case(seed);
        let c = spec.constraint();
        let p = c.project(q);
        prop_assert!(p.is_normalized());
        if let Err(e) = check_allowed(&spec, p, LIMIT_TOL) {
            return Err(TestCaseError::fail(format!("{spec:?}: projected {q} -> {p}: {e}")));
        }
        prop_assert!(c.violation(p) <= LIMIT_TOL);
        prop_assert!(rot_between(c.project(p), p) <= 1e-4, "not idempotent");
        let inside = random_allowed(&mut rng, &spec);
        prop_assert!(check_allowed(&spec, inside, 0.0).is_ok() || check_allowed(&spec, inside, 1e-5).is_ok());
        prop_assert!(rot_between(c.project(inside), inside) <= 1e-4, "moved an allowed rotation");
        // "0 when allowed".
        prop_assert!(c.violation(inside) <= 1e-5, "violation {} of an allowed rotation", c.violation(inside));
        // The violation measures the distance moved.
        prop_assert!((c.violation(q) - rot_between(p, q)).abs() <= 1e-3);
    }
}

/// The documented projection, written from the README: swing and twist (about the axis,
/// relative to the reference) limited on their own (the swing's rotation vector to the nearest
/// point of the filled ellipse, found here by sampling its boundary; the twist to the nearer
/// end of its range; a hinge's swing dropped), recombined as swing times twist.
fn documented_projection(spec: &Spec, local: Quat) -> Quat {
    let (swing, twist) = split(spec.relative(local));
    let v = swing.to_scaled_axis();
    let clamp = |a: f32, (min, max): (f32, f32)| {
        if (min..=max).contains(&a) {
            return a;
        }
        let around = |b: f32| {
            let d = (a - b).abs() % (2.0 * PI);
            d.min(2.0 * PI - d)
        };
        if around(min) <= around(max) {
            min
        } else {
            max
        }
    };
    let (swing_v, twist_a) = match spec.limit {
        Limit::Cone {
            half_angle_1: a,
            half_angle_2: b,
            twist: range,
        } => {
            let inside = a > 0.0 && b > 0.0 && (v.y / a).powi(2) + (v.z / b).powi(2) <= 1.0;
            let near = if inside {
                (v.y, v.z)
            } else {
                (0..20_000)
                    .map(|k| {
                        let t = k as f32 * 2.0 * PI / 20_000.0;
                        (a * t.cos(), b * t.sin())
                    })
                    .min_by(|p, q| {
                        let d = |(y, z): (f32, f32)| (y - v.y).hypot(z - v.z);
                        d(*p).total_cmp(&d(*q))
                    })
                    .unwrap()
            };
            (
                Vec3::new(0.0, near.0, near.1),
                range.map_or(twist, |r| clamp(twist, r)),
            )
        }
        Limit::Hinge { min, max } => (Vec3::ZERO, clamp(twist, (min, max))),
        Limit::Twist { min, max } => (v, clamp(twist, (min, max))),
    };
    spec.local_at(swing_v, twist_a)
}

proptest! {
    #![proptest_config(config(64))]

    /// `project` does what the README says (within the sampling of the reference's ellipse).
    #[test]
    fn projection_follows_the_documented_rule(seed in any::<u64>()) {
        let (_, spec, q) = limit_case(seed);
        let got = spec.constraint().project(q);
        let want = documented_projection(&spec, q);
        prop_assert!(
            rot_between(got, want) <= 2e-3,
            "{spec:?}: {q} projects to {got}, the documented rule gives {want}"
        );
    }
}

proptest! {
    #![proptest_config(config(64))]

    /// README: where a cone cuts a joint's turn short, the joint's axis goes by the shortest arc
    /// to where projection puts it and keeps only the spin about it that the turn asked for. One
    /// CCD sweep over a single bone held by a cone about it, pushed well past the cone: the
    /// sweep turns the bone by the shortest arc toward the target (no spin about the bone), so
    /// the joint must turn by the shortest arc from its bone to the projected bone and then its
    /// twist range, if any (plain projection of the overshooting rotation leaves a spin).
    #[test]
    fn a_bone_pushed_against_its_cone_slides_without_spinning(seed in any::<u64>()) {
        let mut rng = seeded(seed);
        let root_parent = rng.rotation(PI);
        let reference = rng.rotation(PI);
        let spec = random_spec_of(&mut rng, reference, Vec3::X, 0);
        let start = random_allowed(&mut rng, &spec);
        let root = Transform::from_rotation_translation(root_parent * start, rng.vec3(1.0));
        let chain = build(root, &[Transform::from_translation(Vec3::X)]);
        let bone = root.rotation * Vec3::X;
        let toward = rng.dir();
        // What the sweep asks for, in the parent's frame; cases the cone does not cut well short,
        // and turns near half a turn (where the shortest arc is ill-defined), are not this rule.
        let arc = Quat::from_rotation_arc(bone, toward);
        let asked = root_parent.conjugate() * arc * root_parent * start;
        let projected = documented_projection(&spec, asked);
        prop_assume!(rot_between(asked, projected) > 0.05 && bone.dot(toward) > -0.9);
        let along = Quat::from_rotation_arc(start * Vec3::X, projected * Vec3::X) * start;
        let want = documented_projection(&spec, along);
        // The solve keeps its best iterate: only sweeps that bring the tip closer are kept.
        let goal = root.translation + toward * 0.5;
        let tip_of = |local: Quat| root.translation + root_parent * local * Vec3::X;
        prop_assume!((tip_of(want) - goal).length() < (tip_of(start) - goal).length() - 1e-3);
        // One sweep, nothing else: a per-joint rotation limit that never binds here keeps the
        // solve to CCD's own sweep.
        let mut ccd = Ccd::new(CcdSettings { max_iterations: 1, ..CcdSettings::default() }, 2).unwrap();
        ccd.set_joint(0, CcdJoint { rotation_limit_degrees: 179.0, weight: 1.0 }).unwrap();
        ccd.set_constraint(0, Some(spec.constraint())).unwrap();
        let mut out = chain.clone();
        ccd.solve(&mut out, root_parent, &ChainTarget::at(goal)).unwrap();
        let got = root_parent.conjugate() * out[0].rotation;
        prop_assert!(
            rot_between(got, want) <= 2e-3,
            "{spec:?}: from {start} toward {toward}: got {got}, the documented rule gives {want} ({:.4} rad off; plain projection {projected})",
            rot_between(got, want)
        );
    }
}

/// `violation` is documented as 0 for allowed rotations; a rotation well inside a cone must
/// not report a violation of the order of 1e-3 rad.
#[test]
fn violation_is_zero_well_inside_the_limit() {
    let reference = Quat::from_rotation_y(0.1);
    let cone = Limit::Cone {
        half_angle_1: 0.6,
        half_angle_2: 0.6,
        twist: None,
    };
    let c = JointConstraint::new(reference, Vec3::X, cone).unwrap();
    let local = reference * Quat::from_rotation_z(0.02);
    assert!(
        rot_between(c.project(local), local) <= 1e-6,
        "project keeps it"
    );
    assert!(
        c.violation(local) <= 1e-5,
        "violation {} for a rotation 0.02 rad into a 0.6 rad cone",
        c.violation(local)
    );
}

// ------------------------------------------------------------- limits hold after every solve

proptest! {
    #![proptest_config(config(48))]

    /// Cone (with and without twist), hinge and twist limits on several joints hold after every
    /// solve toward random targets, reachable or not, for both solvers, solving each time from
    /// the previous output.
    #[test]
    fn limits_hold_after_every_solve(
        seed in any::<u64>(),
        n in 2usize..8,
        x_aligned in any::<bool>(),
        end in end_rotation(),
        stalled in any::<bool>(),
    ) {
        let mut rng = seeded(seed);
        let Rig { chain, root_parent, specs, total, .. } = random_rig(&mut rng, n, (1.2, x_aligned), 0.75, None);
        let solvers = [
            solver(Kind::Fabrik, 30, stalled, end, false),
            solver(Kind::Ccd, 30, stalled, end, true),
            solver(Kind::Ccd, 30, stalled, end, false),
        ];
        for mut solver in solvers {
            constrain(&mut solver, &specs);
            let mut current = chain.clone();
            for k in 0..5 {
                let goal = rng.in_ball(chain[0].translation, 1.5 * total);
                let target = ChainTarget { position: goal, rotation: Some(rng.rotation(PI)) };
                let mut out = current.clone();
                solver.solve(&mut out, root_parent, &target).unwrap();
                let lengths = bone_lengths(&out);
                for (l0, l1) in bone_lengths(&chain).iter().zip(&lengths) {
                    prop_assert!((l0 - l1).abs() <= 1e-5 * l0);
                }
                let what = format!("{} solve {k}", solver.name());
                check_chain_limits(&what, &out, root_parent, &specs)?;
                current = out;
            }
        }
    }

    /// Solving toward a fixed target again and again from the previous output never gets
    /// farther from it (a static target must not make the chain drift), with and without
    /// constraints, reachable or not.
    #[test]
    fn static_targets_never_drift_away(
        seed in any::<u64>(),
        n in 2usize..8,
        constrained in any::<bool>(),
        stalled in any::<bool>(),
    ) {
        let mut rng = seeded(seed);
        let p = if constrained { 0.8 } else { 0.0 };
        let Rig { chain, root_parent, specs, total, .. } = random_rig(&mut rng, n, (1.0, true), p, None);
        let goal = rng.in_ball(chain[0].translation, 1.3 * total);
        for mut solver in [Kind::Fabrik, Kind::Ccd].map(|k| solver(k, 20, stalled, EndRotation::KeepLocal, true)) {
            constrain(&mut solver, &specs);
            let mut current = chain.clone();
            let mut error = (current[n - 1].translation - goal).length();
            for k in 0..4 {
                let mut out = current.clone();
                let r = solver.solve(&mut out, root_parent, &ChainTarget::at(goal)).unwrap();
                prop_assert!(
                    r.error <= error + 1e-5 * total,
                    "{} solve {k}: error went from {error} to {}", solver.name(), r.error
                );
                error = r.error;
                current = out;
            }
        }
    }
}

// ------------------------------------------------------ convergence on allowed targets

/// Success rate reaching targets produced by forward kinematics of random poses that satisfy
/// the constraints, solving from the reference pose (a different, allowed start), with FABRIK
/// or CCD (from the tail) and no stall stop. `kind` forces one kind of limit (0 cone, 2 hinge,
/// 3 twist); `None` mixes them.
fn allowed_target_success(
    solver_kind: Kind,
    max_iterations: u32,
    kind: Option<usize>,
    cases: usize,
    seed: u64,
) -> (usize, usize) {
    let mut rng = seeded(seed);
    let mut reached = 0;
    for _ in 0..cases {
        let n = 3 + rng.index(5);
        let Rig {
            chain,
            root_parent,
            reference,
            specs,
            ..
        } = random_rig(&mut rng, n, (0.8, true), 0.8, kind);
        let goal_locals: Vec<Quat> = (0..n)
            .map(|i| match &specs[i] {
                Some(s) => random_allowed(&mut rng, s),
                None => reference[i] * rng.rotation(1.0),
            })
            .collect();
        let goal_chain = pose_chain(&chain, root_parent, &goal_locals);
        let goal = goal_chain[n - 1].translation;
        let mut solver = solver(
            solver_kind,
            max_iterations,
            false,
            EndRotation::KeepLocal,
            true,
        );
        constrain(&mut solver, &specs);
        let mut out = chain.clone();
        let r = solver
            .solve(&mut out, root_parent, &ChainTarget::at(goal))
            .unwrap();
        assert!(out.iter().all(Transform::is_finite));
        let locals = locals_of(&out, root_parent);
        for (i, s) in specs.iter().enumerate() {
            if let Some(s) = s {
                assert!(
                    check_allowed(s, locals[i], LIMIT_TOL).is_ok(),
                    "joint {i} left its limit"
                );
            }
        }
        reached += usize::from(r.reached);
    }
    (reached, cases)
}

#[test]
fn constrained_chains_reach_targets_the_limits_allow() {
    let rate = |(ok, n): (usize, usize)| 100.0 * ok as f32 / n as f32;
    let [f, c] = Kind::ALL.map(|k| allowed_target_success(k, 500, None, 300, 1));
    eprintln!(
        "allowed targets reached, mixed limits: FABRIK {}/{} ({:.1}%), CCD {}/{} ({:.1}%)",
        f.0,
        f.1,
        rate(f),
        c.0,
        c.1,
        rate(c)
    );
    // Per kind of limit, with fewer cases and iterations (the rates do not move with more).
    for (kind, name) in [(0, "cones"), (2, "hinges"), (3, "twist limits")] {
        let [fk, ck] = Kind::ALL.map(|k| allowed_target_success(k, 200, Some(kind), 100, 2));
        eprintln!(
            "  {name} only: FABRIK {:.0}%, CCD {:.0}%",
            rate(fk),
            rate(ck)
        );
    }
    let mut failures = Vec::new();
    for (name, r) in [("FABRIK", f), ("CCD", c)] {
        if rate(r) < 90.0 {
            failures.push(format!(
                "{name} reached only {}/{} allowed targets",
                r.0, r.1
            ));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

// -------------------------------------------------------------------- projection continuity

/// Largest ratio of projected step to input step along a path from an allowed rotation across
/// the limit boundary, built in swing (rotation vector) and twist (angle) coordinates.
fn worst_step_ratio(spec: &Spec, start: (Vec3, f32), end: (Vec3, f32), steps: usize) -> f32 {
    let c = spec.constraint();
    let at = |t: f32| {
        let v = start.0.lerp(end.0, t);
        let tw = start.1 + (end.1 - start.1) * t;
        spec.local_at(v, tw)
    };
    let mut worst = 0.0f32;
    let (mut q0, mut p0) = (at(0.0), c.project(at(0.0)));
    for k in 1..=steps {
        let q1 = at(k as f32 / steps as f32);
        let p1 = c.project(q1);
        let step_in = rot_between(q0, q1);
        let step_out = rot_between(p0, p1);
        // Float noise floor: 2e-6 rad.
        worst = worst.max((step_out - 2e-6).max(0.0) / step_in.max(1e-6));
        (q0, p0) = (q1, p1);
    }
    worst
}

proptest! {
    #![proptest_config(config(96))]

    /// Moving a rotation smoothly across a cone, hinge or twist boundary moves the projection
    /// smoothly: no projected step exceeds a small multiple of the input step.
    #[test]
    fn projection_is_continuous_across_boundaries(seed in any::<u64>(), kind in 0usize..4) {
        let mut rng = seeded(seed);
        let reference = rng.rotation(PI);
        let axis = rng.dir();
        let (lo, hi) = (rng.range(-2.0, 0.0), rng.range(0.0, 2.0));
        let limit = match kind {
            0 => Limit::Cone { half_angle_1: rng.range(0.1, 1.3), half_angle_2: rng.range(0.1, 1.3), twist: None },
            1 => Limit::Cone { half_angle_1: rng.range(0.1, 1.3), half_angle_2: rng.range(0.1, 1.3), twist: Some((lo, hi)) },
            2 => Limit::Hinge { min: lo, max: hi },
            _ => Limit::Twist { min: lo, max: hi },
        };
        let spec = Spec { reference, axis, limit };
        // Twist stays clear of the point opposite the range, where "nearest end" switches.
        let room = 0.45 * (2.0 * PI - (hi - lo));
        let twist_inside = rng.range(lo, hi);
        let twist_outside = if rng.chance(0.5) { hi + rng.range(0.0, room) } else { lo - rng.range(0.0, room) };
        let swing = |rng: &mut Rng, max: f32| {
            let t = rng.range(0.0, 2.0 * PI);
            Vec3::new(0.0, t.cos(), t.sin()) * rng.range(0.0, max)
        };
        let (start, end) = match limit {
            Limit::Cone { half_angle_1: a, half_angle_2: b, .. } => {
                let t = rng.range(0.0, 2.0 * PI);
                let r = 0.9 * rng.unit_f32();
                let inside = Vec3::new(0.0, a * r * t.cos(), b * r * t.sin());
                let outside = swing(&mut rng, 2.0);
                ((inside, twist_inside), (outside, twist_outside))
            }
            _ => ((swing(&mut rng, 1.5), twist_inside), (swing(&mut rng, 1.5), twist_outside)),
        };
        let ratio = worst_step_ratio(&spec, start, end, 400);
        prop_assert!(ratio <= 4.0, "{spec:?}: projected step {ratio} times the input step");
    }
}

#[test]
fn projection_is_continuous_on_hand_picked_crossings() {
    // Straight through an elliptical cone's boundary along each half-axis and diagonally.
    let spec = Spec {
        reference: Quat::from_rotation_z(0.4),
        axis: Vec3::X,
        limit: Limit::Cone {
            half_angle_1: 1.0,
            half_angle_2: 0.3,
            twist: Some((-0.5, 0.5)),
        },
    };
    for dir in [
        Vec3::Y,
        Vec3::Z,
        Vec3::new(0.0, 1.0, 1.0).normalize(),
        -Vec3::Y,
    ] {
        let r = worst_step_ratio(&spec, (Vec3::ZERO, 0.0), (dir * 2.0, 1.2), 1000);
        assert!(r <= 4.0, "cone crossing along {dir}: ratio {r}");
    }
    let hinge = Spec {
        reference: Quat::IDENTITY,
        axis: Vec3::Z,
        limit: Limit::Hinge {
            min: -0.2,
            max: 1.5,
        },
    };
    let r = worst_step_ratio(
        &hinge,
        (Vec3::ZERO, 0.0),
        (Vec3::new(0.0, 0.4, 0.0), 2.5),
        1000,
    );
    assert!(r <= 4.0, "hinge crossing: ratio {r}");
    let twist = Spec {
        reference: Quat::from_rotation_y(1.0),
        axis: Vec3::new(1.0, 1.0, 0.0),
        limit: Limit::Twist {
            min: -1.0,
            max: 0.2,
        },
    };
    let r = worst_step_ratio(
        &twist,
        (Vec3::new(0.0, 0.5, 0.0), 0.0),
        (Vec3::new(0.0, -0.5, 1.0), -2.5),
        1000,
    );
    assert!(r <= 4.0, "twist crossing: ratio {r}");
}
