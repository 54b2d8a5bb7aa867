//! Long runs through the Rust API: each frame is solved from the previous frame's pose (as a game
//! that feeds the last solved pose back in), for a target that orbits the chain's root and
//! sweeps its distance from well inside the reach to beyond it and back, so it passes through
//! full extension over and over. Every frame: no NaN or infinity anywhere in the model pose,
//! bone lengths within 1e-5 (relative) of the first frame's, no joint's model rotation turning
//! more than 15 degrees since the previous frame, and reachable targets reached.
//!
//! - two-bone IK: 1,000,000 frames;
//! - FABRIK and CCD (default settings, a 5-joint chain): 100,000 frames each.
//!
//! Each run prints its time, the largest drift and turn and where they happened.

use std::sync::Arc;
use std::time::Instant;

use sinew::{
    CcdSettings, ChainTarget, FabrikSettings, IkResult, Pose, Quat, Skeleton, Transform, TwoBoneIk,
    TwoBoneIkSettings, TwoBoneTarget, Vec3,
};

mod common;

use common::rotations::rot_between;
use common::solvers::{Kind, Solver};

/// Largest relative change of a bone's length over the run.
const MAX_DRIFT: f32 = 1e-5;
/// Largest turn of any joint's model rotation between consecutive frames.
const MAX_TURN_DEGREES: f32 = 15.0;

/// A chain of `lengths.len()` bones along X from `root`, bent a little at every joint.
fn chain_skeleton(root: Vec3, lengths: &[f32]) -> Arc<Skeleton> {
    let mut rest = vec![Transform::from_rotation_translation(
        Quat::from_rotation_z(0.3),
        root,
    )];
    let mut parents = vec![-1];
    for (i, &l) in lengths.iter().enumerate() {
        rest.push(Transform::from_rotation_translation(
            Quat::from_rotation_z(-0.35) * Quat::from_rotation_y(0.1),
            Vec3::X * l,
        ));
        parents.push(i as i32);
    }
    Arc::new(Skeleton::new(&parents, &rest, None).expect("valid chain skeleton"))
}

/// Where the target is on frame `f`: orbiting `root` about Z (period ~2000 frames) with a slow
/// wobble out of the XY plane, at a distance sweeping 0.4..1.1 of the chain `length` (period
/// ~3000 frames), so it crosses full extension twice per sweep.
fn orbit(f: u32, root: Vec3, length: f32) -> Vec3 {
    let tau = std::f64::consts::TAU;
    let f = f64::from(f);
    let a = tau * f / 1999.7;
    let b = tau * f / 7919.3;
    let c = tau * f / 3001.1;
    let dir = Vec3::new(a.cos() as f32, a.sin() as f32, 0.25 * b.sin() as f32).normalize();
    root + dir * (length * (0.75 + 0.35 * c.sin() as f32))
}

/// What a run measured.
#[derive(Debug, Default)]
struct Stats {
    max_drift: f32,
    max_drift_frame: u32,
    max_turn_degrees: f32,
    max_turn_frame: u32,
    beyond_reach: u32,
    reached: u32,
    reachable: u32,
}

/// Runs `frames` frames of `solve` (which solves `pose` in place toward the target) and checks
/// every frame; panics at the first violation with the frame number.
fn run(
    name: &str,
    frames: u32,
    pose: &mut Pose,
    tolerance: f32,
    mut solve: impl FnMut(&mut Pose, Vec3) -> sinew::Result<IkResult>,
) -> Stats {
    let start = Instant::now();
    let model = pose.model().expect("finite start pose").to_vec();
    let root = model[0].translation;
    let lengths: Vec<f32> = model
        .windows(2)
        .map(|w| (w[1].translation - w[0].translation).length())
        .collect();
    let length: f32 = lengths.iter().sum();
    // Settle on the first target before measuring turns: the rest pose is arbitrary.
    for _ in 0..50 {
        solve(pose, orbit(0, root, length)).expect("settling solve");
    }
    let model = pose.model().expect("finite settled pose").to_vec();
    // The nearest a chain reaches: the longest bone folded back over all the others.
    let longest = lengths.iter().copied().fold(0.0, f32::max);
    let shortest_reach = (2.0 * longest - length).max(0.0);
    let mut previous: Vec<Quat> = model.iter().map(|t| t.rotation).collect();
    let mut stats = Stats::default();
    for f in 0..frames {
        let target = orbit(f, root, length);
        let result = solve(pose, target)
            .unwrap_or_else(|e| panic!("{name}: frame {f}: the solve failed: {e}"));
        let model = pose
            .model()
            .unwrap_or_else(|e| panic!("{name}: frame {f}: model space failed: {e}"));
        assert!(
            model.iter().all(Transform::is_finite) && result.error.is_finite(),
            "{name}: frame {f}: not finite: {model:?} {result:?}"
        );
        for (i, (w, &l)) in model.windows(2).zip(&lengths).enumerate() {
            let drift = ((w[1].translation - w[0].translation).length() - l).abs() / l;
            if drift > stats.max_drift {
                (stats.max_drift, stats.max_drift_frame) = (drift, f);
            }
            assert!(
                drift <= MAX_DRIFT,
                "{name}: frame {f}: bone {i} drifted by {drift:e} of its length"
            );
        }
        for (j, (t, p)) in model.iter().zip(&mut previous).enumerate() {
            let turn = rot_between(*p, t.rotation).to_degrees();
            if turn > stats.max_turn_degrees {
                (stats.max_turn_degrees, stats.max_turn_frame) = (turn, f);
            }
            assert!(
                turn <= MAX_TURN_DEGREES,
                "{name}: frame {f}: joint {j} turned {turn} degrees since the previous frame \
                 (target {target}, distance {} of reach {length})",
                (target - root).length()
            );
            *p = t.rotation;
        }
        let distance = (target - root).length();
        if distance > length {
            stats.beyond_reach += 1;
        } else if distance < length * 0.99 && distance > shortest_reach * 1.01 {
            stats.reachable += 1;
            if result.error <= tolerance * length {
                stats.reached += 1;
            }
        }
    }
    println!(
        "{name}: {frames} frames in {:?}; max bone drift {:e} (frame {}), max turn {:.3} \
         degrees (frame {}); {} frames beyond reach, {} of {} reachable targets reached",
        start.elapsed(),
        stats.max_drift,
        stats.max_drift_frame,
        stats.max_turn_degrees,
        stats.max_turn_frame,
        stats.beyond_reach,
        stats.reached,
        stats.reachable
    );
    // The run did what it claims: it crossed full extension many times, and solved.
    assert!(stats.beyond_reach > frames / 20, "{name}: {stats:?}");
    assert!(stats.reachable > frames / 2, "{name}: {stats:?}");
    stats
}

#[test]
fn two_bone_million_frames_through_full_extension() {
    let skeleton = chain_skeleton(Vec3::new(0.0, 1.4, 0.0), &[0.3, 0.27]);
    let mut pose = Pose::new(skeleton);
    let ik = TwoBoneIk::new(TwoBoneIkSettings::default()).unwrap();
    // A pole behind the orbit's plane: never on the root-target line.
    let pole = Vec3::new(0.0, 1.4, -2.0);
    let stats = run("two-bone", 1_000_000, &mut pose, 1e-4, |pose, target| {
        ik.solve_pose(pose, [0, 1, 2], &TwoBoneTarget::at(target).with_pole(pole))
    });
    // Analytic: every reachable target is reached.
    assert_eq!(stats.reached, stats.reachable, "{stats:?}");
}

/// FABRIK and CCD on a 5-joint chain, default settings.
fn chain_run(
    name: &str,
    frames: u32,
    mut solver: impl FnMut(&mut Pose, Vec3) -> sinew::Result<IkResult>,
) -> Stats {
    let skeleton = chain_skeleton(Vec3::new(0.0, 1.0, 0.0), &[0.3, 0.25, 0.2, 0.15]);
    let mut pose = Pose::new(skeleton);
    // Default precision: 1e-3 of the chain length.
    run(name, frames, &mut pose, 1e-3, |pose, target| {
        solver(pose, target)
    })
}

/// One chain solver posed 100,000 frames through full extension: at least 90 % of the frames
/// within reach are reached.
fn chain_hundred_thousand_frames(kind: Kind) {
    let defaults = (FabrikSettings::default(), CcdSettings::default());
    let mut solver = Solver::of(kind, defaults.0, defaults.1, 5);
    let stats = chain_run(solver.name(), 100_000, |pose, target| {
        solver.solve_pose(pose, &[0, 1, 2, 3, 4], &ChainTarget::at(target))
    });
    assert!(stats.reached * 10 >= stats.reachable * 9, "{stats:?}");
}

#[test]
fn fabrik_hundred_thousand_frames_through_full_extension() {
    chain_hundred_thousand_frames(Kind::Fabrik);
}

#[test]
fn ccd_hundred_thousand_frames_through_full_extension() {
    chain_hundred_thousand_frames(Kind::Ccd);
}
