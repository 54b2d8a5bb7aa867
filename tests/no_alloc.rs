//! Solve paths allocate nothing once their handles exist: a counting global allocator tallies
//! this thread's allocations around each call, through the Rust API and the C ABI.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::ptr::{null, null_mut};
use std::sync::Arc;

use sinew::ffi::*;
use sinew::{
    Mat4, Pose, Quat, Skeleton, Skin, Transform, TwoBoneIk, TwoBoneIkSettings, TwoBoneTarget, Vec3,
};

mod common;

use common::ffi::{c_skeleton_of, default_chain_solvers, ok, soa_chains};
use common::poses::{cubic, track};

struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

// SAFETY: forwards to the system allocator; only counts.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
        // SAFETY: forwarded.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
        // SAFETY: forwarded.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Allocations made on this thread while running `f` (after one warm-up call).
fn allocations(mut f: impl FnMut()) -> usize {
    f();
    let before = ALLOCATIONS.with(Cell::get);
    for _ in 0..10 {
        f();
    }
    ALLOCATIONS.with(Cell::get) - before
}

fn arm_skeleton() -> Skeleton {
    let rest = [
        Transform::from_translation(Vec3::new(0.0, 1.4, 0.0)),
        Transform::from_translation(Vec3::new(0.15, 0.0, 0.0)),
        Transform::from_rotation_translation(Quat::from_rotation_z(0.2), Vec3::new(0.3, 0.0, 0.0)),
        Transform::from_translation(Vec3::new(0.28, 0.0, 0.0)),
    ];
    Skeleton::new(
        &[-1, 0, 1, 2],
        &rest,
        Some(&["spine", "shoulder", "elbow", "hand"]),
    )
    .unwrap()
}

#[test]
fn rust_solve_and_pose_paths_allocate_nothing() {
    let stretchy = TwoBoneIkSettings {
        allow_stretching: true,
        soften: 0.9,
        weight: 0.7,
        keep_twist: true,
        ..TwoBoneIkSettings::default()
    };
    for settings in [TwoBoneIkSettings::default(), stretchy] {
        let solver = TwoBoneIk::new(settings).unwrap();
        let mut pose = Pose::new(Arc::new(arm_skeleton()));
        let target =
            TwoBoneTarget::at(Vec3::new(0.4, 1.2, 0.2)).with_pole(Vec3::new(0.3, 1.0, -1.0));
        let far = TwoBoneTarget::at(Vec3::new(3.0, 1.2, 0.2));
        let mut chain = [
            pose.model_of(1).unwrap(),
            pose.model_of(2).unwrap(),
            pose.model_of(3).unwrap(),
        ];
        assert_eq!(
            allocations(|| {
                solver.solve(&mut chain, &target).unwrap();
            }),
            0
        );
        assert_eq!(
            allocations(|| {
                solver.solve(&mut chain, &far).unwrap();
            }),
            0
        );
        assert_eq!(
            allocations(|| {
                solver.solve_pose(&mut pose, [1, 2, 3], &target).unwrap();
            }),
            0
        );
        let model = pose.model().unwrap().to_vec();
        assert_eq!(
            allocations(|| {
                pose.model().unwrap();
            }),
            0
        );
        assert_eq!(allocations(|| pose.set_model(&model).unwrap()), 0);
        let mut out = model.clone();
        assert_eq!(allocations(|| pose.model_into(&mut out).unwrap()), 0);
        assert_eq!(
            allocations(|| {
                let hand = pose.model_of(3).unwrap();
                pose.set_model_of(3, &hand).unwrap();
            }),
            0
        );
        let mut local = pose.local().to_vec();
        assert_eq!(allocations(|| pose.set_local(&local).unwrap()), 0);
        // Reading the blocks joint by joint: the view, its iterator, a copy out, an edit.
        assert_eq!(
            allocations(|| {
                for t in pose.local() {
                    std::hint::black_box(t);
                }
                std::hint::black_box(pose.local().get(2));
                pose.local_into(&mut local).unwrap();
                pose.edit_local(1, |t| t.translation.x += 0.0).unwrap();
            }),
            0
        );
    }
}

#[test]
fn model_reads_of_deep_and_shuffled_skeletons_allocate_nothing() {
    // A chain deeper than the single-joint read's path segments, and a tree whose parents the
    // const read's cache misses (each joint's parent is half its index). The root's scale is
    // too large for the const read's bound, so it takes its full checking pass.
    let n = 600;
    let chain: Vec<i32> = (-1..n as i32 - 1).collect();
    let spread: Vec<i32> = (0..n as i32).map(|i| (i / 2) - 1).collect();
    for parents in [chain, spread] {
        let mut rest = vec![Transform::from_translation(Vec3::new(0.01, 0.0, 0.0)); n];
        rest[0].scale = Vec3::splat(1e36);
        let pose = Pose::new(Arc::new(Skeleton::new(&parents, &rest, None).unwrap()));
        let mut out = vec![Transform::IDENTITY; n];
        assert_eq!(
            allocations(|| {
                pose.model_of(n - 1).unwrap();
                pose.model_into(&mut out).unwrap();
            }),
            0
        );
    }
}

#[test]
fn c_abi_solve_and_pose_paths_allocate_nothing() {
    let arm = arm_skeleton();
    let rest: Vec<SinewTransform> = arm.rest_pose().iter().map(|&t| t.into()).collect();
    let skeleton = c_skeleton_of(&arm);
    let (mut pose, mut solver) = (null_mut(), null_mut());
    let mut settings = SinewTwoBoneIkSettings::from(TwoBoneIkSettings::default());
    settings.allow_stretching = 1;
    // SAFETY: valid pointers to locals throughout; handles are destroyed at the end.
    unsafe {
        ok(sinew_pose_create(skeleton, &mut pose));
        ok(sinew_two_bone_ik_create(&settings, &mut solver));
        let goal = SinewVec3 {
            x: 0.4,
            y: 1.2,
            z: 0.2,
        };
        let pole = SinewVec3 {
            x: 0.3,
            y: 1.0,
            z: -1.0,
        };
        let mut result = SinewIkResult::default();
        let mut model = [SinewTransform::default(); 4];
        assert_eq!(
            allocations(|| {
                ok(sinew_pose_get_model(pose, model.as_mut_ptr(), 4));
                let mut chain = [model[1], model[2], model[3]];
                let s = sinew_two_bone_ik_solve(
                    solver,
                    chain.as_mut_ptr(),
                    &goal,
                    null(),
                    &pole,
                    &mut result,
                );
                ok(s);
                let s = sinew_two_bone_ik_solve_pose(
                    solver,
                    pose,
                    1,
                    2,
                    3,
                    &goal,
                    null(),
                    &pole,
                    &mut result,
                );
                ok(s);
                ok(sinew_pose_set_model(pose, model.as_ptr(), 4));
                ok(sinew_pose_set_local(pose, rest.as_ptr(), 4));
                ok(sinew_pose_get_local(pose, model.as_mut_ptr(), 4));
                ok(sinew_pose_compute_model(pose, model.as_mut_ptr(), 4));
                let mut hand = SinewTransform::default();
                ok(sinew_pose_get_model_transform(pose, 3, &mut hand));
                ok(sinew_pose_set_model_transform(pose, 3, &hand));
            }),
            0
        );
        sinew_two_bone_ik_destroy(solver);
        sinew_pose_destroy(pose);
        sinew_skeleton_destroy(skeleton);
    }
}

/// A 6-joint tentacle along X with a cone on every joint.
fn tentacle() -> (Vec<Transform>, Vec<sinew::JointConstraint>) {
    let chain: Vec<Transform> = (0..6)
        .map(|i| {
            Transform::from_rotation_translation(
                Quat::from_rotation_z(0.1),
                Vec3::new(i as f32 * 0.5, 0.0, 0.0),
            )
        })
        .collect();
    let limit = sinew::Limit::Cone {
        half_angle_1: 0.4,
        half_angle_2: 0.3,
        twist: Some((-0.2, 0.2)),
    };
    let cones = (0..6)
        .map(|_| sinew::JointConstraint::new(Quat::IDENTITY, Vec3::X, limit).unwrap())
        .collect();
    (chain, cones)
}

#[test]
fn chain_solvers_hand_retargeting_and_constraints_allocate_nothing() {
    use sinew::{
        Ccd, CcdSettings, ChainTarget, Fabrik, FabrikSettings, HandIkRetargeting, HandPair,
    };
    let (chain, cones) = tentacle();
    let mut fabrik = Fabrik::new(FabrikSettings::default(), 8).unwrap();
    let mut ccd = Ccd::new(CcdSettings::default(), 8).unwrap();
    let near = ChainTarget::at(Vec3::new(1.0, 1.2, 0.3));
    let far = ChainTarget::at(Vec3::new(9.0, 1.0, 0.0));
    for constrained in [false, true] {
        if constrained {
            for (i, c) in cones.iter().enumerate() {
                fabrik.set_constraint(i, Some(*c)).unwrap();
                ccd.set_constraint(i, Some(*c)).unwrap();
            }
        }
        for target in [&near, &far] {
            let mut work = chain.clone();
            assert_eq!(
                allocations(|| {
                    fabrik.solve(&mut work, Quat::IDENTITY, target).unwrap();
                }),
                0
            );
            let mut work = chain.clone();
            assert_eq!(
                allocations(|| {
                    ccd.solve(&mut work, Quat::IDENTITY, target).unwrap();
                }),
                0
            );
        }
    }
    let mut pose = Pose::new(Arc::new(arm_skeleton()));
    let target = ChainTarget::at(Vec3::new(0.4, 1.2, 0.2));
    assert_eq!(
        allocations(|| {
            fabrik.solve_pose(&mut pose, &[1, 2, 3], &target).unwrap();
        }),
        0
    );
    assert_eq!(
        allocations(|| {
            ccd.solve_pose(&mut pose, &[0, 1, 2, 3], &target).unwrap();
        }),
        0
    );
    assert_eq!(
        allocations(|| pose.apply_constraint(2, &cones[0]).unwrap()),
        0
    );
    let hands = HandIkRetargeting::new(Default::default()).unwrap();
    let pair = HandPair {
        right_fk: 3,
        left_fk: 2,
        right_ik: 1,
        left_ik: 0,
    };
    let mut model = pose.model().unwrap().to_vec();
    assert_eq!(
        allocations(|| {
            hands.apply_model(&mut model, &pair, &[1, 1, 3]).unwrap();
        }),
        0
    );
    assert_eq!(
        allocations(|| {
            hands.apply_pose(&mut pose, &pair, &[1, 2]).unwrap();
        }),
        0
    );
}

#[test]
fn c_abi_chain_paths_allocate_nothing() {
    let (chain, _) = tentacle();
    let mut c_chain: Vec<SinewTransform> = chain.iter().map(|&t| t.into()).collect();
    let (fabrik, ccd) = default_chain_solvers(8);
    let mut hands = null_mut();
    let mut constraint = std::mem::MaybeUninit::uninit();
    // SAFETY: valid pointers to locals throughout; handles are destroyed at the end.
    unsafe {
        let mut hs = std::mem::MaybeUninit::uninit();
        sinew_hand_ik_retargeting_settings_default(hs.as_mut_ptr());
        ok(sinew_hand_ik_retargeting_create(hs.as_ptr(), &mut hands));
        sinew_joint_constraint_default(constraint.as_mut_ptr());
        let constraint = constraint.assume_init();
        ok(sinew_fabrik_set_constraint(fabrik, 2, &constraint));
        ok(sinew_ccd_set_constraint(ccd, 2, &constraint));
        let goal = SinewVec3 {
            x: 1.0,
            y: 1.2,
            z: 0.3,
        };
        let mut result = SinewIkResult::default();
        let [right_fk, left_fk, right_ik, left_ik] = [5, 4, 1, 0];
        let pair = SinewHandJoints {
            right_fk,
            left_fk,
            right_ik,
            left_ik,
        };
        let bones = [2u32, 3];
        let mut offset = SinewVec3::default();
        let n = c_chain.len() as u32;
        assert_eq!(
            allocations(|| {
                let p = c_chain.as_mut_ptr();
                ok(sinew_fabrik_solve(
                    fabrik,
                    p,
                    n,
                    null(),
                    &goal,
                    null(),
                    &mut result,
                ));
                ok(sinew_ccd_solve(
                    ccd,
                    p,
                    n,
                    null(),
                    &goal,
                    null(),
                    &mut result,
                ));
                let s = sinew_hand_ik_retargeting_apply_model(
                    hands,
                    p,
                    n,
                    &pair,
                    bones.as_ptr(),
                    2,
                    &mut offset,
                );
                ok(s);
            }),
            0
        );
        sinew_fabrik_destroy(fabrik);
        sinew_ccd_destroy(ccd);
        sinew_hand_ik_retargeting_destroy(hands);
    }
}

/// Two clips on the arm skeleton: a cubic rotation track; linear translation and scale tracks
/// keyed at the same times on one joint (located once per sample) and a slerp rotation track.
fn arm_clips(skeleton: &Skeleton) -> (Arc<sinew::Clip>, Arc<sinew::Clip>) {
    use sinew::Clip;
    use sinew::Interpolation::{Linear, Slerp};
    let times = [0.0, 0.4, 1.0];
    let swing = [
        Quat::IDENTITY,
        Quat::from_rotation_z(0.8),
        Quat::from_rotation_z(-0.3),
    ];
    let spin = [Quat::from_rotation_y(0.2); 3];
    let mut a = Clip::new(skeleton, 1.0).unwrap();
    a.set_rotation_track(2, cubic(&times, &swing, (&spin, &spin), 1.0))
        .unwrap();
    let mut b = Clip::new(skeleton, 1.0).unwrap();
    let lift = [Vec3::X * 0.3, Vec3::new(0.3, 0.1, 0.0), Vec3::X * 0.3];
    let grow = [Vec3::ONE, Vec3::splat(1.2), Vec3::ONE];
    b.set_translation_track(3, track(Linear, &times, &lift, 1.0))
        .unwrap();
    b.set_scale_track(3, track(Linear, &times, &grow, 1.0))
        .unwrap();
    b.set_rotation_track(1, track(Slerp, &times, &swing, 1.0))
        .unwrap();
    (Arc::new(a), Arc::new(b))
}

#[test]
fn blending_sampling_and_crossfade_allocate_nothing() {
    use sinew::{BlendSpace, ClipCursor, Crossfade, FadeCurve, JointMask, Layer};
    let skeleton = Arc::new(arm_skeleton());
    let (walk, wave) = arm_clips(&skeleton);
    let (mut a, mut b, mut out, mut delta) = (
        Pose::new(skeleton.clone()),
        Pose::new(skeleton.clone()),
        Pose::new(skeleton.clone()),
        Pose::new(skeleton.clone()),
    );
    let mut cursor = ClipCursor::new(&walk);
    let mut time = 0.0;
    assert_eq!(
        allocations(|| {
            time += 1.0 / 60.0;
            walk.sample(time, true, Some(&mut cursor), &mut a).unwrap();
            wave.sample(time, false, None, &mut b).unwrap();
        }),
        0
    );
    let mask = JointMask::subtree(&skeleton, 2, 1).unwrap();
    for space in [BlendSpace::Local, BlendSpace::ModelRotation] {
        assert_eq!(
            allocations(|| out.blend(&a, &b, 0.3, Some(&mask), space).unwrap()),
            0
        );
        assert_eq!(
            allocations(|| out.blend_toward(&b, 0.3, None, space).unwrap()),
            0
        );
        assert_eq!(
            allocations(|| out.blend_from(&a, 0.6, Some(&mask), space).unwrap()),
            0
        );
    }
    let layers = [
        Layer {
            pose: &a,
            weight: 0.7,
            mask: None,
        },
        Layer {
            pose: &b,
            weight: 0.2,
            mask: Some(&mask),
        },
    ];
    assert_eq!(allocations(|| out.blend_layers(&layers, 0.1).unwrap()), 0);
    assert_eq!(allocations(|| delta.make_additive(&b, &a).unwrap()), 0);
    assert_eq!(
        allocations(|| out.add(&delta, -0.5, Some(&mask)).unwrap()),
        0
    );
    assert_eq!(
        allocations(|| out.add_to(&a, &delta, 1.0, None).unwrap()),
        0
    );
    let additive = [
        Layer {
            pose: &delta,
            weight: -0.5,
            mask: Some(&mask),
        },
        Layer {
            pose: &delta,
            weight: 1.2,
            mask: None,
        },
    ];
    assert_eq!(
        allocations(|| out.blend_layers_additive(&layers, &additive, 0.1).unwrap()),
        0
    );

    let mut crossfade = Crossfade::new(skeleton.clone(), 4).unwrap();
    crossfade.play(walk.clone(), true).unwrap();
    assert_eq!(allocations(|| crossfade.update(1.0 / 60.0).unwrap()), 0);
    for curve in [FadeCurve::Linear, FadeCurve::Smooth, FadeCurve::Inertialize] {
        let target = if crossfade.fade_count() % 2 == 0 {
            &wave
        } else {
            &walk
        };
        assert_eq!(
            allocations(|| {
                crossfade
                    .fade_to(target.clone(), 0.25, curve, true)
                    .unwrap();
                crossfade.update(1.0 / 60.0).unwrap();
                // The same request again, looping off: no transition, no allocation.
                crossfade
                    .fade_to(target.clone(), 0.25, curve, false)
                    .unwrap();
                let mut times = [0.0f32; 4];
                assert!(crossfade.clip_times(&mut times) > 0);
                let _ = crossfade.inertialization_remaining();
            }),
            0
        );
    }
}

#[test]
fn c_abi_blending_paths_allocate_nothing() {
    let skeleton = c_skeleton_of(&arm_skeleton());
    let (mut a, mut b, mut out, mut mixed, mut mask, mut clip, mut cursor, mut fade) = (
        null_mut(),
        null_mut(),
        null_mut(),
        null_mut(),
        null_mut(),
        null_mut(),
        null_mut(),
        null_mut(),
    );
    // SAFETY: valid pointers to locals throughout; handles are destroyed at the end.
    unsafe {
        for p in [&mut a, &mut b, &mut out, &mut mixed] {
            ok(sinew_pose_create(skeleton, p));
        }
        ok(sinew_joint_mask_create_subtree(skeleton, 2, 1, &mut mask));
        ok(sinew_clip_create(skeleton, 1.0, &mut clip));
        let times = [0.0f32, 1.0];
        let keys = [
            SinewQuat {
                w: 1.0,
                ..Default::default()
            },
            SinewQuat {
                z: 0.5,
                w: 0.8,
                ..Default::default()
            },
        ];
        let s = sinew_clip_set_rotation_track(
            clip,
            2,
            1,
            times.as_ptr(),
            keys.as_ptr(),
            null(),
            null(),
            2,
        );
        ok(s);
        ok(sinew_clip_cursor_create(clip, &mut cursor));
        ok(sinew_crossfade_create(skeleton, 2, &mut fade));
        ok(sinew_crossfade_play(fade, clip, 1));
        let layers = [
            SinewBlendLayer {
                pose: a,
                weight: 0.5,
                mask: null(),
            },
            SinewBlendLayer {
                pose: b,
                weight: 0.5,
                mask,
            },
        ];
        let mut time = 0.0;
        assert_eq!(
            allocations(|| {
                time += 1.0 / 60.0;
                ok(sinew_clip_sample(clip, cursor, time, 1, a));
                ok(sinew_pose_blend(a, b, 0.4, mask, 1, out));
                ok(sinew_pose_blend(out, b, 0.4, null(), 0, out));
                ok(sinew_pose_blend_layers(layers.as_ptr(), 2, 0.1, out));
                ok(sinew_pose_make_additive(a, b, out));
                ok(sinew_pose_apply_additive(b, out, 0.5, mask, b));
                let additive = [SinewBlendLayer {
                    pose: out,
                    weight: -0.3,
                    mask,
                }];
                let (l, d) = (layers.as_ptr(), additive.as_ptr());
                ok(sinew_pose_blend_layers_additive(l, 2, d, 1, 0.1, mixed));
                ok(sinew_crossfade_update(fade, 1.0 / 60.0));
                ok(sinew_crossfade_get_pose(fade, out));
                let (mut times, mut count) = ([0.0f32; 2], 0u32);
                ok(sinew_crossfade_get_times(
                    fade,
                    times.as_mut_ptr(),
                    2,
                    &mut count,
                ));
                let (mut active, mut left) = (0u32, 0.0f32);
                ok(sinew_crossfade_is_inertializing(
                    fade,
                    &mut active,
                    &mut left,
                ));
            }),
            0
        );
        sinew_crossfade_destroy(fade);
        sinew_clip_cursor_destroy(cursor);
        sinew_clip_destroy(clip);
        sinew_joint_mask_destroy(mask);
        for p in [a, b, out, mixed] {
            sinew_pose_destroy(p);
        }
        sinew_skeleton_destroy(skeleton);
    }
}

#[test]
fn batch_solves_allocate_nothing_through_rust_and_c() {
    let arm = [
        Transform::from_translation(Vec3::ZERO),
        Transform::from_rotation_translation(Quat::from_rotation_z(0.3), Vec3::new(0.3, 0.05, 0.0)),
        Transform::from_translation(Vec3::new(0.55, -0.1, 0.0)),
    ];
    let target = TwoBoneTarget::at(Vec3::new(0.3, 0.25, 0.1)).with_pole(Vec3::new(0.2, 0.0, -1.0));
    let solver = TwoBoneIk::new(TwoBoneIkSettings::default()).unwrap();
    // 9 chains: two SIMD groups and a scalar tail.
    let mut arms = vec![arm; 9];
    let targets = vec![target; 9];
    let mut results = vec![sinew::IkResult::default(); 9];
    assert_eq!(
        allocations(|| solver
            .solve_batch(&mut arms, &targets, &mut results)
            .unwrap()),
        0
    );
    let mut c_arms: Vec<SinewTransform> = arms.iter().flatten().map(|&t| t.into()).collect();
    let positions = [SinewVec3::from(target.position); 9];
    let mut c_results = vec![SinewIkResult::default(); 9];
    let mut handle = std::ptr::null_mut();
    // SAFETY: pointers to locals; every array holds 9 items (chains 27).
    unsafe {
        sinew_two_bone_ik_create(&TwoBoneIkSettings::default().into(), &mut handle);
        assert_eq!(
            allocations(|| {
                let status = sinew_two_bone_ik_solve_batch(
                    handle,
                    c_arms.as_mut_ptr(),
                    9,
                    positions.as_ptr(),
                    std::ptr::null(),
                    std::ptr::null(),
                    c_results.as_mut_ptr(),
                );
                ok(status);
            }),
            0
        );
        // The same 9 chains in structure-of-arrays blocks: three groups, the last one lane.
        let mut blocks = soa_chains(&c_arms, 0.0);
        let p = target.position;
        let soa_positions = [SinewSoaVec3 {
            x: [p.x; 4],
            y: [p.y; 4],
            z: [p.z; 4],
        }; 3];
        assert_eq!(
            allocations(|| {
                let status = sinew_two_bone_ik_solve_batch_soa(
                    handle,
                    blocks.as_mut_ptr(),
                    9,
                    soa_positions.as_ptr(),
                    std::ptr::null(),
                    std::ptr::null(),
                    c_results.as_mut_ptr(),
                );
                ok(status);
            }),
            0
        );
        sinew_two_bone_ik_destroy(handle);
    }

    let (tentacle, _) = tentacle();
    let n = tentacle.len();
    let mut chains: Vec<Transform> = (0..5).flat_map(|_| tentacle.iter().copied()).collect();
    let goals = vec![sinew::ChainTarget::at(Vec3::new(1.0, 2.0, 0.5)); 5];
    let mut results = vec![sinew::IkResult::default(); 5];
    let mut fabrik = sinew::Fabrik::new(sinew::FabrikSettings::default(), n).unwrap();
    let mut ccd = sinew::Ccd::new(sinew::CcdSettings::default(), n).unwrap();
    assert_eq!(
        allocations(|| fabrik
            .solve_batch(&mut chains, n, None, &goals, &mut results)
            .unwrap()),
        0
    );
    assert_eq!(
        allocations(|| ccd
            .solve_batch(&mut chains, n, None, &goals, &mut results)
            .unwrap()),
        0
    );
    let mut c_chains: Vec<SinewTransform> = chains.iter().map(|&t| t.into()).collect();
    let c_goals = [SinewVec3::from(goals[0].position); 5];
    let (c_fabrik, c_ccd) = default_chain_solvers(n as u32);
    // SAFETY: every array holds 5 items (chains 5 * n).
    unsafe {
        for solve in [
            |h: *mut SinewFabrik, _: *mut SinewCcd, c: *mut SinewTransform, n, p| {
                sinew_fabrik_solve_batch(
                    h,
                    c,
                    n,
                    5,
                    std::ptr::null(),
                    p,
                    std::ptr::null(),
                    std::ptr::null_mut(),
                )
            },
            |_: *mut SinewFabrik, h: *mut SinewCcd, c: *mut SinewTransform, n, p| {
                sinew_ccd_solve_batch(
                    h,
                    c,
                    n,
                    5,
                    std::ptr::null(),
                    p,
                    std::ptr::null(),
                    std::ptr::null_mut(),
                )
            },
        ] {
            assert_eq!(
                allocations(|| {
                    let status = solve(
                        c_fabrik,
                        c_ccd,
                        c_chains.as_mut_ptr(),
                        n as u32,
                        c_goals.as_ptr(),
                    );
                    ok(status);
                }),
                0
            );
        }
        sinew_fabrik_destroy(c_fabrik);
        sinew_ccd_destroy(c_ccd);
    }
}

/// A clip built from frames, wrapping, sampled forward across its loop point (Rust and C ABI),
/// from every key layout path: cursor, no cursor, inside the keys and on the wrap segment.
#[test]
fn sampling_a_frames_clip_allocates_nothing() {
    use sinew::{Clip, ClipCursor, Interpolation};
    let skeleton = Arc::new(arm_skeleton());
    let n = skeleton.joint_count();
    let frames: Vec<Transform> = (0..8 * n)
        .map(|i| {
            Transform::from_rotation_translation(Quat::from_rotation_z(0.1 * i as f32), Vec3::X)
        })
        .collect();
    let clip = Clip::from_frames(
        &skeleton,
        8,
        30.0,
        &frames,
        None,
        Interpolation::Slerp,
        true,
    )
    .unwrap();
    let mut out = Pose::new(skeleton.clone());
    let mut cursor = ClipCursor::new(&clip);
    let mut time = 0.0;
    assert_eq!(
        allocations(|| {
            time += 0.05; // 11 calls: past the end twice
            clip.sample(time, true, Some(&mut cursor), &mut out)
                .unwrap();
            clip.sample(time, true, None, &mut out).unwrap();
        }),
        0
    );
    let c_frames: Vec<SinewTransform> = frames.iter().map(|&t| t.into()).collect();
    let c_skeleton = c_skeleton_of(&skeleton);
    let (mut c_clip, mut c_cursor, mut pose) = (null_mut(), null_mut(), null_mut());
    let linear = SinewInterpolation::Linear as i32;
    // SAFETY: valid pointers to locals; 8 frames of the skeleton's joints; handles destroyed.
    unsafe {
        let f = c_frames.as_ptr();
        ok(sinew_clip_create_from_frames(
            c_skeleton,
            f,
            8,
            n as u32,
            30.0,
            null(),
            linear,
            1,
            &mut c_clip,
        ));
        ok(sinew_clip_cursor_create(c_clip, &mut c_cursor));
        ok(sinew_pose_create(c_skeleton, &mut pose));
        let mut time = 0.0;
        assert_eq!(
            allocations(|| {
                time += 0.05; // 11 calls: past the end twice
                ok(sinew_clip_sample(c_clip, c_cursor, time, 1, pose));
            }),
            0
        );
        sinew_pose_destroy(pose);
        sinew_clip_cursor_destroy(c_cursor);
        sinew_clip_destroy(c_clip);
        sinew_skeleton_destroy(c_skeleton);
    }
}

#[test]
fn model_matrices_and_skinning_palettes_allocate_nothing() {
    // The arm, and the deep and shuffled skeletons of `model_reads_...` (a root scale past the
    // cheap bound, so the checking passes run too), each with a skin of every other joint.
    let n = 600;
    let chain: Vec<i32> = (-1..n as i32 - 1).collect();
    let spread: Vec<i32> = (0..n as i32).map(|i| (i / 2) - 1).collect();
    let arm = arm_skeleton();
    let mut skeletons = vec![arm.clone()];
    for parents in [chain, spread] {
        let mut rest = vec![Transform::from_translation(Vec3::new(0.01, 0.0, 0.0)); n];
        rest[0].scale = Vec3::splat(1e36);
        skeletons.push(Skeleton::new(&parents, &rest, None).unwrap());
    }
    for skeleton in skeletons {
        let count = skeleton.joint_count();
        let joints: Vec<u32> = (0..count as u32).rev().step_by(2).collect();
        let binds = vec![Mat4::from_scale(Vec3::splat(1e-3)); joints.len()];
        let skin = Skin::new(&skeleton, Some(&joints), &binds).unwrap();
        let pose = Pose::new(Arc::new(skeleton));
        let mut matrices = vec![Mat4::ZERO; count];
        let mut palette = vec![Mat4::ZERO; joints.len()];
        assert_eq!(
            allocations(|| {
                pose.model_matrices_into(&mut matrices).unwrap();
                pose.skinning_palette_into(&skin, &mut palette).unwrap();
            }),
            0
        );
    }
    // Through the C ABI.
    let skeleton = c_skeleton_of(&arm);
    let (mut pose, mut skin) = (null_mut(), null_mut());
    let binds = [SinewMat4::from(Mat4::IDENTITY); 4];
    let mut out = [SinewMat4::default(); 4];
    // SAFETY: valid pointers to locals throughout; handles are destroyed at the end.
    unsafe {
        ok(sinew_pose_create(skeleton, &mut pose));
        ok(sinew_skin_create(
            skeleton,
            null(),
            binds.as_ptr(),
            4,
            &mut skin,
        ));
        assert_eq!(
            allocations(|| {
                ok(sinew_pose_compute_model_matrices(pose, out.as_mut_ptr(), 4));
                ok(sinew_pose_compute_skinning_palette(
                    pose,
                    skin,
                    out.as_mut_ptr(),
                    4,
                ));
            }),
            0
        );
        sinew_skin_destroy(skin);
        sinew_pose_destroy(pose);
        sinew_skeleton_destroy(skeleton);
    }
}

#[test]
fn aim_chains_allocate_nothing() {
    use sinew::{AimIk, AimIkSettings, AimJoint, AimTarget};
    let (chain, _) = tentacle();
    let n = chain.len();
    let settings = AimIkSettings {
        aim_offset: Vec3::new(0.1, 0.2, 0.0),
        max_angle_degrees: 120.0,
        ..AimIkSettings::default()
    };
    let mut aim = AimIk::new(settings, 8).unwrap();
    let limited = AimJoint {
        weight: 2.0,
        max_angle_degrees: 20.0,
    };
    aim.set_joint(1, limited).unwrap();
    let targets = [
        AimTarget::at(Vec3::new(1.0, 2.0, 0.5)),
        AimTarget::at(Vec3::new(-9.0, 1.0, 0.0)).with_up(Vec3::Y),
    ];
    for target in &targets {
        let mut work = chain.clone();
        assert_eq!(
            allocations(|| {
                aim.solve(&mut work, target).unwrap();
            }),
            0
        );
    }
    let mut pose = Pose::new(Arc::new(arm_skeleton()));
    let target = targets[0];
    assert_eq!(
        allocations(|| {
            aim.solve_pose(&mut pose, &[1, 2, 3], &target).unwrap();
        }),
        0
    );
    let mut chains: Vec<Transform> = (0..2).flat_map(|_| chain.iter().copied()).collect();
    let mut results = [sinew::IkResult::default(); 2];
    assert_eq!(
        allocations(|| aim
            .solve_batch(&mut chains, n, &targets, &mut results)
            .unwrap()),
        0
    );
    let mut c_chains: Vec<SinewTransform> = chains.iter().map(|&t| t.into()).collect();
    let goals: Vec<SinewVec3> = targets.iter().map(|t| t.position.into()).collect();
    // SAFETY: arrays of 2 items (chains 2 * n), a live handle, out-pointers to locals.
    unsafe {
        let mut c_aim = std::ptr::null_mut();
        let mut c_settings = std::mem::MaybeUninit::uninit();
        sinew_aim_ik_settings_default(c_settings.as_mut_ptr());
        ok(sinew_aim_ik_create(c_settings.as_ptr(), 8, &mut c_aim));
        let mut result = SinewIkResult::default();
        assert_eq!(
            allocations(|| {
                let c = c_chains.as_mut_ptr();
                ok(sinew_aim_ik_solve(
                    c_aim,
                    c,
                    n as u32,
                    &goals[0],
                    &goals[1],
                    &mut result,
                ));
                let p = std::ptr::null();
                let r = std::ptr::null_mut();
                ok(sinew_aim_ik_solve_batch(
                    c_aim,
                    c,
                    n as u32,
                    2,
                    goals.as_ptr(),
                    p,
                    r,
                ));
            }),
            0
        );
        sinew_aim_ik_destroy(c_aim);
    }
}

/// Multi-effector FABRIK, pose and model-space, tree and one-effector paths, with constraints,
/// and a solve that retries.
#[test]
fn multi_effector_fabrik_allocates_nothing() {
    use common::trees::{model, upper_body};
    use sinew::{
        EffectorTarget, IkResult, JointConstraint, Limit, MultiFabrik, MultiFabrikSettings, Pose,
        Vec3,
    };
    let (skeleton, root, hands) = upper_body();
    let mut ik = MultiFabrik::new(MultiFabrikSettings::default(), 32, 4).unwrap();
    let cone = Limit::Cone {
        half_angle_1: 0.8,
        half_angle_2: 0.8,
        twist: None,
    };
    ik.set_constraint(
        9,
        Some(JointConstraint::new(sinew::Quat::IDENTITY, Vec3::X, cone).unwrap()),
    )
    .unwrap();
    let mut pose = Pose::new(skeleton.clone());
    let start = model(&pose);
    let mut frame = 0.0f32;
    let mut results = [IkResult::default(); 2];
    let mut m = model(&pose);
    let n = allocations(|| {
        frame += 0.05;
        let offset = Vec3::new(frame.sin(), frame.cos(), 0.0) * 0.1;
        let targets = [
            EffectorTarget::at(start[10].translation + offset),
            EffectorTarget::at(start[14].translation - offset).with_weight(0.5),
        ];
        ik.solve_pose(&mut pose, root, &hands, &targets, &mut results)
            .unwrap();
        ik.solve_pose(
            &mut pose,
            root,
            &hands[..1],
            &targets[..1],
            &mut results[..1],
        )
        .unwrap();
        ik.solve(&skeleton, &mut m, root, &hands, &targets, &mut results)
            .unwrap();
    });
    assert_eq!(n, 0);
    // Arms held nearly straight by tight cones, hands sent up, back and in: the first attempt
    // stops short (it runs at most max_iterations) and the solve retries.
    let stiff = Limit::Cone {
        half_angle_1: 0.02,
        half_angle_2: 0.02,
        twist: None,
    };
    for joint in [8, 9, 12, 13] {
        let c = JointConstraint::new(sinew::Quat::IDENTITY, Vec3::X, stiff).unwrap();
        ik.set_constraint(joint, Some(c)).unwrap();
    }
    let targets = [
        EffectorTarget::at(start[10].translation + Vec3::new(-0.3, 0.3, 0.3)),
        EffectorTarget::at(start[14].translation + Vec3::new(0.3, 0.3, 0.3)),
    ];
    let rest = Pose::new(skeleton.clone());
    let rest: Vec<_> = (0..rest.joint_count())
        .map(|j| rest.local().get(j))
        .collect();
    let n = allocations(|| {
        pose.set_local(&rest).unwrap();
        ik.solve_pose(&mut pose, root, &hands, &targets, &mut results)
            .unwrap();
    });
    assert_eq!(n, 0);
    let most = MultiFabrikSettings::default().max_iterations;
    assert!(results[0].iterations > most, "no retry ran: {results:?}");
}

/// Multi-effector FABRIK through the C ABI: pose and model-space solves of the upper body's two
/// hands along a moving target, with a constraint and results written.
#[test]
fn c_abi_multi_effector_fabrik_allocates_nothing() {
    use common::trees::{model, upper_body};
    let (skeleton, root, hands) = upper_body();
    let c_skeleton = c_skeleton_of(&skeleton);
    let pose = Pose::new(skeleton.clone());
    let start = model(&pose);
    let n = skeleton.joint_count();
    let mut c_model: Vec<SinewTransform> = start.iter().map(|&t| t.into()).collect();
    let (mut c_pose, mut solver) = (null_mut(), null_mut());
    // SAFETY: valid pointers to locals throughout; handles are destroyed at the end.
    unsafe {
        ok(sinew_pose_create(c_skeleton, &mut c_pose));
        let mut settings = std::mem::MaybeUninit::uninit();
        sinew_multi_fabrik_settings_default(settings.as_mut_ptr());
        ok(sinew_multi_fabrik_create(
            settings.as_ptr(),
            32,
            4,
            &mut solver,
        ));
        let mut cone = std::mem::MaybeUninit::uninit();
        sinew_joint_constraint_default(cone.as_mut_ptr());
        ok(sinew_multi_fabrik_set_constraint(solver, 9, cone.as_ptr()));
        let mut frame = 0.0f32;
        let mut results = [SinewIkResult::default(); 2];
        let allocated = allocations(|| {
            frame += 0.05;
            let offset = Vec3::new(frame.sin(), frame.cos(), 0.0) * 0.1;
            let target = |p: Vec3, weight: f32| SinewEffectorTarget {
                position: p.into(),
                rotation: Quat::from_rotation_y(frame).into(),
                weight,
                use_rotation: 0,
            };
            let mut targets = [
                target(start[hands[0] as usize].translation + offset, 1.0),
                target(start[hands[1] as usize].translation - offset, 0.5),
            ];
            targets[1].use_rotation = 1;
            let (e, t, r) = (hands.as_ptr(), targets.as_ptr(), results.as_mut_ptr());
            ok(sinew_multi_fabrik_solve_pose(
                solver, c_pose, root, e, 2, t, r,
            ));
            ok(sinew_multi_fabrik_solve_pose(
                solver, c_pose, root, e, 1, t, r,
            ));
            let m = c_model.as_mut_ptr();
            ok(sinew_multi_fabrik_solve(
                solver, c_skeleton, m, n as u32, root, e, 2, t, r,
            ));
        });
        assert_eq!(allocated, 0);
        sinew_multi_fabrik_destroy(solver);
        sinew_pose_destroy(c_pose);
        sinew_skeleton_destroy(c_skeleton);
    }
}
