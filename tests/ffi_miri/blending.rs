//! Joint masks, two-pose blends in every aliasing form, layered and additive blends.

use std::ptr::{null, null_mut};

use sinew::ffi::error::last_error_message;
use sinew::ffi::*;

use super::*;

// ------------------------------------------------------------------------------ blending

fn mask(skeleton: *const SinewSkeleton, value: f32) -> *mut SinewJointMask {
    let mut out = null_mut();
    // SAFETY: a live skeleton and an out-pointer to a local.
    ok(unsafe { sinew_joint_mask_create(skeleton, value, &mut out) });
    out
}

fn weights(mask: *const SinewJointMask) -> [f32; 5] {
    let mut out = [9.0; 5];
    // SAFETY: a live mask and a buffer of JOINTS floats.
    ok(unsafe { sinew_joint_mask_get_weights(mask, out.as_mut_ptr(), JOINTS) });
    out
}

/// The blends' poses: the test skeleton, and poses of it at rest (`a`), posed (`b`) and to write
/// into (`out`).
fn blend_poses() -> (*mut SinewSkeleton, [*mut SinewPose; 3]) {
    let skel = skeleton();
    (skel, [pose(skel), posed(skel), pose(skel)])
}

#[test]
fn joint_masks_round_trip_and_errors() {
    let skel = skeleton();
    let m = mask(skel, 0.5);
    assert_eq!(weights(m), [0.5; 5]);
    // SAFETY: live handles; arrays of the stated sizes; out-pointers to locals.
    unsafe {
        ok(sinew_joint_mask_set_weight(m, 4, 0.25));
        assert_eq!(weights(m), [0.5, 0.5, 0.5, 0.5, 0.25]);
        let w = [0.0, 0.1, 0.2, 0.3, 0.4];
        ok(sinew_joint_mask_set_weights(m, w.as_ptr(), JOINTS));
        assert_eq!(weights(m), w);
        let s = sinew_joint_mask_set_weight(m, 1, 1.5);
        assert_eq!(s, SinewStatus::InvalidArgument, "{}", last_error_message());
        let s = sinew_joint_mask_set_weight(m, JOINTS, 0.5);
        assert_eq!(s, SinewStatus::OutOfRange, "{}", last_error_message());
        let s = sinew_joint_mask_set_weights(m, w.as_ptr(), 4);
        fails(s, SinewStatus::SizeMismatch, "weights");
        let nan = [0.0, f32::NAN, 0.0, 0.0, 0.0];
        let s = sinew_joint_mask_set_weights(m, nan.as_ptr(), JOINTS);
        assert_eq!(s, SinewStatus::NonFinite);
        let mut four = [9.0f32; 4];
        let s = sinew_joint_mask_get_weights(m, four.as_mut_ptr(), 4);
        fails(s, SinewStatus::SizeMismatch, "out_weights");
        assert_eq!(weights(m), w, "unchanged by the errors");
        let mut other = null_mut();
        let s = sinew_joint_mask_create(skel, -0.5, &mut other);
        assert_eq!(s, SinewStatus::InvalidArgument);
        assert!(other.is_null());

        // The arm below the upper arm, ramping over one level.
        let mut sub = null_mut();
        ok(sinew_joint_mask_create_subtree(skel, 1, 1, &mut sub));
        assert_eq!(weights(sub), [0.0, 0.5, 1.0, 1.0, 0.0]);
        let s = sinew_joint_mask_create_subtree(skel, JOINTS, 0, &mut other);
        assert_eq!(s, SinewStatus::OutOfRange, "{}", last_error_message());
        assert!(other.is_null());

        sinew_joint_mask_destroy(sub);
        sinew_joint_mask_destroy(m);
        sinew_skeleton_destroy(skel);
    }
}

#[test]
fn two_pose_blends_with_every_aliasing() {
    let (skel, [a, b, out]) = blend_poses();
    let half = mask(skel, 0.5);
    let (la, lb) = (local(a), local(b));
    let local_space = SinewBlendSpace::Local as i32;
    let model_space = SinewBlendSpace::ModelRotation as i32;
    // SAFETY: live handles; `out` may be `a` or `b` by contract.
    unsafe {
        ok(sinew_pose_blend(a, b, 0.0, null(), local_space, out));
        same(&local(out), &la);
        ok(sinew_pose_blend(a, b, 1.0, null(), local_space, out));
        same(&local(out), &lb);
        ok(sinew_pose_blend(a, b, 0.5, half, model_space, out));
        let distinct = local(out);

        // out == a, out == b and a == b == out give what a distinct output gets.
        let copy = pose(skel);
        set_local(copy, &la);
        ok(sinew_pose_blend(copy, b, 0.5, half, model_space, copy));
        same(&local(copy), &distinct);
        set_local(copy, &lb);
        ok(sinew_pose_blend(a, copy, 0.5, half, model_space, copy));
        same(&local(copy), &distinct);
        ok(sinew_pose_blend(copy, copy, 0.3, null(), local_space, copy));
        same(&local(copy), &distinct); // a pose blended with itself is itself

        // Errors change nothing.
        let s = sinew_pose_blend(a, b, 0.5, null(), 7, out);
        fails(s, SinewStatus::InvalidArgument, "space");
        let s = sinew_pose_blend(a, b, 1.5, null(), local_space, out);
        assert_ne!(s, SinewStatus::Ok);
        let s = sinew_pose_blend(copy, copy, f32::NAN, null(), local_space, copy);
        assert_eq!(s, SinewStatus::NonFinite);
        let s = sinew_pose_blend(a, null(), 0.5, null(), local_space, out);
        fails(s, SinewStatus::NullPointer, "b");
        let s = sinew_pose_blend(a, b, 0.5, null(), local_space, null_mut());
        fails(s, SinewStatus::NullPointer, "out");
        assert_eq!(local(out), distinct);
        same(&local(copy), &distinct);

        for p in [a, b, out, copy] {
            sinew_pose_destroy(p);
        }
        sinew_joint_mask_destroy(half);
        sinew_skeleton_destroy(skel);
    }
}

#[test]
fn layered_and_additive_blends() {
    let (skel, [a, b, out]) = blend_poses();
    let delta = pose(skel);
    let upper = mask(skel, 1.0);
    // SAFETY: live handles; arrays of the stated sizes.
    unsafe {
        ok(sinew_joint_mask_set_weight(upper, 0, 0.0));
        let layers = [
            SinewBlendLayer {
                pose: a,
                weight: 0.25,
                mask: null(),
            },
            SinewBlendLayer {
                pose: b,
                weight: 0.75,
                mask: upper,
            },
        ];
        ok(sinew_pose_blend_layers(layers.as_ptr(), 2, 0.1, out));
        let blended = local(out);
        assert_ne!(blended, local(a));
        // Only b at weight 1 gives b.
        let only_b = [SinewBlendLayer {
            pose: b,
            weight: 1.0,
            mask: null(),
        }];
        ok(sinew_pose_blend_layers(only_b.as_ptr(), 1, 0.1, out));
        for (x, y) in local(out).iter().zip(local(b).iter()) {
            assert!(close(x, y, 1e-6));
        }
        // No layers: the rest pose.
        ok(sinew_pose_blend_layers(null(), 0, 0.1, out));
        assert_eq!(local(out), rest());
        ok(sinew_pose_blend_layers(layers.as_ptr(), 2, 0.1, out));

        let aliased = [SinewBlendLayer {
            pose: out,
            weight: 1.0,
            mask: null(),
        }];
        let s = sinew_pose_blend_layers(aliased.as_ptr(), 1, 0.1, out);
        fails(s, SinewStatus::InvalidArgument, "output pose");
        let negative = [SinewBlendLayer {
            pose: a,
            weight: -1.0,
            mask: null(),
        }];
        let s = sinew_pose_blend_layers(negative.as_ptr(), 1, 0.1, out);
        assert_ne!(s, SinewStatus::Ok);
        let s = sinew_pose_blend_layers(layers.as_ptr(), 2, 0.0, out);
        assert_ne!(s, SinewStatus::Ok, "threshold must be positive");
        let dangling_pose = [SinewBlendLayer {
            pose: null(),
            weight: 1.0,
            mask: null(),
        }];
        let s = sinew_pose_blend_layers(dangling_pose.as_ptr(), 1, 0.1, out);
        fails(s, SinewStatus::NullPointer, "pose");
        assert_eq!(local(out), blended);

        // Additive: delta of (b over a), applied to a, gives b; in place and distinct agree.
        ok(sinew_pose_make_additive(b, a, delta));
        ok(sinew_pose_apply_additive(a, delta, 1.0, null(), out));
        for (x, y) in local(out).iter().zip(local(b).iter()) {
            assert!(close(x, y, 1e-5), "{x:?} != {y:?}");
        }
        ok(sinew_pose_apply_additive(a, delta, 0.5, upper, out));
        let distinct = local(out);
        let base = pose(skel);
        ok(sinew_pose_apply_additive(base, delta, 0.5, upper, base));
        same(&local(base), &distinct);

        let s = sinew_pose_make_additive(b, a, a);
        fails(s, SinewStatus::InvalidArgument, "output pose");
        let s = sinew_pose_make_additive(b, a, null_mut());
        fails(s, SinewStatus::NullPointer, "out_delta");
        let s = sinew_pose_apply_additive(a, delta, 1.0, null(), delta);
        fails(s, SinewStatus::InvalidArgument, "delta");
        let s = sinew_pose_apply_additive(a, delta, f32::NAN, null(), out);
        assert_eq!(s, SinewStatus::NonFinite);
        assert_eq!(local(out), distinct);

        for p in [a, b, out, delta, base] {
            sinew_pose_destroy(p);
        }
        sinew_joint_mask_destroy(upper);
        sinew_skeleton_destroy(skel);
    }
}

#[test]
fn layered_blend_with_additive_layers_in_one_call() {
    let (skel, [a, b, out]) = blend_poses();
    let (delta, turns) = (pose(skel), pose(skel));
    let upper = mask(skel, 1.0);
    let layer = |pose, weight, mask| SinewBlendLayer { pose, weight, mask };
    // SAFETY: live handles; arrays of the stated sizes.
    unsafe {
        ok(sinew_joint_mask_set_weight(upper, 0, 0.0));
        ok(sinew_pose_make_additive(b, a, delta));
        let layers = [layer(a, 0.25, null()), layer(b, 0.75, upper)];
        let additive = [layer(delta, 0.5, upper), layer(delta, -0.25, null())];
        let (layers_p, additive_p) = (layers.as_ptr(), additive.as_ptr());
        ok(sinew_pose_blend_layers_additive(
            layers_p, 2, additive_p, 2, 0.1, out,
        ));
        // The same as the blend and then each additive layer in turn.
        ok(sinew_pose_blend_layers(layers_p, 2, 0.1, turns));
        ok(sinew_pose_apply_additive(turns, delta, 0.5, upper, turns));
        ok(sinew_pose_apply_additive(
            turns,
            delta,
            -0.25,
            null(),
            turns,
        ));
        let blended = local(out);
        same(&blended, &local(turns));

        // No layers of either kind: the rest pose.
        ok(sinew_pose_blend_layers_additive(
            null(),
            0,
            null(),
            0,
            0.1,
            turns,
        ));
        assert_eq!(local(turns), rest());

        let s = sinew_pose_blend_layers_additive(layers_p, 2, additive_p, 2, 0.1, delta);
        fails(s, SinewStatus::InvalidArgument, "additive layer's delta");
        let s = sinew_pose_blend_layers_additive(layers_p, 2, additive_p, 2, 0.1, b);
        fails(s, SinewStatus::InvalidArgument, "one of the layers");
        let s = sinew_pose_blend_layers_additive(layers_p, 2, null(), 1, 0.1, out);
        fails(s, SinewStatus::NullPointer, "additive");
        let dangling = [layer(null(), 1.0, null())];
        let s = sinew_pose_blend_layers_additive(layers_p, 2, dangling.as_ptr(), 1, 0.1, out);
        fails(s, SinewStatus::NullPointer, "additive[i].pose");
        let s = sinew_pose_blend_layers_additive(layers_p, 2, additive_p, 2, 0.0, out);
        assert_eq!(
            s,
            SinewStatus::InvalidArgument,
            "threshold must be positive"
        );
        assert_eq!(local(out), blended);

        for p in [a, b, out, delta, turns] {
            sinew_pose_destroy(p);
        }
        sinew_joint_mask_destroy(upper);
        sinew_skeleton_destroy(skel);
    }
}
