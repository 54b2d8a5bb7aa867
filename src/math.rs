//! Transcendental functions with the same bits on every platform.
//!
//! `f32::sin`, `atan2`, `exp`, ... call the platform's C library, whose last bit differs between
//! glibc, the Windows CRT and across CPU architectures (docs/PLATFORMS.md lists what differed),
//! so the core calls these instead: the pure-Rust `libm` crate, which glam also uses here
//! (Cargo.toml). `sqrt`, `abs`, `min`, `max` and arithmetic are IEEE-exact everywhere and stay.

/// Declares each function as a call to its `libm` counterpart.
macro_rules! from_libm {
    ($($(#[$doc:meta])* fn $name:ident($($arg:ident: $t:ty),*) -> $r:ty = $libm:ident;)*) => {
        $($(#[$doc])* #[inline] pub(crate) fn $name($($arg: $t),*) -> $r { libm::$libm($($arg),*) })*
    };
}

from_libm! {
    /// Cosine of `x` radians.
    fn cos(x: f32) -> f32 = cosf;
    /// Angle of the point `(x, y)` from +X, in [-pi, pi].
    fn atan2(y: f32, x: f32) -> f32 = atan2f;
    /// `sqrt(x * x + y * y)` without intermediate overflow.
    fn hypot(x: f32, y: f32) -> f32 = hypotf;
    /// `e` to the power `x`.
    fn exp(x: f32) -> f32 = expf;
    /// `(sin x, cos x)` of `x` radians, in `f64`.
    fn sin_cos_f64(x: f64) -> (f64, f64) = sincos;
    /// Angle of the point `(x, y)` from +X, in `f64`.
    fn atan2_f64(y: f64, x: f64) -> f64 = atan2;
    /// `sqrt(x * x + y * y)` in `f64`.
    fn hypot_f64(x: f64, y: f64) -> f64 = hypot;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Distance in units in the last place between two finite floats of the same sign.
    fn ulps(a: f32, b: f32) -> u32 {
        (a.to_bits() as i64 - b.to_bits() as i64).unsigned_abs() as u32
    }

    /// Each function is within one ulp of the `f64` standard library's value rounded to `f32`
    /// (a reference 29 bits more precise), over a sweep of arguments.
    #[test]
    fn within_one_ulp_of_f64_reference() {
        for i in -2000..=2000 {
            let x = i as f32 * 0.0037;
            let (y, w) = (x * 0.71 + 0.2, 1.3 - x * 0.43);
            let d = f64::from;
            let checks = [
                ("cos", cos(x), d(x).cos()),
                ("atan2", atan2(y, w), d(y).atan2(d(w))),
                ("hypot", hypot(y, w), d(y).hypot(d(w))),
                ("exp", exp(x), d(x).exp()),
            ];
            for (name, got, reference) in checks {
                let want = reference as f32;
                assert!(
                    got == want || (got.signum() == want.signum() && ulps(got, want) <= 1),
                    "{name} at {x}: {got} vs {want}"
                );
            }
            let x = d(x) * 1.7;
            let close = |a: f64, b: f64| (a - b).abs() <= 4.0 * f64::EPSILON * b.abs().max(1.0);
            let (s, c) = sin_cos_f64(x);
            assert!(close(s, x.sin()) && close(c, x.cos()), "sin_cos({x})");
            assert!(close(atan2_f64(x, 0.9), x.atan2(0.9)), "atan2({x}, 0.9)");
            assert!(close(hypot_f64(x, 0.9), x.hypot(0.9)), "hypot({x}, 0.9)");
        }
    }
}
