//! Joint constraint value type, its conversion, and applying constraints to a pose.

use super::args::{arg_mut, arg_slice, flag, opt_arg};
use super::guard::{guard_void, FfiError, FfiResult};
use super::handle::update;
use super::pose::SinewPose;
use super::status::SinewStatus;
use super::types::{SinewQuat, SinewVec3};
use crate::constraint::{JointConstraint, Limit};
use glam::{Quat, Vec3};

/// Values of `SinewJointConstraint::type`.
#[repr(i32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SinewConstraintType {
    /// Ball and socket: swing inside an elliptical cone about `axis` (the bone), optionally
    /// with a twist range.
    Cone = 1,
    /// Rotation only about `axis`, in [min_angle, max_angle].
    Hinge = 2,
    /// Free swing, twist about `axis` in [min_angle, max_angle].
    Twist = 3,
}

/// A limit on a joint's local rotation (relative to its parent), centred on `reference`.
/// Angles are in radians. Fill with `sinew_joint_constraint_default` then adjust.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SinewJointConstraint {
    /// A `SinewConstraintType` value.
    pub r#type: i32,
    /// CONE only: 1 also limits twist about the bone to [min_angle, max_angle].
    pub limit_twist: u32,
    /// The local rotation at the centre of the limits, usually the rest pose's.
    pub reference: SinewQuat,
    /// In the joint's own frame: the bone axis (CONE, TWIST) or the hinge axis (HINGE).
    pub axis: SinewVec3,
    /// CONE: swing half-angle about the first axis perpendicular to `axis` (for an X axis: Y),
    /// in [0, pi].
    pub swing_half_angle_1: f32,
    /// CONE: swing half-angle about the second perpendicular axis (for an X axis: Z).
    pub swing_half_angle_2: f32,
    /// HINGE angle or twist lower bound, in [-pi, pi].
    pub min_angle: f32,
    /// HINGE angle or twist upper bound, in [min_angle, pi].
    pub max_angle: f32,
}

impl TryFrom<&SinewJointConstraint> for JointConstraint {
    type Error = FfiError;

    fn try_from(c: &SinewJointConstraint) -> FfiResult<Self> {
        let floats = [
            c.swing_half_angle_1,
            c.swing_half_angle_2,
            c.min_angle,
            c.max_angle,
        ];
        if !floats.iter().all(|v| v.is_finite()) {
            return Err(FfiError::new(
                SinewStatus::NonFinite,
                "a constraint angle is not finite (NaN or infinity), even if its type does not use it",
            ));
        }
        let (min, max) = (c.min_angle, c.max_angle);
        let limit = match c.r#type {
            1 => Limit::Cone {
                half_angle_1: c.swing_half_angle_1,
                half_angle_2: c.swing_half_angle_2,
                twist: flag(c.limit_twist, "limit_twist")?.then_some((min, max)),
            },
            2 => Limit::Hinge { min, max },
            3 => Limit::Twist { min, max },
            v => {
                return Err(FfiError::bad_enum(
                    "constraint type",
                    v,
                    "SinewConstraintType",
                ))
            }
        };
        Ok(JointConstraint::new(
            Quat::from(c.reference),
            Vec3::from(c.axis),
            limit,
        )?)
    }
}

/// Fills `out` with a cone of 45-degree half-angles about +X with a ±45-degree twist range
/// (disabled), centred on the identity. NULL is ignored.
#[no_mangle]
pub unsafe extern "C" fn sinew_joint_constraint_default(out: *mut SinewJointConstraint) {
    guard_void(|| {
        let out = unsafe { arg_mut(out, "out") }?;
        let quarter = std::f32::consts::FRAC_PI_4;
        *out = SinewJointConstraint {
            r#type: SinewConstraintType::Cone as i32,
            limit_twist: 0,
            reference: Quat::IDENTITY.into(),
            axis: Vec3::X.into(),
            swing_half_angle_1: quarter,
            swing_half_angle_2: quarter,
            min_angle: -quarter,
            max_angle: quarter,
        };
        Ok(())
    });
}

/// Projects the local rotations of `count` joints of `pose` onto their constraints
/// (`constraints[i]` applies to `joints[i]`). Every entry is validated before any is applied.
///
/// # Safety
/// `joints` and `constraints` must hold `count` items.
#[no_mangle]
pub unsafe extern "C" fn sinew_pose_apply_constraints(
    pose: *mut SinewPose,
    joints: *const u32,
    constraints: *const SinewJointConstraint,
    count: u32,
) -> SinewStatus {
    let apply = |pose: &mut SinewPose| {
        // SAFETY: both arrays hold `count` items.
        let (joints, constraints) = unsafe {
            let joints = arg_slice(joints, count, "joints")?;
            (joints, arg_slice(constraints, count, "constraints")?)
        };
        let pose = &mut pose.inner;
        for (&j, c) in joints.iter().zip(constraints) {
            pose.skeleton().check_joint(j as usize)?;
            JointConstraint::try_from(c)?;
        }
        for (&j, c) in joints.iter().zip(constraints) {
            pose.apply_constraint(j as usize, &c.try_into()?)?;
        }
        Ok(())
    };
    unsafe { update(pose, apply) }
}

/// Reads an optional constraint pointer: NULL clears.
pub(crate) unsafe fn read_constraint(
    constraint: *const SinewJointConstraint,
) -> FfiResult<Option<JointConstraint>> {
    let c = unsafe { opt_arg(constraint, "constraint") }?;
    c.map(JointConstraint::try_from).transpose()
}
