//! The solvers: two-bone IK, FABRIK and CCD (settings, constraints, per-joint tuning, single and
//! pose solves), hand IK retargeting, and constraints applied to a pose.

use std::mem::MaybeUninit;
use std::ptr::{null, null_mut};

use sinew::ffi::error::last_error_message;
use sinew::ffi::*;

use super::*;

#[test]
fn two_bone_ik_round_trip_and_errors() {
    // SAFETY: settings are written before read; handles are live until destroyed; pointers are
    // to locals or arrays of the stated sizes.
    unsafe {
        let defaults = defaults(sinew_two_bone_ik_settings_default);
        let mut solver = null_mut();
        ok(sinew_two_bone_ik_create(&defaults, &mut solver));
        assert_eq!(
            settings_of(sinew_two_bone_ik_get_settings, solver),
            defaults
        );

        let mut stretchy = defaults;
        stretchy.allow_stretching = 1;
        ok(sinew_two_bone_ik_set_settings(solver, &stretchy));
        let mut bad = defaults;
        bad.allow_stretching = 2;
        let s = sinew_two_bone_ik_set_settings(solver, &bad);
        fails(s, SinewStatus::InvalidArgument, "allow_stretching");
        bad = defaults;
        bad.end_rotation = 9;
        let s = sinew_two_bone_ik_set_settings(solver, &bad);
        fails(s, SinewStatus::InvalidArgument, "end_rotation");
        bad = defaults;
        bad.weight = f32::NAN;
        assert_eq!(
            sinew_two_bone_ik_set_settings(solver, &bad),
            SinewStatus::NonFinite
        );
        let mut other = null_mut();
        assert_ne!(sinew_two_bone_ik_create(&bad, &mut other), SinewStatus::Ok);
        assert!(other.is_null());
        let read = settings_of(sinew_two_bone_ik_get_settings, solver);
        assert_eq!(read, stretchy, "unchanged by failed sets");
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
fn fabrik_round_trip_and_errors() {
    // SAFETY: as in two_bone_ik_round_trip_and_errors.
    unsafe {
        let defaults = defaults(sinew_fabrik_settings_default);
        let mut solver = null_mut();
        let s = sinew_fabrik_create(&defaults, 0, &mut solver);
        assert_eq!(s, SinewStatus::OutOfRange, "{}", last_error_message());
        assert!(solver.is_null());
        ok(sinew_fabrik_create(&defaults, 4, &mut solver));
        assert_eq!(settings_of(sinew_fabrik_get_settings, solver), defaults);
        let mut changed = defaults;
        changed.max_iterations = 20;
        ok(sinew_fabrik_set_settings(solver, &changed));
        let mut bad = changed;
        bad.stop_when_stalled = 3;
        let s = sinew_fabrik_set_settings(solver, &bad);
        fails(s, SinewStatus::InvalidArgument, "stop_when_stalled");
        assert_eq!(settings_of(sinew_fabrik_get_settings, solver), changed);

        let hinge = hinge();
        ok(sinew_fabrik_set_constraint(solver, 1, &hinge));
        let s = sinew_fabrik_set_constraint(solver, 4, &hinge);
        assert_eq!(s, SinewStatus::OutOfRange, "{}", last_error_message());
        let mut broken = hinge;
        broken.r#type = 42;
        let s = sinew_fabrik_set_constraint(solver, 1, &broken);
        fails(s, SinewStatus::InvalidArgument, "constraint type");
        ok(sinew_fabrik_set_constraint(solver, 2, null()));

        let mut chain = straight_chain();
        let goal = v3(0.3, 0.4, 0.0);
        let parent = rot_z(0.1);
        let mut result = SinewIkResult::default();
        ok(sinew_fabrik_solve(
            solver,
            chain.as_mut_ptr(),
            4,
            &parent,
            &goal,
            null(),
            &mut result,
        ));
        assert!(result.iterations >= 1);
        assert!((dist(chain[3].translation, goal) - result.error).abs() < 1e-5);
        assert_eq!(chain[0].translation, v3(0.0, 0.0, 0.0), "the root stays");

        let before = chain;
        let zero = SinewQuat::default();
        let s = sinew_fabrik_solve(
            solver,
            chain.as_mut_ptr(),
            4,
            &zero,
            &goal,
            null(),
            &mut result,
        );
        fails(s, SinewStatus::InvalidArgument, "root_parent_rotation");
        let mut five = [tr(0.0, 0.0, 0.0, IDENTITY); 5];
        let s = sinew_fabrik_solve(
            solver,
            five.as_mut_ptr(),
            5,
            null(),
            &goal,
            null(),
            null_mut(),
        );
        fails(s, SinewStatus::OutOfRange, "max_joints");
        let s = sinew_fabrik_solve(solver, null_mut(), 4, null(), &goal, null(), null_mut());
        fails(s, SinewStatus::NullPointer, "chain");
        assert_eq!(chain, before);

        // On a pose: root, upper, lower, hand.
        let skel = skeleton();
        let p = pose(skel);
        ok(sinew_fabrik_set_constraint(solver, 1, null()));
        let joints = [0u32, 1, 2, 3];
        let reach = v3(0.4, 1.3, 0.2);
        ok(sinew_fabrik_solve_pose(
            solver,
            p,
            joints.as_ptr(),
            4,
            &reach,
            &rot_z(0.2),
            &mut result,
        ));
        let mut hand = SinewTransform::default();
        ok(sinew_pose_get_model_transform(p, 3, &mut hand));
        assert!((dist(hand.translation, reach) - result.error).abs() < 1e-5);
        let not_a_chain = [0u32, 2, 1, 3];
        let before = local(p);
        let s = sinew_fabrik_solve_pose(
            solver,
            p,
            not_a_chain.as_ptr(),
            4,
            &reach,
            null(),
            null_mut(),
        );
        assert_ne!(s, SinewStatus::Ok);
        assert_eq!(local(p), before);

        sinew_pose_destroy(p);
        sinew_skeleton_destroy(skel);
        sinew_fabrik_destroy(solver);
    }
}

#[test]
fn ccd_round_trip_and_errors() {
    // SAFETY: as in two_bone_ik_round_trip_and_errors.
    unsafe {
        let defaults = defaults(sinew_ccd_settings_default);
        let mut solver = null_mut();
        ok(sinew_ccd_create(&defaults, 4, &mut solver));
        assert_eq!(settings_of(sinew_ccd_get_settings, solver), defaults);
        let mut changed = defaults;
        changed.start_from_tail = 0;
        ok(sinew_ccd_set_settings(solver, &changed));
        let mut bad = changed;
        bad.fix_root = 5;
        let s = sinew_ccd_set_settings(solver, &bad);
        fails(s, SinewStatus::InvalidArgument, "fix_root");
        assert_eq!(settings_of(sinew_ccd_get_settings, solver), changed);

        ok(sinew_ccd_set_joint(solver, 1, 30.0, 0.8));
        let s = sinew_ccd_set_joint(solver, 1, 270.0, 0.8);
        assert_eq!(s, SinewStatus::InvalidArgument, "{}", last_error_message());
        let s = sinew_ccd_set_joint(solver, 9, 30.0, 0.8);
        assert_eq!(s, SinewStatus::OutOfRange, "{}", last_error_message());
        let hinge = hinge();
        ok(sinew_ccd_set_constraint(solver, 2, &hinge));
        let mut nan = hinge;
        nan.max_angle = f32::NAN;
        let s = sinew_ccd_set_constraint(solver, 2, &nan);
        assert_eq!(s, SinewStatus::NonFinite);

        let mut chain = straight_chain();
        let goal = v3(0.2, 0.5, 0.1);
        let mut result = SinewIkResult::default();
        ok(sinew_ccd_solve(
            solver,
            chain.as_mut_ptr(),
            4,
            null(),
            &goal,
            null(),
            &mut result,
        ));
        assert!((dist(chain[3].translation, goal) - result.error).abs() < 1e-5);
        let before = chain;
        let s = sinew_ccd_solve(
            solver,
            chain.as_mut_ptr(),
            1,
            null(),
            &goal,
            null(),
            &mut result,
        );
        assert_ne!(s, SinewStatus::Ok, "a chain needs two joints");
        assert_eq!(chain, before);

        let skel = skeleton();
        let p = pose(skel);
        let joints = [1u32, 2, 3];
        let reach = v3(0.3, 1.3, 0.1);
        ok(sinew_ccd_solve_pose(
            solver,
            p,
            joints.as_ptr(),
            3,
            &reach,
            null(),
            &mut result,
        ));
        let mut hand = SinewTransform::default();
        ok(sinew_pose_get_model_transform(p, 3, &mut hand));
        assert!((dist(hand.translation, reach) - result.error).abs() < 1e-5);
        let s = sinew_ccd_solve_pose(solver, p, null(), 3, &reach, null(), null_mut());
        fails(s, SinewStatus::NullPointer, "joints");

        sinew_pose_destroy(p);
        sinew_skeleton_destroy(skel);
        sinew_ccd_destroy(solver);
    }
}

#[test]
fn hand_ik_retargeting_round_trip_and_errors() {
    // SAFETY: as in two_bone_ik_round_trip_and_errors.
    unsafe {
        let defaults = defaults(sinew_hand_ik_retargeting_settings_default);
        let mut node = null_mut();
        ok(sinew_hand_ik_retargeting_create(&defaults, &mut node));
        let mut read = MaybeUninit::uninit();
        ok(sinew_hand_ik_retargeting_get_settings(
            node,
            read.as_mut_ptr(),
        ));
        assert_eq!(read.assume_init(), defaults);
        let mut right = defaults;
        right.hand_fk_weight = 1.0;
        ok(sinew_hand_ik_retargeting_set_settings(node, &right));
        let mut bad = right;
        bad.per_axis_alpha.y = 1.5;
        let s = sinew_hand_ik_retargeting_set_settings(node, &bad);
        fails(s, SinewStatus::InvalidArgument, "per_axis_alpha");
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
