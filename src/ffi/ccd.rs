//! CCD exports (`SinewCcd`), shaped after Unreal's CCDIK node.

use super::batch::{ChainArrays, Target};
use super::chain::{self, chain_handle};
use super::constraint::SinewJointConstraint;
use super::handle::{destroy, update};
use super::pose::SinewPose;
use super::settings::{c_settings, create_solver, get_settings, set_settings, settings_default};
use super::status::SinewStatus;
use super::types::{SinewIkResult, SinewQuat, SinewTransform, SinewVec3};
use crate::ik::{Ccd, CcdJoint, CcdSettings};
use crate::transform::Transform;

/// CCD settings; fill with `sinew_ccd_settings_default` then adjust.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SinewCcdSettings {
    /// Reach tolerance (Unreal's Precision): relative to the chain length when
    /// `relative_precision` is 1, else in the caller's units. Default 1e-3, relative.
    pub precision: f32,
    /// 1: `precision` is a fraction of the chain length; 0: absolute. Default 1.
    pub relative_precision: u32,
    /// Most sweeps over the chain (Unreal's MaxIterations). Default 10.
    pub max_iterations: u32,
    /// 1: each sweep starts at the joint nearest the tip (Unreal's bStartFromTail). Default 1.
    pub start_from_tail: u32,
    /// 1: the root joint keeps its rotation, as in Unreal's node. Default 0 (it rotates).
    pub fix_root: u32,
    /// 1: stop when a sweep improves the error by less than 0.1 %. Default 1.
    pub stop_when_stalled: u32,
    /// A `SinewEndRotation` for the tip. Default KEEP_LOCAL.
    pub end_rotation: i32,
}

c_settings!(SinewCcdSettings => CcdSettings {
    precision, relative_precision, max_iterations, start_from_tail, fix_root, stop_when_stalled,
    end_rotation,
});

/// Opaque CCD solver with per-joint constraints and scratch memory for up to its
/// `max_joints`. Owned by the caller; use from one thread at a time.
pub struct SinewCcd {
    inner: Ccd,
    chain: Vec<Transform>,
}
chain_handle!(SinewCcd, Ccd, SinewCcdSettings);

/// Fills `out` with the defaults. NULL is ignored.
#[no_mangle]
pub unsafe extern "C" fn sinew_ccd_settings_default(out: *mut SinewCcdSettings) {
    unsafe { settings_default(out) }
}

/// Creates a solver for chains of 2 to `max_joints` joints; all memory is allocated here.
#[no_mangle]
pub unsafe extern "C" fn sinew_ccd_create(
    settings: *const SinewCcdSettings,
    max_joints: u32,
    out_solver: *mut *mut SinewCcd,
) -> SinewStatus {
    let new = |s| Ccd::new(s, max_joints as usize);
    unsafe { create_solver(settings, out_solver, new) }
}

/// Releases a solver. NULL is a no-op.
#[no_mangle]
pub unsafe extern "C" fn sinew_ccd_destroy(solver: *mut SinewCcd) {
    unsafe { destroy(solver) }
}

/// Copies the solver's settings.
#[no_mangle]
pub unsafe extern "C" fn sinew_ccd_get_settings(
    solver: *const SinewCcd,
    out_settings: *mut SinewCcdSettings,
) -> SinewStatus {
    unsafe { get_settings(solver, out_settings) }
}

/// Replaces the solver's settings; unchanged on error.
#[no_mangle]
pub unsafe extern "C" fn sinew_ccd_set_settings(
    solver: *mut SinewCcd,
    settings: *const SinewCcdSettings,
) -> SinewStatus {
    unsafe { set_settings(solver, settings) }
}

/// Sets the constraint of chain joint `joint` (0 is the chain's root); NULL clears it.
#[no_mangle]
pub unsafe extern "C" fn sinew_ccd_set_constraint(
    solver: *mut SinewCcd,
    joint: u32,
    constraint: *const SinewJointConstraint,
) -> SinewStatus {
    unsafe { chain::set_constraint(solver, joint, constraint) }
}

/// Sets chain joint `joint`'s rotation limit (degrees its local rotation may turn from the
/// input during a solve, in [0, 180]; 180 is unlimited, Unreal's RotationLimitPerJoints) and
/// weight (fraction of each step it takes, in [0, 1]; below 1 damps it). Constraints win: where
/// the input breaks the joint's constraint, the limit counts from the input's projection onto
/// it. The tip's rotation follows `end_rotation` instead.
#[no_mangle]
pub unsafe extern "C" fn sinew_ccd_set_joint(
    solver: *mut SinewCcd,
    joint: u32,
    rotation_limit_degrees: f32,
    weight: f32,
) -> SinewStatus {
    let tuning = CcdJoint {
        rotation_limit_degrees,
        weight,
    };
    unsafe { update(solver, |s| Ok(s.inner.set_joint(joint as usize, tuning)?)) }
}

/// Solves `joint_count` model-space transforms (root first; the root stays in place) toward
/// `effector_position` with CCD sweeps, otherwise exactly as `sinew_fabrik_solve`: the same
/// optional arguments, closing step, straight-chain rule and untouched outputs on error.
///
/// # Safety
/// `chain` must hold `joint_count` transforms.
#[no_mangle]
pub unsafe extern "C" fn sinew_ccd_solve(
    solver: *mut SinewCcd,
    chain: *mut SinewTransform,
    joint_count: u32,
    root_parent_rotation: *const SinewQuat,
    effector_position: *const SinewVec3,
    effector_rotation: *const SinewQuat,
    out_result: *mut SinewIkResult,
) -> SinewStatus {
    let target = Target::new(effector_position, effector_rotation, out_result);
    unsafe { chain::solve(solver, chain, joint_count, root_parent_rotation, target) }
}

/// Solves `chain_count` independent chains of `joint_count` model-space transforms stored back
/// to back in `chains`, each exactly like `sinew_ccd_solve`, with the arrays, checks,
/// overflow rule and `joint_count` range of `sinew_fabrik_solve_batch`. Allocates nothing;
/// the handle's buffers make it single-threaded per handle.
///
/// # Safety
/// Non-NULL arrays must hold `chain_count` items (`chains`: `chain_count * joint_count`).
#[no_mangle]
pub unsafe extern "C" fn sinew_ccd_solve_batch(
    solver: *mut SinewCcd,
    chains: *mut SinewTransform,
    joint_count: u32,
    chain_count: u32,
    root_parent_rotations: *const SinewQuat,
    effector_positions: *const SinewVec3,
    effector_rotations: *const SinewQuat,
    out_results: *mut SinewIkResult,
) -> SinewStatus {
    let chains = ChainArrays::new(chains, joint_count, chain_count, root_parent_rotations);
    let targets = Target::new(effector_positions, effector_rotations, out_results);
    unsafe { chain::solve_batch(solver, chains, targets) }
}

/// Solves joints `joints[0..joint_count]` of `pose` (root to tip, each the parent of the next)
/// toward a model-space effector and writes their local rotations back.
///
/// # Safety
/// `joints` must hold `joint_count` items.
#[no_mangle]
pub unsafe extern "C" fn sinew_ccd_solve_pose(
    solver: *mut SinewCcd,
    pose: *mut SinewPose,
    joints: *const u32,
    joint_count: u32,
    effector_position: *const SinewVec3,
    effector_rotation: *const SinewQuat,
    out_result: *mut SinewIkResult,
) -> SinewStatus {
    let target = Target::new(effector_position, effector_rotation, out_result);
    unsafe { chain::solve_pose(solver, pose, joints, joint_count, target) }
}
