//! Joint trees for the multi-effector solver: a 20-joint upper body reaching with both hands,
//! a hand with five fingers, random trees, forward kinematics of random poses, and the largest
//! per-frame bone turn.

use std::sync::Arc;

use sinew::{EffectorTarget, Pose, Quat, Skeleton, Transform, Vec3};

use super::rng::Rng;

/// A 20-joint body (metres, Y up): pelvis, three spine joints, chest, neck, head, both arms
/// (clavicle, upper arm, forearm, hand) and both legs (thigh, shin, foot). Returns the
/// skeleton, the root (pelvis) and the two hands.
pub fn upper_body() -> (Arc<Skeleton>, u32, [u32; 2]) {
    let t = |x: f32, y: f32, z: f32| Transform::from_translation(Vec3::new(x, y, z));
    let joints: [(i32, Transform); 20] = [
        (-1, t(0.0, 1.0, 0.0)),  // 0 pelvis
        (0, t(0.0, 0.1, 0.0)),   // 1 spine1
        (1, t(0.0, 0.12, 0.0)),  // 2 spine2
        (2, t(0.0, 0.12, 0.0)),  // 3 spine3
        (3, t(0.0, 0.12, 0.0)),  // 4 chest
        (4, t(0.0, 0.1, 0.0)),   // 5 neck
        (5, t(0.0, 0.1, 0.0)),   // 6 head
        (4, t(0.05, 0.06, 0.0)), // 7 left clavicle
        (7, t(0.15, 0.0, 0.0)),  // 8 left upper arm
        (
            8,
            Transform::from_rotation_translation(Quat::from_rotation_y(0.3), Vec3::X * 0.28),
        ), // 9
        (9, t(0.26, 0.0, 0.0)),  // 10 left hand
        (4, t(-0.05, 0.06, 0.0)), // 11 right clavicle
        (11, t(-0.15, 0.0, 0.0)), // 12 right upper arm
        (
            12,
            Transform::from_rotation_translation(Quat::from_rotation_y(0.3), Vec3::NEG_X * 0.28),
        ), // 13
        (13, t(-0.26, 0.0, 0.0)), // 14 right hand
        (0, t(0.1, -0.05, 0.0)), // 15 left thigh
        (15, t(0.0, -0.45, 0.0)), // 16 left shin
        (16, t(0.0, -0.43, 0.0)), // 17 left foot
        (0, t(-0.1, -0.05, 0.0)), // 18 right thigh
        (18, t(0.0, -0.45, 0.0)), // 19 right shin
    ];
    let parents: Vec<i32> = joints.iter().map(|j| j.0).collect();
    let rest: Vec<Transform> = joints.iter().map(|j| j.1).collect();
    (
        Arc::new(Skeleton::new(&parents, &rest, None).unwrap()),
        0,
        [10, 14],
    )
}

/// A hand of 21 joints: the palm (root) and five fingers of four joints each, bent a little;
/// returns the skeleton, the palm and the five fingertips.
pub fn hand() -> (Arc<Skeleton>, u32, [u32; 5]) {
    let mut parents = vec![-1];
    let mut rest = vec![Transform::IDENTITY];
    let mut tips = [0; 5];
    for (f, tip) in tips.iter_mut().enumerate() {
        let z = -0.04 + 0.02 * f as f32;
        let bend = Quat::from_rotation_z(-0.15);
        let mut parent = 0;
        for k in 0..4 {
            let offset = if k == 0 {
                Vec3::new(0.03, 0.0, z)
            } else {
                Vec3::X * (0.035 - 0.005 * k as f32)
            };
            parents.push(parent);
            rest.push(Transform::from_rotation_translation(bend, offset));
            parent = rest.len() as i32 - 1;
        }
        *tip = parent as u32;
    }
    (
        Arc::new(Skeleton::new(&parents, &rest, None).unwrap()),
        0,
        tips,
    )
}

/// A random tree of `n` joints (each joint's parent drawn among the earlier ones, bones 0.2
/// to 1 long, rest rotations up to `bend` radians), with joint 0 as root; returns the skeleton
/// and its leaves (the effectors).
pub fn random_tree(rng: &mut Rng, n: usize, bend: f32) -> (Arc<Skeleton>, Vec<u32>) {
    let mut parents = vec![-1i32];
    let mut rest = vec![Transform::from_rotation_translation(
        rotation_up_to(rng, bend),
        rng.vec3(1.0),
    )];
    for i in 1..n {
        // Mostly the previous joint, so branches are several joints long.
        let p = if rng.chance(0.7) { i - 1 } else { rng.index(i) };
        parents.push(p as i32);
        let offset = rng.dir() * rng.range(0.2, 1.0);
        rest.push(Transform::from_rotation_translation(
            rotation_up_to(rng, bend),
            offset,
        ));
    }
    let leaves = (0..n as u32)
        .filter(|&j| !parents.contains(&(j as i32)))
        .collect();
    (
        Arc::new(Skeleton::new(&parents, &rest, None).unwrap()),
        leaves,
    )
}

/// The salt of [`reach_case`]'s seeds (multi_fabrik.rs's, whose recorded seeds keep their
/// meaning).
pub const REACH_SALT: u64 = 0x6d66_6162_7269_6b21;

/// A cold multi-effector solve: a random tree, its leaves, targets at those leaves in another
/// pose, and the pose to solve from.
pub struct ReachCase {
    pub skeleton: Arc<Skeleton>,
    pub leaves: Vec<u32>,
    pub targets: Vec<EffectorTarget>,
    pub start: Pose,
}

/// Case `seed`: a random tree of 4 to 23 joints (bends up to 0.6 rad), targets at its leaves
/// in a pose 0.5 rad per joint from the rest pose, solved from one 0.2 rad from it.
pub fn reach_case(seed: u64) -> ReachCase {
    let mut rng = Rng::salted(seed, REACH_SALT);
    let n = 4 + rng.index(20);
    let (skeleton, leaves) = random_tree(&mut rng, n, 0.6);
    let goal = model(&random_pose(&mut rng, &skeleton, 0.5));
    let targets = leaves
        .iter()
        .map(|&e| EffectorTarget::at(goal[e as usize].translation))
        .collect();
    let start = random_pose(&mut rng, &skeleton, 0.2);
    ReachCase {
        skeleton,
        leaves,
        targets,
        start,
    }
}

/// A pose of `skeleton` with every joint's rest rotation turned by a random rotation of up to
/// `angle` radians (translations kept).
pub fn random_pose(rng: &mut Rng, skeleton: &Arc<Skeleton>, angle: f32) -> Pose {
    let mut pose = Pose::new(skeleton.clone());
    for j in 0..skeleton.joint_count() {
        let turn = rotation_up_to(rng, angle);
        pose.edit_local(j, |t| t.rotation = (t.rotation * turn).normalize())
            .unwrap();
    }
    pose
}

/// Model-space transforms of a pose.
pub fn model(pose: &Pose) -> Vec<Transform> {
    let mut out = vec![Transform::IDENTITY; pose.joint_count()];
    pose.model_into(&mut out).unwrap();
    out
}

/// The longest path from `root` down to one of `effectors` (the tree's size), in `model`.
pub fn tree_size(skeleton: &Skeleton, model: &[Transform], root: u32, effectors: &[u32]) -> f32 {
    let mut size: f32 = 0.0;
    for &e in effectors {
        let (mut j, mut length) = (e as usize, 0.0);
        while j != root as usize {
            let p = skeleton.parent(j).unwrap();
            length += (model[j].translation - model[p].translation).length();
            j = p;
        }
        size = size.max(length);
    }
    size
}

/// The largest angle (degrees) between the model rotations of any joint in two poses.
pub fn largest_turn(a: &[Transform], b: &[Transform]) -> f32 {
    a.iter()
        .zip(b)
        .map(|(x, y)| x.rotation.angle_between(y.rotation).to_degrees())
        .fold(0.0, f32::max)
}

/// A rotation about a random axis by up to `angle` radians.
pub fn rotation_up_to(rng: &mut Rng, angle: f32) -> Quat {
    Quat::from_axis_angle(rng.dir(), rng.range(-angle, angle))
}
