//! Joint masks, two-pose blends and layered blends.

use sinew::ffi::SinewStatus as St;

use super::skeleton::count_cases;
use crate::call::*;
use crate::header::Class::*;
use crate::table::*;
use crate::world::*;

pub fn cases(t: &mut Table) {
    masks(t);
    blend(t);
    layers(t);
    boundaries(t);
}

/// Unit-interval and positive arguments just outside their domain, and -0 (accepted as 0).
fn boundaries(t: &mut Table) {
    let mc = "sinew_joint_mask_create";
    t.float(mc, "value", Domain, -f32::MIN_POSITIVE, INVALID);
    t.float(mc, "value", Valid, -0.0, OK);
    t.int(
        "sinew_joint_mask_create_subtree",
        "root",
        Range,
        u32::MAX as i64,
        RANGE,
    );
    let mw = "sinew_joint_mask_set_weight";
    t.int(mw, "joint", Range, u32::MAX as i64, RANGE);
    t.float(mw, "weight", Domain, -f32::MIN_POSITIVE, INVALID);
    t.float(mw, "weight", Domain, 1.000_000_1, INVALID);
    let bl = "sinew_pose_blend";
    for x in [-f32::MIN_POSITIVE, 1.000_000_1, f32::MAX, -f32::MAX] {
        t.float(bl, "t", Domain, x, INVALID);
    }
    t.float(bl, "t", Valid, -0.0, OK);
    let ly = "sinew_pose_blend_layers";
    t.float(ly, "threshold", Domain, -0.0, INVALID);
    t.float(ly, "threshold", Domain, -f32::MIN_POSITIVE, INVALID);
    let tiny = |b: &mut Bufs| b.layers[1].weight = -f32::MIN_POSITIVE;
    t.bufs(
        ly,
        "layers.weight",
        Domain,
        "layer weight -FLT_MIN",
        tiny,
        INVALID,
    );
    let what = "a layer weight -0 under threshold FLT_MIN";
    let args = Args::none().float("threshold", f32::MIN_POSITIVE);
    let zero = bufs(|b| b.layers[1].weight = -0.0);
    t.add(ly, "layers.weight", Valid, what, args, zero, OK);
}

fn masks(t: &mut Table) {
    let mc = "sinew_joint_mask_create";
    t.float(mc, "value", Domain, -0.5, INVALID);
    t.float(mc, "value", Domain, 1.5, INVALID);
    let ms = "sinew_joint_mask_create_subtree";
    t.int(ms, "root", Range, J as i64, RANGE);
    t.int(ms, "blend_depth", Valid, u32::MAX as i64, OK);
    let mw = "sinew_joint_mask_set_weight";
    t.int(mw, "joint", Range, J as i64, RANGE);
    t.float(mw, "weight", Domain, -0.1, INVALID);
    let what = "last weight 1.5 (validated before any is written)";
    let last = |b: &mut Bufs| b.weights[J - 1] = 1.5;
    t.bufs(
        "sinew_joint_mask_set_weights",
        "weights",
        Domain,
        what,
        last,
        INVALID,
    );
    for export in [
        "sinew_joint_mask_set_weights",
        "sinew_joint_mask_get_weights",
    ] {
        count_cases(t, export);
    }
}

/// Poses of another skeleton (another joint count: SIZE_MISMATCH; the same count with other
/// parents: INVALID_ARGUMENT) for each of `params`.
pub fn other_skeletons(t: &mut Table, export: &'static str, params: [&'static str; 3]) {
    for p in params {
        t.swap(
            export,
            p,
            Size,
            &format!("{p} of another skeleton"),
            pose2,
            SIZE,
        );
        let what = format!("{p} of a skeleton with other parents");
        t.swap(export, p, Size, &what, pose3, INVALID);
    }
}

fn blend(t: &mut Table) {
    let none = Args::none;
    let bl = "sinew_pose_blend";
    t.float(bl, "t", Domain, -0.5, INVALID);
    t.float(bl, "t", Domain, 1.5, INVALID);
    t.int(bl, "space", Enum, 2, INVALID);
    t.int(bl, "space", Enum, -1, INVALID);
    other_skeletons(t, bl, ["a", "b", "out"]);
    t.swap(bl, "mask", Size, "mask of another skeleton", mask2, SIZE);
    let out_a = none().swap("mask", mask2).swap("out", pose_a);
    t.args(
        bl,
        "mask",
        Size,
        "mask of another skeleton, out == a",
        out_a,
        SIZE,
    );
    t.swap(bl, "out", Alias, "out == a (allowed)", pose_a, OK);
    t.swap(bl, "out", Alias, "out == b (allowed)", pose_b, OK);
    let all = || none().swap("a", pose_out).swap("b", pose_out);
    t.args(bl, "out", Alias, "a == b == out (allowed)", all(), OK);
    let nan = all().float("t", f32::NAN);
    t.args(
        bl,
        "t",
        Domain,
        "t NaN with out == a == b",
        nan,
        &[St::NonFinite],
    );
}

fn layers(t: &mut Table) {
    let ly = "sinew_pose_blend_layers";
    t.args(
        ly,
        "count",
        Count,
        "count 0 (the rest pose)",
        Args::none().int("count", 0),
        OK,
    );
    t.float(ly, "threshold", Domain, 0.0, INVALID);
    t.float(ly, "threshold", Domain, -1.0, INVALID);
    let negative = |b: &mut Bufs| b.layers[1].weight = -1.0;
    t.bufs(
        ly,
        "layers.weight",
        Domain,
        "layer weight -1",
        negative,
        INVALID,
    );
    let what = "all layer weights 0 (the rest pose)";
    let zero = |b: &mut Bufs| b.layers = [LayerWeight { weight: 0.0 }; 2];
    t.bufs(ly, "layers.weight", Valid, what, zero, OK);
    let null = Args::none().null("layers[1].pose");
    t.args(
        ly,
        "layers.pose",
        Null,
        "layers[1].pose = NULL",
        null,
        NULLP,
    );
    for (what, pose, expect) in [
        ("layer pose of another skeleton", pose2 as Swap, SIZE),
        (
            "layer pose of a skeleton with other parents",
            pose3,
            INVALID,
        ),
    ] {
        let args = Args::none().swap("layers[1].pose", pose);
        t.args(ly, "layers.pose", Size, what, args, expect);
    }
    let args = Args::none().swap("layers.mask", mask2);
    t.args(
        ly,
        "layers.mask",
        Size,
        "layer mask of another skeleton",
        args,
        SIZE,
    );
    t.swap(ly, "out", Size, "out of another skeleton", pose2, SIZE);
    t.swap(
        ly,
        "out",
        Size,
        "out of a skeleton with other parents",
        pose3,
        INVALID,
    );
    t.swap(ly, "out", Alias, "out is a layer's pose", pose_b, INVALID);
}
