//! Multi-effector FABRIK exports (`SinewMultiFabrik`): a joint tree (a root and several end
//! joints) solved toward several weighted targets at once. See the README, "Multi-effector
//! FABRIK".

use super::args::{arg_slice, arg_slice_mut, check_pointer};
use super::constraint::{read_constraint, SinewJointConstraint};
use super::guard::{guard, FfiError, FfiResult};
use super::handle::{destroy, update, Handle};
use super::pose::SinewPose;
use super::settings::solver_handle;
use super::settings::{c_settings, create_solver, get_settings, set_settings, settings_default};
use super::skeleton::SinewSkeleton;
use super::status::SinewStatus;
use super::types::{SinewIkResult, SinewQuat, SinewTransform, SinewVec3};
use crate::ik::{EffectorTarget, IkResult, MultiFabrik, MultiFabrikSettings};

/// Multi-effector FABRIK settings; fill with `sinew_multi_fabrik_settings_default` then adjust.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SinewMultiFabrikSettings {
    /// Reach tolerance of every effector: relative to the tree's size (its longest path from
    /// the root to an effector) when `relative_precision` is 1, else in the caller's units.
    /// Default 1e-3, relative.
    pub precision: f32,
    /// 1: `precision` is a fraction of the tree's size; 0: absolute. Default 1.
    pub relative_precision: u32,
    /// Most iterations of an attempt; a solve that stops short of targets it may reach
    /// retries, up to six attempts in all (README, "Multi-effector FABRIK"). Default 30.
    pub max_iterations: u32,
    /// 1: stop after two iterations running that each improve the weighted error by less than
    /// 0.1 %. Default 1.
    pub stop_when_stalled: u32,
    /// A `SinewEndRotation` for effectors whose target has no rotation (`KEEP_LOCAL` or
    /// `KEEP_MODEL`; `COPY_EFFECTOR` keeps the local rotation too). Default KEEP_LOCAL.
    pub end_rotation: i32,
}

c_settings!(SinewMultiFabrikSettings => MultiFabrikSettings {
    precision, relative_precision, max_iterations, stop_when_stalled, end_rotation,
});

/// Where one effector joint should go, 36 bytes (Unity: `Vector3`, `Quaternion`, `float`,
/// `uint`). Every float must be finite, `rotation` too when it is not used.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SinewEffectorTarget {
    /// Model-space position.
    pub position: SinewVec3,
    /// Model rotation the effector joint takes when `use_rotation` is 1 (then its constraint).
    pub rotation: SinewQuat,
    /// How hard the effector pulls where branches meet: 0 or more; 0 turns it off (its branch
    /// keeps its input local rotations). Not all weights of a solve may be 0.
    pub weight: f32,
    /// 1: the effector takes `rotation`; 0: it follows the settings' `end_rotation`.
    pub use_rotation: u32,
}

const _: () = assert!(std::mem::size_of::<SinewEffectorTarget>() == 36);

impl SinewEffectorTarget {
    /// The core's target, or why effector `k`'s is unusable (the core checks the rest).
    fn read(&self, k: usize) -> FfiResult<EffectorTarget> {
        let q = self.rotation;
        if ![q.x, q.y, q.z, q.w].iter().all(|v| v.is_finite()) {
            let message = format!("effector {k}: target rotation is not finite");
            return Err(FfiError::new(SinewStatus::NonFinite, message));
        }
        let rotation = match self.use_rotation {
            0 => None,
            1 => Some(q.into()),
            v => {
                let message = format!("targets[{k}].use_rotation is {v}; flags must be 0 or 1");
                return Err(FfiError::new(SinewStatus::InvalidArgument, message));
            }
        };
        Ok(EffectorTarget {
            position: self.position.into(),
            rotation,
            weight: self.weight,
        })
    }
}

/// Opaque multi-effector FABRIK solver with per-joint constraints and memory for trees of up
/// to its `max_joints` joints and `max_effectors` effectors. Owned by the caller; use from one
/// thread at a time.
pub struct SinewMultiFabrik {
    inner: MultiFabrik,
    /// Conversion buffers of `max_effectors` items, so solving allocates nothing.
    targets: Vec<EffectorTarget>,
    results: Vec<IkResult>,
}
solver_handle!(SinewMultiFabrik, "solver", SinewMultiFabrikSettings);

impl From<MultiFabrik> for SinewMultiFabrik {
    fn from(inner: MultiFabrik) -> Self {
        let m = inner.max_effectors();
        Self {
            inner,
            targets: vec![EffectorTarget::at(glam::Vec3::ZERO); m],
            results: vec![IkResult::default(); m],
        }
    }
}

/// Fills `out` with the defaults. NULL is ignored.
#[no_mangle]
pub unsafe extern "C" fn sinew_multi_fabrik_settings_default(out: *mut SinewMultiFabrikSettings) {
    unsafe { settings_default(out) }
}

/// Creates a solver for trees of 2 to `max_joints` joints with 1 to `max_effectors` effectors
/// (at most `max_joints` and 64); all memory is allocated here.
#[no_mangle]
pub unsafe extern "C" fn sinew_multi_fabrik_create(
    settings: *const SinewMultiFabrikSettings,
    max_joints: u32,
    max_effectors: u32,
    out_solver: *mut *mut SinewMultiFabrik,
) -> SinewStatus {
    let new = |s| MultiFabrik::new(s, max_joints as usize, max_effectors as usize);
    unsafe { create_solver(settings, out_solver, new) }
}

/// Releases a solver. NULL is a no-op.
#[no_mangle]
pub unsafe extern "C" fn sinew_multi_fabrik_destroy(solver: *mut SinewMultiFabrik) {
    unsafe { destroy(solver) }
}

/// Copies the solver's settings.
#[no_mangle]
pub unsafe extern "C" fn sinew_multi_fabrik_get_settings(
    solver: *const SinewMultiFabrik,
    out_settings: *mut SinewMultiFabrikSettings,
) -> SinewStatus {
    unsafe { get_settings(solver, out_settings) }
}

/// Replaces the solver's settings; unchanged on error.
#[no_mangle]
pub unsafe extern "C" fn sinew_multi_fabrik_set_settings(
    solver: *mut SinewMultiFabrik,
    settings: *const SinewMultiFabrikSettings,
) -> SinewStatus {
    unsafe { set_settings(solver, settings) }
}

/// Sets the constraint of skeleton joint `joint` (it applies whenever the joint is in a solved
/// tree; at most `max_joints` joints hold one); NULL clears it.
#[no_mangle]
pub unsafe extern "C" fn sinew_multi_fabrik_set_constraint(
    solver: *mut SinewMultiFabrik,
    joint: u32,
    constraint: *const SinewJointConstraint,
) -> SinewStatus {
    let set = |h: &mut SinewMultiFabrik| {
        let constraint = unsafe { read_constraint(constraint) }?;
        Ok(h.inner.set_constraint(joint, constraint)?)
    };
    unsafe { update(solver, set) }
}

/// Body of the solves: reads the targets into the handle's buffer and checks `out_results`
/// before `solve` borrows the transforms (inputs may point into them), then writes one result
/// per effector only on success.
unsafe fn solve_with(
    solver: *mut SinewMultiFabrik,
    effectors: *const u32,
    effector_count: u32,
    targets: *const SinewEffectorTarget,
    out_results: *mut SinewIkResult,
    solve: impl FnOnce(&mut MultiFabrik, &[u32], &[EffectorTarget], &mut [IkResult]) -> FfiResult<()>,
) -> SinewStatus {
    guard(|| {
        let h = unsafe { SinewMultiFabrik::get_mut(solver) }?;
        let m = effector_count as usize;
        if m > h.targets.len() {
            let message = format!(
                "{m} effectors exceed the solver's max_effectors {}",
                h.targets.len()
            );
            return Err(FfiError::new(SinewStatus::OutOfRange, message));
        }
        let given = unsafe { arg_slice(targets, effector_count, "targets") }?;
        for (k, (slot, t)) in h.targets.iter_mut().zip(given).enumerate() {
            *slot = t.read(k)?;
        }
        if m > 0 && !out_results.is_null() {
            check_pointer(out_results.cast_const(), "out_results")?;
        }
        let effectors = unsafe { arg_slice(effectors, effector_count, "effectors") }?;
        let results = &mut h.results[..m];
        solve(&mut h.inner, effectors, &h.targets[..m], results)?;
        if !out_results.is_null() {
            for (k, r) in results.iter().enumerate() {
                // SAFETY: checked non-null and aligned; it holds `effector_count` results.
                unsafe { out_results.add(k).write((*r).into()) };
            }
        }
        Ok(())
    })
}

/// Solves the tree of joint `root` and `effectors[0..effector_count]` (skeleton joints, each
/// below the root, none above another) in `model`, the `count` model-space transforms of
/// `skeleton`, toward `targets` (one per effector); writes the tree joints' translations and
/// rotations (the root stays; other joints are untouched: they do not follow) and, when
/// `out_results` is not NULL, one result per effector (its own error and `reached`, the solve's
/// iterations). On error `model` and `out_results` are untouched. Allocates nothing.
///
/// # Safety
/// `model` must hold `count` transforms; `effectors`, `targets` and a non-NULL `out_results`
/// `effector_count` items.
#[no_mangle]
pub unsafe extern "C" fn sinew_multi_fabrik_solve(
    solver: *mut SinewMultiFabrik,
    skeleton: *const SinewSkeleton,
    model: *mut SinewTransform,
    count: u32,
    root: u32,
    effectors: *const u32,
    effector_count: u32,
    targets: *const SinewEffectorTarget,
    out_results: *mut SinewIkResult,
) -> SinewStatus {
    let solve = |s: &mut MultiFabrik, e: &[u32], t: &[EffectorTarget], r: &mut [IkResult]| {
        let skeleton = unsafe { SinewSkeleton::get(skeleton) }?;
        if count > 0 {
            check_pointer(model.cast_const(), "model")?;
        }
        // SAFETY: `model` holds `count` transforms; read after every other input.
        let model = unsafe { arg_slice_mut(model, count, "model") }?;
        Ok(s.solve(&skeleton.inner, model, root, e, t, r)?)
    };
    unsafe {
        solve_with(
            solver,
            effectors,
            effector_count,
            targets,
            out_results,
            solve,
        )
    }
}

/// Like `sinew_multi_fabrik_solve`, on a pose: the tree's model transforms are composed from the
/// pose's locals, and the solved rotations go back as local rotations (joints outside the tree
/// keep their locals and so follow their parents). On error `pose` and `out_results` are
/// untouched. Allocates nothing.
///
/// # Safety
/// `effectors`, `targets` and a non-NULL `out_results` must hold `effector_count` items.
#[no_mangle]
pub unsafe extern "C" fn sinew_multi_fabrik_solve_pose(
    solver: *mut SinewMultiFabrik,
    pose: *mut SinewPose,
    root: u32,
    effectors: *const u32,
    effector_count: u32,
    targets: *const SinewEffectorTarget,
    out_results: *mut SinewIkResult,
) -> SinewStatus {
    let solve = |s: &mut MultiFabrik, e: &[u32], t: &[EffectorTarget], r: &mut [IkResult]| {
        let pose = unsafe { SinewPose::get_mut(pose) }?;
        Ok(s.solve_pose(&mut pose.inner, root, e, t, r)?)
    };
    unsafe {
        solve_with(
            solver,
            effectors,
            effector_count,
            targets,
            out_results,
            solve,
        )
    }
}
