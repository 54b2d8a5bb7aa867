//! Glue shared by the FABRIK and CCD exports: moving a C chain through a handle's scratch
//! buffer, reading targets, writing results.

use glam::Quat;

use super::guard::{arg, arg_mut, arg_slice, arg_slice_mut, opt_arg, FfiResult};
use super::types::{SinewIkResult, SinewQuat, SinewTransform, SinewVec3};
use crate::ik::{ChainTarget, IkResult};
use crate::transform::Transform;

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

/// Checks an optional result pointer before anything is written, so a misaligned one fails
/// early.
///
/// # Safety
/// A non-null pointer must be valid.
pub(crate) unsafe fn check_result_ptr(out_result: *mut SinewIkResult) -> FfiResult<()> {
    if !out_result.is_null() {
        // SAFETY: forwarded contract.
        unsafe { arg_mut(out_result, "out_result") }?;
    }
    Ok(())
}

/// Writes a result if the caller asked for one.
///
/// # Safety
/// A non-null pointer must be valid (checked by [`check_result_ptr`]).
pub(crate) unsafe fn write_result(
    out_result: *mut SinewIkResult,
    result: IkResult,
) -> FfiResult<()> {
    if !out_result.is_null() {
        // SAFETY: forwarded contract.
        *unsafe { arg_mut(out_result, "out_result") }? = result.into();
    }
    Ok(())
}

/// Solves a C chain of `count` transforms through `buffer` (allocated at handle creation):
/// converts in, runs `solve`, converts back only on success.
///
/// # Safety
/// `chain` must hold `count` transforms; other non-null pointers must be valid.
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn solve_c_chain(
    buffer: &mut [Transform],
    chain: *mut SinewTransform,
    count: u32,
    root_parent_rotation: *const SinewQuat,
    effector_position: *const SinewVec3,
    effector_rotation: *const SinewQuat,
    out_result: *mut SinewIkResult,
    solve: impl FnOnce(&mut [Transform], Quat, &ChainTarget) -> crate::Result<IkResult>,
) -> FfiResult<()> {
    // SAFETY: forwarded contract.
    let chain = unsafe { arg_slice_mut(chain, count, "chain") }?;
    // SAFETY: forwarded contract.
    let target = unsafe { read_chain_target(effector_position, effector_rotation) }?;
    // SAFETY: forwarded contract.
    let parent = unsafe { opt_arg(root_parent_rotation, "root_parent_rotation") }?
        .map_or(Quat::IDENTITY, |&q| Quat::from(q).normalize());
    if !parent.is_finite() {
        return Err(crate::Error::new(
            crate::ErrorKind::NonFinite,
            "root_parent_rotation is not finite or is a zero quaternion",
        )
        .into());
    }
    // SAFETY: forwarded contract.
    unsafe { check_result_ptr(out_result) }?;
    if chain.len() > buffer.len() {
        return Err(too_long(chain.len(), buffer.len()).into());
    }
    let buffer = &mut buffer[..chain.len()];
    for (dst, src) in buffer.iter_mut().zip(chain.iter()) {
        *dst = (*src).into();
    }
    let result = solve(buffer, parent, &target)?;
    for (dst, src) in chain.iter_mut().zip(buffer.iter()) {
        *dst = (*src).into();
    }
    // SAFETY: checked above.
    unsafe { write_result(out_result, result) }
}

fn too_long(count: usize, max: usize) -> crate::Error {
    crate::Error::new(
        crate::ErrorKind::OutOfRange,
        format!("chain of {count} joints exceeds the solver's max_joints {max}"),
    )
}

/// Reads a pose-level chain's joint indices.
///
/// # Safety
/// `joints` must hold `count` items.
pub(crate) unsafe fn read_joints<'a>(joints: *const u32, count: u32) -> FfiResult<&'a [u32]> {
    // SAFETY: forwarded contract.
    unsafe { arg_slice(joints, count, "joints") }
}
