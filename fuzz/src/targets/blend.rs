//! `blend`: two-pose blends (any `t`, masks, spaces, every aliasing of the output), N-layer
//! blends (weights, masks, thresholds, an output that is also a layer; with additive layers in
//! the same call now and then), additive make/apply
//! with aliasing, and joint masks (uniform, subtree, per-joint and bulk weights), over poses
//! of one or two skeletons.

use std::ptr::null;

use sinew::ffi::*;

use crate::check::{self, ids, sentinel, untouched};
use crate::gen::Gen;
use crate::require;
use crate::world::{self, check_pose, created, pose_local, Mask, Pose};

struct World {
    /// Poses with the joint count of their skeleton (index into `counts`).
    poses: Vec<(Pose, usize)>,
    masks: Vec<(Mask, usize)>,
    counts: Vec<usize>,
    skeletons: Vec<world::Skeleton>,
}

impl World {
    fn pose(&self, g: &mut Gen) -> *mut SinewPose {
        self.poses[g.below(self.poses.len())].0 .0
    }

    /// A mask pointer: NULL, or one of the masks (possibly of another joint count).
    fn mask(&self, g: &mut Gen) -> *const SinewJointMask {
        if self.masks.is_empty() || g.chance(40) {
            null()
        } else {
            self.masks[g.below(self.masks.len())].0 .0
        }
    }

    fn snapshot(&self) -> Vec<Vec<SinewTransform>> {
        self.poses.iter().map(|(p, _)| pose_local(p.0)).collect()
    }

    fn mask_weights(&self) -> Vec<Vec<f32>> {
        self.masks
            .iter()
            .map(|(m, s)| weights(m, self.counts[*s]))
            .collect()
    }

    /// After a call that wrote (at most) `out`: on failure nothing changed; on success `out`
    /// is finite and unit and nothing else changed.
    fn after(&self, ok: bool, out: *mut SinewPose, before: &[Vec<SinewTransform>], what: &str) {
        for ((p, _), b) in self.poses.iter().zip(before) {
            if ok && p.0 == out {
                check_pose(out, what);
            } else {
                untouched(b, &pose_local(p.0), what);
            }
        }
    }
}

fn weights(mask: &Mask, n: usize) -> Vec<f32> {
    let mut out = vec![0f32; n];
    // SAFETY: `out` holds the mask's joint count.
    let s = unsafe { sinew_joint_mask_get_weights(mask.0, out.as_mut_ptr(), n as u32) };
    assert!(check::status(s, "sinew_joint_mask_get_weights"));
    out
}

fn new_mask(g: &mut Gen, w: &mut World) {
    let sk = g.below(w.skeletons.len());
    let n = w.counts[sk];
    let mut out: *mut SinewJointMask = sentinel();
    let s = if g.bool() {
        let value = g.weight();
        // SAFETY: live skeleton, local out-handle.
        let s = unsafe { sinew_joint_mask_create(w.skeletons[sk].0, value, &mut out) };
        if s == SinewStatus::Ok {
            require!(
                ids::CONTRACT,
                (0.0..=1.0).contains(&value),
                "mask value {value} accepted"
            );
        }
        s
    } else {
        let root = g.index(n);
        let depth = if g.chance(80) {
            g.below(6) as u32
        } else {
            g.u32()
        };
        // SAFETY: live skeleton, local out-handle.
        unsafe { sinew_joint_mask_create_subtree(w.skeletons[sk].0, root, depth, &mut out) }
    };
    if let Some(m) = created(s, out, "sinew_joint_mask_create") {
        let m = Mask(m);
        let ws = weights(&m, n);
        require!(
            ids::CONTRACT,
            ws.iter().all(|w| (0.0..=1.0).contains(w)),
            "mask weights outside [0, 1]: {ws:?}"
        );
        if w.masks.len() < 4 {
            w.masks.push((m, sk));
        }
    }
}

fn edit_mask(g: &mut Gen, w: &World) {
    if w.masks.is_empty() {
        return;
    }
    let (m, sk) = &w.masks[g.below(w.masks.len())];
    let n = w.counts[*sk];
    let before = weights(m, n);
    let (s, what) = if g.bool() {
        let joint = g.index(n);
        let value = g.weight();
        // SAFETY: live mask.
        (
            unsafe { sinew_joint_mask_set_weight(m.0, joint, value) },
            "sinew_joint_mask_set_weight",
        )
    } else {
        let count = if g.chance(90) { n } else { g.below(n + 2) };
        let values: Vec<f32> = (0..count).map(|_| g.weight()).collect();
        // SAFETY: `values` holds `count` floats.
        (
            unsafe { sinew_joint_mask_set_weights(m.0, values.as_ptr(), count as u32) },
            "sinew_joint_mask_set_weights",
        )
    };
    let ok = check::status(s, what);
    let after = weights(m, n);
    if ok {
        require!(
            ids::CONTRACT,
            after.iter().all(|w| (0.0..=1.0).contains(w)),
            "{what}: mask weights outside [0, 1]: {after:?}"
        );
    } else {
        untouched(&before, &after, what);
    }
}

fn t_value(g: &mut Gen) -> f32 {
    match g.byte() {
        0..=199 => g.unit_f32(),
        200..=219 => [0.0, 1.0, -0.0, 0.5][g.below(4)],
        _ => g.f32_any(),
    }
}

fn blend(g: &mut Gen, w: &World) {
    let a = w.pose(g);
    let b = if g.chance(20) { a } else { w.pose(g) };
    let out = match g.byte() {
        0..=59 => a,
        60..=119 => b,
        _ => w.pose(g),
    };
    let t = t_value(g);
    let mask = w.mask(g);
    let space = g.enum_i32(0, 2);
    let before = w.snapshot();
    let masks_before = w.mask_weights();
    crate::trace!("sinew_pose_blend(a {a:p}, b {b:p}, t {t}, mask {mask:p}, space {space}, out {out:p}) on {before:?}");
    // SAFETY: live handles (aliasing of `out` with `a`/`b` is allowed and handled).
    let s = unsafe { sinew_pose_blend(a, b, t, mask, space, out) };
    let ok = check::status(s, "sinew_pose_blend");
    w.after(ok, out, &before, "sinew_pose_blend");
    for (m, mb) in w.mask_weights().iter().zip(&masks_before) {
        untouched(mb, m, "mask after blend");
    }
    if ok {
        require!(
            ids::CONTRACT,
            (0.0..=1.0).contains(&t),
            "blend t {t} accepted"
        );
        require!(
            ids::CONTRACT,
            space == 0 || space == 1,
            "blend space {space} accepted"
        );
    }
}

fn blend_layers(g: &mut Gen, w: &World) {
    let count = g.below(5);
    let layers: Vec<SinewBlendLayer> = (0..count)
        .map(|_| SinewBlendLayer {
            pose: w.pose(g),
            weight: match g.byte() {
                0..=199 => g.unit_f32() * 2.0,
                200..=219 => [0.0, 1e30, f32::MAX, 1e-30][g.below(4)],
                _ => g.f32_any(),
            },
            mask: w.mask(g),
        })
        .collect();
    let threshold = match g.byte() {
        0..=199 => 0.01 + g.unit_f32(),
        _ => g.f32_any(),
    };
    let out = w.pose(g);
    // Now and then with additive layers, through sinew_pose_blend_layers_additive.
    let additive: Option<Vec<SinewBlendLayer>> = g.chance(30).then(|| {
        (0..g.below(4))
            .map(|_| SinewBlendLayer {
                pose: w.pose(g),
                weight: additive_weight(g),
                mask: w.mask(g),
            })
            .collect()
    });
    let before = w.snapshot();
    let (s, what) = match &additive {
        None => {
            crate::trace!(
                "sinew_pose_blend_layers({layers:?}, threshold {threshold}, out {out:p}) on {before:?}"
            );
            // SAFETY: `layers` holds `count` items of live handles.
            let s =
                unsafe { sinew_pose_blend_layers(layers.as_ptr(), count as u32, threshold, out) };
            (s, "sinew_pose_blend_layers")
        }
        Some(add) => {
            crate::trace!(
                "sinew_pose_blend_layers_additive({layers:?}, {add:?}, threshold {threshold}, out {out:p}) on {before:?}"
            );
            let (l, n, a, m) = (
                layers.as_ptr(),
                count as u32,
                add.as_ptr(),
                add.len() as u32,
            );
            // SAFETY: both arrays hold their counts of items of live handles.
            let s = unsafe { sinew_pose_blend_layers_additive(l, n, a, m, threshold, out) };
            (s, "sinew_pose_blend_layers_additive")
        }
    };
    let ok = check::status(s, what);
    w.after(ok, out, &before, what);
    if ok {
        let inputs = layers.iter().chain(additive.iter().flatten());
        require!(
            ids::CONTRACT,
            inputs.clone().all(|l| l.pose.cast_mut() != out),
            "{what} accepted its output as a layer"
        );
    }
}

/// An additive weight: usually in [-2, 2], sometimes any float.
fn additive_weight(g: &mut Gen) -> f32 {
    match g.byte() {
        0..=199 => g.unit_f32() * 4.0 - 2.0,
        _ => g.f32_any(),
    }
}

fn make_additive(g: &mut Gen, w: &World) {
    let pose = w.pose(g);
    let reference = if g.chance(20) { pose } else { w.pose(g) };
    let out = match g.byte() {
        0..=19 => pose,
        20..=39 => reference,
        _ => w.pose(g),
    };
    let before = w.snapshot();
    crate::trace!("sinew_pose_make_additive({pose:p}, {reference:p}, out {out:p}) on {before:?}");
    // SAFETY: live handles.
    let s = unsafe { sinew_pose_make_additive(pose, reference, out) };
    let ok = check::status(s, "sinew_pose_make_additive");
    w.after(ok, out, &before, "sinew_pose_make_additive");
    if ok {
        require!(
            ids::CONTRACT,
            out.cast_const() != pose.cast_const() && out.cast_const() != reference.cast_const(),
            "make_additive accepted an aliased output"
        );
    }
}

fn apply_additive(g: &mut Gen, w: &World) {
    let base = w.pose(g);
    let delta = if g.chance(15) { base } else { w.pose(g) };
    let out = match g.byte() {
        0..=99 => base,
        100..=119 => delta,
        _ => w.pose(g),
    };
    let weight = additive_weight(g);
    let mask = w.mask(g);
    let before = w.snapshot();
    crate::trace!("sinew_pose_apply_additive({base:p}, {delta:p}, {weight}, mask {mask:p}, out {out:p}) on {before:?}");
    // SAFETY: live handles.
    let s = unsafe { sinew_pose_apply_additive(base, delta, weight, mask, out) };
    let ok = check::status(s, "sinew_pose_apply_additive");
    w.after(ok, out, &before, "sinew_pose_apply_additive");
    if ok {
        require!(
            ids::CONTRACT,
            out != delta,
            "apply_additive accepted out == delta"
        );
    }
}

fn set_pose(g: &mut Gen, w: &World) {
    let (p, sk) = &w.poses[g.below(w.poses.len())];
    let n = w.counts[*sk];
    let local = g.transforms(n);
    let before = pose_local(p.0);
    let s = world::set_local(p.0, &local, n as u32);
    if check::status(s, "sinew_pose_set_local") {
        check_pose(p.0, "set_local");
    } else {
        untouched(&before, &pose_local(p.0), "set_local");
    }
}

/// The `blend` target.
pub fn run(data: &[u8]) {
    let mut g = Gen::new(data);
    let mut w = World {
        poses: Vec::new(),
        masks: Vec::new(),
        counts: Vec::new(),
        skeletons: Vec::new(),
    };
    for _ in 0..1 + g.below(2) {
        let (sk, spec) = world::valid_skeleton(&mut g, 16);
        w.counts.push(spec.parents.len());
        w.skeletons.push(sk);
    }
    for _ in 0..2 + g.below(3) {
        let sk = g.below(w.skeletons.len());
        let p = world::random_pose(&mut g, &w.skeletons[sk]);
        w.poses.push((p, sk));
    }
    for _ in 0..g.below(3) {
        new_mask(&mut g, &mut w);
    }
    for _ in 0..32 {
        if g.is_empty() {
            break;
        }
        match g.byte() % 12 {
            0..=2 => blend(&mut g, &w),
            3 | 4 => blend_layers(&mut g, &w),
            5 => make_additive(&mut g, &w),
            6 | 7 => apply_additive(&mut g, &w),
            8 => new_mask(&mut g, &mut w),
            9 => edit_mask(&mut g, &w),
            10 => set_pose(&mut g, &w),
            _ => {
                // Model-space read of a blended pose: finite or a reported overflow.
                let (p, sk) = &w.poses[g.below(w.poses.len())];
                let n = w.counts[*sk];
                let mut model = vec![SinewTransform::default(); n];
                // SAFETY: `model` holds `n` items.
                let s = unsafe { sinew_pose_get_model(p.0, model.as_mut_ptr(), n as u32) };
                if check::status(s, "sinew_pose_get_model") {
                    check::finite_transforms(&model, "model after blends");
                } else {
                    require!(
                        ids::CONTRACT,
                        s == SinewStatus::NumericOverflow,
                        "get_model of a valid pose failed with {s:?}"
                    );
                }
            }
        }
    }
}
