//! HandIKRetargeting exports (`SinewHandIkRetargeting`), after Unreal's node.

use glam::Vec3;

use super::args::{arg, arg_slice, arg_slice_mut, OptOut};
use super::guard::{guard, FfiResult};
use super::handle::{destroy, Handle};
use super::pose::SinewPose;
use super::settings::{c_settings, solver_handle};
use super::settings::{create_solver, get_settings, set_settings, settings_default};
use super::status::SinewStatus;
use super::types::{same_fields, SinewTransform, SinewVec3};
use crate::ik::{HandIkRetargeting, HandIkRetargetingSettings, HandPair};

/// HandIKRetargeting settings; fill with `sinew_hand_ik_retargeting_settings_default`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SinewHandIkRetargetingSettings {
    /// Which hand drives the offset: 0 the left, 1 the right, between a mix. Default 0.5.
    pub hand_fk_weight: f32,
    /// Per-axis scale of the offset, each in [0, 1]. Default (1, 1, 1).
    pub per_axis_alpha: SinewVec3,
}

/// Joint indices of the four hands the offset is measured between.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SinewHandJoints {
    pub right_fk: u32,
    pub left_fk: u32,
    pub right_ik: u32,
    pub left_ik: u32,
}

c_settings!(SinewHandIkRetargetingSettings => HandIkRetargetingSettings {
    hand_fk_weight, per_axis_alpha,
});

same_fields! {
    SinewHandJoints => HandPair { right_fk, left_fk, right_ik, left_ik }
}

/// Opaque HandIKRetargeting node. Owned by the caller.
pub struct SinewHandIkRetargeting {
    inner: HandIkRetargeting,
}
solver_handle!(
    SinewHandIkRetargeting,
    "node",
    SinewHandIkRetargetingSettings,
    HandIkRetargeting
);

/// Fills `out` with the defaults. NULL is ignored.
#[no_mangle]
pub unsafe extern "C" fn sinew_hand_ik_retargeting_settings_default(
    out: *mut SinewHandIkRetargetingSettings,
) {
    unsafe { settings_default(out) }
}

/// Creates a retargeting node with validated settings.
#[no_mangle]
pub unsafe extern "C" fn sinew_hand_ik_retargeting_create(
    settings: *const SinewHandIkRetargetingSettings,
    out_node: *mut *mut SinewHandIkRetargeting,
) -> SinewStatus {
    unsafe { create_solver(settings, out_node, HandIkRetargeting::new) }
}

/// Releases a node. NULL is a no-op.
#[no_mangle]
pub unsafe extern "C" fn sinew_hand_ik_retargeting_destroy(node: *mut SinewHandIkRetargeting) {
    unsafe { destroy(node) }
}

/// Copies the node's settings.
#[no_mangle]
pub unsafe extern "C" fn sinew_hand_ik_retargeting_get_settings(
    node: *const SinewHandIkRetargeting,
    out_settings: *mut SinewHandIkRetargetingSettings,
) -> SinewStatus {
    unsafe { get_settings(node, out_settings) }
}

/// Replaces the node's settings; unchanged on error.
#[no_mangle]
pub unsafe extern "C" fn sinew_hand_ik_retargeting_set_settings(
    node: *mut SinewHandIkRetargeting,
    settings: *const SinewHandIkRetargetingSettings,
) -> SinewStatus {
    unsafe { set_settings(node, settings) }
}

/// Body of the `_apply_*` exports: reads the node, the hands and the bones, checks
/// `out_offset`, runs `apply` and writes the offset it returns.
unsafe fn apply_with(
    node: *const SinewHandIkRetargeting,
    hands: *const SinewHandJoints,
    bones: *const u32,
    bone_count: u32,
    out_offset: *mut SinewVec3,
    apply: impl FnOnce(&HandIkRetargeting, &HandPair, &[u32]) -> FfiResult<Vec3>,
) -> SinewStatus {
    guard(|| {
        unsafe {
            let (node, hands) = (SinewHandIkRetargeting::get(node)?, arg(hands, "hands")?);
            let bones = arg_slice(bones, bone_count, "bones")?;
            let out_offset = OptOut::new(out_offset, "out_offset")?;
            out_offset.write(apply(&node.inner, &(*hands).into(), bones)?);
        }
        Ok(())
    })
}

/// Adds `(FK − IK) * per_axis_alpha` to the translation of each of `bone_count` bones of a
/// model-space array of `count` transforms (duplicates move once); the hands are read from the
/// same array through `hands`. `out_offset` (may be NULL) receives the offset.
///
/// # Safety
/// `model` must hold `count` transforms, `bones` `bone_count` indices.
#[no_mangle]
pub unsafe extern "C" fn sinew_hand_ik_retargeting_apply_model(
    node: *const SinewHandIkRetargeting,
    model: *mut SinewTransform,
    count: u32,
    hands: *const SinewHandJoints,
    bones: *const u32,
    bone_count: u32,
    out_offset: *mut SinewVec3,
) -> SinewStatus {
    let apply = |node: &HandIkRetargeting, hands: &HandPair, bones: &[u32]| {
        // SAFETY: `model` holds `count` transforms.
        let model = unsafe { arg_slice_mut(model, count, "model") }?;
        Ok(node.apply_model(model, hands, bones)?)
    };
    unsafe { apply_with(node, hands, bones, bone_count, out_offset, apply) }
}

/// Moves each listed bone of `pose` by the offset in model space (descendants follow; a bone
/// whose ancestor is also listed moves once). `out_offset` (may be NULL) receives the offset.
///
/// # Safety
/// `bones` must hold `bone_count` indices.
#[no_mangle]
pub unsafe extern "C" fn sinew_hand_ik_retargeting_apply_pose(
    node: *const SinewHandIkRetargeting,
    pose: *mut SinewPose,
    hands: *const SinewHandJoints,
    bones: *const u32,
    bone_count: u32,
    out_offset: *mut SinewVec3,
) -> SinewStatus {
    let apply = |node: &HandIkRetargeting, hands: &HandPair, bones: &[u32]| {
        let pose = unsafe { SinewPose::get_mut(pose) }?;
        Ok(node.apply_pose(&mut pose.inner, hands, bones)?)
    };
    unsafe { apply_with(node, hands, bones, bone_count, out_offset, apply) }
}
