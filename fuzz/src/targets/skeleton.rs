//! `skeleton`: `sinew_skeleton_create` from arbitrary parents (cyclic, self, forward, < -1),
//! rest poses (any floats) and names (invalid UTF-8, duplicates, empty, NULL entries), then a
//! sequence of pose, lookup, constraint and hand-retargeting calls on what was created.

use std::ffi::CString;
use std::ptr::null;

use sinew::ffi::*;

use crate::check::{self, ids, sentinel, untouched};
use crate::gen::Gen;
use crate::require;
use crate::world::{self, check_pose, created, pose_joint_count, pose_local, HandIk, Pose};
use crate::world::{Skeleton, SkeletonSpec};

fn spec(g: &mut Gen) -> (SkeletonSpec, u32, Option<usize>) {
    let n = match g.byte() {
        0..=229 => 1 + g.below(24),
        230..=244 => 1 + g.below(300),
        245..=249 => 0,
        250..=252 => SINEW_MAX_JOINTS as usize,
        _ => SINEW_MAX_JOINTS as usize + 1,
    };
    let mut parents = world::valid_parents(g, n);
    if g.chance(35) {
        // Corrupt some parents.
        for _ in 0..1 + g.below(3) {
            if n == 0 {
                break;
            }
            let i = g.below(n);
            parents[i] = match g.below(6) {
                0 => i as i32,                    // self
                1 => (i + 1 + g.below(4)) as i32, // forward (or past the end)
                2 => -2 - g.below(3) as i32,      // < -1
                3 => i32::MIN,
                4 => i32::MAX,
                _ => g.i32(),
            };
        }
        if g.chance(20) && n >= 2 {
            // A cycle: 0 -> 1 -> 0.
            parents[0] = 1;
            parents[1] = 0;
        }
    }
    let big = n > 1000;
    let rest: Vec<SinewTransform> = if big {
        vec![g.transform_clean(); n]
    } else if g.chance(70) {
        (0..n).map(|_| g.transform_clean()).collect()
    } else {
        (0..n).map(|_| g.transform()).collect()
    };
    let names = match g.byte() {
        0..=79 => None,
        _ if big => Some((0..n).map(|i| format!("j{i}").into_bytes()).collect()),
        80..=179 => Some((0..n).map(|i| format!("joint{i}").into_bytes()).collect()),
        _ => Some((0..n).map(|_| g.name_bytes()).collect()),
    };
    let joint_count = match g.byte() {
        0..=239 => n as u32,
        // A count smaller than the arrays is safe to pass (the library reads fewer items).
        _ => g.below(n + 1) as u32,
    };
    let null_entry = g.chance(5).then(|| g.below(n.max(1)));
    (
        SkeletonSpec {
            parents,
            rest,
            names,
        },
        joint_count,
        null_entry,
    )
}

fn create_checked(g: &mut Gen) -> Option<(Skeleton, SkeletonSpec)> {
    let (spec, joint_count, null_entry) = spec(g);
    // Occasionally NULL arrays or out-pointer.
    match g.byte() {
        0..=249 => {}
        250..=252 => {
            let mut out: *mut SinewSkeleton = sentinel();
            // SAFETY: NULL arrays with a non-zero count must be rejected without reading.
            let s =
                unsafe { sinew_skeleton_create(null(), spec.rest.as_ptr(), null(), 1, &mut out) };
            created(s, out, "sinew_skeleton_create(parents NULL)");
            require!(ids::CONTRACT, s != SinewStatus::Ok, "NULL parents accepted");
            return None;
        }
        _ => {
            // SAFETY: a NULL out-pointer must be rejected.
            let s = unsafe {
                sinew_skeleton_create(
                    spec.parents.as_ptr(),
                    spec.rest.as_ptr(),
                    null(),
                    spec.parents.len() as u32,
                    std::ptr::null_mut(),
                )
            };
            check::status(s, "sinew_skeleton_create(out NULL)");
            require!(
                ids::CONTRACT,
                s != SinewStatus::Ok,
                "NULL out_skeleton accepted"
            );
            return None;
        }
    }
    let skeleton = spec.create(joint_count, null_entry)?;
    // Accepted: the inputs must have been valid, as documented.
    let n = joint_count as usize;
    let view = SkeletonSpec {
        parents: spec.parents[..n].to_vec(),
        rest: spec.rest[..n].to_vec(),
        names: spec.names.as_ref().map(|v| v[..n].to_vec()),
    };
    require!(ids::CONTRACT, n >= 1, "a skeleton of 0 joints was accepted");
    require!(
        ids::CONTRACT,
        view.parents_valid(),
        "invalid parents accepted: {:?}",
        view.parents
    );
    require!(
        ids::CONTRACT,
        view.names_valid() && null_entry.is_none_or(|i| i >= n || view.names.is_none()),
        "invalid names accepted: {:?}",
        view.names
    );
    // Read back.
    let mut count = 0u32;
    // SAFETY: live handle, local out-value.
    let s = unsafe { sinew_skeleton_joint_count(skeleton.0, &mut count) };
    check::status(s, "sinew_skeleton_joint_count");
    require!(
        ids::CONTRACT,
        count == joint_count,
        "joint count {count} != {joint_count}"
    );
    let mut parents = vec![7i32; n];
    // SAFETY: `parents` holds `n` items.
    let s = unsafe { sinew_skeleton_get_parents(skeleton.0, parents.as_mut_ptr(), n as u32) };
    check::status(s, "sinew_skeleton_get_parents");
    require!(
        ids::CONTRACT,
        parents == view.parents,
        "parents read back differ"
    );
    let mut rest = vec![SinewTransform::default(); n];
    // SAFETY: `rest` holds `n` items.
    let s = unsafe { sinew_skeleton_get_rest_pose(skeleton.0, rest.as_mut_ptr(), n as u32) };
    check::status(s, "sinew_skeleton_get_rest_pose");
    check::finite_transforms(&rest, "rest pose");
    check::unit_rotations(&rest, "rest pose");
    // Wrong-size reads must fail and leave the buffer alone.
    if n < 64 {
        let mut small = vec![SinewTransform::default(); n + 1];
        let before = small.clone();
        // SAFETY: `small` holds n + 1 items.
        let s =
            unsafe { sinew_skeleton_get_rest_pose(skeleton.0, small.as_mut_ptr(), (n + 1) as u32) };
        require!(
            ids::CONTRACT,
            !check::status(s, "get_rest_pose(n+1)"),
            "count mismatch accepted"
        );
        untouched(&before, &small, "get_rest_pose(n+1) buffer");
    }
    Some((skeleton, view))
}

fn find_joint(g: &mut Gen, skeleton: &Skeleton, spec: &SkeletonSpec) {
    let query: Vec<u8> = match (&spec.names, g.byte()) {
        (Some(names), 0..=149) if !names.is_empty() => names[g.below(names.len())].clone(),
        _ => g.name_bytes(),
    };
    let c = CString::new(query.clone()).expect("no NUL");
    let mut index = 0xDEAD_BEEFu32;
    // SAFETY: a NUL-terminated string and a local out-value.
    let s = unsafe { sinew_skeleton_find_joint(skeleton.0, c.as_ptr(), &mut index) };
    if check::status(s, "sinew_skeleton_find_joint") {
        let names = spec.names.as_ref();
        let found = names.and_then(|n| n.get(index as usize));
        require!(
            ids::CONTRACT,
            found == Some(&query),
            "find_joint({:?}) returned joint {index} named {:?}",
            String::from_utf8_lossy(&query),
            found.map(|f| String::from_utf8_lossy(f).into_owned())
        );
    } else {
        require!(
            ids::TOUCHED_ON_ERROR,
            index == 0xDEAD_BEEF,
            "find_joint wrote on failure"
        );
        if s == SinewStatus::NotFound {
            let exists = spec.names.as_ref().is_some_and(|n| n.contains(&query));
            require!(
                ids::CONTRACT,
                !exists,
                "find_joint missed an existing name {query:?}"
            );
        }
    }
}

/// Calls `f` on a pose; on failure checks the pose did not change, on success that it is
/// finite and unit.
fn pose_call(pose: &Pose, what: &str, f: impl FnOnce() -> SinewStatus) -> bool {
    let before = pose_local(pose.0);
    let s = f();
    if check::status(s, what) {
        check_pose(pose.0, what);
        true
    } else {
        untouched(&before, &pose_local(pose.0), what);
        false
    }
}

fn constraint(g: &mut Gen) -> SinewJointConstraint {
    let mut c = std::mem::MaybeUninit::uninit();
    // SAFETY: valid out-pointer.
    unsafe { sinew_joint_constraint_default(c.as_mut_ptr()) };
    // SAFETY: just written.
    let mut c = unsafe { c.assume_init() };
    crate::targets::chain::fuzz_constraint(g, &mut c);
    c
}

fn pose_ops(g: &mut Gen, skeleton: Skeleton, spec: &SkeletonSpec) {
    let n = spec.parents.len();
    let mut skeleton = Some(skeleton);
    let mut poses: Vec<Pose> = Vec::new();
    let mut hand: Option<HandIk> = None;
    for _ in 0..64 {
        if g.is_empty() {
            break;
        }
        let op = g.byte() % 16;
        if poses.is_empty() || op == 0 {
            let Some(sk) = &skeleton else { break };
            let mut out: *mut SinewPose = sentinel();
            // SAFETY: live skeleton.
            let s = unsafe { sinew_pose_create(sk.0, &mut out) };
            if let Some(p) = created(s, out, "sinew_pose_create") {
                let pose = Pose(p);
                require!(
                    ids::CONTRACT,
                    pose_joint_count(pose.0) == n,
                    "pose joint count"
                );
                let local = pose_local(pose.0);
                check::finite_transforms(&local, "new pose");
                if poses.len() < 4 {
                    poses.push(pose);
                }
            }
            continue;
        }
        let pose = &poses[g.below(poses.len())];
        let count = if g.chance(90) {
            n as u32
        } else {
            g.index(n + 2)
        };
        match op {
            1 => {
                if count as usize > n + 8 {
                    continue;
                }
                let mut out = vec![SinewTransform::default(); count as usize];
                let before = out.clone();
                // SAFETY: `out` holds `count` items.
                let s = unsafe { sinew_pose_get_local(pose.0, out.as_mut_ptr(), count) };
                if check::status(s, "sinew_pose_get_local") {
                    check::finite_transforms(&out, "get_local");
                } else {
                    untouched(&before, &out, "get_local buffer");
                }
            }
            2 => {
                if count as usize > n + 8 {
                    continue;
                }
                let local = g.transforms(count as usize);
                pose_call(pose, "sinew_pose_set_local", || {
                    world::set_local(pose.0, &local, count)
                });
            }
            3 => {
                if count as usize > n + 8 {
                    continue;
                }
                let mut out = vec![SinewTransform::default(); count as usize];
                let before = out.clone();
                let local_before = pose_local(pose.0);
                // SAFETY: `out` holds `count` items.
                let s = unsafe { sinew_pose_get_model(pose.0, out.as_mut_ptr(), count) };
                if check::status(s, "sinew_pose_get_model") {
                    check::finite_transforms(&out, "get_model");
                } else {
                    untouched(&before, &out, "get_model buffer");
                }
                untouched(&local_before, &pose_local(pose.0), "pose after get_model");
            }
            4 => {
                if count as usize > n + 8 {
                    continue;
                }
                let model = g.transforms(count as usize);
                pose_call(pose, "sinew_pose_set_model", || unsafe {
                    // SAFETY: `model` holds `count` items.
                    sinew_pose_set_model(pose.0, model.as_ptr(), count)
                });
            }
            5 => {
                let joint = g.index(n);
                let mut out = SinewTransform::default();
                // SAFETY: local out-value.
                let s = unsafe { sinew_pose_get_model_transform(pose.0, joint, &mut out) };
                if check::status(s, "sinew_pose_get_model_transform") {
                    check::finite_transforms(&[out], "get_model_transform");
                } else {
                    untouched(
                        &[SinewTransform::default()],
                        &[out],
                        "get_model_transform out",
                    );
                }
            }
            6 => {
                let joint = g.index(n);
                let t = g.transform();
                pose_call(pose, "sinew_pose_set_model_transform", || unsafe {
                    // SAFETY: live pose, local transform.
                    sinew_pose_set_model_transform(pose.0, joint, &t)
                });
            }
            7 => {
                if let Some(sk) = &skeleton {
                    find_joint(g, sk, spec);
                }
            }
            8 => {
                pose_call(pose, "sinew_pose_reset", || unsafe {
                    sinew_pose_reset(pose.0)
                });
                require!(
                    ids::CONTRACT,
                    check::bytes_of(&pose_local(pose.0))
                        == check::bytes_of(&rest_of(spec, n, &skeleton, pose)),
                    "reset does not restore the rest pose"
                );
            }
            9 => {
                // Destroy the skeleton handle: poses must keep working.
                skeleton = None;
            }
            10 => {
                let k = g.below(5);
                let joints: Vec<u32> = (0..k).map(|_| g.index(n)).collect();
                let cs: Vec<SinewJointConstraint> = (0..k).map(|_| constraint(g)).collect();
                pose_call(pose, "sinew_pose_apply_constraints", || unsafe {
                    // SAFETY: both arrays hold `k` items.
                    sinew_pose_apply_constraints(pose.0, joints.as_ptr(), cs.as_ptr(), k as u32)
                });
            }
            11 | 12 => hand_ik(g, &mut hand, pose, n, op == 11),
            13 => {
                let p = g.below(poses.len());
                poses.swap_remove(p);
            }
            _ => {
                // Misaligned or NULL buffers must be rejected without a write.
                let mut raw = vec![0u8; 40 * n + 8];
                let before = raw.clone();
                let p = raw.as_mut_ptr().wrapping_add(1).cast::<SinewTransform>();
                let p = if g.bool() { p } else { std::ptr::null_mut() };
                // SAFETY: the library checks alignment and NULL before forming a reference.
                let s = unsafe { sinew_pose_get_local(pose.0, p, n as u32) };
                require!(
                    ids::CONTRACT,
                    !check::status(s, "get_local(misaligned)"),
                    "misaligned/NULL buffer accepted"
                );
                untouched(&before, &raw, "misaligned buffer");
            }
        }
    }
}

/// The rest pose, read from the skeleton if its handle is still alive, else from a fresh
/// reset of the pose's own (already reset) state.
fn rest_of(
    spec: &SkeletonSpec,
    n: usize,
    skeleton: &Option<Skeleton>,
    pose: &Pose,
) -> Vec<SinewTransform> {
    let _ = spec;
    match skeleton {
        Some(sk) => {
            let mut rest = vec![SinewTransform::default(); n];
            // SAFETY: `rest` holds `n` items.
            let s = unsafe { sinew_skeleton_get_rest_pose(sk.0, rest.as_mut_ptr(), n as u32) };
            check::status(s, "sinew_skeleton_get_rest_pose");
            rest
        }
        None => pose_local(pose.0),
    }
}

fn hand_ik(g: &mut Gen, hand: &mut Option<HandIk>, pose: &Pose, n: usize, on_pose: bool) {
    if hand.is_none() || g.chance(10) {
        let mut settings = std::mem::MaybeUninit::uninit();
        // SAFETY: valid out-pointer.
        unsafe { sinew_hand_ik_retargeting_settings_default(settings.as_mut_ptr()) };
        // SAFETY: just written.
        let mut settings = unsafe { settings.assume_init() };
        if g.chance(50) {
            settings.hand_fk_weight = g.weight();
            settings.per_axis_alpha = SinewVec3 {
                x: g.weight(),
                y: g.weight(),
                z: g.weight(),
            };
        }
        let mut out: *mut SinewHandIkRetargeting = sentinel();
        // SAFETY: valid pointers.
        let s = unsafe { sinew_hand_ik_retargeting_create(&settings, &mut out) };
        if let Some(h) = created(s, out, "sinew_hand_ik_retargeting_create") {
            *hand = Some(HandIk(h));
        }
    }
    let Some(h) = hand else { return };
    let hands = SinewHandJoints {
        right_fk: g.index(n),
        left_fk: g.index(n),
        right_ik: g.index(n),
        left_ik: g.index(n),
    };
    let k = g.below(5);
    let bones: Vec<u32> = (0..k).map(|_| g.index(n)).collect();
    let mut offset = SinewVec3 {
        x: 7.0,
        y: 7.0,
        z: 7.0,
    };
    let offset_before = offset;
    let want_offset = g.bool();
    let out_offset = if want_offset {
        &mut offset as *mut _
    } else {
        std::ptr::null_mut()
    };
    let ok = if on_pose {
        pose_call(pose, "sinew_hand_ik_retargeting_apply_pose", || unsafe {
            // SAFETY: `bones` holds `k` items; other pointers valid or NULL.
            sinew_hand_ik_retargeting_apply_pose(
                h.0,
                pose.0,
                &hands,
                bones.as_ptr(),
                k as u32,
                out_offset,
            )
        })
    } else {
        let count = if g.chance(90) { n } else { g.below(n + 2) };
        let mut model = g.transforms(count);
        let before = model.clone();
        // SAFETY: `model` holds `count` items, `bones` `k`.
        let s = unsafe {
            sinew_hand_ik_retargeting_apply_model(
                h.0,
                model.as_mut_ptr(),
                count as u32,
                &hands,
                bones.as_ptr(),
                k as u32,
                out_offset,
            )
        };
        if check::status(s, "sinew_hand_ik_retargeting_apply_model") {
            check::finite_transforms(&model, "apply_model");
            true
        } else {
            untouched(&before, &model, "apply_model array");
            false
        }
    };
    if ok && want_offset {
        require!(
            ids::NON_FINITE,
            check::vec_finite(&offset),
            "offset {offset:?} not finite"
        );
    } else {
        untouched(&[offset_before], &[offset], "out_offset");
    }
}

/// The `skeleton` target.
pub fn run(data: &[u8]) {
    let mut g = Gen::new(data);
    let Some((skeleton, spec)) = create_checked(&mut g) else {
        return;
    };
    if spec.parents.len() > 1000 {
        return; // The 65536-joint case is only about creation.
    }
    pose_ops(&mut g, skeleton, &spec);
}
