//! Joint masks, two-pose blends and layered blends (with and without additive layers).

use sinew::ffi::SinewStatus as St;

use super::skeleton::count_cases;
use crate::call::*;
use crate::header::Class::*;
use crate::table::*;
use crate::world::*;

pub fn cases(t: &mut Table) {
    masks(t);
    blend(t);
    for export in LAYERED {
        layers(t, export);
    }
    additive_layers(t);
    boundaries(t);
}

/// The layered blends, which take `layers`, `count` and `threshold` alike.
const LAYERED: [&str; 2] = [
    "sinew_pose_blend_layers",
    "sinew_pose_blend_layers_additive",
];

/// Unit-interval and positive arguments just outside their domain, and -0 (accepted as 0).
fn boundaries(t: &mut Table) {
    let mc = "sinew_joint_mask_create";
    t.at(mc, "value", Domain).float(-f32::MIN_POSITIVE, INVALID);
    t.at(mc, "value", Valid).float(-0.0, OK);
    t.at("sinew_joint_mask_create_subtree", "root", Range)
        .int(u32::MAX as i64, RANGE);
    let mw = "sinew_joint_mask_set_weight";
    t.at(mw, "joint", Range).int(u32::MAX as i64, RANGE);
    t.at(mw, "weight", Domain)
        .float(-f32::MIN_POSITIVE, INVALID);
    t.at(mw, "weight", Domain).float(1.000_000_1, INVALID);
    let bl = "sinew_pose_blend";
    let outside = [-f32::MIN_POSITIVE, 1.000_000_1, f32::MAX, -f32::MAX];
    t.at(bl, "t", Domain).floats(&outside, INVALID);
    t.at(bl, "t", Valid).float(-0.0, OK);
    for ly in LAYERED {
        t.at(ly, "threshold", Domain)
            .floats(&[-0.0, -f32::MIN_POSITIVE], INVALID);
        let tiny = |b: &mut Bufs| b.layers[1].weight = -f32::MIN_POSITIVE;
        t.at(ly, "layers.weight", Domain)
            .bufs("layer weight -FLT_MIN", tiny, INVALID);
        let what = "a layer weight -0 under threshold FLT_MIN";
        let args = Args::none().float("threshold", f32::MIN_POSITIVE);
        let zero = bufs(|b| b.layers[1].weight = -0.0);
        t.at(ly, "layers.weight", Valid).add(what, args, zero, OK);
    }
}

fn masks(t: &mut Table) {
    let mc = "sinew_joint_mask_create";
    t.at(mc, "value", Domain).floats(&[-0.5, 1.5], INVALID);
    let ms = "sinew_joint_mask_create_subtree";
    t.at(ms, "root", Range).int(J as i64, RANGE);
    t.at(ms, "blend_depth", Valid).int(u32::MAX as i64, OK);
    let mw = "sinew_joint_mask_set_weight";
    t.at(mw, "joint", Range).int(J as i64, RANGE);
    t.at(mw, "weight", Domain).float(-0.1, INVALID);
    let what = "last weight 1.5 (validated before any is written)";
    let last = |b: &mut Bufs| b.weights[J - 1] = 1.5;
    t.at("sinew_joint_mask_set_weights", "weights", Domain)
        .bufs(what, last, INVALID);
    count_cases(
        t,
        &[
            "sinew_joint_mask_set_weights",
            "sinew_joint_mask_get_weights",
        ],
    );
}

/// Poses of another skeleton (another joint count: SIZE_MISMATCH; the same count with other
/// parents: INVALID_ARGUMENT) for each of `params`.
pub fn other_skeletons(t: &mut Table, export: &'static str, params: &[&'static str]) {
    for &p in params {
        t.at(export, p, Size)
            .swap(&format!("{p} of another skeleton"), pose2, SIZE);
        let what = format!("{p} of a skeleton with other parents");
        t.at(export, p, Size).swap(&what, pose3, INVALID);
    }
}

fn blend(t: &mut Table) {
    let none = Args::none;
    let bl = "sinew_pose_blend";
    t.at(bl, "t", Domain).floats(&[-0.5, 1.5], INVALID);
    t.at(bl, "space", Enum).ints(&[2, -1], INVALID);
    other_skeletons(t, bl, &["a", "b", "out"]);
    t.at(bl, "mask", Size)
        .swap("mask of another skeleton", mask2, SIZE);
    let out_a = none().swap("mask", mask2).swap("out", pose_a);
    t.at(bl, "mask", Size)
        .args("mask of another skeleton, out == a", out_a, SIZE);
    for (what, out) in [
        ("out == a (allowed)", pose_a as Swap),
        ("out == b (allowed)", pose_b),
    ] {
        t.at(bl, "out", Alias).swap(what, out, OK);
    }
    let all = || none().swap("a", pose_out).swap("b", pose_out);
    t.at(bl, "out", Alias)
        .args("a == b == out (allowed)", all(), OK);
    let nan = all().float("t", f32::NAN);
    t.at(bl, "t", Domain)
        .args("t NaN with out == a == b", nan, &[St::NonFinite]);
}

fn layers(t: &mut Table, ly: &'static str) {
    t.at(ly, "count", Count)
        .args("count 0 (the rest pose)", Args::none().int("count", 0), OK);
    t.at(ly, "threshold", Domain).floats(&[0.0, -1.0], INVALID);
    let negative = |b: &mut Bufs| b.layers[1].weight = -1.0;
    t.at(ly, "layers.weight", Domain)
        .bufs("layer weight -1", negative, INVALID);
    let what = "all layer weights 0 (the rest pose)";
    let zero = |b: &mut Bufs| b.layers = [LayerWeight { weight: 0.0 }; 2];
    t.at(ly, "layers.weight", Valid).bufs(what, zero, OK);
    let null = Args::none().null("layers[1].pose");
    t.at(ly, "layers.pose", Null)
        .args("layers[1].pose = NULL", null, NULLP);
    for (what, pose, expect) in [
        ("layer pose of another skeleton", pose2 as Swap, SIZE),
        (
            "layer pose of a skeleton with other parents",
            pose3,
            INVALID,
        ),
    ] {
        let args = Args::none().swap("layers[1].pose", pose);
        t.at(ly, "layers.pose", Size).args(what, args, expect);
    }
    let args = Args::none().swap("layers.mask", mask2);
    t.at(ly, "layers.mask", Size)
        .args("layer mask of another skeleton", args, SIZE);
    other_skeletons(t, ly, &["out"]);
    t.at(ly, "out", Alias)
        .swap("out is a layer's pose", pose_b, INVALID);
}

/// The additive layers of `sinew_pose_blend_layers_additive` (deltas, any finite weight).
fn additive_layers(t: &mut Table) {
    let la = "sinew_pose_blend_layers_additive";
    let none = Args::none;
    let what = "additive_count 0, additive NULL (the blend alone)";
    let args = none().int("additive_count", 0).null("additive");
    t.at(la, "additive_count", Count).args(what, args, OK);
    let what = "both counts 0, both arrays NULL (the rest pose)";
    let args = none()
        .int("count", 0)
        .null("layers")
        .int("additive_count", 0)
        .null("additive");
    t.at(la, "count", Count).args(what, args, OK);
    for (what, weight) in [
        ("additive weights 0 (the blend)", 0.0),
        ("additive weights -3 (subtracting thrice)", -3.0),
    ] {
        let set = move |b: &mut Bufs| b.additive = [LayerWeight { weight }; 2];
        t.at(la, "additive.weight", Valid).bufs(what, set, OK);
    }
    let null = none().null("additive[1].pose");
    t.at(la, "additive.pose", Null)
        .args("additive[1].pose = NULL", null, NULLP);
    t.at(la, "additive.pose", Align).args(
        "additive[1].pose misaligned",
        Args::misaligned("additive[1].pose"),
        INVALID,
    );
    t.at(la, "additive", Align)
        .args("additive misaligned", Args::misaligned("additive"), INVALID);
    for (what, pose, expect) in [
        ("additive delta of another skeleton", pose2 as Swap, SIZE),
        (
            "additive delta of a skeleton with other parents",
            pose3,
            INVALID,
        ),
    ] {
        let args = none().swap("additive[1].pose", pose);
        t.at(la, "additive.pose", Size).args(what, args, expect);
    }
    let args = none().swap("additive.mask", mask2);
    t.at(la, "additive.mask", Size)
        .args("additive mask of another skeleton", args, SIZE);
    let args = none().swap("additive[1].pose", pose_out);
    t.at(la, "out", Alias)
        .args("out is an additive layer's delta", args, INVALID);
}
