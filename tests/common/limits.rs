//! Joint limits described independently of `JointConstraint`: random limits and allowed
//! rotations, an independent check that a local rotation is allowed, and forward kinematics of
//! new poses, for the tests of constraints and of constrained chains.

use std::f32::consts::PI;

use sinew::rotation::shortest_arc;
use sinew::{JointConstraint, Limit, Quat, Transform, Vec3};

use super::rng::Rng;
use super::solvers::Solver;

/// Tolerance on every limit, in radians.
pub const LIMIT_TOL: f32 = 1e-3;

/// Model rotations from local ones (root relative to `root_parent`), keeping the translations
/// of `chain`'s local offsets: forward kinematics of a new pose of the same chain.
pub fn pose_chain(chain: &[Transform], root_parent: Quat, locals: &[Quat]) -> Vec<Transform> {
    let offsets: Vec<Vec3> = chain
        .windows(2)
        .map(|w| w[0].rotation.conjugate() * (w[1].translation - w[0].translation))
        .collect();
    let mut out = Vec::with_capacity(chain.len());
    let mut rotation = root_parent * locals[0];
    let mut position = chain[0].translation;
    out.push(Transform::from_rotation_translation(rotation, position));
    for i in 1..chain.len() {
        position += rotation * offsets[i - 1];
        rotation *= locals[i];
        out.push(Transform::from_rotation_translation(rotation, position));
    }
    out
}

/// What a constraint was built from, kept to check results without `JointConstraint`.
#[derive(Clone, Copy, Debug)]
pub struct Spec {
    pub reference: Quat,
    pub axis: Vec3,
    pub limit: Limit,
}

impl Spec {
    pub fn constraint(&self) -> JointConstraint {
        JointConstraint::new(self.reference, self.axis, self.limit).expect("valid spec")
    }

    /// The documented constraint frame: the shortest arc from X to the axis.
    pub fn frame(&self) -> Quat {
        shortest_arc(Vec3::X, self.axis)
    }

    /// `local` relative to the reference, in the constraint frame.
    pub fn relative(&self, local: Quat) -> Quat {
        let f = self.frame();
        f.conjugate() * self.reference.conjugate() * local * f
    }

    /// The local rotation with swing rotation vector `swing` (in the frame's YZ plane) and
    /// twist angle `twist` about the frame's X axis, relative to the reference.
    pub fn local_at(&self, swing: Vec3, twist: f32) -> Quat {
        self.local_from(Quat::from_scaled_axis(swing) * Quat::from_rotation_x(twist))
    }

    /// The local rotation whose relative rotation is `rel`.
    pub fn local_from(&self, rel: Quat) -> Quat {
        let f = self.frame();
        (self.reference * f * rel * f.conjugate()).normalize()
    }
}

/// `q = swing * twist`, twist about X, swing about an axis in the YZ plane (own implementation).
pub fn split(q: Quat) -> (Quat, f32) {
    let len = (q.w * q.w + q.x * q.x).sqrt();
    if len < 1e-9 {
        return (q, 0.0);
    }
    let twist = Quat::from_xyzw(q.x / len, 0.0, 0.0, q.w / len);
    let swing = q * twist.conjugate();
    let mut angle = 2.0 * twist.x.atan2(twist.w);
    if angle > PI {
        angle -= 2.0 * PI;
    } else if angle <= -PI {
        angle += 2.0 * PI;
    }
    (swing, angle)
}

/// Whether `angle` lies within `tol` of [min, max] on the circle.
pub fn angle_in_range(angle: f32, min: f32, max: f32, tol: f32) -> bool {
    [-2.0 * PI, 0.0, 2.0 * PI]
        .iter()
        .any(|k| (min - tol..=max + tol).contains(&(angle + k)))
}

/// Checks a local rotation against a spec, without `JointConstraint`: swing inside the ellipse
/// (in rotation-vector coordinates) and twist inside its range, each to `tol` radians.
pub fn check_allowed(spec: &Spec, local: Quat, tol: f32) -> Result<(), String> {
    let (swing, twist) = split(spec.relative(local));
    let v = swing.to_scaled_axis();
    let swing_angle = v.length();
    let twist_ok = |min: f32, max: f32| {
        if angle_in_range(twist, min, max, tol) {
            Ok(())
        } else {
            Err(format!("twist {twist} outside [{min}, {max}]"))
        }
    };
    match spec.limit {
        Limit::Cone {
            half_angle_1: a,
            half_angle_2: b,
            twist: range,
        } => {
            // Pull the point towards the origin by `tol` per axis: points within `tol` of the
            // ellipse pass.
            let term = |c: f32, half: f32| {
                let c = (c.abs() - tol).max(0.0);
                if c == 0.0 {
                    0.0
                } else if half <= 1e-6 {
                    f32::INFINITY
                } else {
                    (c / half).powi(2)
                }
            };
            let e = term(v.y, a) + term(v.z, b);
            if e > 1.0 + 1e-5 {
                return Err(format!(
                    "swing ({}, {}) outside ellipse ({a}, {b}): {e}",
                    v.y, v.z
                ));
            }
            if let Some((min, max)) = range {
                twist_ok(min, max)?;
            }
            Ok(())
        }
        Limit::Hinge { min, max } => {
            if swing_angle > tol {
                return Err(format!("hinge swing {swing_angle}"));
            }
            twist_ok(min, max)
        }
        Limit::Twist { min, max } => twist_ok(min, max),
    }
}

/// A random limit. `bone` is the bone's axis in the joint's frame (cone and twist limits use it,
/// hinges a random perpendicular axis).
pub fn random_spec(rng: &mut Rng, reference: Quat, bone: Vec3) -> Spec {
    let kind = rng.index(4);
    random_spec_of(rng, reference, bone, kind)
}

/// A random limit of a given kind: 0 or 1 cone, 2 hinge, 3 twist.
pub fn random_spec_of(rng: &mut Rng, reference: Quat, bone: Vec3, kind: usize) -> Spec {
    let bone = bone.try_normalize().unwrap_or(Vec3::X);
    let (limit, axis) = match kind {
        0 | 1 => (
            Limit::Cone {
                half_angle_1: rng.range(0.15, 1.3),
                half_angle_2: rng.range(0.15, 1.3),
                twist: rng
                    .chance(0.5)
                    .then(|| (rng.range(-1.2, 0.0), rng.range(0.0, 1.2))),
            },
            bone,
        ),
        2 => {
            let perpendicular = bone
                .cross(rng.dir())
                .try_normalize()
                .unwrap_or(bone.any_orthonormal_vector());
            (
                Limit::Hinge {
                    min: rng.range(-2.0, 0.0),
                    max: rng.range(0.0, 2.0),
                },
                perpendicular,
            )
        }
        _ => (
            Limit::Twist {
                min: rng.range(-1.5, 0.0),
                max: rng.range(0.0, 1.5),
            },
            bone,
        ),
    };
    Spec {
        reference,
        axis,
        limit,
    }
}

/// A random local rotation that satisfies `spec` with some margin.
pub fn random_allowed(rng: &mut Rng, spec: &Spec) -> Quat {
    let (swing, twist) = random_allowed_coords(rng, spec);
    spec.local_at(swing, twist)
}

/// The coordinates (swing rotation vector in the frame's YZ plane, twist angle about X) of a
/// random rotation that satisfies `spec` with some margin. Each limit is convex in these
/// coordinates, so every point of the segment between two such coordinates is allowed too.
pub fn random_allowed_coords(rng: &mut Rng, spec: &Spec) -> (Vec3, f32) {
    let twist_in = |rng: &mut Rng, min: f32, max: f32| {
        let m = 0.05 * (max - min);
        rng.range(min + m, max - m)
    };
    match spec.limit {
        Limit::Cone {
            half_angle_1: a,
            half_angle_2: b,
            twist,
        } => {
            let r = 0.95 * rng.unit_f32().sqrt();
            let t = rng.range(0.0, 2.0 * PI);
            let swing = Vec3::new(0.0, a * r * t.cos(), b * r * t.sin());
            let tw = match twist {
                Some((min, max)) => twist_in(rng, min, max),
                None => rng.range(-PI, PI),
            };
            (swing, tw)
        }
        Limit::Hinge { min, max } => (Vec3::ZERO, twist_in(rng, min, max)),
        Limit::Twist { min, max } => {
            let t = rng.range(0.0, 2.0 * PI);
            let s = rng.range(0.0, 2.0);
            let swing = Vec3::new(0.0, s * t.cos(), s * t.sin());
            (swing, twist_in(rng, min, max))
        }
    }
}

/// Sets every joint's constraint from its spec (none where there is none).
pub fn constrain(solver: &mut Solver, specs: &[Option<Spec>]) {
    for (i, s) in specs.iter().enumerate() {
        solver
            .set_constraint(i, s.as_ref().map(Spec::constraint))
            .unwrap();
    }
}
