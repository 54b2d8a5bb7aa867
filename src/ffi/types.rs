//! `#[repr(C)]` value types laid out like Unity's `Vector3`, `Quaternion` and a TRS triple,
//! with conversions to the core's glam-based types (glam's SIMD types never cross the ABI).

use glam::{Quat, Vec3};

use super::guard::{arg_mut, FfiError, FfiResult};
use super::status::SinewStatus;
use crate::ik::{EndRotation, IkResult, TransformAccess};
use crate::transform::Transform;

/// A 3D vector, 12 bytes, laid out like Unity's `Vector3`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SinewVec3 {
    pub x: f32,
    pub y: f32,
    pub z: f32,
}

/// A rotation quaternion `{x, y, z, w}`, 16 bytes, laid out like Unity's `Quaternion`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SinewQuat {
    pub x: f32,
    pub y: f32,
    pub z: f32,
    pub w: f32,
}

/// Translation, rotation and per-axis scale, 40 bytes.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SinewTransform {
    pub translation: SinewVec3,
    pub rotation: SinewQuat,
    pub scale: SinewVec3,
}

/// Outcome of an IK solve, shared by every solver.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SinewIkResult {
    /// 1 when the end finished within tolerance of the target (`error <= tolerance`), else 0.
    pub reached: u32,
    /// Distance from the chain's end to the target after the solve (exact for subnormal
    /// distances too).
    pub error: f32,
    /// Iterations used (1 for analytic solvers; FABRIK/CCD count a closing step on the input
    /// as one).
    pub iterations: u32,
}

const _: () = assert!(std::mem::size_of::<SinewVec3>() == 12);
const _: () = assert!(std::mem::size_of::<SinewQuat>() == 16);
const _: () = assert!(std::mem::size_of::<SinewTransform>() == 40);
const _: () = assert!(std::mem::align_of::<SinewTransform>() == 4);
const _: () = assert!(std::mem::size_of::<SinewIkResult>() == 12);

impl From<SinewVec3> for Vec3 {
    fn from(v: SinewVec3) -> Self {
        Vec3::new(v.x, v.y, v.z)
    }
}

impl From<Vec3> for SinewVec3 {
    fn from(v: Vec3) -> Self {
        Self {
            x: v.x,
            y: v.y,
            z: v.z,
        }
    }
}

impl From<SinewQuat> for Quat {
    fn from(q: SinewQuat) -> Self {
        Quat::from_xyzw(q.x, q.y, q.z, q.w)
    }
}

impl From<Quat> for SinewQuat {
    fn from(q: Quat) -> Self {
        Self {
            x: q.x,
            y: q.y,
            z: q.z,
            w: q.w,
        }
    }
}

impl From<SinewTransform> for Transform {
    fn from(t: SinewTransform) -> Self {
        Transform::new(t.translation.into(), t.rotation.into(), t.scale.into())
    }
}

impl TransformAccess for SinewTransform {
    #[inline(always)]
    fn transform(&self) -> Transform {
        (*self).into()
    }
    #[inline(always)]
    fn set_translation_rotation(&mut self, translation: Vec3, rotation: Quat) {
        self.translation = translation.into();
        self.rotation = rotation.into();
    }
    #[inline(always)]
    fn set_rotation(&mut self, rotation: Quat) {
        self.rotation = rotation.into();
    }
}

impl From<Transform> for SinewTransform {
    fn from(t: Transform) -> Self {
        Self {
            translation: t.translation.into(),
            rotation: t.rotation.into(),
            scale: t.scale.into(),
        }
    }
}

impl From<IkResult> for SinewIkResult {
    fn from(r: IkResult) -> Self {
        Self {
            reached: r.reached.into(),
            error: r.error,
            iterations: r.iterations,
        }
    }
}

/// Converts core transforms into a caller's buffer of the same length.
pub(crate) fn write_transforms(out: &mut [SinewTransform], src: &[Transform]) {
    for (o, t) in out.iter_mut().zip(src) {
        *o = (*t).into();
    }
}

/// Values of the `end_rotation` field of solver settings: what rotation the chain's last joint
/// gets.
#[repr(i32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SinewEndRotation {
    /// The last joint keeps its model-space rotation (Unreal's default).
    KeepModel = 0,
    /// The last joint copies the effector rotation (kept when the effector rotation is NULL).
    CopyEffector = 1,
    /// The last joint keeps its rotation relative to the joint bone.
    KeepLocal = 2,
}

/// Reads an `end_rotation` settings field.
pub(crate) fn end_rotation_from_c(value: i32) -> FfiResult<EndRotation> {
    match value {
        0 => Ok(EndRotation::KeepModel),
        1 => Ok(EndRotation::CopyEffector),
        2 => Ok(EndRotation::KeepLocal),
        v => Err(FfiError::new(
            SinewStatus::InvalidArgument,
            format!("end_rotation {v} is not a SinewEndRotation value"),
        )),
    }
}

/// Writes an `end_rotation` settings field.
pub(crate) fn end_rotation_to_c(value: EndRotation) -> i32 {
    (match value {
        EndRotation::KeepModel => SinewEndRotation::KeepModel,
        EndRotation::CopyEffector => SinewEndRotation::CopyEffector,
        EndRotation::KeepLocal => SinewEndRotation::KeepLocal,
    }) as i32
}

/// Checks an optional result pointer before anything is written, so a misaligned one fails
/// early.
///
/// # Safety
/// A non-null pointer must be valid.
#[inline(always)]
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
#[inline(always)]
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
