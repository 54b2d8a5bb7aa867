//! Clips: tracks, clearing, sampling.

use sinew::ffi::*;

use crate::call::{Args, Swap};
use crate::header::Class::*;
use crate::table::*;
use crate::world::*;

pub fn cases(t: &mut Table) {
    let none = Args::none;
    for export in [
        "sinew_clip_set_translation_track",
        "sinew_clip_set_rotation_track",
        "sinew_clip_set_scale_track",
    ] {
        t.at(export, "joint", Range).int(J as i64, RANGE);
        t.at(export, "interpolation", Enum).ints(&[4, -1], INVALID);
        let linear = SinewInterpolation::Linear as i64;
        let with_tangents = none().int("interpolation", linear);
        t.at(export, "interpolation", Domain)
            .args("linear with tangents", with_tangents, INVALID);
        let untangled = || none().null("in_tangents").null("out_tangents");
        t.at(export, "in_tangents", Domain)
            .args("cubic without tangents", untangled(), INVALID);
        let linear_without = untangled().int("interpolation", linear);
        t.at(export, "in_tangents", Valid)
            .args("linear without tangents", linear_without, OK);
        t.at(export, "key_count", Count).int(0, INVALID);
        t.at(export, "key_count", Valid).int(1, OK);
        let arrays = ["times", "values", "in_tangents", "out_tangents"];
        let no_keys = arrays
            .iter()
            .fold(none().int("key_count", 0), |a, p| a.null(p));
        let what = "key_count 0 with every array NULL";
        t.at(export, "key_count", Count)
            .args(what, no_keys, INVALID);
        let one_tangent = none().int("interpolation", linear).null("in_tangents");
        let what = "linear with out_tangents only";
        t.at(export, "in_tangents", Null)
            .args(what, one_tangent, NULLP);
        let past = |b: &mut Bufs| b.times[2] = 1.000_000_1;
        t.at(export, "times", Keys)
            .bufs("key just after the duration", past, RANGE);
        for (what, times, expect) in [
            ("keys unsorted", [0.0, 0.8, 0.4], INVALID),
            ("keys duplicate", [0.0, 0.4, 0.4], INVALID),
            ("key before 0", [-0.1, 0.4, 0.8], RANGE),
            ("key after the duration", [0.0, 0.4, 1.5], RANGE),
        ] {
            t.at(export, "times", Keys)
                .bufs(what, move |b| b.times = times, expect);
        }
        t.at(export, "clip", State)
            .swap("clip held by a crossfade", clip_a, INVALID);
        let what = "clip of another skeleton, joint beyond it";
        let other = none().swap("clip", clip2).int("joint", J2 as i64);
        t.at(export, "clip", Size).args(what, other, RANGE);
    }
    let zero = |b: &mut Bufs| {
        b.q_values[1] = SinewQuat {
            x: -0.0,
            y: 0.0,
            z: -0.0,
            w: 0.0,
        }
    };
    let rt = "sinew_clip_set_rotation_track";
    t.at(rt, "values", Domain)
        .bufs("negative-zero quaternion key", zero, INVALID);
    let zero = |b: &mut Bufs| b.q_values[1] = SinewQuat::default();
    t.at(rt, "values", Domain)
        .bufs("zero quaternion key", zero, INVALID);

    let ct = "sinew_clip_clear_track";
    t.at(ct, "joint", Range).int(J as i64, RANGE);
    t.at(ct, "property", Enum).ints(&[3, -1], INVALID);
    t.at(ct, "clip", State)
        .swap("clip held by a crossfade", clip_a, INVALID);
    let cc = "sinew_clip_create";
    t.at(cc, "duration", Domain)
        .floats(&[-1.0, -f32::MIN_POSITIVE], INVALID);
    t.at(cc, "duration", Valid)
        .floats(&[0.0, -0.0, f32::MAX], OK);

    let cs = "sinew_clip_sample";
    t.at(cs, "looping", Enum).int(2, INVALID);
    // The clip or the output pose of another skeleton, with a cursor that fits it.
    for (param, other) in [("clip", clip2 as Swap), ("out", pose2)] {
        let args = none().swap(param, other).swap("cursor", cursor2);
        let what = format!("{param} of another skeleton");
        t.at(cs, param, Size).args(&what, args, SIZE);
    }
    t.at(cs, "cursor", Size)
        .swap("cursor for another joint count", cursor2, SIZE);
    t.at(cs, "time", Valid).float(-3.7, OK);
    let huge_tangents = |w: &mut World| {
        // Values at f32::MAX with tangents pulling further out: the Hermite sum passes MAX.
        let (m, big) = (f32::MAX, [v(f32::MAX, 0.0, 0.0); 3]);
        let (ins, outs) = ([v(-m, 0.0, 0.0); 3], [v(m, 0.0, 0.0); 3]);
        let cubic = SinewInterpolation::Cubic as i32;
        let times = w.b.times.as_ptr();
        // SAFETY: a live editable clip; arrays of 3 keys.
        ok(unsafe {
            sinew_clip_set_translation_track(
                w.clip,
                2,
                cubic,
                times,
                big.as_ptr(),
                ins.as_ptr(),
                outs.as_ptr(),
                3,
            )
        });
    };
    let what = "huge cubic tangents overflow the sample";
    t.at(cs, "clip", Overflow)
        .world(what, huge_tangents, OVERFLOW);
}

/// Clips from frames and the wrap flag.
pub fn frame_cases(t: &mut Table) {
    let none = Args::none;
    let cf = "sinew_clip_create_from_frames";
    t.at(cf, "frame_count", Count).int(0, INVALID);
    t.at(cf, "frame_count", Valid).int(1, OK);
    t.at(cf, "frame_count", Range).int(u32::MAX as i64, RANGE);
    t.at(cf, "joint_count", Count)
        .ints(&[J as i64 + 1, J as i64 - 1, 0], SIZE);
    let what = "skeleton of another joint count";
    t.at(cf, "skeleton", Size).swap(what, skel2, SIZE);
    t.at(cf, "frame_rate", Domain)
        .floats(&[0.0, -0.0, -30.0, -f32::MIN_POSITIVE], INVALID);
    // Two frames at 1e-38 per second are 1e38 s apart (fine); the wrap's third is past f32.
    t.at(cf, "frame_rate", Valid).args(
        "two frames 1e38 s apart",
        none().float("frame_rate", 1e-38).int("wrap", 0),
        OK,
    );
    t.at(cf, "frame_rate", Overflow).float(3e-39, OVERFLOW);
    t.at(cf, "interpolation", Enum).ints(&[4, -1], INVALID);
    let cubic = SinewInterpolation::Cubic as i64;
    t.at(cf, "interpolation", Domain).args(
        "cubic (frames have no tangents)",
        none().int("interpolation", cubic),
        INVALID,
    );
    for kind in [SinewInterpolation::Step, SinewInterpolation::Linear] {
        t.at(cf, "interpolation", Valid).int(kind as i64, OK);
    }
    t.at(cf, "wrap", Enum).int(2, INVALID);
    t.at(cf, "wrap", Valid).int(0, OK);
    let byte = |b: &mut Bufs| b.joint_mask[5] = 2;
    t.at(cf, "joint_mask", Domain)
        .bufs("mask byte 2", byte, INVALID);
    t.needle("joint_mask[5]");
    let zero = |b: &mut Bufs| b.frames[J + 3].rotation = SinewQuat::default();
    t.at(cf, "frames", Domain)
        .bufs("zero quaternion in frame 1", zero, INVALID);
    t.needle("frame 1, joint 3");
    let masked = |b: &mut Bufs| b.frames[J + 2].rotation = SinewQuat::default();
    t.at(cf, "frames", Domain)
        .bufs("zero quaternion on a masked-out joint", masked, INVALID);
    t.needle("frames[10]");

    let sw = "sinew_clip_set_wrap";
    t.at(sw, "wrap", Enum).int(2, INVALID);
    t.at(sw, "wrap", Valid).int(0, OK);
    t.at(sw, "clip", State)
        .swap("clip held by a crossfade", clip_a, INVALID);
}
