//! Joint mask exports (`SinewJointMask`).

use super::args::arg_array;
use super::handle::{copy_out, create_from, destroy, handle, update};
use super::skeleton::SinewSkeleton;
use super::status::SinewStatus;
use crate::mask::JointMask;

/// Opaque per-joint weights in [0, 1] for one skeleton's joint count. Owned by the caller.
pub struct SinewJointMask {
    pub(crate) inner: JointMask,
}
handle!(SinewJointMask, "mask", JointMask);

/// Creates a mask giving every joint of `skeleton` the weight `value` (in [0, 1]).
#[no_mangle]
pub unsafe extern "C" fn sinew_joint_mask_create(
    skeleton: *const SinewSkeleton,
    value: f32,
    out_mask: *mut *mut SinewJointMask,
) -> SinewStatus {
    let make = |s: &SinewSkeleton| JointMask::uniform(&s.inner, value);
    unsafe { create_from(skeleton, out_mask, make) }
}

/// Creates a mask of the subtree rooted at joint `root`: weight 1 on it, 0 elsewhere; with
/// `blend_depth` d > 0 the weight ramps as (depth + 1) / (d + 1) over the subtree's first d
/// levels (Unreal's branch filter BlendDepth).
#[no_mangle]
pub unsafe extern "C" fn sinew_joint_mask_create_subtree(
    skeleton: *const SinewSkeleton,
    root: u32,
    blend_depth: u32,
    out_mask: *mut *mut SinewJointMask,
) -> SinewStatus {
    let make = |s: &SinewSkeleton| JointMask::subtree(&s.inner, root as usize, blend_depth);
    unsafe { create_from(skeleton, out_mask, make) }
}

/// Releases a mask. NULL is a no-op.
#[no_mangle]
pub unsafe extern "C" fn sinew_joint_mask_destroy(mask: *mut SinewJointMask) {
    unsafe { destroy(mask) }
}

/// Sets one joint's weight (in [0, 1]).
#[no_mangle]
pub unsafe extern "C" fn sinew_joint_mask_set_weight(
    mask: *mut SinewJointMask,
    joint: u32,
    weight: f32,
) -> SinewStatus {
    unsafe { update(mask, |m| Ok(m.inner.set_weight(joint as usize, weight)?)) }
}

/// Replaces every weight; `count` must equal the joint count. Unchanged on error.
///
/// # Safety
/// `weights` must hold `count` floats.
#[no_mangle]
pub unsafe extern "C" fn sinew_joint_mask_set_weights(
    mask: *mut SinewJointMask,
    weights: *const f32,
    count: u32,
) -> SinewStatus {
    let set = |m: &mut SinewJointMask| {
        // SAFETY: `weights` holds `count` floats.
        let weights = unsafe { arg_array(weights, count, m.inner.joint_count(), "weights") }?;
        Ok(m.inner.set_weights(weights)?)
    };
    unsafe { update(mask, set) }
}

/// Copies every weight; `count` must equal the joint count.
///
/// # Safety
/// `out_weights` must hold `count` floats.
#[no_mangle]
pub unsafe extern "C" fn sinew_joint_mask_get_weights(
    mask: *const SinewJointMask,
    out_weights: *mut f32,
    count: u32,
) -> SinewStatus {
    let weights: fn(&SinewJointMask) -> &[f32] = |m| m.inner.weights();
    unsafe { copy_out(mask, out_weights, count, "out_weights", weights) }
}
