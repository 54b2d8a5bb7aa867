//! Pose handle exports: local and model-space access to a skeleton's joints.

use super::args::{arg, arg_array, arg_array_mut};
use super::guard::FfiResult;
use super::handle::{create_from, destroy, handle, inspect, query, update, Handle};
use super::skeleton::SinewSkeleton;
use super::skin::SinewSkin;
use super::status::SinewStatus;
use super::types::{SinewMat4, SinewTransform};
use crate::pose::Pose;

/// Opaque pose handle: one local transform per joint of its skeleton (which it keeps alive).
/// Owned by the caller; use one pose from one thread at a time.
pub struct SinewPose {
    pub(crate) inner: Pose,
}
handle!(SinewPose, "pose", Pose);

/// Body of the exports that replace every joint's transform through `set` from `source`, an
/// array of `count` (the joint count) transforms; nothing changes on error.
unsafe fn set_all(
    pose: *mut SinewPose,
    source: *const SinewTransform,
    count: u32,
    name: &str,
    set: fn(&mut Pose, &[SinewTransform]) -> crate::Result<()>,
) -> SinewStatus {
    let set_all = |p: &mut SinewPose| {
        // SAFETY: `source` holds `count` items.
        let source = unsafe { arg_array(source, count, p.inner.joint_count(), name) }?;
        Ok(set(&mut p.inner, source)?)
    };
    unsafe { update(pose, set_all) }
}

/// Creates a pose of `skeleton`, starting at its rest pose.
#[no_mangle]
pub unsafe extern "C" fn sinew_pose_create(
    skeleton: *const SinewSkeleton,
    out_pose: *mut *mut SinewPose,
) -> SinewStatus {
    let make = |s: &SinewSkeleton| FfiResult::Ok(Pose::new(s.inner.clone()));
    unsafe { create_from(skeleton, out_pose, make) }
}

/// Releases a pose. NULL is a no-op.
#[no_mangle]
pub unsafe extern "C" fn sinew_pose_destroy(pose: *mut SinewPose) {
    unsafe { destroy(pose) }
}

/// Writes the number of joints.
#[no_mangle]
pub unsafe extern "C" fn sinew_pose_joint_count(
    pose: *const SinewPose,
    out_count: *mut u32,
) -> SinewStatus {
    let count = |p: &SinewPose| Ok(p.inner.joint_count() as u32);
    unsafe { query(pose, out_count, "out_count", count) }
}

/// Returns every joint to the skeleton's rest pose.
#[no_mangle]
pub unsafe extern "C" fn sinew_pose_reset(pose: *mut SinewPose) -> SinewStatus {
    let reset = |p: &mut SinewPose| {
        p.inner.reset();
        Ok(())
    };
    unsafe { update(pose, reset) }
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
    let copy = |p: &SinewPose| {
        // SAFETY: `out_local` holds `count` items.
        let out = unsafe { arg_array_mut(out_local, count, p.inner.joint_count(), "out_local") }?;
        Ok(p.inner.local_into_as(out)?)
    };
    unsafe { inspect(pose, copy) }
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
    unsafe { set_all(pose, local, count, "local", |p, t| p.set_local_as(t)) }
}

/// Computes model-space transforms of every joint (one pass, parents first) into `out_model`:
/// each joint's model transform is its parent's composed with its local one, root first
/// (translation `parent.t + parent.r * (parent.s * local.t)`, rotation `parent.r * local.r`,
/// scale `parent.s * local.s` per axis), the one rule every model-space function follows.
/// The same call as `sinew_pose_compute_model`, which takes a const pose (this one's mutable
/// pose is kept for compatibility; nothing in the pose changes): nothing is written unless
/// every result is finite.
///
/// # Safety
/// `out_model` must hold `count` items.
#[no_mangle]
pub unsafe extern "C" fn sinew_pose_get_model(
    pose: *mut SinewPose,
    out_model: *mut SinewTransform,
    count: u32,
) -> SinewStatus {
    unsafe { sinew_pose_compute_model(pose.cast_const(), out_model, count) }
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
    let compute = |p: &SinewPose| {
        let n = p.inner.joint_count();
        // SAFETY: `out_model` holds `count` items.
        let out = unsafe { arg_array_mut(out_model, count, n, "out_model") }?;
        Ok(p.inner.model_into_as(out)?)
    };
    unsafe { inspect(pose, compute) }
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
    let set = |p: &mut Pose, t: &[SinewTransform]| p.set_model_iter(t.iter().map(|&t| t.into()));
    unsafe { set_all(pose, model, count, "model", set) }
}

/// Writes one joint's model-space transform: its ancestors only, composed root first, so
/// the same transform, bit for bit, as `sinew_pose_get_model` gives it. Takes a const pose.
#[no_mangle]
pub unsafe extern "C" fn sinew_pose_get_model_transform(
    pose: *const SinewPose,
    joint: u32,
    out_transform: *mut SinewTransform,
) -> SinewStatus {
    let model = |p: &SinewPose| Ok(p.inner.model_of(joint as usize)?.into());
    unsafe { query(pose, out_transform, "out_transform", model) }
}

/// Moves one joint to a model-space transform; its descendants follow. Its local transform
/// becomes its parent's model transform inverted and composed with `transform`, so
/// `sinew_pose_get_model_transform` then gives `transform` back (to rounding, for non-zero
/// parent scales).
#[no_mangle]
pub unsafe extern "C" fn sinew_pose_set_model_transform(
    pose: *mut SinewPose,
    joint: u32,
    transform: *const SinewTransform,
) -> SinewStatus {
    let set = |p: &mut SinewPose| {
        let t = unsafe { arg(transform, "transform") }?;
        Ok(p.inner.set_model_of(joint as usize, &(*t).into())?)
    };
    unsafe { update(pose, set) }
}

/// Writes the model-space 4×4 matrix of every joint (`count` must equal the joint count),
/// column-major (`SinewMat4`): each joint's model transform as a matrix that scales, rotates,
/// then translates, composed as matrices down the hierarchy, so equal to the matrix of
/// `sinew_pose_compute_model`'s transform to rounding, not bit for bit. Per joint, with its
/// parent's rotation matrix `R_p`, scale `s_p` and translation `t_p` (a root's parent is the
/// identity: `R = I`, `s = (1, 1, 1)`, `t = 0`) and `L` the local rotation `(x, y, z, w)` as a
/// matrix from `xx = x·x`, `xy = x·y`, …: `L` rows `(1 − 2(yy + zz), 2(xy − wz), 2(xz + wy))`,
/// `(2(xy + wz), 1 − 2(xx + zz), 2(yz − wx))`, `(2(xz − wy), 2(yz + wx), 1 − 2(xx + yy))`;
/// `R[r][c] = (R_p[r][0] L[0][c] + R_p[r][1] L[1][c]) + R_p[r][2] L[2][c]`; `s = s_p ∘
/// local.scale`; `v = s_p ∘ local.translation`; `t[r] = ((t_p[r] + R_p[r][0] v.x) +
/// R_p[r][1] v.y) + R_p[r][2] v.z`; column `c < 3` is `(R[0][c] s[c], R[1][c] s[c],
/// R[2][c] s[c], 0)`, column 3 `(t, 1)`. Each operation in f32 in that order, so the same bits
/// on every platform. The matrix of the composed transform, not a product of local matrices
/// (which would shear under a non-uniform scale). Takes a const pose; nothing is written unless
/// every matrix is finite (`SINEW_STATUS_NUMERIC_OVERFLOW` otherwise).
///
/// # Safety
/// `out_matrices` must hold `count` items.
#[no_mangle]
pub unsafe extern "C" fn sinew_pose_compute_model_matrices(
    pose: *const SinewPose,
    out_matrices: *mut SinewMat4,
    count: u32,
) -> SinewStatus {
    let compute = |p: &SinewPose| {
        let n = p.inner.joint_count();
        // SAFETY: `out_matrices` holds `count` items.
        let out = unsafe { arg_array_mut(out_matrices, count, n, "out_matrices") }?;
        Ok(p.inner.model_matrices_into_as(out)?)
    };
    unsafe { inspect(pose, compute) }
}

/// Writes `skin`'s skinning palette (`count` must equal the skin's joint count): entry `k`
/// is the model matrix of the skin's joint `k` (as `sinew_pose_compute_model_matrices` gives
/// it) times its inverse bind matrix, `model · inverse_bind`, column-major. `skin` must be
/// made for a skeleton with the pose's joint count (`SINEW_STATUS_SIZE_MISMATCH` otherwise).
/// Takes a const pose; nothing is written unless every entry is finite
/// (`SINEW_STATUS_NUMERIC_OVERFLOW` otherwise).
///
/// # Safety
/// `out_palette` must hold `count` items.
#[no_mangle]
pub unsafe extern "C" fn sinew_pose_compute_skinning_palette(
    pose: *const SinewPose,
    skin: *const SinewSkin,
    out_palette: *mut SinewMat4,
    count: u32,
) -> SinewStatus {
    let compute = |p: &SinewPose| {
        let skin = unsafe { SinewSkin::get(skin) }?;
        let n = skin.inner.joint_count();
        // SAFETY: `out_palette` holds `count` items.
        let out = unsafe { arg_array_mut(out_palette, count, n, "out_palette") }?;
        Ok(p.inner.skinning_palette_into_as(&skin.inner, out)?)
    };
    unsafe { inspect(pose, compute) }
}
