//! Rotation helpers that IK needs to be robust: shortest arcs and swing-twist.

use glam::{Quat, Vec3, Vec3A, Vec4};

use crate::math;

/// `v` scaled to unit length, robust to huge and tiny finite inputs; `None` for zero or
/// non-finite vectors.
fn unit(v: Vec3) -> Option<Vec3> {
    let len_sq = v.length_squared();
    if len_sq.is_finite() && len_sq > 1e-30 {
        // The common case: no overflow or underflow in the squares.
        return Some(v / len_sq.sqrt());
    }
    let m = v.abs().max_element();
    if !(m > 0.0 && m.is_finite()) {
        return None;
    }
    let scaled = v / m;
    Some(scaled / scaled.length())
}

/// Half-angle form of the arc between unit vectors that are not near opposite.
fn arc_between_units(f: Vec3, t: Vec3) -> Quat {
    let c = f.cross(t);
    Quat::from_xyzw(c.x, c.y, c.z, 1.0 + f.dot(t)).normalize()
}

/// The minimal arc from unit `f` to unit `t` scaled by a positive factor (in (0, 2]), for
/// callers that normalize after composing; `None` near opposite, where this form loses
/// precision and [`shortest_arc`] must be used.
pub(crate) fn unit_arc_unnormalized(f: Vec3A, t: Vec3A) -> Option<Quat> {
    let d = f.dot(t);
    (d > -0.99).then(|| Quat::from_vec4(f.cross(t).extend(1.0 + d)))
}

/// The smallest rotation that turns direction `from` into direction `to`.
///
/// Inputs need not be normalized and may have any finite length. A zero input gives the
/// identity. Near-opposite directions are handled as a half turn followed by a small arc, so
/// the result stays precise up to exactly opposite (where the axis is a fixed perpendicular).
pub fn shortest_arc(from: Vec3, to: Vec3) -> Quat {
    let (Some(f), Some(t)) = (unit(from), unit(to)) else {
        return Quat::IDENTITY;
    };
    if f.dot(t) > -0.99 {
        return arc_between_units(f, t);
    }
    // Half turn about an axis perpendicular to f (toward t where defined), then the small arc
    // from -f to t: together exactly the minimal rotation.
    let axis = perpendicular_dir(f.cross(t), f, 1e-7).unwrap_or_else(|| f.any_orthonormal_vector());
    let half_turn = Quat::from_xyzw(axis.x, axis.y, axis.z, 0.0);
    (arc_between_units(-f, t) * half_turn).normalize()
}

/// Splits `q` into `swing * twist`, where `twist` rotates about `axis` and `swing` about an
/// axis perpendicular to it. `axis` must be unit length. Applying `q` to `axis` equals
/// applying `swing` to it. A half-turn swing (no defined twist) gives an identity twist.
pub fn swing_twist(q: Quat, axis: Vec3) -> (Quat, Quat) {
    let v = Vec3::new(q.x, q.y, q.z);
    let p = axis * v.dot(axis);
    let twist = Quat::from_xyzw(p.x, p.y, p.z, q.w);
    let len_sq = twist.length_squared();
    if len_sq < 1e-24 {
        return (q, Quat::IDENTITY);
    }
    let twist = twist / len_sq.sqrt();
    (q * twist.conjugate(), twist)
}

/// Normalizes a quaternion of any finite magnitude (scaling first when its squared length
/// would overflow or underflow); `None` when it is shorter than 1e-6 (no usable direction) or
/// not finite. Quaternions already unit to within 1e-6 are returned unchanged.
pub fn normalize_robust(q: Quat) -> Option<Quat> {
    let len_sq = length_squared(q);
    // Already unit to working precision: pass it through bit for bit.
    if (len_sq - 1.0).abs() <= 1e-6 {
        return Some(q);
    }
    // The common case: a length of at least 1e-6 whose square is representable.
    if (1e-12..=f32::MAX).contains(&len_sq) {
        return Some(q * (1.0 / len_sq.sqrt()));
    }
    let m = q.x.abs().max(q.y.abs()).max(q.z.abs()).max(q.w.abs());
    if !(m.is_finite() && m >= 1e-6 * 0.5) {
        return None;
    }
    let scaled = q / m;
    let len = scaled.length();
    (m * len >= 1e-6).then(|| scaled / len)
}

/// Squared length summed as `(x² + z²) + (y² + w²)`, the order of the four-lane form in
/// [`crate::soa::normalize4`], so that both forms give the same bits on every platform.
#[inline]
fn length_squared(q: Quat) -> f32 {
    (q.x * q.x + q.z * q.z) + (q.y * q.y + q.w * q.w)
}

/// Interpolates two rotations along the shorter arc and renormalizes (nlerp).
pub fn nlerp_shortest(a: Quat, b: Quat, t: f32) -> Quat {
    let b = same_hemisphere(b, a);
    (a + (b - a) * t).normalize()
}

/// `q`, negated when its dot product with `reference` is negative (the same rotation, on
/// `reference`'s side). Branch-free: which side a blended rotation is on is unpredictable.
#[inline]
pub(crate) fn same_hemisphere(q: Quat, reference: Quat) -> Quat {
    let v = Vec4::from(q);
    let flip = Vec4::from(reference).dot_into_vec(v).cmplt(Vec4::ZERO);
    Quat::from_vec4(Vec4::select(flip, Vec4::from(-q), v))
}

/// Rotation angle of `q` in radians, in [0, pi].
pub fn angle(q: Quat) -> f32 {
    // atan2 of the vector part's length keeps precision near the identity, where acos(w) does not.
    2.0 * math::atan2(Vec3::new(q.x, q.y, q.z).length(), q.w.abs())
}

/// The component of `v` perpendicular to unit `axis`, normalized; `None` when `v`'s
/// perpendicular part is shorter than `min_len`. Orthogonalized again when `v` is nearly
/// parallel to `axis`, so the result is perpendicular to working precision either way.
pub fn perpendicular_dir(v: Vec3, axis: Vec3, min_len: f32) -> Option<Vec3> {
    perpendicular_unit(v.into(), axis.into(), min_len).map(Vec3::from)
}

/// [`perpendicular_dir`] on SIMD vectors. The second orthogonalization only runs when `v` is
/// within 30 degrees of `axis`: otherwise one pass is already perpendicular to 2 ulp.
pub(crate) fn perpendicular_unit(v: Vec3A, axis: Vec3A, min_len: f32) -> Option<Vec3A> {
    let w = v - axis * v.dot(axis);
    let len_sq = w.length_squared();
    let len = len_sq.sqrt();
    if !(len > min_len && len.is_finite()) {
        return None;
    }
    let u = w / len;
    if len_sq >= 0.25 * v.length_squared() {
        return Some(u);
    }
    (u - axis * u.dot(axis)).try_normalize()
}

/// A bend direction that moves with a joint: its local axis most perpendicular to the bone it
/// starts (`local_bone`, in the joint's frame; a per-rig constant), taken to model space by
/// `rotation` and made perpendicular to the unit `dir`. What straight chains bend toward.
pub(crate) fn frame_perpendicular(rotation: Quat, local_bone: Vec3A, dir: Vec3A) -> Vec3A {
    let mut axes = [Vec3A::X, Vec3A::Y, Vec3A::Z];
    axes.sort_by(|p, q| {
        local_bone
            .dot(*p)
            .abs()
            .total_cmp(&local_bone.dot(*q).abs())
    });
    axes.iter()
        .find_map(|&e| perpendicular_unit(rotation * e, dir, 1e-3))
        .unwrap_or_else(|| dir.any_orthonormal_vector())
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
