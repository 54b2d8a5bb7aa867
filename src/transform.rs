//! `Transform`: translation, rotation, scale (TRS), composed like Unreal's `FTransform`; and
//! the checks transforms pass on the way in (finite, usable rotation) and out (finite).

use glam::{Mat4, Quat, Vec3, Vec3A, Vec4};

use crate::error::{Error, ErrorKind, Result};
use crate::rotation::{nlerp_shortest, normalize_robust};

/// A TRS transform. Composition `parent * child` rotates and scales the child's translation
/// by the parent, multiplies rotations, and multiplies scales per axis (the usual game-engine
/// approximation: exact for uniform scale, no shear is ever produced). With a non-uniform
/// scale above a rotation it is not associative, so model space is always composed root
/// first (see [`crate::Pose::model`]).
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C)]
pub struct Transform {
    /// Position, in the parent's space.
    pub translation: Vec3,
    /// Orientation; kept unit length.
    pub rotation: Quat,
    /// Per-axis scale.
    pub scale: Vec3,
}

impl Default for Transform {
    fn default() -> Self {
        Self::IDENTITY
    }
}

/// Per-axis reciprocal that maps a zero (degenerate) scale, or one whose reciprocal would not
/// fit in f32, to zero instead of infinity.
pub(crate) fn safe_recip(v: Vec3) -> Vec3 {
    let r = |x: f32| {
        let inv = 1.0 / x;
        if inv.is_finite() {
            inv
        } else {
            0.0
        }
    };
    Vec3::new(r(v.x), r(v.y), r(v.z))
}

impl Transform {
    /// No translation, no rotation, unit scale.
    pub const IDENTITY: Self = Self {
        translation: Vec3::ZERO,
        rotation: Quat::IDENTITY,
        scale: Vec3::ONE,
    };

    /// A transform from its three parts.
    pub fn new(translation: Vec3, rotation: Quat, scale: Vec3) -> Self {
        Self {
            translation,
            rotation,
            scale,
        }
    }

    /// A pure translation.
    pub fn from_translation(translation: Vec3) -> Self {
        Self {
            translation,
            ..Self::IDENTITY
        }
    }

    /// A rotation and translation with unit scale.
    pub fn from_rotation_translation(rotation: Quat, translation: Vec3) -> Self {
        Self {
            translation,
            rotation,
            scale: Vec3::ONE,
        }
    }

    /// `self * child`: the child expressed in `self`'s parent space.
    #[inline]
    pub fn mul_transform(&self, child: &Transform) -> Transform {
        Transform {
            translation: self.transform_point(child.translation),
            rotation: self.rotation * child.rotation,
            scale: self.scale * child.scale,
        }
    }

    /// `self⁻¹ * other`: `other` expressed relative to `self` (model to local).
    /// Zero scale axes map to zero rather than infinity.
    #[inline]
    pub fn inverse_mul(&self, other: &Transform) -> Transform {
        let inv_rot = self.rotation.conjugate();
        let inv_scale = safe_recip(self.scale);
        Transform {
            translation: inv_scale * (inv_rot * (other.translation - self.translation)),
            rotation: inv_rot * other.rotation,
            scale: inv_scale * other.scale,
        }
    }

    /// The inverse transform (exact for uniform scale).
    pub fn inverse(&self) -> Transform {
        self.inverse_mul(&Transform::IDENTITY)
    }

    /// Applies scale, rotation and translation to a point.
    #[inline]
    pub fn transform_point(&self, p: Vec3) -> Vec3 {
        (Vec3A::from(self.translation) + self.rotate_scaled(p)).into()
    }

    /// Applies scale and rotation to a direction.
    #[inline]
    pub fn transform_vector(&self, v: Vec3) -> Vec3 {
        self.rotate_scaled(v).into()
    }

    /// `v` scaled, then rotated as `v + w t + u × t` with `t = 2 u × v` (`u` the rotation's
    /// vector part, `w` its scalar part): two cross products, fewer operations
    /// than the general quaternion-vector product, which local-to-model does once per joint.
    #[inline]
    fn rotate_scaled(&self, v: Vec3) -> Vec3A {
        let v = Vec3A::from(self.scale * v);
        let q = Vec4::from(self.rotation);
        let u = Vec3A::from_vec4(q);
        let t = u.cross(v) * 2.0;
        v + t * q.w + u.cross(t)
    }

    /// The 4×4 matrix (column-major, for column vectors: `M · (p, 1)` is
    /// [`Self::transform_point`] of `p`, to rounding) that scales, rotates, then translates.
    /// With the rotation `(x, y, z, w)`, each rotation column is multiplied by its axis' scale:
    ///
    /// ```text
    /// col0 = s.x · (1 − 2(y² + z²), 2(xy + wz), 2(xz − wy), 0)
    /// col1 = s.y · (2(xy − wz), 1 − 2(x² + z²), 2(yz + wx), 0)
    /// col2 = s.z · (2(xz + wy), 2(yz − wx), 1 − 2(x² + y²), 0)
    /// col3 = (t.x, t.y, t.z, 1)
    /// ```
    ///
    /// Scalar arithmetic in this order, so the same bits on every platform.
    pub fn to_matrix(&self) -> Mat4 {
        let [x, y, z, w] = self.rotation.to_array();
        let (s, t) = (self.scale, self.translation);
        let (xx, yy, zz) = (x * x, y * y, z * z);
        let (xy, xz, yz, wx, wy, wz) = (x * y, x * z, y * z, w * x, w * y, w * z);
        Mat4::from_cols_array(&[
            s.x * (1.0 - 2.0 * (yy + zz)),
            s.x * (2.0 * (xy + wz)),
            s.x * (2.0 * (xz - wy)),
            0.0,
            s.y * (2.0 * (xy - wz)),
            s.y * (1.0 - 2.0 * (xx + zz)),
            s.y * (2.0 * (yz + wx)),
            0.0,
            s.z * (2.0 * (xz + wy)),
            s.z * (2.0 * (yz - wx)),
            s.z * (1.0 - 2.0 * (xx + yy)),
            0.0,
            t.x,
            t.y,
            t.z,
            1.0,
        ])
    }

    /// Blends towards `other` by `t`: linear translation and scale, shortest-arc nlerp rotation.
    /// Written as `a (1 - t) + b t`, so a convex blend of finite transforms never overflows.
    #[inline]
    pub fn mix(&self, other: &Transform, t: f32) -> Transform {
        Transform {
            translation: self.translation * (1.0 - t) + other.translation * t,
            rotation: nlerp_shortest(self.rotation, other.rotation, t),
            scale: self.scale * (1.0 - t) + other.scale * t,
        }
    }

    /// Zero (±0 in each lane) when every component is finite, NaN lanes otherwise: sums of
    /// these check a whole pass over many transforms with one comparison at the end.
    #[inline]
    pub(crate) fn zero_probe(&self) -> Vec4 {
        let (t, s) = (self.translation, self.scale);
        Vec4::new(t.x, t.y, t.z, s.x) * 0.0
            + Vec4::from(self.rotation) * 0.0
            + Vec4::new(s.y, s.z, s.z, s.z) * 0.0
    }

    /// True when every component is finite.
    #[inline]
    pub fn is_finite(&self) -> bool {
        // Three four-lane comparisons without branches instead of ten scalar ones: hot loops
        // check every transform they write.
        let (t, s) = (self.translation, self.scale);
        (Vec4::new(t.x, t.y, t.z, s.x).is_finite_mask()
            & Vec4::from(self.rotation).is_finite_mask()
            & Vec4::new(s.y, s.z, s.z, s.z).is_finite_mask())
        .all()
    }
}

/// Checks a transform's components are finite and its rotation usable, returning it with the
/// rotation renormalized. `what` names it in the error and is only called on failure, so the
/// success path allocates nothing.
#[inline]
pub(crate) fn validated_transform(t: &Transform, what: impl Fn() -> String) -> Result<Transform> {
    // The common outcome, the transform as it is, is decided inline: as a call, the result
    // came back through memory in pieces and reading it back stalled hot solve loops.
    if t.is_finite() && normalize_robust(t.rotation) == Some(t.rotation) {
        return Ok(*t);
    }
    renormalized_transform(t, what)
}

/// [`validated_transform`] for transforms that are not finite or not unit.
#[cold]
fn renormalized_transform(t: &Transform, what: impl Fn() -> String) -> Result<Transform> {
    if !t.is_finite() {
        return Err(Error::new(
            ErrorKind::NonFinite,
            format!("{} is not finite (NaN or infinity)", what()),
        ));
    }
    let rotation = normalize_robust(t.rotation).ok_or_else(|| {
        Error::new(
            ErrorKind::InvalidArgument,
            format!("{} has a zero-length rotation quaternion", what()),
        )
    })?;
    Ok(Transform { rotation, ..*t })
}

/// Checks an optional effector rotation and returns it normalized.
pub(crate) fn validated_rotation(rotation: Option<Quat>) -> Result<Option<Quat>> {
    let Some(r) = rotation else { return Ok(None) };
    if !r.is_finite() {
        return Err(Error::new(
            ErrorKind::NonFinite,
            "effector rotation is not finite (NaN or infinity)",
        ));
    }
    normalize_robust(r).map(Some).ok_or_else(|| {
        Error::new(
            ErrorKind::InvalidArgument,
            "effector rotation is a zero-length quaternion",
        )
    })
}

/// Checks every transform of `src` as [`validated_transform`] does, then passes each one,
/// renormalized, to `write(i, t)`: nothing is written on error. `what(i)` names transform `i`
/// in the error.
pub(crate) fn write_validated<I>(
    src: I,
    what: impl Fn(usize) -> String,
    mut write: impl FnMut(usize, Transform),
) -> Result<()>
where
    I: Iterator<Item = Transform> + Clone,
{
    for (i, t) in src.clone().enumerate() {
        validated_transform(&t, || what(i))?;
    }
    for (i, t) in src.enumerate() {
        // Validated above, so this only normalizes (robustly, for huge quaternions too).
        write(i, validated_transform(&t, String::new)?);
    }
    Ok(())
}

/// The error for finite inputs whose model-space result leaves f32's range.
pub(crate) fn overflow() -> Error {
    Error::new(
        ErrorKind::NumericOverflow,
        "model-space transforms are not representable in f32 (pose magnitudes too large)",
    )
}

/// Passes a finite transform through, or fails with [`overflow`].
pub(crate) fn finite(t: Transform) -> Result<Transform> {
    if t.is_finite() {
        Ok(t)
    } else {
        Err(overflow())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> (Transform, Transform) {
        let a = Transform::new(
            Vec3::new(1.0, 2.0, 3.0),
            Quat::from_rotation_y(0.7),
            Vec3::splat(2.0),
        );
        let b = Transform::new(
            Vec3::new(-0.5, 0.25, 4.0),
            Quat::from_rotation_x(-0.3),
            Vec3::new(1.0, 0.5, 3.0),
        );
        (a, b)
    }

    #[test]
    fn inverse_mul_undoes_mul() {
        let (a, b) = sample();
        let back = a.inverse_mul(&a.mul_transform(&b));
        assert!(back.translation.abs_diff_eq(b.translation, 1e-5));
        assert!(back.rotation.abs_diff_eq(b.rotation, 1e-6));
        assert!(back.scale.abs_diff_eq(b.scale, 1e-6));
    }

    #[test]
    fn mix_endpoints_are_exact() {
        let (a, b) = sample();
        assert_eq!(a.mix(&b, 0.0).translation, a.translation);
        assert!(a.mix(&b, 1.0).rotation.abs_diff_eq(b.rotation, 1e-6));
    }

    #[test]
    fn zero_scale_inverse_stays_finite() {
        let mut a = sample().0;
        a.scale = Vec3::ZERO;
        assert!(a.inverse().is_finite());
    }
}
