//! Clip exports (`SinewClip`, `SinewClipCursor`): build keyframed tracks, sample into poses.

use std::sync::Arc;

use super::args::{arg_mut, arg_slice, c_enum, flag, opt_arg_mut};
use super::guard::{guard, FfiError, FfiResult};
use super::handle::{create_from, destroy, handle, inspect, query, update};
use super::pose::SinewPose;
use super::skeleton::SinewSkeleton;
use super::status::SinewStatus;
use super::types::{SinewQuat, SinewTransform, SinewVec3};
use crate::clip::{Clip, ClipCursor, Interpolation, Keyframe, Property, Track};
use crate::transform::Transform;

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
handle!(SinewClip, "clip", Arc<Clip>);

/// Opaque sampling cursor: remembers key positions so forward playback is O(1) per track.
/// Works with any clip of the joint count it was made for. Owned by the caller.
pub struct SinewClipCursor {
    inner: ClipCursor,
}
handle!(SinewClipCursor, "cursor", ClipCursor);

/// Creates an empty clip of `duration` seconds for `skeleton`'s joints (joints without tracks
/// keep the rest pose).
#[no_mangle]
pub unsafe extern "C" fn sinew_clip_create(
    skeleton: *const SinewSkeleton,
    duration: f32,
    out_clip: *mut *mut SinewClip,
) -> SinewStatus {
    let make = |s: &SinewSkeleton| Clip::new(&s.inner, duration).map(Arc::new);
    unsafe { create_from(skeleton, out_clip, make) }
}

/// Releases a clip handle; controllers playing it keep it alive. NULL is a no-op.
#[no_mangle]
pub unsafe extern "C" fn sinew_clip_destroy(clip: *mut SinewClip) {
    unsafe { destroy(clip) }
}

/// Writes the clip's duration in seconds.
#[no_mangle]
pub unsafe extern "C" fn sinew_clip_duration(
    clip: *const SinewClip,
    out_duration: *mut f32,
) -> SinewStatus {
    let duration = |c: &SinewClip| Ok(c.inner.duration());
    unsafe { query(clip, out_duration, "out_duration", duration) }
}

/// The clip's data for editing, refused while a controller shares it.
fn editable(clip: &mut SinewClip) -> Result<&mut Clip, FfiError> {
    Arc::get_mut(&mut clip.inner).ok_or_else(|| {
        FfiError::new(
            SinewStatus::InvalidArgument,
            "the clip is being played by a crossfade controller; set its tracks before playing it",
        )
    })
}

/// The core's values of `SinewInterpolation`, in the order of their C values.
const KINDS: [Interpolation; 4] = [
    Interpolation::Step,
    Interpolation::Linear,
    Interpolation::Slerp,
    Interpolation::Cubic,
];

/// A track's keys as C passes them: `count` times and values, and in and out tangents (both
/// for cubic tracks, both NULL otherwise).
struct Keys<C> {
    times: *const f32,
    values: *const C,
    tangents: [*const C; 2],
    count: u32,
}

impl<C: Copy> Keys<C> {
    fn new(times: *const f32, values: *const C, ins: *const C, outs: *const C, count: u32) -> Self {
        let tangents = [ins, outs];
        Self {
            times,
            values,
            tangents,
            count,
        }
    }

    /// Body of the track setters: reads the keys (converted to core values), builds the track
    /// and stores it in joint `joint` of `clip` with `store`.
    unsafe fn set<T: Keyframe + From<C>>(
        self,
        clip: *mut SinewClip,
        joint: u32,
        interpolation: i32,
        store: fn(&mut Clip, usize, Track<T>) -> crate::Result<()>,
    ) -> SinewStatus {
        guard(|| {
            let clip = editable(unsafe { arg_mut(clip, "clip") }?)?;
            let kind = c_enum(interpolation, "interpolation", "SinewInterpolation", &KINDS)?;
            let n = self.count;
            let convert = |v: &[C]| v.iter().map(|&c| T::from(c)).collect::<Vec<T>>();
            let (times, values) = unsafe {
                let times = arg_slice(self.times, n, "times")?;
                (times, convert(arg_slice(self.values, n, "values")?))
            };
            let tangents = match self.tangents.map(|p| p.is_null()) {
                [true, true] => None,
                [false, false] => Some(unsafe {
                    let [ins, outs] = self.tangents;
                    let ins = convert(arg_slice(ins, n, "in_tangents")?);
                    (ins, convert(arg_slice(outs, n, "out_tangents")?))
                }),
                _ => {
                    let message = "in_tangents and out_tangents must both be given or both be NULL";
                    return Err(FfiError::new(SinewStatus::NullPointer, message));
                }
            };
            let tangents = tangents.as_ref().map(|(i, o)| (&i[..], &o[..]));
            let track = Track::new(kind, times, &values, tangents, clip.duration())?;
            Ok(store(clip, joint as usize, track)?)
        })
    }
}

/// Sets (replaces) joint `joint`'s translation track from `key_count` keys: strictly increasing
/// times within [0, duration], finite values, and for `SINEW_INTERPOLATION_CUBIC` in and out
/// tangents (NULL otherwise). Unchanged on error.
///
/// # Safety
/// Non-null arrays must hold `key_count` items.
#[no_mangle]
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
    let keys = Keys::new(times, values, in_tangents, out_tangents, key_count);
    unsafe { keys.set(clip, joint, interpolation, Clip::set_translation_track) }
}

/// Sets (replaces) joint `joint`'s rotation track; as the translation track, with quaternion
/// keys (renormalized; a zero quaternion is rejected).
///
/// # Safety
/// Non-null arrays must hold `key_count` items.
#[no_mangle]
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
    let keys = Keys::new(times, values, in_tangents, out_tangents, key_count);
    unsafe { keys.set(clip, joint, interpolation, Clip::set_rotation_track) }
}

/// Sets (replaces) joint `joint`'s scale track; as the translation track.
///
/// # Safety
/// Non-null arrays must hold `key_count` items.
#[no_mangle]
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
    let keys = Keys::new(times, values, in_tangents, out_tangents, key_count);
    unsafe { keys.set(clip, joint, interpolation, Clip::set_scale_track) }
}

/// Removes joint `joint`'s track for `property` (a `SinewTrackProperty`), so the joint keeps
/// the rest pose's value.
#[no_mangle]
pub unsafe extern "C" fn sinew_clip_clear_track(
    clip: *mut SinewClip,
    joint: u32,
    property: i32,
) -> SinewStatus {
    let properties = [Property::Translation, Property::Rotation, Property::Scale];
    let clear = |c: &mut SinewClip| {
        let property = c_enum(property, "property", "SinewTrackProperty", &properties)?;
        Ok(editable(c)?.clear_track(joint as usize, property)?)
    };
    unsafe { update(clip, clear) }
}

/// Creates a sampling cursor for clips of `clip`'s joint count.
#[no_mangle]
pub unsafe extern "C" fn sinew_clip_cursor_create(
    clip: *const SinewClip,
    out_cursor: *mut *mut SinewClipCursor,
) -> SinewStatus {
    let make = |c: &SinewClip| FfiResult::Ok(ClipCursor::new(&c.inner));
    unsafe { create_from(clip, out_cursor, make) }
}

/// Releases a cursor. NULL is a no-op.
#[no_mangle]
pub unsafe extern "C" fn sinew_clip_cursor_destroy(cursor: *mut SinewClipCursor) {
    unsafe { destroy(cursor) }
}

/// Samples `clip` at playback `time` into `out` (`looping` 1 wraps time into [0, duration),
/// 0 clamps it). `cursor` (may be NULL) makes forward playback O(1) per track. Unchanged on
/// error.
#[no_mangle]
pub unsafe extern "C" fn sinew_clip_sample(
    clip: *const SinewClip,
    cursor: *mut SinewClipCursor,
    time: f32,
    looping: u32,
    out: *mut SinewPose,
) -> SinewStatus {
    let sample = |clip: &SinewClip| {
        let looping = flag(looping, "looping")?;
        let (out, cursor) = unsafe { (arg_mut(out, "out")?, opt_arg_mut(cursor, "cursor")?) };
        let cursor = cursor.map(|c| &mut c.inner);
        Ok(clip.inner.sample(time, looping, cursor, &mut out.inner)?)
    };
    unsafe { inspect(clip, sample) }
}

/// Creates a clip from `frame_count` uniformly sampled frames at `frame_rate` frames per second
/// (finite, > 0): `frames` holds `frame_count` × `joint_count` local transforms, frame-major
/// (frame f, joint j at `f * joint_count + j`), as importers produce them; `joint_count` must
/// be the skeleton's (`SINEW_STATUS_SIZE_MISMATCH` otherwise) and the product at most
/// `UINT32_MAX` (`SINEW_STATUS_OUT_OF_RANGE`). Each joint with `joint_mask[j]` 1 (every joint
/// when `joint_mask` is NULL; 0 leaves the joint at the rest pose; other values are rejected)
/// gets translation, rotation and scale tracks of `interpolation` (`STEP`, `LINEAR` or `SLERP`;
/// `CUBIC` is rejected: frames have no tangents), key k at `k / frame_rate` seconds, computed
/// in double precision per key and rounded once to float, so the last key lands on the
/// duration exactly. The duration is `(frame_count - 1) / frame_rate`; with `wrap` 1 it is
/// `frame_count / frame_rate` and the clip wraps (`sinew_clip_set_wrap`): a looping cycle
/// authored without a duplicate end frame plays from the last frame back into the first.
/// Rotations are renormalized; non-finite values and zero quaternions anywhere in `frames`
/// (masked-out joints included) are rejected, naming the frame and joint. `out_clip` is
/// untouched on error.
///
/// # Safety
/// `frames` must hold `frame_count` × `joint_count` transforms, a non-null `joint_mask`
/// `joint_count` bytes.
#[no_mangle]
pub unsafe extern "C" fn sinew_clip_create_from_frames(
    skeleton: *const SinewSkeleton,
    frames: *const SinewTransform,
    frame_count: u32,
    joint_count: u32,
    frame_rate: f32,
    joint_mask: *const u8,
    interpolation: i32,
    wrap: u32,
    out_clip: *mut *mut SinewClip,
) -> SinewStatus {
    let make = |s: &SinewSkeleton| {
        let kind = c_enum(interpolation, "interpolation", "SinewInterpolation", &KINDS)?;
        let wrap = flag(wrap, "wrap")?;
        let joints = s.inner.joint_count();
        if joint_count as usize != joints {
            let message = format!("joint_count is {joint_count} but the skeleton has {joints}");
            return Err(FfiError::new(SinewStatus::SizeMismatch, message));
        }
        let n = frame_count.checked_mul(joint_count).ok_or_else(|| {
            let message =
                format!("frame_count {frame_count} x joint_count {joint_count} exceeds UINT32_MAX");
            FfiError::new(SinewStatus::OutOfRange, message)
        })?;
        let (frames, mask) = unsafe {
            let frames = arg_slice(frames, n, "frames")?;
            (frames, opt_slice(joint_mask, joint_count, "joint_mask")?)
        };
        let frames: Vec<Transform> = frames.iter().map(|&t| t.into()).collect();
        let mask = mask.map(mask_flags).transpose()?;
        let (count, mask) = (frame_count as usize, mask.as_deref());
        let clip = Clip::from_frames(&s.inner, count, frame_rate, &frames, mask, kind, wrap)?;
        FfiResult::Ok(Arc::new(clip))
    };
    unsafe { create_from(skeleton, out_clip, make) }
}

/// Borrows an optional input array of `count` items: NULL gives `None`.
unsafe fn opt_slice<'a, T>(p: *const T, count: u32, name: &str) -> FfiResult<Option<&'a [T]>> {
    (!p.is_null())
        .then(|| unsafe { arg_slice(p, count, name) })
        .transpose()
}

/// The per-joint mask bytes as flags (each must be 0 or 1).
fn mask_flags(bytes: &[u8]) -> FfiResult<Vec<bool>> {
    let flag = |(j, &b): (usize, &u8)| match b {
        0 | 1 => Ok(b == 1),
        v => {
            let message = format!("`joint_mask[{j}]` is {v}; mask entries must be 0 or 1");
            Err(FfiError::new(SinewStatus::InvalidArgument, message))
        }
    };
    bytes.iter().enumerate().map(flag).collect()
}

/// Sets whether looping playback wraps from each track's last key back to its first
/// (`wrap` = 1) instead of holding the last key until the duration (0, the default of
/// `sinew_clip_create`). With it, sampled looping, a time t after a track's last key t_last or
/// before its first t_first interpolates from the last key to the first as if the first were
/// repeated at t_first + duration: over dt = (duration - t_last) + t_first seconds, at the
/// fraction (t - t_last) / dt after the last key and ((duration - t_last) + t) / dt before the
/// first. Clamped sampling, one-key tracks and zero-duration clips are unaffected; the
/// duration does not change. Refused while a crossfade controller holds the clip.
#[no_mangle]
pub unsafe extern "C" fn sinew_clip_set_wrap(clip: *mut SinewClip, wrap: u32) -> SinewStatus {
    let set = |c: &mut SinewClip| {
        let wrap = flag(wrap, "wrap")?;
        editable(c)?.set_wrap(wrap);
        Ok(())
    };
    unsafe { update(clip, set) }
}

/// Writes 1 when the clip wraps (`sinew_clip_set_wrap`), else 0.
#[no_mangle]
pub unsafe extern "C" fn sinew_clip_get_wrap(
    clip: *const SinewClip,
    out_wrap: *mut u32,
) -> SinewStatus {
    let wraps = |c: &SinewClip| Ok(u32::from(c.inner.wraps()));
    unsafe { query(clip, out_wrap, "out_wrap", wraps) }
}
