//! Crossfade controller exports (`SinewCrossfade`).

use super::args::{arg_mut, arg_slice_mut, c_enum, flag, OptOut};
use super::clip::SinewClip;
use super::guard::FfiResult;
use super::handle::{create_from, destroy, handle, inspect, query, update, Handle};
use super::pose::SinewPose;
use super::skeleton::SinewSkeleton;
use super::status::SinewStatus;
use crate::crossfade::{Crossfade, FadeCurve};

/// Values of the `curve` argument of `sinew_crossfade_fade_to`.
#[repr(i32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SinewFadeCurve {
    /// The new clip's weight rises linearly.
    Linear = 0,
    /// The new clip's weight eases in and out (smoothstep).
    Smooth = 1,
    /// Switch at once; the offset from the old pose decays to zero along a quintic that starts
    /// with the old pose's velocity along the offset (Unreal's Inertialization).
    Inertialize = 2,
}

/// Opaque controller playing clips of one skeleton with queued transitions. Owned by the
/// caller; keeps the clips it plays alive. `update` allocates nothing.
///
/// Clock rules: a clip starts at time 0 when played or faded to; each update first advances
/// every clip (and every transition) by `dt`, then samples them at their new times, so the
/// first update after a request samples the new clip at `dt`. Queued fades all run at once,
/// each blending its clip over what is under it (the current clip, then the older fades);
/// when fades have run their duration, the newest of them becomes current with its own time
/// and everything under it is dropped, so they finish in queue order.
pub struct SinewCrossfade {
    inner: Crossfade,
}
handle!(SinewCrossfade, "crossfade", Crossfade);

/// Creates a controller for `skeleton` that can queue up to `max_fades` (1 to 256) fades.
#[no_mangle]
pub unsafe extern "C" fn sinew_crossfade_create(
    skeleton: *const SinewSkeleton,
    max_fades: u32,
    out_crossfade: *mut *mut SinewCrossfade,
) -> SinewStatus {
    let make = |s: &SinewSkeleton| Crossfade::new(s.inner.clone(), max_fades as usize);
    unsafe { create_from(skeleton, out_crossfade, make) }
}

/// Releases a controller. NULL is a no-op.
#[no_mangle]
pub unsafe extern "C" fn sinew_crossfade_destroy(crossfade: *mut SinewCrossfade) {
    unsafe { destroy(crossfade) }
}

/// Plays `clip` from time 0 at once (`looping` 0 or 1), dropping queued fades and any running
/// inertialization (the pose jumps).
#[no_mangle]
pub unsafe extern "C" fn sinew_crossfade_play(
    crossfade: *mut SinewCrossfade,
    clip: *const SinewClip,
    looping: u32,
) -> SinewStatus {
    let play = |c: &mut SinewCrossfade| {
        let looping = flag(looping, "looping")?;
        let clip = unsafe { SinewClip::get(clip) }?;
        Ok(c.inner.play(clip.inner.clone(), looping)?)
    };
    unsafe { update(crossfade, play) }
}

/// Requests a transition to `clip` over `duration` seconds with `curve` (a `SinewFadeCurve`);
/// `*out_queued` (may be NULL) says whether a transition started (1) or not (0).
/// - When `clip` is already the last request (the current clip with nothing queued, or the
///   last queued fade), no transition starts (0) and that clip plays on with `looping`
///   applied: turning looping off wraps its time into the clip first (it plays on without a
///   jump, then holds its last pose), turning it on clamps its time into the clip first (a
///   clip held at its end starts over). A clip playing under queued fades is not the last
///   request: asking for it queues a fade to a new play of it from 0.
/// - With nothing playing, or `duration` 0, the clip plays at once as `sinew_crossfade_play`.
/// - `LINEAR` and `SMOOTH` fades queue, the new clip starting at time 0
///   (`SINEW_STATUS_OUT_OF_RANGE` when the queue is full).
/// - `INERTIALIZE` switches at once: the clip becomes current at time 0 and queued fades are
///   dropped (status OK; the offset from the last output, which decays over `duration`,
///   already holds them). Before the first update there is no output to start from, and the
///   clip simply plays.
#[no_mangle]
pub unsafe extern "C" fn sinew_crossfade_fade_to(
    crossfade: *mut SinewCrossfade,
    clip: *const SinewClip,
    duration: f32,
    curve: i32,
    looping: u32,
    out_queued: *mut u32,
) -> SinewStatus {
    let fade = |c: &mut SinewCrossfade| {
        let curves = [FadeCurve::Linear, FadeCurve::Smooth, FadeCurve::Inertialize];
        let curve = c_enum(curve, "curve", "SinewFadeCurve", &curves)?;
        let looping = flag(looping, "looping")?;
        let clip = unsafe { SinewClip::get(clip) }?;
        let queued = OptOut::new(out_queued, "out_queued")?;
        let started = c
            .inner
            .fade_to(clip.inner.clone(), duration, curve, looping)?;
        unsafe { queued.write(u32::from(started)) };
        Ok(())
    };
    unsafe { update(crossfade, fade) }
}

/// Advances every clip and transition by `dt` seconds (at least 0), then computes the output
/// pose at the new times: each clip sampled at its time, each fade blended over what is under
/// it by its curve at elapsed / duration, in queue order, and a running inertialization's
/// offset added. Fades that have then run their duration leave the queue (see
/// `SinewCrossfade`). On error nothing changes, times included.
#[no_mangle]
pub unsafe extern "C" fn sinew_crossfade_update(
    crossfade: *mut SinewCrossfade,
    dt: f32,
) -> SinewStatus {
    unsafe { update(crossfade, |c| Ok(c.inner.update(dt)?)) }
}

/// Copies the output pose of the last update into `out`, a pose of the controller's skeleton
/// or of one with the same parents (another joint count: `SINEW_STATUS_SIZE_MISMATCH`; other
/// parents: `SINEW_STATUS_INVALID_ARGUMENT`).
#[no_mangle]
pub unsafe extern "C" fn sinew_crossfade_get_pose(
    crossfade: *const SinewCrossfade,
    out: *mut SinewPose,
) -> SinewStatus {
    let copy = |c: &SinewCrossfade| {
        let out = unsafe { arg_mut(out, "out") }?;
        Ok(out.inner.copy_from(c.inner.pose())?)
    };
    unsafe { inspect(crossfade, copy) }
}

/// Writes the number of queued fades.
#[no_mangle]
pub unsafe extern "C" fn sinew_crossfade_fade_count(
    crossfade: *const SinewCrossfade,
    out_count: *mut u32,
) -> SinewStatus {
    let count = |c: &SinewCrossfade| Ok(c.inner.fade_count() as u32);
    unsafe { query(crossfade, out_count, "out_count", count) }
}

/// The query of the exports that fill `out` (`capacity` floats) with one value per clip
/// through `fill` and report how many there are.
unsafe fn per_clip<'a>(
    out: *mut f32,
    capacity: u32,
    name: &'a str,
    fill: fn(&Crossfade, &mut [f32]) -> usize,
) -> impl FnOnce(&SinewCrossfade) -> FfiResult<u32> + 'a {
    move |c| {
        let out = unsafe { arg_slice_mut(out, capacity, name) }?;
        Ok(fill(&c.inner, out) as u32)
    }
}

/// Writes each clip's weight in the output (current first, then queued fades in order; they
/// sum to one) into `out_weights`, up to `capacity` of them; `*out_count` receives how many
/// there are.
///
/// # Safety
/// `out_weights` must hold `capacity` floats.
#[no_mangle]
pub unsafe extern "C" fn sinew_crossfade_get_weights(
    crossfade: *const SinewCrossfade,
    out_weights: *mut f32,
    capacity: u32,
    out_count: *mut u32,
) -> SinewStatus {
    let weights = unsafe { per_clip(out_weights, capacity, "out_weights", Crossfade::weights) };
    unsafe { query(crossfade, out_count, "out_count", weights) }
}

/// Writes each clip's time, the point in the clip the next update advances from (where the
/// last update sampled it, or 0 for a clip played or faded to since), in the order of
/// `sinew_crossfade_get_weights` (current first, then queued fades), into `out_times`, up to
/// `capacity` of them; `*out_count` receives how many there are (0 when nothing plays). A
/// clip's time is its playback time wrapped into [0, duration) when looping, clamped into
/// [0, duration] otherwise. Allocates nothing.
///
/// # Safety
/// `out_times` must hold `capacity` floats.
#[no_mangle]
pub unsafe extern "C" fn sinew_crossfade_get_times(
    crossfade: *const SinewCrossfade,
    out_times: *mut f32,
    capacity: u32,
    out_count: *mut u32,
) -> SinewStatus {
    let times = unsafe { per_clip(out_times, capacity, "out_times", Crossfade::clip_times) };
    unsafe { query(crossfade, out_count, "out_count", times) }
}

/// Writes whether an inertialized transition is still running (1) or not (0) into
/// `*out_active`, and the seconds left of its duration (0 when none runs; the offset may reach
/// zero sooner) into `*out_remaining` (may be NULL). Allocates nothing.
#[no_mangle]
pub unsafe extern "C" fn sinew_crossfade_is_inertializing(
    crossfade: *const SinewCrossfade,
    out_active: *mut u32,
    out_remaining: *mut f32,
) -> SinewStatus {
    let read = |c: &SinewCrossfade| {
        let remaining = OptOut::new(out_remaining, "out_remaining")?;
        let left = c.inner.inertialization_remaining();
        unsafe { remaining.write(left.unwrap_or(0.0)) };
        Ok(u32::from(left.is_some()))
    };
    unsafe { query(crossfade, out_active, "out_active", read) }
}
