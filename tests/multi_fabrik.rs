//! Multi-effector FABRIK: reach on random trees toward targets made by forward kinematics,
//! parity with the single-chain solver for one effector, constraints, frame-after-frame
//! continuity, unreachable targets, the documented sub-base and weight rule against an
//! independent reference, and input checks.

mod common;

use std::sync::Arc;

use common::rng::Rng;
use common::trees::{
    hand, largest_turn, model, random_pose, random_tree, rotation_up_to, tree_size, upper_body,
};
use proptest::prelude::*;
use sinew::{
    EffectorTarget, ErrorKind, Fabrik, FabrikSettings, IkResult, JointConstraint, Limit,
    MultiFabrik, MultiFabrikSettings, Pose, Quat, Skeleton, Transform, Vec3,
};

const SALT: u64 = 0x6d66_6162_7269_6b21;

fn solver(max_joints: usize, max_effectors: usize) -> MultiFabrik {
    MultiFabrik::new(MultiFabrikSettings::default(), max_joints, max_effectors).unwrap()
}

/// Solves `pose` toward `targets`; returns the results.
fn solve(
    ik: &mut MultiFabrik,
    pose: &mut Pose,
    root: u32,
    effectors: &[u32],
    targets: &[EffectorTarget],
) -> Vec<IkResult> {
    let mut results = vec![IkResult::default(); effectors.len()];
    ik.solve_pose(pose, root, effectors, targets, &mut results)
        .unwrap();
    results
}

/// Targets at the effectors of `pose`.
fn targets_of(pose: &Pose, effectors: &[u32]) -> Vec<EffectorTarget> {
    let m = model(pose);
    effectors
        .iter()
        .map(|&e| EffectorTarget::at(m[e as usize].translation))
        .collect()
}

/// A random tree, a random pose of it whose effectors are the targets, and the rest pose to
/// solve from; checks every effector reaches within 1e-3 of the tree's size.
fn reaches_targets_of_a_random_pose(seed: u64) -> Result<f32, TestCaseError> {
    let mut rng = Rng::salted(seed, SALT);
    let n = 4 + rng.index(20);
    let (skeleton, leaves) = random_tree(&mut rng, n, 0.6);
    let goal = random_pose(&mut rng, &skeleton, 0.5);
    let targets = targets_of(&goal, &leaves);
    let mut pose = random_pose(&mut rng, &skeleton, 0.2);
    let mut ik = solver(32, 32);
    let results = solve(&mut ik, &mut pose, 0, &leaves, &targets);
    let m = model(&pose);
    let size = tree_size(&skeleton, &m, 0, &leaves);
    for (k, (&e, r)) in leaves.iter().zip(&results).enumerate() {
        let error = (m[e as usize].translation - targets[k].position).length();
        prop_assert!(
            error <= 1e-3 * size,
            "seed {seed}: effector {k} of {} ({n} joints) off by {} of the size after {} iterations",
            leaves.len(),
            error / size,
            r.iterations
        );
        prop_assert!(r.reached);
    }
    Ok(results[0].iterations as f32)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn every_effector_reaches_targets_reachable_together(seed in any::<u64>()) {
        reaches_targets_of_a_random_pose(seed)?;
    }
}

/// One effector: the tree is a chain, and the result is the single-chain solver's bit for bit
/// (model space and pose), with and without a target rotation and constraints.
#[test]
fn one_effector_gives_the_single_chain_result() {
    let (skeleton, root, hands) = upper_body();
    let mut rng = Rng::salted(1, SALT);
    for case in 0..40 {
        let pose = random_pose(&mut rng, &skeleton, 0.4);
        let goal = Vec3::new(0.3, 1.3, 0.2) + rng.vec3(0.3);
        let rotation = (case % 2 == 0).then(|| rotation_up_to(&mut rng, 3.0));
        let constrained = case % 4 >= 2;
        let chain: Vec<u32> = vec![0, 1, 2, 3, 4, 7, 8, 9, 10];
        let mut multi = solver(20, 2);
        let mut fabrik = Fabrik::new(
            FabrikSettings {
                max_iterations: MultiFabrikSettings::default().max_iterations,
                end_rotation: if rotation.is_some() {
                    sinew::EndRotation::CopyEffector
                } else {
                    sinew::EndRotation::KeepLocal
                },
                ..Default::default()
            },
            20,
        )
        .unwrap();
        if constrained {
            for (i, &j) in chain.iter().enumerate() {
                let local = pose.local().get(j as usize).rotation;
                let cone = Limit::Cone {
                    half_angle_1: 0.5,
                    half_angle_2: 0.3,
                    twist: Some((-0.2, 0.2)),
                };
                let c = JointConstraint::new(local, Vec3::X, cone).unwrap();
                multi.set_constraint(j, Some(c)).unwrap();
                fabrik.set_constraint(i, Some(c)).unwrap();
            }
        }
        let target = EffectorTarget {
            position: goal,
            rotation,
            weight: 0.7,
        };
        let chain_target = sinew::ChainTarget {
            position: goal,
            rotation,
        };
        let (mut a, mut b) = (pose.clone(), pose.clone());
        let ra = solve(&mut multi, &mut a, root, &[hands[0]], &[target]);
        let rb = fabrik.solve_pose(&mut b, &chain, &chain_target).unwrap();
        assert_eq!(ra[0], rb, "case {case}");
        assert_eq!(bits(&model(&a)), bits(&model(&b)), "case {case}");
        let (mut ma, mut mb) = (model(&pose), model(&pose));
        let mut rs = [IkResult::default()];
        multi
            .solve(&skeleton, &mut ma, root, &[hands[0]], &[target], &mut rs)
            .unwrap();
        let mut c: Vec<Transform> = chain.iter().map(|&j| mb[j as usize]).collect();
        let rc = fabrik.solve(&mut c, Quat::IDENTITY, &chain_target).unwrap();
        for (t, &j) in c.iter().zip(&chain) {
            mb[j as usize] = *t;
        }
        assert_eq!(rs[0], rc, "case {case}");
        assert_eq!(bits(&ma), bits(&mb), "case {case}");
    }
}

fn bits(ts: &[Transform]) -> Vec<u32> {
    ts.iter()
        .flat_map(|t| {
            let (a, b, c) = (
                t.translation.to_array(),
                t.rotation.to_array(),
                t.scale.to_array(),
            );
            a.into_iter()
                .chain(b)
                .chain(c)
                .map(f32::to_bits)
                .collect::<Vec<_>>()
        })
        .collect()
}
