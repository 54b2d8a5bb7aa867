//! Skeletons and poses: created, read, written and destroyed, on their success and error paths.

use std::ptr::{null, null_mut};

use sinew::ffi::error::last_error_message;
use sinew::ffi::*;

use super::*;

// ------------------------------------------------------------------------------ skeleton, pose

#[test]
fn skeleton_round_trip_and_errors() {
    let skel = skeleton();
    let mut count = 0;
    // SAFETY: live handle, out-pointers to locals, arrays of the stated sizes throughout.
    unsafe {
        ok(sinew_skeleton_joint_count(skel, &mut count));
        assert_eq!(count, JOINTS);
        let mut index = 99;
        let name = CString::new("hand").unwrap();
        ok(sinew_skeleton_find_joint(skel, name.as_ptr(), &mut index));
        assert_eq!(index, 3);
        let missing = CString::new("tail").unwrap();
        let s = sinew_skeleton_find_joint(skel, missing.as_ptr(), &mut index);
        fails(s, SinewStatus::NotFound, "tail");
        assert_eq!(index, 3, "untouched on error");
        let s = sinew_skeleton_find_joint(skel, null(), &mut index);
        fails(s, SinewStatus::NullPointer, "name");

        let mut parents = [7i32; 5];
        ok(sinew_skeleton_get_parents(
            skel,
            parents.as_mut_ptr(),
            JOINTS,
        ));
        assert_eq!(parents, PARENTS);
        let mut rest_out = [SinewTransform::default(); 5];
        ok(sinew_skeleton_get_rest_pose(
            skel,
            rest_out.as_mut_ptr(),
            JOINTS,
        ));
        for (a, b) in rest_out.iter().zip(rest().iter()) {
            assert!(close(a, b, 1e-6), "{a:?} != {b:?}");
        }
        let mut short = [7i32; 4];
        let s = sinew_skeleton_get_parents(skel, short.as_mut_ptr(), 4);
        fails(s, SinewStatus::SizeMismatch, "out_parents");
        assert_eq!(short, [7; 4]);
        let mut bytes = Bytes::new();
        let s = sinew_skeleton_get_rest_pose(skel, bytes.ptr(2), JOINTS);
        fails(s, SinewStatus::InvalidArgument, "aligned");
        assert!(bytes.untouched());
        sinew_skeleton_destroy(skel);

        // Creation errors leave the out-pointer untouched.
        let rest = rest();
        let sentinel = std::ptr::NonNull::<SinewSkeleton>::dangling().as_ptr();
        let mut out = sentinel;
        let s = sinew_skeleton_create(PARENTS.as_ptr(), rest.as_ptr(), null(), 0, &mut out);
        fails(s, SinewStatus::OutOfRange, "joint_count");
        let bad_parents = [-1, 2, 0, 1, 0];
        let s = sinew_skeleton_create(bad_parents.as_ptr(), rest.as_ptr(), null(), 5, &mut out);
        assert_eq!(s, SinewStatus::InvalidSkeleton, "{}", last_error_message());
        let (_owned, mut names) = c_names(&NAMES);
        names[2] = null();
        let s = sinew_skeleton_create(PARENTS.as_ptr(), rest.as_ptr(), names.as_ptr(), 5, &mut out);
        fails(s, SinewStatus::NullPointer, "names[2]");
        let not_utf8 = [b'a' as c_char, 0xff_u8 as c_char, 0];
        names[2] = not_utf8.as_ptr();
        let s = sinew_skeleton_create(PARENTS.as_ptr(), rest.as_ptr(), names.as_ptr(), 5, &mut out);
        fails(s, SinewStatus::InvalidArgument, "UTF-8");
        let (_dup, dup_names) = c_names(&["a", "b", "c", "b", "e"]);
        let s = sinew_skeleton_create(
            PARENTS.as_ptr(),
            rest.as_ptr(),
            dup_names.as_ptr(),
            5,
            &mut out,
        );
        assert_eq!(s, SinewStatus::InvalidSkeleton, "{}", last_error_message());
        let s = sinew_skeleton_create(null(), rest.as_ptr(), null(), 5, &mut out);
        fails(s, SinewStatus::NullPointer, "parents");
        let s = sinew_skeleton_create(PARENTS.as_ptr(), rest.as_ptr(), null(), 5, null_mut());
        fails(s, SinewStatus::NullPointer, "out_skeleton");
        assert_eq!(out, sentinel);
    }
}

#[test]
fn pose_round_trip_and_errors() {
    let skel = skeleton();
    let p = pose(skel);
    // The pose keeps the skeleton alive after its handle is gone.
    // SAFETY: the handle is not used again.
    unsafe { sinew_skeleton_destroy(skel) };
    let mut count = 0;
    // SAFETY: live pose, out-pointers to locals, arrays of the stated sizes throughout.
    unsafe {
        ok(sinew_pose_joint_count(p, &mut count));
        assert_eq!(count, JOINTS);
        assert_eq!(local(p), rest());

        let mut l = rest();
        l[2].rotation = rot_z(1.1);
        l[3].translation = v3(0.25, 0.1, 0.0);
        set_local(p, &l);
        same(&local(p), &l); // renormalized: exact unless Miri's `sin_cos` is a bit off unit
        let m = model(p);
        let mut hand = SinewTransform::default();
        ok(sinew_pose_get_model_transform(p, 3, &mut hand));
        assert!(close(&hand, &m[3], 1e-6));
        // The const read gives what the mutable one does.
        let mut computed = [SinewTransform::default(); 5];
        ok(sinew_pose_compute_model(p, computed.as_mut_ptr(), JOINTS));
        same(&computed, &m);

        // Model space round trip.
        ok(sinew_pose_reset(p));
        assert_eq!(local(p), rest());
        ok(sinew_pose_set_model(p, m.as_ptr(), JOINTS));
        for (a, b) in local(p).iter().zip(l.iter()) {
            assert!(close(a, b, 1e-5), "{a:?} != {b:?}");
        }
        // Moving one joint in model space; its child follows.
        let target = tr(0.5, 1.5, 0.2, rot_z(-0.3));
        ok(sinew_pose_set_model_transform(p, 2, &target));
        ok(sinew_pose_get_model_transform(p, 2, &mut hand));
        assert!(close(&hand, &target, 1e-5));

        // Errors change nothing.
        let before = local(p);
        let mut nan = before;
        nan[1].translation.y = f32::NAN;
        let s = sinew_pose_set_local(p, nan.as_ptr(), JOINTS);
        assert_eq!(s, SinewStatus::NonFinite);
        let s = sinew_pose_set_model(p, nan.as_ptr(), JOINTS);
        assert_eq!(s, SinewStatus::NonFinite);
        let s = sinew_pose_set_local(p, before.as_ptr(), 4);
        fails(s, SinewStatus::SizeMismatch, "local");
        let mut out4 = [SinewTransform::default(); 4];
        let s = sinew_pose_get_local(p, out4.as_mut_ptr(), 4);
        fails(s, SinewStatus::SizeMismatch, "out_local");
        let s = sinew_pose_get_model(p, out4.as_mut_ptr(), 4);
        fails(s, SinewStatus::SizeMismatch, "out_model");
        let s = sinew_pose_compute_model(p, out4.as_mut_ptr(), 4);
        fails(s, SinewStatus::SizeMismatch, "out_model");
        let s = sinew_pose_compute_model(null(), computed.as_mut_ptr(), JOINTS);
        fails(s, SinewStatus::NullPointer, "pose");
        let s = sinew_pose_get_model_transform(p, JOINTS, &mut hand);
        assert_eq!(s, SinewStatus::OutOfRange);
        let s = sinew_pose_set_model_transform(p, JOINTS, &target);
        assert_eq!(s, SinewStatus::OutOfRange);
        let s = sinew_pose_set_model_transform(p, 1, null());
        fails(s, SinewStatus::NullPointer, "transform");
        let s = sinew_pose_create(null(), &mut null_mut());
        fails(s, SinewStatus::NullPointer, "skeleton");
        let mut bytes = Bytes::new();
        let s = sinew_pose_get_local(p, bytes.ptr(1), JOINTS);
        fails(s, SinewStatus::InvalidArgument, "aligned");
        assert!(bytes.untouched());
        let s = sinew_pose_compute_model(p, bytes.ptr(1), JOINTS);
        fails(s, SinewStatus::InvalidArgument, "aligned");
        assert!(bytes.untouched());
        assert_eq!(local(p), before);
        sinew_pose_destroy(p);
    }
}

// ------------------------------------------------------------------------------ matrices, skins

/// A matrix filled with `x`.
fn filled(x: f32) -> SinewMat4 {
    let m = sinew::Mat4::from_cols_array(&[x; 16]);
    m.into()
}

#[test]
fn model_matrices_skin_and_palette_round_trip_and_errors() {
    let skel = skeleton();
    let mut pose = null_mut();
    // SAFETY: live handles, out-pointers to locals, arrays of the stated sizes throughout.
    unsafe {
        ok(sinew_pose_create(skel, &mut pose));
        let mut model = [SinewTransform::default(); 5];
        ok(sinew_pose_compute_model(pose, model.as_mut_ptr(), JOINTS));
        let mut matrices = [filled(7.0); 5];
        ok(sinew_pose_compute_model_matrices(
            pose,
            matrices.as_mut_ptr(),
            JOINTS,
        ));
        // Each matrix holds its model translation (to rounding: matrices compose as matrices).
        for (m, t) in matrices.iter().zip(&model) {
            let (t, m) = (sinew::Transform::from(*t), sinew::Mat4::from(*m));
            // No square roots: Miri cannot run libm's inline assembly for them.
            let size = 1.0 + t.translation.abs().max_element();
            let off = (m.w_axis.truncate() - t.translation).abs().max_element();
            assert!(off <= 1e-5 * size);
        }
        let mut short = [filled(7.0); 4];
        let s = sinew_pose_compute_model_matrices(pose, short.as_mut_ptr(), 4);
        fails(s, SinewStatus::SizeMismatch, "out_matrices");
        assert_eq!(short, [filled(7.0); 4]);
        let mut bytes = Bytes::new();
        let s = sinew_pose_compute_model_matrices(pose, bytes.ptr(2), JOINTS);
        fails(s, SinewStatus::InvalidArgument, "aligned");
        assert!(bytes.untouched());

        // A skin of the hand and the head, bound at the rest pose: the identity there.
        let joints = [3u32, 4];
        let binds = joints.map(|j| sinew::Mat4::from(matrices[j as usize]).inverse().into());
        let mut skin = null_mut();
        ok(sinew_skin_create(
            skel,
            joints.as_ptr(),
            binds.as_ptr(),
            2,
            &mut skin,
        ));
        let mut count = 0;
        ok(sinew_skin_joint_count(skin, &mut count));
        assert_eq!(count, 2);
        let mut palette = [filled(7.0); 2];
        ok(sinew_pose_compute_skinning_palette(
            pose,
            skin,
            palette.as_mut_ptr(),
            2,
        ));
        for p in palette {
            let p = sinew::Mat4::from(p);
            assert!(p.abs_diff_eq(sinew::Mat4::IDENTITY, 1e-5), "{p:?}");
        }
        let s = sinew_pose_compute_skinning_palette(pose, null(), palette.as_mut_ptr(), 2);
        fails(s, SinewStatus::NullPointer, "skin");
        let s = sinew_pose_compute_skinning_palette(pose, skin, palette.as_mut_ptr(), 3);
        fails(s, SinewStatus::SizeMismatch, "out_palette");

        // Creation errors leave the out-pointer untouched.
        let sentinel = std::ptr::NonNull::<SinewSkin>::dangling().as_ptr();
        let mut out = sentinel;
        let twice = [4u32, 4];
        let s = sinew_skin_create(skel, twice.as_ptr(), binds.as_ptr(), 2, &mut out);
        fails(s, SinewStatus::InvalidArgument, "twice");
        let s = sinew_skin_create(skel, null(), binds.as_ptr(), 2, &mut out);
        fails(s, SinewStatus::SizeMismatch, "inverse bind");
        let mut nan = binds;
        nan[1].m13 = f32::NAN;
        let s = sinew_skin_create(skel, joints.as_ptr(), nan.as_ptr(), 2, &mut out);
        fails(s, SinewStatus::NonFinite, "inverse bind matrix 1");
        assert_eq!(out, sentinel);

        sinew_skin_destroy(skin);
        sinew_skin_destroy(null_mut());
        sinew_pose_destroy(pose);
        sinew_skeleton_destroy(skel);
    }
}
