//! Threads and determinism, through the C ABI.
//!
//! - `eight_threads_match_serial_bitwise`: 8 threads over one shared skeleton, each with its own
//!   handles (poses, two-bone, FABRIK and CCD solvers, clips and cursors, a mask, a crossfade),
//!   each solving IK and blending every frame (clip sampling, two-pose blends in local and model
//!   space, layers, additive, crossfades with linear, smooth and inertialized transitions), give
//!   bitwise the results of the same work done serially: every float of every transform.
//! - `every_solver_and_blend_is_deterministic`: every solver and every blend, run twice in one
//!   process from fresh handles and a third time reusing the second run's handles, gives the same
//!   bits each time (so no solver output depends on scratch left by an earlier solve).
//! - `error_messages_are_per_thread`: errors stay on the thread that caused them.
//!
//! Cross-path parity, the same inputs through C, C# and Rust, is covered elsewhere:
//! `tests/c_abi.rs` recomputes every C result with the Rust core and `tests/csharp.rs` every C#
//! result. Note that both compare with Rust within 1e-6 (relative), counting and printing how
//! many floats are bit-identical without requiring all of them to be; only the two C# layers
//! (idiomatic and raw P/Invoke) are required to agree bit for bit.

use std::collections::BTreeMap;
use std::ptr::{null, null_mut};

use sinew::ffi::error::last_error_message;
use sinew::ffi::*;

mod common;

use common::ffi::{c_skeleton, default_chain_solvers, ok, SetTrack};

/// A skeleton handle shared read-only across threads (the C ABI documents this as safe).
#[derive(Clone, Copy)]
struct Shared(*const SinewSkeleton);
// SAFETY: a SinewSkeleton is immutable after creation and reference counted atomically.
unsafe impl Send for Shared {}

const JOINTS: usize = 4;
const DT: f32 = 1.0 / 60.0;

fn transform(x: f32, y: f32, angle: f32) -> SinewTransform {
    let (s, c) = (angle * 0.5).sin_cos();
    SinewTransform {
        translation: SinewVec3 { x, y, z: 0.0 },
        rotation: SinewQuat {
            x: 0.0,
            y: 0.0,
            z: s,
            w: c,
        },
        scale: SinewVec3 {
            x: 1.0,
            y: 1.0,
            z: 1.0,
        },
    }
}

fn vec3(x: f32, y: f32, z: f32) -> SinewVec3 {
    SinewVec3 { x, y, z }
}

/// A rotation of `angle` radians about the (normalized) axis `(x, y, z)`.
fn quat(x: f32, y: f32, z: f32, angle: f32) -> SinewQuat {
    let n = (x * x + y * y + z * z).sqrt();
    let (s, c) = (angle * 0.5).sin_cos();
    SinewQuat {
        x: x / n * s,
        y: y / n * s,
        z: z / n * s,
        w: c,
    }
}

fn make_skeleton() -> *mut SinewSkeleton {
    let parents = [-1, 0, 1, 2];
    let rest = [
        transform(0.0, 1.4, 0.0),
        transform(0.15, 0.0, 0.0),
        transform(0.3, 0.0, 0.2),
        transform(0.28, 0.0, 0.0),
    ];
    c_skeleton(&parents, &rest)
}

/// Every float of every transform, as bits.
fn bits(v: &[SinewTransform]) -> Vec<u32> {
    v.iter()
        .flat_map(|t| {
            [
                t.translation.x,
                t.translation.y,
                t.translation.z,
                t.rotation.x,
                t.rotation.y,
                t.rotation.z,
                t.rotation.w,
                t.scale.x,
                t.scale.y,
                t.scale.z,
            ]
        })
        .map(f32::to_bits)
        .collect()
}

fn result_bits(r: &SinewIkResult) -> [u32; 3] {
    [r.reached, r.error.to_bits(), r.iterations]
}

/// The local transforms of a pose.
fn local(pose: *const SinewPose) -> [SinewTransform; JOINTS] {
    let mut out = [SinewTransform::default(); JOINTS];
    // SAFETY: a live pose of JOINTS joints and a buffer of as many.
    ok(unsafe { sinew_pose_get_local(pose, out.as_mut_ptr(), JOINTS as u32) });
    out
}

/// The model transforms of a pose.
fn model(pose: *mut SinewPose) -> [SinewTransform; JOINTS] {
    let mut out = [SinewTransform::default(); JOINTS];
    // SAFETY: as above.
    ok(unsafe { sinew_pose_get_model(pose, out.as_mut_ptr(), JOINTS as u32) });
    out
}

/// Sets one keyframed track of `clip` (`kind` 0 translation, 1 rotation, 2 scale) from seeded
/// values; cubic tracks get tangents.
///
/// # Safety
/// `clip` must be a live, editable clip of the 4-joint skeleton.
unsafe fn track(clip: *mut SinewClip, kind: u32, joint: u32, interpolation: i32, seed: f32) {
    let k = |i: usize| seed + i as f32;
    // SAFETY: the caller's clip.
    unsafe {
        if kind == 1 {
            let values: [SinewQuat; 4] =
                std::array::from_fn(|i| quat(0.3, 1.0, 0.2 * k(i), 0.4 * (k(i) * 1.3).sin()));
            let tangents: [SinewQuat; 4] = std::array::from_fn(|i| SinewQuat {
                x: 0.1 * (k(i) * 0.7).cos(),
                y: 0.05,
                z: -0.1,
                w: 0.0,
            });
            let set: SetTrack<_> = sinew_clip_set_rotation_track;
            return keys(set, (clip, joint, interpolation), &values, &tangents);
        }
        let base = if kind == 0 { 0.1 } else { 1.0 };
        let values: [SinewVec3; 4] = std::array::from_fn(|i| {
            vec3(
                base + 0.05 * (k(i) * 1.7).sin(),
                base + 0.05 * (k(i) * 0.9).cos(),
                base,
            )
        });
        let tangents: [SinewVec3; 4] = std::array::from_fn(|i| vec3(0.2 * k(i).sin(), -0.1, 0.05));
        let set: SetTrack<_> = if kind == 0 {
            sinew_clip_set_translation_track
        } else {
            sinew_clip_set_scale_track
        };
        keys(set, (clip, joint, interpolation), &values, &tangents);
    }
}

/// Sets a track of 4 keys at fixed times through `set`: `values`, and `tangents` both ways when
/// the interpolation is cubic.
///
/// # Safety
/// `clip` must be a live, editable clip of the 4-joint skeleton.
unsafe fn keys<T>(
    set: SetTrack<T>,
    (clip, joint, interpolation): (*mut SinewClip, u32, i32),
    values: &[T; 4],
    tangents: &[T; 4],
) {
    let times = [0.0, 0.3, 0.7, 1.0];
    let cubic = interpolation == SinewInterpolation::Cubic as i32;
    let (ti, to) = if cubic {
        (tangents.as_ptr(), tangents.as_ptr())
    } else {
        (null(), null())
    };
    // SAFETY: arrays of 4 keys, tangents only for cubic tracks; the caller's clip.
    ok(unsafe {
        set(
            clip,
            joint,
            interpolation,
            times.as_ptr(),
            values.as_ptr(),
            ti,
            to,
            4,
        )
    });
}

/// Two clips of one worker: every interpolation, on translation, rotation and scale.
fn make_clips(skeleton: *const SinewSkeleton, seed: f32) -> [*mut SinewClip; 2] {
    use SinewInterpolation::*;
    let (mut a, mut b) = (null_mut(), null_mut());
    // SAFETY: a live skeleton; clips created here, not yet shared.
    unsafe {
        ok(sinew_clip_create(skeleton, 1.0, &mut a));
        track(a, 0, 0, Cubic as i32, seed);
        track(a, 1, 1, Slerp as i32, seed + 0.5);
        track(a, 1, 2, Linear as i32, seed + 1.0);
        track(a, 1, 3, Cubic as i32, seed + 1.5);
        track(a, 2, 3, Linear as i32, seed + 2.0);
        ok(sinew_clip_create(skeleton, 1.0, &mut b));
        track(b, 0, 0, Linear as i32, seed + 3.0);
        track(b, 1, 1, Step as i32, seed + 3.5);
        track(b, 1, 2, Cubic as i32, seed + 4.0);
        track(b, 1, 3, Slerp as i32, seed + 4.5);
        track(b, 2, 2, Cubic as i32, seed + 5.0);
    }
    [a, b]
}

/// Every handle one worker owns; only the skeleton is shared.
struct Worker {
    seed: u32,
    two_bone: *mut SinewTwoBoneIk,
    fabrik: *mut SinewFabrik,
    ccd: *mut SinewCcd,
    poses: [*mut SinewPose; 10],
    clips: [*mut SinewClip; 2],
    cursors: [*mut SinewClipCursor; 2],
    mask: *mut SinewJointMask,
    crossfade: *mut SinewCrossfade,
}

impl Worker {
    fn new(skeleton: Shared, seed: u32) -> Self {
        let mut settings = std::mem::MaybeUninit::uninit();
        let (mut two_bone, mut mask, mut crossfade) = (null_mut(), null_mut(), null_mut());
        let mut poses = [null_mut(); 10];
        let mut cursors = [null_mut(); 2];
        let clips = make_clips(skeleton.0, seed as f32 * 0.37);
        // SAFETY: handles are created here and used on this thread only; pointers are to locals.
        unsafe {
            sinew_two_bone_ik_settings_default(settings.as_mut_ptr());
            let mut settings = settings.assume_init();
            settings.allow_stretching = seed % 2;
            ok(sinew_two_bone_ik_create(&settings, &mut two_bone));
            for p in &mut poses {
                ok(sinew_pose_create(skeleton.0, p));
            }
            for (c, &clip) in cursors.iter_mut().zip(&clips) {
                ok(sinew_clip_cursor_create(clip, c));
            }
            ok(sinew_joint_mask_create_subtree(skeleton.0, 2, 1, &mut mask));
            ok(sinew_crossfade_create(skeleton.0, 4, &mut crossfade));
            ok(sinew_crossfade_play(crossfade, clips[0], 1));
        }
        let (fabrik, ccd) = default_chain_solvers(4);
        Self {
            seed,
            two_bone,
            fabrik,
            ccd,
            poses,
            clips,
            cursors,
            mask,
            crossfade,
        }
    }

    /// Frame `f`: IK on three poses, then blending; appends every output's bits to `out`.
    fn frame(&mut self, f: u32, out: &mut Vec<u32>) {
        // The poses of the two-bone, FABRIK and CCD solves, two blend inputs, the blend,
        // layer, additive delta and sum outputs, and the crossfade's.
        let [ik, fabrik_pose, ccd_pose, a, b, blend, layered, delta, added, faded] = self.poses;
        let t = f as f32 * 0.01 + self.seed as f32;
        let goal = vec3(
            0.15 + 0.7 * t.cos(),
            1.4 + 0.7 * t.sin(),
            0.1 * (3.0 * t).sin(),
        );
        let pole = vec3(0.2, 0.8, -1.0);
        let mut result = SinewIkResult::default();
        // SAFETY: every handle is this worker's (or the shared, immutable skeleton's pose);
        // pointers are to locals of the sizes passed.
        unsafe {
            ok(sinew_two_bone_ik_solve_pose(
                self.two_bone,
                ik,
                1,
                2,
                3,
                &goal,
                null(),
                &pole,
                &mut result,
            ));
            out.extend(bits(&model(ik)));
            out.extend(result_bits(&result));
            // FABRIK and CCD cost more in debug builds: every fourth frame.
            if f % 4 == 0 {
                let joints = [0, 1, 2, 3];
                let reach = vec3(0.1 + 0.5 * t.cos(), 1.4 + 0.5 * t.sin(), 0.2 * t.cos());
                type Solve<'a> = &'a dyn Fn(*mut SinewIkResult) -> SinewStatus;
                let (j, at) = (joints.as_ptr(), &reach);
                let solves: [(Solve, _); 2] = [
                    (
                        &|r| sinew_fabrik_solve_pose(self.fabrik, fabrik_pose, j, 4, at, null(), r),
                        fabrik_pose,
                    ),
                    (
                        &|r| sinew_ccd_solve_pose(self.ccd, ccd_pose, j, 4, at, null(), r),
                        ccd_pose,
                    ),
                ];
                for (solve, pose) in solves {
                    ok(solve(&mut result));
                    out.extend(bits(&model(pose)));
                    out.extend(result_bits(&result));
                }
            }

            let time = f as f32 * DT + self.seed as f32 * 0.1;
            let [clip_a, clip_b] = self.clips;
            ok(sinew_clip_sample(clip_a, self.cursors[0], time, 1, a));
            ok(sinew_clip_sample(
                clip_b,
                self.cursors[1],
                time * 0.8,
                u32::from(f % 500 < 250),
                b,
            ));
            let factor = 0.5 + 0.5 * (time * 2.0).sin();
            let mask = if f % 2 == 0 { self.mask } else { null_mut() };
            let space = if f % 3 == 0 {
                SinewBlendSpace::ModelRotation
            } else {
                SinewBlendSpace::Local
            };
            ok(sinew_pose_blend(a, b, factor, mask, space as i32, blend));
            let layers = [
                SinewBlendLayer {
                    pose: a,
                    weight: 0.7,
                    mask: self.mask,
                },
                SinewBlendLayer {
                    pose: b,
                    weight: 0.05 + 0.2 * (time * 3.0).sin().abs(),
                    mask: null(),
                },
            ];
            ok(sinew_pose_blend_layers(layers.as_ptr(), 2, 0.1, layered));
            ok(sinew_pose_make_additive(b, a, delta));
            ok(sinew_pose_apply_additive(
                blend,
                delta,
                0.5 * time.sin(),
                mask,
                added,
            ));
            if f % 120 == 60 {
                let curve = (f / 120) % 3;
                let to = self.clips[(f as usize / 120 + 1) % 2];
                ok(sinew_crossfade_fade_to(
                    self.crossfade,
                    to,
                    0.4,
                    curve as i32,
                    1,
                    null_mut(),
                ));
            }
            ok(sinew_crossfade_update(self.crossfade, DT));
            ok(sinew_crossfade_get_pose(self.crossfade, faded));
            let mut weights = [0.0f32; 4];
            let mut count = 0;
            ok(sinew_crossfade_get_weights(
                self.crossfade,
                weights.as_mut_ptr(),
                4,
                &mut count,
            ));
            out.push(count);
            out.extend(weights.map(f32::to_bits));
            for p in [a, b, blend, layered, added, faded] {
                out.extend(bits(&local(p)));
            }
        }
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        // SAFETY: every handle is live and not used afterwards.
        unsafe {
            sinew_crossfade_destroy(self.crossfade);
            for c in self.cursors {
                sinew_clip_cursor_destroy(c);
            }
            for c in self.clips {
                sinew_clip_destroy(c);
            }
            sinew_joint_mask_destroy(self.mask);
            for p in self.poses {
                sinew_pose_destroy(p);
            }
            sinew_two_bone_ik_destroy(self.two_bone);
            sinew_fabrik_destroy(self.fabrik);
            sinew_ccd_destroy(self.ccd);
        }
    }
}

/// `frames` frames of IK and blending for worker `seed`; the bits of every output.
fn work(skeleton: Shared, seed: u32, frames: u32) -> Vec<u32> {
    let mut worker = Worker::new(skeleton, seed);
    let mut out = Vec::new();
    for f in 0..frames {
        worker.frame(f, &mut out);
    }
    out
}

#[test]
fn eight_threads_match_serial_bitwise() {
    const FRAMES: u32 = 1200;
    let skeleton = make_skeleton();
    let shared = Shared(skeleton);
    let serial: Vec<_> = (0..8).map(|seed| work(shared, seed, FRAMES)).collect();
    let handles: Vec<_> = (0..8)
        .map(|seed| std::thread::spawn(move || work(shared, seed, FRAMES)))
        .collect();
    for (seed, h) in handles.into_iter().enumerate() {
        let threaded = h.join().unwrap();
        assert_eq!(threaded.len(), serial[seed].len());
        if let Some(i) = threaded.iter().zip(&serial[seed]).position(|(a, b)| a != b) {
            panic!(
                "thread {seed} differs from serial at word {i} of {}",
                threaded.len()
            );
        }
    }
    // The workers did different things (seeds matter), so equality above is not vacuous.
    assert!(serial.windows(2).all(|w| w[0] != w[1]));
    // SAFETY: created above; no thread uses it any more.
    unsafe { sinew_skeleton_destroy(skeleton) };
}

/// Handles for [`every_op`], reusable across runs.
struct Kit {
    two_bone: [*mut SinewTwoBoneIk; 2],
    fabrik: *mut SinewFabrik,
    ccd: *mut SinewCcd,
    hand: *mut SinewHandIkRetargeting,
    poses: [*mut SinewPose; 5],
    mask: *mut SinewJointMask,
    clips: [*mut SinewClip; 2],
}

impl Kit {
    fn new(skeleton: *const SinewSkeleton) -> Self {
        let mut kit = Self {
            two_bone: [null_mut(); 2],
            fabrik: null_mut(),
            ccd: null_mut(),
            hand: null_mut(),
            poses: [null_mut(); 5],
            mask: null_mut(),
            clips: make_clips(skeleton, 0.25),
        };
        let mut s = std::mem::MaybeUninit::uninit();
        let mut cone = std::mem::MaybeUninit::uninit();
        let mut hand = std::mem::MaybeUninit::uninit();
        // SAFETY: handles created here; pointers are to locals and the kit's fields.
        unsafe {
            sinew_two_bone_ik_settings_default(s.as_mut_ptr());
            let mut s = s.assume_init();
            ok(sinew_two_bone_ik_create(&s, &mut kit.two_bone[0]));
            s.allow_stretching = 1;
            s.soften = 0.9;
            s.keep_twist = 1;
            s.pole_weight = 0.6;
            s.weight = 0.8;
            s.end_rotation = SinewEndRotation::KeepLocal as i32;
            ok(sinew_two_bone_ik_create(&s, &mut kit.two_bone[1]));
            (kit.fabrik, kit.ccd) = default_chain_solvers(4);
            sinew_joint_constraint_default(cone.as_mut_ptr());
            let mut cone = cone.assume_init();
            cone.swing_half_angle_1 = 0.3;
            cone.limit_twist = 1;
            ok(sinew_fabrik_set_constraint(kit.fabrik, 2, &cone));
            ok(sinew_ccd_set_constraint(kit.ccd, 2, &cone));
            ok(sinew_ccd_set_joint(kit.ccd, 1, 20.0, 0.7));
            sinew_hand_ik_retargeting_settings_default(hand.as_mut_ptr());
            ok(sinew_hand_ik_retargeting_create(
                hand.as_ptr(),
                &mut kit.hand,
            ));
            for p in &mut kit.poses {
                ok(sinew_pose_create(skeleton, p));
            }
            ok(sinew_joint_mask_create_subtree(
                skeleton,
                1,
                2,
                &mut kit.mask,
            ));
        }
        kit
    }
}

impl Drop for Kit {
    fn drop(&mut self) {
        // SAFETY: every handle is live and not used afterwards.
        unsafe {
            for s in self.two_bone {
                sinew_two_bone_ik_destroy(s);
            }
            sinew_fabrik_destroy(self.fabrik);
            sinew_ccd_destroy(self.ccd);
            sinew_hand_ik_retargeting_destroy(self.hand);
            for p in self.poses {
                sinew_pose_destroy(p);
            }
            sinew_joint_mask_destroy(self.mask);
            for c in self.clips {
                sinew_clip_destroy(c);
            }
        }
    }
}

/// Every solver and blend on fixed inputs, keyed by operation. Poses are set from fixed values
/// first, so the inputs are the same whatever the kit did before; crossfades are created here.
fn every_op(skeleton: *const SinewSkeleton, kit: &Kit) -> BTreeMap<String, Vec<u32>> {
    let mut out: BTreeMap<String, Vec<u32>> = BTreeMap::new();
    let mut rec = |name: &str, words: &[u32]| {
        out.entry(name.to_string())
            .or_default()
            .extend_from_slice(words)
    };
    let [p0, p1, p2, p3, p4] = kit.poses;
    let start: [SinewTransform; JOINTS] = [
        transform(0.0, 1.4, 0.05),
        transform(0.15, 0.0, -0.1),
        transform(0.3, 0.0, 0.3),
        transform(0.28, 0.0, 0.1),
    ];
    let targets: Vec<SinewVec3> = (0..40)
        .map(|i| {
            let a = i as f32 * 0.37;
            vec3(
                0.1 + 0.8 * a.cos(),
                1.4 + 0.8 * a.sin(),
                0.3 * (2.0 * a).sin(),
            )
        })
        .collect();
    let poles = [None, Some(vec3(0.2, 1.0, -1.0))];
    let rotation = quat(1.0, 0.5, 0.0, 0.6);
    let start_model = model_of_start(&start);
    let mut result = SinewIkResult::default();
    // SAFETY: every handle is the kit's or created here; pointers are to locals of the sizes
    // passed.
    unsafe {
        let reset = |p: *mut SinewPose| ok(sinew_pose_set_local(p, start.as_ptr(), 4));
        for (k, &solver) in kit.two_bone.iter().enumerate() {
            for (i, target) in targets.iter().enumerate() {
                let pole = poles[i % 2].as_ref().map_or(null(), |p| p as *const _);
                let mut chain: [SinewTransform; 3] = start_model[1..].try_into().unwrap();
                ok(sinew_two_bone_ik_solve(
                    solver,
                    chain.as_mut_ptr(),
                    target,
                    &rotation,
                    pole,
                    &mut result,
                ));
                rec(&format!("two_bone_ik_solve {k}"), &bits(&chain));
                rec(&format!("two_bone_ik_solve {k}"), &result_bits(&result));
                reset(p0);
                ok(sinew_two_bone_ik_solve_pose(
                    solver,
                    p0,
                    1,
                    2,
                    3,
                    target,
                    &rotation,
                    pole,
                    &mut result,
                ));
                rec(&format!("two_bone_ik_solve_pose {k}"), &bits(&local(p0)));
                rec(
                    &format!("two_bone_ik_solve_pose {k}"),
                    &result_bits(&result),
                );
            }
        }
        let joints = [0, 1, 2, 3];
        let parent = quat(0.0, 0.0, 1.0, 0.1);
        for (i, target) in targets.iter().enumerate().step_by(3) {
            for (name, fabrik) in [("fabrik", true), ("ccd", false)] {
                let mut chain = start_model;
                let rot = if i % 2 == 0 {
                    &rotation as *const _
                } else {
                    null()
                };
                ok(if fabrik {
                    sinew_fabrik_solve(
                        kit.fabrik,
                        chain.as_mut_ptr(),
                        4,
                        &parent,
                        target,
                        rot,
                        &mut result,
                    )
                } else {
                    sinew_ccd_solve(
                        kit.ccd,
                        chain.as_mut_ptr(),
                        4,
                        &parent,
                        target,
                        rot,
                        &mut result,
                    )
                });
                rec(&format!("{name}_solve"), &bits(&chain));
                rec(&format!("{name}_solve"), &result_bits(&result));
                reset(p0);
                ok(if fabrik {
                    sinew_fabrik_solve_pose(
                        kit.fabrik,
                        p0,
                        joints.as_ptr(),
                        4,
                        target,
                        rot,
                        &mut result,
                    )
                } else {
                    sinew_ccd_solve_pose(kit.ccd, p0, joints.as_ptr(), 4, target, rot, &mut result)
                });
                rec(&format!("{name}_solve_pose"), &bits(&local(p0)));
                rec(&format!("{name}_solve_pose"), &result_bits(&result));
            }
        }
        let hands = SinewHandJoints {
            right_fk: 3,
            left_fk: 2,
            right_ik: 1,
            left_ik: 0,
        };
        let mut m = start_model;
        let mut offset = SinewVec3::default();
        ok(sinew_hand_ik_retargeting_apply_model(
            kit.hand,
            m.as_mut_ptr(),
            4,
            &hands,
            [1, 2].as_ptr(),
            2,
            &mut offset,
        ));
        rec("hand_ik_retargeting_apply_model", &bits(&m));
        reset(p0);
        ok(sinew_hand_ik_retargeting_apply_pose(
            kit.hand,
            p0,
            &hands,
            [2].as_ptr(),
            1,
            &mut offset,
        ));
        rec("hand_ik_retargeting_apply_pose", &bits(&local(p0)));
        rec(
            "hand_ik_retargeting_apply_pose",
            &[offset.x, offset.y, offset.z].map(f32::to_bits),
        );
        let mut cone = std::mem::MaybeUninit::uninit();
        sinew_joint_constraint_default(cone.as_mut_ptr());
        let cones = [cone.assume_init(); 2];
        reset(p0);
        ok(sinew_pose_apply_constraints(
            p0,
            [2, 3].as_ptr(),
            cones.as_ptr(),
            2,
        ));
        rec("pose_apply_constraints", &bits(&local(p0)));

        // Blending, on clip samples at several times.
        for step in 0..30 {
            let time = step as f32 * 0.071;
            for (k, &clip) in kit.clips.iter().enumerate() {
                let p = [p1, p2][k];
                ok(sinew_clip_sample(clip, null_mut(), time, step % 2, p));
                rec("clip_sample", &bits(&local(p)));
            }
            let factor = (step as f32 * 0.13).fract();
            for (space, name) in [
                (SinewBlendSpace::Local, "local"),
                (SinewBlendSpace::ModelRotation, "model rotation"),
            ] {
                for mask in [null_mut(), kit.mask] {
                    ok(sinew_pose_blend(p1, p2, factor, mask, space as i32, p3));
                    rec(&format!("pose_blend {name}"), &bits(&local(p3)));
                }
            }
            let layers = [
                SinewBlendLayer {
                    pose: p1,
                    weight: 0.3 + factor,
                    mask: kit.mask,
                },
                SinewBlendLayer {
                    pose: p2,
                    weight: 0.05 * step as f32,
                    mask: null(),
                },
            ];
            ok(sinew_pose_blend_layers(layers.as_ptr(), 2, 0.1, p3));
            rec("pose_blend_layers", &bits(&local(p3)));
            ok(sinew_pose_make_additive(p2, p1, p4));
            rec("pose_make_additive", &bits(&local(p4)));
            ok(sinew_pose_apply_additive(
                p3,
                p4,
                factor * 2.0 - 1.0,
                kit.mask,
                p0,
            ));
            rec("pose_apply_additive", &bits(&local(p0)));
        }
        for (curve, name) in [(0, "linear"), (1, "smooth"), (2, "inertialize")] {
            let mut crossfade = null_mut();
            ok(sinew_crossfade_create(skeleton, 2, &mut crossfade));
            ok(sinew_crossfade_play(crossfade, kit.clips[0], 1));
            for step in 0..60 {
                if step == 10 {
                    ok(sinew_crossfade_fade_to(
                        crossfade,
                        kit.clips[1],
                        0.5,
                        curve,
                        1,
                        null_mut(),
                    ));
                }
                ok(sinew_crossfade_update(crossfade, DT));
                ok(sinew_crossfade_get_pose(crossfade, p0));
                rec(&format!("crossfade {name}"), &bits(&local(p0)));
                let mut weights = [0.0f32; 2];
                let mut count = 0;
                ok(sinew_crossfade_get_weights(
                    crossfade,
                    weights.as_mut_ptr(),
                    2,
                    &mut count,
                ));
                rec(&format!("crossfade {name}"), &weights.map(f32::to_bits));
            }
            sinew_crossfade_destroy(crossfade);
        }
    }
    out
}

/// Model-space transforms of the 4-joint chain with local transforms `start`.
fn model_of_start(start: &[SinewTransform; JOINTS]) -> [SinewTransform; JOINTS] {
    let skeleton = c_skeleton(&[-1, 0, 1, 2], start);
    let mut pose = null_mut();
    // SAFETY: a live skeleton; the handles are destroyed before returning.
    unsafe {
        ok(sinew_pose_create(skeleton, &mut pose));
        let m = model(pose);
        sinew_pose_destroy(pose);
        sinew_skeleton_destroy(skeleton);
        m
    }
}

#[test]
fn every_solver_and_blend_is_deterministic() {
    let skeleton = make_skeleton();
    let first = every_op(skeleton, &Kit::new(skeleton));
    let kit = Kit::new(skeleton);
    let second = every_op(skeleton, &kit);
    let reused = every_op(skeleton, &kit);
    for name in [
        "two_bone_ik_solve 0",
        "two_bone_ik_solve 1",
        "two_bone_ik_solve_pose 0",
        "two_bone_ik_solve_pose 1",
        "fabrik_solve",
        "fabrik_solve_pose",
        "ccd_solve",
        "ccd_solve_pose",
        "hand_ik_retargeting_apply_model",
        "hand_ik_retargeting_apply_pose",
        "pose_apply_constraints",
        "clip_sample",
        "pose_blend local",
        "pose_blend model rotation",
        "pose_blend_layers",
        "pose_make_additive",
        "pose_apply_additive",
        "crossfade linear",
        "crossfade smooth",
        "crossfade inertialize",
    ] {
        assert!(first.contains_key(name), "{name} was not run");
    }
    for (run, other) in [
        ("a second run", &second),
        ("a run reusing the handles", &reused),
    ] {
        assert_eq!(first.len(), other.len());
        for (name, words) in &first {
            let theirs = &other[name];
            assert_eq!(
                words.len(),
                theirs.len(),
                "{name}: {run} gives another count"
            );
            if let Some(i) = words.iter().zip(theirs).position(|(a, b)| a != b) {
                panic!(
                    "{name}: {run} differs at float {i}: {:e} vs {:e}",
                    f32::from_bits(words[i]),
                    f32::from_bits(theirs[i])
                );
            }
        }
    }
    // SAFETY: created above; no handle uses it any more (poses keep their own reference).
    unsafe { sinew_skeleton_destroy(skeleton) };
}

#[test]
fn error_messages_are_per_thread() {
    let mut count = 0u32;
    // SAFETY: a NULL skeleton is rejected before use.
    let status = unsafe { sinew_skeleton_joint_count(null(), &mut count) };
    assert_eq!(status, SinewStatus::NullPointer);
    let here = last_error_message();
    assert!(here.contains("skeleton"));
    let there = std::thread::spawn(last_error_message).join().unwrap();
    assert!(there.is_empty(), "another thread sees no error: {there:?}");
    assert_eq!(last_error_message(), here);
}
