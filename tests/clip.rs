//! Keyframed clips. Validity first: bad tracks and clips are refused at build time with the
//! right kind (core and C ABI), and sampling errors leave the output untouched. Then the
//! behaviour: exact keys, interpolation between them (step, linear, slerp, cubic Hermite),
//! looping and clamping, rest-pose fallback, cursor-based sampling, and the C ABI.
//!
//! Shared helpers come from tests/common; the fixtures are local to this file.

use std::ptr;
use std::sync::Arc;

use proptest::prelude::*;
use sinew::ffi::{
    sinew_clip_clear_track, sinew_clip_create, sinew_clip_cursor_create, sinew_clip_cursor_destroy,
    sinew_clip_destroy, sinew_clip_duration, sinew_clip_sample, sinew_clip_set_rotation_track,
    sinew_clip_set_scale_track, sinew_clip_set_translation_track, sinew_pose_create,
    sinew_pose_destroy, sinew_pose_get_local, sinew_skeleton_destroy, SinewClip, SinewPose,
    SinewQuat, SinewSkeleton, SinewStatus, SinewTransform, SinewVec3,
};
use sinew::{
    Clip, ClipCursor, ErrorKind, Interpolation, Pose, Property, Quat, Skeleton, Track, Transform,
    Vec3,
};

mod common;

use common::ffi::{c_skeleton_of, ok, SetTrack};
use common::poses::{bits, cubic, sample, skeleton_of, track, transform_bits, trs};
use common::props::config;
use common::rotations::rot_between;
use sinew::clip::Keyframe;
use sinew::Interpolation::{Linear, Slerp};

/// root -> spine -> head, root -> leg (the leg never gets tracks in most tests).
const PARENTS: [i32; 4] = [-1, 0, 1, 0];
const N: usize = PARENTS.len();

const LEG: usize = 3;

fn skeleton() -> Arc<Skeleton> {
    let leg = Quat::from_euler(glam::EulerRot::XYZ, 0.4, 0.5, -0.6);
    let rest = [
        trs([0.0, 1.0, 0.0], Quat::from_rotation_y(0.3), [1.0; 3]),
        trs([0.0, 0.4, 0.1], Quat::from_rotation_x(-0.2), [1.1; 3]),
        trs([0.0, 0.3, 0.0], Quat::from_rotation_z(0.1), [1.0, 0.9, 1.2]),
        trs([0.2, -0.1, 0.0], leg, [0.8; 3]),
    ];
    skeleton_of(&PARENTS, &rest)
}

fn assert_close_pose(got: &Pose, want: &Pose, eps: f32, what: &str) {
    for (i, (g, w)) in got.local().iter().zip(want.local()).enumerate() {
        let dt = (g.translation - w.translation).abs().max_element();
        let ds = (g.scale - w.scale).abs().max_element();
        let dr = rot_between(g.rotation, w.rotation);
        assert!(
            dt <= eps && ds <= eps && dr <= eps,
            "{what}, joint {i}: {g:?} vs {w:?}"
        );
    }
}

const INTERPOLATIONS: [Interpolation; 4] = [
    Interpolation::Step,
    Interpolation::Linear,
    Interpolation::Slerp,
    Interpolation::Cubic,
];

/// Key times, unevenly spaced, the last one at `duration`.
const DURATION: f32 = 2.0;
const TIMES: [f32; 5] = [0.0, 0.25, 0.875, 1.5, 2.0];

fn vec_keys() -> Vec<Vec3> {
    vec![
        Vec3::new(0.0, 1.0, 0.0),
        Vec3::new(0.5, 1.2, -0.3),
        Vec3::new(1.5, 0.8, 0.2),
        Vec3::new(-0.5, 1.0, 1.0),
        Vec3::new(0.0, 1.0, 0.0),
    ]
}

fn scale_keys() -> Vec<Vec3> {
    vec![
        Vec3::ONE,
        Vec3::new(1.2, 0.9, 1.0),
        Vec3::splat(1.5),
        Vec3::new(0.7, 1.1, 1.3),
        Vec3::ONE,
    ]
}

/// Rotation keys, some written with a negative w (the same rotation as its negation), and
/// one not normalized.
fn quat_keys() -> Vec<Quat> {
    vec![
        Quat::IDENTITY,
        -Quat::from_rotation_y(0.9),
        Quat::from_euler(glam::EulerRot::XYZ, 0.5, 1.3, -0.4) * 3.0,
        -Quat::from_rotation_z(-1.2),
        Quat::from_rotation_x(0.1),
    ]
}

fn tangents_vec(n: usize, k: f32) -> Vec<Vec3> {
    (0..n)
        .map(|i| Vec3::new(k * (i as f32 - 1.0), 0.5 * k, -k * i as f32))
        .collect()
}

fn tangents_quat(n: usize, k: f32) -> Vec<Quat> {
    (0..n)
        .map(|i| Quat::from_xyzw(0.1 * k * i as f32, -0.2 * k, 0.05 * k, 0.0))
        .collect()
}

/// A track of `keys` at [`TIMES`]; cubic tracks get the tangents `tangents(n, k)` for the two
/// factors `k` of `(in, out)`.
fn keyed<T: Keyframe>(
    interpolation: Interpolation,
    keys: &[T],
    tangents: fn(usize, f32) -> Vec<T>,
    (k_in, k_out): (f32, f32),
) -> Track<T> {
    let (i, o) = (tangents(keys.len(), k_in), tangents(keys.len(), k_out));
    let tangents = (interpolation == Interpolation::Cubic).then_some((&i[..], &o[..]));
    Track::new(interpolation, &TIMES, keys, tangents, DURATION).unwrap()
}

fn vec_track(interpolation: Interpolation, keys: &[Vec3]) -> Track<Vec3> {
    keyed(interpolation, keys, tangents_vec, (1.0, -0.5))
}

fn quat_track(interpolation: Interpolation, keys: &[Quat]) -> Track<Quat> {
    keyed(interpolation, keys, tangents_quat, (1.0, -0.7))
}

/// A clip animating the root, spine and head (all three properties) with one interpolation;
/// the leg has no tracks.
fn full_clip(s: &Skeleton, interpolation: Interpolation) -> Clip {
    let mut clip = Clip::new(s, DURATION).unwrap();
    for j in 0..3 {
        let off = Vec3::splat(j as f32 * 0.1);
        let keys: Vec<Vec3> = vec_keys().iter().map(|&v| v + off).collect();
        clip.set_translation_track(j, vec_track(interpolation, &keys))
            .unwrap();
        clip.set_rotation_track(j, quat_track(interpolation, &quat_keys()))
            .unwrap();
        clip.set_scale_track(j, vec_track(interpolation, &scale_keys()))
            .unwrap();
    }
    clip
}

// ------------------------------------------------------------------------------ validity

#[test]
fn sampling_errors_leave_the_output_untouched() {
    let s = skeleton();
    let clip = full_clip(&s, Interpolation::Linear);
    let mut out = sample(&clip, &s, 0.3, false);
    let before = bits(&out);
    for n in [N - 1, N + 1, 0] {
        let mut wrong = ClipCursor::for_joints(n);
        let e = clip
            .sample(1.0, false, Some(&mut wrong), &mut out)
            .unwrap_err();
        assert_eq!(e.kind(), ErrorKind::SizeMismatch, "cursor for {n} joints");
        assert_eq!(bits(&out), before);
    }
    for t in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
        let e = clip.sample(t, true, None, &mut out).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::NonFinite, "t={t}");
        assert_eq!(bits(&out), before);
    }
    let small = Arc::new(Skeleton::new(&[-1, 0], &[Transform::IDENTITY; 2], None).unwrap());
    let mut short = Pose::new(small.clone());
    let e = clip.sample(1.0, false, None, &mut short).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::SizeMismatch);

    // Keys and tangents so large the curve leaves f32's range between keys.
    let mut wild = Clip::new(&s, 1.0).unwrap();
    let big = Vec3::splat(3e38);
    let track = cubic(&[0.0, 1.0], &[big, big], (&[big, -big], &[big, big]), 1.0);
    wild.set_translation_track(0, track).unwrap();
    let e = wild.sample(0.25, false, None, &mut out).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::NumericOverflow);
    assert_eq!(bits(&out), before);
}

fn vec_err(
    interpolation: Interpolation,
    times: &[f32],
    values: &[Vec3],
    tangents: Option<(&[Vec3], &[Vec3])>,
    duration: f32,
) -> ErrorKind {
    Track::new(interpolation, times, values, tangents, duration)
        .unwrap_err()
        .kind()
}

fn quat_err(
    interpolation: Interpolation,
    times: &[f32],
    values: &[Quat],
    tangents: Option<(&[Quat], &[Quat])>,
) -> ErrorKind {
    Track::new(interpolation, times, values, tangents, 1.0)
        .unwrap_err()
        .kind()
}

#[test]
fn bad_tracks_are_rejected_with_the_right_kind() {
    use ErrorKind::*;
    use Interpolation::*;
    let v3 = [Vec3::ZERO, Vec3::X, Vec3::Y];
    let ok_t = [0.0, 0.5, 1.0];
    for interp in [Step, Linear, Slerp] {
        let e = |t: &[f32], v: &[Vec3]| vec_err(interp, t, v, None, 1.0);
        assert_eq!(e(&[0.0, 0.7, 0.5], &v3), InvalidArgument, "unsorted");
        assert_eq!(e(&[0.0, 0.5, 0.5], &v3), InvalidArgument, "duplicate");
        assert_eq!(e(&[0.5, 0.0], &v3[..2]), InvalidArgument, "decreasing");
        assert_eq!(e(&[0.0, f32::NAN, 1.0], &v3), NonFinite, "NaN time");
        assert_eq!(
            e(&[0.0, 0.5, f32::INFINITY], &v3),
            NonFinite,
            "infinite time"
        );
        assert_eq!(e(&[-0.1, 0.5, 1.0], &v3), OutOfRange, "time before 0");
        assert_eq!(
            e(&[0.0, 0.5, 1.1], &v3),
            OutOfRange,
            "time after the duration"
        );
        let mut nan = v3;
        nan[1].y = f32::NAN;
        assert_eq!(e(&ok_t, &nan), NonFinite, "NaN value");
        nan[1].y = f32::NEG_INFINITY;
        assert_eq!(e(&ok_t, &nan), NonFinite, "infinite value");
        assert_eq!(e(&ok_t, &v3[..2]), SizeMismatch, "fewer values than times");
        assert_eq!(e(&ok_t[..2], &v3), SizeMismatch, "more values than times");
        assert_eq!(e(&[], &[]), InvalidArgument, "no keys");
        let tan = [Vec3::ZERO; 3];
        assert_eq!(
            vec_err(interp, &ok_t, &v3, Some((&tan, &tan)), 1.0),
            InvalidArgument,
            "tangents on a {interp:?} track"
        );
        let xyzw = Quat::from_xyzw;
        for (bad, kind, what) in [
            (xyzw(0.0, 0.0, 0.0, 0.0), InvalidArgument, "zero"),
            (xyzw(1e-9, 0.0, 0.0, 1e-9), InvalidArgument, "tiny"),
            (xyzw(f32::NAN, 0.0, 0.0, 1.0), NonFinite, "NaN"),
        ] {
            let q = [Quat::IDENTITY, bad, Quat::IDENTITY];
            let got = quat_err(interp, &ok_t, &q, None);
            assert_eq!(got, kind, "{what} quaternion");
        }
    }
    // Cubic: tangents required, one in and one out per key, finite.
    let tan = [Vec3::ZERO; 3];
    let e = |tangents: Option<(&[Vec3], &[Vec3])>| vec_err(Cubic, &ok_t, &v3, tangents, 1.0);
    let (long, mut bad) = ([Vec3::ZERO; 4], tan);
    bad[2].x = f32::NAN;
    for (tangents, kind, what) in [
        (None, InvalidArgument, "cubic without tangents"),
        (
            Some((&tan[..2], &tan[..])),
            SizeMismatch,
            "short in tangents",
        ),
        (Some((&tan, &tan[..2])), SizeMismatch, "short out tangents"),
        (Some((&long, &tan)), SizeMismatch, "long in tangents"),
        (Some((&tan, &bad)), NonFinite, "NaN out tangent"),
        (Some((&bad, &tan)), NonFinite, "NaN in tangent"),
    ] {
        assert_eq!(e(tangents), kind, "{what}");
    }
    let qt = [Quat::from_xyzw(0.0, 0.0, 0.0, 0.0); 3];
    let qv = [Quat::IDENTITY; 3];
    assert_eq!(quat_err(Cubic, &ok_t, &qv, None), InvalidArgument);
    let mut qbad = qt;
    qbad[0].w = f32::INFINITY;
    assert_eq!(quat_err(Cubic, &ok_t, &qv, Some((&qbad, &qt))), NonFinite);
    // Zero tangents are fine for rotations (they are derivatives, not rotations).
    assert!(Track::new(Cubic, &ok_t, &qv, Some((&qt[..], &qt[..])), 1.0).is_ok());
    // One key is a constant track; a key exactly at 0 and at the duration is fine.
    assert!(Track::new(Step, &[0.4], &[Vec3::X], None, 1.0).is_ok());
    assert!(Track::new(Linear, &[0.0, 1.0], &[Vec3::X, Vec3::Y], None, 1.0).is_ok());
}

#[test]
fn bad_clips_are_rejected_with_the_right_kind() {
    let s = skeleton();
    assert_eq!(
        Clip::new(&s, -1.0).unwrap_err().kind(),
        ErrorKind::InvalidArgument
    );
    assert_eq!(
        Clip::new(&s, f32::NAN).unwrap_err().kind(),
        ErrorKind::NonFinite
    );
    assert_eq!(
        Clip::new(&s, f32::INFINITY).unwrap_err().kind(),
        ErrorKind::NonFinite
    );
    let mut clip = Clip::new(&s, DURATION).unwrap();
    assert_eq!(clip.joint_count(), N);
    assert_eq!(clip.duration(), DURATION);
    let before = clip.clone();
    let t = vec_track(Interpolation::Linear, &vec_keys());
    let q = quat_track(Interpolation::Linear, &quat_keys());
    for joint in [N, N + 5, usize::MAX] {
        assert_eq!(
            clip.set_translation_track(joint, t.clone())
                .unwrap_err()
                .kind(),
            ErrorKind::OutOfRange
        );
        assert_eq!(
            clip.set_rotation_track(joint, q.clone())
                .unwrap_err()
                .kind(),
            ErrorKind::OutOfRange
        );
        assert_eq!(
            clip.set_scale_track(joint, t.clone()).unwrap_err().kind(),
            ErrorKind::OutOfRange
        );
    }
    assert_eq!(clip, before);
}

/// A track built for a longer clip has keys outside this clip's [0, duration]; the clip must
/// refuse it like `Track::new` refuses such times (the C ABI cannot even express it, since
/// it builds tracks with the clip's own duration).
#[test]
fn tracks_with_keys_beyond_the_clip_are_rejected() {
    let s = skeleton();
    let mut clip = Clip::new(&s, 1.0).unwrap();
    let long = track(
        Linear,
        &[0.0, 1.0, 3.0],
        &[Vec3::ZERO, Vec3::X, Vec3::Y],
        3.0,
    );
    let before = clip.clone();
    let r = clip.set_translation_track(0, long.clone());
    assert_eq!(
        r.map_err(|e| e.kind()),
        Err(ErrorKind::OutOfRange),
        "a key at 3 s accepted into a 1 s clip"
    );
    assert_eq!(clip, before);
    let rot = track(
        Linear,
        &[0.0, 2.0],
        &[Quat::IDENTITY, Quat::from_rotation_x(1.0)],
        2.0,
    );
    assert_eq!(
        clip.set_rotation_track(0, rot).map_err(|e| e.kind()),
        Err(ErrorKind::OutOfRange)
    );
    assert_eq!(
        clip.set_scale_track(0, long).map_err(|e| e.kind()),
        Err(ErrorKind::OutOfRange)
    );
    // A track made for a shorter (or the same) duration fits.
    let short = track(Linear, &[0.0, 0.5], &[Vec3::ZERO, Vec3::X], 0.5);
    clip.set_translation_track(0, short).unwrap();
}

// ------------------------------------------------------------------------------ behaviour

#[test]
fn samples_are_exact_at_keys() {
    let s = skeleton();
    for interpolation in INTERPOLATIONS {
        let clip = full_clip(&s, interpolation);
        let track = quat_track(interpolation, &quat_keys());
        for (k, &t) in TIMES.iter().enumerate() {
            for looping in [false, true] {
                if looping && t == DURATION {
                    continue; // wraps to 0
                }
                let p = sample(&clip, &s, t, looping);
                for j in 0..3 {
                    let l = &p.local().get(j);
                    let off = Vec3::splat(j as f32 * 0.1);
                    assert_eq!(
                        l.translation,
                        vec_keys()[k] + off,
                        "{interpolation:?} key {k} joint {j}"
                    );
                    assert_eq!(l.scale, scale_keys()[k], "{interpolation:?} key {k}");
                    // The stored key is the normalized rotation; the sample is that rotation
                    // (to rounding: sampling renormalizes).
                    let key = track.values()[k];
                    assert!((key.length() - 1.0).abs() < 1e-6);
                    assert!(
                        rot_between(key, quat_keys()[k].normalize()) < 1e-6,
                        "stored key {k} is the given rotation"
                    );
                    assert!(
                        l.rotation.abs_diff_eq(key, 1e-6),
                        "{interpolation:?} key {k}: {} vs {key}",
                        l.rotation
                    );
                }
            }
        }
    }
}

#[test]
fn step_holds_the_previous_key() {
    let s = skeleton();
    let clip = full_clip(&s, Interpolation::Step);
    let track = quat_track(Interpolation::Step, &quat_keys());
    for k in 0..TIMES.len() - 1 {
        for frac in [0.01, 0.5, 0.99] {
            let t = TIMES[k] + frac * (TIMES[k + 1] - TIMES[k]);
            let p = sample(&clip, &s, t, false);
            let l = &p.local().get(0);
            assert_eq!(l.translation, vec_keys()[k], "t={t}");
            assert_eq!(l.scale, scale_keys()[k], "t={t}");
            assert_eq!(l.rotation, track.values()[k], "t={t}");
        }
    }
}

#[test]
fn linear_and_slerp_interpolate_on_the_shortest_arc() {
    let s = skeleton();
    let keys = quat_keys();
    for interpolation in [Interpolation::Linear, Interpolation::Slerp] {
        let clip = full_clip(&s, interpolation);
        let track = quat_track(interpolation, &keys);
        for k in 0..TIMES.len() - 1 {
            let (t0, t1) = (TIMES[k], TIMES[k + 1]);
            let (q0, q1) = (track.values()[k], track.values()[k + 1]);
            let whole = rot_between(q0, q1);
            assert!(whole < std::f32::consts::PI);
            for frac in [0.25f32, 0.5, 0.75] {
                let t = t0 + frac * (t1 - t0);
                let p = sample(&clip, &s, t, false);
                let l = &p.local().get(0);
                // Vectors: plain linear interpolation (slerp tracks too).
                let want = vec_keys()[k].lerp(vec_keys()[k + 1], frac);
                assert!(
                    l.translation.abs_diff_eq(want, 1e-6),
                    "{interpolation:?} t={t}: {} vs {want}",
                    l.translation
                );
                let want = scale_keys()[k].lerp(scale_keys()[k + 1], frac);
                assert!(l.scale.abs_diff_eq(want, 1e-6));
                // Rotations: unit, on the shortest arc (q1 may be stored with the other sign).
                let r = l.rotation;
                assert!((r.length() - 1.0).abs() < 1e-5);
                let (to0, to1) = (rot_between(q0, r), rot_between(r, q1));
                assert!(
                    (to0 + to1 - whole).abs() < 1e-4,
                    "{interpolation:?} key {k} frac {frac}: {to0} + {to1} vs {whole}"
                );
                if frac == 0.5 {
                    assert!((to0 - 0.5 * whole).abs() < 1e-4, "midpoint");
                }
                match interpolation {
                    // nlerp: the normalized chord.
                    Interpolation::Linear => {
                        let b = if q0.dot(q1) < 0.0 { -q1 } else { q1 };
                        let want = (q0 * (1.0 - frac) + b * frac).normalize();
                        assert!(rot_between(r, want) < 1e-5, "nlerp at {frac}");
                    }
                    // slerp: constant angular speed.
                    _ => assert!(
                        (to0 - frac * whole).abs() < 1e-4,
                        "slerp at {frac}: {to0} vs {}",
                        frac * whole
                    ),
                }
            }
        }
    }
    // Slerp and nlerp differ at a quarter of the widest arc (the test above can tell them
    // apart).
    let a = quat_track(Interpolation::Linear, &keys);
    let k = (0..TIMES.len() - 1)
        .max_by(|&i, &j| {
            let w = |k: usize| rot_between(a.values()[k], a.values()[k + 1]);
            w(i).total_cmp(&w(j))
        })
        .unwrap();
    let wide = rot_between(a.values()[k], a.values()[k + 1]);
    assert!(wide > 1.5, "{wide}");
    let t = TIMES[k] + 0.25 * (TIMES[k + 1] - TIMES[k]);
    let nl = sample(&full_clip(&s, Interpolation::Linear), &s, t, false)
        .local()
        .get(0)
        .rotation;
    let sl = sample(&full_clip(&s, Interpolation::Slerp), &s, t, false)
        .local()
        .get(0)
        .rotation;
    assert!(rot_between(nl, sl) > 1e-3);
}

/// Two keys 0.2 rad apart, the second written as its negation: every sample stays within
/// 0.2 rad of both keys, for every interpolation (cubic with zero tangents too).
#[test]
fn opposite_sign_neighbours_do_not_flip() {
    let s = skeleton();
    let q = Quat::from_euler(glam::EulerRot::YXZ, 2.0, 0.3, -1.0);
    let near = q * Quat::from_rotation_x(0.2);
    for interpolation in INTERPOLATIONS {
        let zero = [Quat::from_xyzw(0.0, 0.0, 0.0, 0.0); 2];
        let tangents = (interpolation == Interpolation::Cubic).then_some((&zero[..], &zero[..]));
        let track = Track::new(interpolation, &[0.0, 1.0], &[q, -near], tangents, 1.0).unwrap();
        let mut clip = Clip::new(&s, 1.0).unwrap();
        clip.set_rotation_track(0, track).unwrap();
        for k in 0..=20 {
            let t = k as f32 / 20.0;
            let r = sample(&clip, &s, t, false).local().get(0).rotation;
            assert!(
                rot_between(r, q) <= 0.2 + 1e-5 && rot_between(r, near) <= 0.2 + 1e-5,
                "{interpolation:?} t={t}: flipped to {r}"
            );
            if k == 10 && interpolation != Interpolation::Step {
                assert!((rot_between(r, q) - 0.1).abs() < 1e-4, "{interpolation:?}");
            }
        }
    }
}

/// Cubic Hermite against values computed by hand: keys at 0.5 s and 2.5 s (dt = 2), out
/// tangent of the first key and in tangent of the second (the other two are decoys).
#[test]
fn cubic_hermite_matches_hand_computed_values() {
    let s = skeleton();
    let times = [0.5, 2.5];
    let values = [Vec3::new(0.0, 1.0, 0.0), Vec3::new(2.0, 1.0, -1.0)];
    let ins = [Vec3::splat(9.0), Vec3::new(0.5, -1.0, 0.0)];
    let outs = [Vec3::new(1.0, 0.0, 2.0), Vec3::splat(-7.0)];
    let track = cubic(&times, &values, (&ins, &outs), 3.0);
    let mut clip = Clip::new(&s, 3.0).unwrap();
    clip.set_translation_track(1, track.clone()).unwrap();
    clip.set_scale_track(2, track).unwrap();
    // s = 0.25: h00 = 0.84375, h10 = 0.140625, h01 = 0.15625, h11 = -0.046875, times dt = 2
    // on the tangents:
    //   x = 0 + 2 * 0.140625 * 1 + 2 * 0.15625 + 2 * (-0.046875) * 0.5    = 0.546875
    //   y = 0.84375 + 0 + 0.15625 + 2 * (-0.046875) * (-1)                  = 1.09375
    //   z = 0 + 2 * 0.140625 * 2 + (-1) * 0.15625 + 0                       = 0.40625
    let p = sample(&clip, &s, 1.0, false);
    let want = Vec3::new(0.546875, 1.09375, 0.40625);
    assert!(
        p.local().get(1).translation.abs_diff_eq(want, 1e-6),
        "{}",
        p.local().get(1).translation
    );
    assert!(p.local().get(2).scale.abs_diff_eq(want, 1e-6));
    // s = 0.5: h00 = h01 = 0.5, h10 = 0.125, h11 = -0.125:
    //   x = 0.25 * 1 + 1 - 0.25 * 0.5 = 1.125; y = 0.5 + 0.5 + 0.25 = 1.25; z = 0.5 - 0.5 = 0
    let p = sample(&clip, &s, 1.5, false);
    assert!(p
        .local()
        .get(1)
        .translation
        .abs_diff_eq(Vec3::new(1.125, 1.25, 0.0), 1e-6));

    // Tangents are in units per second: the slope leaving a key is its out tangent and the
    // slope arriving at the next is that key's in tangent.
    let h = 5e-4;
    let at = |t: f32| sample(&clip, &s, t, false).local().get(1).translation;
    let leave = (at(0.5 + h) - at(0.5)) / h;
    assert!(leave.abs_diff_eq(outs[0], 5e-3), "{leave}");
    let arrive = (at(2.5) - at(2.5 - h)) / h;
    assert!(arrive.abs_diff_eq(ins[1], 5e-3), "{arrive}");
}

/// Cubic rotations: writing a key (and its tangents) with the opposite sign changes nothing,
/// and zero tangents give an ease between the keys on the shortest arc.
#[test]
fn cubic_rotations_are_sign_independent() {
    let s = skeleton();
    let q0 = Quat::from_rotation_y(0.4);
    let q1 = Quat::from_euler(glam::EulerRot::XYZ, 0.3, 1.0, -0.2);
    let tin = [
        Quat::from_xyzw(0.0, 0.0, 0.0, 0.0),
        Quat::from_xyzw(0.05, 0.3, -0.1, 0.02),
    ];
    let tout = [
        Quat::from_xyzw(0.1, 0.2, 0.0, -0.05),
        Quat::from_xyzw(0.0, 0.0, 0.0, 0.0),
    ];
    let flipped_in = [tin[0], -tin[1]];
    let build = |b: Quat, ins: &[Quat]| {
        let track = cubic(&[0.0, 1.0], &[q0, b], (ins, &tout[..]), 1.0);
        let mut clip = Clip::new(&s, 1.0).unwrap();
        clip.set_rotation_track(0, track).unwrap();
        clip
    };
    let (plain, flipped) = (build(q1, &tin), build(-q1, &flipped_in));
    for k in 0..=10 {
        let t = k as f32 / 10.0;
        let a = sample(&plain, &s, t, false).local().get(0).rotation;
        let b = sample(&flipped, &s, t, false).local().get(0).rotation;
        assert!(rot_between(a, b) < 1e-5, "t={t}: {a} vs {b}");
        assert!((a.length() - 1.0).abs() < 1e-5);
    }
}

#[test]
fn local_time_wraps_or_clamps() {
    let s = skeleton();
    let clip = Clip::new(&s, 2.0).unwrap();
    for (t, looping, want) in [
        (0.5, true, 0.5),
        (2.0, true, 0.0),
        (2.5, true, 0.5),
        (-0.5, true, 1.5),
        (-2.0, true, 0.0),
        (-4.25, true, 1.75),
        (7.0, true, 1.0),
        (0.5, false, 0.5),
        (2.5, false, 2.0),
        (-0.5, false, 0.0),
        (1e9, false, 2.0),
    ] {
        assert_eq!(clip.local_time(t, looping), want, "t={t} looping={looping}");
    }
    // A tiny negative time wraps into [0, duration), never to the duration itself.
    let w = clip.local_time(-1e-9, true);
    assert!((0.0..2.0).contains(&w), "{w}");
    // An empty (zero-length) clip is always at 0.
    let empty = Clip::new(&s, 0.0).unwrap();
    assert_eq!(empty.local_time(3.0, true), 0.0);
    assert_eq!(empty.local_time(3.0, false), 0.0);
}

proptest! {
    #![proptest_config(config(64))]

    /// A looping clip gives the same pose at t and t + k * duration, negative times included.
    #[test]
    fn looping_wraps(t in -6.0f32..6.0, k in -4i32..5, which in 0usize..4) {
        let s = skeleton();
        let clip = full_clip(&s, INTERPOLATIONS[which]);
        let shifted = t + k as f32 * DURATION;
        let (a, b) = (sample(&clip, &s, t, true), sample(&clip, &s, shifted, true));
        // Rounding of t + k * duration may move the time across the wrap (the clip's end and
        // start poses differ) or, for step tracks, across a key: stay clear of those.
        let lt = clip.local_time(t, true);
        prop_assume!(lt > 1e-3 && lt < DURATION - 1e-3);
        if INTERPOLATIONS[which] == Interpolation::Step {
            prop_assume!(TIMES.iter().all(|&key| (lt - key).abs() > 1e-3));
        }
        assert_close_pose(&a, &b, 2e-4, &format!("t={t} vs {shifted}"));
    }
}

#[test]
fn looping_is_exact_for_exactly_representable_times() {
    let s = skeleton();
    let clip = full_clip(&s, Interpolation::Cubic);
    for t in [0.0f32, 0.125, 0.75, 1.3125, 1.875] {
        let a = bits(&sample(&clip, &s, t, true));
        for k in [-3i32, -1, 1, 2, 10] {
            let shifted = t + k as f32 * DURATION;
            assert_eq!(bits(&sample(&clip, &s, shifted, true)), a, "t={t}, k={k}");
        }
    }
}

#[test]
fn clamped_playback_holds_the_ends() {
    let s = skeleton();
    for interpolation in INTERPOLATIONS {
        let clip = full_clip(&s, interpolation);
        let start = bits(&sample(&clip, &s, 0.0, false));
        let end = bits(&sample(&clip, &s, DURATION, false));
        for t in [-0.001, -1.0, -1e6] {
            assert_eq!(bits(&sample(&clip, &s, t, false)), start, "t={t}");
        }
        for t in [DURATION + 0.001, 3.0, 1e6] {
            assert_eq!(bits(&sample(&clip, &s, t, false)), end, "t={t}");
        }
        assert_eq!(
            sample(&clip, &s, 50.0, false).local().get(0).translation,
            vec_keys()[4]
        );
    }
    // Keys that stop before the clip's end hold their last value to the end (looping or not),
    // and keys that start late hold their first value before.
    let mut clip = Clip::new(&s, 4.0).unwrap();
    let track = track(Linear, &[1.0, 2.0], &[Vec3::X, Vec3::Y], 4.0);
    clip.set_translation_track(0, track).unwrap();
    for (t, looping, want) in [
        (0.5, false, Vec3::X),
        (0.5, true, Vec3::X),
        (3.0, false, Vec3::Y),
        (3.9, true, Vec3::Y),
        (9.0, false, Vec3::Y),
    ] {
        assert_eq!(
            sample(&clip, &s, t, looping).local().get(0).translation,
            want,
            "t={t}"
        );
    }
}

#[test]
fn joints_without_tracks_keep_the_rest_pose() {
    let s = skeleton();
    let rest = s.rest_pose();
    let mut clip = Clip::new(&s, DURATION).unwrap();
    for t in [0.0, 0.7, 2.0] {
        assert_eq!(
            sample(&clip, &s, t, true).local(),
            rest,
            "an empty clip is the rest pose"
        );
    }
    clip.set_rotation_track(1, quat_track(Interpolation::Linear, &quat_keys()))
        .unwrap();
    clip.set_translation_track(2, vec_track(Interpolation::Cubic, &vec_keys()))
        .unwrap();
    for t in [0.0, 0.3, 1.1, 2.0] {
        let p = sample(&clip, &s, t, false);
        assert_eq!(p.local().get(0), rest[0]);
        assert_eq!(p.local().get(LEG), rest[LEG]);
        assert_eq!(p.local().get(1).translation, rest[1].translation);
        assert_eq!(p.local().get(1).scale, rest[1].scale);
        assert_eq!(p.local().get(2).rotation, rest[2].rotation);
        assert_eq!(p.local().get(2).scale, rest[2].scale);
    }
    // Clearing a track brings the rest value back; the others stay.
    clip.clear_track(1, Property::Rotation).unwrap();
    clip.clear_track(2, Property::Scale).unwrap();
    let p = sample(&clip, &s, 1.1, false);
    assert_eq!(p.local().get(1), rest[1]);
    assert_ne!(p.local().get(2).translation, rest[2].translation);
    assert_eq!(
        clip.clear_track(N, Property::Translation)
            .unwrap_err()
            .kind(),
        ErrorKind::OutOfRange
    );
}

/// A clip whose three properties have different key counts, so cursor slots differ.
fn dense_clip(s: &Skeleton, seed: u32, keys: [usize; 3]) -> Clip {
    dense_clip_of(s, seed, keys, [true; 3])
}

/// [`dense_clip`] with only the translation, rotation and scale tracks selected by `tracks`.
fn dense_clip_of(s: &Skeleton, seed: u32, keys: [usize; 3], tracks: [bool; 3]) -> Clip {
    let d = 3.0;
    let times = |n: usize| -> Vec<f32> {
        (0..n)
            .map(|i| {
                let jitter = if i == 0 || i == n - 1 { 0.0 } else { 0.3 };
                d * (i as f32 + jitter) / (n - 1) as f32
            })
            .collect()
    };
    let f = seed as f32;
    let mut clip = Clip::new(s, d).unwrap();
    for j in 0..N {
        let [tt, tr, ts] = keys.map(times);
        let v: Vec<Vec3> = (0..tt.len())
            .map(|i| Vec3::new((i as f32 + f).sin(), (j as f32 + 0.3 * i as f32).cos(), f))
            .collect();
        let q: Vec<Quat> = (0..tr.len())
            .map(|i| Quat::from_euler(glam::EulerRot::XYZ, 0.4 * i as f32, f, -0.3 * j as f32))
            .collect();
        let sc: Vec<Vec3> = (0..ts.len())
            .map(|i| Vec3::splat(1.0 + 0.1 * i as f32))
            .collect();
        let tan = vec![Vec3::new(0.1, -0.2, 0.3); ts.len()];
        // The selected properties, in order.
        for k in (0..3).filter(|&k| tracks[k]) {
            match k {
                0 => clip.set_translation_track(j, track(Linear, &tt, &v, d)),
                1 => clip.set_rotation_track(j, track(Slerp, &tr, &q, d)),
                _ => clip.set_scale_track(j, cubic(&ts, &sc, (&tan, &tan), d)),
            }
            .unwrap();
        }
    }
    clip
}

/// A time sequence: forward playback with small steps, then a random jump (backward or far
/// forward), repeated.
fn time_script() -> impl Strategy<Value = Vec<(f32, u8)>> {
    prop::collection::vec((-4.0f32..10.0, 0u8..8), 1..12)
}

proptest! {
    #![proptest_config(config(48))]

    /// Sampling with a cursor gives the same bits as sampling without, for forward playback,
    /// backward jumps, random times, after the clip's tracks change, and when one cursor
    /// serves two clips of the same joint count.
    #[test]
    fn cursor_sampling_equals_cursorless(script in time_script(), looping in any::<bool>()) {
        let s = skeleton();
        let mut clip = dense_clip(&s, 1, [17, 9, 5]);
        let other = dense_clip(&s, 2, [3, 30, 2]);
        let mut cursor = ClipCursor::new(&clip);
        let mut with = Pose::new(s.clone());
        let mut without = Pose::new(s.clone());
        for (step, &(start, frames)) in script.iter().enumerate() {
            if step == script.len() / 2 {
                // Replace tracks with ones of other key counts mid-playback.
                let fewer = dense_clip(&s, 3, [2, 4, 40]);
                clip = fewer;
            }
            for f in 0..frames {
                let t = start + f as f32 / 60.0;
                for c in [&clip, &other] {
                    c.sample(t, looping, Some(&mut cursor), &mut with).unwrap();
                    c.sample(t, looping, None, &mut without).unwrap();
                    prop_assert_eq!(bits(&with), bits(&without), "t={}", t);
                }
                clip.sample(t, looping, Some(&mut cursor), &mut with).unwrap();
                clip.sample(t, looping, None, &mut without).unwrap();
                prop_assert_eq!(bits(&with), bits(&without), "t={} (same clip again)", t);
            }
        }
    }
}

/// Tracks of a joint keyed at the same times are located once per sample; each property still
/// comes out as the same track alone in a clip gives it, bit for bit.
#[test]
fn tracks_sharing_key_times_sample_like_each_alone() {
    let s = skeleton();
    let shared = dense_clip(&s, 5, [12, 12, 12]);
    let alone = [0, 1, 2].map(|k| dense_clip_of(&s, 5, [12, 12, 12], [k == 0, k == 1, k == 2]));
    let mut cursors = [0; 4].map(|_| ClipCursor::for_joints(N));
    let mut poses = [0; 4].map(|_| Pose::new(s.clone()));
    let times = (0..300)
        .map(|f| f as f32 / 60.0)
        .chain([2.5, 0.1, 3.0, 0.0, -1.0]);
    for t in times {
        let clips = [&shared, &alone[0], &alone[1], &alone[2]];
        for ((clip, cursor), pose) in clips.iter().zip(&mut cursors).zip(&mut poses) {
            clip.sample(t, false, Some(cursor), pose).unwrap();
        }
        let [both, t_only, r_only, s_only] = &poses;
        let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        for j in 0..N {
            let (b, tj, rj, sj) = (
                both.local().get(j),
                t_only.local().get(j),
                r_only.local().get(j),
                s_only.local().get(j),
            );
            assert_eq!(
                bits(&b.translation.to_array()),
                bits(&tj.translation.to_array()),
                "t={t}"
            );
            assert_eq!(
                bits(&b.rotation.to_array()),
                bits(&rj.rotation.to_array()),
                "t={t}"
            );
            assert_eq!(
                bits(&b.scale.to_array()),
                bits(&sj.scale.to_array()),
                "t={t}"
            );
        }
    }
}

#[test]
fn cursor_forward_playback_over_the_whole_clip() {
    let s = skeleton();
    let clip = dense_clip(&s, 4, [50, 7, 13]);
    let mut cursor = ClipCursor::for_joints(N);
    let (mut with, mut without) = (Pose::new(s.clone()), Pose::new(s.clone()));
    for frame in 0..400 {
        let t = frame as f32 / 60.0;
        clip.sample(t, true, Some(&mut cursor), &mut with).unwrap();
        clip.sample(t, true, None, &mut without).unwrap();
        assert_eq!(bits(&with), bits(&without), "frame {frame}");
    }
    // Backwards, too.
    for frame in (0..400).rev() {
        let t = frame as f32 / 45.0;
        clip.sample(t, false, Some(&mut cursor), &mut with).unwrap();
        clip.sample(t, false, None, &mut without).unwrap();
        assert_eq!(bits(&with), bits(&without), "frame {frame} backwards");
    }
}

struct CClip {
    skeleton: *mut SinewSkeleton,
    clip: *mut SinewClip,
    pose: *mut SinewPose,
}

impl CClip {
    fn new(s: &Skeleton, duration: f32) -> Self {
        let skeleton = c_skeleton_of(s);
        let (mut clip, mut pose) = (ptr::null_mut(), ptr::null_mut());
        // SAFETY: a live skeleton; out pointers are valid.
        unsafe {
            ok(sinew_clip_create(skeleton, duration, &mut clip));
            ok(sinew_pose_create(skeleton, &mut pose));
        }
        Self {
            skeleton,
            clip,
            pose,
        }
    }

    fn local(&self) -> Vec<Transform> {
        let mut out = vec![SinewTransform::default(); N];
        // SAFETY: live pose of N joints.
        let status = unsafe { sinew_pose_get_local(self.pose, out.as_mut_ptr(), N as u32) };
        ok(status);
        out.into_iter().map(Transform::from).collect()
    }
}

impl Drop for CClip {
    fn drop(&mut self) {
        // SAFETY: created in `new`, destroyed once.
        unsafe {
            sinew_pose_destroy(self.pose);
            sinew_clip_destroy(self.clip);
            sinew_skeleton_destroy(self.skeleton);
        }
    }
}

/// Sets a track of `clip` (joint `j`, interpolation `k`) through `set`: `keys` at [`TIMES`],
/// with `(in, out)` tangents if given.
///
/// # Safety
/// `clip` is a live clip; `keys` and the tangents hold [`TIMES`]`.len()` items.
unsafe fn c_track<T>(
    set: SetTrack<T>,
    (clip, j, k): (*mut SinewClip, usize, usize),
    keys: &[T],
    tangents: Option<(&Vec<T>, &Vec<T>)>,
) -> SinewStatus {
    let (tin, tout) = tangents.map_or((ptr::null(), ptr::null()), |(i, o)| {
        (i.as_ptr(), o.as_ptr())
    });
    let n = TIMES.len() as u32;
    // SAFETY: the caller's contract.
    unsafe {
        set(
            clip,
            j as u32,
            k as i32,
            TIMES.as_ptr(),
            keys.as_ptr(),
            tin,
            tout,
            n,
        )
    }
}

fn c_vec(v: &[Vec3]) -> Vec<SinewVec3> {
    v.iter().map(|&x| x.into()).collect()
}

fn c_quat(v: &[Quat]) -> Vec<SinewQuat> {
    v.iter().map(|&x| x.into()).collect()
}

/// Tracks set through the C ABI sample like the same tracks in the core (with and without a
/// cursor), and bad tracks get the matching status without changing the clip.
#[test]
fn c_clips_match_the_core_and_reject_bad_tracks() {
    let s = skeleton();
    let c = CClip::new(&s, DURATION);
    let mut duration = 0.0;
    // SAFETY: live handles and valid pointers throughout; arrays hold `n` items.
    unsafe {
        ok(sinew_clip_duration(c.clip, &mut duration));
        assert_eq!(duration, DURATION);
        let n = TIMES.len() as u32;
        for (k, interp) in INTERPOLATIONS.into_iter().enumerate() {
            let j = k % 3;
            let (vi, vo) = (c_vec(&tangents_vec(5, 1.0)), c_vec(&tangents_vec(5, -0.5)));
            let (qi, qo) = (
                c_quat(&tangents_quat(5, 1.0)),
                c_quat(&tangents_quat(5, -0.7)),
            );
            // Tangents only for cubic tracks.
            let cubic = interp == Interpolation::Cubic;
            let (at, vt, qt) = (
                (c.clip, j, k),
                cubic.then_some((&vi, &vo)),
                cubic.then_some((&qi, &qo)),
            );
            let (moves, turns, sizes) = (
                c_vec(&vec_keys()),
                c_quat(&quat_keys()),
                c_vec(&scale_keys()),
            );
            ok(c_track(sinew_clip_set_translation_track, at, &moves, vt));
            ok(c_track(sinew_clip_set_rotation_track, at, &turns, qt));
            ok(c_track(sinew_clip_set_scale_track, at, &sizes, vt));
        }
        // The same clip in the core (the last interpolation set on each joint wins).
        let mut core = Clip::new(&s, DURATION).unwrap();
        for (k, interp) in INTERPOLATIONS.into_iter().enumerate() {
            let j = k % 3;
            core.set_translation_track(j, vec_track(interp, &vec_keys()))
                .unwrap();
            core.set_rotation_track(j, quat_track(interp, &quat_keys()))
                .unwrap();
            core.set_scale_track(j, vec_track(interp, &scale_keys()))
                .unwrap();
        }
        let mut cursor = ptr::null_mut();
        ok(sinew_clip_cursor_create(c.clip, &mut cursor));
        for frame in 0..200 {
            let t = frame as f32 / 30.0 - 1.0;
            for (looping, cur) in [(0u32, ptr::null_mut()), (1, cursor)] {
                ok(sinew_clip_sample(c.clip, cur, t, looping, c.pose));
                let want = sample(&core, &s, t, looping == 1);
                assert_eq!(c.local(), want.local(), "t={t} looping={looping}");
            }
        }

        // Bad input: the status names the problem and nothing changes.
        let v = c_vec(&vec_keys());
        let tangents = c_vec(&tangents_vec(5, 1.0));
        let unsorted = [0.0f32, 1.0, 0.5, 1.5, 2.0];
        let late = [0.0f32, 0.5, 1.0, 1.5, 2.5];
        let nan = [0.0f32, 0.5, f32::NAN, 1.5, 2.0];
        // (joint, interpolation, times, in and out tangents, key count; status).
        use SinewStatus::{InvalidArgument as Invalid, NonFinite, NullPointer, OutOfRange};
        let (t, tn, no) = (TIMES.as_ptr(), tangents.as_ptr(), ptr::null());
        let cases: [(u32, i32, *const f32, _, _, u32, SinewStatus); 10] = [
            (0, 1, unsorted.as_ptr(), no, no, n, Invalid),
            (0, 1, late.as_ptr(), no, no, n, OutOfRange),
            (0, 1, nan.as_ptr(), no, no, n, NonFinite),
            (0, 3, t, no, no, n, Invalid),
            (0, 3, t, tn, no, n, NullPointer),
            (0, 1, t, tn, tn, n, Invalid),
            (0, 4, t, no, no, n, Invalid),
            (N as u32, 1, t, no, no, n, OutOfRange),
            (0, 1, ptr::null(), no, no, n, NullPointer),
            (0, 1, t, no, no, 0, Invalid),
        ];
        let values = v.as_ptr();
        for (k, (joint, interp, times, tin, tout, keys, status)) in cases.into_iter().enumerate() {
            let set = sinew_clip_set_translation_track(
                c.clip, joint, interp, times, values, tin, tout, keys,
            );
            assert_eq!(set, status, "case {k}");
        }
        ok(sinew_clip_sample(c.clip, cursor, 0.5, 1, c.pose));
        let mut core_pose = Pose::new(s.clone());
        core.sample(0.5, true, None, &mut core_pose).unwrap();
        assert_eq!(c.local(), core_pose.local(), "the clip is unchanged");

        let before = c.local();
        assert_eq!(
            sinew_clip_sample(c.clip, cursor, 0.5, 2, c.pose),
            SinewStatus::InvalidArgument
        );
        assert_eq!(
            sinew_clip_sample(c.clip, cursor, f32::NAN, 1, c.pose),
            SinewStatus::NonFinite
        );
        assert_eq!(c.local(), before);
        assert_eq!(
            sinew_clip_clear_track(c.clip, 0, 3),
            SinewStatus::InvalidArgument
        );
        assert_eq!(
            sinew_clip_clear_track(c.clip, N as u32, 0),
            SinewStatus::OutOfRange
        );
        ok(sinew_clip_clear_track(c.clip, 0, 0));
        sinew_clip_cursor_destroy(cursor);

        let mut bad = ptr::null_mut();
        assert_eq!(
            sinew_clip_create(c.skeleton, -1.0, &mut bad),
            SinewStatus::InvalidArgument
        );
        assert_eq!(
            sinew_clip_create(c.skeleton, f32::NAN, &mut bad),
            SinewStatus::NonFinite
        );
        assert!(bad.is_null());
    }
}

// ------------------------------------------------------------------ clips from frames

/// Frames of `frames` × N joints, frame-major, every value distinct (rotations unit, one
/// translation component -0.0 so sign bits count).
fn frame_data(frames: usize) -> Vec<Transform> {
    (0..frames * N)
        .map(|i| {
            let f = i as f32 * 0.37;
            trs(
                [f.sin(), -0.0, 0.1 * f],
                Quat::from_euler(glam::EulerRot::XYZ, 0.3 * f, -0.7 * f, 1.1 + f),
                [1.0 + 0.01 * f, 0.8, 1.2],
            )
        })
        .collect()
}

const FRAME_KINDS: [Interpolation; 3] = [Interpolation::Step, Linear, Slerp];

/// Key `k`'s time as the documentation gives it: `k / frame_rate` in f64, rounded once.
fn frame_time(k: usize, rate: f32) -> f32 {
    (k as f64 / f64::from(rate)) as f32
}

#[test]
fn bad_frames_are_rejected_with_the_right_kind() {
    use ErrorKind::*;
    let s = skeleton();
    let frames = frame_data(3);
    let err = |count: usize, rate: f32, frames: &[Transform], mask: Option<&[bool]>, i| {
        Clip::from_frames(&s, count, rate, frames, mask, i, false)
            .unwrap_err()
            .kind()
    };
    assert_eq!(
        err(0, 30.0, &[], None, Linear),
        InvalidArgument,
        "no frames"
    );
    for rate in [0.0, -0.0, -30.0] {
        assert_eq!(
            err(3, rate, &frames, None, Linear),
            InvalidArgument,
            "{rate}"
        );
    }
    for rate in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
        assert_eq!(err(3, rate, &frames, None, Linear), NonFinite, "{rate}");
    }
    let cubic = Interpolation::Cubic;
    assert_eq!(err(3, 30.0, &frames, None, cubic), InvalidArgument);
    assert_eq!(
        err(2, 30.0, &frames, None, Linear),
        SizeMismatch,
        "extra frame"
    );
    assert_eq!(
        err(4, 30.0, &frames, None, Linear),
        SizeMismatch,
        "missing frame"
    );
    let short = [true; N - 1];
    assert_eq!(err(3, 30.0, &frames, Some(&short), Linear), SizeMismatch);
    // 5 frames at 1e-38 per second last 4e38 s: past f32.
    let five = frame_data(5);
    assert_eq!(err(5, 1e-38, &five, None, Linear), NumericOverflow);
    let mut bad = frames.clone();
    bad[N + 1].translation.y = f32::NAN;
    assert_eq!(
        err(3, 30.0, &bad, None, Linear),
        NonFinite,
        "NaN translation"
    );
    let mut bad = frames.clone();
    bad[2 * N + 2].scale.z = f32::INFINITY;
    assert_eq!(
        err(3, 30.0, &bad, None, Linear),
        NonFinite,
        "infinite scale"
    );
    let mut bad = frames.clone();
    bad[N].rotation = Quat::from_xyzw(0.0, 0.0, 0.0, 0.0);
    let e = Clip::from_frames(&s, 3, 30.0, &bad, None, Linear, false).unwrap_err();
    assert_eq!(e.kind(), InvalidArgument, "zero quaternion");
    assert!(e.message().contains("frame 1, joint 0"), "{}", e.message());
    // Masked-out joints are checked too.
    let mut mask = [true; N];
    mask[2] = false;
    bad[N].rotation = Quat::IDENTITY;
    bad[N + 2].translation.x = f32::NAN;
    let e = Clip::from_frames(&s, 3, 30.0, &bad, Some(&mask), Linear, false).unwrap_err();
    assert_eq!(e.kind(), NonFinite, "NaN on a masked-out joint");
    assert!(e.message().contains("frame 1, joint 2"), "{}", e.message());
}

/// Summing 1/120 s in f32 overruns a minute-long clip by 5.6 ms (the track is refused); keys
/// from `from_frames` land on the duration exactly, for any frame count.
#[test]
fn frame_times_at_120_hz_end_exactly_on_the_duration() {
    let s = skeleton();
    let (rate, dt) = (120.0f32, 1.0f32 / 120.0);
    let count = 7201;
    let mut summed = vec![0.0f32; count];
    for k in 1..count {
        summed[k] = summed[k - 1] + dt;
    }
    let duration = frame_time(count - 1, rate);
    assert!(
        summed[count - 1] > duration,
        "the summed keys drift past the end"
    );
    let values = vec![Vec3::ZERO; count];
    assert!(Track::new(Linear, &summed, &values, None, duration).is_err());

    for count in [1, 2, 4, 18, 121, 1000, 7201] {
        let frames = frame_data(count);
        for wrap in [false, true] {
            let clip = Clip::from_frames(&s, count, rate, &frames, None, Linear, wrap).unwrap();
            let end = if wrap { count } else { count - 1 };
            assert_eq!(clip.duration(), frame_time(end, rate), "{count} frames");
            assert_eq!(clip.wraps(), wrap);
            // Clamped at the duration: the last frame, and it is a key (exact).
            let last = sample(&clip, &s, clip.duration(), false);
            let want = &frames[(count - 1) * N..];
            let got: Vec<[u32; 10]> = last.local().iter().map(|t| transform_bits(&t)).collect();
            let want: Vec<[u32; 10]> = want.iter().map(transform_bits).collect();
            assert_eq!(got, want, "{count} frames, wrap {wrap}");
        }
    }
}

#[test]
fn sampling_at_frame_times_returns_the_frames_bit_for_bit() {
    let s = skeleton();
    let (count, rate) = (9, 30.0);
    let frames = frame_data(count);
    let mut mask = [true; N];
    mask[LEG] = false;
    for interpolation in FRAME_KINDS {
        for wrap in [false, true] {
            let clip =
                Clip::from_frames(&s, count, rate, &frames, Some(&mask), interpolation, wrap)
                    .unwrap();
            let mut cursor = ClipCursor::new(&clip);
            for looping in [false, true] {
                for k in 0..count {
                    if looping && !wrap && k == count - 1 {
                        continue; // the duration wraps to 0
                    }
                    let t = frame_time(k, rate);
                    for with_cursor in [false, true] {
                        let mut out = Pose::new(s.clone());
                        let c = with_cursor.then_some(&mut cursor);
                        clip.sample(t, looping, c, &mut out).unwrap();
                        for j in 0..N {
                            let want = if mask[j] {
                                frames[k * N + j]
                            } else {
                                s.rest_pose()[j]
                            };
                            assert_eq!(
                                transform_bits(&out.local().get(j)),
                                transform_bits(&want),
                                "{interpolation:?} wrap {wrap} looping {looping} frame {k} \
                                 joint {j}"
                            );
                        }
                    }
                }
            }
        }
    }
}

/// A frames clip samples like the same keys set track by track (with [`Clip::set_wrap`]).
#[test]
fn frames_clips_equal_clips_keyed_track_by_track() {
    let s = skeleton();
    let (count, rate) = (6, 24.0);
    let frames = frame_data(count);
    for interpolation in FRAME_KINDS {
        for wrap in [false, true] {
            let clip =
                Clip::from_frames(&s, count, rate, &frames, None, interpolation, wrap).unwrap();
            let times: Vec<f32> = (0..count).map(|k| frame_time(k, rate)).collect();
            let mut keyed = Clip::new(&s, clip.duration()).unwrap();
            keyed.set_wrap(wrap);
            for j in 0..N {
                let of = |f: fn(&Transform) -> Vec3| -> Vec<Vec3> {
                    frames.iter().skip(j).step_by(N).map(f).collect()
                };
                let r: Vec<Quat> = frames
                    .iter()
                    .skip(j)
                    .step_by(N)
                    .map(|t| t.rotation)
                    .collect();
                let d = clip.duration();
                let tr = Track::new(interpolation, &times, &of(|t| t.translation), None, d);
                keyed.set_translation_track(j, tr.unwrap()).unwrap();
                let rt = Track::new(interpolation, &times, &r, None, d).unwrap();
                keyed.set_rotation_track(j, rt).unwrap();
                let st = Track::new(interpolation, &times, &of(|t| t.scale), None, d);
                keyed.set_scale_track(j, st.unwrap()).unwrap();
            }
            for i in 0..100 {
                let t = i as f32 * 0.0031;
                for looping in [false, true] {
                    let (a, b) = (
                        sample(&clip, &s, t, looping),
                        sample(&keyed, &s, t, looping),
                    );
                    assert_eq!(bits(&a), bits(&b), "{interpolation:?} wrap {wrap} t {t}");
                }
            }
        }
    }
}

/// The wrap segment as the documentation gives it: after the last key t_l (or before the first,
/// t_f) the fraction is (t - t_l) / dt (or ((duration - t_l) + t) / dt) with
/// dt = (duration - t_l) + t_f, from the last key to the first.
fn wrap_fraction(t: f32, first: f32, last: f32, duration: f32) -> (f32, f32) {
    let dt = (duration - last) + first;
    let s = if t > last {
        (t - last) / dt
    } else {
        ((duration - last) + t) / dt
    };
    (s, dt)
}

#[test]
fn wrapping_interpolates_from_the_last_key_to_the_first() {
    let s = skeleton();
    // Keys inside the clip at both ends: 0.25 .. 1.5 of 2 s.
    let times = [0.25, 0.875, 1.5];
    let (first, last, duration) = (0.25f32, 1.5f32, 2.0f32);
    let v = [
        Vec3::new(1.0, 2.0, 3.0),
        Vec3::ZERO,
        Vec3::new(-3.0, 0.5, 2.0),
    ];
    let q = [
        Quat::from_rotation_x(0.4),
        Quat::from_rotation_y(1.0),
        Quat::from_rotation_z(-2.5),
    ];
    let (vin, vout) = (
        [Vec3::new(0.5, -1.0, 2.0); 3],
        [Vec3::new(-2.0, 1.0, 0.25); 3],
    );
    let tan = |x: f32| Quat::from_xyzw(x, -0.5 * x, 0.2, 0.1 * x);
    let (qin, qout) = (
        [tan(0.3), tan(-0.2), tan(0.7)],
        [tan(-0.6), tan(0.1), tan(0.4)],
    );
    for interpolation in INTERPOLATIONS {
        let cubic = interpolation == Interpolation::Cubic;
        let mut clip = Clip::new(&s, duration).unwrap();
        let vt = cubic.then_some((&vin[..], &vout[..]));
        let qt = cubic.then_some((&qin[..], &qout[..]));
        let tr = Track::new(interpolation, &times, &v, vt, duration).unwrap();
        clip.set_translation_track(0, tr).unwrap();
        let rt = Track::new(interpolation, &times, &q, qt, duration).unwrap();
        clip.set_rotation_track(1, rt).unwrap();
        let plain = clip.clone();
        clip.set_wrap(true);
        for t in [
            0.0, 0.1, 0.2, 0.2499, 1.5001, 1.6, 1.75, 1.9, 1.999, 2.1, -0.3,
        ] {
            let local = clip.local_time(t, true);
            let p = sample(&clip, &s, t, true);
            let (sf, dt) = wrap_fraction(local, first, last, duration);
            let (a, b) = (v[2], v[0]);
            let want_v = match interpolation {
                Interpolation::Step => a,
                Interpolation::Cubic => {
                    let h = hermite_basis(sf);
                    a * h[0] + vout[2] * (h[1] * dt) + b * h[2] + vin[0] * (h[3] * dt)
                }
                _ => a * (1.0 - sf) + b * sf,
            };
            let got = p.local().get(0).translation;
            assert!(
                (got - want_v).abs().max_element() <= 1e-5,
                "{interpolation:?} t {t}: {got} vs {want_v}"
            );
            let (qa, qb) = (q[2], q[0]);
            let qb_near = if qa.dot(qb) < 0.0 { -qb } else { qb };
            let want_q = match interpolation {
                Interpolation::Step => qa,
                Interpolation::Linear => qa.lerp(qb_near, sf).normalize(),
                Interpolation::Slerp => qa.slerp(qb, sf),
                Interpolation::Cubic => {
                    let sign = if qa.dot(qb) < 0.0 { -1.0 } else { 1.0 };
                    let h = hermite_basis(sf);
                    let (a4, b4) = (glam::Vec4::from(qa), glam::Vec4::from(qb_near));
                    let m = a4 * h[0]
                        + glam::Vec4::from(qout[2]) * (h[1] * dt)
                        + b4 * h[2]
                        + glam::Vec4::from(qin[0]) * (h[3] * dt * sign);
                    Quat::from_vec4(m).normalize()
                }
            };
            let got = p.local().get(1).rotation;
            assert!(
                rot_between(got, want_q) <= 1e-5,
                "{interpolation:?} t {t}: {got} vs {want_q}"
            );
            // Without wrapping the ends hold.
            let held = sample(&plain, &s, t, true);
            let end = if local > last { 2 } else { 0 };
            assert_eq!(
                held.local().get(0).translation,
                v[end],
                "{interpolation:?} t {t}"
            );
        }
        // Clamped playback ignores the flag; keys and times inside the keys are unchanged.
        for t in [0.0, 0.1, 0.25, 0.6, 1.5, 1.7, 2.0, 3.0] {
            let (a, b) = (sample(&clip, &s, t, false), sample(&plain, &s, t, false));
            assert_eq!(bits(&a), bits(&b), "clamped {interpolation:?} t {t}");
        }
        for t in [0.25, 0.6, 0.875, 1.2, 1.5] {
            let (a, b) = (sample(&clip, &s, t, true), sample(&plain, &s, t, true));
            assert_eq!(
                bits(&a),
                bits(&b),
                "inside the keys {interpolation:?} t {t}"
            );
        }
    }
}

/// Cubic Hermite weights of p0, dt·m0, p1, dt·m1 at `s` (the textbook basis).
fn hermite_basis(s: f32) -> [f32; 4] {
    let (s2, s3) = (s * s, s * s * s);
    [
        2.0 * s3 - 3.0 * s2 + 1.0,
        s3 - 2.0 * s2 + s,
        -2.0 * s3 + 3.0 * s2,
        s3 - s2,
    ]
}

/// A looping cycle without a duplicate end frame: halfway through the frame after the last,
/// the pose is halfway between the last frame and the first; a cursor playing forward across
/// the loop point agrees with cursorless sampling.
#[test]
fn wrapped_frame_cycles_play_through_the_loop_point() {
    let s = skeleton();
    let (count, rate) = (4, 10.0);
    let frames = frame_data(count);
    let clip = Clip::from_frames(&s, count, rate, &frames, None, Linear, true).unwrap();
    assert_eq!(clip.duration(), 0.4);
    let p = sample(&clip, &s, 0.35, true);
    let (l, f) = (&frames[3 * N..], &frames[..N]);
    for j in 0..N {
        let (sf, _) = wrap_fraction(0.35, 0.0, frame_time(3, rate), 0.4);
        let want = l[j].translation * (1.0 - sf) + f[j].translation * sf;
        let got = p.local().get(j).translation;
        assert!(
            (got - want).abs().max_element() <= 1e-6,
            "joint {j}: {got} vs {want}"
        );
        assert!((sf - 0.5).abs() < 1e-5);
    }
    let mut cursor = ClipCursor::new(&clip);
    let mut out = Pose::new(s.clone());
    for i in 0..200 {
        let t = i as f32 / 60.0;
        clip.sample(t, true, Some(&mut cursor), &mut out).unwrap();
        assert_eq!(bits(&out), bits(&sample(&clip, &s, t, true)), "t {t}");
    }
}

/// Tracks with other key ranges wrap independently: a time inside one track's keys can lie on
/// another's wrap segment.
#[test]
fn tracks_of_other_key_ranges_wrap_independently() {
    let s = skeleton();
    let duration = 2.0;
    let mut clip = Clip::new(&s, duration).unwrap();
    let (a, b) = (Vec3::new(1.0, 0.0, 0.0), Vec3::new(0.0, 0.0, 4.0));
    let short = Track::new(Linear, &[0.25, 1.5], &[b, a], None, duration).unwrap();
    clip.set_translation_track(0, short).unwrap();
    let long = Track::new(Linear, &[0.0, 2.0], &[a, b], None, duration).unwrap();
    clip.set_translation_track(1, long).unwrap();
    // A one-key track never wraps and narrows nothing.
    let one = Track::new(Linear, &[1.0], &[b], None, duration).unwrap();
    clip.set_scale_track(2, one).unwrap();
    clip.set_wrap(true);
    for t in [0.1f32, 1.75, 1.9] {
        let p = sample(&clip, &s, t, true);
        let (sf, _) = wrap_fraction(t, 0.25, 1.5, duration);
        let want = a * (1.0 - sf) + b * sf;
        let got = p.local().get(0).translation;
        assert!(
            (got - want).abs().max_element() <= 1e-6,
            "t {t}: {got} vs {want}"
        );
        let inside = a * (1.0 - t / 2.0) + b * (t / 2.0);
        assert!(
            (p.local().get(1).translation - inside).abs().max_element() <= 1e-6,
            "t {t}"
        );
        assert_eq!(p.local().get(2).scale, b);
    }
}

// ------------------------------------------------------- shared key times, four joints at a time

/// One property of a joint in [`shared_keys_clip`]: no track, one key, or keys at the shared
/// times.
#[derive(Clone, Copy, PartialEq)]
enum Keys {
    None,
    One,
    Shared,
}

/// A clip whose tracks are all linear and keyed at one list of times (the case sampled four
/// joints at a time), on a chain of `joints` joints: most properties keyed, some with one key,
/// some without a track; rotation keys unnormalized and with random signs. Returns the clip,
/// its skeleton and, per joint, the keys of each property (`None` for no track).
#[allow(clippy::type_complexity)]
fn shared_keys_clip(
    joints: usize,
    seed: u64,
) -> (
    Clip,
    Arc<Skeleton>,
    Vec<[Option<Vec<[f32; 4]>>; 3]>,
    Vec<f32>,
) {
    let mut rng = common::rng::Rng::salted(seed, 0x5a3e_c11b);
    let rest: Vec<Transform> = (0..joints)
        .map(|_| Transform::new(rng.vec3(1.0), rng.rotation(3.0), Vec3::splat(0.9)))
        .collect();
    let parents: Vec<i32> = (0..joints as i32).map(|j| j - 1).collect();
    let s = skeleton_of(&parents, &rest);
    let times = vec![0.1, 0.4, 0.45, 1.0, 1.6, 1.8];
    let mut clip = Clip::new(&s, 2.0).unwrap();
    let mut keys = Vec::new();
    for j in 0..joints {
        let mut joint: [Option<Vec<[f32; 4]>>; 3] = Default::default();
        for (p, slot) in joint.iter_mut().enumerate() {
            let kind = match rng.index(6) {
                0 => Keys::None,
                1 => Keys::One,
                _ => Keys::Shared,
            };
            if kind == Keys::None {
                continue;
            }
            let at: &[f32] = if kind == Keys::One { &[0.7] } else { &times };
            let values: Vec<[f32; 4]> = (0..at.len())
                .map(|_| match p {
                    1 => {
                        let q = rng.rotation(3.0) * rng.range(0.5, 2.0);
                        let q = if rng.chance(0.3) { -q } else { q };
                        q.to_array()
                    }
                    _ => rng.vec3(2.0).extend(0.0).to_array(),
                })
                .collect();
            let vectors: Vec<Vec3> = values.iter().map(|v| Vec3::new(v[0], v[1], v[2])).collect();
            match p {
                0 => clip.set_translation_track(j, track(Linear, at, &vectors, 2.0)),
                1 => {
                    let q: Vec<Quat> = values.iter().map(|v| Quat::from_array(*v)).collect();
                    clip.set_rotation_track(j, track(Linear, at, &q, 2.0))
                }
                _ => clip.set_scale_track(j, track(Linear, at, &vectors, 2.0)),
            }
            .unwrap();
            *slot = Some(values);
        }
        keys.push(joint);
    }
    (clip, s, keys, times)
}

/// The documented sample of one linear track (in f64): on the keys' ends, held or on the wrap
/// segment from the last key to the first; between keys, vectors lerped and rotations nlerped
/// on the shortest arc from normalized keys.
fn reference_value(
    keys: &[[f32; 4]],
    times: &[f32],
    t: f32,
    wrap: Option<f32>,
    rotation: bool,
) -> [f64; 4] {
    let value = |k: usize| {
        let v = keys[k].map(f64::from);
        if !rotation {
            return v;
        }
        let len = v.iter().map(|c| c * c).sum::<f64>().sqrt();
        v.map(|c| c / len)
    };
    let lerp = |i: usize, j: usize, s: f64| {
        let (a, mut b) = (value(i), value(j));
        if rotation && (0..4).map(|c| a[c] * b[c]).sum::<f64>() < 0.0 {
            b = b.map(|c| -c);
        }
        let m: [f64; 4] = std::array::from_fn(|c| a[c] + (b[c] - a[c]) * s);
        if !rotation {
            return m;
        }
        let len = m.iter().map(|c| c * c).sum::<f64>().sqrt();
        m.map(|c| c / len)
    };
    if keys.len() == 1 {
        return value(0);
    }
    let (t, last) = (f64::from(t), keys.len() - 1);
    let (first_t, last_t) = (f64::from(times[0]), f64::from(times[last]));
    if let Some(duration) = wrap.map(f64::from) {
        let dt = (duration - last_t) + first_t;
        if t > last_t {
            return lerp(last, 0, (t - last_t) / dt);
        }
        if t < first_t {
            return lerp(last, 0, ((duration - last_t) + t) / dt);
        }
    }
    if t <= first_t {
        return value(0);
    }
    if t >= last_t {
        return value(last);
    }
    let i = times.iter().rposition(|&k| f64::from(k) <= t).unwrap();
    let (t0, t1) = (f64::from(times[i]), f64::from(times[i + 1]));
    lerp(i, i + 1, (t - t0) / (t1 - t0))
}

/// Clips whose tracks share their key times (sampled four joints at a time) against the
/// documented semantics joint by joint: joint counts that leave a partial block, joints and
/// properties without tracks (the rest pose), one-key tracks, looping with and without
/// wrapping and clamped playback, with and without a cursor.
#[test]
fn shared_key_times_sample_as_documented_joint_by_joint() {
    for (joints, seed) in [(1, 1), (4, 2), (6, 3), (9, 4), (13, 5)] {
        let (mut clip, s, keys, times) = shared_keys_clip(joints, seed);
        let duration = clip.duration();
        for wrap in [false, true] {
            clip.set_wrap(wrap);
            let mut cursor = ClipCursor::new(&clip);
            let mut with = Pose::new(s.clone());
            let steps = (0..=300).map(|f| -1.0 + f as f32 / 60.0);
            for t in steps.chain(times.iter().copied()) {
                for looping in [false, true] {
                    clip.sample(t, looping, Some(&mut cursor), &mut with)
                        .unwrap();
                    let without = sample(&clip, &s, t, looping);
                    assert_eq!(bits(&with), bits(&without), "t {t}");
                    let local = if looping {
                        t.rem_euclid(duration) % duration
                    } else {
                        t.clamp(0.0, duration)
                    };
                    let on_wrap = (looping && wrap).then_some(duration);
                    for (j, joint) in keys.iter().enumerate() {
                        let got = with.local().get(j);
                        let rest = s.rest_pose()[j];
                        let want = |p: usize, rest: [f32; 4]| match &joint[p] {
                            Some(k) => reference_value(k, &times, local, on_wrap, p == 1),
                            None => rest.map(f64::from),
                        };
                        let what = format!("{joints} joints, joint {j}, t {t}, wrap {wrap}");
                        let close = |got: Vec3, want: [f64; 4]| {
                            (0..3).all(|c| (f64::from(got[c]) - want[c]).abs() <= 1e-5)
                        };
                        let t_want = want(0, rest.translation.extend(0.0).to_array());
                        assert!(close(got.translation, t_want), "{what}: {got:?}");
                        let s_want = want(2, rest.scale.extend(0.0).to_array());
                        assert!(close(got.scale, s_want), "{what}: {got:?}");
                        let r = want(1, rest.rotation.to_array()).map(|c| c as f32);
                        let r_err = rot_between(got.rotation, Quat::from_array(r));
                        assert!(r_err <= 1e-5, "{what}: {got:?} vs {r:?}");
                    }
                }
            }
        }
    }
}
