//! The keys of a clip whose tracks all share one list of key times, four joints per block
//! (key `k`, block `b`: the translation, rotation and scale rows of joints `4b..4b + 4`), so a
//! sample locates the time once and interpolates four joints per instruction.
//!
//! The layout is kept current by every track edit (in O(keys) for the track, or one pass over
//! the clip when the shared key times change) and exists exactly when every track of two keys
//! or more is linear and keyed at the same times. Sampling then gives the same bits as track by
//! track: the same operations per component, in the same order.

use std::sync::Arc;

use super::{locate, wrap_fraction, Interpolation, JointTracks, KeyPosition, Property};
use crate::simd::{F4, M4};
use crate::soa::{blocks, same_hemisphere4, Finish, Rows, SoaTransform};

const PROPERTIES: [Property; 3] = [Property::Translation, Property::Rotation, Property::Scale];

/// What a joint's track for one property contributes to the layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Slot {
    /// No track: the rest pose's value.
    Missing,
    /// One key: its value at every time.
    Constant,
    /// A linear track keyed at the layout's times.
    Keyed,
    /// Any other track of two keys or more: the clip is sampled track by track.
    Other,
}

/// Which lanes of a block take which value, one bit per lane, per property (translation,
/// rotation, scale): `keyed` lanes interpolate the keys, `rest` lanes take the rest pose, the
/// others their one-key track's value.
#[derive(Clone, Copy, Debug)]
struct Lanes {
    keyed: [u8; 3],
    rest: [u8; 3],
}

impl Lanes {
    /// Every lane of every property interpolates.
    fn all_keyed(&self) -> bool {
        self.keyed == [0b1111; 3]
    }
}

/// The block layout proper.
#[derive(Clone, Debug)]
struct Layout {
    /// The clip's joint count.
    joints: usize,
    /// Key `k`, block `b` at `k * blocks + b`.
    keys: Vec<SoaTransform>,
    /// The values of one-key tracks, per block.
    constant: Vec<SoaTransform>,
    lanes: Vec<Lanes>,
}

/// A clip's shared key times and, when every track allows it, its keys in blocks.
#[derive(Clone, Debug, Default)]
pub(super) struct KeyBlocks {
    /// The key times of the layout; tracks keyed at them share this list.
    times: Option<Arc<[f32]>>,
    /// Linear tracks of two keys or more keyed at `times`.
    keyed: usize,
    /// The other tracks of two keys or more.
    other: usize,
    /// Present exactly when `keyed > 0` and `other == 0`.
    layout: Option<Layout>,
}

/// Where a sample falls on the shared keys.
#[derive(Clone, Copy, Debug)]
enum Span {
    /// On key `k`: its values exactly.
    Key(usize),
    /// From key `i` to key `j`, a fraction `s` of the way.
    Between(usize, usize, f32),
}

impl KeyBlocks {
    /// The layout of `joints`' tracks, with the key times of `preferred` (when given) or of the
    /// first linear track of two keys or more.
    pub(super) fn new(joints: &mut [JointTracks], preferred: Option<Arc<[f32]>>) -> Self {
        let first_linear = || {
            joints.iter().find_map(|j| {
                PROPERTIES
                    .into_iter()
                    .find_map(|p| linear_times(j, p).cloned())
            })
        };
        let mut blocks = Self {
            times: preferred.or_else(first_linear),
            ..Self::default()
        };
        for joint in joints.iter_mut() {
            for p in PROPERTIES {
                let slot = blocks.classify(joint, p);
                blocks.add(slot);
                blocks.share(joint, p, slot);
            }
        }
        if blocks.keyed > 0 && blocks.other == 0 {
            let layout = Layout::new(joints.len(), blocks.key_count());
            blocks.layout = Some(layout);
            for (j, joint) in joints.iter().enumerate() {
                for p in PROPERTIES {
                    blocks.place(joint, j, p);
                }
            }
        }
        blocks
    }

    /// Updates the layout after joint `joint`'s track for `property` changed from `old` (the
    /// tracks as they were, [`Self::slot`]) to what `joints` now holds.
    pub(super) fn replaced(
        &mut self,
        joints: &mut [JointTracks],
        joint: usize,
        property: Property,
        old: SlotOf,
    ) {
        let had_keyed = self.keyed > 0;
        if let Some(count) = self.count(old.0) {
            *count -= 1;
        }
        if self.keyed == 0 {
            // The shared times have no track left (or never had one): the new track's times,
            // or else the first linear track's, become the shared times.
            match linear_times(&joints[joint], property) {
                Some(times) if !self.is(times) => {
                    *self = Self::new(joints, Some(times.clone()));
                    return;
                }
                None if had_keyed => {
                    *self = Self::new(joints, None);
                    return;
                }
                _ => {}
            }
        }
        let slot = self.classify(&joints[joint], property);
        self.add(slot);
        self.share(&mut joints[joint], property, slot);
        if self.keyed == 0 || self.other > 0 {
            self.layout = None;
        } else if self.layout.is_none() {
            *self = Self::new(joints, self.times.clone());
        } else {
            self.place(&joints[joint], joint, property);
        }
    }

    /// What joint `joint`'s track for `property` is to the layout now (for [`Self::replaced`]).
    pub(super) fn slot(&self, joint: &JointTracks, property: Property) -> SlotOf {
        SlotOf(self.classify(joint, property))
    }

    /// Whether samples take the block path.
    #[cfg(test)]
    pub(super) fn ready(&self) -> bool {
        self.layout.is_some()
    }

    /// Samples every joint at clip time `t` into `staged`, with one-key tracks' values and
    /// `rest`'s where there are no tracks, rotations normalized as track by track; `wrap` is
    /// the clip's duration when samples before the first key or after the last lie on the wrap
    /// segment, `cursor` as [`locate`] takes it. Whether every component is finite, or `None`
    /// without a layout (the clip is then sampled track by track).
    #[inline]
    pub(super) fn sample(
        &self,
        t: f32,
        wrap: Option<f32>,
        cursor: &mut u32,
        rest: &[SoaTransform],
        staged: &mut [SoaTransform],
    ) -> Option<bool> {
        let (Some(layout), Some(times)) = (&self.layout, &self.times) else {
            return None;
        };
        let n = layout.lanes.len();
        let mut finish = Finish::default();
        let blocks = staged.iter_mut().zip(&layout.lanes).zip(&layout.constant);
        let joints = layout.joints;
        match span(times, t, wrap, cursor) {
            Span::Key(k) => {
                let keys = &layout.keys[k * n..(k + 1) * n];
                for (b, ((out, lanes), constant)) in blocks.enumerate() {
                    let mut rows = keys[b].rows();
                    fill(&mut rows, lanes, &rest[b], constant);
                    finish.store(&mut rows, out, b, joints, &|_, q| q);
                }
            }
            Span::Between(i, j, s) => {
                let (from, to) = (&layout.keys[i * n..(i + 1) * n], &layout.keys[j * n..]);
                for (b, ((out, lanes), constant)) in blocks.enumerate() {
                    let mut rows = lerp(&from[b], &to[b], s);
                    fill(&mut rows, lanes, &rest[b], constant);
                    finish.store(&mut rows, out, b, joints, &|_, q| q);
                }
            }
        }
        Some(finish.finite(staged))
    }

    fn key_count(&self) -> usize {
        self.times.as_ref().map_or(0, |t| t.len())
    }

    /// Whether `times` are the layout's.
    fn is(&self, times: &Arc<[f32]>) -> bool {
        self.times
            .as_ref()
            .is_some_and(|t| Arc::ptr_eq(t, times) || t == times)
    }

    fn classify(&self, joint: &JointTracks, property: Property) -> Slot {
        match joint.keys_of(property) {
            None => Slot::Missing,
            Some((times, _)) if times.len() == 1 => Slot::Constant,
            Some((times, Interpolation::Linear)) if self.is(times) => Slot::Keyed,
            Some(_) => Slot::Other,
        }
    }

    /// The count that tracks of `slot` make up, if any.
    fn count(&mut self, slot: Slot) -> Option<&mut usize> {
        match slot {
            Slot::Keyed => Some(&mut self.keyed),
            Slot::Other => Some(&mut self.other),
            Slot::Missing | Slot::Constant => None,
        }
    }

    fn add(&mut self, slot: Slot) {
        if let Some(count) = self.count(slot) {
            *count += 1;
        }
    }

    /// Makes a keyed track share the layout's list of times.
    fn share(&self, joint: &mut JointTracks, property: Property, slot: Slot) {
        if let (Slot::Keyed, Some(times)) = (slot, &self.times) {
            joint.set_times(property, times.clone());
        }
    }

    /// Writes joint `j`'s track for `property` into the layout's lanes.
    fn place(&mut self, joint: &JointTracks, j: usize, property: Property) {
        let (slot, keys) = (self.classify(joint, property), self.key_count());
        let Some(layout) = &mut self.layout else {
            return;
        };
        let (b, lane, p) = (j / 4, j % 4, property as usize);
        let write = |block: &mut SoaTransform, k: usize| {
            let value = joint.key(property, k);
            for (row, v) in rows_of(block, property).iter_mut().zip(value) {
                row[lane] = v;
            }
        };
        let n = layout.lanes.len();
        let lanes = &mut layout.lanes[b];
        let bit = 1u8 << lane;
        lanes.keyed[p] &= !bit;
        lanes.rest[p] &= !bit;
        match slot {
            Slot::Missing => lanes.rest[p] |= bit,
            Slot::Constant => write(&mut layout.constant[b], 0),
            Slot::Keyed => {
                lanes.keyed[p] |= bit;
                for k in 0..keys {
                    write(&mut layout.keys[k * n + b], k);
                }
            }
            Slot::Other => unreachable!("the layout exists only without other tracks"),
        }
    }
}

/// Where clip time `t` falls on the key `times`, on the wrap segment (from the last key to the
/// first) when `wrap` (the clip's duration) is given and `t` lies before the first key or after
/// the last, as each track finds it ([`locate`], [`wrap_fraction`]).
#[inline(always)]
fn span(times: &[f32], t: f32, wrap: Option<f32>, cursor: &mut u32) -> Span {
    let last = times.len() - 1;
    if let Some((s, _)) = wrap.and_then(|duration| wrap_fraction(times, t, duration)) {
        *cursor = if t > times[last] { last as u32 } else { 0 };
        return Span::Between(last, 0, s);
    }
    match locate(times, t, cursor) {
        KeyPosition::Key(k) => Span::Key(k),
        KeyPosition::Between(i, s, _) => Span::Between(i, i + 1, s),
    }
}

/// A track's [`Slot`] before an edit, to hand back to [`KeyBlocks::replaced`].
#[derive(Clone, Copy, Debug)]
pub(super) struct SlotOf(Slot);

impl Layout {
    /// Room for `keys` keys of `joints` joints, every lane on the rest pose.
    fn new(joints: usize, keys: usize) -> Self {
        let n = blocks(joints);
        Self {
            joints,
            keys: vec![SoaTransform::IDENTITY; keys * n],
            constant: vec![SoaTransform::IDENTITY; n],
            lanes: vec![
                Lanes {
                    keyed: [0; 3],
                    rest: [0b1111; 3],
                };
                n
            ],
        }
    }
}

/// The key times of `joint`'s track for `property` when it is linear with two keys or more.
fn linear_times(joint: &JointTracks, property: Property) -> Option<&Arc<[f32]>> {
    match joint.keys_of(property) {
        Some((times, Interpolation::Linear)) if times.len() > 1 => Some(times),
        _ => None,
    }
}

/// The rows of one property of a block.
fn rows_of(block: &mut SoaTransform, property: Property) -> &mut [[f32; 4]] {
    match property {
        Property::Translation => &mut block.t,
        Property::Rotation => &mut block.r,
        Property::Scale => &mut block.s,
    }
}

/// Four joints interpolated from block `a` toward `b`: as `Vec3`'s linear interpolation,
/// `a * (1 - s) + b * s`, and the unnormalized nlerp of rotations,
/// `a + (same_hemisphere(b, a) - a) * s`, component by component.
#[inline(always)]
fn lerp(a: &SoaTransform, b: &SoaTransform, s: f32) -> Rows {
    let (a, b) = (a.rows(), b.rows());
    let (u, v) = (F4::splat(1.0 - s), F4::splat(s));
    let near = same_hemisphere4(&b.r, &a.r);
    Rows {
        t: [0, 1, 2].map(|c| a.t[c] * u + b.t[c] * v),
        r: [0, 1, 2, 3].map(|c| a.r[c] + (near[c] - a.r[c]) * v),
        s: [0, 1, 2].map(|c| a.s[c] * u + b.s[c] * v),
    }
}

/// Puts the rest pose's and one-key tracks' values into the lanes without keys.
#[inline(always)]
fn fill(rows: &mut Rows, lanes: &Lanes, rest: &SoaTransform, constant: &SoaTransform) {
    if lanes.all_keyed() {
        return;
    }
    let (rest, constant) = (rest.rows(), constant.rows());
    let mask = |bits: [u8; 3], p: usize| M4::from_bitmask(u32::from(bits[p]));
    let pick = |p: usize, row: &mut F4, r: F4, c: F4| {
        let fixed = F4::select(mask(lanes.rest, p), r, c);
        *row = F4::select(mask(lanes.keyed, p), *row, fixed);
    };
    for c in 0..3 {
        pick(0, &mut rows.t[c], rest.t[c], constant.t[c]);
        pick(2, &mut rows.s[c], rest.s[c], constant.s[c]);
    }
    for c in 0..4 {
        pick(1, &mut rows.r[c], rest.r[c], constant.r[c]);
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use glam::{Quat, Vec3};
    use proptest::prelude::*;

    use super::super::{Clip, ClipCursor, Interpolation, Property, Track};
    use crate::pose::Pose;
    use crate::skeleton::Skeleton;
    use crate::soa::{JointTransforms, SoaTransform};
    use crate::transform::Transform;

    const DURATION: f32 = 2.0;
    /// Two lists of key times: the first wraps at both ends, the second spans the clip.
    const TIMES: [&[f32]; 2] = [&[0.25, 0.5, 0.625, 1.0, 1.5, 1.75], &[0.0, 1.0, 2.0]];

    /// What an edit puts in a joint's slot for one property.
    #[derive(Clone, Copy, Debug)]
    enum Edit {
        Clear,
        OneKey,
        Linear(usize),
        Step(usize),
    }

    fn edit() -> impl Strategy<Value = Edit> {
        // Mostly the first key times, so that clips often share them.
        prop_oneof![
            2 => Just(Edit::Clear),
            1 => Just(Edit::OneKey),
            8 => Just(Edit::Linear(0)),
            1 => Just(Edit::Linear(1)),
            2 => (0usize..2).prop_map(Edit::Step),
        ]
    }

    /// A distinct value per seed and key: vectors with a negative zero, rotations not unit and
    /// on either side of the hemisphere.
    fn vector(seed: u32, k: usize) -> Vec3 {
        let f = seed as f32 * 0.37 + k as f32 * 1.3;
        Vec3::new(
            f.sin() * 2.0,
            if k % 3 == 0 { -0.0 } else { f.cos() },
            0.5 + f.sin().abs(),
        )
    }

    fn rotation(seed: u32, k: usize) -> Quat {
        let f = seed as f32 * 0.91 + k as f32 * 0.7;
        let q = Quat::from_euler(glam::EulerRot::XYZ, f, -0.4 * f, 1.0 + f) * 1.5;
        if (seed as usize + k) % 3 == 0 {
            -q
        } else {
            q
        }
    }

    fn apply(clip: &mut Clip, joint: usize, property: Property, edit: Edit, seed: u32) {
        let (kind, times): (_, &[f32]) = match edit {
            Edit::Clear => return clip.clear_track(joint, property).unwrap(),
            Edit::OneKey => (Interpolation::Linear, &[0.75]),
            Edit::Linear(t) => (Interpolation::Linear, TIMES[t]),
            Edit::Step(t) => (Interpolation::Step, TIMES[t]),
        };
        let n = times.len();
        let vectors: Vec<Vec3> = (0..n).map(|k| vector(seed, k)).collect();
        let vectors = Track::new(kind, times, &vectors, None, DURATION).unwrap();
        match property {
            Property::Translation => clip.set_translation_track(joint, vectors),
            Property::Scale => clip.set_scale_track(joint, vectors),
            Property::Rotation => {
                let q: Vec<Quat> = (0..n).map(|k| rotation(seed, k)).collect();
                let q = Track::new(kind, times, &q, None, DURATION).unwrap();
                clip.set_rotation_track(joint, q)
            }
        }
        .unwrap();
    }

    /// Whether every track of two keys or more is linear, keyed at the same times, and there
    /// is one.
    fn shares_times(clip: &Clip) -> bool {
        let mut times: Vec<(&Arc<[f32]>, Interpolation)> = clip
            .joints
            .iter()
            .flat_map(|j| super::PROPERTIES.map(|p| j.keys_of(p)))
            .flatten()
            .filter(|(t, _)| t.len() > 1)
            .collect();
        times.dedup_by(|a, b| a.0 == b.0 && a.1 == b.1);
        matches!(times[..], [(_, Interpolation::Linear)])
    }

    /// The linear tracks of two keys or more keyed at the layout's times, and the other tracks
    /// of two keys or more.
    fn counts(clip: &Clip) -> (usize, usize) {
        let tracks = clip
            .joints
            .iter()
            .flat_map(|j| super::PROPERTIES.map(|p| j.keys_of(p)));
        let multi = tracks.flatten().filter(|(t, _)| t.len() > 1);
        let at = |t: &Arc<[f32]>| clip.blocks.times.as_ref() == Some(t);
        let (keyed, other): (Vec<_>, Vec<_>) =
            multi.partition(|&(t, i)| i == Interpolation::Linear && at(t));
        (keyed.len(), other.len())
    }

    fn skeleton(joints: usize) -> Arc<Skeleton> {
        let parents: Vec<i32> = (0..joints as i32).map(|j| j - 1).collect();
        let rest: Vec<Transform> = (0..joints)
            .map(|j| Transform {
                translation: vector(100 + j as u32, 0),
                rotation: rotation(200 + j as u32, 0).normalize(),
                scale: vector(300 + j as u32, 1).abs() + Vec3::splat(0.1),
            })
            .collect();
        Arc::new(Skeleton::new(&parents, &rest, None).unwrap())
    }

    fn transform_bits(t: &Transform) -> Vec<u32> {
        let (t, r, s) = (t.translation, t.rotation, t.scale);
        [t.to_array(), s.to_array()]
            .concat()
            .into_iter()
            .chain(r.to_array())
            .map(f32::to_bits)
            .collect()
    }

    /// Samples `clip` through [`Clip::sample`] (with and without a cursor) and track by track,
    /// at every time of `times`, and asserts the same bits.
    fn assert_samples_like_tracks(clip: &Clip, s: &Arc<Skeleton>, times: &[f32]) {
        let joints = s.joint_count();
        let mut cursor = ClipCursor::new(clip);
        let (mut with, mut without) = (Pose::new(s.clone()), Pose::new(s.clone()));
        for looping in [false, true] {
            for &t in times {
                clip.sample(t, looping, Some(&mut cursor), &mut with)
                    .unwrap();
                clip.sample(t, looping, None, &mut without).unwrap();
                let mut staged = vec![SoaTransform::IDENTITY; joints.div_ceil(4)];
                let local = clip.local_time(t, looping);
                assert!(clip.sample_tracks(local, looping, None, &mut staged, s.rest_pose()));
                for j in 0..joints {
                    let want = transform_bits(&staged[..].joint(j));
                    let what = format!("t {t} looping {looping} wrap {} joint {j}", clip.wrap);
                    assert_eq!(transform_bits(&with.local().get(j)), want, "{what}");
                    assert_eq!(transform_bits(&without.local().get(j)), want, "{what}");
                }
            }
        }
    }

    /// Keys, between keys, before the first and after the last key, the clip's ends, outside
    /// it; then forward playback at 60 Hz through the loop point.
    fn sample_times() -> Vec<f32> {
        let special = [
            0.0, 0.1, 0.25, 0.3, 0.5, 0.6, 0.625, 0.9, 1.0, 1.2, 1.5, 1.6, 1.75, 1.9, 2.0, -0.3,
            2.7, 5.1, -4.05,
        ];
        let forward = (0..150).map(|f| f as f32 / 60.0);
        special.into_iter().chain(forward).collect()
    }

    proptest! {
        #![proptest_config(ProptestConfig {
            cases: 256,
            failure_persistence: None,
            ..ProptestConfig::default()
        })]

        /// After any sequence of edits, the clip takes the block path exactly when its tracks
        /// share their key times, and samples with the same bits as track by track, every
        /// joint count (partial blocks), wrap flag and playback mode included.
        #[test]
        #[cfg_attr(miri, ignore)]
        fn edits_keep_the_block_layout_current(
            joints in 1usize..11,
            edits in prop::collection::vec((0usize..11, 0usize..3, edit(), 0u32..1000), 1..30),
        ) {
            let s = skeleton(joints);
            let mut clip = Clip::new(&s, DURATION).unwrap();
            let properties = super::PROPERTIES;
            for (e, &(joint, property, edit, seed)) in edits.iter().enumerate() {
                apply(&mut clip, joint % joints, properties[property], edit, seed);
                prop_assert_eq!(clip.blocks.ready(), shares_times(&clip), "edit {}", e);
                prop_assert_eq!(counts(&clip), (clip.blocks.keyed, clip.blocks.other));
                let rebuilt = super::KeyBlocks::new(&mut clip.joints.clone(), None);
                prop_assert_eq!(rebuilt.ready(), clip.blocks.ready());
                assert_samples_like_tracks(&clip, &s, &[0.1, 0.6, 1.0, 1.9]);
            }
            for wrap in [false, true] {
                clip.set_wrap(wrap);
                assert_samples_like_tracks(&clip, &s, &sample_times());
            }
        }
    }

    /// A clip from frames (every joint keyed, or some masked out) takes the block path and
    /// samples like its tracks, at and between frames and across the wrap segment.
    #[test]
    #[cfg_attr(miri, ignore)] // minutes under Miri; tests/ffi_miri.rs samples a frames clip
    fn frames_clips_take_the_block_path() {
        for joints in [1, 4, 7, 9] {
            let s = skeleton(joints);
            let frames: Vec<Transform> = (0..5 * joints)
                .map(|i| Transform {
                    translation: vector(i as u32, 1),
                    rotation: rotation(i as u32, 2),
                    scale: vector(i as u32, 3),
                })
                .collect();
            let mask: Vec<bool> = (0..joints).map(|j| j % 3 != 1).collect();
            for (mask, wrap) in [(None, false), (None, true), (Some(&mask[..]), true)] {
                let linear = Interpolation::Linear;
                let clip = Clip::from_frames(&s, 5, 2.5, &frames, mask, linear, wrap).unwrap();
                assert!(clip.blocks.ready(), "{joints} joints");
                assert_samples_like_tracks(&clip, &s, &sample_times());
            }
        }
    }

    /// Edits that leave the shared key times without a track move them to the times the
    /// remaining tracks share; a frames clip with some tracks cleared or made constant keeps
    /// the block path, with the rest pose and the constants in their lanes.
    #[test]
    #[cfg_attr(miri, ignore)] // minutes under Miri; tests/ffi_miri.rs samples a frames clip
    fn the_shared_times_follow_the_tracks() {
        use Edit::*;
        use Property::*;
        let s = skeleton(6);
        let check = |edits: &[(usize, Property, Edit)], ready: bool| {
            let mut clip = Clip::new(&s, DURATION).unwrap();
            for (i, &(joint, property, edit)) in edits.iter().enumerate() {
                apply(&mut clip, joint, property, edit, i as u32);
            }
            assert_eq!(clip.blocks.ready(), ready, "{edits:?}");
            clip.set_wrap(true);
            assert_samples_like_tracks(&clip, &s, &sample_times());
        };
        let two = [(0, Translation, Linear(0)), (1, Rotation, Linear(1))];
        check(&two, false);
        check(&[two[0], two[1], (0, Translation, Clear)], true);
        check(&[two[0], two[1], (0, Translation, OneKey)], true);
        check(&[two[0], two[1], (0, Translation, Step(1))], false);
        check(&[two[0], two[1], (1, Rotation, Linear(0))], true);
        check(&[two[0], two[1], (0, Translation, Linear(1))], true);
        check(
            &[two[0], (0, Rotation, Linear(0)), (0, Translation, Clear)],
            true,
        );

        let frames: Vec<Transform> = (0..3 * 6)
            .map(|i| Transform {
                translation: vector(i as u32, 1),
                rotation: rotation(i as u32, 2),
                scale: vector(i as u32, 3),
            })
            .collect();
        let linear = Interpolation::Linear;
        let mut clip = Clip::from_frames(&s, 3, 1.0, &frames, None, linear, true).unwrap();
        let duration = clip.duration();
        clip.clear_track(1, Scale).unwrap();
        let one = Track::new(linear, &[0.5], &[rotation(7, 0)], None, duration).unwrap();
        clip.set_rotation_track(2, one).unwrap();
        clip.clear_track(5, Translation).unwrap();
        assert!(clip.blocks.ready());
        assert_samples_like_tracks(&clip, &s, &sample_times());
    }
}
