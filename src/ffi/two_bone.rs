//! Two-bone IK exports (`SinewTwoBoneIk`), shaped after Unreal's TwoBoneIK node.

use super::args::{arg_mut, check_pointer};
use super::batch::{Target, TwoBoneArrays, TwoBoneSoa};
use super::guard::guard;
use super::handle::{destroy, Handle};
use super::pose::SinewPose;
use super::settings::{c_settings, solver_handle};
use super::settings::{create_solver, get_settings, set_settings, settings_default};
use super::status::SinewStatus;
use super::types::{
    SinewIkResult, SinewQuat, SinewSoaQuat, SinewSoaTransform, SinewSoaVec3, SinewTransform,
    SinewVec3,
};
use crate::ik::{TwoBoneIk, TwoBoneIkSettings};

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

c_settings!(SinewTwoBoneIkSettings => TwoBoneIkSettings {
    weight, allow_stretching, start_stretch_ratio, max_stretch_scale, end_rotation, soften,
    keep_twist, pole_weight,
});

/// Opaque two-bone IK solver. Owned by the caller; one solver may serve many chains but should
/// be used from one thread at a time.
pub struct SinewTwoBoneIk {
    inner: TwoBoneIk,
}
solver_handle!(SinewTwoBoneIk, "solver", SinewTwoBoneIkSettings, TwoBoneIk);

/// Fills `out` with the defaults (Unreal's TwoBoneIK node defaults). NULL is ignored.
#[no_mangle]
pub unsafe extern "C" fn sinew_two_bone_ik_settings_default(out: *mut SinewTwoBoneIkSettings) {
    unsafe { settings_default(out) }
}

/// Creates a solver with validated settings.
#[no_mangle]
pub unsafe extern "C" fn sinew_two_bone_ik_create(
    settings: *const SinewTwoBoneIkSettings,
    out_solver: *mut *mut SinewTwoBoneIk,
) -> SinewStatus {
    unsafe { create_solver(settings, out_solver, TwoBoneIk::new) }
}

/// Releases a solver. NULL is a no-op.
#[no_mangle]
pub unsafe extern "C" fn sinew_two_bone_ik_destroy(solver: *mut SinewTwoBoneIk) {
    unsafe { destroy(solver) }
}

/// Copies the solver's settings.
#[no_mangle]
pub unsafe extern "C" fn sinew_two_bone_ik_get_settings(
    solver: *const SinewTwoBoneIk,
    out_settings: *mut SinewTwoBoneIkSettings,
) -> SinewStatus {
    unsafe { get_settings(solver, out_settings) }
}

/// Replaces the solver's settings; unchanged on error.
#[no_mangle]
pub unsafe extern "C" fn sinew_two_bone_ik_set_settings(
    solver: *mut SinewTwoBoneIk,
    settings: *const SinewTwoBoneIkSettings,
) -> SinewStatus {
    unsafe { set_settings(solver, settings) }
}

/// Solves a chain of three model-space transforms (root, joint, end) in place toward
/// `effector_position`. `effector_rotation` (used by `SINEW_END_ROTATION_COPY_EFFECTOR`) and
/// `joint_target` (the pole: the joint bends toward it) may be NULL, as may `out_result`.
/// Without a pole the joint keeps the chain's bend: the direction of the joint's offset from
/// the root-end line, turned by the minimal rotation from the root-end direction onto the
/// root-target direction. On error `chain` and `out_result` are untouched.
///
/// # Safety
/// `chain` must hold 3 transforms.
#[no_mangle]
pub unsafe extern "C" fn sinew_two_bone_ik_solve(
    solver: *mut SinewTwoBoneIk,
    chain: *mut SinewTransform,
    effector_position: *const SinewVec3,
    effector_rotation: *const SinewQuat,
    joint_target: *const SinewVec3,
    out_result: *mut SinewIkResult,
) -> SinewStatus {
    let target = Target::new(effector_position, effector_rotation, out_result);
    guard(|| {
        let chain = chain.cast::<[SinewTransform; 3]>();
        // SAFETY: `chain` holds three transforms, borrowed only after every other read.
        unsafe {
            let solver = SinewTwoBoneIk::get(solver)?;
            check_pointer(chain.cast_const(), "chain")?;
            // Solved in place: the core reads and writes the packed transforms' fields.
            let solve = |t| Ok(solver.inner.solve(arg_mut(chain, "chain")?, &t)?);
            target.with_pole(joint_target).solve(solve)
        }
    })
}

/// Solves `chain_count` independent chains of three model-space transforms (root, joint, end;
/// `chains` holds `3 * chain_count`), each toward its own effector: one call for a crowd,
/// four chains per pass of four-wide lanes. Each chain's result equals `sinew_two_bone_ik_solve`'s bit for
/// bit (single solves run the same kernel, per component in the same order, on one chain). `effector_positions` is
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
    let targets = Target::new(effector_positions, effector_rotations, out_results);
    let targets = targets.with_pole(joint_targets);
    guard(|| {
        let solver = unsafe { SinewTwoBoneIk::get(solver) }?;
        let mut arrays = TwoBoneArrays::new(chains, chain_count, targets)?;
        Ok(solver.inner.solve_batch_with(&mut arrays)?)
    })
}

/// `sinew_two_bone_ik_solve_batch` for chains stored in structure-of-arrays blocks of four
/// (ozz's `SoaTransform` layout): group `g` holds chains `4g..4g+3` in lanes 0 to 3 of
/// `chains[3g]` (roots), `chains[3g + 1]` (joints) and `chains[3g + 2]` (ends), with their
/// effector positions in lanes of `effector_positions[g]`, and likewise the optional
/// `effector_rotations` and `joint_targets` (one block per group, NULL for none).
/// `out_results` (optional) holds one `SinewIkResult` per chain, in chain order. Only lanes
/// below `chain_count` are solved: the last block's other lanes are read but never written,
/// whatever they hold. Each chain's result equals `sinew_two_bone_ik_solve_batch`'s (and
/// `sinew_two_bone_ik_solve`'s) for the same chain bit for bit; checks, errors and overflow
/// as in `sinew_two_bone_ik_solve_batch`. Allocates nothing.
///
/// # Safety
/// Non-NULL arrays must hold `(chain_count + 3) / 4` blocks (`chains`: three per group;
/// `out_results`: `chain_count` items).
#[no_mangle]
pub unsafe extern "C" fn sinew_two_bone_ik_solve_batch_soa(
    solver: *mut SinewTwoBoneIk,
    chains: *mut SinewSoaTransform,
    chain_count: u32,
    effector_positions: *const SinewSoaVec3,
    effector_rotations: *const SinewSoaQuat,
    joint_targets: *const SinewSoaVec3,
    out_results: *mut SinewIkResult,
) -> SinewStatus {
    guard(|| {
        let solver = unsafe { SinewTwoBoneIk::get(solver) }?;
        let mut blocks = TwoBoneSoa::new(
            chains,
            chain_count,
            effector_positions,
            effector_rotations,
            joint_targets,
            out_results,
        )?;
        Ok(solver.inner.solve_batch_with(&mut blocks)?)
    })
}

/// Solves joints `root`, `joint`, `end` of `pose` (each the parent of the next) toward a
/// model-space effector and writes their local rotations back (and translations when
/// stretching). Optional arguments as in `sinew_two_bone_ik_solve`.
#[no_mangle]
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
    let target = Target::new(effector_position, effector_rotation, out_result);
    guard(|| unsafe {
        let (solver, pose) = (SinewTwoBoneIk::get(solver)?, SinewPose::get_mut(pose)?);
        let solve = |t| {
            Ok(solver
                .inner
                .solve_pose(&mut pose.inner, [root, joint, end], &t)?)
        };
        target.with_pole(joint_target).solve(solve)
    })
}
