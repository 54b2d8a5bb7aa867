//! The README's weight rule of multi-effector FABRIK against a reference worked out from its
//! text alone. The closing step runs after every pass, so one forward pass cannot be observed
//! on its own; what can be is where a solve settles. Targets beyond reach on one line through a
//! Y-shaped tree make that place a closed formula: every branch lies straight toward its
//! target, and the sub-base sits on the line at the one point where the weighted centroid of
//! the places the branches' steps give it is itself (the forward pass's rule), which is also
//! the minimum of the closing step's `sum(w_k d_k²)`. A branch weighs the sum of its effectors'
//! weights, only ratios matter, and a weight-0 effector pulls nothing.

use std::sync::Arc;

use sinew::{
    EffectorTarget, IkResult, MultiFabrik, MultiFabrikSettings, Pose, Quat, Skeleton, Transform,
    Vec3,
};

/// Trunk joints root → 1 → 2 → sub-base 3, about 0.3 m each, bent a little at rest.
const TRUNK: [(i32, Vec3); 4] = [
    (-1, Vec3::ZERO),
    (0, Vec3::new(0.05, 0.3, 0.0)),
    (1, Vec3::new(-0.05, 0.3, 0.0)),
    (2, Vec3::new(0.0, 0.3, 0.0)),
];
const SUB_BASE: usize = 3;
/// Length of each side's branch from the sub-base to its effector(s).
const BRANCH: f32 = 0.5;
/// The targets: on the line y = `HEIGHT`, `REACH_OUT` to either side of the root, far beyond
/// the tree's reach (trunk 0.91 plus a branch 0.5).
const HEIGHT: f32 = 0.8;
const REACH_OUT: f32 = 2.0;

/// Solves frame after frame with fixed targets, each from the last output, until the pose
/// stops moving: where the weighted compromise settles.
const SETTLE_SOLVES: usize = 40;
/// How close to the reference the settled tree must be, in metres (the tree is about 1.4 m).
const TOLERANCE: f32 = 1e-3;

/// A skeleton from (parent, rest offset) pairs, identity rest rotations.
fn skeleton(joints: &[(i32, Vec3)]) -> Arc<Skeleton> {
    let parents: Vec<i32> = joints.iter().map(|j| j.0).collect();
    let rest: Vec<Transform> = joints
        .iter()
        .map(|j| Transform::from_translation(j.1))
        .collect();
    Arc::new(Skeleton::new(&parents, &rest, None).unwrap())
}

/// The Y: the trunk, then two 2-joint branches of length [`BRANCH`] from the sub-base, to the
/// left (effector 5) and to the right (effector 7).
fn y_tree() -> (Arc<Skeleton>, Vec<u32>) {
    let mut joints = TRUNK.to_vec();
    joints.extend([
        (3, Vec3::new(-0.25, 0.0, 0.0)),
        (4, Vec3::new(-0.25, 0.0, 0.0)),
        (3, Vec3::new(0.25, 0.0, 0.0)),
        (6, Vec3::new(0.25, 0.0, 0.0)),
    ]);
    (skeleton(&joints), vec![5, 7])
}

/// The Y whose right branch splits again after 0.35 m (at joint 7) into two fingers of 0.15 m
/// (effectors 8 and 9, on top of each other): the right branch has two effectors.
fn y_tree_with_fork() -> (Arc<Skeleton>, Vec<u32>) {
    let mut joints = TRUNK.to_vec();
    joints.extend([
        (3, Vec3::new(-0.25, 0.0, 0.0)),
        (4, Vec3::new(-0.25, 0.0, 0.0)),
        (3, Vec3::new(0.2, 0.0, 0.0)),
        (6, Vec3::new(0.15, 0.0, 0.0)),
        (7, Vec3::new(0.15, 0.0, 0.0)),
        (7, Vec3::new(0.15, 0.0, 0.0)),
    ]);
    (skeleton(&joints), vec![5, 8, 9])
}

fn model(pose: &Pose) -> Vec<Transform> {
    let mut out = vec![Transform::IDENTITY; pose.joint_count()];
    pose.model_into(&mut out).unwrap();
    out
}

/// Largest component difference of two rotations' quaternions, of either sign.
fn quat_distance(a: Quat, b: Quat) -> f32 {
    let d = |b: Quat| {
        (a - b)
            .to_array()
            .map(f32::abs)
            .into_iter()
            .fold(0.0, f32::max)
    };
    d(b).min(d(-b))
}

fn solve(
    ik: &mut MultiFabrik,
    pose: &mut Pose,
    effectors: &[u32],
    targets: &[EffectorTarget],
) -> Vec<IkResult> {
    let mut results = vec![IkResult::default(); effectors.len()];
    ik.solve_pose(pose, 0, effectors, targets, &mut results)
        .unwrap();
    results
}

/// The left target and the right one.
fn targets() -> [Vec3; 2] {
    [
        Vec3::new(-REACH_OUT, HEIGHT, 0.0),
        Vec3::new(REACH_OUT, HEIGHT, 0.0),
    ]
}

/// The reference, from the README: with both branches straight toward their targets, the
/// right branch's step puts the sub-base `BRANCH` before the right target and the left's
/// `BRANCH` after the left one; their centroid weighted by each branch's weight `w_left`,
/// `w_right` (the sums of their effectors' weights) is the sub-base itself.
fn reference_sub_base(w_left: f32, w_right: f32) -> Vec3 {
    let [left, right] = targets();
    let from_left = left + Vec3::X * BRANCH;
    let from_right = right - Vec3::X * BRANCH;
    (from_left * w_left + from_right * w_right) / (w_left + w_right)
}

/// Solves the tree toward the targets (`weights` per effector; effectors after the first are
/// on the right) until it settles, from its rest pose; returns the model transforms.
fn settle(skeleton: &Arc<Skeleton>, effectors: &[u32], weights: &[f32]) -> Vec<Transform> {
    let [left, right] = targets();
    let targets: Vec<EffectorTarget> = weights
        .iter()
        .enumerate()
        .map(|(k, &w)| EffectorTarget::at(if k == 0 { left } else { right }).with_weight(w))
        .collect();
    let mut ik = MultiFabrik::new(MultiFabrikSettings::default(), 16, 4).unwrap();
    let mut pose = Pose::new(skeleton.clone());
    for _ in 0..SETTLE_SOLVES {
        solve(&mut ik, &mut pose, effectors, &targets);
    }
    model(&pose)
}

/// Checks the settled sub-base against the reference, and each effector `BRANCH` from it
/// straight toward its target.
fn check_settles_at_reference(tree: (Arc<Skeleton>, Vec<u32>), weights: &[f32]) {
    let (skeleton, effectors) = tree;
    let m = settle(&skeleton, &effectors, weights);
    let right_weight: f32 = weights[1..].iter().sum();
    let expected = reference_sub_base(weights[0], right_weight);
    // The reference only holds when the trunk can take the sub-base there.
    let trunk: f32 = TRUNK.iter().map(|j| j.1.length()).sum();
    assert!(
        expected.length() < 0.99 * trunk,
        "reference {expected} beyond the trunk"
    );
    let sub_base = m[SUB_BASE].translation;
    assert!(
        (sub_base - expected).length() <= TOLERANCE,
        "weights {weights:?}: sub-base at {sub_base}, reference {expected}"
    );
    for (k, &e) in effectors.iter().enumerate() {
        let side = if k == 0 { -Vec3::X } else { Vec3::X };
        let hand = expected + side * BRANCH;
        let got = m[e as usize].translation;
        assert!(
            (got - hand).length() <= TOLERANCE,
            "weights {weights:?}: effector {k} at {got}, reference {hand}"
        );
    }
}

/// Unequal weights on a Y, both ways round: the sub-base settles at the weighted centroid,
/// nearer the heavier side (0.35 m from the middle for weights 1 and 1.6).
#[test]
fn sub_base_settles_at_the_weighted_centroid() {
    for weights in [[1.0, 1.6], [1.6, 1.0], [1.0, 1.0], [0.5, 0.7]] {
        check_settles_at_reference(y_tree(), &weights);
    }
    assert!((reference_sub_base(1.0, 1.6).x - 0.346).abs() < 1e-3);
}

/// A branch weighs the sum of its effectors' weights: the forked right branch with weights 0.4
/// and 1.2 pulls as one of 1.6 (neither as its effector count, 2, nor as its largest weight).
#[test]
fn a_branch_weighs_the_sum_of_its_effectors_weights() {
    for weights in [[1.0, 0.4, 1.2], [1.0, 0.5, 0.3]] {
        check_settles_at_reference(y_tree_with_fork(), &weights);
    }
    // The rule checked above is not one of its likely misreadings.
    let sum = reference_sub_base(1.0, 1.6).x;
    for wrong in [
        reference_sub_base(1.0, 2.0).x,
        reference_sub_base(1.0, 1.2).x,
    ] {
        assert!((sum - wrong).abs() > 20.0 * TOLERANCE);
    }
}

/// Only the ratios of the weights count: scaled by 1000 or 1/1000 they settle at the same
/// place as unscaled.
#[test]
fn only_weight_ratios_matter() {
    for scale in [1e-3, 1.0, 1e3] {
        check_settles_at_reference(y_tree(), &[scale, 1.6 * scale]);
        check_settles_at_reference(y_tree_with_fork(), &[scale, 0.4 * scale, 1.2 * scale]);
    }
}

/// A weight-0 effector pulls nothing: a third branch with a weight-0 effector (far off) leaves
/// every other joint where the solve without it puts them, and keeps its own local rotations
/// as they came in.
#[test]
fn a_zero_weight_effector_pulls_nothing() {
    let mut joints = TRUNK.to_vec();
    joints.extend([
        (3, Vec3::new(-0.25, 0.0, 0.0)),
        (4, Vec3::new(-0.25, 0.0, 0.0)),
        (3, Vec3::new(0.25, 0.0, 0.0)),
        (6, Vec3::new(0.25, 0.0, 0.0)),
        (3, Vec3::new(0.0, 0.15, 0.0)), // 8: a short third branch
        (8, Vec3::new(0.0, 0.1, 0.0)),  // 9: its effector
    ]);
    let skeleton = skeleton(&joints);
    let mut input = Pose::new(skeleton.clone());
    for (j, angle) in [(1, 0.2), (4, -0.3), (6, 0.25), (8, 0.4), (9, -0.5)] {
        input
            .edit_local(j, |t| {
                t.rotation = Quat::from_axis_angle(Vec3::new(0.3, 0.4, 0.85).normalize(), angle)
            })
            .unwrap();
    }
    let [left, right] = targets();
    // Reachable targets and unreachable ones.
    for goals in [
        [Vec3::new(-0.6, 1.0, 0.3), Vec3::new(0.5, 0.7, -0.2)],
        [left, right],
    ] {
        let two = [
            EffectorTarget::at(goals[0]),
            EffectorTarget::at(goals[1]).with_weight(1.6),
        ];
        let three = [
            two[0],
            two[1],
            EffectorTarget::at(Vec3::splat(9.0)).with_weight(0.0),
        ];
        let mut ik = MultiFabrik::new(MultiFabrikSettings::default(), 16, 4).unwrap();
        let mut without = input.clone();
        let r2 = solve(&mut ik, &mut without, &[5, 7], &two);
        let mut with = input.clone();
        let r3 = solve(&mut ik, &mut with, &[5, 7, 9], &three);
        for k in 0..2 {
            assert_eq!(r2[k], r3[k], "effector {k}");
        }
        let (a, b) = (model(&without), model(&with));
        for j in 0..skeleton.joint_count() {
            let moved = (a[j].translation - b[j].translation).length();
            // Quaternion components, not `angle_between`, whose f32 acos cannot resolve less
            // than about 1e-3 rad.
            let turned = quat_distance(a[j].rotation, b[j].rotation);
            assert!(
                moved <= 1e-6 && turned <= 1e-6,
                "goals {goals:?}: joint {j} moved {moved} m, turned {turned} rad"
            );
        }
        // Exactly: an unconstrained joint with no weight below it keeps its local rotation.
        for j in [8, 9] {
            let (got, was) = (with.local().get(j).rotation, input.local().get(j).rotation);
            assert_eq!(got.to_array(), was.to_array(), "joint {j}");
        }
    }
}
