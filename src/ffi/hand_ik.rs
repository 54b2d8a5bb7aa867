//! HandIKRetargeting exports (`SinewHandIkRetargeting`), after Unreal's node.

use super::guard::{
    arg, arg_mut, arg_slice, arg_slice_mut, destroy, guard, guard_void, opt_arg, publish, FfiResult,
};
use super::pose::SinewPose;
use super::status::SinewStatus;
use super::types::{SinewTransform, SinewVec3};
use crate::ik::{HandIkRetargeting, HandIkRetargetingSettings, HandPair, Translated};
use glam::Vec3;

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

impl From<HandIkRetargetingSettings> for SinewHandIkRetargetingSettings {
    fn from(s: HandIkRetargetingSettings) -> Self {
        Self {
            hand_fk_weight: s.hand_fk_weight,
            per_axis_alpha: s.per_axis_alpha.into(),
        }
    }
}

impl From<&SinewHandIkRetargetingSettings> for HandIkRetargetingSettings {
    fn from(s: &SinewHandIkRetargetingSettings) -> Self {
        Self {
            hand_fk_weight: s.hand_fk_weight,
            per_axis_alpha: s.per_axis_alpha.into(),
        }
    }
}

impl From<&SinewHandJoints> for HandPair {
    fn from(h: &SinewHandJoints) -> Self {
        Self {
            right_fk: h.right_fk,
            left_fk: h.left_fk,
            right_ik: h.right_ik,
            left_ik: h.left_ik,
        }
    }
}

impl Translated for SinewTransform {
    fn translation(&self) -> Vec3 {
        self.translation.into()
    }
    fn translate(&mut self, offset: Vec3) {
        self.translation = (Vec3::from(self.translation) + offset).into();
    }
    fn is_finite(&self) -> bool {
        crate::transform::Transform::from(*self).is_finite()
    }
}

/// Opaque HandIKRetargeting node. Owned by the caller.
pub struct SinewHandIkRetargeting {
    inner: HandIkRetargeting,
}

/// Fills `out` with the defaults. NULL is ignored.
///
/// # Safety
/// `out` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn sinew_hand_ik_retargeting_settings_default(
    out: *mut SinewHandIkRetargetingSettings,
) {
    guard_void(|| {
        // SAFETY: caller's contract; null/alignment checked.
        *unsafe { arg_mut(out, "out") }? = HandIkRetargetingSettings::default().into();
        Ok(())
    });
}

/// Creates a retargeting node with validated settings.
///
/// # Safety
/// Pointers must be valid.
#[no_mangle]
pub unsafe extern "C" fn sinew_hand_ik_retargeting_create(
    settings: *const SinewHandIkRetargetingSettings,
    out_node: *mut *mut SinewHandIkRetargeting,
) -> SinewStatus {
    guard(|| {
        // SAFETY: caller's contract; null/alignment checked.
        let (settings, out) =
            unsafe { (arg(settings, "settings")?, arg_mut(out_node, "out_node")?) };
        let inner = HandIkRetargeting::new(settings.into())?;
        publish(out, SinewHandIkRetargeting { inner });
        Ok(())
    })
}

/// Releases a node. NULL is a no-op.
///
/// # Safety
/// `node` must be NULL or a live handle, not used afterwards.
#[no_mangle]
pub unsafe extern "C" fn sinew_hand_ik_retargeting_destroy(node: *mut SinewHandIkRetargeting) {
    // SAFETY: forwarded contract.
    unsafe { destroy(node) }
}

/// Copies the node's settings.
///
/// # Safety
/// Pointers must be valid.
#[no_mangle]
pub unsafe extern "C" fn sinew_hand_ik_retargeting_get_settings(
    node: *const SinewHandIkRetargeting,
    out_settings: *mut SinewHandIkRetargetingSettings,
) -> SinewStatus {
    guard(|| {
        // SAFETY: caller's contract; null/alignment checked.
        let (node, out) = unsafe { (arg(node, "node")?, arg_mut(out_settings, "out_settings")?) };
        *out = (*node.inner.settings()).into();
        Ok(())
    })
}

/// Replaces the node's settings; unchanged on error.
///
/// # Safety
/// Pointers must be valid.
#[no_mangle]
pub unsafe extern "C" fn sinew_hand_ik_retargeting_set_settings(
    node: *mut SinewHandIkRetargeting,
    settings: *const SinewHandIkRetargetingSettings,
) -> SinewStatus {
    guard(|| {
        // SAFETY: caller's contract; null/alignment checked.
        let (node, settings) = unsafe { (arg_mut(node, "node")?, arg(settings, "settings")?) };
        node.inner.set_settings(settings.into())?;
        Ok(())
    })
}

/// Writes an optional offset output.
unsafe fn write_offset(out_offset: *mut SinewVec3, offset: Vec3) -> FfiResult<()> {
    if !out_offset.is_null() {
        // SAFETY: forwarded contract; alignment checked.
        *unsafe { arg_mut(out_offset, "out_offset") }? = offset.into();
    }
    Ok(())
}

/// Adds `(FK − IK) * per_axis_alpha` to the translation of each of `bone_count` bones of a
/// model-space array of `count` transforms (duplicates move once); the hands are read from the
/// same array through `hands`. `out_offset` (may be NULL) receives the offset.
///
/// # Safety
/// `model` must hold `count` transforms, `bones` `bone_count` indices; other non-null pointers
/// must be valid.
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
    guard(|| {
        // SAFETY: caller's contract; null/alignment checked.
        let (node, hands) = unsafe { (arg(node, "node")?, arg(hands, "hands")?) };
        // SAFETY: as above.
        let model = unsafe { arg_slice_mut(model, count, "model") }?;
        // SAFETY: as above.
        let bones = unsafe { arg_slice(bones, bone_count, "bones") }?;
        // SAFETY: as above; checked before the model is written.
        unsafe { opt_arg(out_offset, "out_offset") }?;
        let offset = node.inner.apply_model(model, &hands.into(), bones)?;
        // SAFETY: as above.
        unsafe { write_offset(out_offset, offset) }
    })
}

/// Moves each listed bone of `pose` by the offset in model space (descendants follow; a bone
/// whose ancestor is also listed moves once). `out_offset` (may be NULL) receives the offset.
///
/// # Safety
/// `bones` must hold `bone_count` indices; other non-null pointers must be valid.
#[no_mangle]
pub unsafe extern "C" fn sinew_hand_ik_retargeting_apply_pose(
    node: *const SinewHandIkRetargeting,
    pose: *mut SinewPose,
    hands: *const SinewHandJoints,
    bones: *const u32,
    bone_count: u32,
    out_offset: *mut SinewVec3,
) -> SinewStatus {
    guard(|| {
        // SAFETY: caller's contract; null/alignment checked.
        let (node, pose, hands) = unsafe {
            (
                arg(node, "node")?,
                arg_mut(pose, "pose")?,
                arg(hands, "hands")?,
            )
        };
        // SAFETY: as above.
        let bones = unsafe { arg_slice(bones, bone_count, "bones") }?;
        // SAFETY: as above.
        unsafe { opt_arg(out_offset, "out_offset") }?;
        let offset = node
            .inner
            .apply_pose(&mut pose.inner, &hands.into(), bones)?;
        // SAFETY: as above.
        unsafe { write_offset(out_offset, offset) }
    })
}
