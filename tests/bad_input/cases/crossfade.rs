//! Crossfades: the controller's limits, requests, updates and reads.

use std::ptr::null_mut;

use sinew::ffi::*;

use crate::call::Args;
use crate::header::Class::*;
use crate::table::*;
use crate::world::*;

pub fn cases(t: &mut Table) {
    let none = Args::none;
    let cc = "sinew_crossfade_create";
    for (n, expect) in [
        (0, RANGE),
        (257, RANGE),
        (u32::MAX as i64, RANGE),
        (1, OK),
        (256, OK),
    ] {
        t.int(cc, "max_fades", Count, n, expect);
    }
    let cf = "sinew_crossfade_fade_to";
    t.float(cf, "duration", Domain, -1.0, INVALID);
    t.int(cf, "curve", Enum, 3, INVALID);
    t.int(cf, "looping", Enum, 2, INVALID);
    t.swap(cf, "clip", Size, "clip of another skeleton", clip2, SIZE);
    let fill = |w: &mut World| {
        let linear = SinewFadeCurve::Linear as i32;
        // SAFETY: live handles.
        ok(unsafe { sinew_crossfade_fade_to(w.crossfade, w.clip_a, 0.5, linear, 1, null_mut()) });
    };
    t.world(cf, "clip", State, "queue full (max_fades 2)", fill, RANGE);
    let what = "the clip already last in the queue (ignored)";
    t.swap(cf, "clip", Valid, what, clip_b, OK);
    for (what, x, class) in [
        ("inertialized over 1e30 s", 1e30, Huge),
        ("inertialized over 1e-40 s", 1e-40, Denormal),
        ("inertialized over 0.3 s", 0.3, Valid),
    ] {
        let inertialize = SinewFadeCurve::Inertialize as i64;
        let args = none().int("curve", inertialize).float("duration", x);
        t.args(cf, "duration", class, what, args, OK);
    }
    let cp = "sinew_crossfade_play";
    t.int(cp, "looping", Enum, 2, INVALID);
    t.swap(cp, "clip", Size, "clip of another skeleton", clip2, SIZE);
    t.float("sinew_crossfade_update", "dt", Domain, -0.1, INVALID);
    t.float("sinew_crossfade_update", "dt", Valid, 0.0, OK);
    t.float(
        "sinew_crossfade_update",
        "dt",
        Domain,
        -f32::MIN_POSITIVE,
        INVALID,
    );
    let tiny = none().float("duration", -f32::MIN_POSITIVE);
    t.args(cf, "duration", Domain, "duration -FLT_MIN", tiny, INVALID);
    let gp = "sinew_crossfade_get_pose";
    t.swap(gp, "out", Size, "out of another skeleton", pose2, SIZE);
    t.swap(
        gp,
        "out",
        Size,
        "out of a skeleton with other parents",
        pose3,
        INVALID,
    );
    for (export, out) in [
        ("sinew_crossfade_get_weights", "out_weights"),
        ("sinew_crossfade_get_times", "out_times"),
    ] {
        let what = format!("capacity 0 with NULL {out} (count only)");
        let query = none().null(out).int("capacity", 0);
        t.args(export, "capacity", Count, &what, query, OK);
        let what = "capacity 1 (fewer than the clips)";
        t.args(
            export,
            "capacity",
            Count,
            what,
            none().int("capacity", 1),
            OK,
        );
    }
}
