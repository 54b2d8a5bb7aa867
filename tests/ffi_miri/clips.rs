//! Clips, cursors and sampling; the crossfade controller.

use std::ptr::{null, null_mut};

use sinew::ffi::error::last_error_message;
use sinew::ffi::*;

use super::*;

// ------------------------------------------------------------------------------ clips, crossfade

const LINEAR: i32 = SinewInterpolation::Linear as i32;

fn clip(skeleton: *const SinewSkeleton, duration: f32) -> *mut SinewClip {
    let mut out = null_mut();
    // SAFETY: a live skeleton and an out-pointer to a local.
    ok(unsafe { sinew_clip_create(skeleton, duration, &mut out) });
    out
}

/// A clip turning the forearm from 0 to 1 rad about Z over `duration`.
fn bending_clip(skeleton: *const SinewSkeleton, duration: f32) -> *mut SinewClip {
    let c = clip(skeleton, duration);
    let times = [0.0, duration];
    let values = [rot_z(0.0), rot_z(1.0)];
    // SAFETY: a live clip and arrays of 2 keys.
    ok(unsafe {
        sinew_clip_set_rotation_track(
            c,
            2,
            SinewInterpolation::Slerp as i32,
            times.as_ptr(),
            values.as_ptr(),
            null(),
            null(),
            2,
        )
    });
    c
}

/// A crossfade list export (`sinew_crossfade_get_weights` or `_get_times`): controller, buffer,
/// capacity, count.
type ListExport =
    unsafe extern "C" fn(*const SinewCrossfade, *mut f32, u32, *mut u32) -> SinewStatus;

/// What `get` writes into a buffer of 3 floats (all -1 before), and the count it reports; the
/// count alone (a NULL buffer of capacity 0) must be the same.
fn listed(get: ListExport, fade: *const SinewCrossfade) -> ([f32; 3], u32) {
    let (mut values, mut count, mut alone) = ([-1.0f32; 3], 0, 0);
    // SAFETY: a live controller, a buffer of 3 floats, out-pointers to locals.
    unsafe {
        ok(get(fade, values.as_mut_ptr(), 3, &mut count));
        ok(get(fade, null_mut(), 0, &mut alone));
    }
    assert_eq!(alone, count, "the count alone");
    (values, count)
}

/// Whether `fade` is inertializing, and the time its inertialization has left.
fn inertializing(fade: *const SinewCrossfade) -> (u32, f32) {
    let (mut active, mut left) = (7u32, -1.0f32);
    // SAFETY: a live controller and out-pointers to locals.
    ok(unsafe { sinew_crossfade_is_inertializing(fade, &mut active, &mut left) });
    (active, left)
}

#[test]
fn clips_cursors_and_sampling() {
    let skel = skeleton();
    let c = clip(skel, 1.0);
    let out = pose(skel);
    // SAFETY: live handles; arrays of the stated sizes; out-pointers to locals.
    unsafe {
        let mut duration = 0.0;
        ok(sinew_clip_duration(c, &mut duration));
        assert_eq!(duration, 1.0);
        let mut other = null_mut();
        let s = sinew_clip_create(skel, -1.0, &mut other);
        assert_ne!(s, SinewStatus::Ok);
        assert!(other.is_null());

        let times = [0.0f32, 0.5, 1.0];
        let moves = [v3(0.3, 0.0, 0.0), v3(0.3, 0.2, 0.0), v3(0.3, 0.0, 0.0)];
        ok(sinew_clip_set_translation_track(
            c,
            3,
            LINEAR,
            times.as_ptr(),
            moves.as_ptr(),
            null(),
            null(),
            3,
        ));
        let turns = [rot_z(0.0), rot_z(0.5), rot_z(1.0)];
        let spins = [rot_z(0.0); 3];
        ok(sinew_clip_set_rotation_track(
            c,
            1,
            SinewInterpolation::Cubic as i32,
            times.as_ptr(),
            turns.as_ptr(),
            spins.as_ptr(),
            spins.as_ptr(),
            3,
        ));
        let sizes = [ONE, v3(1.5, 1.5, 1.5)];
        ok(sinew_clip_set_scale_track(
            c,
            4,
            SinewInterpolation::Step as i32,
            [0.0f32, 0.5].as_ptr(),
            sizes.as_ptr(),
            null(),
            null(),
            2,
        ));

        // Sampling with a cursor, forward and wrapping, matches sampling without one.
        let mut cursor = null_mut();
        ok(sinew_clip_cursor_create(c, &mut cursor));
        let probe = pose(skel);
        for t in [0.1f32, 0.3, 0.6, 0.95, 1.2, 1.7] {
            ok(sinew_clip_sample(c, cursor, t, 1, out));
            ok(sinew_clip_sample(c, null_mut(), t, 1, probe));
            same(&local(out), &local(probe));
        }
        ok(sinew_clip_sample(c, null_mut(), 0.25, 0, out));
        let l = local(out);
        assert!(dist(l[3].translation, v3(0.3, 0.1, 0.0)) < 1e-6);
        assert_eq!(l[4].scale, ONE);
        ok(sinew_clip_sample(c, null_mut(), 5.0, 0, out));
        assert_eq!(local(out)[4].scale, v3(1.5, 1.5, 1.5), "clamped to the end");

        // Track errors change nothing.
        let s = sinew_clip_set_translation_track(
            c,
            3,
            SinewInterpolation::Cubic as i32,
            times.as_ptr(),
            moves.as_ptr(),
            moves.as_ptr(),
            null(),
            3,
        );
        fails(s, SinewStatus::NullPointer, "tangents");
        let backwards = [0.0f32, 0.7, 0.6];
        let s = sinew_clip_set_translation_track(
            c,
            3,
            LINEAR,
            backwards.as_ptr(),
            moves.as_ptr(),
            null(),
            null(),
            3,
        );
        assert_ne!(s, SinewStatus::Ok);
        let zero = [SinewQuat::default(); 3];
        let s = sinew_clip_set_rotation_track(
            c,
            1,
            LINEAR,
            times.as_ptr(),
            zero.as_ptr(),
            null(),
            null(),
            3,
        );
        assert_ne!(s, SinewStatus::Ok);
        let s = sinew_clip_set_scale_track(
            c,
            JOINTS,
            LINEAR,
            times.as_ptr(),
            moves.as_ptr(),
            null(),
            null(),
            3,
        );
        assert_eq!(s, SinewStatus::OutOfRange, "{}", last_error_message());
        let s =
            sinew_clip_set_scale_track(c, 1, 17, times.as_ptr(), moves.as_ptr(), null(), null(), 3);
        fails(s, SinewStatus::InvalidArgument, "interpolation");
        let s = sinew_clip_sample(c, cursor, 0.25, 2, out);
        fails(s, SinewStatus::InvalidArgument, "looping");
        let s = sinew_clip_sample(c, cursor, f32::NAN, 0, out);
        assert_eq!(s, SinewStatus::NonFinite);
        ok(sinew_clip_sample(c, null_mut(), 0.25, 0, probe));
        same(&local(probe), &l); // the clip is unchanged by the errors

        // Clearing tracks returns joints to the rest pose.
        ok(sinew_clip_clear_track(
            c,
            3,
            SinewTrackProperty::Translation as i32,
        ));
        ok(sinew_clip_clear_track(
            c,
            1,
            SinewTrackProperty::Rotation as i32,
        ));
        ok(sinew_clip_clear_track(
            c,
            4,
            SinewTrackProperty::Scale as i32,
        ));
        let s = sinew_clip_clear_track(c, 4, 3);
        fails(s, SinewStatus::InvalidArgument, "property");
        ok(sinew_clip_sample(c, cursor, 0.25, 0, out));
        assert_eq!(local(out), rest());

        sinew_clip_cursor_destroy(cursor);
        sinew_pose_destroy(probe);
        sinew_pose_destroy(out);
        sinew_clip_destroy(c);
        sinew_skeleton_destroy(skel);
    }
}

#[test]
fn crossfade_round_trip_and_errors() {
    let skel = skeleton();
    let walk = bending_clip(skel, 1.0);
    let wave = clip(skel, 2.0);
    let idle = clip(skel, 0.5);
    let out = pose(skel);
    // SAFETY: live handles; out-pointers to locals; arrays of the stated sizes.
    unsafe {
        let mut fade = null_mut();
        let s = sinew_crossfade_create(skel, 0, &mut fade);
        assert_eq!(s, SinewStatus::OutOfRange, "{}", last_error_message());
        assert!(fade.is_null());
        ok(sinew_crossfade_create(skel, 1, &mut fade));

        ok(sinew_crossfade_play(fade, walk, 1));
        // The controller keeps the clip alive after its handle is destroyed.
        sinew_clip_destroy(walk);
        ok(sinew_crossfade_update(fade, 0.25));
        ok(sinew_crossfade_get_pose(fade, out));
        let l = local(out);
        assert!(close(&l[2], &tr(0.3, 0.0, 0.0, rot_z(0.25)), 1e-5));

        // A clip being played cannot be edited.
        let mut queued = 7;
        ok(sinew_crossfade_fade_to(
            fade,
            wave,
            0.5,
            SinewFadeCurve::Smooth as i32,
            0,
            &mut queued,
        ));
        assert_eq!(queued, 1);
        let times = [0.0f32];
        let values = [rot_z(0.2)];
        let edit_wave = || {
            let (t, v) = (times.as_ptr(), values.as_ptr());
            sinew_clip_set_rotation_track(wave, 1, LINEAR, t, v, null(), null(), 1)
        };
        fails(edit_wave(), SinewStatus::InvalidArgument, "crossfade");
        // The same request again is ignored; a third clip does not fit the queue.
        ok(sinew_crossfade_fade_to(
            fade,
            wave,
            0.5,
            SinewFadeCurve::Linear as i32,
            0,
            &mut queued,
        ));
        assert_eq!(queued, 0);
        let s = sinew_crossfade_fade_to(
            fade,
            idle,
            0.5,
            SinewFadeCurve::Linear as i32,
            0,
            null_mut(),
        );
        fails(s, SinewStatus::OutOfRange, "queue");
        let s = sinew_crossfade_fade_to(fade, idle, 0.5, 9, 0, null_mut());
        fails(s, SinewStatus::InvalidArgument, "curve");

        let mut count = 0;
        ok(sinew_crossfade_fade_count(fade, &mut count));
        assert_eq!(count, 1);
        ok(sinew_crossfade_update(fade, 0.1));
        let (w, count) = listed(sinew_crossfade_get_weights, fade);
        assert_eq!(count, 2);
        assert!((w[0] + w[1] - 1.0).abs() < 1e-6 && w[1] > 0.0 && w[1] < 1.0);
        assert_eq!(w[2], -1.0, "only `count` weights written");
        let mut count = 0;
        let mut first = [-1.0f32; 1];
        ok(sinew_crossfade_get_weights(
            fade,
            first.as_mut_ptr(),
            1,
            &mut count,
        ));
        assert_eq!((first[0], count), (w[0], 2));
        // Clip times in the same order: walk 0.35 s in (looping), wave 0.1 s.
        let (t, count) = listed(sinew_crossfade_get_times, fade);
        assert_eq!(count, 2);
        assert!((t[0] - 0.35).abs() < 1e-6 && t[1] == 0.1, "{t:?}");
        assert_eq!(t[2], -1.0, "only `count` times written");
        let mut count = 0;
        let s = sinew_crossfade_get_times(fade, null_mut(), 1, &mut count);
        fails(s, SinewStatus::NullPointer, "out_times");
        assert_eq!(inertializing(fade), (0, 0.0));

        // Update errors change nothing.
        ok(sinew_crossfade_get_pose(fade, out));
        let before = local(out);
        let s = sinew_crossfade_update(fade, -0.1);
        fails(s, SinewStatus::InvalidArgument, "dt");
        let s = sinew_crossfade_update(fade, f32::INFINITY);
        assert_eq!(s, SinewStatus::NonFinite);
        ok(sinew_crossfade_get_pose(fade, out));
        assert_eq!(local(out), before);

        // Inertialized transitions switch at once and finish.
        ok(sinew_crossfade_update(fade, 1.0));
        ok(sinew_crossfade_fade_to(
            fade,
            idle,
            0.2,
            SinewFadeCurve::Inertialize as i32,
            1,
            null_mut(),
        ));
        ok(sinew_crossfade_update(fade, 0.1));
        let (active, left) = inertializing(fade);
        assert_eq!(active, 1);
        assert!((left - 0.1).abs() < 1e-6, "{left}");
        let mut active = 7;
        ok(sinew_crossfade_is_inertializing(
            fade,
            &mut active,
            null_mut(),
        ));
        assert_eq!(active, 1, "without the time left");
        let mut left = -1.0;
        let s = sinew_crossfade_is_inertializing(fade, null_mut(), &mut left);
        fails(s, SinewStatus::NullPointer, "out_active");
        for _ in 0..2 {
            ok(sinew_crossfade_update(fade, 0.1));
        }
        assert_eq!(inertializing(fade), (0, 0.0));
        ok(sinew_crossfade_get_pose(fade, out));
        assert_eq!(local(out), rest(), "idle has no tracks");

        // A pose of another skeleton is refused.
        let small_parents = [-1i32];
        let small_rest = [tr(0.0, 0.0, 0.0, IDENTITY)];
        let mut small = null_mut();
        ok(sinew_skeleton_create(
            small_parents.as_ptr(),
            small_rest.as_ptr(),
            null(),
            1,
            &mut small,
        ));
        let wrong = pose(small);
        let s = sinew_crossfade_get_pose(fade, wrong);
        assert_eq!(s, SinewStatus::SizeMismatch, "{}", last_error_message());
        // So is one of a skeleton with as many joints but other parents.
        let mut other = null_mut();
        ok(sinew_skeleton_create(
            [-1, 0, 1, 2, 3].as_ptr(),
            rest().as_ptr(),
            null(),
            JOINTS,
            &mut other,
        ));
        let foreign = pose(other);
        let s = sinew_crossfade_get_pose(fade, foreign);
        fails(s, SinewStatus::InvalidArgument, "other parents");
        sinew_pose_destroy(foreign);
        sinew_skeleton_destroy(other);
        let s = sinew_crossfade_play(fade, null(), 0);
        fails(s, SinewStatus::NullPointer, "clip");

        // Once the controller is gone, the clip can be edited again.
        sinew_crossfade_destroy(fade);
        ok(edit_wave());

        sinew_pose_destroy(wrong);
        sinew_skeleton_destroy(small);
        sinew_pose_destroy(out);
        sinew_clip_destroy(wave);
        sinew_clip_destroy(idle);
        sinew_skeleton_destroy(skel);
    }
}

/// A clip from three frames (the head masked out), wrapping: keys come back exactly, the wrap
/// flag reads back and toggles, and bad arguments fail with nothing written.
#[test]
fn clips_from_frames_and_the_wrap_flag() {
    let skel = skeleton();
    let out = pose(skel);
    let mut frames = [rest(); 3];
    for (f, frame) in frames.iter_mut().enumerate() {
        frame[2].rotation = [IDENTITY, BEND, rot_z(0.8)][f];
        frame[3].translation = v3(0.3, 0.1 * f as f32, 0.0);
        frame[4].translation = v3(9.0, 9.0, 9.0);
    }
    let flat: Vec<SinewTransform> = frames.iter().flatten().copied().collect();
    let mask = [1u8, 1, 1, 1, 0];
    let linear = SinewInterpolation::Linear as i32;
    // SAFETY: live handles; 3 frames of JOINTS transforms; a mask byte per joint; out-pointers
    // to locals.
    unsafe {
        let mut clip = null_mut();
        let f = flat.as_ptr();
        ok(sinew_clip_create_from_frames(
            skel,
            f,
            3,
            JOINTS,
            30.0,
            mask.as_ptr(),
            linear,
            1,
            &mut clip,
        ));
        let (mut duration, mut wrap) = (0.0, 7);
        ok(sinew_clip_duration(clip, &mut duration));
        assert_eq!(duration, 0.1, "three frames at 30 Hz, wrapping");
        ok(sinew_clip_get_wrap(clip, &mut wrap));
        assert_eq!(wrap, 1);
        for (k, frame) in frames.iter().enumerate() {
            let t = (k as f64 / 30.0) as f32;
            ok(sinew_clip_sample(clip, null_mut(), t, 1, out));
            let mut want = *frame;
            want[4] = rest()[4];
            same(&local(out), &want);
        }
        // Halfway from the last frame back to the first.
        ok(sinew_clip_sample(clip, null_mut(), 0.25 / 3.0, 1, out));
        let halfway = local(out)[3].translation.y;
        assert!((halfway - 0.1).abs() < 1e-5, "{halfway}");
        ok(sinew_clip_set_wrap(clip, 0));
        ok(sinew_clip_get_wrap(clip, &mut wrap));
        assert_eq!(wrap, 0);
        ok(sinew_clip_sample(clip, null_mut(), 0.25 / 3.0, 1, out));
        assert_eq!(local(out)[3].translation.y, 0.2, "held at the last frame");
        fails(
            sinew_clip_set_wrap(clip, 2),
            SinewStatus::InvalidArgument,
            "wrap",
        );
        let mut other = null_mut();
        let cubic = SinewInterpolation::Cubic as i32;
        let s =
            sinew_clip_create_from_frames(skel, f, 3, JOINTS, 30.0, null(), cubic, 0, &mut other);
        fails(s, SinewStatus::InvalidArgument, "tangents");
        let s =
            sinew_clip_create_from_frames(skel, f, 3, JOINTS, 0.0, null(), linear, 0, &mut other);
        fails(s, SinewStatus::InvalidArgument, "frame_rate");
        assert!(other.is_null(), "untouched on error");
        sinew_clip_destroy(clip);
    }
    // SAFETY: live handles, destroyed once.
    unsafe {
        sinew_pose_destroy(out);
        sinew_skeleton_destroy(skel);
    }
}
