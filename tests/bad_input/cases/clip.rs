//! Clips: tracks, clearing, sampling.

use sinew::ffi::*;

use crate::call::Args;
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
        t.int(export, "joint", Range, J as i64, RANGE);
        t.int(export, "interpolation", Enum, 4, INVALID);
        t.int(export, "interpolation", Enum, -1, INVALID);
        let linear = SinewInterpolation::Linear as i64;
        let with_tangents = none().int("interpolation", linear);
        t.args(
            export,
            "interpolation",
            Domain,
            "linear with tangents",
            with_tangents,
            INVALID,
        );
        let untangled = || none().null("in_tangents").null("out_tangents");
        t.args(
            export,
            "in_tangents",
            Domain,
            "cubic without tangents",
            untangled(),
            INVALID,
        );
        let linear_without = untangled().int("interpolation", linear);
        t.args(
            export,
            "in_tangents",
            Valid,
            "linear without tangents",
            linear_without,
            OK,
        );
        t.int(export, "key_count", Count, 0, INVALID);
        t.int(export, "key_count", Valid, 1, OK);
        let arrays = ["times", "values", "in_tangents", "out_tangents"];
        let no_keys = arrays
            .iter()
            .fold(none().int("key_count", 0), |a, p| a.null(p));
        let what = "key_count 0 with every array NULL";
        t.args(export, "key_count", Count, what, no_keys, INVALID);
        let one_tangent = none().int("interpolation", linear).null("in_tangents");
        let what = "linear with out_tangents only";
        t.args(export, "in_tangents", Null, what, one_tangent, NULLP);
        let past = |b: &mut Bufs| b.times[2] = 1.000_000_1;
        t.bufs(
            export,
            "times",
            Keys,
            "key just after the duration",
            past,
            RANGE,
        );
        for (what, times, expect) in [
            ("keys unsorted", [0.0, 0.8, 0.4], INVALID),
            ("keys duplicate", [0.0, 0.4, 0.4], INVALID),
            ("key before 0", [-0.1, 0.4, 0.8], RANGE),
            ("key after the duration", [0.0, 0.4, 1.5], RANGE),
        ] {
            t.bufs(
                export,
                "times",
                Keys,
                what,
                move |b| b.times = times,
                expect,
            );
        }
        t.swap(
            export,
            "clip",
            State,
            "clip held by a crossfade",
            clip_a,
            INVALID,
        );
        let what = "clip of another skeleton, joint beyond it";
        let other = none().swap("clip", clip2).int("joint", J2 as i64);
        t.args(export, "clip", Size, what, other, RANGE);
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
    t.bufs(
        rt,
        "values",
        Domain,
        "negative-zero quaternion key",
        zero,
        INVALID,
    );
    let zero = |b: &mut Bufs| b.q_values[1] = SinewQuat::default();
    t.bufs(rt, "values", Domain, "zero quaternion key", zero, INVALID);

    let ct = "sinew_clip_clear_track";
    t.int(ct, "joint", Range, J as i64, RANGE);
    t.int(ct, "property", Enum, 3, INVALID);
    t.int(ct, "property", Enum, -1, INVALID);
    t.swap(
        ct,
        "clip",
        State,
        "clip held by a crossfade",
        clip_a,
        INVALID,
    );
    t.float("sinew_clip_create", "duration", Domain, -1.0, INVALID);
    t.float("sinew_clip_create", "duration", Valid, 0.0, OK);
    t.float(
        "sinew_clip_create",
        "duration",
        Domain,
        -f32::MIN_POSITIVE,
        INVALID,
    );
    t.float("sinew_clip_create", "duration", Valid, -0.0, OK);
    t.float("sinew_clip_create", "duration", Valid, f32::MAX, OK);

    let cs = "sinew_clip_sample";
    t.int(cs, "looping", Enum, 2, INVALID);
    let other = none().swap("clip", clip2).swap("cursor", cursor2);
    t.args(cs, "clip", Size, "clip of another skeleton", other, SIZE);
    let other = none().swap("out", pose2).swap("cursor", cursor2);
    t.args(cs, "out", Size, "out of another skeleton", other, SIZE);
    t.swap(
        cs,
        "cursor",
        Size,
        "cursor for another joint count",
        cursor2,
        SIZE,
    );
    t.float(cs, "time", Valid, -3.7, OK);
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
    t.world(cs, "clip", Overflow, what, huge_tangents, OVERFLOW);
}
