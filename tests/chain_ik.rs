//! Chain IK (FABRIK and CCD): the behaviour a user relies on, checked on random chains, along
//! target paths and on the FABRIK paper's benchmark setup. (Hand retargeting: hand_retarget.rs.)

use std::f32::consts::PI;
use std::sync::Arc;

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use sinew::ik::CcdJoint;
use sinew::{
    Ccd, CcdSettings, ChainTarget, EndRotation, ErrorKind, Fabrik, FabrikSettings, IkResult,
    JointConstraint, Limit, Pose, Quat, Skeleton, Transform, Vec3,
};

mod common;

use common::chains::{bits, bone_axis, bone_lengths, build, locals_of, tip, total_length};
use common::props::config;
use common::rng::Rng;
use common::rotations::rot_between;
use common::solvers::{ccd_settings, fabrik_settings, Solver};

// ------------------------------------------------------------------------------------ helpers

/// This file's random scenarios: SplitMix64 streams salted with this file's constant.
fn seeded(seed: u64) -> Rng {
    Rng::salted(seed, 0x5DEE_CE66_D1A4_F87B)
}

/// A random rig-like chain of `n` joints: bone lengths in 0.3..1.5, every local rotation a
/// random bend of up to `bend` radians; bones along the parent's X (`x_aligned`) or any axis.
/// (Each bone draws its length before its bend: the recorded seeds rely on that order.)
fn random_chain(rng: &mut Rng, n: usize, bend: f32, x_aligned: bool) -> Vec<Transform> {
    let root = Transform::from_rotation_translation(rng.rotation(PI), rng.vec3(1.0));
    let locals: Vec<Transform> = (1..n)
        .map(|_| {
            let dir = if x_aligned { Vec3::X } else { rng.dir() };
            let len = rng.range(0.3, 1.5);
            Transform::from_rotation_translation(rng.rotation(bend), dir * len)
        })
        .collect();
    build(root, &locals)
}

/// Inner radius of the reachable shell of a chain (0 unless one bone outweighs the rest).
fn inner_radius(lengths: &[f32]) -> f32 {
    let total: f32 = lengths.iter().sum();
    let longest = lengths.iter().copied().fold(0.0, f32::max);
    (2.0 * longest - total).max(0.0)
}

/// A random constraint for chain joint `i` that allows the chain's current local rotation
/// (reference = that rotation): elliptical cone with or without twist limit, hinge about an
/// axis perpendicular to the bone, or twist limit.
fn random_constraint(
    rng: &mut Rng,
    chain: &[Transform],
    root_parent: Quat,
    i: usize,
) -> JointConstraint {
    let reference = locals_of(chain, root_parent)[i];
    let axis = bone_axis(chain, i).try_normalize().unwrap_or(Vec3::X);
    let limit = match rng.index(4) {
        0 | 1 => Limit::Cone {
            half_angle_1: rng.range(0.15, 1.3),
            half_angle_2: rng.range(0.15, 1.3),
            twist: rng
                .chance(0.5)
                .then(|| (rng.range(-1.2, 0.0), rng.range(0.0, 1.2))),
        },
        2 => Limit::Hinge {
            min: rng.range(-2.0, 0.0),
            max: rng.range(0.0, 2.0),
        },
        _ => Limit::Twist {
            min: rng.range(-1.5, 0.0),
            max: rng.range(0.0, 1.5),
        },
    };
    let axis = match limit {
        Limit::Hinge { .. } => axis
            .cross(rng.dir())
            .try_normalize()
            .unwrap_or(axis.any_orthonormal_vector()),
        _ => axis,
    };
    JointConstraint::new(reference, axis, limit).expect("valid random constraint")
}

/// The invariants of every successful solve: finite unit rotations, scale kept, root pinned,
/// bone lengths kept to 1e-5 relative, and a result that describes the returned chain.
fn check_solve(
    what: &str,
    input: &[Transform],
    output: &[Transform],
    target: Vec3,
    result: &IkResult,
    tolerance: f32,
) -> Result<(), TestCaseError> {
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

// ------------------------------------------------------------------------- reach and lengths

proptest! {
    #![proptest_config(config(48))]

    /// Targets inside the reachable shell are reached within precision by both solvers (CCD
    /// sweeping either way), from random bends, given enough iterations. "Enough" is generous:
    /// FABRIK needs up to ~1,300 iterations for targets near the inner edge of the shell, CCD up
    /// to ~7,000 sweeps near full reach (median 17, 99th percentile ~700, measured on 72,000
    /// cases); both stop as soon as they are within tolerance.
    #[test]
    fn reachable_targets_are_reached(
        seed in any::<u64>(),
        n in prop_oneof![Just(4usize), Just(10)],
        x_aligned in any::<bool>(),
        from_tail in any::<bool>(),
    ) {
        let mut rng = seeded(seed);
        let chain = random_chain(&mut rng, n, 1.2, x_aligned);
        let lengths = bone_lengths(&chain);
        let total: f32 = lengths.iter().sum();
        let inner = inner_radius(&lengths);
        let root_parent = rng.rotation(PI);
        let solvers = [
            Solver::fabrik(fabrik_settings(5_000, false), 10),
            Solver::ccd(
                CcdSettings { start_from_tail: from_tail, ..ccd_settings(20_000, false) },
                10,
            ),
        ];
        for mut solver in solvers {
            for _ in 0..3 {
                let goal = rng.in_shell(chain[0].translation, inner + 0.02 * total, 0.98 * total);
                let mut out = chain.clone();
                let r = solver.solve(&mut out, root_parent, &ChainTarget::at(goal)).unwrap();
                let tol = solver.tolerance(total);
                let what = format!("{} n={n} from_tail={from_tail} goal={goal}", solver.name());
                check_solve(&what, &chain, &out, goal, &r, tol)?;
                prop_assert!(r.reached && r.error <= tol, "{what}: not reached: {r:?}, tolerance {tol}");
            }
        }
    }

    /// Bone lengths hold, the root stays put and the result is truthful after every solve: both
    /// solvers, reachable and unreachable targets, with and without constraints, any end mode,
    /// solving each time from the previous output.
    #[test]
    fn every_solve_keeps_bone_lengths_and_root(
        seed in any::<u64>(),
        n in 2usize..9,
        constrained in any::<bool>(),
        stalled in any::<bool>(),
        end in prop_oneof![
            Just(EndRotation::KeepLocal),
            Just(EndRotation::KeepModel),
            Just(EndRotation::CopyEffector)
        ],
    ) {
        let mut rng = seeded(seed);
        let aligned = rng.chance(0.5);
        let chain = random_chain(&mut rng, n, 1.5, aligned);
        let total = total_length(&chain);
        let root_parent = rng.rotation(PI);
        for mut solver in Solver::both(25, stalled, end, 8) {
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
                let target = ChainTarget { position: goal, rotation: Some(rng.rotation(PI)) };
                let mut out = current.clone();
                let r = solver.solve(&mut out, root_parent, &target).unwrap();
                let what = format!("{} solve {k} constrained={constrained}", solver.name());
                check_solve(&what, &chain, &out, goal, &r, solver.tolerance(total))?;
                current = out;
            }
        }
    }
}

/// With stall detection off and iterations to spare, a solver that stops must have reached.
/// Found by `reachable_targets_are_reached`: FABRIK stops when the error of its working
/// positions is within tolerance, but reports the error of the forward-kinematics pose it
/// builds from them, which rounding can put just above the tolerance.
#[test]
fn fabrik_does_not_stop_short_of_the_tolerance() {
    let mut rng = seeded(1139763420828342451);
    let chain = random_chain(&mut rng, 10, 1.2, true);
    let lengths = bone_lengths(&chain);
    let total: f32 = lengths.iter().sum();
    let inner = inner_radius(&lengths);
    let root_parent = rng.rotation(PI);
    let mut fabrik = Fabrik::new(fabrik_settings(5_000, false), 10).unwrap();
    for k in 0..3 {
        let goal = rng.in_shell(chain[0].translation, inner + 0.02 * total, 0.98 * total);
        let mut out = chain.clone();
        let r = fabrik
            .solve(&mut out, root_parent, &ChainTarget::at(goal))
            .unwrap();
        assert!(
            r.reached || r.iterations == 5_000,
            "target {k}: stopped after {} iterations without reaching: {r:?}, tolerance {}",
            r.iterations,
            1e-3 * total
        );
    }
}

// ----------------------------------------------------------------- unreachable, degenerate

proptest! {
    #![proptest_config(config(64))]

    /// A target beyond reach lays the chain straight from the root toward it (FABRIK always;
    /// CCD when nothing restricts it), with absolute or relative precision.
    #[test]
    fn unreachable_targets_straighten_the_chain(
        seed in any::<u64>(),
        n in 2usize..10,
        relative in any::<bool>(),
    ) {
        let mut rng = seeded(seed);
        let aligned = rng.chance(0.5);
        let chain = random_chain(&mut rng, n, 1.5, aligned);
        let lengths = bone_lengths(&chain);
        let total: f32 = lengths.iter().sum();
        let root = chain[0].translation;
        let goal = rng.in_shell(root, 1.02 * total, 4.0 * total);
        let dir = (goal - root).normalize();
        let solvers = [
            Solver::fabrik(FabrikSettings { relative_precision: relative, ..fabrik_settings(10, true) }, 10),
            Solver::ccd(CcdSettings { relative_precision: relative, ..ccd_settings(10, true) }, 10),
        ];
        for mut solver in solvers {
            let mut out = chain.clone();
            let r = solver.solve(&mut out, Quat::IDENTITY, &ChainTarget::at(goal)).unwrap();
            let tol = solver.tolerance(total);
            check_solve(solver.name(), &chain, &out, goal, &r, tol)?;
            prop_assert!(!r.reached);
            prop_assert!((r.error - ((goal - root).length() - total)).abs() <= 1e-5 * (goal - root).length());
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
        }
    }

    /// Coincident joints (zero-length bones), even a chain of nothing but, never produce NaN;
    /// targets reachable, unreachable, at the root and at the coincident joints.
    #[test]
    fn zero_length_bones_stay_finite(
        seed in any::<u64>(),
        n in 2usize..7,
        constrained in any::<bool>(),
        all_zero in any::<bool>(),
    ) {
        let mut rng = seeded(seed);
        let root = Transform::from_rotation_translation(rng.rotation(PI), rng.vec3(1.0));
        let zero = rng.index(n - 1);
        let locals: Vec<Transform> = (1..n)
            .map(|i| {
                let len = if all_zero || i - 1 == zero { 0.0 } else { rng.range(0.3, 1.5) };
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
        for mut solver in Solver::both(30, false, EndRotation::KeepLocal, 8) {
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
                check_solve(solver.name(), &chain, &out, goal, &r, solver.tolerance(total))?;
            }
        }
    }
}

// ------------------------------------------------------------- the FABRIK paper's benchmark

/// Mean iterations to reach random targets within 1e-3 of the chain length on a 10-joint chain
/// of unit bones; unreached cases count as `max_iterations`.
fn mean_iterations(solver: &mut Solver, bent: bool, cases: usize, seed: u64) -> (f32, usize) {
    // Separate streams, so the straight and the bent runs see the same targets.
    let mut targets = seeded(seed);
    let mut bends = seeded(seed ^ 0xB3D5);
    let mut sum = 0u64;
    let mut reached = 0;
    for _ in 0..cases {
        let locals: Vec<Transform> = (1..10)
            .map(|_| {
                let r = if bent {
                    bends.rotation(0.8)
                } else {
                    Quat::IDENTITY
                };
                Transform::from_rotation_translation(r, Vec3::X)
            })
            .collect();
        let chain = build(Transform::IDENTITY, &locals);
        let goal = targets.in_shell(Vec3::ZERO, 0.0, 9.0);
        let mut out = chain.clone();
        let r = solver
            .solve(&mut out, Quat::IDENTITY, &ChainTarget::at(goal))
            .unwrap();
        assert!(r.error.is_finite() && out.iter().all(Transform::is_finite));
        sum += u64::from(r.iterations);
        reached += usize::from(r.reached);
    }
    (sum as f32 / cases as f32, reached)
}

/// The FABRIK paper's setup: a 10-joint chain of unit bones, random targets inside its reach,
/// tolerance 1e-3 of the chain length; from a straight chain and from random bends. The
/// per-target count is heavy-tailed (targets near full reach take up to ~450 iterations), so
/// the sample is large: with 400 targets the mean swings between about 13 and 22 from seed to
/// seed. CCD's mean on the same targets is printed for comparison.
#[test]
fn fabrik_paper_benchmark_mean_iterations() {
    const CASES: usize = 2000;
    const CCD_CASES: usize = 200;
    let mut failures = Vec::new();
    for bent in [false, true] {
        let start = if bent { "random bends" } else { "straight" };
        let mut fabrik = Solver::fabrik(fabrik_settings(1000, false), 10);
        let (mean, reached) = mean_iterations(&mut fabrik, bent, CASES, 1);
        eprintln!(
            "FABRIK, 10 joints, {start}: mean {mean:.2} iterations, {reached}/{CASES} reached"
        );
        let mut ccd = Solver::ccd(ccd_settings(1000, false), 10);
        let (ccd_mean, ccd_reached) = mean_iterations(&mut ccd, bent, CCD_CASES, 1);
        eprintln!(
            "CCD,    10 joints, {start}: mean {ccd_mean:.2} iterations, {ccd_reached}/{CCD_CASES} reached"
        );
        assert!(ccd_mean.is_finite() && ccd_mean <= 1000.0);
        if reached != CASES {
            failures.push(format!(
                "FABRIK from {start} left {} targets unreached",
                CASES - reached
            ));
        }
        if mean > 15.5 {
            failures.push(format!(
                "FABRIK from {start}: mean {mean:.2} iterations > 15.5"
            ));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

// ------------------------------------------------------------------------------ continuity

/// Solves along a circle of targets that leaves the reachable ball, each frame from the
/// previous frame's output. Returns the largest rotation (degrees) of any joint between two
/// frames, the frame where it happened and that frame's target distance over the chain length.
fn largest_frame_turn(
    solver: &mut Solver,
    chain: &[Transform],
    frames: usize,
    constrained: bool,
) -> (f32, usize, f32) {
    let total = total_length(chain);
    let root = chain[0].translation;
    let center = root + Vec3::new(0.75, 0.3, 0.15) * total;
    let (u, v) = (
        Vec3::new(1.0, 0.0, 0.3).normalize(),
        Vec3::new(0.0, 1.0, -0.2).normalize(),
    );
    let radius = 0.45 * total;
    let mut current = chain.to_vec();
    let mut worst = (0.0f32, 0, 0.0);
    let mut previous_error = 0.0;
    let mut previous_goal = center + u * radius;
    let mut escapes = 0;
    for f in 0..=frames {
        let a = 2.0 * PI * f as f32 / frames as f32;
        let goal = center + (u * a.cos() + v * a.sin()) * radius;
        let mut out = current.clone();
        let result = solver
            .solve(&mut out, Quat::IDENTITY, &ChainTarget::at(goal))
            .unwrap();
        // A constrained chain can be stuck in a local minimum short of a target its limits
        // allow; where that minimum disappears the chain necessarily turns fast, and its error
        // drops by far more than the target moved (tracking changes the error by at most the
        // target's step). Such escapes are counted and reported, not held to the tracking limit.
        let step = (goal - previous_goal).length();
        previous_goal = goal;
        let escape = constrained && previous_error - result.error > ESCAPE_DROP * step;
        previous_error = result.error;
        if escape {
            escapes += 1;
            current = out;
            continue;
        }
        if f > 0 {
            for (a, b) in current.iter().zip(&out) {
                let turn = rot_between(a.rotation, b.rotation).to_degrees();
                if turn > worst.0 {
                    worst = (turn, f, (goal - root).length() / total);
                }
            }
        }
        current = out;
    }
    if escapes > 0 {
        eprintln!(
            "  {}: {escapes} escapes from a local minimum (error dropped by over {ESCAPE_DROP} target steps)",
            solver.name()
        );
    }
    worst
}

/// Error drop in one frame, in multiples of the target's step, that marks an escape from a
/// local minimum.
const ESCAPE_DROP: f32 = 5.0;

/// A circle of targets (radius 0.45 of the chain length; from about 0.38 to 1.25 of it away from
/// the root), one solve per frame from the previous output: no joint turns more than 15 degrees
/// in a frame.
/// At 720 frames per turn the target moves 0.4 % of the chain length per frame; at 2880,
/// 0.1 %. A solver that is continuous in its input can only do better on the slower path, so
/// a turn that does not shrink with the step is a discontinuity, not a fast target.
#[test]
fn smooth_target_paths_give_smooth_motion() {
    let mut rng = seeded(7);
    let chain = random_chain(&mut rng, 6, 0.5, true);
    let total = total_length(&chain);
    let center = chain[0].translation + Vec3::new(0.75, 0.3, 0.15) * total;
    let d = (center - chain[0].translation).length();
    assert!(
        d + 0.45 * total > total && d - 0.45 * total < total,
        "the path crosses the reach"
    );
    let mut failures = Vec::new();
    for constrained in [false, true] {
        // Default settings at both speeds; generous iterations (slow in debug) at the faster one.
        for (max_iterations, stalled, frames) in
            [(10, true, 720), (10, true, 2880), (40, false, 720)]
        {
            {
                for mut solver in Solver::both(max_iterations, stalled, EndRotation::KeepLocal, 8) {
                    if constrained {
                        let mut crng = seeded(11);
                        let reference = locals_of(&chain, Quat::IDENTITY);
                        for (i, r) in reference.iter().enumerate() {
                            let cone = Limit::Cone {
                                half_angle_1: crng.range(0.5, 1.0),
                                half_angle_2: crng.range(0.5, 1.0),
                                twist: Some((-0.3, 0.3)),
                            };
                            let c = JointConstraint::new(*r, Vec3::X, cone).unwrap();
                            solver.set_constraint(i, Some(c)).unwrap();
                        }
                    }
                    let (worst, frame, reach) =
                        largest_frame_turn(&mut solver, &chain, frames, constrained);
                    let what = format!(
                        "{} constrained={constrained} max_iterations={max_iterations} frames={frames}",
                        solver.name()
                    );
                    eprintln!(
                        "{what}: largest turn {worst:.2} deg at frame {frame} (target at {reach:.4} of the chain length)"
                    );
                    if worst > 15.0 {
                        failures.push(format!(
                            "{what}: a joint turned {worst:.2} degrees at frame {frame} (target at {reach:.4} of the chain length)"
                        ));
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

/// A target that crosses the edge of the reach by 0.04 % of the chain length must not change
/// the solved pose much: the exact solutions on either side differ by a few degrees at most.
/// Both solvers, default and generous iterations, from the same bent input.
#[test]
fn crossing_the_edge_of_reach_is_not_a_cliff() {
    let mut chain = vec![Transform::IDENTITY];
    for _ in 0..5 {
        let bend = Transform::from_rotation_translation(Quat::from_rotation_z(0.4), Vec3::X);
        let next = chain.last().unwrap().mul_transform(&bend);
        chain.push(next);
    }
    chain[0].rotation = Quat::IDENTITY;
    let total = total_length(&chain);
    let dir = Vec3::new(1.0, 1.0, 0.2).normalize();
    let mut failures = Vec::new();
    for (max_iterations, stalled) in [(10, true), (100, false)] {
        for mut solver in Solver::both(max_iterations, stalled, EndRotation::KeepLocal, 8) {
            let (mut inside, mut outside) = (chain.clone(), chain.clone());
            let near = ChainTarget::at(dir * total * 0.9998);
            let far = ChainTarget::at(dir * total * 1.0002);
            let ri = solver.solve(&mut inside, Quat::IDENTITY, &near).unwrap();
            let ro = solver.solve(&mut outside, Quat::IDENTITY, &far).unwrap();
            let worst = inside
                .iter()
                .zip(&outside)
                .map(|(a, b)| rot_between(a.rotation, b.rotation).to_degrees())
                .fold(0.0, f32::max);
            let what = format!("{} max_iterations={max_iterations}", solver.name());
            eprintln!(
                "{what}: inside error {:.4}, outside error {:.4}, poses differ by {worst:.1} deg",
                ri.error, ro.error
            );
            if worst > 15.0 {
                failures.push(format!(
                    "{what}: poses {worst:.1} deg apart across the edge of reach (inside error {:.4}, outside {:.4})",
                    ri.error, ro.error
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

// ----------------------------------------------------------------------------- CCD specifics

proptest! {
    #![proptest_config(config(48))]

    /// Each joint's local rotation stays within its rotation limit of the input local rotation.
    #[test]
    fn ccd_rotation_limits_hold(seed in any::<u64>(), n in 3usize..8, from_tail in any::<bool>()) {
        let mut rng = seeded(seed);
        let chain = random_chain(&mut rng, n, 1.0, true);
        let root_parent = rng.rotation(PI);
        let mut ccd = Ccd::new(CcdSettings { start_from_tail: from_tail, ..ccd_settings(30, false) }, 8).unwrap();
        let mut limits = vec![180.0; n];
        for (i, limit) in limits.iter_mut().enumerate() {
            *limit = rng.range(2.0, 60.0);
            ccd.set_joint(i, CcdJoint { rotation_limit_degrees: *limit, weight: 1.0 }).unwrap();
        }
        let before = locals_of(&chain, root_parent);
        let total = total_length(&chain);
        for _ in 0..3 {
            let goal = rng.in_shell(chain[0].translation, 0.0, 1.3 * total);
            let mut out = chain.clone();
            let r = ccd.solve(&mut out, root_parent, &ChainTarget::at(goal)).unwrap();
            check_solve("CCD limited", &chain, &out, goal, &r, 1e-3 * total)?;
            let after = locals_of(&out, root_parent);
            for i in 0..n {
                let turned = rot_between(before[i], after[i]);
                prop_assert!(
                    turned <= limits[i].to_radians() + 1e-3,
                    "joint {i} turned {} deg, limit {}",
                    turned.to_degrees(),
                    limits[i]
                );
            }
        }
    }

    /// [`limits_hold_with_constraints`] on random chains.
    #[test]
    fn ccd_rotation_limits_hold_with_constraints(
        seed in any::<u64>(),
        n in 3usize..9,
        from_tail in any::<bool>(),
        fix_root in any::<bool>(),
    ) {
        limits_hold_with_constraints(seed, n, from_tail, fix_root)?;
    }

    /// Weight 0 freezes a joint's local rotation; all weights 0 freeze the chain.
    #[test]
    fn ccd_weight_zero_freezes_joints(seed in any::<u64>(), n in 3usize..8, all in any::<bool>()) {
        let mut rng = seeded(seed);
        let chain = random_chain(&mut rng, n, 1.0, true);
        let mut ccd = Ccd::new(ccd_settings(20, false), 8).unwrap();
        let mut frozen = vec![false; n];
        for (i, f) in frozen.iter_mut().enumerate() {
            *f = all || rng.chance(0.4);
            let weight = if *f { 0.0 } else { rng.range(0.2, 1.0) };
            ccd.set_joint(i, CcdJoint { rotation_limit_degrees: 180.0, weight }).unwrap();
        }
        let total = total_length(&chain);
        let goal = rng.in_shell(chain[0].translation, 0.0, 1.3 * total);
        let mut out = chain.clone();
        let r = ccd.solve(&mut out, Quat::IDENTITY, &ChainTarget::at(goal)).unwrap();
        check_solve("CCD weighted", &chain, &out, goal, &r, 1e-3 * total)?;
        let (before, after) = (locals_of(&chain, Quat::IDENTITY), locals_of(&out, Quat::IDENTITY));
        for i in (0..n).filter(|&i| frozen[i]) {
            prop_assert!(rot_between(before[i], after[i]) <= 1e-5, "joint {i} moved with weight 0");
        }
        if all {
            for (a, b) in chain.iter().zip(&out) {
                prop_assert!((a.translation - b.translation).length() <= 1e-5 * total);
            }
        }
    }

    /// fix_root keeps the root's rotation (and position) bit-identical while the rest solves.
    #[test]
    fn ccd_fix_root_keeps_the_root_rotation(seed in any::<u64>(), n in 3usize..8, constrained in any::<bool>()) {
        let mut rng = seeded(seed);
        let chain = random_chain(&mut rng, n, 1.0, true);
        let total = total_length(&chain);
        let mut ccd = Ccd::new(CcdSettings { fix_root: true, ..ccd_settings(30, false) }, 8).unwrap();
        if constrained {
            let c = random_constraint(&mut rng, &chain, Quat::IDENTITY, 0);
            ccd.set_constraint(0, Some(c)).unwrap();
        }
        for goal in [
            rng.in_shell(chain[0].translation, 0.0, total),
            rng.in_shell(chain[0].translation, 1.2 * total, 2.0 * total),
        ] {
            let mut out = chain.clone();
            let r = ccd.solve(&mut out, Quat::IDENTITY, &ChainTarget::at(goal)).unwrap();
            check_solve("CCD fix_root", &chain, &out, goal, &r, 1e-3 * total)?;
            prop_assert_eq!(out[0].rotation.to_array().map(f32::to_bits), chain[0].rotation.to_array().map(f32::to_bits));
            prop_assert_eq!(out[0].translation, chain[0].translation);
        }
    }
}

/// Limits hold beside constraints too (README, "FABRIK and CCD"; `CcdJoint`): every joint but
/// the tip (whose rotation follows the end-rotation mode) ends within its rotation limit of its
/// input local rotation, or, where the input breaks the joint's constraint, of the input's
/// projection onto it (constraints win); and within its constraint. Random limits, weights and
/// constraints; the constraints are centred on another chain's pose, so inputs often break
/// them and the start's projection moves the joints around them.
fn limits_hold_with_constraints(
    seed: u64,
    n: usize,
    from_tail: bool,
    fix_root: bool,
) -> Result<(), TestCaseError> {
    let mut rng = seeded(seed);
    let chain = random_chain(&mut rng, n, 1.0, true);
    let other = random_chain(&mut rng, n, 1.0, true);
    let root_parent = rng.rotation(PI);
    let settings = CcdSettings {
        start_from_tail: from_tail,
        fix_root,
        ..ccd_settings(30, false)
    };
    let mut ccd = Ccd::new(settings, 8).unwrap();
    let mut limits = vec![180.0f32; n];
    let mut constraints = vec![None; n];
    for i in 0..n {
        if rng.chance(0.6) {
            limits[i] = rng.range(0.0, 90.0);
        }
        let joint = CcdJoint {
            rotation_limit_degrees: limits[i],
            weight: rng.range(0.2, 1.0),
        };
        ccd.set_joint(i, joint).unwrap();
        if rng.chance(0.5) {
            let c = random_constraint(&mut rng, &other, root_parent, i);
            ccd.set_constraint(i, Some(c)).unwrap();
            constraints[i] = Some(c);
        }
    }
    let before = locals_of(&chain, root_parent);
    let total = total_length(&chain);
    for _ in 0..3 {
        let goal = rng.in_shell(chain[0].translation, 0.0, 1.3 * total);
        let mut out = chain.clone();
        let r = ccd
            .solve(&mut out, root_parent, &ChainTarget::at(goal))
            .unwrap();
        check_solve(
            "CCD limited, constrained",
            &chain,
            &out,
            goal,
            &r,
            1e-3 * total,
        )?;
        let after = locals_of(&out, root_parent);
        for (i, c) in constraints.iter().enumerate() {
            let reference = c.map_or(before[i], |c| c.project(before[i]));
            let turned = rot_between(reference, after[i]);
            prop_assert!(
                i == n - 1 || turned <= limits[i].to_radians() + 1e-3,
                "joint {i} turned {} deg, limit {}",
                turned.to_degrees(),
                limits[i]
            );
            if let Some(c) = c {
                prop_assert!(
                    c.violation(after[i]) <= 1e-3,
                    "joint {i} breaks its constraint"
                );
            }
        }
    }
    Ok(())
}

/// A case of the property above where a sweep's turn, cut to the limit, was then projected
/// onto the joint's constraint past the limit again (joint 1 ended 11.1° from its input, limit
/// 10.8°).
#[test]
fn ccd_constraint_projection_does_not_undo_a_limit() {
    limits_hold_with_constraints(3052624229306266705, 3, false, false).unwrap();
}

#[test]
fn ccd_fix_root_keeps_an_exact_root_rotation_and_still_solves() {
    let root = Transform::from_rotation_translation(Quat::from_xyzw(0.0, 0.0, 0.6, 0.8), Vec3::ONE);
    let locals = [Transform::from_translation(Vec3::X); 4];
    let chain = build(root, &locals);
    let mut ccd = Ccd::new(
        CcdSettings {
            fix_root: true,
            ..ccd_settings(100, false)
        },
        8,
    )
    .unwrap();
    let goal = chain[1].translation + Vec3::new(0.5, 1.5, 0.7);
    let mut out = chain.clone();
    let r = ccd
        .solve(&mut out, Quat::IDENTITY, &ChainTarget::at(goal))
        .unwrap();
    assert!(r.reached, "{r:?}");
    assert_eq!(bits(&out[..1]), bits(&chain[..1]));
}

/// The smallest case of the property above: a root rotated 2 rad about X.
#[test]
fn ccd_fix_root_keeps_the_root_rotation_bits() {
    let q = Quat::from_rotation_x(2.0);
    let chain = [
        Transform::from_rotation_translation(q, Vec3::ZERO),
        Transform::from_rotation_translation(q, q * Vec3::X),
        Transform::from_rotation_translation(q, q * Vec3::X * 2.0),
    ];
    let mut ccd = Ccd::new(
        CcdSettings {
            fix_root: true,
            ..CcdSettings::default()
        },
        4,
    )
    .unwrap();
    let mut out = chain;
    ccd.solve(
        &mut out,
        Quat::IDENTITY,
        &ChainTarget::at(Vec3::new(0.5, 1.5, 0.0)),
    )
    .unwrap();
    assert_eq!(
        out[0].rotation.to_array().map(f32::to_bits),
        chain[0].rotation.to_array().map(f32::to_bits),
        "root rotation {} became {}",
        chain[0].rotation,
        out[0].rotation
    );
}

/// The cross-platform run's CCD case 326 (`tests/c/chains.c`), with the f32 values of its
/// parity line (written shortest): joint 6 (limit 90°, weight 0.99, no constraint of its own) sits between
/// constrained joints 5 and 7, and the start (the input projected onto the constraints) turned
/// it 107.7° from its input local rotation. Every limit and every constraint holds on output.
#[test]
fn ccd_limits_hold_next_to_constrained_joints() {
    /// Per joint: model translation, model rotation (x, y, z, w).
    const INPUT: [([f32; 3], [f32; 4]); 10] = [
        (
            [2.5472498, -0.342618, 0.539763],
            [0.016229395, -0.3632021, -0.13023151, -0.92242104],
        ),
        (
            [3.1310973, -0.75743735, -0.64181566],
            [-0.3736502, 0.21839638, -0.65997016, -0.6141074],
        ),
        (
            [3.5444467, -1.0964472, -1.6226283],
            [0.10717851, -0.70016533, -0.6109906, -0.35351333],
        ),
        (
            [3.999527, -1.5359728, -2.6268768],
            [-0.8518545, -0.00068521994, -0.20228428, -0.48314014],
        ),
        (
            [4.13826, -1.6841533, -3.0069728],
            [0.16061454, -0.5335727, 0.54279935, -0.62838846],
        ),
        (
            [4.4104614, -1.9509902, -3.635809],
            [0.39969215, -0.4012196, -0.8232134, -0.03985855],
        ),
        (
            [4.9464593, -2.3909273, -4.9461656],
            [0.28435352, 0.12350829, -0.50064385, -0.8082354],
        ),
        (
            [5.2400017, -2.5613937, -5.5875826],
            [0.19652627, 0.26392418, -0.57603407, 0.74826884],
        ),
        (
            [5.318075, -2.5920434, -5.753131],
            [0.7936736, -0.5119809, -0.15518194, -0.28961426],
        ),
        (
            [5.8051476, -2.7557056, -6.910246],
            [0.1999381, 0.06939885, -0.7580155, -0.6169449],
        ),
    ];
    /// (rotation limit in degrees, weight) per joint.
    const TUNING: [(f32, f32); 10] = [
        (180.0, 0.0),
        (0.0, 0.25),
        (180.0, 1.0),
        (180.0, 1.0),
        (30.0, 0.2546395),
        (180.0, 1.0),
        (90.0, 0.99065995),
        (180.0, 0.0),
        (180.0, 1.0),
        (180.0, 1.0),
    ];
    let identity = Quat::IDENTITY;
    let q = Quat::from_xyzw;
    let v = Vec3::new;
    let cone = |h1, h2, twist| Limit::Cone {
        half_angle_1: h1,
        half_angle_2: h2,
        twist,
    };
    let constraints = [
        (
            0,
            q(0.4654544, -0.3861206, 0.78454757, 0.13692422),
            v(0.82796925, -1.3262479, 0.052677028),
            Limit::Twist {
                min: -1.2291411,
                max: 0.47209,
            },
        ),
        (
            1,
            identity,
            v(-0.95245034, -0.51892465, -0.26708567),
            cone(2.6307018, 1.4172504, None),
        ),
        (
            4,
            q(-0.50482213, -0.17281531, -0.84381694, 0.057117503),
            Vec3::X,
            Limit::Twist {
                min: 0.5104625,
                max: 1.3484061,
            },
        ),
        (
            5,
            identity,
            v(0.65339947, -0.7340274, -1.1100206),
            cone(PI, 0.5849933, Some((-2.6146486, -1.2456007))),
        ),
        (
            7,
            identity,
            v(0.14149636, 0.0691079, -0.098203905),
            cone(2.1183534, 2.9980311, Some((1.6025445, PI))),
        ),
        (
            8,
            identity,
            Vec3::X,
            cone(1.0328945, 0.7069296, Some((-0.42291093, 0.1582675))),
        ),
    ];
    let chain: Vec<Transform> = INPUT
        .iter()
        .map(|&(t, r)| {
            Transform::from_rotation_translation(Quat::from_array(r), Vec3::from_array(t))
        })
        .collect();
    let settings = CcdSettings {
        precision: 0.001,
        relative_precision: true,
        max_iterations: 10,
        start_from_tail: true,
        fix_root: false,
        stop_when_stalled: true,
        end_rotation: EndRotation::CopyEffector,
    };
    let mut ccd = Ccd::new(settings, 16).unwrap();
    for (i, (rotation_limit_degrees, weight)) in TUNING.into_iter().enumerate() {
        let joint = CcdJoint {
            rotation_limit_degrees,
            weight,
        };
        ccd.set_joint(i, joint).unwrap();
    }
    let mut built = [None; 10];
    for (i, reference, axis, limit) in constraints {
        let c = JointConstraint::new(reference, axis, limit).unwrap();
        ccd.set_constraint(i, Some(c)).unwrap();
        built[i] = Some(c);
    }
    let goal = v(9.560648, 2.1008093, -3.5147219);
    let mut out = chain.clone();
    ccd.solve(&mut out, identity, &ChainTarget::at(goal))
        .unwrap();
    let (before, after) = (locals_of(&chain, identity), locals_of(&out, identity));
    for (i, c) in built.iter().enumerate() {
        // Constraints win: a joint whose input breaks its own constraint is limited from the
        // input's projection.
        let reference = c.map_or(before[i], |c| c.project(before[i]));
        let (limit, _) = TUNING[i];
        let turned = rot_between(reference, after[i]);
        assert!(
            turned <= limit.to_radians() + 1e-3,
            "joint {i} turned {}°, limit {limit}°",
            turned.to_degrees()
        );
        if let Some(c) = c {
            assert!(
                c.violation(after[i]) <= 1e-3,
                "joint {i} breaks its constraint"
            );
        }
    }
}

// -------------------------------------------------------------------------- end rotations

proptest! {
    #![proptest_config(config(48))]

    /// The tip's rotation: KeepLocal keeps it relative to its solved parent, KeepModel keeps its
    /// model rotation, CopyEffector takes the target's (normalized), or keeps the model rotation
    /// when the target has none. Reachable and unreachable targets, both solvers.
    #[test]
    fn end_rotation_modes(seed in any::<u64>(), n in 2usize..8, far in any::<bool>()) {
        let mut rng = seeded(seed);
        let aligned = rng.chance(0.5);
        let chain = random_chain(&mut rng, n, 1.0, aligned);
        let total = total_length(&chain);
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
            for mut solver in Solver::both(30, true, end, 8) {
                let mut out = chain.clone();
                let target = ChainTarget { position: goal, rotation };
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
        }
    }
}

// ----------------------------------------------------------------------------------- errors

#[test]
fn errors_leave_the_chain_untouched() {
    let mut rng = seeded(3);
    let chain = random_chain(&mut rng, 5, 1.0, true);
    let ok = ChainTarget::at(Vec3::new(1.0, 1.0, 0.5));
    for mut solver in Solver::both(10, true, EndRotation::KeepLocal, 5) {
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
        let long = random_chain(&mut rng, 6, 1.0, true);
        expect(&long, ok, ErrorKind::OutOfRange);
        let mut nan_chain = chain.clone();
        nan_chain[2].translation.y = f32::NAN;
        expect(&nan_chain, ok, ErrorKind::NonFinite);
        let mut zero_q = chain.clone();
        zero_q[3].rotation = Quat::from_xyzw(0.0, 0.0, 0.0, 0.0);
        expect(&zero_q, ok, ErrorKind::InvalidArgument);

        // set_constraint beyond max_joints; the solver keeps working afterwards, and after all
        // these errors solves exactly like a fresh solver.
        let c = JointConstraint::new(
            Quat::IDENTITY,
            Vec3::X,
            Limit::Twist {
                min: -0.5,
                max: 0.5,
            },
        )
        .unwrap();
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
        let mut fresh = match solver {
            Solver::Fabrik(_) => Solver::fabrik(fabrik_settings(10, true), 5),
            Solver::Ccd(_) => Solver::ccd(ccd_settings(10, true), 5),
        };
        let mut b = chain.clone();
        fresh.solve(&mut b, Quat::IDENTITY, &ok).unwrap();
        assert_eq!(
            bits(&a),
            bits(&b),
            "{name}: errors changed the solver's state"
        );
    }
}

#[test]
fn invalid_settings_are_rejected() {
    let kind = |r: sinew::Result<Fabrik>| r.unwrap_err().kind();
    let f = FabrikSettings::default();
    assert_eq!(kind(Fabrik::new(f, 1)), ErrorKind::OutOfRange);
    assert_eq!(kind(Fabrik::new(f, 0)), ErrorKind::OutOfRange);
    assert_eq!(
        kind(Fabrik::new(
            FabrikSettings {
                precision: 0.0,
                ..f
            },
            4
        )),
        ErrorKind::InvalidArgument
    );
    assert_eq!(
        kind(Fabrik::new(
            FabrikSettings {
                precision: -1.0,
                ..f
            },
            4
        )),
        ErrorKind::InvalidArgument
    );
    assert_eq!(
        kind(Fabrik::new(
            FabrikSettings {
                precision: f32::NAN,
                ..f
            },
            4
        )),
        ErrorKind::NonFinite
    );
    assert_eq!(
        kind(Fabrik::new(
            FabrikSettings {
                max_iterations: 0,
                ..f
            },
            4
        )),
        ErrorKind::InvalidArgument
    );
    let mut fabrik = Fabrik::new(f, 4).unwrap();
    assert!(fabrik
        .set_settings(FabrikSettings {
            max_iterations: 0,
            ..f
        })
        .is_err());
    assert_eq!(fabrik.settings(), &f);

    let c = CcdSettings::default();
    let ckind = |r: sinew::Result<Ccd>| r.unwrap_err().kind();
    assert_eq!(ckind(Ccd::new(c, 1)), ErrorKind::OutOfRange);
    assert_eq!(
        ckind(Ccd::new(
            CcdSettings {
                precision: 0.0,
                ..c
            },
            4
        )),
        ErrorKind::InvalidArgument
    );
    assert_eq!(
        ckind(Ccd::new(
            CcdSettings {
                precision: f32::INFINITY,
                ..c
            },
            4
        )),
        ErrorKind::NonFinite
    );
    assert_eq!(
        ckind(Ccd::new(
            CcdSettings {
                max_iterations: 0,
                ..c
            },
            4
        )),
        ErrorKind::InvalidArgument
    );
    let mut ccd = Ccd::new(c, 4).unwrap();
    let joint = |rotation_limit_degrees, weight| CcdJoint {
        rotation_limit_degrees,
        weight,
    };
    assert_eq!(
        ccd.set_joint(4, joint(30.0, 1.0)).unwrap_err().kind(),
        ErrorKind::OutOfRange
    );
    assert_eq!(
        ccd.set_joint(0, joint(-1.0, 1.0)).unwrap_err().kind(),
        ErrorKind::InvalidArgument
    );
    assert_eq!(
        ccd.set_joint(0, joint(181.0, 1.0)).unwrap_err().kind(),
        ErrorKind::InvalidArgument
    );
    assert_eq!(
        ccd.set_joint(0, joint(30.0, 1.5)).unwrap_err().kind(),
        ErrorKind::InvalidArgument
    );
    assert_eq!(
        ccd.set_joint(0, joint(30.0, -0.1)).unwrap_err().kind(),
        ErrorKind::InvalidArgument
    );
    assert_eq!(
        ccd.set_joint(0, joint(f32::NAN, 1.0)).unwrap_err().kind(),
        ErrorKind::NonFinite
    );
    assert_eq!(
        ccd.set_joint(0, joint(30.0, f32::NAN)).unwrap_err().kind(),
        ErrorKind::NonFinite
    );
    assert!(ccd
        .set_settings(CcdSettings {
            precision: -1.0,
            ..c
        })
        .is_err());
    assert_eq!(ccd.settings(), &c);
}

// ------------------------------------------------------------------------------- solve_pose

/// root(0) -> spine(1) -> shoulder(2) -> upper(3) -> lower(4) -> hand(5) -> finger(6);
/// spine(1) -> head(7). The root is scaled, so model space differs from local space.
fn arm_skeleton(rng: &mut Rng) -> Arc<Skeleton> {
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

proptest! {
    #![proptest_config(config(32))]

    /// Solving joints of a pose equals solving their model-space chain (relative to the chain
    /// root's parent) and converting back; joints below the chain follow, others stay.
    #[test]
    fn solve_pose_matches_the_chain_solve(seed in any::<u64>(), constrained in any::<bool>()) {
        let mut rng = seeded(seed);
        let skeleton = arm_skeleton(&mut rng);
        let joints = [2u32, 3, 4, 5];
        let mut pose = Pose::new(skeleton.clone());
        let model_before = pose.model().unwrap().to_vec();
        let chain: Vec<Transform> = joints.iter().map(|&j| model_before[j as usize]).collect();
        let root_parent = model_before[1].rotation;
        let total = total_length(&chain);
        let goal = rng.in_shell(chain[0].translation, 0.0, 1.3 * total);
        let target = ChainTarget { position: goal, rotation: Some(rng.rotation(PI)) };
        let mut crng = seeded(seed ^ 1);
        let constraints: Vec<Option<JointConstraint>> = (0..4)
            .map(|i| (constrained && crng.chance(0.7)).then(|| random_constraint(&mut crng, &chain, root_parent, i)))
            .collect();
        for end in [EndRotation::KeepLocal, EndRotation::CopyEffector] {
            for k in 0..2 {
                let make = || {
                    let mut s = Solver::both(20, true, end, 6).into_iter().nth(k).unwrap();
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
                prop_assert!((r1.error - r2.error).abs() <= 1e-5 * total, "{what}: {r1:?} vs {r2:?}");
                prop_assert_eq!(r1.reached, r2.reached);
                let model = p.model().unwrap().to_vec();
                for (c, &j) in joints.iter().enumerate() {
                    let m = model[j as usize];
                    prop_assert!(
                        (m.translation - solved[c].translation).length() <= 1e-5 * total.max(1.0),
                        "{what}: joint {j} at {} vs chain {}", m.translation, solved[c].translation
                    );
                    prop_assert!(rot_between(m.rotation, solved[c].rotation) <= 1e-5, "{what}: joint {j} rotation");
                }
                for j in [0usize, 1, 7] {
                    prop_assert_eq!(model[j], model_before[j], "{}: joint {} moved", what, j);
                }
                let finger = model[5].mul_transform(&skeleton.rest_pose()[6]);
                prop_assert!((model[6].translation - finger.translation).length() <= 1e-5 * total.max(1.0));
                for j in [0usize, 1, 6, 7] {
                    prop_assert_eq!(p.local()[j], skeleton.rest_pose()[j], "{}: local {} changed", what, j);
                }
            }
        }
    }
}

#[test]
fn solve_pose_rejects_bad_joint_lists_without_writing() {
    let mut rng = seeded(5);
    let skeleton = arm_skeleton(&mut rng);
    let target = ChainTarget::at(Vec3::new(0.5, 0.5, 0.5));
    for mut solver in Solver::both(10, true, EndRotation::KeepLocal, 4) {
        let mut pose = Pose::new(skeleton.clone());
        pose.local_mut()[3].rotation = Quat::from_rotation_z(0.3);
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
}

/// A chain of subnormal length whose tip stays a chain length from the target is not
/// reached, and its error is that distance (the squares of subnormal offsets underflow to 0,
/// which once reported error 0 and `reached`). The error is checked against the distance
/// computed in f64.
#[test]
fn chains_of_subnormal_length_report_their_true_error() {
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
    for mut solver in Solver::both(10, true, EndRotation::KeepLocal, 4) {
        let mut out = chain.clone();
        let r = solver
            .solve(&mut out, Quat::IDENTITY, &ChainTarget::at(goal))
            .unwrap();
        let d = |a: f32, b: f32| (f64::from(a) - f64::from(b)).abs();
        let t = out[2].translation;
        let truth =
            (d(t.x, goal.x).powi(2) + d(t.y, goal.y).powi(2) + d(t.z, goal.z).powi(2)).sqrt();
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
}
