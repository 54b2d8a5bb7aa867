//! Poses: local and model-space reads and writes.

use sinew::ffi::*;

use super::skeleton::count_cases;
use crate::call::*;
use crate::header::Class::*;
use crate::table::*;
use crate::world::*;

pub fn cases(t: &mut Table) {
    let none = Args::none;
    count_cases(
        t,
        &[
            "sinew_pose_get_local",
            "sinew_pose_set_local",
            "sinew_pose_get_model",
            "sinew_pose_compute_model",
            "sinew_pose_set_model",
        ],
    );
    let gl = "sinew_pose_get_local";
    let other = none().swap("pose", pose2).int("count", J2 as i64);
    t.at(gl, "count", Size)
        .args("pose of another skeleton, its count", other, OK);
    let misaligned = none().misaligned_by("out_local", 1);
    t.at(gl, "out_local", Align)
        .args("misaligned out_local", misaligned, INVALID);

    for export in [
        "sinew_pose_get_model_transform",
        "sinew_pose_set_model_transform",
    ] {
        t.at(export, "joint", Range)
            .ints(&[J as i64, u32::MAX as i64], RANGE);
    }
    for (export, what) in [
        ("sinew_pose_get_model", "model space overflows"),
        ("sinew_pose_compute_model", "model space overflows"),
        ("sinew_pose_get_model_transform", "model space overflows"),
        (
            "sinew_pose_set_model_transform",
            "parent model space overflows",
        ),
    ] {
        t.at(export, "pose", Overflow)
            .world(what, overflow_pose, OVERFLOW);
    }
    let sl = "sinew_pose_set_local";
    let zero = |b: &mut Bufs| b.locals[2].rotation = SinewQuat::default();
    t.at(sl, "local", Domain)
        .bufs("zero quaternion", zero, INVALID);
    let what = "every rotation component denormal (no usable direction)";
    let denormal = |b: &mut Bufs| {
        b.locals[2].rotation = SinewQuat {
            x: 1e-40,
            y: 1e-40,
            z: 1e-40,
            w: 1e-40,
        }
    };
    t.at(sl, "local", Denormal).bufs(what, denormal, INVALID);
    let sm = "sinew_pose_set_model";
    let zero = |b: &mut Bufs| b.model[6].rotation = SinewQuat::default();
    t.at(sm, "model", Domain)
        .bufs("zero quaternion", zero, INVALID);
    let zero_scale = |b: &mut Bufs| b.model[2].scale = v(0.0, 0.0, 0.0);
    t.at(sm, "model", Degenerate)
        .bufs("zero scale (safe reciprocal)", zero_scale, OK);
    let coincident = |b: &mut Bufs| b.model[3].translation = b.model[2].translation;
    t.at(sm, "model", Degenerate)
        .bufs("coincident joints", coincident, OK);
    let st = "sinew_pose_set_model_transform";
    let zero = |b: &mut Bufs| b.transform.rotation = SinewQuat::default();
    t.at(st, "transform", Domain)
        .bufs("zero quaternion", zero, INVALID);
    let pc = "sinew_pose_create";
    t.at(pc, "skeleton", Valid)
        .swap("a pose of the other skeleton", skel2, OK);
}
