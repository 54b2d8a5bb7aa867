//! FABRIK exports (`SinewFabrik`), shaped after Unreal's FABRIK node.

use super::batch::{ChainArrays, Target};
use super::chain::{self, chain_handle};
use super::constraint::SinewJointConstraint;
use super::handle::destroy;
use super::pose::SinewPose;
use super::settings::{c_settings, create_solver, get_settings, set_settings, settings_default};
use super::status::SinewStatus;
use super::types::{SinewIkResult, SinewQuat, SinewTransform, SinewVec3};
use crate::ik::{Fabrik, FabrikSettings};
use crate::transform::Transform;

/// FABRIK settings; fill with `sinew_fabrik_settings_default` then adjust.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SinewFabrikSettings {
    /// Reach tolerance (Unreal's Precision): relative to the chain length when
    /// `relative_precision` is 1, else in the caller's units. Default 1e-3, relative.
    pub precision: f32,
    /// 1: `precision` is a fraction of the chain length; 0: absolute. Default 1.
    pub relative_precision: u32,
    /// Most iterations (Unreal's MaxIterations). Default 10.
    pub max_iterations: u32,
    /// 1: stop when an iteration improves the error by less than 0.1 %. Default 1.
    pub stop_when_stalled: u32,
    /// A `SinewEndRotation` for the tip (Unreal's EffectorRotationSource). Default KEEP_LOCAL.
    pub end_rotation: i32,
}

c_settings!(SinewFabrikSettings => FabrikSettings {
    precision, relative_precision, max_iterations, stop_when_stalled, end_rotation,
});

/// Opaque FABRIK solver with per-joint constraints and scratch memory for up to its
/// `max_joints`. Owned by the caller; use from one thread at a time.
pub struct SinewFabrik {
    inner: Fabrik,
    chain: Vec<Transform>,
}
chain_handle!(SinewFabrik, Fabrik, SinewFabrikSettings);

/// Fills `out` with the defaults. NULL is ignored.
#[no_mangle]
pub unsafe extern "C" fn sinew_fabrik_settings_default(out: *mut SinewFabrikSettings) {
    unsafe { settings_default(out) }
}

/// Creates a solver for chains of 2 to `max_joints` joints; all memory is allocated here.
#[no_mangle]
pub unsafe extern "C" fn sinew_fabrik_create(
    settings: *const SinewFabrikSettings,
    max_joints: u32,
    out_solver: *mut *mut SinewFabrik,
) -> SinewStatus {
    let new = |s| Fabrik::new(s, max_joints as usize);
    unsafe { create_solver(settings, out_solver, new) }
}

/// Releases a solver. NULL is a no-op.
#[no_mangle]
pub unsafe extern "C" fn sinew_fabrik_destroy(solver: *mut SinewFabrik) {
    unsafe { destroy(solver) }
}

/// Copies the solver's settings.
#[no_mangle]
pub unsafe extern "C" fn sinew_fabrik_get_settings(
    solver: *const SinewFabrik,
    out_settings: *mut SinewFabrikSettings,
) -> SinewStatus {
    unsafe { get_settings(solver, out_settings) }
}

/// Replaces the solver's settings; unchanged on error.
#[no_mangle]
pub unsafe extern "C" fn sinew_fabrik_set_settings(
    solver: *mut SinewFabrik,
    settings: *const SinewFabrikSettings,
) -> SinewStatus {
    unsafe { set_settings(solver, settings) }
}

/// Sets the constraint of chain joint `joint` (0 is the chain's root); NULL clears it.
#[no_mangle]
pub unsafe extern "C" fn sinew_fabrik_set_constraint(
    solver: *mut SinewFabrik,
    joint: u32,
    constraint: *const SinewJointConstraint,
) -> SinewStatus {
    unsafe { chain::set_constraint(solver, joint, constraint) }
}

/// Solves `joint_count` model-space transforms (root first; the root stays in place) toward
/// `effector_position`. `root_parent_rotation` (model rotation of the root's parent, which the
/// root's constraint is relative to; NULL is identity), `effector_rotation` and `out_result`
/// may be NULL. On error `chain` and `out_result` are untouched.
/// Made to run every frame from the previous output: an iteration that leaves the tip off the
/// target ends with a closing step (exact near full reach, damped least-squares steps
/// elsewhere; on constrained chains damped least-squares steps, only with the tip within 5 % of
/// the chain length of the target), which also runs first on the input when the tip is within
/// 5 % of the chain length of the target or, without constraints, the target lies beyond 90 %
/// of it (counted as one iteration). An unconstrained chain on the line from its root to the
/// target bends toward the root joint's local axis most perpendicular to its bone. See the
/// README, "Solving every frame".
///
/// # Safety
/// `chain` must hold `joint_count` transforms.
#[no_mangle]
pub unsafe extern "C" fn sinew_fabrik_solve(
    solver: *mut SinewFabrik,
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
/// to back in `chains`, each exactly like `sinew_fabrik_solve`: one call for a crowd. Per-chain arrays:
/// `effector_positions` (required), `root_parent_rotations` and `effector_rotations` (NULL:
/// identity / none for every chain) and `out_results` (NULL: not reported). Every input is
/// checked before anything is written, so bad input leaves every array untouched. If a
/// chain's result is not representable it is left untouched with its result entry, the
/// other chains are solved, and `SINEW_STATUS_NUMERIC_OVERFLOW` names the first such chain
/// (pre-fill `out_results` with a marker to find them all). `joint_count` must be in
/// 2..=max_joints even when `chain_count` is 0.
/// Allocates nothing; the handle's buffers make it single-threaded per handle.
///
/// # Safety
/// Non-NULL arrays must hold `chain_count` items (`chains`: `chain_count * joint_count`).
#[no_mangle]
pub unsafe extern "C" fn sinew_fabrik_solve_batch(
    solver: *mut SinewFabrik,
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
pub unsafe extern "C" fn sinew_fabrik_solve_pose(
    solver: *mut SinewFabrik,
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
