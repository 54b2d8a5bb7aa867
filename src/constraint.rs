//! Joint constraints: limits on a joint's local rotation, measured from a reference (rest)
//! orientation in a frame whose X axis is the constraint axis (the bone for cones and twist
//! limits, the hinge axis for hinges). Projection onto a limit is continuous.

use std::f32::consts::PI;

use glam::{Quat, Vec3};

use crate::error::{ensure_finite, Error, ErrorKind, Result};
use crate::math;
use crate::rotation::{shortest_arc, swing_twist};

/// Which rotations a joint allows, relative to its reference orientation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Limit {
    /// Ball and socket: the bone's swing stays inside an elliptical cone with half-angles
    /// `half_angle_1` (about the frame's Y axis) and `half_angle_2` (about Z), radians; optionally
    /// the twist about the bone stays in `twist` (min, max).
    Cone {
        /// Half-angle of swing about the first perpendicular axis, in [0, pi].
        half_angle_1: f32,
        /// Half-angle of swing about the second perpendicular axis, in [0, pi].
        half_angle_2: f32,
        /// Optional twist range (min, max) in radians, within [-pi, pi].
        twist: Option<(f32, f32)>,
    },
    /// Rotation only about the axis, between `min` and `max` radians.
    Hinge {
        /// Smallest angle, in [-pi, pi].
        min: f32,
        /// Largest angle, in [min, pi].
        max: f32,
    },
    /// Free swing; twist about the axis between `min` and `max` radians.
    Twist {
        /// Smallest angle, in [-pi, pi].
        min: f32,
        /// Largest angle, in [min, pi].
        max: f32,
    },
}

/// A limit on one joint's local rotation (relative to its parent).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct JointConstraint {
    reference: Quat,
    frame: Quat,
    limit: Limit,
}

impl JointConstraint {
    /// A constraint centred on the local rotation `reference` (usually the rest pose's), about
    /// `axis` in the joint's own frame. The frame's perpendicular axes are X's images under the
    /// shortest arc from X to `axis` (for X-aligned bones, exactly Y and Z).
    pub fn new(reference: Quat, axis: Vec3, limit: Limit) -> Result<Self> {
        ensure_finite(reference.is_finite(), "constraint reference rotation")?;
        ensure_finite(axis.is_finite(), "constraint axis")?;
        let invalid = |m: &str| Err(Error::new(ErrorKind::InvalidArgument, m.to_owned()));
        let Some(reference) = crate::rotation::normalize_robust(reference) else {
            return invalid("constraint reference rotation is a zero quaternion");
        };
        if axis.length_squared() < 1e-12 {
            return invalid("constraint axis is a zero vector");
        }
        let range = |min: f32, max: f32, what: &str| -> Result<()> {
            ensure_finite(min.is_finite() && max.is_finite(), what)?;
            if !(-PI..=PI).contains(&min) || !(-PI..=PI).contains(&max) || min > max {
                return Err(Error::new(
                    ErrorKind::InvalidArgument,
                    format!("{what} [{min}, {max}] must satisfy -pi <= min <= max <= pi"),
                ));
            }
            Ok(())
        };
        match limit {
            Limit::Cone {
                half_angle_1,
                half_angle_2,
                twist,
            } => {
                ensure_finite(
                    half_angle_1.is_finite() && half_angle_2.is_finite(),
                    "cone half-angle",
                )?;
                if !(0.0..=PI).contains(&half_angle_1) || !(0.0..=PI).contains(&half_angle_2) {
                    return invalid("cone half-angles must lie in [0, pi]");
                }
                if let Some((min, max)) = twist {
                    range(min, max, "twist range")?;
                }
            }
            Limit::Hinge { min, max } => range(min, max, "hinge range")?,
            Limit::Twist { min, max } => range(min, max, "twist range")?,
        }
        Ok(Self {
            reference,
            frame: shortest_arc(Vec3::X, axis),
            limit,
        })
    }

    /// The reference local rotation.
    pub fn reference(&self) -> Quat {
        self.reference
    }

    /// The limit.
    pub fn limit(&self) -> Limit {
        self.limit
    }

    /// The constraint axis in the joint's own frame.
    pub fn axis(&self) -> Vec3 {
        self.frame * Vec3::X
    }

    /// `local` limited (itself, bit for bit, when allowed): split into swing and twist about
    /// the axis (relative to the reference), the swing's rotation vector moved to the nearest
    /// point of the ellipse, the twist clamped to the nearer end of its range (a hinge drops
    /// any swing), then recombined as swing times twist. Continuous in `local`; the nearest
    /// allowed rotation when only one of swing and twist is out of range, not always when both
    /// are far out.
    pub fn project(&self, local: Quat) -> Quat {
        let rel = self.frame.conjugate() * self.reference.conjugate() * local * self.frame;
        let (swing, twist) = swing_twist(rel, Vec3::X);
        let (limited_swing, limited_twist) = match self.limit {
            Limit::Cone {
                half_angle_1,
                half_angle_2,
                twist: range,
            } => (
                limit_swing(swing, half_angle_1, half_angle_2),
                range.map_or(twist, |(min, max)| clamp_twist(twist, min, max)),
            ),
            Limit::Hinge { min, max } => (
                if crate::rotation::angle(swing) <= ALLOWED_SLACK {
                    swing
                } else {
                    Quat::IDENTITY
                },
                clamp_twist(twist, min, max),
            ),
            Limit::Twist { min, max } => (swing, clamp_twist(twist, min, max)),
        };
        if limited_swing == swing && limited_twist == twist {
            // Allowed: returned bit for bit, so solves of satisfied chains add no rounding.
            return local;
        }
        let limited = limited_swing * limited_twist;
        (self.reference * self.frame * limited * self.frame.conjugate()).normalize()
    }

    /// For a hinge, the angle (radians) of `local` about its axis past the middle of its range,
    /// in (-2 pi, 2 pi); `None` for other limits.
    pub(crate) fn hinge_offset(&self, local: Quat) -> Option<f32> {
        let Limit::Hinge { min, max } = self.limit else {
            return None;
        };
        let rel = self.frame.conjugate() * self.reference.conjugate() * local * self.frame;
        let (_, twist) = swing_twist(rel, Vec3::X);
        Some(twist_angle(twist) - 0.5 * (min + max))
    }

    /// How far (radians) `local` lies outside the limit; 0 when allowed.
    pub fn violation(&self, local: Quat) -> f32 {
        let projected = self.project(local);
        crate::rotation::angle(projected.conjugate() * local)
    }
}

/// Swing a hinge tolerates without projecting (radians): rounding, not a real swing.
const ALLOWED_SLACK: f32 = 1e-6;

/// Signed angle of a twist quaternion about +X, in (-pi, pi].
fn twist_angle(twist: Quat) -> f32 {
    let a = 2.0 * math::atan2(twist.x, twist.w);
    if a > PI {
        a - 2.0 * PI
    } else if a <= -PI {
        a + 2.0 * PI
    } else {
        a
    }
}

/// Clamps a twist about X to [min, max], choosing the nearer end when outside.
fn clamp_twist(twist: Quat, min: f32, max: f32) -> Quat {
    let a = twist_angle(twist);
    if (min..=max).contains(&a) {
        return twist;
    }
    let dist = |b: f32| {
        let d = (a - b).abs() % (2.0 * PI);
        d.min(2.0 * PI - d)
    };
    let clamped = if dist(min) <= dist(max) { min } else { max };
    Quat::from_rotation_x(clamped)
}

/// Moves a swing (rotation about an axis in the YZ plane) to the nearest point of the ellipse
/// with half-angles `a` about Y and `b` about Z, in rotation-vector coordinates.
fn limit_swing(swing: Quat, a: f32, b: f32) -> Quat {
    let v = swing.to_scaled_axis();
    let (y, z) = closest_in_ellipse(v.y, v.z, a, b);
    if (y, z) == (v.y, v.z) {
        return swing;
    }
    Quat::from_scaled_axis(Vec3::new(0.0, y, z))
}

/// The point of the filled ellipse `(y/a)^2 + (z/b)^2 <= 1` nearest to `(y, z)`. Zero
/// half-angles lock that axis (the ellipse becomes a segment or a point).
fn closest_in_ellipse(y: f32, z: f32, a: f32, b: f32) -> (f32, f32) {
    const LOCKED: f32 = 1e-6;
    match (a > LOCKED, b > LOCKED) {
        (false, false) => return (0.0, 0.0),
        (true, false) => return (y.clamp(-a, a), 0.0),
        (false, true) => return (0.0, z.clamp(-b, b)),
        (true, true) => {}
    }
    if (y / a).powi(2) + (z / b).powi(2) <= 1.0 {
        return (y, z);
    }
    if a == b {
        // A circle: the nearest point is straight toward the centre.
        let scale = a / math::hypot(y, z);
        return (y * scale, z * scale);
    }
    // Work in the first quadrant with the longer axis first, then restore signs and order.
    let (swap, e0, e1, p0, p1) = if a >= b {
        (false, a, b, y.abs(), z.abs())
    } else {
        (true, b, a, z.abs(), y.abs())
    };
    let (x0, x1) = nearest_on_ellipse_quadrant(e0 as f64, e1 as f64, p0 as f64, p1 as f64);
    let (x0, x1) = (x0 as f32, x1 as f32);
    let (cy, cz) = if swap { (x1, x0) } else { (x0, x1) };
    (cy.copysign(y), cz.copysign(z))
}

/// Relative width (2^-30) below which the ellipse bisection's bracket no longer matters in f32.
const SETTLED: f64 = 1.0 / (1u64 << 30) as f64;

/// Nearest point on the ellipse with semi-axes `e0 >= e1 > 0` to `(p0, p1)`, both >= 0, outside
/// it (Eberly, "Distance from a point to an ellipse"): bisection on the Lagrange parameter.
fn nearest_on_ellipse_quadrant(e0: f64, e1: f64, p0: f64, p1: f64) -> (f64, f64) {
    if p1 > 0.0 {
        if p0 > 0.0 {
            let (z0, z1) = (p0 / e0, p1 / e1);
            let r0 = (e0 / e1).powi(2);
            let n0 = r0 * z0;
            let (mut s0, mut s1) = (z1 - 1.0, math::hypot_f64(n0, z1) - 1.0);
            let mut s = 0.0;
            for _ in 0..96 {
                s = 0.5 * (s0 + s1);
                // The point is p1 / (s + 1) and r0 p0 / (s + r0) with r0 >= 1, so a bracket
                // narrower than SETTLED times s + 1 is as good as exhausting f64.
                if s == s0 || s == s1 || s1 - s0 <= (s + 1.0) * SETTLED {
                    break;
                }
                let g = (n0 / (s + r0)).powi(2) + (z1 / (s + 1.0)).powi(2) - 1.0;
                if g > 0.0 {
                    s0 = s;
                } else if g < 0.0 {
                    s1 = s;
                } else {
                    break;
                }
            }
            (r0 * p0 / (s + r0), p1 / (s + 1.0))
        } else {
            (0.0, e1)
        }
    } else {
        let (numer, denom) = (e0 * p0, e0 * e0 - e1 * e1);
        if numer < denom {
            let x = numer / denom;
            (e0 * x, e1 * (1.0 - x * x).max(0.0).sqrt())
        } else {
            (e0, 0.0)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_point_lies_on_the_ellipse_and_is_closest() {
        let (a, b) = (0.8, 0.3);
        for &(y, z) in &[
            (2.0f32, 1.0f32),
            (-0.1, 0.9),
            (1.5, 0.0),
            (0.0, -2.0),
            (-3.0, -0.2),
        ] {
            let (cy, cz) = closest_in_ellipse(y, z, a, b);
            assert!(
                ((cy / a).powi(2) + (cz / b).powi(2) - 1.0).abs() < 1e-4,
                "on the boundary"
            );
            let d = (cy - y).hypot(cz - z);
            for k in 0..360 {
                let t = k as f32 * PI / 180.0;
                let (ey, ez) = (a * t.cos(), b * t.sin());
                assert!(
                    d <= (ey - y).hypot(ez - z) + 1e-4,
                    "no boundary point is closer"
                );
            }
        }
        assert_eq!(closest_in_ellipse(0.1, 0.1, a, b), (0.1, 0.1));
        assert_eq!(closest_in_ellipse(0.5, 0.7, 0.0, 0.4), (0.0, 0.4));
    }

    #[test]
    fn hinge_keeps_only_rotation_about_its_axis() {
        let c = JointConstraint::new(
            Quat::IDENTITY,
            Vec3::Z,
            Limit::Hinge {
                min: -0.5,
                max: 1.0,
            },
        )
        .unwrap();
        let q = Quat::from_rotation_z(0.7) * Quat::from_rotation_x(0.3);
        let p = c.project(q);
        let axis_of = p.to_scaled_axis();
        assert!(axis_of.x.abs() < 1e-5 && axis_of.y.abs() < 1e-5);
        assert!((axis_of.z - 0.7).abs() < 1e-5);
        assert!((c.project(Quat::from_rotation_z(2.0)).to_scaled_axis().z - 1.0).abs() < 1e-5);
    }

    #[test]
    fn projection_is_identity_inside_and_idempotent() {
        let reference = Quat::from_rotation_y(0.4);
        let c = JointConstraint::new(
            reference,
            Vec3::X,
            Limit::Cone {
                half_angle_1: 0.6,
                half_angle_2: 0.3,
                twist: Some((-0.2, 0.4)),
            },
        )
        .unwrap();
        let inside = reference * Quat::from_rotation_z(0.1);
        assert!(c.project(inside).abs_diff_eq(inside, 1e-6));
        let outside = reference * Quat::from_rotation_z(1.2) * Quat::from_rotation_x(1.0);
        let once = c.project(outside);
        assert!(c.violation(once) < 1e-4);
        assert!(c.project(once).abs_diff_eq(once, 1e-5));
    }
}
