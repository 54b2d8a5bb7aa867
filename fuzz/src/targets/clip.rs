//! `clip`: clips with arbitrary durations and tracks (keys out of order or range, NaN values,
//! zero quaternions, every interpolation and garbage ones, tangents present, absent or half
//! given), sampling at arbitrary times with and without cursors (also of other joint counts),
//! and crossfade controllers driven by play / fade_to / update sequences.

use std::ptr::{null, null_mut};

use sinew::ffi::*;

use crate::check::{self, ids, sentinel, untouched};
use crate::gen::Gen;
use crate::require;
use crate::world::{self, check_pose, created, pose_local, Clip, Crossfade, Cursor, Pose};

fn duration(g: &mut Gen) -> f32 {
    match g.byte() {
        0..=199 => g.unit_f32() * 4.0,
        200..=219 => 0.0,
        _ => g.f32_any(),
    }
}

fn times(g: &mut Gen, n: usize, duration: f32) -> Vec<f32> {
    let d = if duration.is_finite() && duration > 0.0 {
        duration
    } else {
        1.0
    };
    match g.byte() {
        0..=179 => {
            // Strictly increasing within [0, d]: usually valid.
            let mut ts: Vec<f32> = (0..n).map(|_| g.unit_f32() * d).collect();
            ts.sort_by(f32::total_cmp);
            ts.dedup();
            if g.chance(30) && !ts.is_empty() {
                ts[0] = 0.0;
                let last = ts.len() - 1;
                if last > 0 {
                    ts[last] = d;
                }
            }
            while ts.len() < n {
                ts.push(f32::from_bits(
                    ts.last().copied().unwrap_or(0.0).to_bits() + 1,
                ));
            }
            ts
        }
        _ => (0..n).map(|_| g.f32_any()).collect(),
    }
}

fn key_count(g: &mut Gen) -> usize {
    match g.byte() {
        0..=219 => 1 + g.below(8),
        220..=239 => 0,
        _ => 1 + g.below(64),
    }
}

fn set_track(g: &mut Gen, clip: &Clip, n: usize, clip_duration: f32) {
    let joint = g.index(n);
    let interpolation = g.enum_i32(0, 4);
    let count = key_count(g);
    let ts = times(g, count, clip_duration);
    let which = g.below(3);
    let tangents_mode = match g.byte() {
        // Tangents exactly when cubic, usually.
        0..=199 => u8::from(interpolation == 3) * 3,
        200..=219 => 0,
        220..=239 => 3,
        240..=247 => 1,
        _ => 2,
    };
    let tangent = |g: &mut Gen| {
        if g.chance(85) {
            g.vec3_clean()
        } else {
            g.vec3()
        }
    };
    crate::trace!(
        "sinew_clip_set_track({:p}, kind {which}, joint {joint}, interpolation {interpolation}, times {ts:?}, tangents {tangents_mode})",
        clip.0
    );
    let s = match which {
        1 => {
            let values: Vec<SinewQuat> = (0..count).map(|_| g.quat()).collect();
            let ins: Vec<SinewQuat> = (0..count).map(|_| g.quat()).collect();
            let outs: Vec<SinewQuat> = (0..count).map(|_| g.quat()).collect();
            // SAFETY: every array holds `count` items.
            unsafe {
                sinew_clip_set_rotation_track(
                    clip.0,
                    joint,
                    interpolation,
                    ts.as_ptr(),
                    values.as_ptr(),
                    if tangents_mode & 1 != 0 {
                        ins.as_ptr()
                    } else {
                        null()
                    },
                    if tangents_mode & 2 != 0 {
                        outs.as_ptr()
                    } else {
                        null()
                    },
                    count as u32,
                )
            }
        }
        _ => {
            let values: Vec<SinewVec3> = (0..count)
                .map(|_| {
                    if g.chance(85) {
                        g.vec3_clean()
                    } else {
                        g.vec3()
                    }
                })
                .collect();
            let ins: Vec<SinewVec3> = (0..count).map(|_| tangent(g)).collect();
            let outs: Vec<SinewVec3> = (0..count).map(|_| tangent(g)).collect();
            let f = if which == 0 {
                sinew_clip_set_translation_track
            } else {
                sinew_clip_set_scale_track
            };
            // SAFETY: every array holds `count` items.
            unsafe {
                f(
                    clip.0,
                    joint,
                    interpolation,
                    ts.as_ptr(),
                    values.as_ptr(),
                    if tangents_mode & 1 != 0 {
                        ins.as_ptr()
                    } else {
                        null()
                    },
                    if tangents_mode & 2 != 0 {
                        outs.as_ptr()
                    } else {
                        null()
                    },
                    count as u32,
                )
            }
        }
    };
    if check::status(s, "sinew_clip_set_*_track") {
        require!(
            ids::CONTRACT,
            count >= 1
                && ts
                    .iter()
                    .all(|t| t.is_finite() && (0.0..=clip_duration).contains(t))
                && ts.windows(2).all(|w| w[0] < w[1]),
            "a track with bad key times was accepted: {ts:?} for duration {clip_duration}"
        );
        require!(
            ids::CONTRACT,
            (joint as usize) < n,
            "track for joint {joint} of {n} accepted"
        );
    }
}

fn new_clip(g: &mut Gen, skeleton: &world::Skeleton, n: usize) -> Option<(Clip, f32, usize)> {
    let d = duration(g);
    let mut out: *mut SinewClip = sentinel();
    // SAFETY: live skeleton, local out-handle.
    let s = unsafe { sinew_clip_create(skeleton.0, d, &mut out) };
    let clip = Clip(created(s, out, "sinew_clip_create")?);
    require!(
        ids::CONTRACT,
        d.is_finite() && d >= 0.0,
        "clip duration {d} accepted"
    );
    let mut read = -1.0f32;
    // SAFETY: live clip.
    let s = unsafe { sinew_clip_duration(clip.0, &mut read) };
    check::status(s, "sinew_clip_duration");
    require!(
        ids::CONTRACT,
        read.to_bits() == d.to_bits() || read == d,
        "duration {d} read back as {read}"
    );
    for _ in 0..g.below(6) {
        set_track(g, &clip, n, d);
    }
    Some((clip, d, n))
}

fn sample_time(g: &mut Gen, d: f32) -> f32 {
    match g.byte() {
        0..=179 => g.unit_f32() * d * 1.5 - 0.1 * d,
        180..=209 => g.f32_clean(),
        _ => g.f32_any(),
    }
}

fn sample(g: &mut Gen, clips: &[(Clip, f32, usize)], cursors: &mut [Cursor], poses: &[Pose]) {
    if clips.is_empty() || poses.is_empty() {
        return;
    }
    let (clip, d, _) = &clips[g.below(clips.len())];
    let cursor: *mut SinewClipCursor = if cursors.is_empty() || g.chance(30) {
        null_mut()
    } else {
        cursors[g.below(cursors.len())].0
    };
    let out = &poses[g.below(poses.len())];
    let time = sample_time(g, *d);
    let looping = g.flag();
    let before = pose_local(out.0);
    crate::trace!(
        "sinew_clip_sample({:p}, cursor {cursor:p}, time {time}, looping {looping}, out {:p})",
        clip.0,
        out.0
    );
    // SAFETY: live handles.
    let s = unsafe { sinew_clip_sample(clip.0, cursor, time, looping, out.0) };
    if check::status(s, "sinew_clip_sample") {
        check_pose(out.0, "sampled pose");
    } else {
        untouched(&before, &pose_local(out.0), "sampled pose");
    }
}

fn weights(cf: &Crossfade, capacity: usize) -> (Vec<f32>, u32) {
    let mut w = vec![-7.0f32; capacity];
    let mut count = 0u32;
    // SAFETY: `w` holds `capacity` floats.
    let s =
        unsafe { sinew_crossfade_get_weights(cf.0, w.as_mut_ptr(), capacity as u32, &mut count) };
    assert!(check::status(s, "sinew_crossfade_get_weights"));
    (w, count)
}

fn fade_count(cf: &Crossfade) -> u32 {
    let mut n = 0u32;
    // SAFETY: live handle.
    let s = unsafe { sinew_crossfade_fade_count(cf.0, &mut n) };
    assert!(check::status(s, "sinew_crossfade_fade_count"));
    n
}

/// Observable state of a controller: output pose, queue length, weights.
fn state(cf: &Crossfade, probe: &Pose) -> (Vec<SinewTransform>, u32, Vec<f32>) {
    // SAFETY: live handles of the same skeleton.
    let s = unsafe { sinew_crossfade_get_pose(cf.0, probe.0) };
    assert!(check::status(s, "sinew_crossfade_get_pose"));
    let (w, _) = weights(cf, 260);
    (pose_local(probe.0), fade_count(cf), w)
}

fn check_weights(cf: &Crossfade) {
    let (w, count) = weights(cf, 260);
    let used = &w[..(count as usize).min(w.len())];
    require!(
        ids::NON_FINITE,
        used.iter().all(|x| x.is_finite()),
        "crossfade weights not finite: {used:?}"
    );
    if count > 0 {
        let sum: f32 = used.iter().sum();
        require!(
            ids::CONTRACT,
            (sum - 1.0).abs() < 1e-3 && used.iter().all(|x| (-1e-6..=1.0 + 1e-6).contains(x)),
            "crossfade weights {used:?} do not sum to one"
        );
    }
    require!(
        ids::TOUCHED_ON_ERROR,
        w[(count as usize).min(w.len())..]
            .iter()
            .all(|&x| x == -7.0),
        "get_weights wrote past its count"
    );
}

/// Reads the weights with a small capacity (NULL when 0): exactly `min(count, capacity)` are
/// written, and they match a full read.
fn small_weights_read(g: &mut Gen, cf: &Crossfade) {
    let capacity = g.below(4);
    let mut w = vec![-7.0f32; capacity];
    let mut count = 77u32;
    let p = if capacity == 0 {
        null_mut()
    } else {
        w.as_mut_ptr()
    };
    // SAFETY: `p` is NULL with capacity 0 or holds `capacity` floats.
    let s = unsafe { sinew_crossfade_get_weights(cf.0, p, capacity as u32, &mut count) };
    assert!(check::status(s, "sinew_crossfade_get_weights(small)"));
    let (full, full_count) = weights(cf, 260);
    require!(
        ids::CONTRACT,
        count == full_count,
        "weight count {count} != {full_count}"
    );
    let written = (count as usize).min(capacity);
    untouched(
        &full[..written],
        &w[..written],
        "weights read with a small capacity",
    );
    require!(
        ids::TOUCHED_ON_ERROR,
        w[written..].iter().all(|&x| x == -7.0),
        "get_weights wrote past min(count, capacity)"
    );
}

fn crossfade_ops(
    g: &mut Gen,
    cf: &Crossfade,
    clips: &[(Clip, f32, usize)],
    probe: &Pose,
    n: usize,
) {
    if g.chance(10) {
        small_weights_read(g, cf);
    }
    let before = state(cf, probe);
    let op = g.byte() % 8;
    let clip = if clips.is_empty() || g.chance(3) {
        null()
    } else {
        clips[g.below(clips.len())].0 .0.cast_const()
    };
    let (s, what) = match op {
        0 => {
            let looping = g.flag();
            // SAFETY: live handles or NULL.
            (
                unsafe { sinew_crossfade_play(cf.0, clip, looping) },
                "sinew_crossfade_play",
            )
        }
        1..=3 => {
            let d = match g.byte() {
                0..=199 => g.unit_f32(),
                200..=219 => 0.0,
                _ => g.f32_any(),
            };
            let curve = g.enum_i32(0, 3);
            let looping = g.flag();
            let mut queued = 7u32;
            let want = g.bool();
            // SAFETY: live handles, local out-value or NULL.
            let s = unsafe {
                sinew_crossfade_fade_to(
                    cf.0,
                    clip,
                    d,
                    curve,
                    looping,
                    if want { &mut queued } else { null_mut() },
                )
            };
            if s == SinewStatus::Ok && want {
                require!(ids::CONTRACT, queued <= 1, "out_queued is {queued}");
            } else {
                require!(
                    ids::TOUCHED_ON_ERROR,
                    queued == 7,
                    "out_queued written on failure"
                );
            }
            (s, "sinew_crossfade_fade_to")
        }
        _ => {
            let dt = match g.byte() {
                0..=199 => g.unit_f32() * 0.1,
                200..=219 => 0.0,
                220..=229 => [1e-40, 1e-30, 1e-7, 1e30][g.below(4)],
                _ => g.f32_any(),
            };
            // SAFETY: live handle.
            (
                unsafe { sinew_crossfade_update(cf.0, dt) },
                "sinew_crossfade_update",
            )
        }
    };
    crate::trace!("{what} (clip {clip:p}) -> {s:?}");
    if check::status(s, what) {
        // SAFETY: live handles.
        let r = unsafe { sinew_crossfade_get_pose(cf.0, probe.0) };
        assert!(check::status(r, "sinew_crossfade_get_pose"));
        check_pose(probe.0, what);
        check_weights(cf);
    } else {
        let after = state(cf, probe);
        untouched(&before.0, &after.0, what);
        require!(
            ids::TOUCHED_ON_ERROR,
            before.1 == after.1,
            "{what} failed but the fade queue went from {} to {}",
            before.1,
            after.1
        );
        untouched(&before.2, &after.2, what);
    }
    let _ = n;
}

/// The `clip` target.
pub fn run(data: &[u8]) {
    let mut g = Gen::new(data);
    let (skeleton, spec) = world::valid_skeleton(&mut g, 10);
    let n = spec.parents.len();
    // A second skeleton of another joint count, for mismatches.
    let (other, other_spec) = world::valid_skeleton(&mut g, 10);
    let m = other_spec.parents.len();
    let mut clips: Vec<(Clip, f32, usize)> = Vec::new();
    let mut cursors: Vec<Cursor> = Vec::new();
    let poses: Vec<Pose> = (0..2)
        .map(|_| world::random_pose(&mut g, &skeleton))
        .collect();
    let other_pose = world::random_pose(&mut g, &other);
    let mut crossfade: Option<Crossfade> = None;
    for _ in 0..48 {
        if g.is_empty() {
            break;
        }
        match g.byte() % 12 {
            0 | 1 => {
                let on_other = g.chance(15);
                let made = if on_other {
                    new_clip(&mut g, &other, m)
                } else {
                    new_clip(&mut g, &skeleton, n)
                };
                if let Some(c) = made {
                    if clips.len() < 4 {
                        clips.push(c);
                    }
                }
            }
            2 if !clips.is_empty() => {
                let i = g.below(clips.len());
                let (clip, d, count) = (&clips[i].0, clips[i].1, clips[i].2);
                set_track(&mut g, clip, count, d);
            }
            3 if !clips.is_empty() => {
                let (clip, _, count) = &clips[g.below(clips.len())];
                let joint = g.index(*count);
                let property = g.enum_i32(0, 3);
                // SAFETY: live clip.
                let s = unsafe { sinew_clip_clear_track(clip.0, joint, property) };
                check::status(s, "sinew_clip_clear_track");
            }
            4 if !clips.is_empty() => {
                let (clip, _, _) = &clips[g.below(clips.len())];
                let mut out: *mut SinewClipCursor = sentinel();
                // SAFETY: live clip.
                let s = unsafe { sinew_clip_cursor_create(clip.0, &mut out) };
                if let Some(c) = created(s, out, "sinew_clip_cursor_create") {
                    if cursors.len() < 3 {
                        cursors.push(Cursor(c));
                    } else {
                        drop(Cursor(c));
                    }
                }
            }
            5..=7 => {
                let mut targets: Vec<Pose> = Vec::new();
                let pool: &[Pose] = if g.chance(10) {
                    targets.push(world::random_pose(&mut g, &other));
                    &targets
                } else {
                    &poses
                };
                sample(&mut g, &clips, &mut cursors, pool);
            }
            8 => {
                if crossfade.is_none() || g.chance(5) {
                    let max = match g.byte() {
                        0..=229 => 1 + g.below(4) as u32,
                        230..=239 => 0,
                        240..=247 => 257,
                        _ => g.u32(),
                    };
                    let mut out: *mut SinewCrossfade = sentinel();
                    // SAFETY: live skeleton.
                    let s = unsafe { sinew_crossfade_create(skeleton.0, max, &mut out) };
                    if let Some(c) = created(s, out, "sinew_crossfade_create") {
                        require!(
                            ids::CONTRACT,
                            (1..=256).contains(&max),
                            "max_fades {max} accepted"
                        );
                        crossfade = Some(Crossfade(c));
                    }
                }
            }
            9..=11 => {
                if let Some(cf) = &crossfade {
                    for _ in 0..1 + g.below(6) {
                        crossfade_ops(&mut g, cf, &clips, &poses[0], n);
                    }
                }
            }
            _ => {}
        }
    }
    // Poses of the other skeleton stay untouched by everything above.
    check_pose(other_pose.0, "other pose");
}
