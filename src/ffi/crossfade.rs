//! Crossfade controller exports (`SinewCrossfade`).

use super::clip::SinewClip;
use super::guard::{
    arg, arg_mut, arg_slice_mut, destroy, flag, guard, opt_arg_mut, publish, FfiError, FfiResult,
};
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
    /// with the old pose's velocity (Unreal's Inertialization).
    Inertialize = 2,
}

/// Opaque controller playing clips of one skeleton with queued transitions. Owned by the
/// caller; keeps the clips it plays alive. `update` allocates nothing.
pub struct SinewCrossfade {
    inner: Crossfade,
}

fn read_curve(value: i32) -> FfiResult<FadeCurve> {
    match value {
        0 => Ok(FadeCurve::Linear),
        1 => Ok(FadeCurve::Smooth),
        2 => Ok(FadeCurve::Inertialize),
        v => Err(FfiError::new(
            SinewStatus::InvalidArgument,
            format!("curve {v} is not a SinewFadeCurve value"),
        )),
    }
}

/// Creates a controller for `skeleton` that can queue up to `max_fades` (1 to 256) fades.
///
/// # Safety
/// Pointers must be valid.
#[no_mangle]
pub unsafe extern "C" fn sinew_crossfade_create(
    skeleton: *const SinewSkeleton,
    max_fades: u32,
    out_crossfade: *mut *mut SinewCrossfade,
) -> SinewStatus {
    guard(|| {
        // SAFETY: caller's contract; null/alignment checked.
        let (skeleton, out) = unsafe {
            (
                arg(skeleton, "skeleton")?,
                arg_mut(out_crossfade, "out_crossfade")?,
            )
        };
        let inner = Crossfade::new(skeleton.inner.clone(), max_fades as usize)?;
        publish(out, SinewCrossfade { inner });
        Ok(())
    })
}

/// Releases a controller. NULL is a no-op.
///
/// # Safety
/// `crossfade` must be NULL or a live handle, not used afterwards.
#[no_mangle]
pub unsafe extern "C" fn sinew_crossfade_destroy(crossfade: *mut SinewCrossfade) {
    // SAFETY: forwarded contract.
    unsafe { destroy(crossfade) }
}

/// Plays `clip` from time 0 at once (`looping` 0 or 1), dropping queued fades.
///
/// # Safety
/// Pointers must be valid.
#[no_mangle]
pub unsafe extern "C" fn sinew_crossfade_play(
    crossfade: *mut SinewCrossfade,
    clip: *const SinewClip,
    looping: u32,
) -> SinewStatus {
    guard(|| {
        let looping = flag(looping, "looping")?;
        // SAFETY: caller's contract; null/alignment checked.
        let (crossfade, clip) = unsafe { (arg_mut(crossfade, "crossfade")?, arg(clip, "clip")?) };
        crossfade.inner.play(clip.inner.clone(), looping)?;
        Ok(())
    })
}

/// Requests a transition to `clip` over `duration` seconds with `curve` (a `SinewFadeCurve`).
/// Ignored when `clip` is already the last request (the current clip with nothing queued, or
/// the last queued fade); `*out_queued` (may be NULL) says whether it was taken. Linear and
/// smooth fades queue (`SINEW_STATUS_OUT_OF_RANGE` when the queue is full); inertialized ones
/// switch at once.
///
/// # Safety
/// Non-null pointers must be valid.
#[no_mangle]
pub unsafe extern "C" fn sinew_crossfade_fade_to(
    crossfade: *mut SinewCrossfade,
    clip: *const SinewClip,
    duration: f32,
    curve: i32,
    looping: u32,
    out_queued: *mut u32,
) -> SinewStatus {
    guard(|| {
        let (curve, looping) = (read_curve(curve)?, flag(looping, "looping")?);
        // SAFETY: caller's contract; null/alignment checked.
        let (crossfade, clip) = unsafe { (arg_mut(crossfade, "crossfade")?, arg(clip, "clip")?) };
        // SAFETY: as above.
        let out_queued = unsafe { opt_arg_mut(out_queued, "out_queued") }?;
        let queued = crossfade
            .inner
            .fade_to(clip.inner.clone(), duration, curve, looping)?;
        if let Some(q) = out_queued {
            *q = queued.into();
        }
        Ok(())
    })
}

/// Advances clips and transitions by `dt` seconds (at least 0) and computes the output pose.
///
/// # Safety
/// `crossfade` must be valid.
#[no_mangle]
pub unsafe extern "C" fn sinew_crossfade_update(
    crossfade: *mut SinewCrossfade,
    dt: f32,
) -> SinewStatus {
    guard(|| {
        // SAFETY: caller's contract; null/alignment checked.
        unsafe { arg_mut(crossfade, "crossfade") }?
            .inner
            .update(dt)?;
        Ok(())
    })
}

/// Copies the output pose of the last update into `out` (same joint count).
///
/// # Safety
/// Pointers must be valid.
#[no_mangle]
pub unsafe extern "C" fn sinew_crossfade_get_pose(
    crossfade: *const SinewCrossfade,
    out: *mut SinewPose,
) -> SinewStatus {
    guard(|| {
        // SAFETY: caller's contract; null/alignment checked.
        let (crossfade, out) = unsafe { (arg(crossfade, "crossfade")?, arg_mut(out, "out")?) };
        out.inner.copy_from(crossfade.inner.pose())?;
        Ok(())
    })
}

/// Writes the number of queued fades.
///
/// # Safety
/// Pointers must be valid.
#[no_mangle]
pub unsafe extern "C" fn sinew_crossfade_fade_count(
    crossfade: *const SinewCrossfade,
    out_count: *mut u32,
) -> SinewStatus {
    guard(|| {
        // SAFETY: caller's contract; null/alignment checked.
        let (crossfade, out) = unsafe {
            (
                arg(crossfade, "crossfade")?,
                arg_mut(out_count, "out_count")?,
            )
        };
        *out = crossfade.inner.fade_count() as u32;
        Ok(())
    })
}

/// Writes each clip's weight in the output (current first, then queued fades in order; they
/// sum to one) into `out_weights`, up to `capacity` of them; `*out_count` receives how many
/// there are.
///
/// # Safety
/// `out_weights` must hold `capacity` floats; `out_count` must be valid.
#[no_mangle]
pub unsafe extern "C" fn sinew_crossfade_get_weights(
    crossfade: *const SinewCrossfade,
    out_weights: *mut f32,
    capacity: u32,
    out_count: *mut u32,
) -> SinewStatus {
    guard(|| {
        // SAFETY: caller's contract; null/alignment checked.
        let (crossfade, count) = unsafe {
            (
                arg(crossfade, "crossfade")?,
                arg_mut(out_count, "out_count")?,
            )
        };
        // SAFETY: as above.
        let weights = unsafe { arg_slice_mut(out_weights, capacity, "out_weights") }?;
        *count = crossfade.inner.weights(weights) as u32;
        Ok(())
    })
}
