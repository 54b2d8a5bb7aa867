//! Multi-effector FABRIK: reach on random trees toward targets made by forward kinematics,
//! parity with the single-chain solver for one effector, constraints, frame-after-frame
//! continuity, unreachable targets, which effector a compromise favours, and input checks (the
//! documented sub-base and weight rule against an independent reference is in
//! multi_fabrik_rule.rs).

mod common;

use common::rng::Rng;
use common::trees::{
    hand, largest_turn, model, random_pose, reach_case, rotation_up_to, tree_size, upper_body,
    REACH_SALT as SALT,
};
use sinew::{
    EffectorTarget, ErrorKind, Fabrik, FabrikSettings, IkResult, JointConstraint, Limit,
    MultiFabrik, MultiFabrikSettings, Pose, Quat, Transform, Vec3,
};

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

/// [`reach_case`] `seed` solved: the largest effector distance as a fraction of the tree's
/// size, whether every result says reached, and the iterations run.
fn reach_on_a_random_pose(seed: u64) -> (f32, bool, u32) {
    let mut case = reach_case(seed);
    let mut ik = solver(32, 32);
    let (leaves, targets) = (&case.leaves, &case.targets);
    let results = solve(&mut ik, &mut case.start, 0, leaves, targets);
    let m = model(&case.start);
    let size = tree_size(&case.skeleton, &m, 0, leaves);
    let worst = leaves
        .iter()
        .zip(targets)
        .map(|(&e, t)| (m[e as usize].translation - t.position).length() / size)
        .fold(0.0, f32::max);
    let reached = results.iter().all(|r| r.reached);
    (worst, reached, results[0].iterations)
}

/// Every effector reaches within 1e-3 of the tree's size, targets made by forward kinematics,
/// on 20 000 random trees of 4 to 23 joints solved cold (mean iterations printed). Without the
/// retries, seeds 2055, 3188, 5640 and others among them stop short at a local minimum; the
/// rare trees that stop short with them are measured by the next test.
#[test]
fn every_effector_reaches_targets_reachable_together() {
    const TREES: u64 = 20_000;
    let mut iterations = 0;
    for seed in 0..TREES {
        let (worst, reached, its) = reach_on_a_random_pose(seed);
        assert!(
            worst <= 1e-3 && reached,
            "seed {seed}: an effector is off by {worst} of the size after {its} iterations"
        );
        iterations += its;
    }
    println!("mean iterations {:.2}", iterations as f32 / TREES as f32);
}

/// How often a cold solve stops short on a random tree even after its retries: at most once
/// in 100 000 trees (measured: 3 in these 2 000 000, seeds 307164, 407337 and 993046; 1 646
/// without the retries).
#[test]
#[ignore = "2 000 000 solves: about 30 s in release, many minutes in debug; run with \
            cargo test --release --test multi_fabrik -- --ignored"]
fn random_trees_stop_short_less_than_once_in_100_000() {
    const TREES: u64 = 2_000_000;
    let short: Vec<u64> = (0..TREES)
        .filter(|&seed| {
            let (worst, reached, _) = reach_on_a_random_pose(seed);
            worst > 1e-3 || !reached
        })
        .collect();
    println!("{} of {TREES} stop short: seeds {short:?}", short.len());
    assert!(short.len() as u64 <= TREES / 100_000);
}

/// Targets that cannot be reached together by the documented reach check are not retried,
/// frame after frame from the previous output: hands pulled apart farther than the path
/// between them, each within reach of the pelvis alone; and a left hand beyond the path from
/// the pelvis, the right one where it is. Without the stall rule the first attempt runs all
/// `max_iterations`, so a retry would show in the count.
#[test]
fn targets_apart_beyond_reach_are_not_retried() {
    let (skeleton, root, hands) = upper_body();
    let rest = model(&Pose::new(skeleton.clone()));
    let settings = MultiFabrikSettings {
        stop_when_stalled: false,
        ..Default::default()
    };
    let most = settings.max_iterations;
    let cases = [
        [Vec3::new(1.0, 1.3, 0.0), Vec3::new(-1.0, 1.3, 0.0)],
        [
            Vec3::new(0.3, 2.5, 0.0),
            rest[hands[1] as usize].translation,
        ],
    ];
    for (case, places) in cases.iter().enumerate() {
        let targets = places.map(EffectorTarget::at);
        let mut ik = MultiFabrik::new(settings, 32, 2).unwrap();
        let mut pose = Pose::new(skeleton.clone());
        for frame in 0..10 {
            let results = solve(&mut ik, &mut pose, root, &hands, &targets);
            assert!(
                !results[0].reached,
                "case {case}, frame {frame}: {results:?}"
            );
            assert_eq!(results[0].iterations, most, "case {case}, frame {frame}");
        }
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

/// Both hands of the upper body, and the five fingertips of the hand, following targets made by
/// forward kinematics of a smooth path of poses (so reachable together), solved each frame
/// from the previous output: the largest per-frame bone turn stays within 15 degrees and every
/// effector reaches.
#[test]
fn smooth_paths_are_tracked_without_jumps() {
    let (body, root, hands) = upper_body();
    let (palm, proot, tips) = hand();
    let mut rng = Rng::salted(2, SALT);
    for (name, skeleton, root, effectors) in [
        ("upper body", body, root, hands.to_vec()),
        ("hand", palm, proot, tips.to_vec()),
    ] {
        let joints = skeleton.joint_count();
        let axes: Vec<(Vec3, f32)> = (0..joints)
            .map(|_| (rng.dir(), rng.range(0.0, std::f32::consts::TAU)))
            .collect();
        let path = |f: usize| {
            let mut p = Pose::new(skeleton.clone());
            let a = f as f32 / 240.0 * std::f32::consts::TAU;
            for (j, (axis, phase)) in axes.iter().enumerate() {
                let turn = Quat::from_axis_angle(*axis, 0.5 * (a + phase).sin());
                p.edit_local(j, |t| t.rotation = (t.rotation * turn).normalize())
                    .unwrap();
            }
            p
        };
        let mut ik = solver(32, 8);
        let mut pose = Pose::new(skeleton.clone());
        let (mut worst, mut iterations, mut frames, mut missed) = (0.0f32, 0u32, 0, 0);
        for f in 0..=240 {
            let targets = targets_of(&path(f), &effectors);
            let before = model(&pose);
            let results = solve(&mut ik, &mut pose, root, &effectors, &targets);
            if f > 0 {
                worst = worst.max(largest_turn(&before, &model(&pose)));
            }
            iterations += results[0].iterations;
            frames += 1;
            missed += results.iter().filter(|r| !r.reached).count();
        }
        println!(
            "{name}: largest turn {worst:.2} deg, mean iterations {:.2}, missed {missed}",
            iterations as f32 / frames as f32
        );
        assert!(worst <= 15.0, "{name}: {worst} deg");
        assert_eq!(missed, 0, "{name}");
    }
}

/// Hand targets from a random pose, the left one pushed out of reach along the line from the
/// chest and moving back in until it is reachable: the unreachable hand pulls toward a
/// compromise that solving again moves by no more than a frame may, and no frame turns a bone by more than 15
/// degrees, also when it comes in reach.
#[test]
fn unreachable_targets_settle_on_a_stable_compromise() {
    let (skeleton, root, hands) = upper_body();
    let mut rng = Rng::salted(5, SALT);
    let goal = model(&random_pose(&mut rng, &skeleton, 0.3));
    let mut ik = solver(32, 2);
    let mut pose = Pose::new(skeleton.clone());
    let out = (goal[hands[0] as usize].translation - goal[4].translation).normalize();
    let right = EffectorTarget::at(goal[hands[1] as usize].translation);
    let (mut worst, mut drift, mut reached_at) = (0.0f32, 0.0f32, None);
    for f in 0..=300 {
        let push = 0.8 - 0.9 * f as f32 / 300.0;
        let left = EffectorTarget::at(goal[hands[0] as usize].translation + out * push);
        let before = model(&pose);
        let results = solve(&mut ik, &mut pose, root, &hands, &[left, right]);
        if f > 0 {
            worst = worst.max(largest_turn(&before, &model(&pose)));
        }
        if results[0].reached && reached_at.is_none() {
            reached_at = Some(f);
        }
        let mut again = pose.clone();
        let after = model(&pose);
        solve(&mut ik, &mut again, root, &hands, &[left, right]);
        drift = drift.max(largest_turn(&after, &model(&again)));
    }
    println!("largest turn {worst:.2} deg, largest drift when solved again {drift:.3} deg, reached from frame {reached_at:?}");
    assert!(reached_at.is_some());
    assert!(worst <= 15.0, "{worst}");
    // Measured 6.3 deg: a solve stops before its compromise has fully settled, so solving
    // the same targets again moves it on (docs/SOLVERS.md); held to the per-frame bound.
    assert!(drift <= 15.0, "{drift}");
}

/// The heavier of two effectors pulled apart beyond reach gets nearer its target.
#[test]
fn weights_decide_the_compromise() {
    let (skeleton, root, hands) = upper_body();
    let start = model(&Pose::new(skeleton.clone()));
    let far = |k: usize, dx: f32| start[hands[k] as usize].translation + Vec3::new(dx, 0.0, 0.0);
    let mut errors = [0.0f32; 2];
    for (i, w) in [3.0, 1.0 / 3.0].into_iter().enumerate() {
        let mut pose = Pose::new(skeleton.clone());
        let targets = [
            EffectorTarget::at(far(0, 1.5)).with_weight(w),
            EffectorTarget::at(far(1, -1.5)),
        ];
        let r = solve(&mut solver(32, 2), &mut pose, root, &hands, &targets);
        errors[i] = r[0].error - r[1].error;
    }
    assert!(errors[0] < 0.0 && errors[1] > 0.0, "{errors:?}");
}

/// A zero weight switches an effector off: its branch keeps the input's local rotations.
#[test]
fn a_zero_weight_effector_follows_as_animated() {
    let (skeleton, root, hands) = upper_body();
    let mut rng = Rng::salted(3, SALT);
    let input = random_pose(&mut rng, &skeleton, 0.3);
    let mut pose = input.clone();
    let start = model(&input);
    let targets = [
        EffectorTarget::at(start[hands[0] as usize].translation + Vec3::new(0.1, 0.2, 0.2)),
        EffectorTarget::at(Vec3::new(9.0, 9.0, 9.0)).with_weight(0.0),
    ];
    let r = solve(&mut solver(32, 2), &mut pose, root, &hands, &targets);
    assert!(r[0].reached);
    for j in [11, 12, 13, 14] {
        let (a, b) = (input.local().get(j).rotation, pose.local().get(j).rotation);
        assert!(a.angle_between(b) < 1e-4, "joint {j}");
    }
}

/// Constraints on every tree joint hold after every solve.
#[test]
fn constraints_hold_on_every_solve() {
    let (skeleton, root, hands) = upper_body();
    let mut rng = Rng::salted(4, SALT);
    let rest = Pose::new(skeleton.clone());
    let mut ik = solver(32, 2);
    let tree = [0u32, 1, 2, 3, 4, 7, 8, 9, 10, 11, 12, 13, 14];
    let mut constraints = vec![];
    for &j in &tree {
        let reference = rest.local().get(j as usize).rotation;
        let limit = if j == 9 || j == 13 {
            Limit::Hinge {
                min: -2.0,
                max: 0.1,
            }
        } else {
            Limit::Cone {
                half_angle_1: 0.6,
                half_angle_2: 0.4,
                twist: Some((-0.3, 0.3)),
            }
        };
        let axis = if j == 9 || j == 13 { Vec3::Z } else { Vec3::X };
        let c = JointConstraint::new(reference, axis, limit).unwrap();
        ik.set_constraint(j, Some(c)).unwrap();
        constraints.push((j, c));
    }
    let start = model(&rest);
    let mut pose = rest.clone();
    for case in 0..100 {
        let targets = [
            EffectorTarget::at(start[10].translation + rng.vec3(0.4)),
            EffectorTarget::at(start[14].translation + rng.vec3(0.4)),
        ];
        solve(&mut ik, &mut pose, root, &hands, &targets);
        for (j, c) in &constraints {
            let v = c.violation(pose.local().get(*j as usize).rotation);
            assert!(v < 1e-4, "case {case}: joint {j} off its limit by {v}");
        }
    }
}

/// Bad input is reported with its kind and leaves the pose and results untouched.
#[test]
fn bad_input_is_rejected_without_writing() {
    let (skeleton, root, hands) = upper_body();
    let good = [EffectorTarget::at(Vec3::ONE), EffectorTarget::at(Vec3::ONE)];
    let nan = EffectorTarget::at(Vec3::new(f32::NAN, 0.0, 0.0));
    type Case = (&'static str, u32, Vec<u32>, Vec<EffectorTarget>, ErrorKind);
    let cases: Vec<Case> = vec![
        (
            "bad root",
            99,
            hands.to_vec(),
            good.to_vec(),
            ErrorKind::OutOfRange,
        ),
        (
            "not below root",
            7,
            hands.to_vec(),
            good.to_vec(),
            ErrorKind::InvalidArgument,
        ),
        (
            "effector is root",
            root,
            vec![0, 10],
            good.to_vec(),
            ErrorKind::InvalidArgument,
        ),
        (
            "duplicate",
            root,
            vec![10, 10],
            good.to_vec(),
            ErrorKind::InvalidArgument,
        ),
        (
            "ancestor",
            root,
            vec![9, 10],
            good.to_vec(),
            ErrorKind::InvalidArgument,
        ),
        (
            "no effectors",
            root,
            vec![],
            vec![],
            ErrorKind::InvalidArgument,
        ),
        (
            "too many effectors",
            root,
            vec![10, 14, 6],
            vec![good[0]; 3],
            ErrorKind::OutOfRange,
        ),
        (
            "targets count",
            root,
            hands.to_vec(),
            vec![good[0]],
            ErrorKind::SizeMismatch,
        ),
        (
            "nan target",
            root,
            hands.to_vec(),
            vec![good[0], nan],
            ErrorKind::NonFinite,
        ),
        (
            "nan weight",
            root,
            hands.to_vec(),
            vec![good[0], good[0].with_weight(f32::NAN)],
            ErrorKind::NonFinite,
        ),
        (
            "negative weight",
            root,
            hands.to_vec(),
            vec![good[0], good[0].with_weight(-1.0)],
            ErrorKind::InvalidArgument,
        ),
        (
            "all weights zero",
            root,
            hands.to_vec(),
            vec![good[0].with_weight(0.0); 2],
            ErrorKind::InvalidArgument,
        ),
        (
            "zero rotation",
            root,
            hands.to_vec(),
            vec![
                good[0],
                good[0].with_rotation(Quat::from_xyzw(0.0, 0.0, 0.0, 0.0)),
            ],
            ErrorKind::InvalidArgument,
        ),
    ];
    for (what, root, effectors, targets, kind) in cases {
        let mut ik = solver(32, 2);
        let mut pose = Pose::new(skeleton.clone());
        pose.edit_local(9, |t| t.rotation = Quat::from_rotation_x(0.3))
            .unwrap();
        let before = model(&pose);
        let mut results = vec![
            IkResult {
                reached: true,
                error: 7.0,
                iterations: 7
            };
            effectors.len()
        ];
        let e = ik
            .solve_pose(&mut pose, root, &effectors, &targets, &mut results)
            .unwrap_err();
        assert_eq!(e.kind(), kind, "{what}: {e}");
        assert_eq!(model(&pose), before, "{what}");
        assert!(results.iter().all(|r| r.iterations == 7), "{what}");
        let mut m = before.clone();
        let e = ik
            .solve(&skeleton, &mut m, root, &effectors, &targets, &mut results)
            .unwrap_err();
        assert_eq!(e.kind(), kind, "{what} (model): {e}");
        assert_eq!(m, before, "{what} (model)");
    }
    // A tree larger than max_joints.
    let mut small = solver(5, 2);
    let mut pose = Pose::new(skeleton.clone());
    let mut results = [IkResult::default(); 2];
    let e = small
        .solve_pose(&mut pose, root, &hands, &good, &mut results)
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::OutOfRange, "{e}");
    assert!(MultiFabrik::new(MultiFabrikSettings::default(), 8, 0).is_err());
    assert!(MultiFabrik::new(MultiFabrikSettings::default(), 8, 9).is_err());
    assert!(MultiFabrik::new(
        MultiFabrikSettings {
            precision: 0.0,
            ..Default::default()
        },
        8,
        2
    )
    .is_err());
}
