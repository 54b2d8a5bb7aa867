//! The crossfade controller. Validity first: full queues and bad requests are refused, repeated
//! requests ignored. Then the behaviour: playback time, queued linear and smooth fades (weights,
//! curves, finishing order), inertialized transitions (start pose, convergence, monotonic decay,
//! velocity continuity), pose continuity during fades, and the C ABI.
//!
//! Shared helpers come from tests/common; the fixtures are local to this file.

use std::f32::consts::PI;
use std::ptr;
use std::sync::Arc;

use sinew::ffi::{
    sinew_clip_create, sinew_clip_destroy, sinew_clip_set_translation_track,
    sinew_crossfade_create, sinew_crossfade_destroy, sinew_crossfade_fade_count,
    sinew_crossfade_fade_to, sinew_crossfade_get_pose, sinew_crossfade_get_times,
    sinew_crossfade_get_weights, sinew_crossfade_is_inertializing, sinew_crossfade_play,
    sinew_crossfade_update, sinew_pose_create, sinew_pose_destroy, sinew_pose_get_local,
    sinew_skeleton_destroy, SinewClip, SinewCrossfade, SinewPose, SinewSkeleton, SinewStatus,
    SinewTransform, SinewVec3,
};
use sinew::{
    BlendSpace, Clip, Crossfade, ErrorKind, FadeCurve, Interpolation, Pose, Quat, Skeleton, Track,
    Transform, Vec3,
};

mod common;

use common::ffi::{c_skeleton_of, ok};
use common::poses::{bits, sample, skeleton_of, trs};
use common::rotations::rot_between;

/// Asserts the controller shows `clip` sampled at `time` (looping or not), bit for bit.
#[track_caller]
fn assert_shows(c: &Crossfade, clip: &Clip, (time, looping): (f32, bool), what: &str) {
    let want = sample(clip, c.pose().skeleton(), time, looping);
    assert_eq!(bits(c.pose()), bits(&want), "{what}");
}

/// root -> spine -> arm.
const PARENTS: [i32; 3] = [-1, 0, 1];
const N: usize = PARENTS.len();

const DT: f32 = 1.0 / 60.0;

fn skeleton() -> Arc<Skeleton> {
    let rest = [
        Transform::from_translation(Vec3::new(0.0, 1.0, 0.0)),
        trs([0.0, 0.5, 0.0], Quat::from_rotation_x(0.1), [1.0; 3]),
        trs([0.3, 0.2, 0.0], Quat::from_rotation_z(-0.4), [1.1; 3]),
    ];
    skeleton_of(&PARENTS, &rest)
}

/// A clip sampling `f(joint, time)` every `step` seconds (the last key at `duration`):
/// translations and scales linear, rotations by slerp.
fn clip_fn(
    s: &Skeleton,
    duration: f32,
    step: f32,
    f: impl Fn(usize, f32) -> Transform,
) -> Arc<Clip> {
    let n = (duration / step).round().max(1.0) as usize;
    let times: Vec<f32> = (0..=n)
        .map(|i| if i == n { duration } else { i as f32 * step })
        .collect();
    let mut clip = Clip::new(s, duration).unwrap();
    for j in 0..s.joint_count() {
        let keys: Vec<Transform> = times.iter().map(|&t| f(j, t)).collect();
        let tr: Vec<Vec3> = keys.iter().map(|k| k.translation).collect();
        let ro: Vec<Quat> = keys.iter().map(|k| k.rotation).collect();
        let sc: Vec<Vec3> = keys.iter().map(|k| k.scale).collect();
        let lin = |v: &[Vec3]| Track::new(Interpolation::Linear, &times, v, None, duration);
        clip.set_translation_track(j, lin(&tr).unwrap()).unwrap();
        clip.set_rotation_track(
            j,
            Track::new(Interpolation::Slerp, &times, &ro, None, duration).unwrap(),
        )
        .unwrap();
        clip.set_scale_track(j, lin(&sc).unwrap()).unwrap();
    }
    Arc::new(clip)
}

/// A clip holding one pose.
fn static_clip(s: &Skeleton, pose: &[Transform]) -> Arc<Clip> {
    let pose = pose.to_vec();
    clip_fn(s, 1.0, 1.0, move |j, _| pose[j])
}

/// Smooth motion: every joint moves and turns at up to about 1.5 rad/s.
fn walk(s: &Skeleton) -> Arc<Clip> {
    clip_fn(s, 4.0, 1.0 / 30.0, |j, t| match j {
        0 => Transform::new(
            Vec3::new(t.sin(), 1.0, 0.5 * t),
            Quat::from_rotation_y(t) * Quat::from_rotation_x(0.2 * (2.0 * t).sin()),
            Vec3::ONE,
        ),
        1 => Transform::new(
            Vec3::new(0.0, 0.5, 0.0),
            Quat::from_rotation_x(0.3 * (PI * t).sin()),
            Vec3::ONE,
        ),
        _ => Transform::new(
            Vec3::new(0.3, 0.2, 0.0),
            Quat::from_rotation_z(0.5 * t.cos()),
            Vec3::splat(1.0 + 0.1 * t.sin()),
        ),
    })
}

/// Another smooth motion, up to about 70 degrees away from `walk`'s.
fn turn(s: &Skeleton) -> Arc<Clip> {
    clip_fn(s, 3.0, 1.0 / 30.0, |j, t| match j {
        0 => Transform::new(
            Vec3::new(
                0.2 + 0.3 * t.sin(),
                1.0 + 0.1 * (3.0 * t).sin(),
                0.5 * t - 0.3,
            ),
            Quat::from_rotation_y(0.8 + 0.5 * t) * Quat::from_rotation_z(0.3),
            Vec3::ONE,
        ),
        1 => Transform::new(
            Vec3::new(0.0, 0.45, 0.05),
            Quat::from_rotation_x(-0.4 + 0.2 * (2.0 * t).cos()),
            Vec3::ONE,
        ),
        _ => Transform::new(
            Vec3::new(0.25, 0.2, 0.1),
            Quat::from_rotation_z(-0.6 + 0.3 * t.sin()),
            Vec3::ONE,
        ),
    })
}

/// A third motion, for queues.
fn wave(s: &Skeleton) -> Arc<Clip> {
    clip_fn(s, 2.0, 1.0 / 30.0, |j, t| {
        let base = s.rest_pose()[j];
        Transform::new(
            base.translation + Vec3::new(0.0, 0.05 * t, 0.0),
            Quat::from_rotation_z(0.6 * (PI * t).sin()) * base.rotation,
            base.scale,
        )
    })
}

/// Largest translation, rotation and scale difference between two poses.
fn pose_gap(a: &[Transform], b: &[Transform]) -> (f32, f32, f32) {
    a.iter()
        .zip(b)
        .fold((0.0f32, 0.0f32, 0.0f32), |acc, (x, y)| {
            (
                acc.0.max((x.translation - y.translation).length()),
                acc.1.max(rot_between(x.rotation, y.rotation)),
                acc.2.max((x.scale - y.scale).length()),
            )
        })
}

fn weights(c: &Crossfade) -> Vec<f32> {
    let mut w = [f32::NAN; 8];
    let n = c.weights(&mut w);
    assert!(n <= w.len());
    w[..n].to_vec()
}

fn clip_times(c: &Crossfade) -> Vec<f32> {
    let mut t = [f32::NAN; 8];
    let n = c.clip_times(&mut t);
    assert!(n <= t.len());
    t[..n].to_vec()
}

fn linear(x: f32) -> f32 {
    x.clamp(0.0, 1.0)
}

fn smoothstep(x: f32) -> f32 {
    let x = x.clamp(0.0, 1.0);
    x * x * (3.0 - 2.0 * x)
}

// ------------------------------------------------------------------------------ validity

#[test]
fn repeated_requests_are_ignored() {
    let s = skeleton();
    let (a, b, d) = (walk(&s), turn(&s), wave(&s));
    let mut c = Crossfade::new(s.clone(), 4).unwrap();
    // With nothing playing, a fade just plays the clip.
    assert!(c.fade_to(a.clone(), 0.5, FadeCurve::Linear, true).unwrap());
    assert_eq!((c.fade_count(), c.current_time()), (0, Some(0.0)));
    c.update(0.1).unwrap();
    for curve in [FadeCurve::Linear, FadeCurve::Smooth, FadeCurve::Inertialize] {
        assert!(
            !c.fade_to(a.clone(), 0.5, curve, true).unwrap(),
            "{curve:?}"
        );
        assert!(
            !c.fade_to(a.clone(), 0.0, curve, false).unwrap(),
            "{curve:?}"
        );
    }
    assert_eq!(c.fade_count(), 0);
    assert!(!c.is_inertializing());
    assert_eq!(
        c.current_time(),
        Some(0.1),
        "the playing clip was not restarted"
    );

    assert!(c.fade_to(b.clone(), 0.5, FadeCurve::Linear, true).unwrap());
    for curve in [FadeCurve::Linear, FadeCurve::Smooth, FadeCurve::Inertialize] {
        assert!(
            !c.fade_to(b.clone(), 0.2, curve, true).unwrap(),
            "{curve:?}"
        );
    }
    assert_eq!(c.fade_count(), 1);
    assert!(c.fade_to(d.clone(), 0.5, FadeCurve::Smooth, true).unwrap());
    assert!(!c.fade_to(d.clone(), 0.5, FadeCurve::Smooth, true).unwrap());
    assert!(c.fade_to(b.clone(), 0.5, FadeCurve::Smooth, true).unwrap());
    assert_eq!(c.fade_count(), 3);

    // A zero-length fade plays the clip at once and drops the queue.
    assert!(c.fade_to(a.clone(), 0.0, FadeCurve::Linear, true).unwrap());
    assert_eq!((c.fade_count(), c.current_time()), (0, Some(0.0)));
}

#[test]
fn full_queues_and_bad_requests_are_refused() {
    let s = skeleton();
    let (a, b, d, e) = (walk(&s), turn(&s), wave(&s), walk(&s));
    let mut c = Crossfade::new(s.clone(), 2).unwrap();
    c.play(a.clone(), true).unwrap();
    c.update(DT).unwrap();
    assert!(c.fade_to(b.clone(), 0.5, FadeCurve::Linear, true).unwrap());
    assert!(c.fade_to(d.clone(), 0.5, FadeCurve::Smooth, true).unwrap());
    c.update(DT).unwrap();
    let before = (weights(&c), bits(c.pose()), c.current_time());
    for curve in [FadeCurve::Linear, FadeCurve::Smooth] {
        let err = c.fade_to(e.clone(), 0.5, curve, true).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::OutOfRange, "{curve:?}");
    }
    // The last request is still ignored, not refused.
    assert!(!c.fade_to(d.clone(), 0.5, FadeCurve::Linear, true).unwrap());
    assert_eq!(c.fade_count(), 2);

    let other = Arc::new(Skeleton::new(&[-1, 0], &[Transform::IDENTITY; 2], None).unwrap());
    let foreign = Arc::new(Clip::new(&other, 1.0).unwrap());
    for (clip, duration, kind) in [
        (e.clone(), -0.5, ErrorKind::InvalidArgument),
        (e.clone(), f32::NAN, ErrorKind::NonFinite),
        (e.clone(), f32::INFINITY, ErrorKind::NonFinite),
        (foreign.clone(), 0.5, ErrorKind::SizeMismatch),
    ] {
        for curve in [FadeCurve::Linear, FadeCurve::Inertialize] {
            let err = c.fade_to(clip.clone(), duration, curve, true).unwrap_err();
            assert_eq!(err.kind(), kind, "{duration} {curve:?}");
        }
    }
    assert_eq!(
        c.play(foreign.clone(), true).unwrap_err().kind(),
        ErrorKind::SizeMismatch
    );
    assert_eq!((weights(&c), bits(c.pose()), c.current_time()), before);

    // An inertialized transition does not queue, so a full queue does not stop it.
    assert!(c
        .fade_to(e.clone(), 0.3, FadeCurve::Inertialize, true)
        .unwrap());
    assert_eq!(c.fade_count(), 0);

    for max in [0, 257, usize::MAX] {
        assert_eq!(
            Crossfade::new(s.clone(), max).unwrap_err().kind(),
            ErrorKind::OutOfRange
        );
    }
    assert!(Crossfade::new(s.clone(), 256).is_ok());
}

// ------------------------------------------------------------------------------ behaviour

#[test]
fn play_then_update_advances_time() {
    let s = skeleton();
    let walk = walk(&s);
    let mut c = Crossfade::new(s.clone(), 4).unwrap();
    assert_eq!(c.current_time(), None);
    assert_eq!(
        c.pose().local(),
        s.rest_pose(),
        "the rest pose before any update"
    );
    c.update(0.5).unwrap();
    assert_eq!(
        c.pose().local(),
        s.rest_pose(),
        "nothing playing: the rest pose"
    );
    assert_eq!(weights(&c), Vec::<f32>::new());

    c.play(walk.clone(), false).unwrap();
    assert_eq!(c.current_time(), Some(0.0));
    assert_eq!(weights(&c), vec![1.0]);
    let mut t = 0.0f32;
    for dt in [0.1, 0.25, 0.0, DT, 1.0, 3.0] {
        c.update(dt).unwrap();
        t += dt;
        assert_eq!(c.current_time(), Some(t));
        assert_shows(&c, &walk, (t, false), "t={t}");
    }
    // Past the end a clamped clip holds its last pose; a looping one wraps.
    assert_shows(&c, &walk, (4.0, false), "");
    c.play(walk.clone(), true).unwrap();
    assert_eq!(c.current_time(), Some(0.0));
    c.update(5.0).unwrap();
    assert_shows(&c, &walk, (1.0, false), "");

    // Bad time steps change nothing.
    let before = bits(c.pose());
    assert_eq!(
        c.update(-DT).unwrap_err().kind(),
        ErrorKind::InvalidArgument
    );
    assert_eq!(c.update(f32::NAN).unwrap_err().kind(), ErrorKind::NonFinite);
    assert_eq!(
        c.update(f32::INFINITY).unwrap_err().kind(),
        ErrorKind::NonFinite
    );
    assert_eq!(c.current_time(), Some(5.0));
    assert_eq!(bits(c.pose()), before);
}

/// During a fade the weights are [1 - alpha, alpha] with alpha = curve(elapsed / duration),
/// they sum to one, and the output is exactly the blend of the two clips by alpha; when the
/// fade ends the new clip is current and plays on from where it was.
#[test]
fn fade_weights_follow_the_curve() {
    let s = skeleton();
    let (walk, turn) = (walk(&s), turn(&s));
    for (curve, shape) in [
        (FadeCurve::Linear, linear as fn(f32) -> f32),
        (FadeCurve::Smooth, smoothstep),
    ] {
        // A time step and a duration that add up exactly in f32.
        let dt = 1.0 / 64.0;
        let mut c = Crossfade::new(s.clone(), 4).unwrap();
        c.play(walk.clone(), true).unwrap();
        let mut t_walk = 0.0f32;
        for _ in 0..10 {
            c.update(dt).unwrap();
            t_walk += dt;
        }
        let duration = 0.375;
        assert!(c.fade_to(turn.clone(), duration, curve, true).unwrap());
        assert_eq!(c.fade_count(), 1);
        assert_eq!(weights(&c), vec![1.0, 0.0], "nothing has faded yet");
        let (mut t_turn, mut elapsed) = (0.0f32, 0.0f32);
        let mut blended = Pose::new(s.clone());
        let mut frames = 0;
        while c.fade_count() > 0 {
            c.update(dt).unwrap();
            frames += 1;
            t_walk += dt;
            t_turn += dt;
            elapsed += dt;
            let w = weights(&c);
            if c.fade_count() == 0 {
                assert!(elapsed >= duration);
                assert_eq!(w, vec![1.0]);
                assert_eq!(
                    c.current_time(),
                    Some(t_turn),
                    "the new clip keeps its time"
                );
                assert_shows(&c, &turn, (t_turn, true), "");
                break;
            }
            let alpha = shape(elapsed / duration);
            assert_eq!(w.len(), 2);
            assert!((w[0] + w[1] - 1.0).abs() < 1e-6, "{curve:?}: {w:?}");
            assert!(
                (w[1] - alpha).abs() < 1e-6,
                "{curve:?}: {} vs {alpha}",
                w[1]
            );
            assert_eq!(c.current_time(), Some(t_walk));
            blended
                .blend(
                    &sample(&walk, &s, t_walk, true),
                    &sample(&turn, &s, t_turn, true),
                    w[1],
                    None,
                    BlendSpace::Local,
                )
                .unwrap();
            assert_eq!(bits(c.pose()), bits(&blended), "{curve:?} frame {frames}");
        }
        assert_eq!(
            frames, 24,
            "{curve:?}: a 0.375 s fade takes 24 frames at 64 fps"
        );
        // Afterwards the new clip just plays.
        c.update(dt).unwrap();
        t_turn += dt;
        assert_shows(&c, &turn, (t_turn, true), "");
    }
    // The smooth curve eases: slower than linear at first, faster in the middle.
    assert!(smoothstep(0.1) < 0.1 && smoothstep(0.5) == 0.5);
}

/// With several fades queued, every update's weights sum to one and each fade's weight is its
/// alpha times what the fades above it leave.
#[test]
fn queued_fade_weights_sum_to_one() {
    let s = skeleton();
    let clips = [walk(&s), turn(&s), wave(&s), walk(&s)];
    let mut c = Crossfade::new(s.clone(), 3).unwrap();
    c.play(clips[0].clone(), true).unwrap();
    let durations = [0.5, 0.3, 0.7];
    let mut elapsed: Vec<f32> = Vec::new();
    for frame in 0..90 {
        if frame % 6 == 0 && frame / 6 < 3 {
            let k = frame / 6;
            assert!(c
                .fade_to(clips[k + 1].clone(), durations[k], FadeCurve::Smooth, true)
                .unwrap());
            elapsed.push(0.0);
        }
        c.update(DT).unwrap();
        for e in &mut elapsed {
            *e += DT;
        }
        let w = weights(&c);
        assert!(
            (w.iter().sum::<f32>() - 1.0).abs() < 1e-5,
            "frame {frame}: {w:?}"
        );
        assert!(w.iter().all(|&x| (0.0..=1.0).contains(&x)));
        assert_eq!(w.len(), 1 + c.fade_count());
        // Recompute from the fades still queued (finished ones leave from the front).
        let base = elapsed.len() - c.fade_count();
        let mut above = 1.0;
        for (k, &e) in elapsed[base..].iter().enumerate().rev() {
            let d = durations[base + k];
            let a = smoothstep(e / d);
            assert!(
                (w[k + 1] - a * above).abs() < 1e-5,
                "frame {frame} fade {k}: {w:?}"
            );
            above *= 1.0 - a;
        }
        assert!((w[0] - above).abs() < 1e-5);
    }
    assert_eq!(c.fade_count(), 0);
    // A short output slice gets what fits; the count is still the full count.
    let mut c = Crossfade::new(s.clone(), 3).unwrap();
    c.play(clips[0].clone(), true).unwrap();
    c.fade_to(clips[1].clone(), 1.0, FadeCurve::Linear, true)
        .unwrap();
    c.fade_to(clips[2].clone(), 1.0, FadeCurve::Linear, true)
        .unwrap();
    c.update(0.25).unwrap();
    let mut one = [f32::NAN];
    assert_eq!(c.weights(&mut one), 3);
    assert!((one[0] - 0.75 * 0.75).abs() < 1e-6);
    assert_eq!(c.weights(&mut []), 3);
}

/// Finished fades leave the queue, and the newest finished one becomes current (it covers
/// everything under it), keeping its own playback time.
#[test]
fn newest_finished_fade_becomes_current() {
    let s = skeleton();
    let (a, b, d) = (walk(&s), turn(&s), wave(&s));

    // A later, shorter fade finishes first: it becomes current and the older fade is dropped.
    let mut c = Crossfade::new(s.clone(), 4).unwrap();
    c.play(a.clone(), true).unwrap();
    c.fade_to(b.clone(), 1.0, FadeCurve::Linear, true).unwrap();
    c.update(0.125).unwrap();
    c.fade_to(d.clone(), 0.25, FadeCurve::Linear, true).unwrap();
    assert_eq!(c.fade_count(), 2);
    c.update(0.125).unwrap();
    assert_eq!(c.fade_count(), 2);
    c.update(0.125).unwrap();
    assert_eq!(c.fade_count(), 0);
    assert_eq!(weights(&c), vec![1.0]);
    assert_eq!(c.current_time(), Some(0.25));
    assert_shows(&c, &d, (0.25, true), "");
    c.update(0.125).unwrap();
    assert_shows(&c, &d, (0.375, true), "");
    // The dropped clip can be requested again.
    assert!(c.fade_to(b.clone(), 0.5, FadeCurve::Linear, true).unwrap());

    // An older, shorter fade finishes first: it becomes current under the newer one.
    let mut c = Crossfade::new(s.clone(), 4).unwrap();
    c.play(a.clone(), true).unwrap();
    c.update(0.5).unwrap();
    c.fade_to(b.clone(), 0.25, FadeCurve::Linear, true).unwrap();
    c.fade_to(d.clone(), 1.0, FadeCurve::Linear, true).unwrap();
    c.update(0.125).unwrap();
    assert_eq!(c.fade_count(), 2);
    assert_eq!(c.current_time(), Some(0.625));
    c.update(0.125).unwrap();
    assert_eq!(c.fade_count(), 1);
    assert_eq!(
        c.current_time(),
        Some(0.25),
        "b is current, at its own time"
    );
    assert_eq!(weights(&c), vec![0.75, 0.25]);
    let mut want = Pose::new(s.clone());
    want.blend(
        &sample(&b, &s, 0.25, true),
        &sample(&d, &s, 0.25, true),
        0.25,
        None,
        BlendSpace::Local,
    )
    .unwrap();
    assert_eq!(bits(c.pose()), bits(&want));
    c.update(0.25).unwrap();
    assert_eq!(c.current_time(), Some(0.5));
    assert_eq!(weights(&c), vec![0.5, 0.5]);
    // Asking for b now queues a fade back to it (it is current, but not the last request).
    assert!(c.fade_to(b.clone(), 0.5, FadeCurve::Linear, true).unwrap());
    assert_eq!(c.fade_count(), 2);
}

/// A request for the clip already requested last starts no transition but applies its looping
/// flag, whatever the curve: turned off, the clip plays on from where it shows (no jump) and
/// holds its last pose; turned on, a clip held at its end starts over. The same for the last
/// queued fade.
#[test]
fn a_repeated_request_applies_its_looping_flag() {
    let s = skeleton();
    let (walk, turn) = (walk(&s), turn(&s));
    let requests = [
        (FadeCurve::Linear, 0.5),
        (FadeCurve::Smooth, 0.5),
        (FadeCurve::Inertialize, 0.5),
        (FadeCurve::Linear, 0.0),
    ];
    for (curve, duration) in requests {
        let what = format!("{curve:?} over {duration}");
        let mut c = Crossfade::new(s.clone(), 2).unwrap();
        c.play(walk.clone(), true).unwrap();
        c.update(9.5).unwrap(); // 1.5 s into the 4 s clip
        let shown = bits(c.pose());
        assert!(!c.fade_to(walk.clone(), duration, curve, false).unwrap());
        assert_eq!((c.fade_count(), c.is_inertializing()), (0, false), "{what}");
        assert_eq!(clip_times(&c), vec![1.5], "{what}");
        c.update(0.0).unwrap();
        assert_eq!(bits(c.pose()), shown, "{what}: no jump");
        c.update(2.0).unwrap();
        assert_shows(&c, &walk, (3.5, false), "{what}");
        c.update(1.0).unwrap();
        assert_shows(
            &c,
            &walk,
            (4.0, false),
            "{what}: held at the end, not wrapped",
        );
        assert_eq!(clip_times(&c), vec![4.0], "{what}");

        assert!(!c.fade_to(walk.clone(), duration, curve, true).unwrap());
        assert_eq!(clip_times(&c), vec![0.0], "{what}: starts over");
        c.update(0.5).unwrap();
        assert_shows(&c, &walk, (0.5, true), "{what}");
        c.update(4.0).unwrap();
        assert_shows(&c, &walk, (0.5, true), "{what}: loops");

        // The last queued fade: its clip stops looping, the fade goes on.
        let mut c = Crossfade::new(s.clone(), 2).unwrap();
        c.play(walk.clone(), true).unwrap();
        c.update(0.5).unwrap();
        c.fade_to(turn.clone(), 8.0, FadeCurve::Linear, true)
            .unwrap();
        c.update(3.5).unwrap(); // turn 0.5 s into its second loop
        assert!(!c.fade_to(turn.clone(), duration, curve, false).unwrap());
        assert_eq!(c.fade_count(), 1, "{what}");
        assert_eq!(clip_times(&c), vec![0.0, 0.5], "{what}");
        c.update(3.0).unwrap();
        assert_eq!(
            clip_times(&c),
            vec![3.0, 3.0],
            "{what}: turn held at its end"
        );
        let mut want = Pose::new(s.clone());
        want.blend(
            &sample(&walk, &s, 7.0, true),
            &sample(&turn, &s, 3.0, false),
            6.5 / 8.0,
            None,
            BlendSpace::Local,
        )
        .unwrap();
        assert_eq!(bits(c.pose()), bits(&want), "{what}");
    }
}

/// Clip times (current first, then each fade, as the weights) are where the last update
/// sampled each clip, wrapped or clamped, 0 for a clip requested since; the inertialization
/// reports the time left of its duration while it runs.
#[test]
fn clip_times_and_inertialization_state_are_reported() {
    let s = skeleton();
    let (walk, turn, wave) = (walk(&s), turn(&s), wave(&s));
    let mut c = Crossfade::new(s.clone(), 4).unwrap();
    assert_eq!(clip_times(&c), Vec::<f32>::new());
    assert_eq!(c.inertialization_remaining(), None);
    c.play(walk.clone(), true).unwrap();
    assert_eq!(clip_times(&c), vec![0.0]);
    c.update(4.5).unwrap();
    assert_eq!(clip_times(&c), vec![0.5]);
    assert_shows(&c, &walk, (0.5, false), "");
    c.fade_to(turn.clone(), 2.0, FadeCurve::Linear, false)
        .unwrap();
    assert_eq!(clip_times(&c), vec![0.5, 0.0]);
    c.update(1.0).unwrap();
    c.fade_to(wave.clone(), 4.0, FadeCurve::Smooth, true)
        .unwrap();
    c.update(0.75).unwrap();
    assert_eq!(clip_times(&c), vec![2.25, 1.75, 0.75]);
    assert_eq!(clip_times(&c).len(), weights(&c).len());
    // Fewer slots than clips: the first ones, and the full count.
    let mut one = [f32::NAN; 1];
    assert_eq!(c.clip_times(&mut one), 3);
    assert_eq!(one, [2.25]);
    c.update(0.5).unwrap(); // turn's fade ends: turn is current, past its end
    assert_eq!(clip_times(&c), vec![2.25, 1.25]);
    c.update(1.0).unwrap();
    assert_eq!(
        clip_times(&c),
        vec![3.0, 0.25],
        "turn clamped, wave wrapped"
    );
    assert_eq!(c.inertialization_remaining(), None);

    assert!(c
        .fade_to(walk.clone(), 0.5, FadeCurve::Inertialize, false)
        .unwrap());
    assert_eq!(clip_times(&c), vec![0.0]);
    assert_eq!(c.inertialization_remaining(), Some(0.5));
    c.update(0.125).unwrap();
    assert_eq!(c.inertialization_remaining(), Some(0.375));
    assert!(c.is_inertializing());
    c.update(0.375).unwrap();
    assert_eq!(c.inertialization_remaining(), None);
    assert!(!c.is_inertializing());
    assert_eq!(clip_times(&c), vec![0.5]);
}

/// Linear and smooth fades (and a fade interrupted by another) never pop: at 60 fps no joint
/// turns more than a few degrees or moves more than a few centimetres per frame, for clips
/// that move smoothly themselves; an instant switch between the same clips would.
#[test]
fn fades_keep_the_pose_continuous() {
    let s = skeleton();
    let (walk, turn, wave) = (walk(&s), turn(&s), wave(&s));
    let max_turn = 6f32.to_radians();
    let max_move = 0.08;

    // The clips differ enough for a pop to show, and move slowly enough on their own.
    let mut cut = Crossfade::new(s.clone(), 2).unwrap();
    cut.play(walk.clone(), true).unwrap();
    cut.update(1.0).unwrap();
    let before = cut.pose().local().to_vec();
    cut.play(turn.clone(), true).unwrap();
    cut.update(DT).unwrap();
    let (jump, pop, _) = pose_gap(&before, &cut.pose().local().to_vec());
    assert!(
        pop > 3.0 * max_turn && jump > 3.0 * max_move,
        "{pop} {jump}"
    );

    for curve in [FadeCurve::Linear, FadeCurve::Smooth] {
        for interrupt in [false, true] {
            let mut c = Crossfade::new(s.clone(), 3).unwrap();
            c.play(walk.clone(), true).unwrap();
            c.update(1.0).unwrap();
            let mut previous = c.pose().local().to_vec();
            for frame in 0..120 {
                if frame == 5 {
                    c.fade_to(turn.clone(), 0.5, curve, true).unwrap();
                }
                if interrupt && frame == 20 {
                    c.fade_to(wave.clone(), 0.4, curve, true).unwrap();
                }
                c.update(DT).unwrap();
                let now = &c.pose().local().to_vec()[..];
                let (dt, dr, ds) = pose_gap(&previous, now);
                assert!(
                    dr <= max_turn && dt <= max_move && ds <= 0.05,
                    "{curve:?} interrupt={interrupt} frame {frame}: turned {} deg, moved {dt}",
                    dr.to_degrees()
                );
                for t in now {
                    assert!((t.rotation.length() - 1.0).abs() < 1e-5);
                }
                previous.copy_from_slice(now);
            }
            assert_eq!(c.fade_count(), 0);
        }
    }
}

/// The first update(0) after an inertialized request gives the previous output, whether that
/// came from a single clip or from the middle of a fade; the queue is dropped.
#[test]
fn inertialization_starts_at_the_previous_output() {
    let s = skeleton();
    let (walk, turn, wave) = (walk(&s), turn(&s), wave(&s));
    for mid_fade in [false, true] {
        let mut c = Crossfade::new(s.clone(), 2).unwrap();
        c.play(walk.clone(), true).unwrap();
        for frame in 0..40 {
            if mid_fade && frame == 20 {
                c.fade_to(wave.clone(), 0.5, FadeCurve::Linear, true)
                    .unwrap();
            }
            c.update(DT).unwrap();
        }
        let previous = c.pose().local().to_vec();
        assert!(c
            .fade_to(turn.clone(), 0.3, FadeCurve::Inertialize, true)
            .unwrap());
        assert!(c.is_inertializing());
        assert_eq!(c.fade_count(), 0);
        assert_eq!(c.current_time(), Some(0.0));
        assert_eq!(weights(&c), vec![1.0]);
        c.update(0.0).unwrap();
        let (dt, dr, ds) = pose_gap(&previous, &c.pose().local().to_vec());
        assert!(
            dt < 1e-5 && dr < 1e-5 && ds < 1e-5,
            "mid_fade={mid_fade}: {dt} {dr} {ds}"
        );
        // The new clip's own pose is far away: the offset is doing the work.
        let (ft, fr, _) = pose_gap(&previous, &sample(&turn, &s, 0.0, true).local().to_vec());
        assert!(ft > 0.2 && fr > 0.2);
    }
}

/// The output converges to the new clip and equals it once the duration has passed; when the
/// old pose was at rest the remaining offset shrinks every frame.
#[test]
fn inertialization_converges_to_the_new_clip() {
    let s = skeleton();
    let held = [
        Transform::new(
            Vec3::new(0.5, 1.2, -0.3),
            Quat::from_rotation_z(0.7),
            Vec3::ONE,
        ),
        Transform::new(
            Vec3::new(0.0, 0.5, 0.2),
            Quat::from_rotation_x(-0.9),
            Vec3::ONE,
        ),
        Transform::new(
            Vec3::new(0.3, 0.25, 0.0),
            Quat::from_euler(glam::EulerRot::XYZ, 0.2, 1.0, -0.5),
            Vec3::splat(1.4),
        ),
    ];
    let at_rest = static_clip(&s, &held);
    let turn = turn(&s);
    for (old, old_is_at_rest) in [(at_rest, true), (walk(&s), false)] {
        let mut c = Crossfade::new(s.clone(), 2).unwrap();
        c.play(old.clone(), true).unwrap();
        for _ in 0..10 {
            c.update(DT).unwrap();
        }
        let duration = 0.5;
        c.fade_to(turn.clone(), duration, FadeCurve::Inertialize, true)
            .unwrap();
        let mut t = 0.0f32;
        let mut last = pose_gap(
            &c.pose().local().to_vec(),
            &sample(&turn, &s, 0.0, true).local().to_vec(),
        );
        let mut done_frames = 0;
        for frame in 0..60 {
            c.update(DT).unwrap();
            t += DT;
            assert_eq!(c.current_time(), Some(t));
            let target = sample(&turn, &s, t, true);
            let gap = pose_gap(&c.pose().local().to_vec(), &target.local().to_vec());
            if t >= duration {
                assert!(!c.is_inertializing(), "frame {frame}");
                assert!(
                    gap.0 < 1e-6 && gap.1 < 1e-6 && gap.2 < 1e-6,
                    "frame {frame}: {gap:?}"
                );
                if done_frames > 0 {
                    assert_eq!(bits(c.pose()), bits(&target), "frame {frame}");
                }
                done_frames += 1;
            } else {
                assert!(c.is_inertializing(), "frame {frame}");
                if old_is_at_rest {
                    assert!(
                        gap.0 <= last.0 + 1e-6 && gap.1 <= last.1 + 1e-6 && gap.2 <= last.2 + 1e-6,
                        "frame {frame}: offset grew from {last:?} to {gap:?}"
                    );
                }
            }
            last = gap;
        }
        assert!(done_frames > 20);
    }
}

/// Old motion along a straight line at 1 m/s and a steady 1 rad/s turn; the switch frame's
/// velocity (finite differences) is compared with the frame before, inertialized and with an
/// instant switch.
struct SwitchJump {
    translation: f32,
    rotation: f32,
}

fn velocity_jump(c: &mut Crossfade, switch: impl FnOnce(&mut Crossfade)) -> SwitchJump {
    let root = |c: &Crossfade| c.pose().local().get(0);
    let older = root(c);
    c.update(DT).unwrap();
    let prev = root(c);
    switch(c);
    c.update(DT).unwrap();
    let next = root(c);
    let v_before = (prev.translation - older.translation) / DT;
    let v_after = (next.translation - prev.translation) / DT;
    let w_before = (prev.rotation * older.rotation.conjugate()).to_scaled_axis() / DT;
    let w_after = (next.rotation * prev.rotation.conjugate()).to_scaled_axis() / DT;
    SwitchJump {
        translation: (v_after - v_before).length(),
        rotation: (w_after - w_before).length(),
    }
}

#[test]
fn inertialization_keeps_velocity_continuous_at_the_switch() {
    let s = skeleton();
    let rest = s.rest_pose().to_vec();
    let straight = {
        let rest = rest.clone();
        clip_fn(&s, 10.0, 0.5, move |j, t| {
            if j == 0 {
                Transform::from_rotation_translation(
                    Quat::from_rotation_y(t),
                    Vec3::new(t, 1.0, 0.0),
                )
            } else {
                rest[j]
            }
        })
    };
    let mut c = Crossfade::new(s.clone(), 2).unwrap();
    c.play(straight.clone(), false).unwrap();
    for _ in 0..59 {
        c.update(DT).unwrap();
    }
    // Where the root will be at the switch (one more frame).
    let mut probe = c.clone();
    probe.update(DT).unwrap();
    let at_switch = probe.pose().local().get(0);

    let held = |root: Transform| {
        let mut pose = rest.clone();
        pose[0] = root;
        static_clip(&s, &pose)
    };
    // 1. The new clip holds a pose half a metre behind on the line of motion and 0.4 rad back
    //    in the turn: the old velocity is entirely along the offsets.
    let behind = held(Transform::from_rotation_translation(
        Quat::from_rotation_y(-0.4) * at_switch.rotation,
        at_switch.translation - Vec3::new(0.5, 0.0, 0.0),
    ));
    // 2. A held pose off to the side and tilted.
    let aside = held(Transform::from_rotation_translation(
        Quat::from_rotation_x(0.5) * at_switch.rotation,
        at_switch.translation + Vec3::new(0.2, 0.4, -0.3),
    ));
    // 3. A moving clip elsewhere.
    let moving = {
        let rest = rest.clone();
        clip_fn(&s, 10.0, 0.5, move |j, t| {
            if j == 0 {
                Transform::from_rotation_translation(
                    Quat::from_rotation_z(0.3) * Quat::from_rotation_y(0.5 * t),
                    Vec3::new(0.5 * t, 1.3, 0.4),
                )
            } else {
                rest[j]
            }
        })
    };
    for (name, clip, along) in [
        ("behind", behind, true),
        ("aside", aside, false),
        ("moving", moving, false),
    ] {
        let mut smooth = c.clone();
        let inert = velocity_jump(&mut smooth, |c| {
            assert!(c
                .fade_to(clip.clone(), 0.5, FadeCurve::Inertialize, false)
                .unwrap());
        });
        let mut cut = c.clone();
        let instant = velocity_jump(&mut cut, |c| c.play(clip.clone(), false).unwrap());
        assert!(
            instant.translation > 10.0 && instant.rotation > 10.0,
            "{name}: the instant switch pops ({} m/s, {} rad/s)",
            instant.translation,
            instant.rotation
        );
        assert!(
            inert.translation < 0.1 * instant.translation
                && inert.rotation < 0.1 * instant.rotation,
            "{name}: velocity jumps by {} m/s and {} rad/s (instant: {} and {})",
            inert.translation,
            inert.rotation,
            instant.translation,
            instant.rotation
        );
        if along {
            // The whole old velocity carries on: no visible change of speed at all.
            assert!(
                inert.translation < 0.05 && inert.rotation < 0.05,
                "{name}: velocity jumps by {} m/s and {} rad/s",
                inert.translation,
                inert.rotation
            );
        }
    }
}

/// Before any update there is no previous output to start from: the clip simply plays.
#[test]
fn inertialization_before_any_output_just_plays() {
    let s = skeleton();
    let turn = turn(&s);
    let mut c = Crossfade::new(s.clone(), 2).unwrap();
    c.play(walk(&s), true).unwrap();
    assert!(c
        .fade_to(turn.clone(), 0.5, FadeCurve::Inertialize, true)
        .unwrap());
    assert!(!c.is_inertializing());
    c.update(DT).unwrap();
    assert_shows(&c, &turn, (DT, true), "");
    // play() drops a running inertialization.
    c.update(DT).unwrap();
    c.fade_to(walk(&s), 0.5, FadeCurve::Inertialize, true)
        .unwrap();
    assert!(c.is_inertializing());
    c.play(turn.clone(), true).unwrap();
    assert!(!c.is_inertializing());
    c.update(0.25).unwrap();
    assert_shows(&c, &turn, (0.25, true), "");
}

struct CHandles {
    skeleton: *mut SinewSkeleton,
    clips: Vec<*mut SinewClip>,
    crossfade: *mut SinewCrossfade,
    pose: *mut SinewPose,
}

impl Drop for CHandles {
    fn drop(&mut self) {
        // SAFETY: every handle was created by the test and is destroyed once (NULL is a no-op).
        unsafe {
            sinew_crossfade_destroy(self.crossfade);
            sinew_pose_destroy(self.pose);
            for &c in &self.clips {
                sinew_clip_destroy(c);
            }
            sinew_skeleton_destroy(self.skeleton);
        }
    }
}

fn c_local(pose: *const SinewPose) -> Vec<Transform> {
    let mut out = vec![SinewTransform::default(); N];
    // SAFETY: live pose of N joints.
    let status = unsafe { sinew_pose_get_local(pose, out.as_mut_ptr(), N as u32) };
    ok(status);
    out.into_iter().map(Transform::from).collect()
}

/// The C controller plays clips made through the C ABI like the core does (an inertialized
/// request dropping a queued fade with OK, a repeated request changing the looping flag),
/// reports queue state, weights, clip times and inertialization, and its clips cannot be
/// edited while it plays them.
#[test]
fn c_crossfade_matches_the_core() {
    let s = skeleton();
    let mut h = CHandles {
        skeleton: c_skeleton_of(&s),
        clips: Vec::new(),
        crossfade: ptr::null_mut(),
        pose: ptr::null_mut(),
    };
    let times = [0.0f32, 1.0];
    let ends = [
        [Vec3::new(0.0, 1.0, 0.0), Vec3::new(1.0, 1.0, 0.0)],
        [Vec3::new(0.0, 1.0, 0.0), Vec3::new(0.0, 1.0, -2.0)],
    ];
    let mut core_clips = Vec::new();
    // SAFETY: live handles and valid pointers throughout.
    unsafe {
        // A linear translation track of joint `joint` keyed at `times`.
        let track = |clip, joint, v: &[SinewVec3; 2]| {
            let (t, v) = (times.as_ptr(), v.as_ptr());
            sinew_clip_set_translation_track(clip, joint, 1, t, v, ptr::null(), ptr::null(), 2)
        };
        for e in &ends {
            let mut clip = ptr::null_mut();
            ok(sinew_clip_create(h.skeleton, 1.0, &mut clip));
            h.clips.push(clip);
            ok(track(clip, 0, &e.map(SinewVec3::from)));
            let mut core = Clip::new(&s, 1.0).unwrap();
            core.set_translation_track(
                0,
                Track::new(Interpolation::Linear, &times, e, None, 1.0).unwrap(),
            )
            .unwrap();
            core_clips.push(Arc::new(core));
        }
        assert_eq!(
            sinew_crossfade_create(h.skeleton, 0, &mut h.crossfade),
            SinewStatus::OutOfRange
        );
        ok(sinew_crossfade_create(h.skeleton, 2, &mut h.crossfade));
        ok(sinew_pose_create(h.skeleton, &mut h.pose));
        let mut core = Crossfade::new(s.clone(), 2).unwrap();

        assert_eq!(
            sinew_crossfade_play(h.crossfade, h.clips[0], 2),
            SinewStatus::InvalidArgument
        );
        ok(sinew_crossfade_play(h.crossfade, h.clips[0], 1));
        core.play(core_clips[0].clone(), true).unwrap();
        // Playing clips are shared: editing them is refused until the controller lets go.
        let edit = |clip| track(clip, 1, &[SinewVec3::default(); 2]);
        assert_eq!(edit(h.clips[0]), SinewStatus::InvalidArgument);
        assert_eq!(
            edit(h.clips[1]),
            SinewStatus::Ok,
            "a clip nobody plays is editable"
        );
        core_clips[1] = {
            let mut c = (*core_clips[1]).clone();
            c.set_translation_track(
                1,
                Track::new(Interpolation::Linear, &times, &[Vec3::ZERO; 2], None, 1.0).unwrap(),
            )
            .unwrap();
            Arc::new(c)
        };

        let mut queued = 7u32;
        assert_eq!(
            sinew_crossfade_fade_to(h.crossfade, h.clips[1], 0.5, 3, 1, &mut queued),
            SinewStatus::InvalidArgument
        );
        assert_eq!(
            sinew_crossfade_fade_to(h.crossfade, h.clips[1], 0.5, 0, 2, &mut queued),
            SinewStatus::InvalidArgument
        );
        assert_eq!(queued, 7, "untouched on error");
        // A request through the C ABI that must succeed: whether it queued a fade (7 before).
        let c_fade = |clip, duration, curve, looping| {
            let mut queued = 7u32;
            ok(sinew_crossfade_fade_to(
                h.crossfade,
                clip,
                duration,
                curve,
                looping,
                &mut queued,
            ));
            queued
        };
        assert_eq!(c_fade(h.clips[0], 0.5, 0, 1), 0, "already playing");
        for frame in 0..120 {
            if frame == 30 {
                // An inertialized switch while the fade is queued drops it, with OK.
                assert_eq!(c_fade(h.clips[0], 0.3, 2, 1), 1);
                let mut count = 7u32;
                ok(sinew_crossfade_fade_count(h.crossfade, &mut count));
                assert_eq!(count, 0);
                assert!(core
                    .fade_to(core_clips[0].clone(), 0.3, FadeCurve::Inertialize, true)
                    .unwrap());
            }
            if frame == 70 {
                // The clip already playing: no transition, looping turned off.
                assert_eq!(c_fade(h.clips[0], 0.5, 0, 0), 0);
                assert!(!core
                    .fade_to(core_clips[0].clone(), 0.5, FadeCurve::Linear, false)
                    .unwrap());
            }
            if frame == 10 {
                assert_eq!(c_fade(h.clips[1], 0.5, 1, 1), 1);
                assert!(core
                    .fade_to(core_clips[1].clone(), 0.5, FadeCurve::Smooth, true)
                    .unwrap());
                ok(sinew_crossfade_fade_to(
                    h.crossfade,
                    h.clips[1],
                    0.5,
                    1,
                    1,
                    ptr::null_mut(),
                ));
            }
            ok(sinew_crossfade_update(h.crossfade, DT));
            core.update(DT).unwrap();
            ok(sinew_crossfade_get_pose(h.crossfade, h.pose));
            assert_eq!(c_local(h.pose), core.pose().local(), "frame {frame}");
            let mut count = 0u32;
            ok(sinew_crossfade_fade_count(h.crossfade, &mut count));
            assert_eq!(count as usize, core.fade_count());
            let mut w = [f32::NAN; 4];
            ok(sinew_crossfade_get_weights(
                h.crossfade,
                w.as_mut_ptr(),
                4,
                &mut count,
            ));
            assert_eq!(w[..count as usize], weights(&core)[..]);
            ok(sinew_crossfade_get_weights(
                h.crossfade,
                ptr::null_mut(),
                0,
                &mut count,
            ));
            assert_eq!(count as usize, 1 + core.fade_count());
            let mut t = [f32::NAN; 4];
            ok(sinew_crossfade_get_times(
                h.crossfade,
                t.as_mut_ptr(),
                4,
                &mut count,
            ));
            assert_eq!(t[..count as usize], clip_times(&core)[..], "frame {frame}");
            ok(sinew_crossfade_get_times(
                h.crossfade,
                ptr::null_mut(),
                0,
                &mut count,
            ));
            assert_eq!(count as usize, 1 + core.fade_count());
            let (mut active, mut left) = (7u32, f32::NAN);
            ok(sinew_crossfade_is_inertializing(
                h.crossfade,
                &mut active,
                &mut left,
            ));
            assert_eq!(active, u32::from(core.is_inertializing()));
            assert_eq!(left, core.inertialization_remaining().unwrap_or(0.0));
            ok(sinew_crossfade_is_inertializing(
                h.crossfade,
                &mut active,
                ptr::null_mut(),
            ));
            // 0.3 s from frame 30: 18 frames, give or take the rounding of their sum.
            if !(46..48).contains(&frame) {
                assert_eq!(active == 1, (30..46).contains(&frame), "frame {frame}");
            }
        }
        // Held at its end since looping went off at 40 frames in (a 1 s clip).
        let mut t = [f32::NAN; 1];
        let mut count = 0;
        ok(sinew_crossfade_get_times(
            h.crossfade,
            t.as_mut_ptr(),
            1,
            &mut count,
        ));
        assert_eq!((t[0], count), (1.0, 1));
        assert_eq!(
            sinew_crossfade_update(h.crossfade, -1.0),
            SinewStatus::InvalidArgument
        );
        assert_eq!(
            sinew_crossfade_update(h.crossfade, f32::NAN),
            SinewStatus::NonFinite
        );
        // The dropped fade's clip was let go; once the controller is gone, so is the other.
        ok(edit(h.clips[1]));
        assert_eq!(edit(h.clips[0]), SinewStatus::InvalidArgument);
        sinew_crossfade_destroy(h.crossfade);
        h.crossfade = ptr::null_mut();
        ok(edit(h.clips[0]));
    }
}
