//! Clip exports (`SinewClip`, `SinewClipCursor`): build keyframed tracks, sample into poses.

use std::sync::Arc;

use super::guard::{
    arg, arg_mut, arg_slice, destroy, flag, guard, opt_arg_mut, publish, FfiError, FfiResult,
};
use super::pose::SinewPose;
use super::skeleton::SinewSkeleton;
use super::status::SinewStatus;
use super::types::{SinewQuat, SinewVec3};
use crate::clip::{Clip, ClipCursor, Interpolation, Keyframe, Property, Track};

/// Values of the `interpolation` argument of the track setters.
#[repr(i32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SinewInterpolation {
    /// Hold each key until the next.
    Step = 0,
    /// Linear; rotations by normalized lerp on the shortest arc.
    Linear = 1,
    /// Linear; rotations by slerp (constant angular speed).
    Slerp = 2,
    /// Cubic Hermite with per-key in and out tangents (units per second).
    Cubic = 3,
}

/// Values of the `property` argument of `sinew_clip_clear_track`.
#[repr(i32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SinewTrackProperty {
    Translation = 0,
    Rotation = 1,
    Scale = 2,
}

/// Opaque keyframed clip. Shared by reference count with the crossfade controllers playing it;
/// its tracks can only be changed while no controller holds it.
pub struct SinewClip {
    pub(crate) inner: Arc<Clip>,
}

/// Opaque sampling cursor: remembers key positions so forward playback is O(1) per track.
/// Works with any clip of the joint count it was made for. Owned by the caller.
pub struct SinewClipCursor {
    inner: ClipCursor,
}

/// Creates an empty clip of `duration` seconds for `skeleton`'s joints (joints without tracks
/// keep the rest pose).
///
/// # Safety
/// Pointers must be valid.
#[no_mangle]
pub unsafe extern "C" fn sinew_clip_create(
    skeleton: *const SinewSkeleton,
    duration: f32,
    out_clip: *mut *mut SinewClip,
) -> SinewStatus {
    guard(|| {
        // SAFETY: caller's contract; null/alignment checked.
        let (skeleton, out) =
            unsafe { (arg(skeleton, "skeleton")?, arg_mut(out_clip, "out_clip")?) };
        let inner = Arc::new(Clip::new(&skeleton.inner, duration)?);
        publish(out, SinewClip { inner });
        Ok(())
    })
}

/// Releases a clip handle; controllers playing it keep it alive. NULL is a no-op.
///
/// # Safety
/// `clip` must be NULL or a live handle, not used afterwards.
#[no_mangle]
pub unsafe extern "C" fn sinew_clip_destroy(clip: *mut SinewClip) {
    // SAFETY: forwarded contract.
    unsafe { destroy(clip) }
}

/// Writes the clip's duration in seconds.
///
/// # Safety
/// Pointers must be valid.
#[no_mangle]
pub unsafe extern "C" fn sinew_clip_duration(
    clip: *const SinewClip,
    out_duration: *mut f32,
) -> SinewStatus {
    guard(|| {
        // SAFETY: caller's contract; null/alignment checked.
        let (clip, out) = unsafe { (arg(clip, "clip")?, arg_mut(out_duration, "out_duration")?) };
        *out = clip.inner.duration();
        Ok(())
    })
}

fn read_interpolation(value: i32) -> FfiResult<Interpolation> {
    match value {
        0 => Ok(Interpolation::Step),
        1 => Ok(Interpolation::Linear),
        2 => Ok(Interpolation::Slerp),
        3 => Ok(Interpolation::Cubic),
        v => Err(FfiError::new(
            SinewStatus::InvalidArgument,
            format!("interpolation {v} is not a SinewInterpolation value"),
        )),
    }
}

/// The clip's data for editing, refused while a controller shares it.
fn editable(clip: &mut SinewClip) -> FfiResult<&mut Clip> {
    Arc::get_mut(&mut clip.inner).ok_or_else(|| {
        FfiError::new(
            SinewStatus::InvalidArgument,
            "the clip is being played by a crossfade controller; set its tracks before playing it",
        )
    })
}

/// Body of the track setters: reads a track's C arrays (converted to core values), builds it
/// and stores it with `store`. Tangent arrays are required for cubic tracks and must be NULL
/// otherwise.
///
/// # Safety
/// `clip` must be valid; non-null arrays must hold `count` items.
#[allow(clippy::too_many_arguments)]
unsafe fn set_track<C: Copy, T: Keyframe + From<C>>(
    clip: *mut SinewClip,
    joint: u32,
    interpolation: i32,
    times: *const f32,
    values: *const C,
    in_tangents: *const C,
    out_tangents: *const C,
    count: u32,
    store: fn(&mut Clip, usize, Track<T>) -> crate::Result<()>,
) -> SinewStatus {
    guard(|| {
        // SAFETY: caller's contract; null/alignment checked.
        let clip = editable(unsafe { arg_mut(clip, "clip") }?)?;
        let interpolation = read_interpolation(interpolation)?;
        let convert = |v: &[C]| v.iter().map(|&c| T::from(c)).collect::<Vec<T>>();
        // SAFETY: as above.
        let (times, values) = unsafe {
            (
                arg_slice(times, count, "times")?,
                arg_slice(values, count, "values")?,
            )
        };
        let tangents = match (in_tangents.is_null(), out_tangents.is_null()) {
            (true, true) => None,
            // SAFETY: as above.
            (false, false) => Some(unsafe {
                (
                    convert(arg_slice(in_tangents, count, "in_tangents")?),
                    convert(arg_slice(out_tangents, count, "out_tangents")?),
                )
            }),
            _ => {
                return Err(FfiError::new(
                    SinewStatus::NullPointer,
                    "in_tangents and out_tangents must both be given or both be NULL",
                ))
            }
        };
        let values = convert(values);
        let tangents = tangents.as_ref().map(|(i, o)| (&i[..], &o[..]));
        let track = Track::new(interpolation, times, &values, tangents, clip.duration())?;
        store(clip, joint as usize, track)?;
        Ok(())
    })
}

/// Sets (replaces) joint `joint`'s translation track from `key_count` keys: strictly increasing
/// times within [0, duration], finite values, and for `SINEW_INTERPOLATION_CUBIC` in and out
/// tangents (NULL otherwise). Unchanged on error.
///
/// # Safety
/// Non-null arrays must hold `key_count` items.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn sinew_clip_set_translation_track(
    clip: *mut SinewClip,
    joint: u32,
    interpolation: i32,
    times: *const f32,
    values: *const SinewVec3,
    in_tangents: *const SinewVec3,
    out_tangents: *const SinewVec3,
    key_count: u32,
) -> SinewStatus {
    // SAFETY: forwarded contract.
    unsafe {
        set_track(
            clip,
            joint,
            interpolation,
            times,
            values,
            in_tangents,
            out_tangents,
            key_count,
            Clip::set_translation_track,
        )
    }
}

/// Sets (replaces) joint `joint`'s rotation track; as the translation track, with quaternion
/// keys (renormalized; a zero quaternion is rejected).
///
/// # Safety
/// Non-null arrays must hold `key_count` items.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn sinew_clip_set_rotation_track(
    clip: *mut SinewClip,
    joint: u32,
    interpolation: i32,
    times: *const f32,
    values: *const SinewQuat,
    in_tangents: *const SinewQuat,
    out_tangents: *const SinewQuat,
    key_count: u32,
) -> SinewStatus {
    // SAFETY: forwarded contract.
    unsafe {
        set_track(
            clip,
            joint,
            interpolation,
            times,
            values,
            in_tangents,
            out_tangents,
            key_count,
            Clip::set_rotation_track,
        )
    }
}

/// Sets (replaces) joint `joint`'s scale track; as the translation track.
///
/// # Safety
/// Non-null arrays must hold `key_count` items.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn sinew_clip_set_scale_track(
    clip: *mut SinewClip,
    joint: u32,
    interpolation: i32,
    times: *const f32,
    values: *const SinewVec3,
    in_tangents: *const SinewVec3,
    out_tangents: *const SinewVec3,
    key_count: u32,
) -> SinewStatus {
    // SAFETY: forwarded contract.
    unsafe {
        set_track(
            clip,
            joint,
            interpolation,
            times,
            values,
            in_tangents,
            out_tangents,
            key_count,
            Clip::set_scale_track,
        )
    }
}

/// Removes joint `joint`'s track for `property` (a `SinewTrackProperty`), so the joint keeps
/// the rest pose's value.
///
/// # Safety
/// `clip` must be valid.
#[no_mangle]
pub unsafe extern "C" fn sinew_clip_clear_track(
    clip: *mut SinewClip,
    joint: u32,
    property: i32,
) -> SinewStatus {
    guard(|| {
        let property = match property {
            0 => Property::Translation,
            1 => Property::Rotation,
            2 => Property::Scale,
            v => {
                return Err(FfiError::new(
                    SinewStatus::InvalidArgument,
                    format!("property {v} is not a SinewTrackProperty value"),
                ))
            }
        };
        // SAFETY: caller's contract; null/alignment checked.
        editable(unsafe { arg_mut(clip, "clip") }?)?.clear_track(joint as usize, property)?;
        Ok(())
    })
}

/// Creates a sampling cursor for clips of `clip`'s joint count.
///
/// # Safety
/// Pointers must be valid.
#[no_mangle]
pub unsafe extern "C" fn sinew_clip_cursor_create(
    clip: *const SinewClip,
    out_cursor: *mut *mut SinewClipCursor,
) -> SinewStatus {
    guard(|| {
        // SAFETY: caller's contract; null/alignment checked.
        let (clip, out) = unsafe { (arg(clip, "clip")?, arg_mut(out_cursor, "out_cursor")?) };
        publish(
            out,
            SinewClipCursor {
                inner: ClipCursor::new(&clip.inner),
            },
        );
        Ok(())
    })
}

/// Releases a cursor. NULL is a no-op.
///
/// # Safety
/// `cursor` must be NULL or a live handle, not used afterwards.
#[no_mangle]
pub unsafe extern "C" fn sinew_clip_cursor_destroy(cursor: *mut SinewClipCursor) {
    // SAFETY: forwarded contract.
    unsafe { destroy(cursor) }
}

/// Samples `clip` at playback `time` into `out` (`looping` 1 wraps time into [0, duration),
/// 0 clamps it). `cursor` (may be NULL) makes forward playback O(1) per track. Unchanged on
/// error.
///
/// # Safety
/// Non-null pointers must be valid.
#[no_mangle]
pub unsafe extern "C" fn sinew_clip_sample(
    clip: *const SinewClip,
    cursor: *mut SinewClipCursor,
    time: f32,
    looping: u32,
    out: *mut SinewPose,
) -> SinewStatus {
    guard(|| {
        let looping = flag(looping, "looping")?;
        // SAFETY: caller's contract; null/alignment checked.
        let (clip, out) = unsafe { (arg(clip, "clip")?, arg_mut(out, "out")?) };
        // SAFETY: as above.
        let cursor = unsafe { opt_arg_mut(cursor, "cursor") }?.map(|c| &mut c.inner);
        clip.inner.sample(time, looping, cursor, &mut out.inner)?;
        Ok(())
    })
}
