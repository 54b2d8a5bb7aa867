//! `#[repr(C)]` value types laid out like Unity's `Vector3`, `Quaternion` and a TRS triple,
//! with the adapters between them and the core's glam-based types (glam's SIMD types never
//! cross the ABI).
//!
//! The adapters stay here rather than the core storing the 40-byte C transform itself: the
//! core's [`Transform`] is a Rust-layout struct of glam types, and the coming
//! structure-of-arrays pose stores no per-joint struct at all, so the C layout needs
//! converting at the boundary either way. The conversions are exact (plain float copies), so
//! results through the ABI equal the core's bit for bit.

use glam::{Mat4, Quat, Vec3};

use crate::ik::{EndRotation, IkResult, TransformAccess};
use crate::packed::Floats;
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

// SAFETY: `repr(C)`, ten f32s.
unsafe impl Floats<10> for SinewTransform {}

/// A 4×4 matrix of floats, 64 bytes, column-major: field `mRC` is row R, column C, and the
/// fields run down each column in turn (`m00 m10 m20 m30 m01 ...`), the memory layout of
/// Unity's `Matrix4x4`, glTF's and OpenGL's `float[16]`, and Unreal's `FMatrix44f` read as
/// rows (Unreal multiplies row vectors, so its matrix is this one transposed, the same
/// floats). For column vectors: a point `p` maps to `M · (p, 1)`, the translation in
/// `m03 m13 m23`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SinewMat4 {
    pub m00: f32,
    pub m10: f32,
    pub m20: f32,
    pub m30: f32,
    pub m01: f32,
    pub m11: f32,
    pub m21: f32,
    pub m31: f32,
    pub m02: f32,
    pub m12: f32,
    pub m22: f32,
    pub m32: f32,
    pub m03: f32,
    pub m13: f32,
    pub m23: f32,
    pub m33: f32,
}

const _: () = assert!(std::mem::size_of::<SinewMat4>() == 64);
const _: () = assert!(std::mem::align_of::<SinewMat4>() == 4);

// SAFETY: `repr(C)`, sixteen f32s.
unsafe impl Floats<16> for SinewMat4 {}

impl From<Mat4> for SinewMat4 {
    fn from(m: Mat4) -> Self {
        let [m00, m10, m20, m30, m01, m11, m21, m31, m02, m12, m22, m32, m03, m13, m23, m33] =
            m.to_cols_array();
        Self {
            m00,
            m10,
            m20,
            m30,
            m01,
            m11,
            m21,
            m31,
            m02,
            m12,
            m22,
            m32,
            m03,
            m13,
            m23,
            m33,
        }
    }
}

impl From<SinewMat4> for Mat4 {
    fn from(m: SinewMat4) -> Self {
        Mat4::from_cols_array(&[
            m.m00, m.m10, m.m20, m.m30, m.m01, m.m11, m.m21, m.m31, m.m02, m.m12, m.m22, m.m32,
            m.m03, m.m13, m.m23, m.m33,
        ])
    }
}

/// Four 3D vectors in structure-of-arrays form: lane `i` of `x`, `y`, `z` is vector `i`
/// (ozz's `SoaFloat3`), 48 bytes.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SinewSoaVec3 {
    pub x: [f32; 4],
    pub y: [f32; 4],
    pub z: [f32; 4],
}

/// Four rotation quaternions in structure-of-arrays form (ozz's `SoaQuaternion`), 64 bytes.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SinewSoaQuat {
    pub x: [f32; 4],
    pub y: [f32; 4],
    pub z: [f32; 4],
    pub w: [f32; 4],
}

/// Four transforms in structure-of-arrays form, lane `i` of every field being transform `i`:
/// translation, rotation, scale (ozz's `SoaTransform`), 160 bytes.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SinewSoaTransform {
    pub translation: SinewSoaVec3,
    pub rotation: SinewSoaQuat,
    pub scale: SinewSoaVec3,
}

/// Lane access for the structure-of-arrays blocks: `lane(l)` reads item `l` of the four,
/// `set_lane(l, v)` writes it and leaves the other lanes as they are.
macro_rules! soa_lanes {
    ($($soa:ident => $one:ident { $($f:ident: $lane:tt),* })*) => {$(
        impl $soa {
            pub fn lane(&self, l: usize) -> $one {
                $one { $($f: soa_lanes!(@get self.$f, l, $lane)),* }
            }
            pub fn set_lane(&mut self, l: usize, v: &$one) {
                $(soa_lanes!(@set self.$f, l, v.$f, $lane);)*
            }
        }
    )*};
    (@get $e:expr, $l:ident, f32) => { $e[$l] };
    (@get $e:expr, $l:ident, block) => { $e.lane($l) };
    (@set $e:expr, $l:ident, $v:expr, f32) => { $e[$l] = $v };
    (@set $e:expr, $l:ident, $v:expr, block) => { $e.set_lane($l, &$v) };
}

soa_lanes! {
    SinewSoaVec3 => SinewVec3 { x: f32, y: f32, z: f32 }
    SinewSoaQuat => SinewQuat { x: f32, y: f32, z: f32, w: f32 }
    SinewSoaTransform => SinewTransform { translation: block, rotation: block, scale: block }
}

const _: () = assert!(std::mem::size_of::<SinewSoaVec3>() == 48);
const _: () = assert!(std::mem::size_of::<SinewSoaQuat>() == 64);
const _: () = assert!(std::mem::size_of::<SinewSoaTransform>() == 160);

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
