//! Crossfades: the controller's limits, requests, updates and reads.

use std::ptr::null_mut;

use sinew::ffi::*;

use super::blend::other_skeletons;
use crate::call::Args;
use crate::header::Class::*;
use crate::table::*;
use crate::world::*;

pub fn cases(t: &mut Table) {
    let none = Args::none;
    let cc = "sinew_crossfade_create";
    t.at(cc, "max_fades", Count)
        .ints(&[0, 257, u32::MAX as i64], RANGE);
    t.at(cc, "max_fades", Count).ints(&[1, 256], OK);
    let cf = "sinew_crossfade_fade_to";
    t.at(cf, "duration", Domain).float(-1.0, INVALID);
    t.at(cf, "curve", Enum).int(3, INVALID);
    t.at(cf, "looping", Enum).int(2, INVALID);
    t.at(cf, "clip", Size)
        .swap("clip of another skeleton", clip2, SIZE);
    let fill = |w: &mut World| {
        let linear = SinewFadeCurve::Linear as i32;
        // SAFETY: live handles.
        ok(unsafe { sinew_crossfade_fade_to(w.crossfade, w.clip_a, 0.5, linear, 1, null_mut()) });
    };
    t.at(cf, "clip", State)
        .world("queue full (max_fades 2)", fill, RANGE);
    let what = "the clip already last in the queue (ignored)";
    t.at(cf, "clip", Valid).swap(what, clip_b, OK);
    for (what, x, class) in [
        ("inertialized over 1e30 s", 1e30, Huge),
        ("inertialized over 1e-40 s", 1e-40, Denormal),
        ("inertialized over 0.3 s", 0.3, Valid),
    ] {
        let inertialize = SinewFadeCurve::Inertialize as i64;
        let args = none().int("curve", inertialize).float("duration", x);
        t.at(cf, "duration", class).args(what, args, OK);
    }
    let cp = "sinew_crossfade_play";
    t.at(cp, "looping", Enum).int(2, INVALID);
    t.at(cp, "clip", Size)
        .swap("clip of another skeleton", clip2, SIZE);
    let cu = "sinew_crossfade_update";
    t.at(cu, "dt", Domain)
        .floats(&[-0.1, -f32::MIN_POSITIVE], INVALID);
    t.at(cu, "dt", Valid).float(0.0, OK);
    let tiny = none().float("duration", -f32::MIN_POSITIVE);
    t.at(cf, "duration", Domain)
        .args("duration -FLT_MIN", tiny, INVALID);
    let gp = "sinew_crossfade_get_pose";
    other_skeletons(t, gp, &["out"]);
    for (export, out) in [
        ("sinew_crossfade_get_weights", "out_weights"),
        ("sinew_crossfade_get_times", "out_times"),
    ] {
        let what = format!("capacity 0 with NULL {out} (count only)");
        let query = none().null(out).int("capacity", 0);
        t.at(export, "capacity", Count).args(&what, query, OK);
        let what = "capacity 1 (fewer than the clips)";
        t.at(export, "capacity", Count)
            .args(what, none().int("capacity", 1), OK);
    }
}
