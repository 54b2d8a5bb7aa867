//! One transform in three registers ([`F4`]s: translation, rotation, scale), for the forward
//! pass. Composition is [`Transform::mul_transform`]'s scalar arithmetic, each lane one of its
//! components with the same operations in the same order, so the same bits on every backend
//! in a quarter of the instructions.

use glam::Mat4;

use crate::simd::{lanes, F4, M4};
use crate::soa::{Rows, SoaTransform};
use crate::transform::Transform;

/// A transform packed for the forward pass: translation `(x, y, z, 1)`, rotation
/// `(x, y, z, w)`, scale `(x, y, z, 0)`. Every constructor sets those lanes 3, and
/// [`Self::mul`] keeps them for finite transforms (the translation's lane gains
/// `0 · w`-style zeros, the scale's stays `0 · 0`), so a finite transform's lanes are all
/// finite ([`Self::zero_probe`]).
#[derive(Clone, Copy)]
pub(crate) struct Packed {
    t: F4,
    r: F4,
    s: F4,
}

/// Records laid out as `N` consecutive `f32`s, which packed kernels read and write in place.
///
/// # Safety
/// `Self` must have the size of `[f32; N]`, an alignment of at most 4, and no invalid bit
/// patterns.
pub(crate) unsafe trait Floats<const N: usize>: Copy {
    /// The records as arrays of floats.
    fn floats(s: &[Self]) -> &[[f32; N]] {
        // SAFETY: the trait's contract; the length counts records of N floats each.
        unsafe { std::slice::from_raw_parts(s.as_ptr().cast(), s.len()) }
    }
    /// The records as arrays of floats.
    fn floats_mut(s: &mut [Self]) -> &mut [[f32; N]] {
        // SAFETY: the trait's contract; the length counts records of N floats each.
        unsafe { std::slice::from_raw_parts_mut(s.as_mut_ptr().cast(), s.len()) }
    }
}

// SAFETY: `Transform` is `repr(C)`: three, four and three f32s (glam's scalar math).
unsafe impl Floats<10> for Transform {}
// SAFETY: glam's `Mat4` is `repr(C)`, four columns of four f32s (scalar math: no alignment).
unsafe impl Floats<16> for Mat4 {}
const _: () = assert!(size_of::<Transform>() == 40 && align_of::<Transform>() <= 4);
const _: () = assert!(size_of::<Mat4>() == 64 && align_of::<Mat4>() <= 4);

/// `v` negated in the lanes of `bits` (bit `i` for lane `i`).
#[inline(always)]
fn flip<const BITS: u32>(v: F4) -> F4 {
    v.negate_where(M4::from_bitmask(BITS))
}

/// `a.yzx`, the lane order [`cross`] takes its first operand in.
#[inline(always)]
fn yzx(a: F4) -> F4 {
    a.shuffle::<{ lanes(1, 2, 0, 3) }>()
}

/// glam's scalar `Vec3A::cross` in lanes 0 to 2, `a.y b.z − b.y a.z` and so on:
/// `(a b.yzx − a.yzx b).yzx` has each lane's two products in that order, in three shuffles
/// rather than four. Lane 3 is `a.w b.w − a.w b.w`, zero for finite lanes.
#[inline(always)]
pub(crate) fn cross(a: F4, b: F4) -> F4 {
    yzx(a * yzx(b) - yzx(a) * b)
}

/// glam's scalar quaternion product `a * b`, `a` given as its components each splat over the
/// four lanes (`[x, y, z, w]`): lane by lane `((a.w b + a.x b') + a.y b'') + a.z b'''`, with
/// `b', b'', b'''` signed permutations of `b` (a subtraction is the addition of the negated
/// product, exactly). The signs ride on `b`, off the dependency chain of a forward pass, where
/// `a` is the parent just composed.
#[inline(always)]
pub(crate) fn quat_product(a: [F4; 4], b: F4) -> F4 {
    let [x, y, z, w] = a;
    let bx = flip::<0b1010>(b.shuffle::<{ lanes(3, 2, 1, 0) }>());
    let by = flip::<0b1100>(b.shuffle::<{ lanes(2, 3, 0, 1) }>());
    let bz = flip::<0b1001>(b.shuffle::<{ lanes(1, 0, 3, 2) }>());
    w * b + x * bx + y * by + z * bz
}

/// Four-float window `at..at + 4` of a record.
#[inline(always)]
fn window<const N: usize>(a: &[f32; N], at: usize) -> F4 {
    F4::load(a[at..at + 4].try_into().expect("four floats"))
}

#[inline(always)]
fn put<const N: usize>(a: &mut [f32; N], at: usize, v: F4) {
    v.store((&mut a[at..at + 4]).try_into().expect("four floats"));
}

impl Packed {
    /// [`Transform::IDENTITY`].
    #[inline(always)]
    pub fn identity() -> Self {
        Self::from_transform(&Transform::IDENTITY)
    }

    /// Reads a transform from its ten floats.
    #[inline(always)]
    pub fn load(a: &[f32; 10]) -> Self {
        // The windows' lanes 3 hold the next component: (t.z, 1) and (s.z, 0) put in.
        let (t, s) = (window(a, 0), window(a, 6));
        let tz1 = F4::shuffle2::<{ lanes(2, 2, 0, 0) }>(t, F4::splat(1.0));
        let sz0 = F4::shuffle2::<{ lanes(3, 3, 0, 0) }>(s, F4::splat(0.0));
        Self {
            t: F4::shuffle2::<{ lanes(0, 1, 0, 2) }>(t, tz1),
            r: window(a, 3),
            s: F4::shuffle2::<{ lanes(1, 2, 0, 2) }>(s, sz0),
        }
    }

    #[inline(always)]
    pub fn from_transform(t: &Transform) -> Self {
        Self::load(&Transform::floats(std::slice::from_ref(t))[0])
    }

    /// Writes the transform as its ten floats.
    #[inline(always)]
    pub fn store(&self, a: &mut [f32; 10]) {
        // The translation's window spills into the rotation's first float, which the
        // rotation's store then writes; the scale's ends the record, behind the rotation's w.
        put(a, 0, self.t);
        put(a, 3, self.r);
        let wx = F4::shuffle2::<{ lanes(3, 3, 0, 0) }>(self.r, self.s);
        put(a, 6, F4::shuffle2::<{ lanes(0, 2, 1, 2) }>(wx, self.s));
    }

    /// The four joints of a block.
    #[inline(always)]
    pub fn unpack(block: &SoaTransform) -> [Self; 4] {
        let rows = block.rows();
        let [t0, t1, t2] = rows.t;
        let [s0, s1, s2] = rows.s;
        let t = F4::transpose([t0, t1, t2, F4::splat(1.0)]);
        let r = F4::transpose(rows.r);
        let s = F4::transpose([s0, s1, s2, F4::splat(0.0)]);
        std::array::from_fn(|k| Self {
            t: t[k],
            r: r[k],
            s: s[k],
        })
    }

    /// `self * child`, [`Transform::mul_transform`] bit for bit: glam's scalar quaternion
    /// product (each component four products summed left to right, a subtraction being the
    /// addition of the negated product), and the rotated, scaled translation.
    #[inline(always)]
    pub fn mul(&self, child: &Self) -> Self {
        let a = self.r;
        let w = a.shuffle::<{ lanes(3, 3, 3, 3) }>();
        let x = a.shuffle::<{ lanes(0, 0, 0, 0) }>();
        let y = a.shuffle::<{ lanes(1, 1, 1, 1) }>();
        let z = a.shuffle::<{ lanes(2, 2, 2, 2) }>();
        let r = quat_product([x, y, z, w], child.r);
        // `Transform::rotate_scaled`: v + w t + u × t with t = 2 u × v.
        let v = self.s * child.t;
        let t = cross(a, v) * F4::splat(2.0);
        let turned = v + t * w + cross(a, t);
        Self {
            t: self.t + turned,
            r,
            s: self.s * child.s,
        }
    }

    /// Zero (±0) in every lane when the transform is finite, NaN somewhere otherwise.
    #[inline(always)]
    pub fn zero_probe(&self) -> F4 {
        let zero = F4::splat(0.0);
        (self.t * zero + self.r * zero) + self.s * zero
    }
}

/// Four transforms' ten-float records as a block's rows: each record's three windows
/// (translation, rotation, and the rotation's `w` with the scale) transposed, lanes moved
/// without arithmetic.
#[inline(always)]
pub(crate) fn rows_of(records: &[[f32; 10]; 4]) -> Rows {
    let [t0, t1, t2, _] = F4::transpose(records.map(|a| window(&a, 0)));
    let r = F4::transpose(records.map(|a| window(&a, 3)));
    let [_, s0, s1, s2] = F4::transpose(records.map(|a| window(&a, 6)));
    Rows {
        t: [t0, t1, t2],
        r,
        s: [s0, s1, s2],
    }
}

/// Writes matrix columns to a record of sixteen floats.
#[inline(always)]
pub(crate) fn store_matrix(columns: &[F4; 4], a: &mut [f32; 16]) {
    for (c, v) in columns.iter().enumerate() {
        put(a, 4 * c, *v);
    }
}

/// Reads the columns of a record of sixteen floats.
#[inline(always)]
pub(crate) fn load_matrix(a: &[f32; 16]) -> [F4; 4] {
    std::array::from_fn(|c| window(a, 4 * c))
}

/// `a · b` for matrices as columns, each column `a₀ b.x + a₁ b.y + a₂ b.z + a₃ b.w` summed
/// left to right (the skinning palette's documented product).
#[inline(always)]
pub(crate) fn mul_matrix(a: &[F4; 4], b: &[F4; 4]) -> [F4; 4] {
    b.map(|c| {
        a[0] * c.shuffle::<{ lanes(0, 0, 0, 0) }>()
            + a[1] * c.shuffle::<{ lanes(1, 1, 1, 1) }>()
            + a[2] * c.shuffle::<{ lanes(2, 2, 2, 2) }>()
            + a[3] * c.shuffle::<{ lanes(3, 3, 3, 3) }>()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{Quat, Vec3};
    use proptest::prelude::*;

    fn unpacked(p: &Packed) -> Transform {
        let mut t = [Transform::IDENTITY];
        p.store(&mut Transform::floats_mut(&mut t)[0]);
        t[0]
    }

    fn bits(t: &Transform) -> [u32; 10] {
        Transform::floats(std::slice::from_ref(t))[0].map(f32::to_bits)
    }

    fn component() -> impl Strategy<Value = f32> {
        prop_oneof![
            -3.0f32..3.0,
            Just(0.0),
            Just(-0.0),
            -1e-30f32..1e-30,
            -1e30f32..1e30
        ]
    }

    fn transform() -> impl Strategy<Value = Transform> {
        prop::array::uniform10(component()).prop_map(|c| {
            let t = Vec3::new(c[0], c[1], c[2]);
            let r = Quat::from_xyzw(c[3], c[4], c[5], c[6]);
            Transform::new(t, r, Vec3::new(c[7], c[8], c[9]))
        })
    }

    /// `a · b` from the documented rule, one entry at a time: column `j` of the result is
    /// `a.col0 b[j].x + a.col1 b[j].y + a.col2 b[j].z + a.col3 b[j].w`, summed left to right.
    fn mat_mul_reference(a: &[f32; 16], b: &[f32; 16]) -> [f32; 16] {
        std::array::from_fn(|e| {
            let (row, col) = (e % 4, e / 4);
            let term = |k: usize| a[4 * k + row] * b[4 * col + k];
            term(0) + term(1) + term(2) + term(3)
        })
    }

    proptest! {
        #[test]
        #[cfg_attr(miri, ignore)]
        fn loads_and_stores_keep_every_bit(t in transform()) {
            prop_assert_eq!(bits(&unpacked(&Packed::from_transform(&t))), bits(&t));
        }

        #[test]
        #[cfg_attr(miri, ignore)]
        fn composition_is_mul_transform_bit_for_bit(a in transform(), b in transform()) {
            let packed = Packed::from_transform(&a).mul(&Packed::from_transform(&b));
            let want = a.mul_transform(&b);
            // NaN payloads aside (a NaN is a NaN), every bit.
            let canon = |t: &Transform| bits(t).map(|b| if f32::from_bits(b).is_nan() { 0x7fc0_0000 } else { b });
            prop_assert_eq!(canon(&unpacked(&packed)), canon(&want));
        }

        // Lanes 3 stay 1 (translation) and 0 (scale) through compositions of finite
        // transforms, loaded or unpacked from blocks, so the probe sees only real components.
        #[test]
        #[cfg_attr(miri, ignore)]
        fn compositions_keep_the_spare_lanes(a in transform(), b in transform(), c in transform()) {
            let (pa, pb) = (Packed::from_transform(&a), Packed::from_transform(&b));
            let mut block = SoaTransform::IDENTITY;
            block.set(1, &c);
            let soa_c = Packed::unpack(&block)[1];
            let ab = a.mul_transform(&b);
            let cases = [
                (pa.mul(&pb).mul(&soa_c), ab.is_finite() && ab.mul_transform(&c).is_finite()),
                (soa_c.mul(&pa), c.mul_transform(&a).is_finite()),
                (pa, true),
                (soa_c, true),
            ];
            for (m, finite) in cases {
                if finite {
                    prop_assert_eq!(m.t.to_array()[3], 1.0);
                    prop_assert_eq!(m.s.to_array()[3].to_bits(), 0);
                    prop_assert!(m.zero_probe().eq(F4::splat(0.0)).all());
                }
            }
        }

        #[test]
        #[cfg_attr(miri, ignore)]
        fn matrix_product_sums_columns_left_to_right(
            a in prop::array::uniform16(-10.0f32..10.0),
            b in prop::array::uniform16(-10.0f32..10.0),
        ) {
            let mut got = [[0.0f32; 16]];
            store_matrix(&mul_matrix(&load_matrix(&a), &load_matrix(&b)), &mut got[0]);
            prop_assert_eq!(got[0].map(f32::to_bits), mat_mul_reference(&a, &b).map(f32::to_bits));
        }

        #[test]
        #[cfg_attr(miri, ignore)]
        fn blocks_unpack_to_their_joints(ts in prop::array::uniform4(transform())) {
            let mut block = SoaTransform::IDENTITY;
            for (k, t) in ts.iter().enumerate() {
                block.set(k, t);
            }
            for (k, p) in Packed::unpack(&block).iter().enumerate() {
                prop_assert_eq!(bits(&unpacked(p)), bits(&ts[k]));
            }
        }
    }

    // Miri runs the per-lane backend on a few fixed transforms.
    #[test]
    fn composition_on_fixed_transforms() {
        let a = Transform::new(
            Vec3::new(1.0, -2.0, 0.5),
            Quat::from_xyzw(0.1, 0.7, -0.3, 0.64).normalize(),
            Vec3::new(1.5, 0.5, 2.0),
        );
        let b = Transform::new(
            Vec3::new(-0.25, 3.0, 1.0),
            Quat::from_xyzw(-0.6, 0.2, 0.1, 0.77).normalize(),
            Vec3::new(0.75, 1.0, -1.0),
        );
        let (pa, pb) = (Packed::from_transform(&a), Packed::from_transform(&b));
        assert_eq!(bits(&unpacked(&pa.mul(&pb))), bits(&a.mul_transform(&b)));
    }
}
