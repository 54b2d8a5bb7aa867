//! Arithmetic over one chain (`f32` scalars, vectors packed in registers by `packed`) or four
//! side by side (`F4` lanes), so one branch-free kernel serves single solves and SIMD batches
//! with bit-identical results.
//!
//! Only IEEE-exact operations are used (add, sub, mul, div, sqrt, compare, select) plus a
//! per-lane `exp`, and `min`/`max` follow SSE's operand order in both forms, so lane `i` of an
//! [`F4`] computation equals the same computation on `f32`, bit for bit.

use std::ops::{Add, BitAnd, Div, Mul, Neg, Not, Sub};

use glam::{Quat, Vec3, Vec3A};

use super::packed::{self, P3, P4};
use crate::simd::{F4, M4};

/// A float, or four floats computed lane by lane.
pub(crate) trait Lane:
    Copy
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Neg<Output = Self>
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

/// The kernel's scalars with their vectors and quaternions: one chain's (`f32`, with packed
/// vectors) or four chains' (`F4`, with vectors of lanes).
pub(crate) trait Form: Lane {
    type V: Vector<Self>;
    type Q: Copy;
    /// `(arc * q).normalize()` for the quaternion `arc = (axis, w)`.
    fn turn(axis: Self::V, w: Self, q: Self::Q) -> Self::Q;
}

/// A 3-vector of `L`s.
pub(crate) trait Vector<L: Lane>: Copy + Add<Output = Self> + Sub<Output = Self> {
    /// `(x x' + y y') + z z'`.
    fn dot(self, o: Self) -> L;
    fn cross(self, o: Self) -> Self;
    fn scale(self, s: L) -> Self;
    fn select(m: L::Mask, t: Self, f: Self) -> Self;
}

impl Form for f32 {
    type V = P3;
    type Q = P4;
    #[inline(always)]
    fn turn(axis: P3, w: f32, q: P4) -> P4 {
        packed::arc_mul(axis, w, q).normalize()
    }
}

impl Form for F4 {
    type V = V3<F4>;
    type Q = Q<F4>;
    #[inline(always)]
    fn turn(axis: V3<F4>, w: F4, q: Q<F4>) -> Q<F4> {
        let arc = Q {
            x: axis.x,
            y: axis.y,
            z: axis.z,
            w,
        };
        arc.mul(q).normalize()
    }
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

impl Lane for F4 {
    type Mask = M4;
    #[inline(always)]
    fn splat(v: f32) -> Self {
        F4::splat(v)
    }
    #[inline(always)]
    fn sqrt(self) -> Self {
        F4::sqrt(self)
    }
    #[inline(always)]
    fn exp(self) -> Self {
        F4::from_array(self.to_array().map(crate::math::exp))
    }
    #[inline(always)]
    fn min(self, o: Self) -> Self {
        F4::select(self.lt(o), self, o)
    }
    #[inline(always)]
    fn max(self, o: Self) -> Self {
        F4::select(self.gt(o), self, o)
    }
    #[inline(always)]
    fn gt(self, o: Self) -> M4 {
        F4::gt(self, o)
    }
    #[inline(always)]
    fn ge(self, o: Self) -> M4 {
        F4::ge(self, o)
    }
    #[inline(always)]
    fn select(m: M4, if_true: Self, if_false: Self) -> Self {
        F4::select(m, if_true, if_false)
    }
}

/// A 3-vector of lanes.
#[derive(Clone, Copy)]
pub(crate) struct V3<L> {
    pub x: L,
    pub y: L,
    pub z: L,
}

impl<L: Lane> V3<L> {
    pub fn zero() -> Self {
        let zero = L::splat(0.0);
        V3 {
            x: zero,
            y: zero,
            z: zero,
        }
    }
}

impl<L: Lane> Vector<L> for V3<L> {
    #[inline(always)]
    fn dot(self, o: Self) -> L {
        self.x * o.x + self.y * o.y + self.z * o.z
    }
    #[inline(always)]
    fn cross(self, o: Self) -> Self {
        V3 {
            x: self.y * o.z - self.z * o.y,
            y: self.z * o.x - self.x * o.z,
            z: self.x * o.y - self.y * o.x,
        }
    }
    #[inline(always)]
    fn scale(self, s: L) -> Self {
        V3 {
            x: self.x * s,
            y: self.y * s,
            z: self.z * s,
        }
    }
    #[inline(always)]
    fn select(m: L::Mask, t: Self, f: Self) -> Self {
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
pub(crate) struct Q<L> {
    pub x: L,
    pub y: L,
    pub z: L,
    pub w: L,
}

impl<L: Lane> Q<L> {
    pub fn identity() -> Self {
        let (zero, one) = (L::splat(0.0), L::splat(1.0));
        Q {
            x: zero,
            y: zero,
            z: zero,
            w: one,
        }
    }
    /// The inverse of a unit quaternion (vector part negated, exactly).
    pub fn conjugate(self) -> Self {
        Q {
            x: -self.x,
            y: -self.y,
            z: -self.z,
            w: self.w,
        }
    }
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

impl V3<F4> {
    /// Four vectors side by side, one per lane.
    #[inline(always)]
    pub fn gather(v: [Vec3; 4]) -> Self {
        V3 {
            x: F4::from_array(v.map(|v| v.x)),
            y: F4::from_array(v.map(|v| v.y)),
            z: F4::from_array(v.map(|v| v.z)),
        }
    }
    /// The four lanes as vectors.
    #[inline(always)]
    pub fn scatter(&self) -> [Vec3A; 4] {
        let [x, y, z] = [self.x, self.y, self.z].map(F4::to_array);
        std::array::from_fn(|i| Vec3A::new(x[i], y[i], z[i]))
    }
}

impl Q<F4> {
    /// Four quaternions side by side, one per lane.
    #[inline(always)]
    pub fn gather(q: [Quat; 4]) -> Self {
        Q {
            x: F4::from_array(q.map(|q| q.x)),
            y: F4::from_array(q.map(|q| q.y)),
            z: F4::from_array(q.map(|q| q.z)),
            w: F4::from_array(q.map(|q| q.w)),
        }
    }
    /// The four lanes as quaternions.
    #[inline(always)]
    pub fn scatter(&self) -> [Quat; 4] {
        let [x, y, z, w] = [self.x, self.y, self.z, self.w].map(F4::to_array);
        std::array::from_fn(|i| Quat::from_xyzw(x[i], y[i], z[i], w[i]))
    }
}
