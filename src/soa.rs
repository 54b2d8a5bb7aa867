//! Structure-of-arrays transforms: the pose's storage, four joints per [`SoaTransform`] block
//! with each component a row of four lanes, so blends, additive layers, sampling and checks
//! run four joints per instruction ([`Rows`], on [`F4`]). Lanes past the last joint hold the
//! identity and are never read back.

use glam::{Quat, Vec3};

use crate::packed::Packed;
use crate::rotation::normalize_robust;
use crate::simd::{F4, M4};
use crate::transform::Transform;

/// Four joints' transforms, component by component (`t[0]` holds the four x translations).
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C, align(16))]
pub(crate) struct SoaTransform {
    pub t: [[f32; 4]; 3],
    pub r: [[f32; 4]; 4],
    pub s: [[f32; 4]; 3],
}

impl SoaTransform {
    /// Four identities.
    pub const IDENTITY: Self = Self {
        t: [[0.0; 4]; 3],
        r: [[0.0; 4], [0.0; 4], [0.0; 4], [1.0; 4]],
        s: [[1.0; 4]; 3],
    };

    /// Lane `k`'s transform.
    #[inline(always)]
    pub fn get(&self, k: usize) -> Transform {
        let (t, r, s) = (&self.t, &self.r, &self.s);
        Transform {
            translation: Vec3::new(t[0][k], t[1][k], t[2][k]),
            rotation: Quat::from_xyzw(r[0][k], r[1][k], r[2][k], r[3][k]),
            scale: Vec3::new(s[0][k], s[1][k], s[2][k]),
        }
    }

    /// Sets lane `k`'s transform.
    #[inline(always)]
    pub fn set(&mut self, k: usize, v: &Transform) {
        let (t, r, s) = (v.translation, v.rotation, v.scale);
        [self.t[0][k], self.t[1][k], self.t[2][k]] = [t.x, t.y, t.z];
        [self.r[0][k], self.r[1][k], self.r[2][k], self.r[3][k]] = [r.x, r.y, r.z, r.w];
        [self.s[0][k], self.s[1][k], self.s[2][k]] = [s.x, s.y, s.z];
    }

    /// The block's rows as lanes.
    #[inline(always)]
    pub fn rows(&self) -> Rows {
        // SAFETY: the block is 16-byte aligned and every row is 16 bytes, so every row
        // starts at a multiple of 16.
        let row = |r: &[f32; 4]| unsafe { F4::load_aligned(r) };
        let (t, r, s) = (&self.t, &self.r, &self.s);
        Rows {
            t: [row(&t[0]), row(&t[1]), row(&t[2])],
            r: [row(&r[0]), row(&r[1]), row(&r[2]), row(&r[3])],
            s: [row(&s[0]), row(&s[1]), row(&s[2])],
        }
    }

    /// Stores rows into the block.
    #[inline(always)]
    pub fn store(&mut self, rows: &Rows) {
        let [t0, t1, t2] = &mut self.t;
        let [r0, r1, r2, r3] = &mut self.r;
        let [s0, s1, s2] = &mut self.s;
        rows.t[0].store(t0);
        rows.t[1].store(t1);
        rows.t[2].store(t2);
        rows.r[0].store(r0);
        rows.r[1].store(r1);
        rows.r[2].store(r2);
        rows.r[3].store(r3);
        rows.s[0].store(s0);
        rows.s[1].store(s1);
        rows.s[2].store(s2);
    }
}

/// `[f(0), f(1), f(2)]`: rows built one by one rather than by `array::map`, whose copies the
/// optimizer leaves in some of these hot loops.
#[inline(always)]
pub(crate) fn rows3(f: impl Fn(usize) -> F4) -> [F4; 3] {
    [f(0), f(1), f(2)]
}

/// [`rows3`] for four rows.
#[inline(always)]
pub(crate) fn rows4(f: impl Fn(usize) -> F4) -> [F4; 4] {
    [f(0), f(1), f(2), f(3)]
}

/// A block's rows in registers: the form every four-joint kernel works on.
#[derive(Clone, Copy)]
pub(crate) struct Rows {
    pub t: [F4; 3],
    pub r: [F4; 4],
    pub s: [F4; 3],
}

impl Rows {
    /// `self += x * w` row by row, `rotation` standing in for `x`'s rotation rows (aligned
    /// to a hemisphere).
    #[inline(always)]
    pub fn add_scaled(&mut self, x: &Rows, rotation: &[F4; 4], w: F4) {
        for (sum, v) in self.t.iter_mut().zip(&x.t) {
            *sum = *sum + *v * w;
        }
        for (sum, v) in self.r.iter_mut().zip(rotation) {
            *sum = *sum + *v * w;
        }
        for (sum, v) in self.s.iter_mut().zip(&x.s) {
            *sum = *sum + *v * w;
        }
    }

    /// Lanes of `a` where `m` holds, of `b` elsewhere.
    #[inline(always)]
    pub fn select(m: M4, a: &Rows, b: &Rows) -> Rows {
        let pick = |x: F4, y: F4| F4::select(m, x, y);
        Rows {
            t: rows3(|c| pick(a.t[c], b.t[c])),
            r: rows4(|c| pick(a.r[c], b.r[c])),
            s: rows3(|c| pick(a.s[c], b.s[c])),
        }
    }

    /// `x * 0` summed over every translation and scale row: ±0 in the lanes whose
    /// components are all finite, NaN elsewhere (rotations are checked where they are
    /// normalized).
    #[inline(always)]
    pub fn probe_ts(&self) -> F4 {
        let zero = F4::splat(0.0);
        let [t0, t1, t2] = rows3(|c| self.t[c] * zero);
        let [s0, s1, s2] = rows3(|c| self.s[c] * zero);
        ((t0 + t1) + (t2 + s0)) + (s1 + s2)
    }

    /// The sum of every translation and scale row: finite when they all are (it may also
    /// overflow when they are huge), in six additions where [`Self::probe_ts`] takes twelve.
    #[inline(always)]
    pub fn sum_ts(&self) -> F4 {
        let [t0, t1, t2] = self.t;
        let [s0, s1, s2] = self.s;
        ((t0 + t1) + (t2 + s0)) + (s1 + s2)
    }

    /// [`Self::probe_ts`] with the rotation rows too: ±0 in the lanes whose every component
    /// is finite.
    #[inline(always)]
    pub fn probe(&self) -> F4 {
        let zero = F4::splat(0.0);
        let [x, y, z, w] = rows4(|c| self.r[c] * zero);
        self.probe_ts() + ((x + y) + (z + w))
    }
}

/// The four-lane dot product of two quaternion rows, summed as `(x x' + z z') + (y y' + w w')`
/// (the order of [`crate::rotation::normalize_robust`]'s squared length).
#[inline(always)]
pub(crate) fn dot4(a: &[F4; 4], b: &[F4; 4]) -> F4 {
    (a[0] * b[0] + a[2] * b[2]) + (a[1] * b[1] + a[3] * b[3])
}

/// `q` per lane, negated where its dot product with `reference` is negative: the same
/// rotation on `reference`'s side, as [`crate::rotation::same_hemisphere`] gives it (its
/// dot product in glam's order, [`dot_seq`]).
#[inline(always)]
pub(crate) fn same_hemisphere4(q: &[F4; 4], reference: &[F4; 4]) -> [F4; 4] {
    let flip = dot_seq(reference, q).lt(F4::splat(0.0));
    rows4(|c| q[c].negate_where(flip))
}

/// Normalizes four quaternion lanes the way [`crate::rotation::normalize_robust`] does when
/// all four are in its common case (squared length in `[1e-12, f32::MAX]`; lanes unit to
/// within 1e-6 pass through bit for bit), and returns which lanes were in it (the others are
/// left as they are, for the caller to take one at a time).
#[inline(always)]
pub(crate) fn normalize4(q: &mut [F4; 4]) -> M4 {
    let len_sq = dot4(q, q);
    let common = len_sq.ge(F4::splat(1e-12)) & len_sq.le(F4::splat(f32::MAX));
    let one = F4::splat(1.0);
    // Off unit by more than 1e-6 (false for NaN, which is not common either).
    let far = F4::splat(1e-6).lt((len_sq - one).abs());
    let inv = one / len_sq.sqrt();
    let scale = F4::select(common & far, inv, one);
    for c in q.iter_mut() {
        *c = *c * scale;
    }
    common
}

/// The dot product of quaternion rows summed left to right, `((x x' + y y') + z z') + w w'`:
/// glam's order, so sign tests and normalizations match its scalar forms bit for bit.
#[inline(always)]
pub(crate) fn dot_seq(a: &[F4; 4], b: &[F4; 4]) -> F4 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]
}

/// glam's `Quat::normalize` per lane: `q * (1 / sqrt(dot(q, q)))`.
#[inline(always)]
pub(crate) fn normalize_glam(q: &[F4; 4]) -> [F4; 4] {
    let inv = F4::splat(1.0) / dot_seq(q, q).sqrt();
    rows4(|c| q[c] * inv)
}

/// glam's `Quat * Quat` per lane, its operations in its order.
#[inline(always)]
pub(crate) fn mul_quat(a: &[F4; 4], b: &[F4; 4]) -> [F4; 4] {
    let [x0, y0, z0, w0] = *a;
    let [x1, y1, z1, w1] = *b;
    [
        w0 * x1 + x0 * w1 + y0 * z1 - z0 * y1,
        w0 * y1 - x0 * z1 + y0 * w1 + z0 * x1,
        w0 * z1 + x0 * y1 - y0 * x1 + z0 * w1,
        w0 * w1 - x0 * x1 - y0 * y1 - z0 * z1,
    ]
}

/// `1 / v` per lane, 0 where that is not finite (as [`crate::transform::safe_recip`]).
#[inline(always)]
pub(crate) fn safe_recip4(v: F4) -> F4 {
    let inv = F4::splat(1.0) / v;
    F4::select(inv.is_finite(), inv, F4::splat(0.0))
}

/// Renormalizes the rotations of blocks holding `joints` joints, four at a time when all four
/// are in [`crate::rotation::normalize_robust`]'s common case, else one at a time, a rotation
/// it cannot normalize replaced by `fallback(joint, rotation)`. Returns whether every
/// component of every joint is then finite. Lanes past the last joint become identities.
pub(crate) fn normalize_blocks(
    blocks: &mut [SoaTransform],
    joints: usize,
    fallback: impl Fn(usize, Quat) -> Quat,
) -> bool {
    let mut check = Finish::default();
    check.normalize(blocks, joints, &fallback);
    check.finite(blocks)
}

/// The last step of every kernel that computes new transforms: rotations renormalized as
/// [`normalize_blocks`] describes, the rows stored, and their finiteness accumulated.
pub(crate) struct Finish {
    /// The running sum of every stored translation and scale: finite when they all are.
    sum: F4,
    rotations_finite: bool,
}

impl Default for Finish {
    fn default() -> Self {
        Self {
            sum: F4::splat(0.0),
            rotations_finite: true,
        }
    }
}

impl Finish {
    /// Normalizes `rows`' rotations and stores them into `block` (block number `b`).
    #[inline(always)]
    pub fn store(
        &mut self,
        rows: &mut Rows,
        block: &mut SoaTransform,
        b: usize,
        joints: usize,
        fallback: &impl Fn(usize, Quat) -> Quat,
    ) {
        let odd = !normalize4(&mut rows.r).bitmask() & 0b1111;
        self.sum = self.sum + rows.sum_ts();
        block.store(rows);
        if odd != 0 {
            self.rotations_finite &= fix_lanes(block, b, joints, odd, fallback);
        }
    }

    /// [`Self::store`] over `blocks` as they are: rotations already stored, renormalized in a
    /// pass of their own. Kernels whose rotations come out of long dependency chains (sums,
    /// products) run faster storing them first: the square root and division then do not
    /// sit in the same chain, where they leave the processor waiting.
    pub fn normalize(
        &mut self,
        blocks: &mut [SoaTransform],
        joints: usize,
        fallback: &impl Fn(usize, Quat) -> Quat,
    ) {
        for (b, block) in blocks.iter_mut().enumerate() {
            let mut rows = block.rows();
            self.store(&mut rows, block, b, joints, fallback);
        }
    }

    /// Whether every component stored so far into `stored` (all of it) is finite: a finite
    /// running sum says so at once; one that overflowed (huge finite values can) has the
    /// blocks checked one by one.
    pub fn finite(&self, stored: &[SoaTransform]) -> bool {
        self.rotations_finite && (self.sum.is_finite().all() || all_ts_finite(stored))
    }
}

/// Whether every translation and scale in `blocks` is finite, checked exactly.
#[cold]
fn all_ts_finite(blocks: &[SoaTransform]) -> bool {
    blocks
        .iter()
        .all(|b| b.rows().probe_ts().eq(F4::splat(0.0)).all())
}

/// The lanes `odd` of block `b` that [`normalize4`] left: normalized one at a time (or by
/// `fallback`), or the identity past the last joint. Whether their rotations are finite.
#[cold]
fn fix_lanes(
    block: &mut SoaTransform,
    b: usize,
    joints: usize,
    odd: u32,
    fallback: &impl Fn(usize, Quat) -> Quat,
) -> bool {
    let mut finite = true;
    for k in (0..4).filter(|k| odd & (1 << k) != 0) {
        let j = 4 * b + k;
        let mut t = block.get(k);
        t.rotation = if j < joints {
            normalize_robust(t.rotation).unwrap_or_else(|| fallback(j, t.rotation))
        } else {
            Quat::IDENTITY
        };
        finite &= t.rotation.is_finite();
        block.set(k, &t);
    }
    finite
}

/// Blocks needed for `joints` joints.
pub(crate) fn blocks(joints: usize) -> usize {
    joints.div_ceil(4)
}

/// `transforms` as blocks, the lanes past their end the identity.
pub(crate) fn to_blocks(transforms: &[Transform]) -> Vec<SoaTransform> {
    let mut out = vec![SoaTransform::IDENTITY; blocks(transforms.len())];
    for (j, t) in transforms.iter().enumerate() {
        out[j / 4].set(j % 4, t);
    }
    out
}

/// Something that gives each joint's local transform: a slice of them or the pose's blocks.
pub(crate) trait JointTransforms {
    fn joint(&self, j: usize) -> Transform;
    /// Joints `4c` to `4c + 3`, packed (identities past the last joint).
    fn block(&self, c: usize) -> [Packed; 4];
    /// [`crate::skeleton::model_bound`] of the first `joints` joints.
    fn model_bound(&self, joints: usize) -> f32 {
        crate::skeleton::model_bound(self, joints)
    }
}

impl JointTransforms for [Transform] {
    #[inline(always)]
    fn joint(&self, j: usize) -> Transform {
        self[j]
    }

    #[inline(always)]
    fn block(&self, c: usize) -> [Packed; 4] {
        std::array::from_fn(|k| {
            self.get(4 * c + k)
                .map_or_else(Packed::identity, Packed::from_transform)
        })
    }
}

impl JointTransforms for [SoaTransform] {
    #[inline(always)]
    fn joint(&self, j: usize) -> Transform {
        self[j / 4].get(j % 4)
    }

    #[inline(always)]
    fn block(&self, c: usize) -> [Packed; 4] {
        Packed::unpack(&self[c])
    }

    /// The bound four joints at a time: per-lane products and sums, combined at the end
    /// (another rounding order, well inside the bound's margin), the translations' 1-norms
    /// summed for their ∞-norms (at most three times more, as safe). Lanes past the last joint
    /// are identities, which change neither the product nor the sum. A NaN or infinity in a
    /// component survives into the translation sum, the scale probe or the rotations' sum;
    /// finite sums that overflow give up too: nothing to prove there anyway.
    fn model_bound(&self, _joints: usize) -> f32 {
        let (zero, one) = (F4::splat(0.0), F4::splat(1.0));
        let (mut scale_probe, mut rotations, mut rotation) = (zero, zero, zero);
        let (mut scale, mut reach) = (one, zero);
        for block in self {
            let Rows { t, r, s } = block.rows();
            let length = dot4(&r, &r);
            rotations = rotations + length;
            rotation = rotation.max(length);
            scale_probe = scale_probe + ((s[0] + s[1]) + s[2]);
            let [s0, s1, s2] = s.map(F4::abs);
            scale = scale * s0.max(s1).max(s2).max(one);
            let [t0, t1, t2] = t.map(F4::abs);
            reach = reach + ((t0 + t1) + t2);
        }
        let probe = (scale_probe + rotations) * zero;
        let [s, r] = [scale, reach].map(F4::to_array);
        let rotation = rotation.to_array();
        let finite = probe.eq(zero).all();
        if finite && rotation.iter().all(|&l| l <= 1.0 + 1e-5) {
            ((s[0] * s[1]) * (s[2] * s[3])) * (1.0 + ((r[0] + r[1]) + (r[2] + r[3])))
        } else {
            f32::INFINITY
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn quat() -> impl Strategy<Value = Quat> {
        let c = prop_oneof![-2.0f32..2.0, Just(0.0), -1e-7f32..1e-7, -1e20f32..1e20];
        (c.clone(), c.clone(), c.clone(), c).prop_map(|(x, y, z, w)| Quat::from_xyzw(x, y, z, w))
    }

    proptest! {
        // Lanes in the common case are normalize_robust's bits; others are flagged untouched.
        #[test]
        #[cfg_attr(miri, ignore)]
        fn normalize4_is_normalize_robust(q in prop::array::uniform4(quat())) {
            let mut block = SoaTransform::IDENTITY;
            for (k, q) in q.iter().enumerate() {
                block.set(k, &Transform::from_rotation_translation(*q, Vec3::ZERO));
            }
            let mut rows = block.rows();
            let odd = !normalize4(&mut rows.r).bitmask() & 0b1111;
            block.store(&rows);
            for (k, q) in q.iter().enumerate() {
                let got = block.get(k).rotation;
                if odd & (1 << k) == 0 {
                    prop_assert_eq!(Some(got), normalize_robust(*q));
                } else {
                    prop_assert_eq!(got, *q);
                }
            }
        }
    }

    proptest! {
        // The four-lane bound is the per-joint bound to rounding (it only orders the products
        // and sums differently), and infinite exactly when that one is.
        #[test]
        #[cfg_attr(miri, ignore)]
        fn block_bound_is_the_joint_bound(
            t in prop::collection::vec((-1e3f32..1e3, -2f32..2.0, 0.1f32..3.0), 1..40),
            poison in prop::option::of(0usize..40),
        ) {
            let mut local: Vec<Transform> = t.iter().enumerate().map(|(i, &(x, a, s))| Transform {
                translation: Vec3::new(x, -x * 0.5, i as f32),
                rotation: Quat::from_rotation_y(a),
                scale: Vec3::new(s, 1.0 / s, s * s),
            }).collect();
            if let Some(p) = poison.filter(|&p| p < local.len()) {
                local[p].scale.y = f32::INFINITY;
            }
            let want = crate::skeleton::model_bound(&local[..], local.len());
            let got = to_blocks(&local)[..].model_bound(local.len());
            if want.is_finite() {
                prop_assert!((got - want).abs() <= want * 1e-5, "{} vs {}", got, want);
            } else {
                prop_assert_eq!(got, f32::INFINITY);
            }
        }
    }

    #[test]
    fn blocks_round_trip_and_pad_with_identities() {
        let t: Vec<Transform> = (0..6)
            .map(|i| Transform::from_translation(Vec3::splat(i as f32)))
            .collect();
        let b = to_blocks(&t);
        assert_eq!(b.len(), 2);
        assert!((0..6).all(|j| b[..].joint(j) == t[j]));
        assert_eq!(b[1].get(2), Transform::IDENTITY);
        assert_eq!(b[1].get(3), Transform::IDENTITY);
    }
}
