//! Pose handle exports: local and model-space access to a skeleton's joints.

use super::guard::{arg, arg_mut, arg_slice, arg_slice_mut, check_count, destroy, guard, publish};
use super::skeleton::SinewSkeleton;
use super::status::SinewStatus;
use super::types::{write_transforms, SinewTransform};
use crate::pose::Pose;
use crate::transform::Transform;

/// Opaque pose handle: one local transform per joint of its skeleton (which it keeps alive).
/// Owned by the caller; use one pose from one thread at a time.
pub struct SinewPose {
    pub(crate) inner: Pose,
}

/// Creates a pose of `skeleton`, starting at its rest pose.
///
/// # Safety
/// Pointers must be valid.
#[no_mangle]
pub unsafe extern "C" fn sinew_pose_create(
    skeleton: *const SinewSkeleton,
    out_pose: *mut *mut SinewPose,
) -> SinewStatus {
    guard(|| {
        // SAFETY: caller's contract; null/alignment checked.
        let (skeleton, out) =
            unsafe { (arg(skeleton, "skeleton")?, arg_mut(out_pose, "out_pose")?) };
        publish(
            out,
            SinewPose {
                inner: Pose::new(skeleton.inner.clone()),
            },
        );
        Ok(())
    })
}

/// Releases a pose. NULL is a no-op.
///
/// # Safety
/// `pose` must be NULL or a live handle, not used afterwards.
#[no_mangle]
pub unsafe extern "C" fn sinew_pose_destroy(pose: *mut SinewPose) {
    // SAFETY: forwarded contract.
    unsafe { destroy(pose) }
}

/// Writes the number of joints.
///
/// # Safety
/// Pointers must be valid.
#[no_mangle]
pub unsafe extern "C" fn sinew_pose_joint_count(
    pose: *const SinewPose,
    out_count: *mut u32,
) -> SinewStatus {
    guard(|| {
        // SAFETY: caller's contract; null/alignment checked.
        let (pose, out) = unsafe { (arg(pose, "pose")?, arg_mut(out_count, "out_count")?) };
        *out = pose.inner.joint_count() as u32;
        Ok(())
    })
}

/// Returns every joint to the skeleton's rest pose.
///
/// # Safety
/// `pose` must be valid.
#[no_mangle]
pub unsafe extern "C" fn sinew_pose_reset(pose: *mut SinewPose) -> SinewStatus {
    guard(|| {
        // SAFETY: caller's contract; null/alignment checked.
        unsafe { arg_mut(pose, "pose") }?.inner.reset();
        Ok(())
    })
}

/// Copies the local transforms; `count` must equal the joint count.
///
/// # Safety
/// `out_local` must hold `count` items.
#[no_mangle]
pub unsafe extern "C" fn sinew_pose_get_local(
    pose: *const SinewPose,
    out_local: *mut SinewTransform,
    count: u32,
) -> SinewStatus {
    guard(|| {
        // SAFETY: caller's contract; null/alignment checked.
        let pose = unsafe { arg(pose, "pose") }?;
        check_count(count, pose.inner.joint_count(), "out_local")?;
        // SAFETY: as above.
        let out = unsafe { arg_slice_mut(out_local, count, "out_local") }?;
        write_transforms(out, pose.inner.local());
        Ok(())
    })
}

/// Replaces the local transforms (rotations renormalized). Nothing changes on error.
///
/// # Safety
/// `local` must hold `count` items.
#[no_mangle]
pub unsafe extern "C" fn sinew_pose_set_local(
    pose: *mut SinewPose,
    local: *const SinewTransform,
    count: u32,
) -> SinewStatus {
    guard(|| {
        // SAFETY: caller's contract; null/alignment checked.
        let pose = unsafe { arg_mut(pose, "pose") }?;
        check_count(count, pose.inner.joint_count(), "local")?;
        // SAFETY: as above.
        let local = unsafe { arg_slice(local, count, "local") }?;
        pose.inner
            .set_local_iter(local.iter().map(|&t| Transform::from(t)))?;
        Ok(())
    })
}

/// Computes model-space transforms of every joint (one pass, parents first) into `out_model`:
/// each joint's model transform is its parent's composed with its local one, root first
/// (translation `parent.t + parent.r * (parent.s * local.t)`, rotation `parent.r * local.r`,
/// scale `parent.s * local.s` per axis), the one rule every model-space function follows.
/// Takes a mutable pose because it reuses the pose's model-space buffer; see
/// `sinew_pose_compute_model` for a const pose.
///
/// # Safety
/// `out_model` must hold `count` items.
#[no_mangle]
pub unsafe extern "C" fn sinew_pose_get_model(
    pose: *mut SinewPose,
    out_model: *mut SinewTransform,
    count: u32,
) -> SinewStatus {
    guard(|| {
        // SAFETY: caller's contract; null/alignment checked.
        let pose = unsafe { arg_mut(pose, "pose") }?;
        check_count(count, pose.inner.joint_count(), "out_model")?;
        // SAFETY: as above.
        let out = unsafe { arg_slice_mut(out_model, count, "out_model") }?;
        write_transforms(out, pose.inner.model()?);
        Ok(())
    })
}

/// `sinew_pose_get_model` for a const pose: the same transforms, bit for bit, written into
/// `out_model` (`count` must equal the joint count). Nothing is written unless every result
/// is finite: a cheap first pass bounds them, and only poses with magnitudes near float's
/// range take a full checking pass before the writing one.
///
/// # Safety
/// `out_model` must hold `count` items.
#[no_mangle]
pub unsafe extern "C" fn sinew_pose_compute_model(
    pose: *const SinewPose,
    out_model: *mut SinewTransform,
    count: u32,
) -> SinewStatus {
    guard(|| {
        // SAFETY: caller's contract; null/alignment checked.
        let pose = unsafe { arg(pose, "pose") }?;
        check_count(count, pose.inner.joint_count(), "out_model")?;
        // SAFETY: as above.
        let out = unsafe { arg_slice_mut(out_model, count, "out_model") }?;
        pose.inner.model_into_as(out)?;
        Ok(())
    })
}

/// Sets the pose from model-space transforms of every joint (model to local: each joint's
/// local transform becomes its parent's model transform inverted and composed with its own,
/// the inverse of `sinew_pose_get_model`'s rule). Nothing changes on error.
///
/// # Safety
/// `model` must hold `count` items.
#[no_mangle]
pub unsafe extern "C" fn sinew_pose_set_model(
    pose: *mut SinewPose,
    model: *const SinewTransform,
    count: u32,
) -> SinewStatus {
    guard(|| {
        // SAFETY: caller's contract; null/alignment checked.
        let pose = unsafe { arg_mut(pose, "pose") }?;
        check_count(count, pose.inner.joint_count(), "model")?;
        // SAFETY: as above.
        let model = unsafe { arg_slice(model, count, "model") }?;
        pose.inner
            .set_model_iter(model.iter().map(|&t| Transform::from(t)))?;
        Ok(())
    })
}

/// Writes one joint's model-space transform: its ancestors only, composed root first, so
/// the same transform, bit for bit, as `sinew_pose_get_model` gives it. Takes a const pose.
///
/// # Safety
/// Pointers must be valid.
#[no_mangle]
pub unsafe extern "C" fn sinew_pose_get_model_transform(
    pose: *const SinewPose,
    joint: u32,
    out_transform: *mut SinewTransform,
) -> SinewStatus {
    guard(|| {
        // SAFETY: caller's contract; null/alignment checked.
        let (pose, out) = unsafe { (arg(pose, "pose")?, arg_mut(out_transform, "out_transform")?) };
        *out = pose.inner.model_of(joint as usize)?.into();
        Ok(())
    })
}

/// Moves one joint to a model-space transform; its descendants follow. Its local transform
/// becomes its parent's model transform inverted and composed with `transform`, so
/// `sinew_pose_get_model_transform` then gives `transform` back (to rounding, for non-zero
/// parent scales).
///
/// # Safety
/// Pointers must be valid.
#[no_mangle]
pub unsafe extern "C" fn sinew_pose_set_model_transform(
    pose: *mut SinewPose,
    joint: u32,
    transform: *const SinewTransform,
) -> SinewStatus {
    guard(|| {
        // SAFETY: caller's contract; null/alignment checked.
        let (pose, t) = unsafe { (arg_mut(pose, "pose")?, arg(transform, "transform")?) };
        pose.inner.set_model_of(joint as usize, &(*t).into())?;
        Ok(())
    })
}
