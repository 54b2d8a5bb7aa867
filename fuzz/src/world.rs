//! Owned handles (destroyed on drop, so LeakSanitizer only ever reports the library's leaks)
//! and the skeletons and poses several targets build.

use std::ffi::CString;
use std::ptr::null;

use sinew::ffi::*;

use crate::check::{self, ids, sentinel};
use crate::gen::Gen;
use crate::require;

macro_rules! owned {
    ($name:ident, $raw:ty, $destroy:ident) => {
        /// An owned handle, destroyed on drop.
        pub struct $name(pub *mut $raw);
        impl Drop for $name {
            fn drop(&mut self) {
                // SAFETY: the handle was created by the library and is destroyed once.
                unsafe { $destroy(self.0) }
            }
        }
    };
}

owned!(Skeleton, SinewSkeleton, sinew_skeleton_destroy);
owned!(Pose, SinewPose, sinew_pose_destroy);
owned!(Mask, SinewJointMask, sinew_joint_mask_destroy);
owned!(TwoBone, SinewTwoBoneIk, sinew_two_bone_ik_destroy);
owned!(Fabrik, SinewFabrik, sinew_fabrik_destroy);
owned!(Ccd, SinewCcd, sinew_ccd_destroy);
owned!(
    HandIk,
    SinewHandIkRetargeting,
    sinew_hand_ik_retargeting_destroy
);
owned!(Clip, SinewClip, sinew_clip_destroy);
owned!(Cursor, SinewClipCursor, sinew_clip_cursor_destroy);
owned!(Crossfade, SinewCrossfade, sinew_crossfade_destroy);

/// Checks a create call's out-handle: set to a live handle on success, untouched on failure.
/// Returns the handle on success.
#[track_caller]
pub fn created<T>(status: SinewStatus, out: *mut T, what: &str) -> Option<*mut T> {
    if check::status(status, what) {
        require!(
            ids::CONTRACT,
            !out.is_null() && out != sentinel(),
            "{what} succeeded without writing a handle"
        );
        Some(out)
    } else {
        require!(
            ids::TOUCHED_ON_ERROR,
            out == sentinel(),
            "{what} failed but wrote {out:p} to its out-handle"
        );
        None
    }
}

/// A skeleton's description as passed to `sinew_skeleton_create`.
#[derive(Clone, Debug)]
pub struct SkeletonSpec {
    pub parents: Vec<i32>,
    pub rest: Vec<SinewTransform>,
    /// Name bytes (without NUL) per joint; `None` passes NULL.
    pub names: Option<Vec<Vec<u8>>>,
}

impl SkeletonSpec {
    /// Whether the parent array is valid: each parent -1 or an earlier joint.
    pub fn parents_valid(&self) -> bool {
        self.parents
            .iter()
            .enumerate()
            .all(|(i, &p)| p == -1 || (p >= 0 && (p as usize) < i))
    }

    /// Whether the names are NULL or unique, non-empty UTF-8.
    pub fn names_valid(&self) -> bool {
        let Some(names) = &self.names else {
            return true;
        };
        let mut seen = std::collections::HashSet::new();
        names
            .iter()
            .all(|n| !n.is_empty() && std::str::from_utf8(n).is_ok() && seen.insert(n.clone()))
    }

    /// Calls `sinew_skeleton_create` with `joint_count` (normally `parents.len()`), checking the
    /// conventions; returns the skeleton on success.
    pub fn create(&self, joint_count: u32, null_names_entry: Option<usize>) -> Option<Skeleton> {
        let names: Option<Vec<CString>> = self.names.as_ref().map(|names| {
            names
                .iter()
                .map(|n| CString::new(n.clone()).expect("names hold no NUL"))
                .collect()
        });
        let mut name_ptrs: Option<Vec<*const std::ffi::c_char>> = names
            .as_ref()
            .map(|ns| ns.iter().map(|n| n.as_ptr()).collect());
        if let (Some(ptrs), Some(i)) = (name_ptrs.as_mut(), null_names_entry) {
            if let Some(p) = ptrs.get_mut(i) {
                *p = null();
            }
        }
        crate::trace!("sinew_skeleton_create({self:?}, joint_count {joint_count}, NULL name {null_names_entry:?})");
        let mut out: *mut SinewSkeleton = sentinel();
        // SAFETY: arrays hold `parents.len()` items, which `joint_count` equals or the library
        // rejects before reading (it checks the count against 1..=SINEW_MAX_JOINTS first).
        let s = unsafe {
            sinew_skeleton_create(
                self.parents.as_ptr(),
                self.rest.as_ptr(),
                name_ptrs.as_ref().map_or(null(), |p| p.as_ptr()),
                joint_count,
                &mut out,
            )
        };
        created(s, out, "sinew_skeleton_create").map(Skeleton)
    }
}

/// Parent indices of a valid hierarchy, biased toward long chains (so IK chains exist).
pub fn valid_parents(g: &mut Gen, n: usize) -> Vec<i32> {
    (0..n)
        .map(|i| {
            if i == 0 {
                return -1;
            }
            match g.byte() {
                0..=199 => i as i32 - 1,
                200..=239 => g.below(i) as i32,
                _ => -1,
            }
        })
        .collect()
}

/// A valid skeleton of 1..=max joints (always created; panics if the library refuses it).
pub fn valid_skeleton(g: &mut Gen, max: usize) -> (Skeleton, SkeletonSpec) {
    let n = 1 + g.below(max.max(1));
    let parents = valid_parents(g, n);
    let rest = (0..n)
        .map(|_| {
            let mut t = g.transform_clean();
            if g.chance(15) {
                let s = 0.25 + g.unit_f32() * 2.0;
                t.scale = SinewVec3 { x: s, y: s, z: s };
            }
            t
        })
        .collect();
    let names = g
        .chance(50)
        .then(|| (0..n).map(|i| format!("joint{i}").into_bytes()).collect());
    let spec = SkeletonSpec {
        parents,
        rest,
        names,
    };
    let skeleton = spec
        .create(n as u32, None)
        .unwrap_or_else(|| panic!("a valid skeleton was refused: {spec:?}"));
    (skeleton, spec)
}

/// Number of joints of a pose.
pub fn pose_joint_count(pose: *const SinewPose) -> usize {
    let mut n = 0u32;
    // SAFETY: a live pose and a local out-value.
    let s = unsafe { sinew_pose_joint_count(pose, &mut n) };
    assert!(check::status(s, "sinew_pose_joint_count"));
    n as usize
}

/// A snapshot of a pose's local transforms.
pub fn pose_local(pose: *const SinewPose) -> Vec<SinewTransform> {
    let n = pose_joint_count(pose);
    let mut out = vec![SinewTransform::default(); n];
    // SAFETY: `out` holds the pose's joint count.
    let s = unsafe { sinew_pose_get_local(pose, out.as_mut_ptr(), n as u32) };
    assert!(check::status(s, "sinew_pose_get_local"));
    out
}

/// After a successful call: every local transform is finite with a unit rotation.
#[track_caller]
pub fn check_pose(pose: *const SinewPose, what: &str) {
    let local = pose_local(pose);
    check::finite_transforms(&local, what);
    check::unit_rotations(&local, what);
}

/// `sinew_pose_set_local(pose, local, count)`, traced.
pub fn set_local(pose: *mut SinewPose, local: &[SinewTransform], count: u32) -> SinewStatus {
    assert!(count as usize <= local.len());
    crate::trace!("sinew_pose_set_local({pose:p}, {local:?}, {count})");
    // SAFETY: `local` holds at least `count` items.
    unsafe { sinew_pose_set_local(pose, local.as_ptr(), count) }
}

/// Creates a pose of `skeleton` and, sometimes, sets it to random clean local transforms.
pub fn random_pose(g: &mut Gen, skeleton: &Skeleton) -> Pose {
    let mut out: *mut SinewPose = sentinel();
    // SAFETY: a live skeleton and a local out-handle.
    let s = unsafe { sinew_pose_create(skeleton.0, &mut out) };
    let pose = Pose(created(s, out, "sinew_pose_create").expect("pose create failed"));
    crate::trace!("sinew_pose_create -> {:p}", pose.0);
    if g.chance(60) {
        let n = pose_joint_count(pose.0);
        let local = g.transforms(n);
        let s = set_local(pose.0, &local, n as u32);
        check::status(s, "sinew_pose_set_local");
    }
    pose
}

/// A joint list for pose-level chain solves: usually a real chain (each joint the parent of the
/// next) walked up from a random joint, sometimes arbitrary indices.
pub fn joint_chain(g: &mut Gen, parents: &[i32], max_len: usize) -> Vec<u32> {
    let n = parents.len();
    if g.chance(80) && n > 0 {
        let mut chain = vec![g.below(n) as u32];
        let want = 1 + g.below(max_len.max(1));
        while chain.len() < want {
            let p = parents[*chain.last().unwrap() as usize];
            if p < 0 {
                break;
            }
            chain.push(p as u32);
        }
        chain.reverse();
        if g.chance(10) && !chain.is_empty() {
            let i = g.below(chain.len());
            chain[i] = g.index(n);
        }
        chain
    } else {
        let len = g.below(max_len + 2);
        (0..len).map(|_| g.index(n)).collect()
    }
}
