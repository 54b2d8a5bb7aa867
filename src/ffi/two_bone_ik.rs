//! Two-bone IK exports (`SinewTwoBoneIk`), shaped after Unreal's TwoBoneIK node.

use super::batch::{TargetArrays, TwoBoneArrays};
use super::guard::{
    arg, arg_mut, check_pointer, destroy, flag, guard, guard_void, opt_arg, publish, FfiError,
    FfiResult,
};
use super::pose::SinewPose;
use super::status::SinewStatus;
use super::types::{
    check_result_ptr, end_rotation_from_c, end_rotation_to_c, write_result, SinewIkResult,
    SinewQuat, SinewTransform, SinewVec3,
};
use crate::ik::{TwoBoneIk, TwoBoneIkSettings, TwoBoneTarget};

/// Two-bone IK settings; fill with `sinew_two_bone_ik_settings_default` then adjust.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SinewTwoBoneIkSettings {
    /// Blend of the solved chain over the input, in [0, 1] (Unreal's alpha). Default 1.
    pub weight: f32,
    /// 1 lets both bones stretch toward far targets (Unreal's bAllowStretching). Default 0.
    pub allow_stretching: u32,
    /// Reach ratio at which stretching starts. Default 1.
    pub start_stretch_ratio: f32,
    /// Largest bone-length scale when stretching, at least 1. Default 1.2.
    pub max_stretch_scale: f32,
    /// A `SinewEndRotation` value. Default `SINEW_END_ROTATION_KEEP_MODEL`.
    pub end_rotation: i32,
    /// In (0, 1]; below 1 the reach eases in beyond this fraction of the chain length, never
    /// overshooting. Default 1 (off).
    pub soften: f32,
    /// 1 keeps the joint bone's twist relative to the root bone (Unreal's bAllowTwist = 0);
    /// 0 uses minimal-arc rotations. Default 0.
    pub keep_twist: u32,
    /// How far the bend turns from the no-pole one toward the joint target, about the
    /// root-target line, in [0, 1] (Unity's hint weight). Default 1.
    pub pole_weight: f32,
}

impl From<TwoBoneIkSettings> for SinewTwoBoneIkSettings {
    fn from(s: TwoBoneIkSettings) -> Self {
        Self {
            weight: s.weight,
            allow_stretching: s.allow_stretching.into(),
            start_stretch_ratio: s.start_stretch_ratio,
            max_stretch_scale: s.max_stretch_scale,
            end_rotation: end_rotation_to_c(s.end_rotation),
            soften: s.soften,
            keep_twist: s.keep_twist.into(),
            pole_weight: s.pole_weight,
        }
    }
}

impl TryFrom<&SinewTwoBoneIkSettings> for TwoBoneIkSettings {
    type Error = FfiError;

    fn try_from(s: &SinewTwoBoneIkSettings) -> FfiResult<Self> {
        let end_rotation = end_rotation_from_c(s.end_rotation)?;
        let settings = TwoBoneIkSettings {
            weight: s.weight,
            allow_stretching: flag(s.allow_stretching, "allow_stretching")?,
            start_stretch_ratio: s.start_stretch_ratio,
            max_stretch_scale: s.max_stretch_scale,
            end_rotation,
            soften: s.soften,
            keep_twist: flag(s.keep_twist, "keep_twist")?,
            pole_weight: s.pole_weight,
        };
        settings.validate()?;
        Ok(settings)
    }
}

/// Opaque two-bone IK solver. Owned by the caller; one solver may serve many chains but should
/// be used from one thread at a time.
pub struct SinewTwoBoneIk {
    inner: TwoBoneIk,
}

/// Fills `out` with the defaults (Unreal's TwoBoneIK node defaults). NULL is ignored.
///
/// # Safety
/// `out` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn sinew_two_bone_ik_settings_default(out: *mut SinewTwoBoneIkSettings) {
    guard_void(|| {
        // SAFETY: caller's contract; null/alignment checked.
        let out = unsafe { arg_mut(out, "out") }?;
        *out = TwoBoneIkSettings::default().into();
        Ok(())
    });
}

/// Creates a solver with validated settings.
///
/// # Safety
/// Pointers must be valid.
#[no_mangle]
pub unsafe extern "C" fn sinew_two_bone_ik_create(
    settings: *const SinewTwoBoneIkSettings,
    out_solver: *mut *mut SinewTwoBoneIk,
) -> SinewStatus {
    guard(|| {
        // SAFETY: caller's contract; null/alignment checked.
        let (settings, out) = unsafe {
            (
                arg(settings, "settings")?,
                arg_mut(out_solver, "out_solver")?,
            )
        };
        let inner = TwoBoneIk::new(settings.try_into()?)?;
        publish(out, SinewTwoBoneIk { inner });
        Ok(())
    })
}

/// Releases a solver. NULL is a no-op.
///
/// # Safety
/// `solver` must be NULL or a live handle, not used afterwards.
#[no_mangle]
pub unsafe extern "C" fn sinew_two_bone_ik_destroy(solver: *mut SinewTwoBoneIk) {
    // SAFETY: forwarded contract.
    unsafe { destroy(solver) }
}

/// Copies the solver's settings.
///
/// # Safety
/// Pointers must be valid.
#[no_mangle]
pub unsafe extern "C" fn sinew_two_bone_ik_get_settings(
    solver: *const SinewTwoBoneIk,
    out_settings: *mut SinewTwoBoneIkSettings,
) -> SinewStatus {
    guard(|| {
        // SAFETY: caller's contract; null/alignment checked.
        let (solver, out) = unsafe {
            (
                arg(solver, "solver")?,
                arg_mut(out_settings, "out_settings")?,
            )
        };
        *out = (*solver.inner.settings()).into();
        Ok(())
    })
}

/// Replaces the solver's settings; unchanged on error.
///
/// # Safety
/// Pointers must be valid.
#[no_mangle]
pub unsafe extern "C" fn sinew_two_bone_ik_set_settings(
    solver: *mut SinewTwoBoneIk,
    settings: *const SinewTwoBoneIkSettings,
) -> SinewStatus {
    guard(|| {
        // SAFETY: caller's contract; null/alignment checked.
        let (solver, settings) =
            unsafe { (arg_mut(solver, "solver")?, arg(settings, "settings")?) };
        solver.inner.set_settings(settings.try_into()?)?;
        Ok(())
    })
}

/// Reads the optional effector rotation and pole into a target.
unsafe fn read_target(
    effector_position: *const SinewVec3,
    effector_rotation: *const SinewQuat,
    joint_target: *const SinewVec3,
) -> FfiResult<TwoBoneTarget> {
    // SAFETY: forwarded contract; null/alignment checked.
    unsafe {
        Ok(TwoBoneTarget {
            position: (*arg(effector_position, "effector_position")?).into(),
            rotation: opt_arg(effector_rotation, "effector_rotation")?.map(|&q| q.into()),
            pole: opt_arg(joint_target, "joint_target")?.map(|&p| p.into()),
        })
    }
}

/// Solves a chain of three model-space transforms (root, joint, end) in place toward
/// `effector_position`. `effector_rotation` (used by `SINEW_END_ROTATION_COPY_EFFECTOR`) and
/// `joint_target` (the pole: the joint bends toward it) may be NULL, as may `out_result`.
/// Without a pole the joint keeps the chain's bend: the direction of the joint's offset from
/// the root-end line, turned by the minimal rotation from the root-end direction onto the
/// root-target direction. On error `chain` and `out_result` are untouched.
///
/// # Safety
/// `chain` must hold 3 transforms; other non-NULL pointers must be valid.
#[no_mangle]
pub unsafe extern "C" fn sinew_two_bone_ik_solve(
    solver: *mut SinewTwoBoneIk,
    chain: *mut SinewTransform,
    effector_position: *const SinewVec3,
    effector_rotation: *const SinewQuat,
    joint_target: *const SinewVec3,
    out_result: *mut SinewIkResult,
) -> SinewStatus {
    guard(|| {
        // SAFETY: caller's contract; null/alignment checked.
        let solver = unsafe { arg(solver, "solver") }?;
        let chain = chain.cast::<[SinewTransform; 3]>();
        check_pointer(chain.cast_const(), "chain")?;
        // Inputs are read before the chain is borrowed mutably: they may point into it.
        // SAFETY: as above.
        let target = unsafe { read_target(effector_position, effector_rotation, joint_target) }?;
        // SAFETY: as above.
        unsafe { check_result_ptr(out_result) }?;
        // SAFETY: `chain` holds three transforms per the contract; null/alignment checked.
        let chain = unsafe { arg_mut(chain, "chain") }?;
        // Solved in place: the core reads and writes the packed transforms' fields.
        let result = solver.inner.solve(chain, &target)?;
        // SAFETY: as above.
        unsafe { write_result(out_result, result) }
    })
}

/// Solves `chain_count` independent chains of three model-space transforms (root, joint, end;
/// `chains` holds `3 * chain_count`), each toward its own effector: one call for a crowd,
/// four chains per SIMD pass. Each chain's result equals `sinew_two_bone_ik_solve`'s bit for
/// bit (single solves run the same kernel on one lane). `effector_positions` is
/// required; `effector_rotations`, `joint_targets` (poles) and `out_results` may be NULL
/// (none for every chain). Every input is checked before anything is written, so bad input
/// leaves every array untouched. If a chain's result is not representable it is left
/// untouched with its result entry, the other chains are solved, and
/// `SINEW_STATUS_NUMERIC_OVERFLOW` names the first such chain (pre-fill `out_results` with a
/// marker to find them all). Allocates nothing.
///
/// # Safety
/// Non-NULL arrays must hold `chain_count` items (`chains`: `3 * chain_count`).
#[no_mangle]
pub unsafe extern "C" fn sinew_two_bone_ik_solve_batch(
    solver: *mut SinewTwoBoneIk,
    chains: *mut SinewTransform,
    chain_count: u32,
    effector_positions: *const SinewVec3,
    effector_rotations: *const SinewQuat,
    joint_targets: *const SinewVec3,
    out_results: *mut SinewIkResult,
) -> SinewStatus {
    guard(|| {
        // SAFETY: caller's contract; null/alignment checked.
        let solver = unsafe { arg(solver, "solver") }?;
        let mut arrays = TwoBoneArrays {
            chains,
            poles: joint_targets,
            targets: TargetArrays {
                count: chain_count,
                positions: effector_positions,
                rotations: effector_rotations,
                results: out_results,
            },
        };
        arrays.check()?;
        solver.inner.solve_batch_with(&mut arrays)?;
        Ok(())
    })
}

/// Solves joints `root`, `joint`, `end` of `pose` (each the parent of the next) toward a
/// model-space effector and writes their local rotations back (and translations when
/// stretching). Optional arguments as in `sinew_two_bone_ik_solve`.
///
/// # Safety
/// Non-NULL pointers must be valid.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn sinew_two_bone_ik_solve_pose(
    solver: *mut SinewTwoBoneIk,
    pose: *mut SinewPose,
    root: u32,
    joint: u32,
    end: u32,
    effector_position: *const SinewVec3,
    effector_rotation: *const SinewQuat,
    joint_target: *const SinewVec3,
    out_result: *mut SinewIkResult,
) -> SinewStatus {
    guard(|| {
        // SAFETY: caller's contract; null/alignment checked.
        let (solver, pose) = unsafe { (arg(solver, "solver")?, arg_mut(pose, "pose")?) };
        // SAFETY: as above.
        let target = unsafe { read_target(effector_position, effector_rotation, joint_target) }?;
        // SAFETY: as above.
        unsafe { check_result_ptr(out_result) }?;
        let joints = [root, joint, end];
        let result = solver.inner.solve_pose(&mut pose.inner, joints, &target)?;
        // SAFETY: as above.
        unsafe { write_result(out_result, result) }
    })
}
