//! The bodies of the exports FABRIK and CCD share (set a constraint, solve a chain, solve a
//! pose), generic over the handle; each export is a documented one-line call into these.

use glam::Quat;

use super::batch::{ChainArrays, TargetArrays};
use super::constraint::{read_constraint, SinewJointConstraint};
use super::guard::{
    arg, arg_mut, arg_slice, arg_slice_mut, check_pointer, guard, opt_arg, FfiResult,
};
use super::pose::SinewPose;
use super::status::SinewStatus;
use super::types::{
    check_result_ptr, write_result, SinewIkResult, SinewQuat, SinewTransform, SinewVec3,
};
use crate::ik::chain::ChainSolver;
use crate::ik::ChainTarget;
use crate::transform::Transform;

/// A chain solver handle: the solver plus a buffer of `max_joints` transforms allocated at
/// creation, through which C chains are converted without allocating.
pub(crate) trait ChainHandle {
    /// The core solver.
    type Solver: ChainSolver;
    /// The solver and the conversion buffer.
    fn parts(&mut self) -> (&mut Self::Solver, &mut [Transform]);
}

/// Body of `sinew_<solver>_set_constraint`.
///
/// # Safety
/// Non-null pointers must be valid.
pub(crate) unsafe fn set_constraint<H: ChainHandle>(
    handle: *mut H,
    joint: u32,
    constraint: *const SinewJointConstraint,
) -> SinewStatus {
    guard(|| {
        // SAFETY: caller's contract; null/alignment checked.
        let handle = unsafe { arg_mut(handle, "solver") }?;
        // SAFETY: as above.
        let constraint = unsafe { read_constraint(constraint) }?;
        handle
            .parts()
            .0
            .work_mut()
            .set_constraint(joint as usize, constraint)?;
        Ok(())
    })
}

/// Body of `sinew_<solver>_solve`: converts the C chain through the handle's buffer, solves,
/// converts back only on success.
///
/// # Safety
/// `chain` must hold `count` transforms; other non-null pointers must be valid.
pub(crate) unsafe fn solve<H: ChainHandle>(
    handle: *mut H,
    chain: *mut SinewTransform,
    count: u32,
    root_parent_rotation: *const SinewQuat,
    effector_position: *const SinewVec3,
    effector_rotation: *const SinewQuat,
    out_result: *mut SinewIkResult,
) -> SinewStatus {
    guard(|| {
        // SAFETY: caller's contract; null/alignment checked.
        let (solver, buffer) = unsafe { arg_mut(handle, "solver") }?.parts();
        if count > 0 {
            check_pointer(chain.cast_const(), "chain")?;
        }
        // Inputs are read before the chain is borrowed mutably: they may point into it.
        // SAFETY: as above.
        let target = unsafe { read_chain_target(effector_position, effector_rotation) }?;
        // SAFETY: as above.
        let parent = unsafe { read_parent_rotation(root_parent_rotation) }?;
        // SAFETY: as above.
        unsafe { check_result_ptr(out_result) }?;
        // SAFETY: as above.
        let chain = unsafe { arg_slice_mut(chain, count, "chain") }?;
        check_fits(chain.len(), buffer)?;
        let buffer = &mut buffer[..chain.len()];
        for (dst, src) in buffer.iter_mut().zip(chain.iter()) {
            *dst = (*src).into();
        }
        let result = solver.solve_chain(buffer, parent, &target)?;
        for (dst, src) in chain.iter_mut().zip(buffer.iter()) {
            *dst = (*src).into();
        }
        // SAFETY: checked above.
        unsafe { write_result(out_result, result) }
    })
}

/// Fails unless chains of `joints` fit the handle's conversion buffer (its max_joints).
fn check_fits(joints: usize, buffer: &[Transform]) -> FfiResult<()> {
    if joints > buffer.len() {
        return Err(crate::Error::new(
            crate::ErrorKind::OutOfRange,
            format!(
                "chain of {joints} joints exceeds the solver's max_joints {}",
                buffer.len()
            ),
        )
        .into());
    }
    Ok(())
}

/// The body of `sinew_fabrik_solve_batch` and `sinew_ccd_solve_batch`.
///
/// # Safety
/// As documented on those exports.
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn solve_batch<H: ChainHandle>(
    handle: *mut H,
    chains: *mut SinewTransform,
    joint_count: u32,
    chain_count: u32,
    root_parent_rotations: *const SinewQuat,
    effector_positions: *const SinewVec3,
    effector_rotations: *const SinewQuat,
    out_results: *mut SinewIkResult,
) -> SinewStatus {
    guard(|| {
        // SAFETY: caller's contract; null/alignment checked.
        let (solver, buffer) = unsafe { arg_mut(handle, "solver") }?.parts();
        let mut arrays = ChainArrays {
            chains,
            joints: joint_count as usize,
            parents: root_parent_rotations,
            targets: TargetArrays {
                count: chain_count,
                positions: effector_positions,
                rotations: effector_rotations,
                results: out_results,
            },
            buffer,
        };
        arrays.check()?;
        crate::ik::chain_batch::solve_batch(solver, joint_count as usize, &mut arrays)?;
        Ok(())
    })
}

/// Body of `sinew_<solver>_solve_pose`.
///
/// # Safety
/// `joints` must hold `count` items; other non-null pointers must be valid.
pub(crate) unsafe fn solve_pose<H: ChainHandle>(
    handle: *mut H,
    pose: *mut SinewPose,
    joints: *const u32,
    count: u32,
    effector_position: *const SinewVec3,
    effector_rotation: *const SinewQuat,
    out_result: *mut SinewIkResult,
) -> SinewStatus {
    guard(|| {
        // SAFETY: caller's contract; null/alignment checked.
        let (handle, pose) = unsafe { (arg_mut(handle, "solver")?, arg_mut(pose, "pose")?) };
        // SAFETY: as above.
        let joints = unsafe { arg_slice(joints, count, "joints") }?;
        // SAFETY: as above.
        let target = unsafe { read_chain_target(effector_position, effector_rotation) }?;
        // SAFETY: as above.
        unsafe { check_result_ptr(out_result) }?;
        let result =
            crate::ik::chain::solve_pose(handle.parts().0, &mut pose.inner, joints, &target)?;
        // SAFETY: checked above.
        unsafe { write_result(out_result, result) }
    })
}

/// Reads the optional model rotation of the chain root's parent (NULL is identity).
///
/// # Safety
/// A non-null pointer must be valid.
unsafe fn read_parent_rotation(p: *const SinewQuat) -> FfiResult<Quat> {
    // SAFETY: forwarded contract.
    let Some(&q) = unsafe { opt_arg(p, "root_parent_rotation") }? else {
        return Ok(Quat::IDENTITY);
    };
    let q = Quat::from(q);
    if !q.is_finite() {
        return Err(crate::Error::new(
            crate::ErrorKind::NonFinite,
            "root_parent_rotation is not finite",
        )
        .into());
    }
    crate::rotation::normalize_robust(q).ok_or_else(|| {
        crate::Error::new(
            crate::ErrorKind::InvalidArgument,
            "root_parent_rotation is a zero quaternion",
        )
        .into()
    })
}

/// Reads a chain target: a required position and an optional rotation.
///
/// # Safety
/// Non-null pointers must be valid.
pub(crate) unsafe fn read_chain_target(
    effector_position: *const SinewVec3,
    effector_rotation: *const SinewQuat,
) -> FfiResult<ChainTarget> {
    // SAFETY: forwarded contract; null/alignment checked.
    unsafe {
        Ok(ChainTarget {
            position: (*arg(effector_position, "effector_position")?).into(),
            rotation: opt_arg(effector_rotation, "effector_rotation")?.map(|&q| q.into()),
        })
    }
}
