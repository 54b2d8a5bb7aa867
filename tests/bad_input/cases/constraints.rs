//! Joint constraints: applied to a pose, and the constraint struct every solver takes.

use sinew::ffi::SinewStatus as St;
use sinew::ffi::*;

use crate::call::Args;
use crate::header::Class::{self, *};
use crate::table::*;
use crate::world::*;

pub fn cases(t: &mut Table) {
    let ac = "sinew_pose_apply_constraints";
    t.at(ac, "count", Count).int(0, OK);
    let what = "joints[1] = joint count (validated before any is applied)";
    t.at(ac, "joints", Range)
        .bufs(what, |b| b.apply_joints[1] = J as u32, RANGE);
    let what = "pose of another skeleton (joints out of its range)";
    t.at(ac, "pose", Size).swap(what, pose2, RANGE);
    constraint_cases(t, ac, "constraints", |b| &mut b.constraints[1]);
}

/// Integer fields and domain errors of a constraint argument.
pub fn constraint_cases(
    t: &mut Table,
    export: &'static str,
    param: &str,
    at: fn(&mut Bufs) -> &mut SinewJointConstraint,
) {
    let cases: [(&str, &str, Class, ConstraintEdit); 9] = [
        ("type", "type 0", Enum, |c| c.r#type = 0),
        ("type", "type 4", Enum, |c| c.r#type = 4),
        ("limit_twist", "limit_twist 2", Enum, |c| c.limit_twist = 2),
        ("axis", "zero axis", Domain, |c| c.axis = v(0.0, 0.0, 0.0)),
        ("reference", "zero reference quaternion", Domain, |c| {
            c.reference = SinewQuat::default()
        }),
        ("min_angle", "min_angle above max_angle", Domain, |c| {
            (c.min_angle, c.max_angle) = (0.4, -0.4)
        }),
        (
            "swing_half_angle_1",
            "swing_half_angle_1 above pi",
            Domain,
            |c| c.swing_half_angle_1 = 3.5,
        ),
        (
            "swing_half_angle_2",
            "negative swing_half_angle_2",
            Domain,
            |c| c.swing_half_angle_2 = -0.1,
        ),
        ("max_angle", "max_angle above pi", Domain, |c| {
            c.max_angle = 3.5
        }),
    ];
    for (field, what, class, f) in cases {
        let path = format!("{param}.{field}");
        let what = format!("{param}: {what}");
        t.at(export, &path, class)
            .add(&what, Args::none(), bufs(move |b| f(at(b))), INVALID);
    }
    // A hinge ignores the swing angles, but by the ABI's convention NaN is still NON_FINITE.
    let hinge = move |b: &mut Bufs| {
        let c = at(b);
        c.r#type = SinewConstraintType::Hinge as i32;
        c.swing_half_angle_1 = f32::NAN;
    };
    let path = format!("{param}.swing_half_angle_1");
    let what = "hinge with NaN swing angle";
    t.at(export, &path, Nan).bufs(what, hinge, &[St::NonFinite]);
}
