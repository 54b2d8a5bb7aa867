//! Rotation angles and comparisons.

use sinew::{Quat, Vec3};

/// Rotation angle of `q` in radians (atan2 form: accurate for small angles).
pub fn quat_angle(q: Quat) -> f32 {
    let v = Vec3::new(q.x, q.y, q.z).length();
    2.0 * v.atan2(q.w.abs())
}

/// Angle of the rotation from `a` to `b`, in radians.
pub fn rot_between(a: Quat, b: Quat) -> f32 {
    quat_angle(a.conjugate() * b)
}

/// Same rotation (q and -q are the same rotation).
pub fn same_rotation(a: Quat, b: Quat, eps: f32) -> bool {
    a.abs_diff_eq(b, eps) || a.abs_diff_eq(-b, eps)
}
