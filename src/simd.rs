//! `F4`: four `f32` lanes for structure-of-arrays loops, on SSE2 (x86-64), NEON (aarch64) or
//! plain per-lane code (other targets, and Miri).
//!
//! Only IEEE-exact per-lane operations are offered (add, sub, mul, div, sqrt, negation,
//! absolute value, comparisons, selects, a `max` defined as `a > b ? a : b`, and lane moves;
//! no FMA, no estimates, no min/max whose NaN and signed-zero rules differ between instruction
//! sets), so lane `i` of any `F4` computation is bit for bit the same `f32` computation on
//! every backend.

use std::ops::{Add, BitAnd, BitOr, Div, Mul, Neg, Not, Sub};

#[cfg(all(target_arch = "x86_64", not(miri)))]
mod backend {
    use std::arch::x86_64::*;

    pub type Raw = __m128;
    pub type RawMask = __m128;

    // SAFETY (every function below): SSE2 is part of the x86-64 baseline.
    #[inline(always)]
    pub fn splat(v: f32) -> Raw {
        unsafe { _mm_set1_ps(v) }
    }
    #[inline(always)]
    pub fn load(a: &[f32; 4]) -> Raw {
        unsafe { _mm_loadu_ps(a.as_ptr()) }
    }
    /// # Safety
    /// `a` is 16-byte aligned.
    #[inline(always)]
    pub unsafe fn load_aligned(a: &[f32; 4]) -> Raw {
        unsafe { _mm_load_ps(a.as_ptr()) }
    }
    #[inline(always)]
    pub fn store(v: Raw, a: &mut [f32; 4]) {
        unsafe { _mm_storeu_ps(a.as_mut_ptr(), v) };
    }
    #[inline(always)]
    pub fn keep(m: RawMask, a: Raw) -> Raw {
        unsafe { _mm_and_ps(m, a) }
    }
    macro_rules! sse {
        ($($name:ident($($arg:ident),*) -> $out:ty = $intrinsic:ident;)*) => {$(
            #[inline(always)]
            pub fn $name($($arg: Raw),*) -> $out {
                unsafe { $intrinsic($($arg),*) }
            }
        )*};
    }
    sse! {
        add(a, b) -> Raw = _mm_add_ps;
        sub(a, b) -> Raw = _mm_sub_ps;
        mul(a, b) -> Raw = _mm_mul_ps;
        div(a, b) -> Raw = _mm_div_ps;
        sqrt(a) -> Raw = _mm_sqrt_ps;
        lt(a, b) -> RawMask = _mm_cmplt_ps;
        le(a, b) -> RawMask = _mm_cmple_ps;
        eq(a, b) -> RawMask = _mm_cmpeq_ps;
        and(a, b) -> RawMask = _mm_and_ps;
        or(a, b) -> RawMask = _mm_or_ps;
        xor(a, b) -> Raw = _mm_xor_ps;
    }
    #[inline(always)]
    pub fn not(m: RawMask) -> RawMask {
        unsafe { _mm_xor_ps(m, _mm_castsi128_ps(_mm_set1_epi32(-1))) }
    }
    #[inline(always)]
    pub fn select(m: RawMask, a: Raw, b: Raw) -> Raw {
        unsafe { _mm_or_ps(_mm_and_ps(m, a), _mm_andnot_ps(m, b)) }
    }
    #[inline(always)]
    pub fn bits(m: RawMask) -> u32 {
        unsafe { _mm_movemask_ps(m) as u32 }
    }
    #[inline(always)]
    pub fn transpose(r: [Raw; 4]) -> [Raw; 4] {
        unsafe {
            let t0 = _mm_unpacklo_ps(r[0], r[1]);
            let t1 = _mm_unpacklo_ps(r[2], r[3]);
            let t2 = _mm_unpackhi_ps(r[0], r[1]);
            let t3 = _mm_unpackhi_ps(r[2], r[3]);
            [
                _mm_movelh_ps(t0, t1),
                _mm_movehl_ps(t1, t0),
                _mm_movelh_ps(t2, t3),
                _mm_movehl_ps(t3, t2),
            ]
        }
    }
    #[inline(always)]
    pub fn shuffle2<const M: i32>(a: Raw, b: Raw) -> Raw {
        unsafe { _mm_shuffle_ps::<M>(a, b) }
    }
    /// `pshufd`: the copy and the shuffle in one instruction, where `shufps` overwrites its
    /// source and needs a copy first. Assembly, because the compiler turns
    /// `_mm_shuffle_epi32` on float data back into a copy and a `shufps` (10 % more
    /// instructions in the forward pass, measurably slower).
    #[inline(always)]
    pub fn shuffle<const M: i32>(a: Raw) -> Raw {
        let r: Raw;
        // SAFETY: one SSE2 register-to-register instruction (x86-64 baseline): no memory,
        // stack or flags touched.
        unsafe {
            std::arch::asm!("pshufd {r}, {a}, {m}", r = lateout(xmm_reg) r, a = in(xmm_reg) a,
                m = const M, options(pure, nomem, nostack, preserves_flags));
        }
        r
    }
    #[inline(always)]
    pub fn abs(a: Raw) -> Raw {
        unsafe { _mm_andnot_ps(_mm_set1_ps(-0.0), a) }
    }
    /// `maxps` is `a > b ? a : b` per lane, NaN and signed zero included.
    #[inline(always)]
    pub fn max(a: Raw, b: Raw) -> Raw {
        unsafe { _mm_max_ps(a, b) }
    }
    #[inline(always)]
    pub fn from_bits(bits: u32) -> RawMask {
        unsafe {
            let weights = _mm_setr_epi32(1, 2, 4, 8);
            let set = _mm_and_si128(_mm_set1_epi32(bits as i32), weights);
            _mm_castsi128_ps(_mm_cmpeq_epi32(set, weights))
        }
    }
}

#[cfg(all(target_arch = "aarch64", not(miri)))]
mod backend {
    use std::arch::aarch64::*;

    pub type Raw = float32x4_t;
    pub type RawMask = uint32x4_t;

    // SAFETY (every function below): NEON is part of the aarch64 baseline.
    #[inline(always)]
    pub fn splat(v: f32) -> Raw {
        unsafe { vdupq_n_f32(v) }
    }
    #[inline(always)]
    pub fn load(a: &[f32; 4]) -> Raw {
        unsafe { vld1q_f32(a.as_ptr()) }
    }
    /// # Safety
    /// None beyond [`load`]'s (NEON loads any alignment).
    #[inline(always)]
    pub unsafe fn load_aligned(a: &[f32; 4]) -> Raw {
        load(a)
    }
    #[inline(always)]
    pub fn store(v: Raw, a: &mut [f32; 4]) {
        unsafe { vst1q_f32(a.as_mut_ptr(), v) };
    }
    #[inline(always)]
    pub fn keep(m: RawMask, a: Raw) -> Raw {
        unsafe { vreinterpretq_f32_u32(vandq_u32(m, vreinterpretq_u32_f32(a))) }
    }
    macro_rules! neon {
        ($($name:ident($($arg:ident: $t:ty),*) -> $out:ty = $intrinsic:ident;)*) => {$(
            #[inline(always)]
            pub fn $name($($arg: $t),*) -> $out {
                unsafe { $intrinsic($($arg),*) }
            }
        )*};
    }
    neon! {
        add(a: Raw, b: Raw) -> Raw = vaddq_f32;
        sub(a: Raw, b: Raw) -> Raw = vsubq_f32;
        mul(a: Raw, b: Raw) -> Raw = vmulq_f32;
        div(a: Raw, b: Raw) -> Raw = vdivq_f32;
        sqrt(a: Raw) -> Raw = vsqrtq_f32;
        lt(a: Raw, b: Raw) -> RawMask = vcltq_f32;
        le(a: Raw, b: Raw) -> RawMask = vcleq_f32;
        eq(a: Raw, b: Raw) -> RawMask = vceqq_f32;
        and(a: RawMask, b: RawMask) -> RawMask = vandq_u32;
        or(a: RawMask, b: RawMask) -> RawMask = vorrq_u32;
        not(a: RawMask) -> RawMask = vmvnq_u32;
        select(m: RawMask, a: Raw, b: Raw) -> Raw = vbslq_f32;
    }
    #[inline(always)]
    pub fn xor(a: Raw, b: Raw) -> Raw {
        unsafe {
            vreinterpretq_f32_u32(veorq_u32(
                vreinterpretq_u32_f32(a),
                vreinterpretq_u32_f32(b),
            ))
        }
    }
    #[inline(always)]
    pub fn bits(m: RawMask) -> u32 {
        let weights: [u32; 4] = [1, 2, 4, 8];
        unsafe { vaddvq_u32(vandq_u32(m, vld1q_u32(weights.as_ptr()))) }
    }
    #[inline(always)]
    pub fn transpose(r: [Raw; 4]) -> [Raw; 4] {
        unsafe {
            let t0 = vtrn1q_f32(r[0], r[1]);
            let t1 = vtrn2q_f32(r[0], r[1]);
            let t2 = vtrn1q_f32(r[2], r[3]);
            let t3 = vtrn2q_f32(r[2], r[3]);
            let lo = |a: Raw, b: Raw| {
                vreinterpretq_f32_f64(vtrn1q_f64(
                    vreinterpretq_f64_f32(a),
                    vreinterpretq_f64_f32(b),
                ))
            };
            let hi = |a: Raw, b: Raw| {
                vreinterpretq_f32_f64(vtrn2q_f64(
                    vreinterpretq_f64_f32(a),
                    vreinterpretq_f64_f32(b),
                ))
            };
            [lo(t0, t2), lo(t1, t3), hi(t0, t2), hi(t1, t3)]
        }
    }
    #[inline(always)]
    pub fn shuffle<const M: i32>(a: Raw) -> Raw {
        shuffle2::<M>(a, a)
    }
    #[inline(always)]
    pub fn shuffle2<const M: i32>(a: Raw, b: Raw) -> Raw {
        let mut x = [[0.0f32; 4]; 2];
        store(a, &mut x[0]);
        store(b, &mut x[1]);
        load(&super::shuffled::<M>(&x[0], &x[1]))
    }
    #[inline(always)]
    pub fn abs(a: Raw) -> Raw {
        unsafe { vabsq_f32(a) }
    }
    /// Not `vmaxq_f32`, whose NaN and signed-zero rules differ from `a > b ? a : b`.
    #[inline(always)]
    pub fn max(a: Raw, b: Raw) -> Raw {
        unsafe { vbslq_f32(vcgtq_f32(a, b), a, b) }
    }
    #[inline(always)]
    pub fn from_bits(bits: u32) -> RawMask {
        let weights: [u32; 4] = [1, 2, 4, 8];
        unsafe { vtstq_u32(vdupq_n_u32(bits), vld1q_u32(weights.as_ptr())) }
    }
}

#[cfg(any(miri, not(any(target_arch = "x86_64", target_arch = "aarch64"))))]
mod backend {
    pub type Raw = [f32; 4];
    pub type RawMask = [bool; 4];

    #[inline(always)]
    pub fn splat(v: f32) -> Raw {
        [v; 4]
    }
    #[inline(always)]
    pub fn load(a: &[f32; 4]) -> Raw {
        *a
    }
    /// # Safety
    /// None beyond [`load`]'s.
    #[inline(always)]
    pub unsafe fn load_aligned(a: &[f32; 4]) -> Raw {
        *a
    }
    #[inline(always)]
    pub fn store(v: Raw, a: &mut [f32; 4]) {
        *a = v;
    }
    #[inline(always)]
    pub fn keep(m: RawMask, a: Raw) -> Raw {
        std::array::from_fn(|i| if m[i] { a[i] } else { 0.0 })
    }
    macro_rules! lanes {
        ($($name:ident($($arg:ident: $t:ty),*) -> $out:ty = |$($x:ident),*| $e:expr;)*) => {$(
            #[inline(always)]
            pub fn $name($($arg: $t),*) -> $out {
                std::array::from_fn(|i| {
                    $(let $x = $arg[i];)*
                    $e
                })
            }
        )*};
    }
    lanes! {
        add(a: Raw, b: Raw) -> Raw = |x, y| x + y;
        sub(a: Raw, b: Raw) -> Raw = |x, y| x - y;
        mul(a: Raw, b: Raw) -> Raw = |x, y| x * y;
        div(a: Raw, b: Raw) -> Raw = |x, y| x / y;
        sqrt(a: Raw) -> Raw = |x| x.sqrt();
        lt(a: Raw, b: Raw) -> RawMask = |x, y| x < y;
        le(a: Raw, b: Raw) -> RawMask = |x, y| x <= y;
        eq(a: Raw, b: Raw) -> RawMask = |x, y| x == y;
        and(a: RawMask, b: RawMask) -> RawMask = |x, y| x & y;
        or(a: RawMask, b: RawMask) -> RawMask = |x, y| x | y;
        not(a: RawMask) -> RawMask = |x| !x;
        select(m: RawMask, a: Raw, b: Raw) -> Raw = |c, x, y| if c { x } else { y };
        xor(a: Raw, b: Raw) -> Raw = |x, y| f32::from_bits(x.to_bits() ^ y.to_bits());
    }
    #[inline(always)]
    pub fn bits(m: RawMask) -> u32 {
        (0..4).map(|i| u32::from(m[i]) << i).sum()
    }
    #[inline(always)]
    pub fn transpose(r: [Raw; 4]) -> [Raw; 4] {
        std::array::from_fn(|k| std::array::from_fn(|i| r[i][k]))
    }
    #[inline(always)]
    pub fn shuffle<const M: i32>(a: Raw) -> Raw {
        shuffle2::<M>(a, a)
    }
    #[inline(always)]
    pub fn shuffle2<const M: i32>(a: Raw, b: Raw) -> Raw {
        super::shuffled::<M>(&a, &b)
    }
    #[inline(always)]
    pub fn abs(a: Raw) -> Raw {
        a.map(f32::abs)
    }
    #[inline(always)]
    pub fn max(a: Raw, b: Raw) -> Raw {
        std::array::from_fn(|i| if a[i] > b[i] { a[i] } else { b[i] })
    }
    #[inline(always)]
    pub fn from_bits(bits: u32) -> RawMask {
        std::array::from_fn(|i| bits & (1 << i) != 0)
    }
}

/// A lane pick for [`F4::shuffle`] and [`F4::shuffle2`]: result lane `k` takes lane `ik` of
/// its source (two bits each, lane 0's lowest, SSE's `_MM_SHUFFLE` read backwards).
pub const fn lanes(i0: i32, i1: i32, i2: i32, i3: i32) -> i32 {
    i0 | i1 << 2 | i2 << 4 | i3 << 6
}

/// [`F4::shuffle2`] on arrays: lanes 0 and 1 from `a`, 2 and 3 from `b`.
#[cfg(any(miri, not(target_arch = "x86_64")))]
#[inline(always)]
fn shuffled<const M: i32>(a: &[f32; 4], b: &[f32; 4]) -> [f32; 4] {
    let pick = |k: usize| (M >> (2 * k)) as usize & 3;
    [a[pick(0)], a[pick(1)], b[pick(2)], b[pick(3)]]
}

/// Four `f32` lanes, each computed exactly as scalar code would.
#[derive(Clone, Copy)]
pub struct F4(backend::Raw);

/// Four per-lane booleans, from comparisons of [`F4`]s.
#[derive(Clone, Copy)]
pub struct M4(backend::RawMask);

impl F4 {
    /// `v` in every lane.
    #[inline(always)]
    pub fn splat(v: f32) -> Self {
        Self(backend::splat(v))
    }
    #[inline(always)]
    pub fn from_array(a: [f32; 4]) -> Self {
        Self::load(&a)
    }
    #[inline(always)]
    pub fn to_array(self) -> [f32; 4] {
        let mut a = [0.0; 4];
        self.store(&mut a);
        a
    }
    /// The four floats at `a`.
    #[inline(always)]
    pub fn load(a: &[f32; 4]) -> Self {
        Self(backend::load(a))
    }
    /// [`Self::load`] from an address the caller guarantees is a multiple of 16, which lets
    /// SSE fold the load into the instruction that uses it.
    ///
    /// # Safety
    /// `a` must be 16-byte aligned.
    #[inline(always)]
    pub unsafe fn load_aligned(a: &[f32; 4]) -> Self {
        Self(unsafe { backend::load_aligned(a) })
    }
    /// Writes the four lanes to `a`.
    #[inline(always)]
    pub fn store(self, a: &mut [f32; 4]) {
        backend::store(self.0, a)
    }
    /// Lanes where `m` holds, +0 elsewhere.
    #[inline(always)]
    pub fn keep(self, m: M4) -> Self {
        Self(backend::keep(m.0, self.0))
    }
    /// Rows and columns swapped: lane `k` of row `i` becomes lane `i` of row `k` (four
    /// 4-vectors into their components and back; only moves bits).
    #[inline(always)]
    pub fn transpose(rows: [F4; 4]) -> [F4; 4] {
        backend::transpose(rows.map(|r| r.0)).map(F4)
    }
    /// Lanes rearranged: lane `k` is lane `(M >> 2k) & 3` of `self` (`M` from [`lanes`]).
    #[inline(always)]
    pub fn shuffle<const M: i32>(self) -> Self {
        Self(backend::shuffle::<M>(self.0))
    }
    /// Lanes 0 and 1 picked from `a`, lanes 2 and 3 from `b`, by `M` (from [`lanes`]).
    #[inline(always)]
    pub fn shuffle2<const M: i32>(a: Self, b: Self) -> Self {
        Self(backend::shuffle2::<M>(a.0, b.0))
    }
    /// Each lane with its sign bit cleared (NaN stays NaN).
    #[inline(always)]
    pub fn abs(self) -> Self {
        Self(backend::abs(self.0))
    }
    /// `self > o ? self : o` per lane: `o` when either is NaN or both are zeros.
    #[inline(always)]
    pub fn max(self, o: Self) -> Self {
        Self(backend::max(self.0, o.0))
    }
    /// Correctly rounded square root per lane.
    #[inline(always)]
    pub fn sqrt(self) -> Self {
        Self(backend::sqrt(self.0))
    }
    #[inline(always)]
    pub fn lt(self, o: Self) -> M4 {
        M4(backend::lt(self.0, o.0))
    }
    #[inline(always)]
    pub fn le(self, o: Self) -> M4 {
        M4(backend::le(self.0, o.0))
    }
    #[inline(always)]
    pub fn gt(self, o: Self) -> M4 {
        o.lt(self)
    }
    #[inline(always)]
    pub fn ge(self, o: Self) -> M4 {
        o.le(self)
    }
    #[inline(always)]
    pub fn eq(self, o: Self) -> M4 {
        M4(backend::eq(self.0, o.0))
    }
    /// Lanes of `if_true` where `m` holds, of `if_false` elsewhere.
    #[inline(always)]
    pub fn select(m: M4, if_true: Self, if_false: Self) -> Self {
        Self(backend::select(m.0, if_true.0, if_false.0))
    }
    /// Each lane with its sign bit flipped where `m` holds (negation, exactly).
    #[inline(always)]
    pub fn negate_where(self, m: M4) -> Self {
        Self(backend::xor(self.0, Self::splat(-0.0).keep(m).0))
    }
    /// Lanes that are finite (neither infinite nor NaN): `x * 0 == 0` exactly then.
    #[inline(always)]
    pub fn is_finite(self) -> M4 {
        (self * Self::splat(0.0)).eq(Self::splat(0.0))
    }
}

impl M4 {
    /// Lane `i` holds where bit `i` of `bits` is set (higher bits are ignored).
    #[inline(always)]
    pub fn from_bitmask(bits: u32) -> Self {
        M4(backend::from_bits(bits))
    }
    /// Whether every lane holds.
    #[inline(always)]
    pub fn all(self) -> bool {
        backend::bits(self.0) == 0b1111
    }
    /// Whether any lane holds.
    #[inline(always)]
    pub fn any(self) -> bool {
        backend::bits(self.0) != 0
    }
    /// Lane `i` holds when bit `i` is set.
    #[inline(always)]
    pub fn bitmask(self) -> u32 {
        backend::bits(self.0)
    }
}

macro_rules! f4_ops {
    ($($trait:ident $method:ident $backend:ident),*) => {$(
        impl $trait for F4 {
            type Output = F4;
            #[inline(always)]
            fn $method(self, o: F4) -> F4 {
                F4(backend::$backend(self.0, o.0))
            }
        }
    )*};
}
f4_ops!(Add add add, Sub sub sub, Mul mul mul, Div div div);

impl Neg for F4 {
    type Output = F4;
    #[inline(always)]
    fn neg(self) -> F4 {
        F4(backend::xor(self.0, backend::splat(-0.0)))
    }
}

impl BitAnd for M4 {
    type Output = M4;
    #[inline(always)]
    fn bitand(self, o: M4) -> M4 {
        M4(backend::and(self.0, o.0))
    }
}

impl BitOr for M4 {
    type Output = M4;
    #[inline(always)]
    fn bitor(self, o: M4) -> M4 {
        M4(backend::or(self.0, o.0))
    }
}

impl Not for M4 {
    type Output = M4;
    #[inline(always)]
    fn not(self) -> M4 {
        M4(backend::not(self.0))
    }
}

impl std::fmt::Debug for F4 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.to_array().fmt(f)
    }
}

impl PartialEq for F4 {
    fn eq(&self, o: &Self) -> bool {
        self.to_array() == o.to_array()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn bits(a: [f32; 4]) -> [u32; 4] {
        a.map(f32::to_bits)
    }

    /// Every lane equals the scalar operation, bit for bit, NaN and signed zero included.
    fn check_lanes(a: [f32; 4], b: [f32; 4]) {
        let (x, y) = (F4::from_array(a), F4::from_array(b));
        let lane = |f: fn(f32, f32) -> f32| bits(std::array::from_fn(|i| f(a[i], b[i])));
        let canon = |v: [f32; 4]| bits(v.map(|x| if x.is_nan() { f32::NAN } else { x }));
        let arith = |v: F4, f: fn(f32, f32) -> f32| {
            assert_eq!(
                canon(v.to_array()),
                canon(std::array::from_fn(|i| f(a[i], b[i])))
            );
        };
        arith(x + y, |p, q| p + q);
        arith(x - y, |p, q| p - q);
        arith(x * y, |p, q| p * q);
        arith(x / y, |p, q| p / q);
        arith(x.sqrt(), |p, _| p.sqrt());
        assert_eq!(bits((-x).to_array()), bits(a.map(|v| -v)));
        let sel = F4::select(x.lt(y), x, y).to_array();
        assert_eq!(bits(sel), lane(|p, q| if p < q { p } else { q }));
        let cmp = |m: M4, f: fn(f32, f32) -> bool| {
            let want: u32 = (0..4).map(|i| u32::from(f(a[i], b[i])) << i).sum();
            assert_eq!(m.bitmask(), want);
        };
        cmp(x.lt(y), |p, q| p < q);
        cmp(x.le(y), |p, q| p <= q);
        cmp(x.gt(y), |p, q| p > q);
        cmp(x.ge(y), |p, q| p >= q);
        cmp(x.eq(y), |p, q| p == q);
        cmp(!x.lt(y), |p, q| {
            p.partial_cmp(&q) != Some(std::cmp::Ordering::Less)
        });
        cmp(x.lt(y) & x.eq(y), |_, _| false);
        cmp(x.lt(y) | x.eq(y), |p, q| p <= q);
        cmp(x.is_finite(), |p, _| p.is_finite());
        let negated = x.negate_where(x.lt(y)).to_array();
        assert_eq!(bits(negated), lane(|p, q| if p < q { -p } else { p }));
        assert_eq!(bits(x.abs().to_array()), bits(a.map(f32::abs)));
        let max = x.max(y).to_array();
        assert_eq!(bits(max), lane(|p, q| if p > q { p } else { q }));
        let kept = x.keep(x.lt(y)).to_array();
        assert_eq!(bits(kept), lane(|p, q| if p < q { p } else { 0.0 }));
    }

    fn check_shuffles(a: [u32; 4], b: [u32; 4]) {
        let (x, y) = (a.map(f32::from_bits), b.map(f32::from_bits));
        let (x, y) = (F4::from_array(x), F4::from_array(y));
        let got = bits(F4::shuffle2::<{ lanes(3, 0, 2, 1) }>(x, y).to_array());
        assert_eq!(got, [a[3], a[0], b[2], b[1]]);
        let got = bits(x.shuffle::<{ lanes(1, 1, 3, 0) }>().to_array());
        assert_eq!(got, [a[1], a[1], a[3], a[0]]);
        let got = bits(F4::shuffle2::<{ lanes(0, 1, 2, 3) }>(x, y).to_array());
        assert_eq!(got, [a[0], a[1], b[2], b[3]]);
    }

    #[test]
    fn shuffles_on_special_values() {
        let nan = f32::NAN.to_bits() | 1;
        check_shuffles(
            [nan, (-0.0f32).to_bits(), 1, 2],
            [3, nan, f32::INFINITY.to_bits(), 4],
        );
    }

    // The backend Miri runs (plain per-lane code) on the values that differ between
    // instruction sets: NaN, infinities, signed zeros, subnormals.
    #[test]
    fn lanes_are_scalar_ops_on_special_values() {
        let special = [
            0.0,
            -0.0,
            f32::NAN,
            f32::INFINITY,
            -1.5,
            1e-40,
            f32::MAX,
            3.0,
        ];
        for (i, a) in special.windows(4).enumerate() {
            for b in special.windows(4).skip(i % 3) {
                check_lanes(a.try_into().unwrap(), b.try_into().unwrap());
            }
        }
    }

    proptest! {
        #[test]
        #[cfg_attr(miri, ignore)]
        fn lanes_are_scalar_ops(a in prop::array::uniform4(any::<f32>()),
                                b in prop::array::uniform4(any::<f32>())) {
            check_lanes(a, b);
        }

        // A transpose moves lane k of row i to lane i of row k, every bit pattern intact.
        #[test]
        #[cfg_attr(miri, ignore)]
        fn transpose_swaps_rows_and_lanes(m in prop::array::uniform4(prop::array::uniform4(any::<u32>()))) {
            let rows = m.map(|r| F4::from_array(r.map(f32::from_bits)));
            let t = F4::transpose(rows).map(|r| bits(r.to_array()));
            for (i, row) in m.iter().enumerate() {
                for (k, &b) in row.iter().enumerate() {
                    prop_assert_eq!(t[k][i], b);
                }
            }
        }

        // A shuffle moves lanes, every bit pattern intact: lanes 0 and 1 from the first
        // source, 2 and 3 from the second, as `lanes` names them.
        #[test]
        #[cfg_attr(miri, ignore)]
        fn shuffles_pick_the_named_lanes(a in prop::array::uniform4(any::<u32>()),
                                         b in prop::array::uniform4(any::<u32>())) {
            check_shuffles(a, b);
        }

        // A mask made from bits selects the lanes of those bits, and gives them back.
        #[test]
        #[cfg_attr(miri, ignore)]
        fn masks_from_bits(bits_in in any::<u32>(), a in prop::array::uniform4(any::<f32>())) {
            let m = M4::from_bitmask(bits_in);
            prop_assert_eq!(m.bitmask(), bits_in & 0b1111);
            let x = F4::from_array(a);
            let sel = F4::select(m, x, -x).to_array();
            let want: [f32; 4] = std::array::from_fn(|i| if bits_in & (1 << i) != 0 { a[i] } else { -a[i] });
            prop_assert_eq!(bits(sel), bits(want));
        }
    }
}
