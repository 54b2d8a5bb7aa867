//! Keyframed clips: per-joint translation, rotation and scale tracks with step, linear,
//! spherical-linear or cubic Hermite interpolation, sampled into a pose (looping or clamped),
//! with a cursor that makes forward playback O(1) per track per frame.

mod blocks;

use std::sync::Arc;

use glam::{Quat, Vec3, Vec4};

use blocks::KeyBlocks;

use crate::error::{ensure_finite, Error, ErrorKind, Result};
use crate::pose::Pose;
use crate::pose::Staging;
use crate::rotation::{normalize_robust, same_hemisphere};
use crate::skeleton::Skeleton;
use crate::soa::{normalize_blocks, JointTransforms, SoaTransform};
use crate::transform::Transform;

/// How a track interpolates between its keys.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Interpolation {
    /// Hold each key until the next.
    Step,
    /// Linear; rotations by normalized lerp on the shortest arc (nlerp).
    #[default]
    Linear,
    /// Like `Linear`, but rotations by slerp (constant angular speed); vectors as `Linear`.
    Slerp,
    /// Cubic Hermite with per-key in and out tangents (units per second); rotations
    /// componentwise on the shortest arc, then normalized.
    Cubic,
}

/// Keys of one animated property.
#[derive(Clone, Debug, PartialEq)]
pub struct Track<T> {
    /// Shared with the joint's other tracks keyed at the same times, once in a clip.
    times: Arc<[f32]>,
    values: Vec<T>,
    in_tangents: Vec<T>,
    out_tangents: Vec<T>,
    interpolation: Interpolation,
}

/// A value a track can hold.
pub trait Keyframe: Copy + PartialEq {
    /// Whether every component is finite.
    fn finite(&self) -> bool;
    /// The value ready for sampling (rotations normalized), or why it is unusable.
    fn prepared(self) -> Result<Self>;
    /// Interpolates from key `i` to key `j` (the next one, or the first after the last when
    /// the clip wraps) at `s` in [0, 1] over `dt` seconds.
    fn interpolate(k: &Track<Self>, i: usize, j: usize, s: f32, dt: f32) -> Self;
}

impl<T: Keyframe> Track<T> {
    /// Validates and builds a track: times finite, strictly increasing and within
    /// [0, `duration`]; values finite (rotations non-zero, normalized); tangents given exactly
    /// for cubic tracks.
    pub fn new(
        interpolation: Interpolation,
        times: &[f32],
        values: &[T],
        tangents: Option<(&[T], &[T])>,
        duration: f32,
    ) -> Result<Self> {
        let invalid = |m: String| Err(Error::new(ErrorKind::InvalidArgument, m));
        if times.is_empty() {
            return invalid("a track needs at least one key".into());
        }
        if values.len() != times.len() {
            return Err(Error::new(
                ErrorKind::SizeMismatch,
                format!("{} key times but {} values", times.len(), values.len()),
            ));
        }
        for (k, &t) in times.iter().enumerate() {
            ensure_finite(t.is_finite(), "key time")?;
            if !(0.0..=duration).contains(&t) {
                return Err(Error::new(
                    ErrorKind::OutOfRange,
                    format!("key {k} at time {t} is outside the clip's [0, {duration}]"),
                ));
            }
            if k > 0 && t <= times[k - 1] {
                return invalid(format!(
                    "key times must increase strictly: key {k} at {t} follows {}",
                    times[k - 1]
                ));
            }
        }
        let prepare = |v: &[T]| -> Result<Vec<T>> {
            v.iter()
                .map(|x| {
                    ensure_finite(x.finite(), "key value")?;
                    x.prepared()
                })
                .collect()
        };
        let (in_tangents, out_tangents) = match (interpolation, tangents) {
            (Interpolation::Cubic, Some((i, o))) => {
                if i.len() != times.len() || o.len() != times.len() {
                    return Err(Error::new(
                        ErrorKind::SizeMismatch,
                        "cubic tracks need one in and one out tangent per key",
                    ));
                }
                let check = |v: &[T]| -> Result<Vec<T>> {
                    v.iter()
                        .map(|x| ensure_finite(x.finite(), "tangent").map(|()| *x))
                        .collect()
                };
                (check(i)?, check(o)?)
            }
            (Interpolation::Cubic, None) => return invalid("cubic tracks need tangents".into()),
            (_, Some(_)) => return invalid("only cubic tracks take tangents".into()),
            (_, None) => (Vec::new(), Vec::new()),
        };
        Ok(Self {
            times: times.into(),
            values: prepare(values)?,
            in_tangents,
            out_tangents,
            interpolation,
        })
    }

    /// Key times.
    pub fn times(&self) -> &[f32] {
        &self.times
    }

    /// Key values.
    pub fn values(&self) -> &[T] {
        &self.values
    }

    /// The interpolation.
    pub fn interpolation(&self) -> Interpolation {
        self.interpolation
    }

    /// [`locate`] on this track's keys.
    #[inline(always)]
    fn locate(&self, time: f32, cursor: &mut u32) -> KeyPosition {
        locate(&self.times, time, cursor)
    }

    /// The value at `at`, with `interpolate` between keys.
    #[inline(always)]
    fn value_at(
        &self,
        at: KeyPosition,
        interpolate: impl Fn(&Self, usize, usize, f32, f32) -> T,
    ) -> T {
        match at {
            KeyPosition::Key(k) => self.values[k],
            KeyPosition::Between(i, s, dt) => interpolate(self, i, i + 1, s, dt),
        }
    }

    /// The value at clip time `t` on the wrap segment of a clip of `duration` seconds
    /// ([`wrap_fraction`]), from the last key to the first, when `t` lies on it;
    /// `interpolate` as in [`Self::value_at`].
    #[inline(always)]
    fn wrapped(
        &self,
        t: f32,
        duration: f32,
        interpolate: impl Fn(&Self, usize, usize, f32, f32) -> T,
    ) -> Option<T> {
        let (s, dt) = wrap_fraction(&self.times, t, duration)?;
        Some(interpolate(self, self.times.len() - 1, 0, s, dt))
    }

    /// [`Self::locate`], or `previous` (found on another track of the same joint) when the two
    /// tracks share their key times.
    #[inline(always)]
    fn locate_after<'a>(
        &'a self,
        time: f32,
        cursor: &mut u32,
        previous: &mut Option<(&'a Arc<[f32]>, KeyPosition)>,
    ) -> KeyPosition {
        match *previous {
            Some((times, at)) if Arc::ptr_eq(times, &self.times) => {
                *cursor = at.key() as u32;
                at
            }
            _ => {
                let at = self.locate(time, cursor);
                *previous = Some((&self.times, at));
                at
            }
        }
    }
}

/// Where `time` falls on the key `times`, using and updating `cursor` (the key index found
/// last time): forward playback moves it by at most a key or two, anything else falls back to
/// binary search. The result depends on `time` and `times` only. Always inlined, as is
/// [`Track::value_at`]: called per track and frame.
#[inline(always)]
fn locate(times: &[f32], time: f32, cursor: &mut u32) -> KeyPosition {
    let between = |i: usize, [t0, t1]: [f32; 2]| {
        let dt = t1 - t0;
        KeyPosition::Between(i, (time - t0) / dt, dt)
    };
    // Forward playback: `time` is usually strictly inside the cursor's segment or the next.
    let c = *cursor as usize;
    for i in c..c + 2 {
        if let Some(&[t0, t1]) = times.get(i..i + 2) {
            if t0 < time && time < t1 {
                *cursor = i as u32;
                return between(i, [t0, t1]);
            }
        }
    }
    let last = times.len() - 1;
    if time <= times[0] {
        *cursor = 0;
        return KeyPosition::Key(0);
    }
    if time >= times[last] {
        *cursor = last as u32;
        return KeyPosition::Key(last);
    }
    let mut i = (*cursor as usize).min(last - 1);
    if times[i] > time {
        i = times.partition_point(|&t| t <= time) - 1;
    } else {
        while times[i + 1] <= time {
            i += 1;
        }
    }
    *cursor = i as u32;
    // On a key: its value exactly, whatever the interpolation.
    if times[i] == time {
        return KeyPosition::Key(i);
    }
    between(i, [times[i], times[i + 1]])
}

/// The fraction and length `(s, dt)` of the wrap segment of a clip of `duration` seconds at
/// clip time `t`, from the last of the key `times` (at `last`) to the first (at
/// `first + duration`), when `t` lies on it (before the first key or after the last; never
/// for one key): `dt = (duration - last) + first` and `s` is `(t - last) / dt` after the last
/// key, `((duration - last) + t) / dt` before the first.
#[inline(always)]
fn wrap_fraction(times: &[f32], t: f32, duration: f32) -> Option<(f32, f32)> {
    let last_key = times.len() - 1;
    let (first, last) = (times[0], times[last_key]);
    if last_key == 0 || (first <= t && t <= last) {
        return None;
    }
    let gap = duration - last;
    let dt = gap + first;
    let elapsed = if t > last { t - last } else { gap + t };
    Some((elapsed / dt, dt))
}

/// Where a sample time falls on a track's keys.
#[derive(Clone, Copy, Debug)]
enum KeyPosition {
    /// On key `k` (at or before the first key, at or after the last).
    Key(usize),
    /// Between key `i` and the next, a fraction `s` of the way over their `dt` seconds.
    Between(usize, f32, f32),
}

impl KeyPosition {
    /// The key at or before the sample time (what a cursor remembers).
    fn key(self) -> usize {
        match self {
            Self::Key(k) | Self::Between(k, ..) => k,
        }
    }
}

/// [`Keyframe::interpolate`] for rotations, except that linear keys are left unnormalized:
/// sampling normalizes every joint's rotation four at a time afterwards. Always inlined: the
/// wrap pass calls it too, and the per-joint loop must keep it inline.
#[inline(always)]
fn rotation_between(k: &Track<Quat>, i: usize, j: usize, s: f32, dt: f32) -> Quat {
    if k.interpolation == Interpolation::Linear {
        let a = k.values[i];
        a + (same_hemisphere(k.values[j], a) - a) * s
    } else {
        Quat::interpolate(k, i, j, s, dt)
    }
}

/// Cubic Hermite basis at `s`: weights of p0, dt m0, p1, dt m1.
fn hermite(s: f32) -> [f32; 4] {
    let (s2, s3) = (s * s, s * s * s);
    [
        2.0 * s3 - 3.0 * s2 + 1.0,
        s3 - 2.0 * s2 + s,
        -2.0 * s3 + 3.0 * s2,
        s3 - s2,
    ]
}

impl Keyframe for Vec3 {
    fn finite(&self) -> bool {
        self.is_finite()
    }

    fn prepared(self) -> Result<Self> {
        Ok(self)
    }

    // Inlined into sampling: as a call shared by the translation and scale tracks it would stay
    // out of line.
    #[inline(always)]
    fn interpolate(k: &Track<Self>, i: usize, j: usize, s: f32, dt: f32) -> Self {
        let (a, b) = (k.values[i], k.values[j]);
        match k.interpolation {
            Interpolation::Step => a,
            Interpolation::Linear | Interpolation::Slerp => a * (1.0 - s) + b * s,
            Interpolation::Cubic => {
                let [h0, h1, h2, h3] = hermite(s);
                a * h0 + k.out_tangents[i] * (h1 * dt) + b * h2 + k.in_tangents[j] * (h3 * dt)
            }
        }
    }
}

impl Keyframe for Quat {
    fn finite(&self) -> bool {
        self.is_finite()
    }

    fn prepared(self) -> Result<Self> {
        normalize_robust(self).ok_or_else(|| {
            Error::new(
                ErrorKind::InvalidArgument,
                "a rotation key is a zero-length quaternion",
            )
        })
    }

    fn interpolate(k: &Track<Self>, i: usize, j: usize, s: f32, dt: f32) -> Self {
        let a = k.values[i];
        // The next key on the shortest arc from this one (branch-free: keys of a fast rotation
        // alternate sides unpredictably).
        let b = same_hemisphere(k.values[j], a);
        match k.interpolation {
            Interpolation::Step => a,
            Interpolation::Linear => (a + (b - a) * s).normalize(),
            Interpolation::Slerp => a.slerp(b, s),
            Interpolation::Cubic => {
                let sign = if a.dot(k.values[j]) < 0.0 { -1.0 } else { 1.0 };
                let [h0, h1, h2, h3] = hermite(s);
                let v = Vec4::from(a) * h0
                    + Vec4::from(k.out_tangents[i]) * (h1 * dt)
                    + Vec4::from(b) * h2
                    + Vec4::from(k.in_tangents[j]) * (h3 * dt * sign);
                normalize_robust(Quat::from_vec4(v)).unwrap_or(a)
            }
        }
    }
}

/// The tracks of one joint.
#[derive(Clone, Debug, Default, PartialEq)]
struct JointTracks {
    translation: Option<Track<Vec3>>,
    rotation: Option<Track<Quat>>,
    scale: Option<Track<Vec3>>,
}

impl JointTracks {
    /// Makes `track` share its key times with one of this joint's tracks keyed at the same
    /// times, if any: sampling then locates the time once for both.
    fn share_times<T>(&self, track: &mut Track<T>) {
        let mut times = [
            self.translation.as_ref().map(|k| &k.times),
            self.rotation.as_ref().map(|k| &k.times),
            self.scale.as_ref().map(|k| &k.times),
        ]
        .into_iter()
        .flatten();
        if let Some(same) = times.find(|t| **t == track.times) {
            track.times = same.clone();
        }
    }

    /// The key times and interpolation of the track for `property`, if any.
    fn keys_of(&self, property: Property) -> Option<(&Arc<[f32]>, Interpolation)> {
        fn keys<T>(k: &Option<Track<T>>) -> Option<(&Arc<[f32]>, Interpolation)> {
            k.as_ref().map(|k| (&k.times, k.interpolation))
        }
        match property {
            Property::Translation => keys(&self.translation),
            Property::Rotation => keys(&self.rotation),
            Property::Scale => keys(&self.scale),
        }
    }

    /// Replaces the key times of the track for `property` with an equal list.
    fn set_times(&mut self, property: Property, times: Arc<[f32]>) {
        let slot = match property {
            Property::Translation => self.translation.as_mut().map(|k| &mut k.times),
            Property::Rotation => self.rotation.as_mut().map(|k| &mut k.times),
            Property::Scale => self.scale.as_mut().map(|k| &mut k.times),
        };
        if let Some(slot) = slot {
            debug_assert!(**slot == *times);
            *slot = times;
        }
    }

    /// Key `k` of the track for `property` (which must exist), as components in the order of
    /// a block's rows (vectors padded with 0).
    fn key(&self, property: Property, k: usize) -> [f32; 4] {
        let vector = |track: &Option<Track<Vec3>>| track.as_ref().map(|v| v.values[k].extend(0.0));
        let value = match property {
            Property::Translation => vector(&self.translation),
            Property::Rotation => self.rotation.as_ref().map(|r| Vec4::from(r.values[k])),
            Property::Scale => vector(&self.scale),
        };
        value.map_or([0.0; 4], |v| v.to_array())
    }
}

/// Which property of a joint a track animates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Property {
    /// Local translation.
    Translation,
    /// Local rotation.
    Rotation,
    /// Local scale.
    Scale,
}

/// A keyframed clip for one skeleton's joint count. Joints without a track for a property keep
/// the rest pose's value.
#[derive(Clone, Debug)]
pub struct Clip {
    duration: f32,
    joints: Vec<JointTracks>,
    /// Whether looping playback interpolates from each track's last key to its first.
    wrap: bool,
    /// [`Self::keyed_span`], kept current by every edit.
    keyed: (f32, f32),
    /// The keys in blocks of four joints when the tracks share their key times, kept current
    /// by every edit.
    blocks: KeyBlocks,
}

/// Clips are equal when their durations, wrap flags and tracks are: the rest is derived.
impl PartialEq for Clip {
    fn eq(&self, other: &Self) -> bool {
        (self.duration, self.wrap) == (other.duration, other.wrap) && self.joints == other.joints
    }
}

impl Clip {
    /// An empty clip of `duration` seconds (finite, at least 0) for `skeleton`.
    pub fn new(skeleton: &Skeleton, duration: f32) -> Result<Self> {
        ensure_finite(duration.is_finite(), "clip duration")?;
        if duration < 0.0 {
            return Err(Error::new(
                ErrorKind::InvalidArgument,
                format!("clip duration {duration} is negative"),
            ));
        }
        Ok(Self {
            duration,
            joints: vec![JointTracks::default(); skeleton.joint_count()],
            wrap: false,
            keyed: (f32::NEG_INFINITY, f32::INFINITY),
            blocks: KeyBlocks::default(),
        })
    }

    /// A clip from `frame_count` uniformly sampled frames at `frame_rate` frames per second:
    /// `frames` holds every joint's local transform per frame, frame-major (frame `f`, joint
    /// `j` at `f * joints + j`), as importers produce them. Each joint `mask` lets in (all when
    /// `None`) gets translation, rotation and scale tracks keyed at `k / frame_rate` seconds,
    /// computed in f64 for each key and rounded once to f32 (never summed, so the last key
    /// never drifts past the duration); the other joints keep the rest pose. Rotations are
    /// normalized as the track setters do; every frame must be finite with a non-zero rotation,
    /// masked-out joints included. The duration is `(frame_count - 1) / frame_rate`,
    /// or with `wrap` one frame more, `frame_count / frame_rate`, with wrapping set
    /// ([`Self::set_wrap`]): a looping cycle authored without a duplicate end frame.
    /// `interpolation` is step, linear or slerp (cubic needs tangents the frames lack).
    pub fn from_frames(
        skeleton: &Skeleton,
        frame_count: usize,
        frame_rate: f32,
        frames: &[Transform],
        mask: Option<&[bool]>,
        interpolation: Interpolation,
        wrap: bool,
    ) -> Result<Self> {
        let invalid = |m: String| Err(Error::new(ErrorKind::InvalidArgument, m));
        let joints = skeleton.joint_count();
        if frame_count == 0 {
            return invalid("frame_count is 0: a clip needs at least one frame".into());
        }
        ensure_finite(frame_rate.is_finite(), "frame_rate")?;
        if frame_rate <= 0.0 {
            return invalid(format!("frame_rate {frame_rate} is not positive"));
        }
        if interpolation == Interpolation::Cubic {
            return invalid("frames have no tangents: use step, linear or slerp".into());
        }
        let expected = frame_count.checked_mul(joints);
        if expected != Some(frames.len()) {
            return Err(Error::new(
                ErrorKind::SizeMismatch,
                format!(
                    "{} transforms for {frame_count} frames of {joints} joints",
                    frames.len()
                ),
            ));
        }
        if let Some(mask) = mask.filter(|m| m.len() != joints) {
            return Err(Error::new(
                ErrorKind::SizeMismatch,
                format!("the mask has {} flags for {joints} joints", mask.len()),
            ));
        }
        // Every frame is checked, masked-out joints included: the data is the caller's whole
        // animation, and a bad value anywhere in it is a bug to report.
        for (i, t) in frames.iter().enumerate() {
            let at = || format!("frames[{i}] (frame {}, joint {})", i / joints, i % joints);
            let finite = t.translation.is_finite() && t.rotation.is_finite();
            if !(finite && t.scale.is_finite()) {
                let message = format!("{} is not finite", at());
                return Err(Error::new(ErrorKind::NonFinite, message));
            }
            if normalize_robust(t.rotation).is_none() {
                return invalid(format!("{} has a zero-length rotation", at()));
            }
        }
        let seconds = |k: usize| (k as f64 / f64::from(frame_rate)) as f32;
        let duration = seconds(if wrap { frame_count } else { frame_count - 1 });
        if !duration.is_finite() {
            return Err(Error::new(
                ErrorKind::NumericOverflow,
                format!("{frame_count} frames at frame_rate {frame_rate} overflow f32 seconds"),
            ));
        }
        let times: Vec<f32> = (0..frame_count).map(seconds).collect();
        let mut clip = Self::new(skeleton, duration)?;
        clip.wrap = wrap;
        let times: Arc<[f32]> = times.into();
        let mut values = Vec::with_capacity(frame_count);
        for j in (0..joints).filter(|&j| mask.is_none_or(|m| m[j])) {
            values.clear();
            values.extend(frames.iter().skip(j).step_by(joints));
            let track = |get: fn(&Transform) -> Vec3| {
                let v: Vec<Vec3> = values.iter().map(get).collect();
                Track::new(interpolation, &times, &v, None, duration)
            };
            let (translation, scale) = (track(|t| t.translation)?, track(|t| t.scale)?);
            let rotations: Vec<Quat> = values.iter().map(|t| t.rotation).collect();
            let rotation = Track::new(interpolation, &times, &rotations, None, duration)?;
            // Every track shares the one list of key times.
            clip.joints[j] = JointTracks {
                translation: Some(Track {
                    times: times.clone(),
                    ..translation
                }),
                rotation: Some(Track {
                    times: times.clone(),
                    ..rotation
                }),
                scale: Some(Track {
                    times: times.clone(),
                    ..scale
                }),
            };
        }
        clip.keyed = clip.keyed_span();
        clip.blocks = KeyBlocks::new(&mut clip.joints, None);
        Ok(clip)
    }

    /// Whether looping playback wraps from each track's last key to its first.
    pub fn wraps(&self) -> bool {
        self.wrap
    }

    /// Sets whether looping playback wraps: sampled with `looping`, a time after a track's last
    /// key `t_last` (or before its first, `t_first`) then interpolates from the last key to the
    /// first, as if the first were repeated at `t_first + duration`; the segment lasts
    /// `dt = (duration - t_last) + t_first` and the fraction is `(t - t_last) / dt` after the
    /// last key, `((duration - t_last) + t) / dt` before the first. Clamped playback, tracks of
    /// one key and clips of zero duration are unaffected.
    pub fn set_wrap(&mut self, wrap: bool) {
        self.wrap = wrap;
    }

    /// Length in seconds.
    pub fn duration(&self) -> f32 {
        self.duration
    }

    /// Number of joints the clip is for.
    pub fn joint_count(&self) -> usize {
        self.joints.len()
    }

    /// Fails unless every key of a track lies within the clip.
    fn check_fits<T>(&self, track: &Track<T>) -> Result<()> {
        let last = track.times.last().copied().unwrap_or(0.0);
        if last > self.duration {
            return Err(Error::new(
                ErrorKind::OutOfRange,
                format!(
                    "the track's last key at {last} lies past the clip's end at {}",
                    self.duration
                ),
            ));
        }
        Ok(())
    }

    fn slot(&mut self, joint: usize) -> Result<&mut JointTracks> {
        let count = self.joints.len();
        self.joints.get_mut(joint).ok_or_else(|| {
            Error::new(
                ErrorKind::OutOfRange,
                format!("joint {joint} is out of range ({count} joints)"),
            )
        })
    }

    /// Sets (replaces) a joint's translation track.
    pub fn set_translation_track(&mut self, joint: usize, track: Track<Vec3>) -> Result<()> {
        self.set_track(joint, track, Property::Translation, |j| &mut j.translation)
    }

    /// Sets (replaces) a joint's rotation track.
    pub fn set_rotation_track(&mut self, joint: usize, track: Track<Quat>) -> Result<()> {
        self.set_track(joint, track, Property::Rotation, |j| &mut j.rotation)
    }

    /// Sets (replaces) a joint's scale track.
    pub fn set_scale_track(&mut self, joint: usize, track: Track<Vec3>) -> Result<()> {
        self.set_track(joint, track, Property::Scale, |j| &mut j.scale)
    }

    /// Puts `track` in the slot `field` picks of joint `joint`'s tracks, once it fits the clip.
    fn set_track<T>(
        &mut self,
        joint: usize,
        mut track: Track<T>,
        property: Property,
        field: impl FnOnce(&mut JointTracks) -> &mut Option<Track<T>>,
    ) -> Result<()> {
        self.check_fits(&track)?;
        self.edit(joint, property, |slot| {
            slot.share_times(&mut track);
            *field(slot) = Some(track);
        })
    }

    /// Removes a joint's track for `property`, so it keeps the rest pose's value.
    pub fn clear_track(&mut self, joint: usize, property: Property) -> Result<()> {
        self.edit(joint, property, |slot| match property {
            Property::Translation => slot.translation = None,
            Property::Rotation => slot.rotation = None,
            Property::Scale => slot.scale = None,
        })
    }

    /// Changes joint `joint`'s track for `property` with `change`, then what derives from the
    /// tracks.
    fn edit(
        &mut self,
        joint: usize,
        property: Property,
        change: impl FnOnce(&mut JointTracks),
    ) -> Result<()> {
        self.slot(joint)?;
        let old = self.blocks.slot(&self.joints[joint], property);
        change(&mut self.joints[joint]);
        self.blocks.replaced(&mut self.joints, joint, property, old);
        self.keyed = self.keyed_span();
        Ok(())
    }

    /// The clip time for a playback time: wrapped into [0, duration) when looping, clamped
    /// into [0, duration] otherwise.
    pub fn local_time(&self, time: f32, looping: bool) -> f32 {
        if self.duration <= 0.0 {
            0.0
        } else if looping {
            let t = time.rem_euclid(self.duration);
            if t < self.duration {
                t
            } else {
                0.0
            }
        } else {
            time.clamp(0.0, self.duration)
        }
    }

    /// Replaces the staged value of every track whose wrap segment holds clip time `t` (cold:
    /// one frame interval per loop of a clip built from frames).
    #[cold]
    fn stage_wrapped(&self, t: f32, staged: &mut [SoaTransform]) {
        let d = self.duration;
        for (j, joint) in self.joints.iter().enumerate() {
            let mut value = staged.joint(j);
            let vector = |k: &Track<Vec3>| k.wrapped(t, d, Vec3::interpolate);
            if let Some(v) = joint.translation.as_ref().and_then(vector) {
                value.translation = v;
            }
            // Linear rotations are left for the same normalization pass as the main loop's.
            if let Some(q) = joint
                .rotation
                .as_ref()
                .and_then(|k| k.wrapped(t, d, rotation_between))
            {
                value.rotation = q;
            }
            if let Some(v) = joint.scale.as_ref().and_then(vector) {
                value.scale = v;
            }
            staged[j / 4].set(j % 4, &value);
        }
    }

    /// The latest first key and the earliest last key over every track of two keys or more
    /// (everything, -inf to +inf, without such tracks): times within it lie inside every
    /// track's keys, on no wrap segment.
    fn keyed_span(&self) -> (f32, f32) {
        let tracks = self.joints.iter().flat_map(|j| {
            let t = j.translation.as_ref().map(|k| &k.times);
            let r = j.rotation.as_ref().map(|k| &k.times);
            let s = j.scale.as_ref().map(|k| &k.times);
            [t, r, s].into_iter().flatten()
        });
        let keyed = tracks.filter(|times| times.len() > 1);
        keyed.fold((f32::NEG_INFINITY, f32::INFINITY), |(lo, hi), times| {
            (lo.max(times[0]), hi.min(times[times.len() - 1]))
        })
    }

    /// Samples the clip at playback `time` into `out` (looping or clamped). `cursor` (made for
    /// a clip of the same joint count) speeds up forward playback. Unchanged on error.
    pub fn sample(
        &self,
        time: f32,
        looping: bool,
        cursor: Option<&mut ClipCursor>,
        out: &mut Pose,
    ) -> Result<()> {
        ensure_finite(time.is_finite(), "sample time")?;
        out.check_len(self.joints.len())?;
        let mut keys = match cursor {
            Some(c) if c.keys.len() != self.joints.len() => {
                return Err(Error::new(
                    ErrorKind::SizeMismatch,
                    "the cursor was made for a clip of another joint count",
                ))
            }
            Some(c) => Some(c),
            None => None,
        };
        let t = self.local_time(time, looping);
        let Staging {
            staged, skeleton, ..
        } = out.staging();
        // Clips whose tracks share their key times, four joints at a time; others track by
        // track.
        let wrap = (looping && self.wrap && self.duration > 0.0).then_some(self.duration);
        let mut scratch = 0;
        let shared = keys.as_deref_mut().map_or(&mut scratch, |c| &mut c.shared);
        let blocks = self
            .blocks
            .sample(t, wrap, shared, skeleton.rest_blocks(), staged);
        let finite = match blocks {
            Some(finite) => finite,
            None => self.sample_tracks(t, looping, keys, staged, skeleton.rest_pose()),
        };
        if !finite {
            return Err(Error::new(
                ErrorKind::NumericOverflow,
                "the sampled pose is not representable in f32 (tangents too large)",
            ));
        }
        out.commit_staged(true)
    }

    /// Samples track by track at clip time `t` into `staged` (`rest` for joints without
    /// tracks), then normalizes; whether every component is finite.
    fn sample_tracks(
        &self,
        t: f32,
        looping: bool,
        mut keys: Option<&mut ClipCursor>,
        staged: &mut [SoaTransform],
        rest: &[Transform],
    ) -> bool {
        let keyed = self.keyed.0 <= t && t <= self.keyed.1;
        let wrapped = looping && self.wrap && self.duration > 0.0 && !keyed;
        for (i, joint) in self.joints.iter().enumerate() {
            let mut scratch = [0u32; 3];
            let [ct, cr, cs] = match keys.as_mut() {
                Some(c) => &mut c.keys[i],
                None => &mut scratch,
            };
            let r = &rest[i];
            // Tracks that share key times are located once.
            let mut located = None;
            // A closure marked for inlining: passed as a function item, the interpolation
            // stays an out-of-line call per track.
            #[allow(clippy::redundant_closure)]
            let vector = |k: &Track<Vec3>, at| {
                k.value_at(
                    at,
                    #[inline(always)]
                    |k, i, j, s, dt| Vec3::interpolate(k, i, j, s, dt),
                )
            };
            let value = Transform {
                translation: joint.translation.as_ref().map_or(r.translation, |k| {
                    vector(k, k.locate_after(t, ct, &mut located))
                }),
                rotation: joint.rotation.as_ref().map_or(r.rotation, |k| {
                    k.value_at(k.locate_after(t, cr, &mut located), rotation_between)
                }),
                scale: joint
                    .scale
                    .as_ref()
                    .map_or(r.scale, |k| vector(k, k.locate_after(t, cs, &mut located))),
            };
            staged[i / 4].set(i % 4, &value);
        }
        // A time outside some track's keys may lie on its wrap segment, where the loop above
        // held an end key: a second pass, only for those times, leaves the common path as it
        // was.
        if wrapped {
            self.stage_wrapped(t, staged);
        }
        // Lerped rotations are normalized here; every other one is unit and passes through.
        normalize_blocks(staged, rest.len(), |_, q| q)
    }
}

/// Per-track key positions remembered between samples of a clip (any clip of the same joint
/// count), so that playing forward costs O(1) per track per frame.
#[derive(Clone, Debug, PartialEq)]
pub struct ClipCursor {
    /// Translation, rotation and scale key index per joint.
    keys: Vec<[u32; 3]>,
    /// The key index on a clip's shared key times (clips sampled four joints at a time).
    shared: u32,
}

impl ClipCursor {
    /// A cursor for clips of `clip`'s joint count.
    pub fn new(clip: &Clip) -> Self {
        Self::for_joints(clip.joint_count())
    }

    /// A cursor for clips of `joint_count` joints.
    pub fn for_joints(joint_count: usize) -> Self {
        Self {
            keys: vec![[0; 3]; joint_count],
            shared: 0,
        }
    }
}
