//! Aim / look-at exports (`SinewAimIk`): a chain (spine to head, or one joint) turned so an
//! aim axis of its last joint points at a target.

use super::batch::{ChainArrays, Target};
use super::chain::{self, chain_handle};
use super::handle::{destroy, update};
use super::pose::SinewPose;
use super::settings::{c_settings, create_solver, get_settings, set_settings, settings_default};
use super::status::SinewStatus;
use super::types::{SinewIkResult, SinewTransform, SinewVec3};
use crate::ik::{AimIk, AimIkSettings, AimJoint};
use crate::transform::Transform;

/// Aim settings; fill with `sinew_aim_ik_settings_default` then adjust. The README section
/// "Aim and look-at" states every rule.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SinewAimIkSettings {
    /// Direction in the last joint's frame that points at the target; not zero (normalized).
    /// Default +X (the bone axis, Unreal's LookAt default).
    pub aim_axis: SinewVec3,
    /// Direction in the last joint's frame turned toward the up target; not parallel to
    /// `aim_axis` (its part perpendicular to it counts). Default +Y.
    pub up_axis: SinewVec3,
    /// The aim origin in the last joint's frame (scaled by its scale): a muzzle, the eyes; it
    /// need not lie on the aim axis. Default 0 (the joint).
    pub aim_offset: SinewVec3,
    /// 1: the up target is a model-space position (a pole); 0: a direction. Default 0.
    pub up_is_position: u32,
    /// Overall weight (alpha) in [0, 1]: every joint turns by this fraction of its share (the
    /// roll too). Default 1.
    pub weight: f32,
    /// Largest turn of the aim direction from the input's, in degrees in [0, 180]; 180 is
    /// unlimited. Default 180.
    pub max_angle_degrees: f32,
    /// Residual angle in radians under which the aim counts as reached and passes stop;
    /// positive. Default 1e-4.
    pub tolerance: f32,
    /// Most passes (an offset origin moves as the chain turns; each pass corrects for it);
    /// at least 1. Passes also stop once one gains less than 0.1 % on the best residual so
    /// far. Default 16.
    pub max_iterations: u32,
}

c_settings!(SinewAimIkSettings => AimIkSettings {
    aim_axis, up_axis, aim_offset, up_is_position, weight, max_angle_degrees, tolerance,
    max_iterations,
});

/// Opaque aim solver with per-joint weights and limits and scratch memory for up to its
/// `max_joints`. Owned by the caller; use from one thread at a time.
pub struct SinewAimIk {
    inner: AimIk,
    chain: Vec<Transform>,
}
chain_handle!(SinewAimIk, AimIk, SinewAimIkSettings);

/// Fills `out` with the defaults. NULL is ignored.
#[no_mangle]
pub unsafe extern "C" fn sinew_aim_ik_settings_default(out: *mut SinewAimIkSettings) {
    unsafe { settings_default(out) }
}

/// Creates a solver for chains of 1 to `max_joints` joints, every joint at weight 1 and
/// unlimited; all memory is allocated here.
#[no_mangle]
pub unsafe extern "C" fn sinew_aim_ik_create(
    settings: *const SinewAimIkSettings,
    max_joints: u32,
    out_solver: *mut *mut SinewAimIk,
) -> SinewStatus {
    let new = |s| AimIk::new(s, max_joints as usize);
    unsafe { create_solver(settings, out_solver, new) }
}

/// Releases a solver. NULL is a no-op.
#[no_mangle]
pub unsafe extern "C" fn sinew_aim_ik_destroy(solver: *mut SinewAimIk) {
    unsafe { destroy(solver) }
}

/// Copies the solver's settings.
#[no_mangle]
pub unsafe extern "C" fn sinew_aim_ik_get_settings(
    solver: *const SinewAimIk,
    out_settings: *mut SinewAimIkSettings,
) -> SinewStatus {
    unsafe { get_settings(solver, out_settings) }
}

/// Replaces the solver's settings; unchanged on error.
#[no_mangle]
pub unsafe extern "C" fn sinew_aim_ik_set_settings(
    solver: *mut SinewAimIk,
    settings: *const SinewAimIkSettings,
) -> SinewStatus {
    unsafe { set_settings(solver, settings) }
}

/// Sets chain joint `joint`'s share of the turn (`weight`, at least 0; 0: it does not turn;
/// default 1) and its limit (`max_angle_degrees`, the largest turn from its input rotation,
/// in [0, 180]; default 180). Joint `i` turns `min(limit_i, lambda * weight_i)` with one
/// `lambda` for the chain, so the turns add up to the whole turn.
#[no_mangle]
pub unsafe extern "C" fn sinew_aim_ik_set_joint(
    solver: *mut SinewAimIk,
    joint: u32,
    weight: f32,
    max_angle_degrees: f32,
) -> SinewStatus {
    let tuning = AimJoint {
        weight,
        max_angle_degrees,
    };
    unsafe { update(solver, |s| Ok(s.inner.set_joint(joint as usize, tuning)?)) }
}

/// Turns `joint_count` model-space transforms (root first, each the parent of the next; the
/// root stays in place) so the last joint's aim axis, from its aim origin, points at
/// `target_position`. `up_target` (NULL: minimal roll) is a direction, or a position when
/// `up_is_position`, that the last joint's up axis rolls toward. `out_result` may be NULL;
/// its `error` is the residual angle in radians between the aim axis and the direction from
/// the aim origin to the target, `reached` is `error <= tolerance`. The whole turn is one
/// rotation (the minimal arc, corrected pass by pass as an offset origin moves), limited by
/// `max_angle_degrees` and the joints' limits (past them the chain holds at the limit, then
/// eases back to the input as the target reaches exactly behind) and shared out by weight
/// about one axis. On error `chain` and `out_result` are untouched.
///
/// # Safety
/// `chain` must hold `joint_count` transforms.
#[no_mangle]
pub unsafe extern "C" fn sinew_aim_ik_solve(
    solver: *mut SinewAimIk,
    chain: *mut SinewTransform,
    joint_count: u32,
    target_position: *const SinewVec3,
    up_target: *const SinewVec3,
    out_result: *mut SinewIkResult,
) -> SinewStatus {
    let target = Target::aim(target_position, up_target, out_result);
    unsafe { chain::solve(solver, chain, joint_count, std::ptr::null(), target) }
}

/// Solves `chain_count` independent chains of `joint_count` model-space transforms stored back
/// to back in `chains`, each exactly like `sinew_aim_ik_solve`: one call for a crowd.
/// Per-chain arrays: `target_positions` (required), `up_targets` (NULL: none for every chain)
/// and `out_results` (NULL: not reported). Every input is checked before anything is written;
/// a chain whose result is not representable is left untouched with its result entry, the
/// others are solved, and `SINEW_STATUS_NUMERIC_OVERFLOW` names the first such chain.
/// `joint_count` must be in 1..=max_joints even when `chain_count` is 0. Allocates nothing;
/// the handle's buffers make it single-threaded per handle.
///
/// # Safety
/// Non-NULL arrays must hold `chain_count` items (`chains`: `chain_count * joint_count`).
#[no_mangle]
pub unsafe extern "C" fn sinew_aim_ik_solve_batch(
    solver: *mut SinewAimIk,
    chains: *mut SinewTransform,
    joint_count: u32,
    chain_count: u32,
    target_positions: *const SinewVec3,
    up_targets: *const SinewVec3,
    out_results: *mut SinewIkResult,
) -> SinewStatus {
    let chains = ChainArrays::new(chains, joint_count, chain_count, std::ptr::null());
    let targets = Target::aim(target_positions, up_targets, out_results);
    unsafe { chain::solve_batch(solver, chains, targets) }
}

/// Solves joints `joints[0..joint_count]` of `pose` (root to tip, each the parent of the next)
/// like `sinew_aim_ik_solve` and writes their local rotations back.
///
/// # Safety
/// `joints` must hold `joint_count` items.
#[no_mangle]
pub unsafe extern "C" fn sinew_aim_ik_solve_pose(
    solver: *mut SinewAimIk,
    pose: *mut SinewPose,
    joints: *const u32,
    joint_count: u32,
    target_position: *const SinewVec3,
    up_target: *const SinewVec3,
    out_result: *mut SinewIkResult,
) -> SinewStatus {
    let target = Target::aim(target_position, up_target, out_result);
    unsafe { chain::solve_pose(solver, pose, joints, joint_count, target) }
}
