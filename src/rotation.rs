//! Rotation helpers that IK needs to be robust: shortest arcs and swing-twist.

use glam::{Quat, Vec3};

/// Squared length below which a direction is treated as undefined.
const TINY_SQ: f32 = 1e-24;

/// The smallest rotation that turns direction `from` into direction `to`.
///
/// Inputs need not be normalized. A zero-length input gives the identity; opposite
/// directions give a half turn about an axis perpendicular to `from` (deterministic).
pub fn shortest_arc(from: Vec3, to: Vec3) -> Quat {
    let lf = from.length_squared();
    let lt = to.length_squared();
    if lf < TINY_SQ || lt < TINY_SQ || !lf.is_finite() || !lt.is_finite() {
        return Quat::IDENTITY;
    }
    let f = from / lf.sqrt();
    let t = to / lt.sqrt();
    let d = f.dot(t);
    if d < -1.0 + 1e-6 {
        // Near-opposite: the cross product is unreliable; turn half way round a fixed perpendicular.
        let axis = f.any_orthonormal_vector();
        return Quat::from_axis_angle(axis, std::f32::consts::PI);
    }
    // (cross, 1 + dot) normalized is the half-angle quaternion; stable away from d = -1.
    let c = f.cross(t);
    Quat::from_xyzw(c.x, c.y, c.z, 1.0 + d).normalize()
}

/// Splits `q` into `swing * twist`, where `twist` rotates about `axis` and `swing` about an
/// axis perpendicular to it. `axis` must be unit length. Applying `q` to `axis` equals
/// applying `swing` to it. A half-turn swing (no defined twist) gives an identity twist.
pub fn swing_twist(q: Quat, axis: Vec3) -> (Quat, Quat) {
    let v = Vec3::new(q.x, q.y, q.z);
    let p = axis * v.dot(axis);
    let twist = Quat::from_xyzw(p.x, p.y, p.z, q.w);
    let len_sq = twist.length_squared();
    if len_sq < TINY_SQ {
        return (q, Quat::IDENTITY);
    }
    let twist = twist / len_sq.sqrt();
    (q * twist.conjugate(), twist)
}

/// Normalizes a quaternion of any finite magnitude (scaling first, so huge components do not
/// overflow); `None` when it is shorter than 1e-6 (no usable direction) or not finite.
pub fn normalize_robust(q: Quat) -> Option<Quat> {
    let m = q.x.abs().max(q.y.abs()).max(q.z.abs()).max(q.w.abs());
    if !(m.is_finite() && m >= 1e-6 * 0.5) {
        return None;
    }
    let scaled = q / m;
    let len = scaled.length();
    (m * len >= 1e-6).then(|| scaled / len)
}

/// Interpolates two rotations along the shorter arc and renormalizes (nlerp).
pub fn nlerp_shortest(a: Quat, b: Quat, t: f32) -> Quat {
    let b = if a.dot(b) < 0.0 { -b } else { b };
    (a + (b - a) * t).normalize()
}

/// Rotation angle of `q` in radians, in [0, pi].
pub fn angle(q: Quat) -> f32 {
    2.0 * q.w.abs().min(1.0).acos()
}

/// The component of `v` perpendicular to unit `axis`, normalized; `None` when `v`'s
/// perpendicular part is shorter than `min_len`.
pub fn perpendicular_dir(v: Vec3, axis: Vec3, min_len: f32) -> Option<Vec3> {
    let w = v - axis * v.dot(axis);
    let len = w.length();
    (len > min_len && len.is_finite()).then(|| w / len)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shortest_arc_maps_from_onto_to() {
        let from = Vec3::new(1.0, 2.0, 3.0);
        let to = Vec3::new(-2.0, 0.5, 1.0);
        let q = shortest_arc(from, to);
        let mapped = q * from.normalize();
        assert!((mapped - to.normalize()).length() < 1e-6);
    }

    #[test]
    fn shortest_arc_handles_opposite_and_zero() {
        let q = shortest_arc(Vec3::X, -Vec3::X);
        assert!(((q * Vec3::X) + Vec3::X).length() < 1e-6);
        assert!(q.is_normalized());
        assert_eq!(shortest_arc(Vec3::ZERO, Vec3::Y), Quat::IDENTITY);
        assert_eq!(shortest_arc(Vec3::Y, Vec3::ZERO), Quat::IDENTITY);
    }

    #[test]
    fn swing_twist_recomposes() {
        let q = Quat::from_euler(glam::EulerRot::XYZ, 0.3, -1.1, 0.7);
        let (s, t) = swing_twist(q, Vec3::Y);
        assert!((s * t).abs_diff_eq(q, 1e-6) || (s * t).abs_diff_eq(-q, 1e-6));
        let tv = Vec3::new(t.x, t.y, t.z);
        assert!(tv.cross(Vec3::Y).length() < 1e-6, "twist is about the axis");
        assert!(((s * Vec3::Y) - (q * Vec3::Y)).length() < 1e-6);
    }
}
