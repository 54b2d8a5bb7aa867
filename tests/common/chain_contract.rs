//! What FABRIK and CCD both promise, one body per property: tests/fabrik.rs and tests/ccd.rs run
//! every body for their solver through [`chain_contract_tests!`] (validity cases first). The
//! scenarios are the ones the former tests/chain_ik.rs drew for both solvers (its salt, its draw
//! order).

use std::f32::consts::PI;
use std::sync::Arc;

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use sinew::{
    CcdSettings, ChainTarget, EndRotation, ErrorKind, FabrikSettings, IkResult, JointConstraint,
    Limit, Pose, Quat, Skeleton, Transform, Vec3,
};

use super::chains::{
    bits, bone_axis, bone_lengths, build, chain_of, inner_radius, locals_of, random_chain, tip,
    total_length, Draw,
};
use super::limits::random_spec;
use super::rng::Rng;
use super::rotations::rot_between;
use super::solvers::{ccd_settings, fabrik_settings, Kind, Solver};

/// The chain solvers' random scenarios: SplitMix64 streams salted with the former tests/chain_ik.rs
/// constant, so the seeds it recorded keep their meaning.
pub fn seeded(seed: u64) -> Rng {
    Rng::salted(seed, 0x5DEE_CE66_D1A4_F87B)
}

/// What a property body returns: its first failed check, if any.
pub type Checked = Result<(), TestCaseError>;

/// The scenario of `seed`: its stream after drawing a random chain of `n` joints bent up to
/// `bend` radians (bones on the parent's X half the time), the chain and its length.
fn bent_chain(seed: u64, n: usize, bend: f32) -> (Rng, Vec<Transform>, f32) {
    let mut rng = seeded(seed);
    let aligned = rng.chance(0.5);
    let chain = random_chain_of(&mut rng, n, bend, aligned);
    let total = total_length(&chain);
    (rng, chain, total)
}

/// A random chain as the former chain_ik.rs drew them (each bone's length before its bend).
pub fn random_chain_of(rng: &mut Rng, n: usize, bend: f32, x_aligned: bool) -> Vec<Transform> {
    random_chain(rng, n, bend, x_aligned, Draw::LengthFirst)
}

/// A random constraint for chain joint `i` that allows the chain's current local rotation
/// (reference = that rotation), about the joint's bone.
pub fn random_constraint(
    rng: &mut Rng,
    chain: &[Transform],
    root_parent: Quat,
    i: usize,
) -> JointConstraint {
    let reference = locals_of(chain, root_parent)[i];
    random_spec(rng, reference, bone_axis(chain, i)).constraint()
}

/// The invariants of every successful solve: finite unit rotations, scale kept, root pinned,
/// bone lengths kept to 1e-5 relative, and a result that describes the returned chain.
pub fn check_solve(
    what: &str,
    input: &[Transform],
    output: &[Transform],
    target: Vec3,
    result: &IkResult,
    tolerance: f32,
) -> Checked {
    prop_assert!(
        output.iter().all(Transform::is_finite),
        "{what}: non-finite output"
    );
    for (i, (a, b)) in input.iter().zip(output).enumerate() {
        prop_assert!(
            b.rotation.is_normalized(),
            "{what}: joint {i} rotation not unit"
        );
        prop_assert_eq!(a.scale, b.scale, "{}: joint {} scale changed", what, i);
    }
    prop_assert_eq!(
        output[0].translation,
        input[0].translation,
        "{}: root moved",
        what
    );
    let before = bone_lengths(input);
    let after = bone_lengths(output);
    let total: f32 = before.iter().sum();
    for (i, (l0, l1)) in before.iter().zip(&after).enumerate() {
        prop_assert!(
            (l1 - l0).abs() <= 1e-5 * l0.max(1e-3 * total),
            "{what}: bone {i} length {l0} became {l1}"
        );
    }
    let error = (tip(output) - target).length();
    prop_assert!(
        (result.error - error).abs() <= 1e-5 * (total + target.length()).max(1.0),
        "{what}: reported error {} but tip is {error} from the target",
        result.error
    );
    // `reached` says whether the error is within tolerance (ignore a knife-edge tie).
    if (result.error - tolerance).abs() > 1e-6 * tolerance.max(1e-6) {
        prop_assert_eq!(
            result.reached,
            result.error <= tolerance,
            "{}: reached flag vs error {} and tolerance {}",
            what,
            result.error,
            tolerance
        );
    }
    Ok(())
}

/// The tests of this contract for one solver: `chain_contract_tests!(validity, Fabrik)` expands
/// to a module `validity` of the validity cases, `chain_contract_tests!(properties, Fabrik)` to
/// a module `contract` of the properties (with their proptest strategies and case counts). Each
/// test runs the body of the same name in this module for that `Kind`. (Only fabrik.rs and
/// ccd.rs use it; every other test crate compiles it unused.)
#[allow(unused_macros)]
macro_rules! chain_contract_tests {
    (validity, $kind:ident) => {
        /// The validity cases FABRIK and CCD share.
        mod validity {
            $crate::common::chain_contract::chain_contract_tests!(@plain $kind;
                invalid_settings_are_rejected
                errors_leave_the_chain_untouched
                solve_pose_rejects_bad_joint_lists_without_writing
            );
        }
    };
    (properties, $kind:ident) => {
        /// The properties FABRIK and CCD share.
        mod contract {
            use ::proptest::prelude::*;
            use $crate::common::chain_contract::{chain_contract_tests, end_rotation};

            chain_contract_tests!(@props $kind, 48;
                reachable_targets_are_reached(seed in any::<u64>(), n in prop_oneof![Just(4usize), Just(10)], x_aligned in any::<bool>(), from_tail in any::<bool>())
                every_solve_keeps_bone_lengths_and_root(seed in any::<u64>(), n in 2usize..9, constrained in any::<bool>(), stalled in any::<bool>(), end in end_rotation())
                end_rotation_modes(seed in any::<u64>(), n in 2usize..8, far in any::<bool>())
            );
            chain_contract_tests!(@props $kind, 64;
                unreachable_targets_straighten_the_chain(seed in any::<u64>(), n in 2usize..10, relative in any::<bool>())
                zero_length_bones_stay_finite(seed in any::<u64>(), n in 2usize..7, constrained in any::<bool>(), all_zero in any::<bool>())
            );
            chain_contract_tests!(@props $kind, 32;
                solve_pose_matches_the_chain_solve(seed in any::<u64>(), constrained in any::<bool>())
            );
            chain_contract_tests!(@plain $kind; chains_of_subnormal_length_report_their_true_error);
        }
    };
    (@plain $kind:ident; $($name:ident)*) => {
        $(
            #[test]
            fn $name() {
                $crate::common::chain_contract::$name($crate::common::solvers::Kind::$kind);
            }
        )*
    };
    (@props $kind:ident, $cases:expr; $($name:ident($($arg:ident in $strategy:expr),+))*) => {
        ::proptest::proptest! {
            #![proptest_config($crate::common::props::config($cases))]
            $(
                #[test]
                fn $name($($arg in $strategy),+) {
                    $crate::common::chain_contract::$name(
                        $crate::common::solvers::Kind::$kind,
                        $($arg),+
                    )?;
                }
            )*
        }
    };
}

#[allow(unused_imports)]
pub(crate) use chain_contract_tests;

/// Every end rotation mode.
pub fn end_rotation() -> impl Strategy<Value = EndRotation> {
    prop_oneof![
        Just(EndRotation::KeepLocal),
        Just(EndRotation::KeepModel),
        Just(EndRotation::CopyEffector)
    ]
}

// ----------------------------------------------------------------------------------- validity

/// The settings both solvers share are checked the same way, at creation (with `max_joints`
/// below 2) and by `set_settings`, which keeps the old settings on error.
pub fn invalid_settings_are_rejected(kind: Kind) {
    use ErrorKind::{InvalidArgument as Invalid, NonFinite, OutOfRange};
    // Both solvers' settings with one shared field changed (the fields have the same names).
    macro_rules! both_with {
        ($field:ident = $value:expr) => {
            (
                FabrikSettings {
                    $field: $value,
                    ..FabrikSettings::default()
                },
                CcdSettings {
                    $field: $value,
                    ..CcdSettings::default()
                },
            )
        };
    }
    let kind_of = |r: sinew::Result<Solver>| r.err().map(|e| e.kind());
    let (f, c) = (FabrikSettings::default(), CcdSettings::default());
    for max_joints in [0, 1] {
        let made = Solver::try_of(kind, f, c, max_joints);
        assert_eq!(
            kind_of(made),
            Some(OutOfRange),
            "{kind:?} max_joints {max_joints}"
        );
    }
    let bad = [
        (both_with!(precision = 0.0), Invalid),
        (both_with!(precision = -1.0), Invalid),
        (both_with!(precision = f32::NAN), NonFinite),
        (both_with!(precision = f32::INFINITY), NonFinite),
        (both_with!(max_iterations = 0), Invalid),
    ];
    for ((bad_f, bad_c), expected) in bad {
        let made = Solver::try_of(kind, bad_f, bad_c, 4);
        assert_eq!(
            kind_of(made),
            Some(expected),
            "{kind:?} {bad_f:?} {bad_c:?}"
        );
        let mut solver = Solver::of(kind, f, c, 4);
        assert!(solver.set_settings(bad_f, bad_c).is_err());
        assert!(solver.has_settings(&f, &c), "{kind:?}: settings changed");
    }
}

/// Bad targets and chains are rejected with their error kind and leave the chain untouched;
/// so are constraints beyond `max_joints`; afterwards the solver solves like a fresh one.
pub fn errors_leave_the_chain_untouched(kind: Kind) {
    let mut rng = seeded(3);
    let chain = random_chain_of(&mut rng, 5, 1.0, true);
    let long = random_chain_of(&mut rng, 6, 1.0, true);
    let ok = ChainTarget::at(Vec3::new(1.0, 1.0, 0.5));
    let mut solver = Solver::new(kind, 10, true, EndRotation::KeepLocal, 5);
    let name = solver.name();
    let mut expect = |chain_in: &[Transform], target: ChainTarget, kind: ErrorKind| {
        let mut c = chain_in.to_vec();
        let before = bits(&c);
        let err = solver.solve(&mut c, Quat::IDENTITY, &target).unwrap_err();
        assert_eq!(err.kind(), kind, "{name}: {err} for {target:?}");
        assert_eq!(bits(&c), before, "{name}: chain changed on error {err}");
    };
    for bad in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
        expect(
            &chain,
            ChainTarget::at(Vec3::new(0.0, bad, 0.0)),
            ErrorKind::NonFinite,
        );
        let rotation = Some(Quat::from_xyzw(0.0, 0.0, bad, 1.0));
        expect(&chain, ChainTarget { rotation, ..ok }, ErrorKind::NonFinite);
    }
    let zero_rotation = ChainTarget {
        rotation: Some(Quat::from_xyzw(0.0, 0.0, 0.0, 0.0)),
        ..ok
    };
    expect(&chain, zero_rotation, ErrorKind::InvalidArgument);
    expect(&chain[..1], ok, ErrorKind::InvalidArgument);
    expect(&[], ok, ErrorKind::InvalidArgument);
    expect(&long, ok, ErrorKind::OutOfRange);
    let mut nan_chain = chain.clone();
    nan_chain[2].translation.y = f32::NAN;
    expect(&nan_chain, ok, ErrorKind::NonFinite);
    let mut zero_q = chain.clone();
    zero_q[3].rotation = Quat::from_xyzw(0.0, 0.0, 0.0, 0.0);
    expect(&zero_q, ok, ErrorKind::InvalidArgument);

    // set_constraint beyond max_joints; the solver keeps working afterwards, and after all
    // these errors solves exactly like a fresh solver.
    let twist = Limit::Twist {
        min: -0.5,
        max: 0.5,
    };
    let c = JointConstraint::new(Quat::IDENTITY, Vec3::X, twist).unwrap();
    assert_eq!(
        solver.set_constraint(5, Some(c)).unwrap_err().kind(),
        ErrorKind::OutOfRange
    );
    assert_eq!(
        solver.set_constraint(usize::MAX, None).unwrap_err().kind(),
        ErrorKind::OutOfRange
    );
    let mut a = chain.clone();
    solver.solve(&mut a, Quat::IDENTITY, &ok).unwrap();
    let mut fresh = Solver::new(kind, 10, true, EndRotation::KeepLocal, 5);
    let mut b = chain.clone();
    fresh.solve(&mut b, Quat::IDENTITY, &ok).unwrap();
    assert_eq!(
        bits(&a),
        bits(&b),
        "{name}: errors changed the solver's state"
    );
}

/// root(0) -> spine(1) -> shoulder(2) -> upper(3) -> lower(4) -> hand(5) -> finger(6);
/// spine(1) -> head(7). The root is scaled, so model space differs from local space.
pub fn arm_skeleton(rng: &mut Rng) -> Arc<Skeleton> {
    let mut rest = vec![Transform::new(
        rng.vec3(1.0),
        rng.rotation(PI),
        Vec3::splat(1.5),
    )];
    for _ in 1..8 {
        rest.push(Transform::from_rotation_translation(
            rng.rotation(1.0),
            rng.dir() * rng.range(0.3, 1.2),
        ));
    }
    Arc::new(Skeleton::new(&[-1, 0, 1, 2, 3, 4, 5, 1], &rest, None).unwrap())
}

/// Joint lists that are not a parent-to-child run of the skeleton, or too long or out of range,
/// and a non-finite target are rejected without writing the pose; the solver stays usable.
pub fn solve_pose_rejects_bad_joint_lists_without_writing(kind: Kind) {
    let mut rng = seeded(5);
    let skeleton = arm_skeleton(&mut rng);
    let target = ChainTarget::at(Vec3::new(0.5, 0.5, 0.5));
    let mut solver = Solver::new(kind, 10, true, EndRotation::KeepLocal, 4);
    let mut pose = Pose::new(skeleton.clone());
    pose.edit_local(3, |t| t.rotation = Quat::from_rotation_z(0.3))
        .unwrap();
    let before = pose.local().to_vec();
    let cases: [(&[u32], ErrorKind); 8] = [
        (&[2, 4], ErrorKind::InvalidArgument),
        (&[2, 7], ErrorKind::InvalidArgument),
        (&[3, 2], ErrorKind::InvalidArgument),
        (&[1, 2, 3, 3], ErrorKind::InvalidArgument),
        (&[2], ErrorKind::InvalidArgument),
        (&[], ErrorKind::InvalidArgument),
        (&[2, 99], ErrorKind::OutOfRange),
        (&[1, 2, 3, 4, 5], ErrorKind::OutOfRange),
    ];
    for (joints, kind) in cases {
        let err = solver.solve_pose(&mut pose, joints, &target).unwrap_err();
        assert_eq!(err.kind(), kind, "{} {joints:?}: {err}", solver.name());
        assert_eq!(
            pose.local(),
            &before[..],
            "{} {joints:?}: pose changed",
            solver.name()
        );
    }
    let nan = ChainTarget::at(Vec3::new(f32::NAN, 0.0, 0.0));
    let err = solver.solve_pose(&mut pose, &[2, 3, 4], &nan).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::NonFinite);
    assert_eq!(pose.local(), &before[..]);
    // Still usable after the errors.
    solver
        .solve_pose(&mut pose, &[2, 3, 4, 5], &target)
        .unwrap();
}

// --------------------------------------------------------------------- reach and lengths

/// Targets inside the reachable shell are reached within precision (CCD sweeping either way;
/// FABRIK has no `from_tail`), from random bends, given enough iterations. "Enough" is
/// generous: FABRIK needs up to ~1,300 iterations for targets near the inner edge of the shell,
/// CCD up to ~7,000 sweeps near full reach (median 17, 99th percentile ~700, measured on 72,000
/// cases); both stop as soon as they are within tolerance.
pub fn reachable_targets_are_reached(
    kind: Kind,
    seed: u64,
    n: usize,
    x_aligned: bool,
    from_tail: bool,
) -> Checked {
    let mut rng = seeded(seed);
    let chain = random_chain_of(&mut rng, n, 1.2, x_aligned);
    let lengths = bone_lengths(&chain);
    let total: f32 = lengths.iter().sum();
    let inner = inner_radius(&lengths);
    let root_parent = rng.rotation(PI);
    let ccd = CcdSettings {
        start_from_tail: from_tail,
        ..ccd_settings(20_000, false)
    };
    let mut solver = Solver::of(kind, fabrik_settings(5_000, false), ccd, 10);
    for _ in 0..3 {
        let goal = rng.in_shell(chain[0].translation, inner + 0.02 * total, 0.98 * total);
        let mut out = chain.clone();
        let r = solver
            .solve(&mut out, root_parent, &ChainTarget::at(goal))
            .unwrap();
        let tol = solver.tolerance(total);
        let what = format!("{} n={n} from_tail={from_tail} goal={goal}", solver.name());
        check_solve(&what, &chain, &out, goal, &r, tol)?;
        prop_assert!(
            r.reached && r.error <= tol,
            "{what}: not reached: {r:?}, tolerance {tol}"
        );
    }
    Ok(())
}

/// Bone lengths hold, the root stays put and the result is truthful after every solve:
/// reachable and unreachable targets, with and without constraints, any end mode, solving each
/// time from the previous output.
pub fn every_solve_keeps_bone_lengths_and_root(
    kind: Kind,
    seed: u64,
    n: usize,
    constrained: bool,
    stalled: bool,
    end: EndRotation,
) -> Checked {
    let (mut rng, chain, total) = bent_chain(seed, n, 1.5);
    let root_parent = rng.rotation(PI);
    let mut solver = Solver::new(kind, 25, stalled, end, 8);
    if constrained {
        for i in 0..n {
            if rng.chance(0.6) {
                let c = random_constraint(&mut rng, &chain, root_parent, i);
                solver.set_constraint(i, Some(c)).unwrap();
            }
        }
    }
    let mut current = chain.clone();
    for k in 0..6 {
        let goal = rng.in_shell(chain[0].translation, 0.0, 1.6 * total);
        let target = ChainTarget {
            position: goal,
            rotation: Some(rng.rotation(PI)),
        };
        let mut out = current.clone();
        let r = solver.solve(&mut out, root_parent, &target).unwrap();
        let what = format!("{} solve {k} constrained={constrained}", solver.name());
        check_solve(&what, &chain, &out, goal, &r, solver.tolerance(total))?;
        current = out;
    }
    Ok(())
}

// -------------------------------------------------------------- unreachable, degenerate

/// A target beyond reach lays the chain straight from the root toward it (unconstrained), with
/// absolute or relative precision.
pub fn unreachable_targets_straighten_the_chain(
    kind: Kind,
    seed: u64,
    n: usize,
    relative: bool,
) -> Checked {
    let (mut rng, chain, total) = bent_chain(seed, n, 1.5);
    let lengths = bone_lengths(&chain);
    let root = chain[0].translation;
    let goal = rng.in_shell(root, 1.02 * total, 4.0 * total);
    let dir = (goal - root).normalize();
    let fabrik = FabrikSettings {
        relative_precision: relative,
        ..fabrik_settings(10, true)
    };
    let ccd = CcdSettings {
        relative_precision: relative,
        ..ccd_settings(10, true)
    };
    let mut solver = Solver::of(kind, fabrik, ccd, 10);
    let mut out = chain.clone();
    let r = solver
        .solve(&mut out, Quat::IDENTITY, &ChainTarget::at(goal))
        .unwrap();
    let tol = solver.tolerance(total);
    check_solve(solver.name(), &chain, &out, goal, &r, tol)?;
    prop_assert!(!r.reached);
    prop_assert!(
        (r.error - ((goal - root).length() - total)).abs() <= 1e-5 * (goal - root).length()
    );
    let mut along = 0.0;
    for (i, t) in out.iter().enumerate() {
        let expected = root + dir * along;
        prop_assert!(
            (t.translation - expected).length() <= 1e-5 * total.max(1.0),
            "{}: joint {i} at {} not on the line (expected {expected})",
            solver.name(),
            t.translation
        );
        along += lengths.get(i).copied().unwrap_or(0.0);
    }
    Ok(())
}

/// Coincident joints (zero-length bones), even a chain of nothing but, never produce NaN;
/// targets reachable, unreachable, at the root and at the coincident joints.
pub fn zero_length_bones_stay_finite(
    kind: Kind,
    seed: u64,
    n: usize,
    constrained: bool,
    all_zero: bool,
) -> Checked {
    let mut rng = seeded(seed);
    let root = Transform::from_rotation_translation(rng.rotation(PI), rng.vec3(1.0));
    let zero = rng.index(n - 1);
    let locals: Vec<Transform> = (1..n)
        .map(|i| {
            let len = if all_zero || i - 1 == zero {
                0.0
            } else {
                rng.range(0.3, 1.5)
            };
            Transform::from_rotation_translation(rng.rotation(1.0), Vec3::X * len)
        })
        .collect();
    let chain = build(root, &locals);
    let total = total_length(&chain);
    let r0 = chain[0].translation;
    let goals = [
        rng.in_shell(r0, 0.0, total),
        rng.in_shell(r0, 1.5 * total + 0.1, 2.0 * total + 1.0),
        r0,
        chain[zero].translation,
        chain[n - 1].translation + Vec3::splat(1e-3),
    ];
    let mut solver = Solver::new(kind, 30, false, EndRotation::KeepLocal, 8);
    if constrained {
        for i in 0..n {
            let c = random_constraint(&mut rng, &chain, Quat::IDENTITY, i);
            solver.set_constraint(i, Some(c)).unwrap();
        }
    }
    for goal in goals {
        let mut out = chain.clone();
        let r = solver.solve(&mut out, Quat::IDENTITY, &ChainTarget::at(goal));
        let r = r.unwrap_or_else(|e| panic!("{}: {e}", solver.name()));
        prop_assert!(r.error.is_finite());
        check_solve(
            solver.name(),
            &chain,
            &out,
            goal,
            &r,
            solver.tolerance(total),
        )?;
    }
    Ok(())
}

/// A chain of subnormal length whose tip stays a chain length from the target is not
/// reached, and its error is that distance (the squares of subnormal offsets underflow to 0,
/// which once reported error 0 and `reached`). The error is checked against the distance
/// computed in f64.
pub fn chains_of_subnormal_length_report_their_true_error(kind: Kind) {
    let bone = 1e-39f32;
    assert!(bone < f32::MIN_POSITIVE && bone > 0.0);
    let chain = build(
        Transform::IDENTITY,
        &[
            Transform::from_translation(Vec3::X * bone),
            Transform::from_translation(Vec3::X * bone),
        ],
    );
    // Twice the chain length beyond the tip along its line: unreachable, laid straight.
    let goal = Vec3::X * (4.0 * bone);
    let mut solver = Solver::new(kind, 10, true, EndRotation::KeepLocal, 4);
    let mut out = chain.clone();
    let r = solver
        .solve(&mut out, Quat::IDENTITY, &ChainTarget::at(goal))
        .unwrap();
    let d = |a: f32, b: f32| (f64::from(a) - f64::from(b)).abs();
    let t = out[2].translation;
    let truth = (d(t.x, goal.x).powi(2) + d(t.y, goal.y).powi(2) + d(t.z, goal.z).powi(2)).sqrt();
    assert!(
        !r.reached,
        "{}: reached with error {}",
        solver.name(),
        r.error
    );
    assert!(
        (f64::from(r.error) - truth).abs() <= 1e-3 * truth,
        "{}: error {} but the tip is {truth} away",
        solver.name(),
        r.error
    );
}

// ------------------------------------------------------------------------- end rotations

/// The tip's rotation: KeepLocal keeps it relative to its solved parent, KeepModel keeps its
/// model rotation, CopyEffector takes the target's (normalized), or keeps the model rotation
/// when the target has none. Reachable and unreachable targets.
pub fn end_rotation_modes(kind: Kind, seed: u64, n: usize, far: bool) -> Checked {
    let (mut rng, chain, total) = bent_chain(seed, n, 1.0);
    let root_parent = rng.rotation(PI);
    let goal = if far {
        rng.in_shell(chain[0].translation, 1.2 * total, 2.0 * total)
    } else {
        rng.in_shell(chain[0].translation, 0.0, total)
    };
    let wanted = rng.rotation(PI);
    let modes = [
        (EndRotation::KeepLocal, None),
        (EndRotation::KeepModel, Some(wanted)),
        (EndRotation::CopyEffector, Some(wanted * 2.5)),
        (EndRotation::CopyEffector, None),
    ];
    for (end, rotation) in modes {
        let mut solver = Solver::new(kind, 30, true, end, 8);
        let mut out = chain.clone();
        let target = ChainTarget {
            position: goal,
            rotation,
        };
        let r = solver.solve(&mut out, root_parent, &target).unwrap();
        let what = format!("{} {end:?}", solver.name());
        check_solve(&what, &chain, &out, goal, &r, solver.tolerance(total))?;
        let t = n - 1;
        let got = out[t].rotation;
        let angle = match (end, rotation) {
            (EndRotation::KeepLocal, _) => rot_between(
                chain[t - 1].rotation.conjugate() * chain[t].rotation,
                out[t - 1].rotation.conjugate() * got,
            ),
            (EndRotation::CopyEffector, Some(q)) => rot_between(q.normalize(), got),
            _ => rot_between(chain[t].rotation, got),
        };
        prop_assert!(angle <= 1e-5, "{what}: tip rotation off by {angle} rad");
    }
    Ok(())
}

// ------------------------------------------------------------------------------ solve_pose

/// Solving joints of a pose equals solving their model-space chain (relative to the chain root's
/// parent) and converting back; joints below the chain follow, others stay.
pub fn solve_pose_matches_the_chain_solve(kind: Kind, seed: u64, constrained: bool) -> Checked {
    let mut rng = seeded(seed);
    let skeleton = arm_skeleton(&mut rng);
    let joints = [2u32, 3, 4, 5];
    let mut pose = Pose::new(skeleton.clone());
    let model_before = pose.model().unwrap().to_vec();
    let chain: Vec<Transform> = joints.iter().map(|&j| model_before[j as usize]).collect();
    let root_parent = model_before[1].rotation;
    let total = total_length(&chain);
    let goal = rng.in_shell(chain[0].translation, 0.0, 1.3 * total);
    let target = ChainTarget {
        position: goal,
        rotation: Some(rng.rotation(PI)),
    };
    let mut crng = seeded(seed ^ 1);
    let constraints: Vec<Option<JointConstraint>> = (0..4)
        .map(|i| {
            (constrained && crng.chance(0.7))
                .then(|| random_constraint(&mut crng, &chain, root_parent, i))
        })
        .collect();
    for end in [EndRotation::KeepLocal, EndRotation::CopyEffector] {
        let make = || {
            let mut s = Solver::new(kind, 20, true, end, 6);
            for (i, c) in constraints.iter().enumerate() {
                s.set_constraint(i, *c).unwrap();
            }
            s
        };
        let (mut by_chain, mut by_pose) = (make(), make());
        let mut solved = chain.clone();
        let r1 = by_chain.solve(&mut solved, root_parent, &target).unwrap();
        let mut p = Pose::new(skeleton.clone());
        let r2 = by_pose.solve_pose(&mut p, &joints, &target).unwrap();
        let what = format!("{} {end:?}", by_chain.name());
        prop_assert!(
            (r1.error - r2.error).abs() <= 1e-5 * total,
            "{what}: {r1:?} vs {r2:?}"
        );
        prop_assert_eq!(r1.reached, r2.reached);
        let model = p.model().unwrap().to_vec();
        for (c, &j) in joints.iter().enumerate() {
            let m = model[j as usize];
            prop_assert!(
                (m.translation - solved[c].translation).length() <= 1e-5 * total.max(1.0),
                "{what}: joint {j} at {} vs chain {}",
                m.translation,
                solved[c].translation
            );
            prop_assert!(
                rot_between(m.rotation, solved[c].rotation) <= 1e-5,
                "{what}: joint {j} rotation"
            );
        }
        for j in [0usize, 1, 7] {
            prop_assert_eq!(model[j], model_before[j], "{}: joint {} moved", what, j);
        }
        let finger = model[5].mul_transform(&skeleton.rest_pose()[6]);
        prop_assert!((model[6].translation - finger.translation).length() <= 1e-5 * total.max(1.0));
        for j in [0usize, 1, 6, 7] {
            prop_assert_eq!(
                p.local().get(j),
                skeleton.rest_pose()[j],
                "{}: local {} changed",
                what,
                j
            );
        }
    }
    Ok(())
}

// ------------------------------------------------------------- the FABRIK paper's benchmark

/// The FABRIK paper's setup: a 10-joint chain of unit bones, `cases` random targets inside its
/// reach, tolerance 1e-3 of the chain length, 1000 iterations without the stall stop; from a
/// straight chain and from random bends (the same targets for both). Prints and returns, for
/// each start, its name, the mean iterations (unreached cases count as 1000) and the count
/// reached.
pub fn paper_benchmark(kind: Kind, cases: usize) -> [(&'static str, f32, usize); 2] {
    [false, true].map(|bent| {
        let start = if bent { "random bends" } else { "straight" };
        let mut solver = Solver::of(
            kind,
            fabrik_settings(1000, false),
            ccd_settings(1000, false),
            10,
        );
        // Separate streams, so the straight and the bent runs see the same targets.
        let mut targets = seeded(1);
        let mut bends = seeded(1 ^ 0xB3D5);
        let (mut sum, mut reached) = (0u64, 0);
        for _ in 0..cases {
            let chain = chain_of(Transform::IDENTITY, &[1.0; 9], |_| {
                if bent {
                    bends.rotation(0.8)
                } else {
                    Quat::IDENTITY
                }
            });
            let goal = targets.in_shell(Vec3::ZERO, 0.0, 9.0);
            let mut out = chain.clone();
            let r = solver
                .solve(&mut out, Quat::IDENTITY, &ChainTarget::at(goal))
                .unwrap();
            assert!(r.error.is_finite() && out.iter().all(Transform::is_finite));
            sum += u64::from(r.iterations);
            reached += usize::from(r.reached);
        }
        let mean = sum as f32 / cases as f32;
        let name = format!("{},", solver.name());
        eprintln!(
            "{name:<7} 10 joints, {start}: mean {mean:.2} iterations, {reached}/{cases} reached"
        );
        (start, mean, reached)
    })
}
