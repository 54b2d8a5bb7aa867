//! The bodies of the exports FABRIK, CCD and aim chains share (create, set a constraint, solve
//! a chain, a batch or a pose), generic over the handle; each export is a documented call into
//! these.

use glam::Quat;

use super::args::{arg_slice, arg_slice_mut, check_pointer, opt_arg};
use super::batch::{ChainArrays, Target};
use super::constraint::{read_constraint, SinewJointConstraint};
use super::guard::{guard, FfiResult};
use super::handle::{update, Handle};
use super::pose::SinewPose;
use super::settings::Solver;
use super::status::SinewStatus;
use super::types::{SinewQuat, SinewTransform};
use crate::ik::chain::{self as ik_chain, ChainSolver, ConstrainedSolver};
use crate::ik::chain_batch;
use crate::ik::TwoBoneTarget;
use crate::transform::Transform;
use crate::{Error, ErrorKind};

/// A chain solver handle: the solver plus a buffer of `max_joints` transforms allocated at
/// creation, through which C chains are converted without allocating.
pub(crate) trait ChainHandle: Solver {
    /// The core solver.
    type Solver: ChainSolver<Target: From<TwoBoneTarget>>;
    /// The solver and the conversion buffer.
    fn parts(&mut self) -> (&mut <Self as ChainHandle>::Solver, &mut [Transform]);
}

/// Declares `$handle` (fields `inner: $solver` and `chain: Vec<Transform>`) a chain solver
/// handle with C settings `$settings`, made from a `$solver`.
macro_rules! chain_handle {
    ($handle:ty, $solver:ty, $settings:ty) => {
        $crate::ffi::settings::solver_handle!($handle, "solver", $settings);

        impl From<$solver> for $handle {
            fn from(inner: $solver) -> Self {
                let chain = vec![Transform::IDENTITY; inner.max_joints()];
                Self { inner, chain }
            }
        }

        impl $crate::ffi::chain::ChainHandle for $handle {
            type Solver = $solver;
            fn parts(&mut self) -> (&mut $solver, &mut [Transform]) {
                (&mut self.inner, &mut self.chain)
            }
        }
    };
}
pub(crate) use chain_handle;

/// Body of `sinew_<solver>_set_constraint`.
pub(crate) unsafe fn set_constraint<H: ChainHandle<Solver: ConstrainedSolver>>(
    handle: *mut H,
    joint: u32,
    constraint: *const SinewJointConstraint,
) -> SinewStatus {
    let set = |h: &mut H| {
        let constraint = unsafe { read_constraint(constraint) }?;
        let work = h.parts().0.work_mut();
        Ok(work.set_constraint(joint as usize, constraint)?)
    };
    unsafe { update(handle, set) }
}

/// Body of `sinew_<solver>_solve`: converts the C chain through the handle's buffer, solves,
/// converts back only on success.
pub(crate) unsafe fn solve<H: ChainHandle>(
    handle: *mut H,
    chain: *mut SinewTransform,
    count: u32,
    root_parent_rotation: *const SinewQuat,
    target: Target,
) -> SinewStatus {
    guard(|| {
        // SAFETY: the chain is borrowed only after every other input is read: they may point
        // into it.
        unsafe {
            let (solver, buffer) = H::get_mut(handle)?.parts();
            if count > 0 {
                check_pointer(chain.cast_const(), "chain")?;
            }
            let parent = read_parent_rotation(root_parent_rotation)?;
            target.solve(|target| {
                let chain = arg_slice_mut(chain, count, "chain")?;
                let buffer = fit(chain.len(), buffer)?;
                for (dst, src) in buffer.iter_mut().zip(chain.iter()) {
                    *dst = (*src).into();
                }
                let result = solver.solve_chain(buffer, parent, &target.into())?;
                for (dst, src) in chain.iter_mut().zip(buffer.iter()) {
                    *dst = (*src).into();
                }
                Ok(result)
            })
        }
    })
}

/// The first `joints` transforms of the handle's conversion buffer, or an error when chains
/// of `joints` exceed its max_joints.
fn fit(joints: usize, buffer: &mut [Transform]) -> FfiResult<&mut [Transform]> {
    let max = buffer.len();
    buffer.get_mut(..joints).ok_or_else(|| {
        let message = format!("chain of {joints} joints exceeds the solver's max_joints {max}");
        Error::new(ErrorKind::OutOfRange, message).into()
    })
}

/// Body of `sinew_<solver>_solve_batch`.
pub(crate) unsafe fn solve_batch<H: ChainHandle>(
    handle: *mut H,
    chains: ChainArrays,
    targets: Target,
) -> SinewStatus {
    guard(|| {
        let (solver, buffer) = unsafe { H::get_mut(handle) }?.parts();
        let mut batch = chains.converted(targets, buffer)?;
        Ok(chain_batch::solve_batch(solver, chains.joints, &mut batch)?)
    })
}

/// Body of `sinew_<solver>_solve_pose`.
pub(crate) unsafe fn solve_pose<H: ChainHandle>(
    handle: *mut H,
    pose: *mut SinewPose,
    joints: *const u32,
    count: u32,
    target: Target,
) -> SinewStatus {
    guard(|| unsafe {
        let (handle, pose) = (H::get_mut(handle)?, SinewPose::get_mut(pose)?);
        let joints = arg_slice(joints, count, "joints")?;
        let (solver, pose) = (handle.parts().0, &mut pose.inner);
        let mut solve = |t: TwoBoneTarget| ik_chain::solve_pose(solver, pose, joints, &t.into());
        target.solve(|t| Ok(solve(t)?))
    })
}

/// Reads the optional model rotation of the chain root's parent (NULL is identity).
unsafe fn read_parent_rotation(p: *const SinewQuat) -> FfiResult<Quat> {
    let Some(&q) = unsafe { opt_arg(p, "root_parent_rotation") }? else {
        return Ok(Quat::IDENTITY);
    };
    let q = Quat::from(q);
    if !q.is_finite() {
        let message = "root_parent_rotation is not finite";
        return Err(Error::new(ErrorKind::NonFinite, message).into());
    }
    crate::rotation::normalize_robust(q).ok_or_else(|| {
        let message = "root_parent_rotation is a zero quaternion";
        Error::new(ErrorKind::InvalidArgument, message).into()
    })
}
