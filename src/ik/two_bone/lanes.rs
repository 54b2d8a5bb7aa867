//! Arithmetic over one chain (`f32`) or four side by side (`Vec4` lanes), so one branch-free
//! kernel serves single solves and SIMD batches with bit-identical results.
//!
//! Only IEEE-exact operations are used (add, sub, mul, div, sqrt, compare, select) plus a
//! per-lane `exp`, and `min`/`max` follow SSE's operand order in both forms, so lane `i` of a
//! `Vec4` computation equals the same computation on `f32`, bit for bit.

use std::ops::{Add, BitAnd, Div, Mul, Not, Sub};

use glam::{BVec4, Mat4, Quat, Vec3, Vec3A, Vec4};

/// A float, or four floats computed lane by lane.
pub(super) trait Lane:
    Copy + Add<Output = Self> + Sub<Output = Self> + Mul<Output = Self> + Div<Output = Self>
{
    /// Per-lane booleans.
    type Mask: Copy + BitAnd<Output = Self::Mask> + Not<Output = Self::Mask>;
    fn splat(v: f32) -> Self;
    fn sqrt(self) -> Self;
    fn exp(self) -> Self;
    /// `self < o ? self : o`, like `minps`.
    fn min(self, o: Self) -> Self;
    /// `self > o ? self : o`, like `maxps`.
    fn max(self, o: Self) -> Self;
    fn gt(self, o: Self) -> Self::Mask;
    fn ge(self, o: Self) -> Self::Mask;
    fn select(m: Self::Mask, if_true: Self, if_false: Self) -> Self;
}

impl Lane for f32 {
    type Mask = bool;
    fn splat(v: f32) -> Self {
        v
    }
    fn sqrt(self) -> Self {
        f32::sqrt(self)
    }
    fn exp(self) -> Self {
        crate::math::exp(self)
    }
    fn min(self, o: Self) -> Self {
        if self < o {
            self
        } else {
            o
        }
    }
    fn max(self, o: Self) -> Self {
        if self > o {
            self
        } else {
            o
        }
    }
    fn gt(self, o: Self) -> bool {
        self > o
    }
    fn ge(self, o: Self) -> bool {
        self >= o
    }
    fn select(m: bool, if_true: Self, if_false: Self) -> Self {
        if m {
            if_true
        } else {
            if_false
        }
    }
}

impl Lane for Vec4 {
    type Mask = BVec4;
    fn splat(v: f32) -> Self {
        Vec4::splat(v)
    }
    fn sqrt(self) -> Self {
        Vec4::sqrt(self)
    }
    fn exp(self) -> Self {
        Vec4::exp(self)
    }
    fn min(self, o: Self) -> Self {
        Vec4::select(self.cmplt(o), self, o)
    }
    fn max(self, o: Self) -> Self {
        Vec4::select(self.cmpgt(o), self, o)
    }
    fn gt(self, o: Self) -> BVec4 {
        self.cmpgt(o)
    }
    fn ge(self, o: Self) -> BVec4 {
        self.cmpge(o)
    }
    fn select(m: BVec4, if_true: Self, if_false: Self) -> Self {
        Vec4::select(m, if_true, if_false)
    }
}

/// A 3-vector of lanes.
#[derive(Clone, Copy)]
pub(super) struct V3<L> {
    pub x: L,
    pub y: L,
    pub z: L,
}

impl<L: Lane> V3<L> {
    pub fn dot(self, o: Self) -> L {
        self.x * o.x + self.y * o.y + self.z * o.z
    }
    pub fn cross(self, o: Self) -> Self {
        V3 {
            x: self.y * o.z - self.z * o.y,
            y: self.z * o.x - self.x * o.z,
            z: self.x * o.y - self.y * o.x,
        }
    }
    pub fn scale(self, s: L) -> Self {
        V3 {
            x: self.x * s,
            y: self.y * s,
            z: self.z * s,
        }
    }
    pub fn select(m: L::Mask, t: Self, f: Self) -> Self {
        V3 {
            x: L::select(m, t.x, f.x),
            y: L::select(m, t.y, f.y),
            z: L::select(m, t.z, f.z),
        }
    }
}

impl<L: Lane> Add for V3<L> {
    type Output = Self;
    fn add(self, o: Self) -> Self {
        V3 {
            x: self.x + o.x,
            y: self.y + o.y,
            z: self.z + o.z,
        }
    }
}

impl<L: Lane> Sub for V3<L> {
    type Output = Self;
    fn sub(self, o: Self) -> Self {
        V3 {
            x: self.x - o.x,
            y: self.y - o.y,
            z: self.z - o.z,
        }
    }
}

/// A quaternion of lanes.
#[derive(Clone, Copy)]
pub(super) struct Q<L> {
    pub x: L,
    pub y: L,
    pub z: L,
    pub w: L,
}

impl<L: Lane> Q<L> {
    /// Hamilton product `self * o` (apply `o`, then `self`).
    pub fn mul(self, o: Self) -> Self {
        let (a, b) = (self, o);
        Q {
            x: a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
            y: a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
            z: a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w,
            w: a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
        }
    }
    pub fn normalize(self) -> Self {
        let inv = L::splat(1.0)
            / (self.x * self.x + self.y * self.y + self.z * self.z + self.w * self.w).sqrt();
        Q {
            x: self.x * inv,
            y: self.y * inv,
            z: self.z * inv,
            w: self.w * inv,
        }
    }
}

impl From<Vec3> for V3<f32> {
    fn from(v: Vec3) -> Self {
        V3 {
            x: v.x,
            y: v.y,
            z: v.z,
        }
    }
}

impl From<V3<f32>> for Vec3 {
    fn from(v: V3<f32>) -> Self {
        Vec3::new(v.x, v.y, v.z)
    }
}

impl From<Quat> for Q<f32> {
    fn from(q: Quat) -> Self {
        Q {
            x: q.x,
            y: q.y,
            z: q.z,
            w: q.w,
        }
    }
}

impl From<Q<f32>> for Quat {
    fn from(q: Q<f32>) -> Self {
        Quat::from_xyzw(q.x, q.y, q.z, q.w)
    }
}

impl V3<Vec4> {
    /// Four vectors side by side, one per lane.
    pub fn gather(v: [Vec3; 4]) -> Self {
        let [x, y, z, _] = transpose(v.map(|v| v.extend(0.0)));
        V3 { x, y, z }
    }
    /// The four lanes as vectors.
    pub fn scatter(&self) -> [Vec3A; 4] {
        transpose([self.x, self.y, self.z, Vec4::ZERO]).map(Vec3A::from_vec4)
    }
}

impl Q<Vec4> {
    /// Four quaternions side by side, one per lane.
    pub fn gather(q: [Quat; 4]) -> Self {
        let [x, y, z, w] = transpose(q.map(Vec4::from));
        Q { x, y, z, w }
    }
    /// The four lanes as quaternions.
    pub fn scatter(&self) -> [Quat; 4] {
        transpose([self.x, self.y, self.z, self.w]).map(Quat::from_vec4)
    }
}

/// Rows and columns of four 4-vectors swapped: component `k` of vector `i` becomes lane `i`
/// of vector `k` (and back).
fn transpose(v: [Vec4; 4]) -> [Vec4; 4] {
    let m = Mat4::from_cols(v[0], v[1], v[2], v[3]).transpose();
    [m.x_axis, m.y_axis, m.z_axis, m.w_axis]
}
