//! Everything observable about a world ([`Probe`]): its buffers, and the handles' state read back
//! through the C ABI (poses, masks, skeletons, solver settings and fixed re-solves, the hand
//! node, clip samples, the crossfade over further updates).

use std::ptr::{null, null_mut};

use sinew::ffi::SinewStatus as St;
use sinew::ffi::*;
use sinew::Quat;

use crate::batch::chain_solve;
use crate::world::*;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Compared, not otherwise checked.
    Raw,
    Status,
    /// Floats that must be finite after a success.
    Floats,
    /// Transforms that must be finite.
    Transforms,
    /// Transforms that must be finite with unit rotations.
    UnitTransforms,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Seg {
    pub label: String,
    pub kind: Kind,
    pub words: Vec<u32>,
}

/// Everything observable about a world, in order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Probe(pub Vec<Seg>);

impl Probe {
    pub fn push(&mut self, label: impl Into<String>, kind: Kind, words: Vec<u32>) {
        self.0.push(Seg {
            label: label.into(),
            kind,
            words,
        });
    }

    pub fn status(&mut self, label: impl Into<String>, s: St) {
        self.push(label, Kind::Status, vec![s as i32 as u32]);
    }

    pub fn transforms(&mut self, label: impl Into<String>, t: &[SinewTransform], unit: bool) {
        let kind = if unit {
            Kind::UnitTransforms
        } else {
            Kind::Transforms
        };
        self.push(label, kind, words_of(t));
    }

    /// A solver's settings read back through `get` into a copy of `sentinel`.
    ///
    /// # Safety
    ///
    /// `handle` is a live handle of the solver `get` reads.
    pub unsafe fn settings<H, T: Copy>(
        &mut self,
        label: &str,
        get: unsafe extern "C" fn(*const H, *mut T) -> St,
        (handle, sentinel): (*const H, T),
    ) {
        let mut settings = sentinel;
        self.status(format!("{label} settings"), get(handle, &mut settings));
        self.push(format!("{label} settings"), Kind::Raw, words(&settings));
    }

    /// Solve `k` of `label`: its status, the chain it wrote, its result and error.
    pub fn solve(
        &mut self,
        (label, k): (&str, usize),
        s: St,
        chain: &[SinewTransform],
        result: &SinewIkResult,
    ) {
        self.status(format!("{label} solve {k}"), s);
        self.transforms(format!("{label} chain {k}"), chain, true);
        self.push(format!("{label} result {k}"), Kind::Raw, words(result));
        self.floats(format!("{label} error {k}"), &[result.error]);
    }

    pub fn floats(&mut self, label: impl Into<String>, f: &[f32]) {
        self.push(label, Kind::Floats, f.iter().map(|x| x.to_bits()).collect());
    }

    /// The first segment that differs from `other`.
    pub fn diff(&self, other: &Probe) -> Option<String> {
        if self.0.len() != other.0.len() {
            return Some(format!("{} segments vs {}", self.0.len(), other.0.len()));
        }
        self.0
            .iter()
            .zip(&other.0)
            .find(|(a, b)| a != b)
            .map(|(a, b)| format!("{} changed, {}", a.label, show(a, b)))
    }

    /// After a success: statuses OK (or NUMERIC_OVERFLOW when `lenient`), floats finite,
    /// rotations unit.
    pub fn sane(&self, lenient: bool) -> Result<(), String> {
        for s in &self.0 {
            match s.kind {
                Kind::Raw => {}
                Kind::Status => {
                    let st = s.words[0] as i32;
                    let fine = st == St::Ok as i32 || (lenient && st == St::NumericOverflow as i32);
                    if !fine {
                        return Err(format!("then {} returned status {st}", s.label));
                    }
                }
                Kind::Floats | Kind::Transforms | Kind::UnitTransforms => {
                    let f: Vec<f32> = s.words.iter().map(|&w| f32::from_bits(w)).collect();
                    if let Some(bad) = f.iter().find(|x| !x.is_finite()) {
                        return Err(format!("{} holds {bad} after success", s.label));
                    }
                    if s.kind == Kind::UnitTransforms {
                        for (k, t) in f.chunks_exact(10).enumerate() {
                            let len = Quat::from_slice(&t[3..7]).length();
                            if (len - 1.0).abs() > 1e-3 {
                                return Err(format!(
                                    "{} [{k}] has a rotation of length {len} ({:?}) after success",
                                    s.label,
                                    &t[3..7]
                                ));
                            }
                        }
                    }
                }
            }
        }
        Ok(())
    }
}

pub fn show(s: &Seg, other: &Seg) -> String {
    let at = s
        .words
        .iter()
        .zip(&other.words)
        .position(|(a, b)| a != b)
        .unwrap_or(0);
    let word = |seg: &Seg| match seg.words.get(at) {
        None => "nothing".to_string(),
        Some(&w) if matches!(seg.kind, Kind::Raw | Kind::Status) => format!("{w:#x}"),
        Some(&w) => format!("{:e}", f32::from_bits(w)),
    };
    format!(
        "word {at} of {}: {} (expected {})",
        s.words.len().max(other.words.len()),
        word(s),
        word(other)
    )
}

pub const PROBE_TARGETS: [SinewVec3; 2] = [
    SinewVec3 {
        x: 0.3,
        y: 1.3,
        z: 0.25,
    },
    SinewVec3 {
        x: 2.0,
        y: 0.5,
        z: -1.0,
    },
];

/// The handles' observable state: poses, masks, skeletons, solvers (settings and fixed
/// re-solves), hand node, clips (samples), crossfade (weights, pose, then further updates).
/// Mutates what probing must (solver scratch, cursors, crossfade time) the same way in any world.
pub fn probe_world(w: &mut World, p: &mut Probe) {
    let fresh = Bufs::new();
    // SAFETY: every handle is live; every pointer is to a local buffer of the stated size.
    unsafe {
        for (label, pose, n) in [
            ("pose_a", w.pose_a, J),
            ("pose_b", w.pose_b, J),
            ("pose_out", w.pose_out, J),
            ("pose2", w.pose2, J2),
            ("pose3", w.pose3, J),
        ] {
            let mut buf = vec![SENT_T; n];
            p.status(
                label,
                sinew_pose_get_local(pose, buf.as_mut_ptr(), n as u32),
            );
            p.transforms(format!("{label} local"), &buf, true);
        }
        for (label, mask, n) in [("mask", w.mask, J), ("mask2", w.mask2, J2)] {
            let mut buf = vec![SENT_F; n];
            p.status(
                label,
                sinew_joint_mask_get_weights(mask, buf.as_mut_ptr(), n as u32),
            );
            p.floats(format!("{label} weights"), &buf);
        }
        for (label, skel, n) in [("skel", w.skel, J), ("skel2", w.skel2, J2)] {
            let mut count = 0u32;
            p.status(label, sinew_skeleton_joint_count(skel, &mut count));
            p.push(format!("{label} count"), Kind::Raw, vec![count]);
            let mut parents = vec![0i32; n];
            p.status(
                label,
                sinew_skeleton_get_parents(skel, parents.as_mut_ptr(), n as u32),
            );
            p.push(
                format!("{label} parents"),
                Kind::Raw,
                parents.iter().map(|&x| x as u32).collect(),
            );
            let mut rest = vec![SENT_T; n];
            p.status(
                label,
                sinew_skeleton_get_rest_pose(skel, rest.as_mut_ptr(), n as u32),
            );
            p.transforms(format!("{label} rest"), &rest, true);
        }
        for name in NAMES {
            let mut index = SENT_U;
            let s = sinew_skeleton_find_joint(w.skel, name.as_ptr(), &mut index);
            p.status(format!("find {name:?}"), s);
            p.push(format!("find {name:?} index"), Kind::Raw, vec![index]);
        }

        let two_bone = (w.two_bone.cast_const(), fresh.out_two);
        p.settings("two_bone", sinew_two_bone_ik_get_settings, two_bone);
        for (k, target) in PROBE_TARGETS.iter().enumerate() {
            let mut chain = fresh.chain3;
            let mut result = fresh.out_result;
            let s = sinew_two_bone_ik_solve(
                w.two_bone,
                chain.as_mut_ptr(),
                target,
                &fresh.effector_rotation,
                &fresh.pole,
                &mut result,
            );
            p.solve(("two_bone", k), s, &chain, &result);
        }

        let fabrik = (w.fabrik.cast_const(), fresh.out_fabrik);
        p.settings("fabrik", sinew_fabrik_get_settings, fabrik);
        p.settings(
            "ccd",
            sinew_ccd_get_settings,
            (w.ccd.cast_const(), fresh.out_ccd),
        );
        for (k, target) in [fresh.chain_effector, v(5.0, 0.0, 0.0)].iter().enumerate() {
            for (label, is_fabrik) in [("fabrik", true), ("ccd", false)] {
                let mut chain = fresh.chain;
                let mut result = fresh.out_result;
                let solver = (is_fabrik, w.fabrik, w.ccd);
                let chain_n = &mut chain[..N];
                let s = chain_solve(
                    solver,
                    chain_n,
                    &fresh.root_parent,
                    (target, null()),
                    &mut result,
                );
                p.solve((label, k), s, &chain, &result);
            }
        }

        let aim = (w.aim.cast_const(), fresh.out_aim);
        p.settings("aim", sinew_aim_ik_get_settings, aim);
        for (k, (target, up)) in [
            (fresh.chain_effector, null()),
            (v(-5.0, 0.5, 0.2), &fresh.pole as *const SinewVec3),
        ]
        .iter()
        .enumerate()
        {
            let mut chain = fresh.chain;
            let mut result = fresh.out_result;
            let c = chain.as_mut_ptr();
            let s = sinew_aim_ik_solve(w.aim, c, N as u32, target, *up, &mut result);
            p.solve(("aim", k), s, &chain, &result);
        }

        let hand = (w.hand.cast_const(), fresh.out_hand);
        p.settings("hand", sinew_hand_ik_retargeting_get_settings, hand);
        let mut model = fresh.model;
        let mut offset = fresh.out_vec3;
        let s = sinew_hand_ik_retargeting_apply_model(
            w.hand,
            model.as_mut_ptr(),
            J as u32,
            &fresh.hands,
            fresh.bones.as_ptr(),
            2,
            &mut offset,
        );
        p.status("hand apply", s);
        p.transforms("hand model", &model, true);
        p.floats("hand offset", &[offset.x, offset.y, offset.z]);

        let multi = (w.multi.cast_const(), fresh.out_multi);
        p.settings("multi", sinew_multi_fabrik_get_settings, multi);
        let mut model = fresh.model;
        let mut results = fresh.out_results;
        let s = sinew_multi_fabrik_solve(
            w.multi,
            w.skel,
            model.as_mut_ptr(),
            J as u32,
            0,
            fresh.effectors.as_ptr(),
            M as u32,
            fresh.targets.as_ptr(),
            results.as_mut_ptr(),
        );
        p.status("multi solve", s);
        p.transforms("multi model", &model, true);
        p.push("multi results", Kind::Raw, words(&results));

        let (mut pose, mut pose2) = (null_mut(), null_mut());
        ok(sinew_pose_create(w.skel, &mut pose));
        ok(sinew_pose_create(w.skel2, &mut pose2));
        let mut local = vec![SENT_T; J];
        let mut local2 = vec![SENT_T; J2];
        for (label, clip) in [("clip", w.clip), ("clip_a", w.clip_a), ("clip_b", w.clip_b)] {
            let mut duration = SENT_F;
            p.status(label, sinew_clip_duration(clip, &mut duration));
            p.floats(format!("{label} duration"), &[duration]);
            for (k, (time, looping, cursor)) in [
                (0.0, 1, w.cursor),
                (0.3, 1, w.cursor),
                (0.77, 1, w.cursor),
                (1.6, 1, w.cursor),
                (0.5, 0, null_mut()),
                (2.0, 0, null_mut()),
            ]
            .into_iter()
            .enumerate()
            {
                p.status(
                    format!("{label} sample {k}"),
                    sinew_clip_sample(clip, cursor, time, looping, pose),
                );
                p.status(
                    format!("{label} local {k}"),
                    sinew_pose_get_local(pose, local.as_mut_ptr(), J as u32),
                );
                p.transforms(format!("{label} sampled {k}"), &local, true);
            }
        }
        for (k, time) in [0.1, 0.45, 0.9].into_iter().enumerate() {
            p.status(
                format!("clip2 sample {k}"),
                sinew_clip_sample(w.clip2, w.cursor2, time, 1, pose2),
            );
            p.status(
                format!("clip2 local {k}"),
                sinew_pose_get_local(pose2, local2.as_mut_ptr(), J2 as u32),
            );
            p.transforms(format!("clip2 sampled {k}"), &local2, true);
        }

        for step in 0..5 {
            if step > 0 {
                p.status(
                    format!("crossfade update {step}"),
                    sinew_crossfade_update(w.crossfade, 0.15),
                );
            }
            let mut count = SENT_U;
            p.status(
                format!("crossfade fade_count {step}"),
                sinew_crossfade_fade_count(w.crossfade, &mut count),
            );
            p.push(format!("crossfade fades {step}"), Kind::Raw, vec![count]);
            type List = unsafe extern "C" fn(*const SinewCrossfade, *mut f32, u32, *mut u32) -> St;
            let lists: [(&str, List); 2] = [
                ("weight", sinew_crossfade_get_weights),
                ("time", sinew_crossfade_get_times),
            ];
            for (item, get) in lists {
                let mut values = [SENT_F; 4];
                let mut n = SENT_U;
                let s = get(w.crossfade, values.as_mut_ptr(), 4, &mut n);
                p.status(format!("crossfade {item}s {step}"), s);
                p.push(format!("crossfade {item} count {step}"), Kind::Raw, vec![n]);
                p.floats(format!("crossfade {item}s {step}"), &values);
            }
            let (mut active, mut remaining) = (SENT_U, SENT_F);
            p.status(
                format!("crossfade inertializing {step}"),
                sinew_crossfade_is_inertializing(w.crossfade, &mut active, &mut remaining),
            );
            p.push(
                format!("crossfade inertializing {step}"),
                Kind::Raw,
                vec![active],
            );
            p.floats(
                format!("crossfade inertialization left {step}"),
                &[remaining],
            );
            p.status(
                format!("crossfade get_pose {step}"),
                sinew_crossfade_get_pose(w.crossfade, pose),
            );
            p.status(
                format!("crossfade local {step}"),
                sinew_pose_get_local(pose, local.as_mut_ptr(), J as u32),
            );
            p.transforms(format!("crossfade pose {step}"), &local, true);
        }
        sinew_pose_destroy(pose);
        sinew_pose_destroy(pose2);
        for (label, skin, n) in [("skin", w.skin, J), ("skin2", w.skin2, J2)] {
            let mut count = 0u32;
            p.status(label, sinew_skin_joint_count(skin, &mut count));
            p.push(format!("{label} count"), Kind::Raw, vec![count]);
            let mut palette = vec![SENT_M; n];
            let pose = if n == J { w.pose_b } else { w.pose2 };
            let s = sinew_pose_compute_skinning_palette(pose, skin, palette.as_mut_ptr(), n as u32);
            p.status(format!("{label} palette"), s);
            p.push(format!("{label} palette"), Kind::Floats, words_of(&palette));
        }
    }
}

pub fn probe(w: &mut World) -> Probe {
    let mut p = Probe::default();
    w.b.segments(&mut p);
    probe_world(w, &mut p);
    p
}
