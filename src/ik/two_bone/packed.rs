//! One chain's vectors in SIMD registers, for single solves: a 3-vector in lanes 0 to 2 of an
//! [`F4`] (lane 3 holds anything and is never read), a quaternion `(x, y, z, w)` in one `F4`.
//! Each operation computes every component with the operations of the lane form
//! ([`V3`](super::lanes::V3), [`Q`](super::lanes::Q)) in the same order, so a single solve
//! equals a batch lane bit for bit. Sums across lanes go through shuffles, one addition at a
//! time in component order; a difference `a - b` becomes `a + (-b)` where the sign rides on a
//! product (both exact: IEEE negation and products are sign-symmetric).

use std::ops::{Add, Sub};

use glam::{Quat, Vec3};

use super::lanes::Vector;
use crate::packed::{cross, quat_product};
use crate::simd::{lanes, F4, M4};

/// A 3-vector in lanes 0 to 2.
#[derive(Clone, Copy)]
pub(crate) struct P3(pub F4);

/// A quaternion `(x, y, z, w)` in lanes 0 to 3.
#[derive(Clone, Copy)]
pub(crate) struct P4(pub F4);

const X: i32 = lanes(0, 0, 0, 0);
const Y: i32 = lanes(1, 1, 1, 1);
const Z: i32 = lanes(2, 2, 2, 2);
const W: i32 = lanes(3, 3, 3, 3);

/// Lane `k` in every lane.
#[inline(always)]
fn splat<const M: i32>(v: F4) -> F4 {
    v.shuffle::<M>()
}

/// Lane 0.
#[inline(always)]
fn first(v: F4) -> f32 {
    v.to_array()[0]
}

impl P3 {
    /// `v` in lanes 0 to 2 (and zero in lane 3).
    #[inline(always)]
    pub fn new(v: Vec3) -> Self {
        P3(F4::from_array([v.x, v.y, v.z, 0.0]))
    }
    /// Lanes 0 to 2.
    #[inline(always)]
    pub fn vec3(self) -> Vec3 {
        let [x, y, z, _] = self.0.to_array();
        Vec3::new(x, y, z)
    }
}

impl Add for P3 {
    type Output = Self;
    #[inline(always)]
    fn add(self, o: Self) -> Self {
        P3(self.0 + o.0)
    }
}

impl Sub for P3 {
    type Output = Self;
    #[inline(always)]
    fn sub(self, o: Self) -> Self {
        P3(self.0 - o.0)
    }
}

impl Vector<f32> for P3 {
    /// `(x x' + y y') + z z'`.
    #[inline(always)]
    fn dot(self, o: Self) -> f32 {
        let p = self.0 * o.0;
        first(p + splat::<Y>(p) + splat::<Z>(p))
    }
    /// `(y z' - z y', z x' - x z', x y' - y x')`.
    #[inline(always)]
    fn cross(self, o: Self) -> Self {
        P3(cross(self.0, o.0))
    }
    #[inline(always)]
    fn scale(self, s: f32) -> Self {
        P3(self.0 * F4::splat(s))
    }
    #[inline(always)]
    fn select(m: bool, t: Self, f: Self) -> Self {
        if m {
            t
        } else {
            f
        }
    }
}

impl P4 {
    #[inline(always)]
    pub fn new(q: Quat) -> Self {
        P4(F4::from_array(q.to_array()))
    }
    /// The four lanes.
    #[inline(always)]
    pub fn quat(self) -> Quat {
        Quat::from_array(self.0.to_array())
    }
    /// The Hamilton product `self * o`, like [`Q::mul`](super::lanes::Q::mul).
    #[inline(always)]
    pub fn mul(self, o: Self) -> Self {
        let a = self.0;
        let a = [splat::<X>(a), splat::<Y>(a), splat::<Z>(a), splat::<W>(a)];
        P4(quat_product(a, o.0))
    }
    /// The inverse of a unit quaternion (vector part negated, exactly).
    #[inline(always)]
    pub fn conjugate(self) -> Self {
        P4(self.0.negate_where(M4::from_bitmask(0b0111)))
    }
    /// `self / |self|`, like [`Q::normalize`](super::lanes::Q::normalize): the squared length
    /// summed `((x² + y²) + z²) + w²`.
    #[inline(always)]
    pub fn normalize(self) -> Self {
        let q = self.0;
        let p = q * q;
        let sq = first(p + splat::<Y>(p) + splat::<Z>(p) + splat::<W>(p));
        P4(q * F4::splat(1.0 / sq.sqrt()))
    }
}

/// `(axis, w) * q`, the quaternion with vector part `axis` and scalar part `w` times `q`, like
/// [`Q::mul`](super::lanes::Q::mul) on that quaternion (which is never built).
#[inline(always)]
pub(super) fn arc_mul(axis: P3, w: f32, q: P4) -> P4 {
    let v = axis.0;
    let a = [splat::<X>(v), splat::<Y>(v), splat::<Z>(v), F4::splat(w)];
    P4(quat_product(a, q.0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ik::two_bone::lanes::{Q, V3};
    use proptest::prelude::*;

    /// Bits, with every NaN as the one canonical NaN (payloads are not compared).
    fn bits<const N: usize>(v: [f32; N]) -> [u32; N] {
        v.map(|x| if x.is_nan() { f32::NAN } else { x }.to_bits())
    }

    fn packed3(v: P3) -> [u32; 3] {
        bits(v.vec3().to_array())
    }

    fn packed4(q: P4) -> [u32; 4] {
        bits(q.quat().to_array())
    }

    fn lanes3(v: V3<f32>) -> [u32; 3] {
        bits([v.x, v.y, v.z])
    }

    fn lanes4(q: Q<f32>) -> [u32; 4] {
        bits([q.x, q.y, q.z, q.w])
    }

    /// Every packed operation gives the bits of the lane form on `f32`.
    fn check(a: [f32; 4], b: [f32; 4], s: f32) {
        let v = |[x, y, z, _]: [f32; 4]| (P3::new(Vec3::new(x, y, z)), V3 { x, y, z });
        let q = |[x, y, z, w]: [f32; 4]| (P4::new(Quat::from_xyzw(x, y, z, w)), Q { x, y, z, w });
        let ((pa, la), (pb, lb)) = (v(a), v(b));
        assert_eq!(packed3(pa + pb), lanes3(la + lb));
        assert_eq!(packed3(pa - pb), lanes3(la - lb));
        assert_eq!(bits([pa.dot(pb)]), bits([la.dot(lb)]));
        assert_eq!(packed3(pa.cross(pb)), lanes3(la.cross(lb)));
        assert_eq!(packed3(pa.scale(s)), lanes3(la.scale(s)));
        let ((qa, qla), (qb, qlb)) = (q(a), q(b));
        assert_eq!(packed4(qa.mul(qb)), lanes4(qla.mul(qlb)));
        assert_eq!(packed4(qa.conjugate()), lanes4(qla.conjugate()));
        assert_eq!(packed4(qa.normalize()), lanes4(qla.normalize()));
        let arc = Q {
            x: la.x,
            y: la.y,
            z: la.z,
            w: s,
        };
        assert_eq!(packed4(arc_mul(pa, s, qb)), lanes4(arc.mul(qlb)));
    }

    // The backend Miri runs too, on signed zeros, infinities, NaN and subnormals.
    #[test]
    fn packed_ops_equal_lane_ops_on_special_values() {
        let special = [
            0.0,
            -0.0,
            1.5,
            f32::INFINITY,
            -3.25,
            1e-40,
            f32::NAN,
            0.7,
            -1e30,
        ];
        for (i, a) in special.windows(4).enumerate() {
            for b in special.windows(4) {
                check(a.try_into().unwrap(), b.try_into().unwrap(), special[i]);
            }
        }
    }

    proptest! {
        #[test]
        #[cfg_attr(miri, ignore)]
        fn packed_ops_equal_lane_ops(
            a in prop::array::uniform4(-4.0f32..4.0),
            b in prop::array::uniform4(-4.0f32..4.0),
            s in -4.0f32..4.0,
        ) {
            check(a, b, s);
        }
    }
}
