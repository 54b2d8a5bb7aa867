//! Joint mask exports (`SinewJointMask`).

use super::guard::{arg, arg_mut, arg_slice, arg_slice_mut, check_count, destroy, guard, publish};
use super::skeleton::SinewSkeleton;
use super::status::SinewStatus;
use crate::mask::JointMask;

/// Opaque per-joint weights in [0, 1] for one skeleton's joint count. Owned by the caller.
pub struct SinewJointMask {
    pub(crate) inner: JointMask,
}

/// Creates a mask giving every joint of `skeleton` the weight `value` (in [0, 1]).
///
/// # Safety
/// Pointers must be valid.
#[no_mangle]
pub unsafe extern "C" fn sinew_joint_mask_create(
    skeleton: *const SinewSkeleton,
    value: f32,
    out_mask: *mut *mut SinewJointMask,
) -> SinewStatus {
    guard(|| {
        // SAFETY: caller's contract; null/alignment checked.
        let (skeleton, out) =
            unsafe { (arg(skeleton, "skeleton")?, arg_mut(out_mask, "out_mask")?) };
        let inner = JointMask::uniform(&skeleton.inner, value)?;
        publish(out, SinewJointMask { inner });
        Ok(())
    })
}

/// Creates a mask of the subtree rooted at joint `root`: weight 1 on it, 0 elsewhere; with
/// `blend_depth` d > 0 the weight ramps as (depth + 1) / (d + 1) over the subtree's first d
/// levels (Unreal's branch filter BlendDepth).
///
/// # Safety
/// Pointers must be valid.
#[no_mangle]
pub unsafe extern "C" fn sinew_joint_mask_create_subtree(
    skeleton: *const SinewSkeleton,
    root: u32,
    blend_depth: u32,
    out_mask: *mut *mut SinewJointMask,
) -> SinewStatus {
    guard(|| {
        // SAFETY: caller's contract; null/alignment checked.
        let (skeleton, out) =
            unsafe { (arg(skeleton, "skeleton")?, arg_mut(out_mask, "out_mask")?) };
        let inner = JointMask::subtree(&skeleton.inner, root as usize, blend_depth)?;
        publish(out, SinewJointMask { inner });
        Ok(())
    })
}

/// Releases a mask. NULL is a no-op.
///
/// # Safety
/// `mask` must be NULL or a live handle, not used afterwards.
#[no_mangle]
pub unsafe extern "C" fn sinew_joint_mask_destroy(mask: *mut SinewJointMask) {
    // SAFETY: forwarded contract.
    unsafe { destroy(mask) }
}

/// Sets one joint's weight (in [0, 1]).
///
/// # Safety
/// `mask` must be valid.
#[no_mangle]
pub unsafe extern "C" fn sinew_joint_mask_set_weight(
    mask: *mut SinewJointMask,
    joint: u32,
    weight: f32,
) -> SinewStatus {
    guard(|| {
        // SAFETY: caller's contract; null/alignment checked.
        unsafe { arg_mut(mask, "mask") }?
            .inner
            .set_weight(joint as usize, weight)?;
        Ok(())
    })
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
    guard(|| {
        // SAFETY: caller's contract; null/alignment checked.
        let mask = unsafe { arg_mut(mask, "mask") }?;
        check_count(count, mask.inner.joint_count(), "weights")?;
        // SAFETY: as above.
        let weights = unsafe { arg_slice(weights, count, "weights") }?;
        mask.inner.set_weights(weights)?;
        Ok(())
    })
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
    guard(|| {
        // SAFETY: caller's contract; null/alignment checked.
        let mask = unsafe { arg(mask, "mask") }?;
        check_count(count, mask.inner.joint_count(), "out_weights")?;
        // SAFETY: as above.
        unsafe { arg_slice_mut(out_weights, count, "out_weights") }?
            .copy_from_slice(mask.inner.weights());
        Ok(())
    })
}
