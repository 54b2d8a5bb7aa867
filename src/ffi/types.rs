//! `#[repr(C)]` value types laid out like Unity's `Vector3`, `Quaternion` and a TRS triple,
//! with the adapters between them and the core's glam-based types (glam's SIMD types never
//! cross the ABI).
//!
//! The adapters stay here rather than the core storing the 40-byte C transform itself: the
//! core's [`Transform`] is a Rust-layout struct of glam types, and the coming
//! structure-of-arrays pose stores no per-joint struct at all, so the C layout needs
//! converting at the boundary either way. The conversions are exact (plain float copies), so
//! results through the ABI equal the core's bit for bit.

use glam::{Quat, Vec3};

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

/// `From<$from> for $to` between structs with the same field names, each field converted by
/// `Into`: the exact, field-by-field adapters between the C types and the core's.
macro_rules! same_fields {
    ($($from:ty => $to:ty { $($field:ident),+ })*) => {$(
        impl From<$from> for $to {
            fn from(v: $from) -> Self {
                Self { $($field: v.$field.into()),+ }
            }
        }
    )*};
}
pub(crate) use same_fields;

same_fields! {
    SinewVec3 => Vec3 { x, y, z }
    Vec3 => SinewVec3 { x, y, z }
    Quat => SinewQuat { x, y, z, w }
    SinewTransform => Transform { translation, rotation, scale }
    Transform => SinewTransform { translation, rotation, scale }
    IkResult => SinewIkResult { reached, error, iterations }
}

impl From<SinewQuat> for Quat {
    fn from(q: SinewQuat) -> Self {
        Quat::from_xyzw(q.x, q.y, q.z, q.w)
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

/// The core's values of `SinewEndRotation`, in the order of their C values.
pub(crate) const END_ROTATIONS: [EndRotation; 3] = [
    EndRotation::KeepModel,
    EndRotation::CopyEffector,
    EndRotation::KeepLocal,
];

impl From<EndRotation> for i32 {
    fn from(value: EndRotation) -> Self {
        (match value {
            EndRotation::KeepModel => SinewEndRotation::KeepModel,
            EndRotation::CopyEffector => SinewEndRotation::CopyEffector,
            EndRotation::KeepLocal => SinewEndRotation::KeepLocal,
        }) as i32
    }
}
