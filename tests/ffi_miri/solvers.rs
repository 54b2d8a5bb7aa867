//! The solvers: two-bone IK, FABRIK, CCD and aim chains (settings, constraints, per-joint tuning, single and
//! pose solves), hand IK retargeting, and constraints applied to a pose.

use std::ptr::{null, null_mut};

use sinew::ffi::error::last_error_message;
use sinew::ffi::*;

use super::*;

#[test]
fn two_bone_ik_round_trip_and_errors() {
    // SAFETY: settings are written before read; handles are live until destroyed; pointers are
    // to locals or arrays of the stated sizes.
    unsafe {
        let bad: [BadSettings<SinewTwoBoneIkSettings>; 3] = [
            (
                |s| s.allow_stretching = 2,
                SinewStatus::InvalidArgument,
                "allow_stretching",
            ),
            (
                |s| s.end_rotation = 9,
                SinewStatus::InvalidArgument,
                "end_rotation",
            ),
            (|s| s.weight = f32::NAN, SinewStatus::NonFinite, "weight"),
        ];
        let create = |s: &_, out: &mut _| sinew_two_bone_ik_create(s, out);
        let stretchy = |s: &mut SinewTwoBoneIkSettings| s.allow_stretching = 1;
        let (solver, defaults) = settings_round_trip(TWO_BONE, create, stretchy, &bad);
        let mut nan = defaults;
        nan.weight = f32::NAN;
        let mut other = null_mut();
        assert_ne!(sinew_two_bone_ik_create(&nan, &mut other), SinewStatus::Ok);
        assert!(other.is_null());
        ok(sinew_two_bone_ik_set_settings(solver, &defaults));

        // A chain in place, with a pole and an effector rotation.
        let mut chain = arm_chain();
        let goal = v3(1.0, 1.0, 0.0);
        let pole = v3(1.0, 0.0, 1.0);
        let effector_rotation = rot_z(0.5);
        let mut result = SinewIkResult::default();
        ok(sinew_two_bone_ik_solve(
            solver,
            chain.as_mut_ptr(),
            &goal,
            &effector_rotation,
            &pole,
            &mut result,
        ));
        assert_eq!(result.reached, 1);
        assert!(dist(chain[2].translation, goal) < 1e-4);
        ok(sinew_two_bone_ik_solve(
            solver,
            chain.as_mut_ptr(),
            &goal,
            null(),
            null(),
            null_mut(),
        ));

        // Errors leave the chain and the result untouched.
        let before = chain;
        let stale = result;
        let nan_goal = v3(f32::NAN, 0.0, 0.0);
        let s = sinew_two_bone_ik_solve(
            solver,
            chain.as_mut_ptr(),
            &nan_goal,
            null(),
            null(),
            &mut result,
        );
        assert_eq!(s, SinewStatus::NonFinite);
        let s = sinew_two_bone_ik_solve(
            solver,
            chain.as_mut_ptr(),
            null(),
            null(),
            null(),
            &mut result,
        );
        fails(s, SinewStatus::NullPointer, "effector_position");
        let mut bytes = Bytes::new();
        let s = sinew_two_bone_ik_solve(
            solver,
            chain.as_mut_ptr(),
            &goal,
            null(),
            null(),
            bytes.ptr(1),
        );
        fails(s, SinewStatus::InvalidArgument, "out_result");
        let s =
            sinew_two_bone_ik_solve(solver, bytes.ptr(4 + 1), &goal, null(), null(), null_mut());
        fails(s, SinewStatus::InvalidArgument, "chain");
        assert!(bytes.untouched());
        assert_eq!(chain, before);
        assert_eq!(result, stale);

        // On a pose: upper, lower, hand.
        let skel = skeleton();
        let p = pose(skel);
        let reach = v3(0.3, 1.4, 0.1);
        ok(sinew_two_bone_ik_solve_pose(
            solver,
            p,
            1,
            2,
            3,
            &reach,
            null(),
            &pole,
            &mut result,
        ));
        assert_eq!(result.reached, 1);
        let mut hand = SinewTransform::default();
        ok(sinew_pose_get_model_transform(p, 3, &mut hand));
        assert!(dist(hand.translation, reach) < 1e-4);
        let before = local(p);
        let s =
            sinew_two_bone_ik_solve_pose(solver, p, 1, 3, 2, &reach, null(), null(), null_mut());
        assert_ne!(s, SinewStatus::Ok, "not a parent chain");
        let s = sinew_two_bone_ik_solve_pose(
            solver,
            p,
            1,
            2,
            JOINTS,
            &reach,
            null(),
            null(),
            null_mut(),
        );
        assert_eq!(s, SinewStatus::OutOfRange, "{}", last_error_message());
        assert_eq!(local(p), before);

        sinew_pose_destroy(p);
        sinew_skeleton_destroy(skel);
        sinew_two_bone_ik_destroy(solver);
    }
}

#[test]
fn fabrik_and_ccd_round_trips_and_errors() {
    // SAFETY: as in two_bone_ik_round_trip_and_errors.
    unsafe {
        // Their own settings: FABRIK's, then CCD's with its per-joint tuning.
        let mut fabrik = null_mut();
        let fabrik_defaults = defaults(sinew_fabrik_settings_default);
        let s = sinew_fabrik_create(&fabrik_defaults, 0, &mut fabrik);
        assert_eq!(s, SinewStatus::OutOfRange, "{}", last_error_message());
        assert!(fabrik.is_null());
        let create = |s: &_, out: &mut _| sinew_fabrik_create(s, 4, out);
        let bad: [BadSettings<SinewFabrikSettings>; 1] = [(
            |s| s.stop_when_stalled = 3,
            SinewStatus::InvalidArgument,
            "stop_when_stalled",
        )];
        let (fabrik, _) = settings_round_trip(FABRIK, create, |s| s.max_iterations = 20, &bad);

        let create = |s: &_, out: &mut _| sinew_ccd_create(s, 4, out);
        let bad: [BadSettings<SinewCcdSettings>; 1] =
            [(|s| s.fix_root = 5, SinewStatus::InvalidArgument, "fix_root")];
        let (ccd, _) = settings_round_trip(CCD, create, |s| s.start_from_tail = 0, &bad);
        ok(sinew_ccd_set_joint(ccd, 1, 30.0, 0.8));
        let s = sinew_ccd_set_joint(ccd, 1, 270.0, 0.8);
        assert_eq!(s, SinewStatus::InvalidArgument, "{}", last_error_message());
        let s = sinew_ccd_set_joint(ccd, 9, 30.0, 0.8);
        assert_eq!(s, SinewStatus::OutOfRange, "{}", last_error_message());

        // The rest through the same calls for both.
        for solver in [ChainHandle::Fabrik(fabrik), ChainHandle::Ccd(ccd)] {
            let name = solver.name();
            let hinge = hinge();
            ok(solver.set_constraint(1, &hinge));
            let s = solver.set_constraint(4, &hinge);
            assert_eq!(
                s,
                SinewStatus::OutOfRange,
                "{name}: {}",
                last_error_message()
            );
            let mut broken = hinge;
            broken.r#type = 42;
            let s = solver.set_constraint(1, &broken);
            fails(s, SinewStatus::InvalidArgument, "constraint type");
            let mut nan = hinge;
            nan.max_angle = f32::NAN;
            assert_eq!(solver.set_constraint(1, &nan), SinewStatus::NonFinite);
            ok(solver.set_constraint(2, null()));

            let mut chain = straight_chain();
            let goal = v3(0.3, 0.4, 0.0);
            let parent = rot_z(0.1);
            let mut result = SinewIkResult::default();
            ok(solver.solve(chain.as_mut_ptr(), 4, &parent, &goal, null(), &mut result));
            assert!(result.iterations >= 1, "{name}");
            let error = dist(chain[3].translation, goal);
            assert!((error - result.error).abs() < 1e-5, "{name}");
            assert_eq!(chain[0].translation, v3(0.0, 0.0, 0.0), "the root stays");

            // Errors leave the chain untouched.
            let before = chain;
            let zero = SinewQuat::default();
            let s = solver.solve(chain.as_mut_ptr(), 4, &zero, &goal, null(), &mut result);
            fails(s, SinewStatus::InvalidArgument, "root_parent_rotation");
            let mut five = [tr(0.0, 0.0, 0.0, IDENTITY); 5];
            let s = solver.solve(five.as_mut_ptr(), 5, null(), &goal, null(), null_mut());
            fails(s, SinewStatus::OutOfRange, "max_joints");
            let s = solver.solve(null_mut(), 4, null(), &goal, null(), null_mut());
            fails(s, SinewStatus::NullPointer, "chain");
            let s = solver.solve(chain.as_mut_ptr(), 1, null(), &goal, null(), &mut result);
            assert_ne!(s, SinewStatus::Ok, "{name}: a chain needs two joints");
            assert_eq!(chain, before);

            // On a pose: root, upper, lower, hand; and upper, lower, hand.
            let skel = skeleton();
            let p = pose(skel);
            ok(solver.set_constraint(1, null()));
            for (joints, reach) in [
                ([0u32, 1, 2, 3].as_slice(), v3(0.4, 1.3, 0.2)),
                (&[1, 2, 3], v3(0.3, 1.3, 0.1)),
            ] {
                ok(solver.solve_pose(p, joints, &reach, &rot_z(0.2), &mut result));
                let mut hand = SinewTransform::default();
                ok(sinew_pose_get_model_transform(p, 3, &mut hand));
                assert!(
                    (dist(hand.translation, reach) - result.error).abs() < 1e-5,
                    "{name}"
                );
            }
            let before = local(p);
            let s = solver.solve_pose(p, &[0, 2, 1, 3], &v3(0.4, 1.3, 0.2), null(), null_mut());
            assert_ne!(s, SinewStatus::Ok, "{name}: not a chain");
            let s = match solver {
                ChainHandle::Fabrik(h) => {
                    sinew_fabrik_solve_pose(h, p, null(), 3, &goal, null(), null_mut())
                }
                ChainHandle::Ccd(h) => {
                    sinew_ccd_solve_pose(h, p, null(), 3, &goal, null(), null_mut())
                }
            };
            fails(s, SinewStatus::NullPointer, "joints");
            assert_eq!(local(p), before);

            sinew_pose_destroy(p);
            sinew_skeleton_destroy(skel);
            solver.destroy();
        }
    }
}

#[test]
fn hand_ik_retargeting_round_trip_and_errors() {
    // SAFETY: as in two_bone_ik_round_trip_and_errors.
    unsafe {
        let create = |s: &_, out: &mut _| sinew_hand_ik_retargeting_create(s, out);
        let alpha: [BadSettings<SinewHandIkRetargetingSettings>; 1] = [(
            |s| s.per_axis_alpha.y = 1.5,
            SinewStatus::InvalidArgument,
            "per_axis_alpha",
        )];
        let (node, defaults) =
            settings_round_trip(HAND, create, |s| s.hand_fk_weight = 1.0, &alpha);
        let mut bad = defaults;
        bad.per_axis_alpha.y = 1.5;
        let mut other = null_mut();
        let s = sinew_hand_ik_retargeting_create(&bad, &mut other);
        assert_eq!(s, SinewStatus::InvalidArgument);
        assert!(other.is_null());

        // Right hand (FK 3, IK 2) drives the offset; bone 4 moves by FK - IK.
        let skel = skeleton();
        let p = posed(skel);
        let mut m = model(p);
        let hands = SinewHandJoints {
            right_fk: 3,
            left_fk: 1,
            right_ik: 2,
            left_ik: 0,
        };
        let bones = [4u32, 4];
        let expected = v3(
            m[3].translation.x - m[2].translation.x,
            m[3].translation.y - m[2].translation.y,
            m[3].translation.z - m[2].translation.z,
        );
        let head = m[4].translation;
        let mut offset = SinewVec3::default();
        ok(sinew_hand_ik_retargeting_apply_model(
            node,
            m.as_mut_ptr(),
            JOINTS,
            &hands,
            bones.as_ptr(),
            2,
            &mut offset,
        ));
        assert!(dist(offset, expected) < 1e-6);
        let moved = v3(head.x + offset.x, head.y + offset.y, head.z + offset.z);
        assert!(dist(m[4].translation, moved) < 1e-6, "duplicates move once");
        let before = m;
        let far = [JOINTS];
        let s = sinew_hand_ik_retargeting_apply_model(
            node,
            m.as_mut_ptr(),
            JOINTS,
            &hands,
            far.as_ptr(),
            1,
            null_mut(),
        );
        assert_eq!(s, SinewStatus::OutOfRange, "{}", last_error_message());
        assert_eq!(m, before);

        ok(sinew_hand_ik_retargeting_apply_pose(
            node,
            p,
            &hands,
            bones.as_ptr(),
            1,
            null_mut(),
        ));
        let mut head_now = SinewTransform::default();
        ok(sinew_pose_get_model_transform(p, 4, &mut head_now));
        assert!(dist(head_now.translation, moved) < 1e-5);
        let s =
            sinew_hand_ik_retargeting_apply_pose(node, p, null(), bones.as_ptr(), 1, null_mut());
        fails(s, SinewStatus::NullPointer, "hands");

        sinew_pose_destroy(p);
        sinew_skeleton_destroy(skel);
        sinew_hand_ik_retargeting_destroy(node);
    }
}

#[test]
fn constraints_apply_to_a_pose_all_or_nothing() {
    let skel = skeleton();
    let p = posed(skel);
    let hinge = hinge();
    let mut twist = hinge;
    twist.r#type = SinewConstraintType::Twist as i32;
    twist.axis = v3(1.0, 0.0, 0.0);
    // SAFETY: live pose; arrays of the stated sizes.
    unsafe {
        ok(sinew_pose_apply_constraints(
            p,
            [2u32, 3].as_ptr(),
            [hinge, twist].as_ptr(),
            2,
        ));
        // Joint 2 was bent 0.9 rad about Z, inside the hinge's ±1 rad: kept.
        let l = local(p);
        assert!(close(&l[2], &tr(0.3, 0.0, 0.0, rot_z(0.9)), 1e-5));
        let before = l;
        let s =
            sinew_pose_apply_constraints(p, [2u32, JOINTS].as_ptr(), [hinge, hinge].as_ptr(), 2);
        assert_eq!(s, SinewStatus::OutOfRange, "{}", last_error_message());
        let mut nan = hinge;
        nan.swing_half_angle_1 = f32::INFINITY;
        let s = sinew_pose_apply_constraints(p, [1u32, 2].as_ptr(), [hinge, nan].as_ptr(), 2);
        assert_eq!(s, SinewStatus::NonFinite);
        let s = sinew_pose_apply_constraints(p, [1u32].as_ptr(), null(), 1);
        fails(s, SinewStatus::NullPointer, "constraints");
        assert_eq!(local(p), before, "nothing applied when one entry is bad");
        ok(sinew_pose_apply_constraints(p, null(), null(), 0));
        sinew_pose_destroy(p);
        sinew_skeleton_destroy(skel);
    }
}

#[test]
fn aim_round_trip_batch_pose_and_errors() {
    // SAFETY: as in two_bone_ik_round_trip_and_errors.
    unsafe {
        let create = |s: &_, out: &mut _| sinew_aim_ik_create(s, 4, out);
        let bad: [BadSettings<SinewAimIkSettings>; 2] = [
            (
                |s| s.aim_axis = v3(0.0, 0.0, 0.0),
                SinewStatus::InvalidArgument,
                "aim_axis",
            ),
            (
                |s| s.up_is_position = 2,
                SinewStatus::InvalidArgument,
                "up_is_position",
            ),
        ];
        let change = |s: &mut SinewAimIkSettings| s.aim_offset = v3(0.05, 0.1, 0.0);
        let (aim, defaults) = settings_round_trip(AIM, create, change, &bad);
        assert_eq!(defaults.aim_axis, v3(1.0, 0.0, 0.0));
        ok(sinew_aim_ik_set_joint(aim, 1, 2.0, 30.0));
        let s = sinew_aim_ik_set_joint(aim, 1, -1.0, 30.0);
        fails(s, SinewStatus::InvalidArgument, "weight");
        let s = sinew_aim_ik_set_joint(aim, 4, 1.0, 30.0);
        fails(s, SinewStatus::OutOfRange, "4");

        // The C solve equals the Rust core's, bit for bit.
        let mut core = sinew::AimIk::new(
            sinew::AimIkSettings {
                aim_offset: sinew::Vec3::new(0.05, 0.1, 0.0),
                ..Default::default()
            },
            4,
        )
        .unwrap();
        let tuning = sinew::AimJoint {
            weight: 2.0,
            max_angle_degrees: 30.0,
        };
        core.set_joint(1, tuning).unwrap();
        let goal = v3(0.3, 1.5, 0.8);
        let up = v3(0.0, 1.0, 0.0);
        let mut chain = straight_chain();
        let mut result = SinewIkResult::default();
        ok(sinew_aim_ik_solve(
            aim,
            chain.as_mut_ptr(),
            4,
            &goal,
            &up,
            &mut result,
        ));
        let mut rust: Vec<sinew::Transform> = straight_chain().iter().map(|&t| t.into()).collect();
        let target = sinew::AimTarget::at(goal.into()).with_up(up.into());
        let expected = core.solve(&mut rust, &target).unwrap();
        let rust: Vec<SinewTransform> = rust.iter().map(|&t| t.into()).collect();
        assert_eq!(chain.as_slice(), rust.as_slice());
        assert_eq!(result, expected.into());
        assert!(result.error.is_finite());

        // A batch of two chains is two single solves.
        let mut chains = [straight_chain(), straight_chain()].concat();
        let goals = [goal, v3(-1.0, 0.2, 0.5)];
        let ups = [up, up];
        let mut results = [SinewIkResult::default(); 2];
        let (c, r) = (chains.as_mut_ptr(), results.as_mut_ptr());
        ok(sinew_aim_ik_solve_batch(
            aim,
            c,
            4,
            2,
            goals.as_ptr(),
            ups.as_ptr(),
            r,
        ));
        assert_eq!(&chains[..4], chain.as_slice());
        assert_eq!(results[0], result);
        let mut second = straight_chain();
        ok(sinew_aim_ik_solve(
            aim,
            second.as_mut_ptr(),
            4,
            &goals[1],
            &up,
            &mut result,
        ));
        assert_eq!(&chains[4..], second.as_slice());
        assert_eq!(results[1], result);

        // Errors leave the chain untouched.
        let before = chain;
        let nan = v3(f32::NAN, 0.0, 0.0);
        let s = sinew_aim_ik_solve(aim, chain.as_mut_ptr(), 4, &nan, null(), &mut result);
        fails(s, SinewStatus::NonFinite, "target");
        let s = sinew_aim_ik_solve(aim, chain.as_mut_ptr(), 0, &goal, null(), null_mut());
        fails(s, SinewStatus::InvalidArgument, "1 joints");
        let s = sinew_aim_ik_solve(aim, chain.as_mut_ptr(), 4, null(), null(), null_mut());
        fails(s, SinewStatus::NullPointer, "target_position");
        assert_eq!(chain, before);

        // On a pose: the head of upper, lower, hand looks at a point.
        let skel = skeleton();
        let p = pose(skel);
        let look = v3(0.5, 2.0, 1.0);
        ok(sinew_aim_ik_solve_pose(
            aim,
            p,
            [1u32, 2, 3].as_ptr(),
            3,
            &look,
            null(),
            &mut result,
        ));
        assert_eq!(result.reached, 1, "{result:?}");
        let before = local(p);
        let s = sinew_aim_ik_solve_pose(aim, p, [2u32, 1].as_ptr(), 2, &look, null(), null_mut());
        assert_ne!(s, SinewStatus::Ok, "not a chain");
        assert_eq!(local(p), before);
        sinew_pose_destroy(p);
        sinew_skeleton_destroy(skel);
        sinew_aim_ik_destroy(aim);
    }
}

/// The multi-effector targets of [`multi_effector_fabrik_round_trip_and_errors`]: the hand
/// (with a rotation) and the head (half the weight).
fn multi_targets() -> [SinewEffectorTarget; 2] {
    [
        SinewEffectorTarget {
            position: v3(0.35, 1.3, 0.15),
            rotation: rot_z(0.3),
            weight: 1.0,
            use_rotation: 1,
        },
        SinewEffectorTarget {
            position: v3(0.1, 1.45, 0.05),
            rotation: IDENTITY,
            weight: 0.5,
            use_rotation: 0,
        },
    ]
}

#[test]
fn multi_effector_fabrik_round_trip_and_errors() {
    // SAFETY: as in two_bone_ik_round_trip_and_errors.
    unsafe {
        let mut solver = null_mut();
        let defaults = defaults(sinew_multi_fabrik_settings_default);
        let s = sinew_multi_fabrik_create(&defaults, 5, 6, &mut solver);
        fails(s, SinewStatus::OutOfRange, "max_effectors");
        assert!(solver.is_null());
        let create = |s: &_, out: &mut _| sinew_multi_fabrik_create(s, 5, 2, out);
        let bad: [BadSettings<SinewMultiFabrikSettings>; 2] = [
            (
                |s| s.end_rotation = 7,
                SinewStatus::InvalidArgument,
                "end_rotation",
            ),
            (
                |s| s.precision = -1.0,
                SinewStatus::InvalidArgument,
                "precision",
            ),
        ];
        let (solver, _) = settings_round_trip(MULTI, create, |s| s.max_iterations = 12, &bad);
        let hinge = hinge();
        ok(sinew_multi_fabrik_set_constraint(solver, 2, &hinge));
        let mut nan = hinge;
        nan.min_angle = f32::NAN;
        let s = sinew_multi_fabrik_set_constraint(solver, 2, &nan);
        assert_eq!(s, SinewStatus::NonFinite);
        ok(sinew_multi_fabrik_set_constraint(solver, 2, null()));

        // The tree of the root, the hand and the head, on a pose and on its model space; the
        // same solve through the Rust core gives the same transforms.
        let skel = skeleton();
        let p = pose(skel);
        let effectors = [3u32, 4];
        let targets = multi_targets();
        let mut results = [SinewIkResult::default(); 2];
        let mut model_space = model(p);
        ok(sinew_multi_fabrik_solve(
            solver,
            skel,
            model_space.as_mut_ptr(),
            JOINTS,
            0,
            effectors.as_ptr(),
            2,
            targets.as_ptr(),
            results.as_mut_ptr(),
        ));
        for (k, (r, t)) in results.iter().zip(&targets).enumerate() {
            let error = dist(model_space[effectors[k] as usize].translation, t.position);
            assert!((error - r.error).abs() < 1e-5, "effector {k}");
            assert!(r.iterations >= 1);
        }
        ok(sinew_multi_fabrik_solve_pose(
            solver,
            p,
            0,
            effectors.as_ptr(),
            2,
            targets.as_ptr(),
            null_mut(),
        ));
        let solved = model(p);
        for (a, b) in solved.iter().zip(&model_space) {
            assert!(close(a, b, 1e-4), "pose and model-space solves agree");
        }
        let rest: Vec<sinew::Transform> = rest().iter().map(|&t| t.into()).collect();
        let core = std::sync::Arc::new(sinew::Skeleton::new(&PARENTS, &rest, None).unwrap());
        let mut core_pose = sinew::Pose::new(core);
        let mut ik = sinew::MultiFabrik::new(
            sinew::MultiFabrikSettings {
                max_iterations: 12,
                ..Default::default()
            },
            5,
            2,
        )
        .unwrap();
        let core_targets = [
            sinew::EffectorTarget::at(targets[0].position.into())
                .with_rotation(targets[0].rotation.into()),
            sinew::EffectorTarget::at(targets[1].position.into()).with_weight(0.5),
        ];
        let mut core_results = [sinew::IkResult::default(); 2];
        ik.solve_pose(
            &mut core_pose,
            0,
            &effectors,
            &core_targets,
            &mut core_results,
        )
        .unwrap();
        let core_local: Vec<SinewTransform> = core_pose.local().iter().map(Into::into).collect();
        same(&local(p), &core_local);

        // Errors leave the pose, the model and the results untouched.
        let (before, before_model, before_results) = (local(p), model_space, results);
        let mut bad = targets;
        bad[1].weight = -1.0;
        let s = sinew_multi_fabrik_solve_pose(
            solver,
            p,
            0,
            effectors.as_ptr(),
            2,
            bad.as_ptr(),
            results.as_mut_ptr(),
        );
        fails(s, SinewStatus::InvalidArgument, "weight");
        bad = targets;
        bad[0].position.y = f32::INFINITY;
        let s = sinew_multi_fabrik_solve(
            solver,
            skel,
            model_space.as_mut_ptr(),
            JOINTS,
            0,
            effectors.as_ptr(),
            2,
            bad.as_ptr(),
            results.as_mut_ptr(),
        );
        assert_eq!(s, SinewStatus::NonFinite);
        let s = sinew_multi_fabrik_solve(
            solver,
            skel,
            model_space.as_mut_ptr(),
            JOINTS - 1,
            0,
            effectors.as_ptr(),
            2,
            targets.as_ptr(),
            results.as_mut_ptr(),
        );
        assert_eq!(s, SinewStatus::SizeMismatch);
        let s = sinew_multi_fabrik_solve_pose(
            solver,
            p,
            0,
            [3u32, 2].as_ptr(),
            2,
            targets.as_ptr(),
            results.as_mut_ptr(),
        );
        fails(s, SinewStatus::InvalidArgument, "ancestor");
        let s = sinew_multi_fabrik_solve_pose(
            solver,
            p,
            0,
            null(),
            2,
            targets.as_ptr(),
            results.as_mut_ptr(),
        );
        fails(s, SinewStatus::NullPointer, "effectors");
        assert_eq!(local(p), before);
        assert_eq!(model_space, before_model);
        assert_eq!(results, before_results);

        sinew_pose_destroy(p);
        sinew_skeleton_destroy(skel);
        sinew_multi_fabrik_destroy(solver);
    }
}
