//! Pose fixtures: a small body skeleton and poses of it (`tests/blend.rs`, `tests/additive.rs`),
//! bit and closeness comparisons of poses, sampling a clip into a new pose (`tests/clip.rs`,
//! `tests/crossfade.rs`), proptest strategies for local transforms and mask weights, and C ABI
//! handles of the body skeleton.

use std::ptr;
use std::sync::Arc;

use proptest::prelude::*;
use sinew::clip::Keyframe;
use sinew::ffi::{
    sinew_joint_mask_create_subtree, sinew_joint_mask_destroy, sinew_pose_create,
    sinew_pose_destroy, sinew_pose_get_local, sinew_pose_set_local, sinew_skeleton_destroy,
    SinewJointMask, SinewPose, SinewSkeleton, SinewStatus, SinewTransform,
};
use sinew::{
    BlendSpace, Clip, Interpolation, JointMask, Layer, Pose, Quat, Skeleton, Track, Transform, Vec3,
};

use super::ffi::c_skeleton_of;
use super::props::{unit_quat, vec3};
use super::rotations::rot_between;

pub const PELVIS: usize = 0;
pub const SPINE: usize = 1;
pub const CHEST: usize = 2;
pub const HEAD: usize = 3;
pub const L_ARM: usize = 4;
pub const L_HAND: usize = 5;
pub const L_THIGH: usize = 6;
pub const L_SHIN: usize = 7;
pub const R_ARM: usize = 8;
pub const R_THIGH: usize = 9;
/// A small body: pelvis -> spine -> chest -> {head, l_arm -> l_hand, r_arm}, pelvis -> legs.
/// The right arm comes after the left leg, so subtrees are not contiguous index ranges.
pub const PARENTS: [i32; 10] = [-1, 0, 1, 2, 2, 4, 0, 6, 2, 0];

pub const N: usize = PARENTS.len();

pub fn body() -> Arc<Skeleton> {
    let rest: Vec<Transform> = (0..N)
        .map(|i| {
            let f = i as f32;
            Transform::new(
                Vec3::new(0.1 * f, 0.3 + 0.05 * f, -0.02 * f),
                Quat::from_euler(glam::EulerRot::XYZ, 0.1 * f, -0.05 * f, 0.2),
                Vec3::splat(1.0 + 0.01 * f),
            )
        })
        .collect();
    Arc::new(Skeleton::new(&PARENTS, &rest, None).unwrap())
}

/// A transform from its translation, rotation and scale, for fixtures.
pub fn trs(translation: [f32; 3], rotation: Quat, scale: [f32; 3]) -> Transform {
    Transform::new(translation.into(), rotation, scale.into())
}

/// A valid track of `values` at `times` with `interpolation` (no tangents) in a clip of
/// `duration` seconds.
pub fn track<T: Keyframe>(
    interpolation: Interpolation,
    times: &[f32],
    values: &[T],
    duration: f32,
) -> Track<T> {
    Track::new(interpolation, times, values, None, duration).unwrap()
}

/// A valid cubic track of `values` at `times`, with `(in, out)` tangents.
pub fn cubic<T: Keyframe>(
    times: &[f32],
    values: &[T],
    (ins, outs): (&[T], &[T]),
    duration: f32,
) -> Track<T> {
    Track::new(
        Interpolation::Cubic,
        times,
        values,
        Some((ins, outs)),
        duration,
    )
    .unwrap()
}

/// A skeleton without names.
pub fn skeleton_of(parents: &[i32], rest: &[Transform]) -> Arc<Skeleton> {
    Arc::new(Skeleton::new(parents, rest, None).unwrap())
}

pub fn pose_of(skeleton: &Arc<Skeleton>, local: &[Transform]) -> Pose {
    let mut p = Pose::new(skeleton.clone());
    p.set_local(local).unwrap();
    p
}

pub fn transform_bits(t: &Transform) -> [u32; 10] {
    let (v, q, s) = (t.translation, t.rotation, t.scale);
    [v.x, v.y, v.z, q.x, q.y, q.z, q.w, s.x, s.y, s.z].map(f32::to_bits)
}

/// A pose's local transforms, bit for bit.
pub fn bits(p: &Pose) -> Vec<[u32; 10]> {
    p.local().iter().map(|t| transform_bits(&t)).collect()
}

pub fn close_vec(a: Vec3, b: Vec3, eps: f32) -> bool {
    (a - b).abs().max_element() <= eps * (1.0 + a.abs().max_element().max(b.abs().max_element()))
}

pub fn assert_close_transform(got: &Transform, want: &Transform, eps: f32, what: &str) {
    assert!(
        close_vec(got.translation, want.translation, eps),
        "{what}: translation {} vs {}",
        got.translation,
        want.translation
    );
    assert!(
        rot_between(got.rotation, want.rotation) <= eps * 4.0,
        "{what}: rotation {} vs {} ({} rad apart)",
        got.rotation,
        want.rotation,
        rot_between(got.rotation, want.rotation)
    );
    assert!(
        close_vec(got.scale, want.scale, eps),
        "{what}: scale {} vs {}",
        got.scale,
        want.scale
    );
}

pub fn assert_close_pose(got: &Pose, want: &Pose, eps: f32, what: &str) {
    for (i, (g, w)) in got.local().iter().zip(want.local()).enumerate() {
        assert_close_transform(&g, &w, eps, &format!("{what}, joint {i}"));
    }
}

/// Positive, non-uniform, non-unit scales.
pub fn scale() -> impl Strategy<Value = Vec3> {
    (0.25f32..4.0, 0.25f32..4.0, 0.25f32..4.0).prop_map(|(x, y, z)| Vec3::new(x, y, z))
}

pub fn transform() -> impl Strategy<Value = Transform> {
    (vec3(3.0), unit_quat(), scale()).prop_map(|(t, r, s)| Transform::new(t, r, s))
}

pub fn locals() -> impl Strategy<Value = Vec<Transform>> {
    prop::collection::vec(transform(), N)
}

/// Mask weights mixing exact 0s, exact 1s and fractions.
pub fn mask_weights() -> impl Strategy<Value = Vec<f32>> {
    prop::collection::vec(prop_oneof![Just(0.0f32), Just(1.0f32), 0.0f32..=1.0], N)
}

pub fn mask_of(skeleton: &Skeleton, weights: &[f32]) -> JointMask {
    let mut m = JointMask::uniform(skeleton, 0.0).unwrap();
    m.set_weights(weights).unwrap();
    m
}

pub const SPACES: [BlendSpace; 2] = [BlendSpace::Local, BlendSpace::ModelRotation];

pub fn layer<'a>(pose: &'a Pose, weight: f32, mask: Option<&'a JointMask>) -> Layer<'a> {
    Layer { pose, weight, mask }
}

pub struct Handles {
    pub skeleton: *mut SinewSkeleton,
    pub poses: Vec<*mut SinewPose>,
    pub masks: Vec<*mut SinewJointMask>,
}

impl Handles {
    pub fn new(skeleton: &Skeleton) -> Self {
        Self {
            skeleton: c_skeleton_of(skeleton),
            poses: Vec::new(),
            masks: Vec::new(),
        }
    }

    pub fn pose(&mut self, local: &[Transform]) -> *mut SinewPose {
        let mut p = ptr::null_mut();
        // SAFETY: live skeleton handle, valid out pointer, `local` holds the joint count.
        unsafe {
            assert_eq!(sinew_pose_create(self.skeleton, &mut p), SinewStatus::Ok);
            let c: Vec<SinewTransform> = local.iter().map(|&t| to_c(t)).collect();
            assert_eq!(
                sinew_pose_set_local(p, c.as_ptr(), c.len() as u32),
                SinewStatus::Ok
            );
        }
        self.poses.push(p);
        p
    }

    pub fn subtree_mask(&mut self, root: u32) -> *mut SinewJointMask {
        let mut m = ptr::null_mut();
        // SAFETY: live skeleton handle, valid out pointer.
        let status = unsafe { sinew_joint_mask_create_subtree(self.skeleton, root, 0, &mut m) };
        assert_eq!(status, SinewStatus::Ok);
        self.masks.push(m);
        m
    }
}

impl Drop for Handles {
    fn drop(&mut self) {
        // SAFETY: every handle was created above and is destroyed once.
        unsafe {
            for &p in &self.poses {
                sinew_pose_destroy(p);
            }
            for &m in &self.masks {
                sinew_joint_mask_destroy(m);
            }
            sinew_skeleton_destroy(self.skeleton);
        }
    }
}

pub fn to_c(t: Transform) -> SinewTransform {
    SinewTransform::from(t)
}

pub fn c_bits(pose: *const SinewPose) -> Vec<[u32; 10]> {
    let mut out = vec![SinewTransform::default(); N];
    // SAFETY: live pose handle of N joints.
    let status = unsafe { sinew_pose_get_local(pose, out.as_mut_ptr(), N as u32) };
    assert_eq!(status, SinewStatus::Ok);
    out.iter()
        .map(|c| {
            [
                c.translation.x,
                c.translation.y,
                c.translation.z,
                c.rotation.x,
                c.rotation.y,
                c.rotation.z,
                c.rotation.w,
                c.scale.x,
                c.scale.y,
                c.scale.z,
            ]
            .map(f32::to_bits)
        })
        .collect()
}

pub fn sample_locals(seed: f32) -> Vec<Transform> {
    (0..N)
        .map(|i| {
            let f = i as f32 + seed;
            Transform::new(
                Vec3::new(f.sin(), 0.5 * f.cos(), 0.1 * f),
                Quat::from_euler(glam::EulerRot::XYZ, 0.3 * f, -0.7 * f, 1.1 + f),
                Vec3::new(1.0 + 0.1 * f, 0.8, 1.2),
            )
        })
        .collect()
}

/// `clip` sampled at `time` into a new pose of `s` (no cursor).
pub fn sample(clip: &Clip, s: &Arc<Skeleton>, time: f32, looping: bool) -> Pose {
    let mut out = Pose::new(s.clone());
    clip.sample(time, looping, None, &mut out).unwrap();
    out
}

/// Two sample poses of the body skeleton and a mask of the chest's subtree, and the same
/// through the C ABI: C poses holding `a`, `b` and `a` again (an output) and the C mask.
pub struct CPair {
    pub s: Arc<Skeleton>,
    pub la: Vec<Transform>,
    pub lb: Vec<Transform>,
    pub a: Pose,
    pub b: Pose,
    pub mask: JointMask,
    pub h: Handles,
    pub c_mask: *mut SinewJointMask,
    pub c: [*mut SinewPose; 3],
}

/// A [`CPair`]; its handles live as long as its `h`.
pub fn c_pair() -> CPair {
    c_pair_of(1.0, CHEST)
}

/// A [`CPair`] of `b` from the sample seed `seed_b` (`a` from 0) and the mask of `root`'s
/// subtree.
pub fn c_pair_of(seed_b: f32, root: usize) -> CPair {
    let s = body();
    let (la, lb) = (sample_locals(0.0), sample_locals(seed_b));
    let (a, b) = (pose_of(&s, &la), pose_of(&s, &lb));
    let mask = JointMask::subtree(&s, root, 0).unwrap();
    let mut h = Handles::new(&s);
    let c_mask = h.subtree_mask(root as u32);
    let c = [h.pose(&la), h.pose(&lb), h.pose(&la)];
    CPair {
        s,
        la,
        lb,
        a,
        b,
        mask,
        h,
        c_mask,
        c,
    }
}
