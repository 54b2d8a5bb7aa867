//! Distinct handles used from different threads at once: 8 threads, each with its own pose and
//! solvers (two-bone, FABRIK, CCD) over one shared skeleton, give bitwise the results of the
//! same work done serially; error messages stay on the thread that caused them.

use std::ptr::{null, null_mut};

use sinew::ffi::error::last_error_message;
use sinew::ffi::*;

mod common;

use common::ffi::default_chain_solvers;

/// A skeleton handle shared read-only across threads (the C ABI documents this as safe).
#[derive(Clone, Copy)]
struct Shared(*const SinewSkeleton);
// SAFETY: a SinewSkeleton is immutable after creation and reference counted atomically.
unsafe impl Send for Shared {}

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

fn make_skeleton() -> *mut SinewSkeleton {
    let parents = [-1, 0, 1, 2];
    let rest = [
        transform(0.0, 1.4, 0.0),
        transform(0.15, 0.0, 0.0),
        transform(0.3, 0.0, 0.2),
        transform(0.28, 0.0, 0.0),
    ];
    let mut skeleton = null_mut();
    // SAFETY: valid arrays of 4 and an out-pointer.
    let status =
        unsafe { sinew_skeleton_create(parents.as_ptr(), rest.as_ptr(), null(), 4, &mut skeleton) };
    assert_eq!(status, SinewStatus::Ok);
    skeleton
}

/// Solves `frames` frames of an orbiting target for worker `seed`; returns every model pose.
fn work(skeleton: Shared, seed: u32, frames: u32) -> Vec<SinewTransform> {
    let (mut pose, mut solver) = (null_mut(), null_mut());
    let mut settings = std::mem::MaybeUninit::uninit();
    let mut out = Vec::with_capacity((frames * 4) as usize);
    // SAFETY: handles are created, used and destroyed on this thread; pointers are to locals.
    unsafe {
        sinew_two_bone_ik_settings_default(settings.as_mut_ptr());
        let mut settings = settings.assume_init();
        settings.allow_stretching = seed % 2;
        assert_eq!(
            sinew_two_bone_ik_create(&settings, &mut solver),
            SinewStatus::Ok
        );
        assert_eq!(sinew_pose_create(skeleton.0, &mut pose), SinewStatus::Ok);
        let (fabrik, ccd) = default_chain_solvers(4);
        let pole = SinewVec3 {
            x: 0.2,
            y: 0.8,
            z: -1.0,
        };
        for f in 0..frames {
            let t = f as f32 * 0.01 + seed as f32;
            let goal = SinewVec3 {
                x: 0.15 + 0.7 * t.cos(),
                y: 1.4 + 0.7 * t.sin(),
                z: 0.1 * (3.0 * t).sin(),
            };
            let s = sinew_two_bone_ik_solve_pose(
                solver,
                pose,
                1,
                2,
                3,
                &goal,
                null(),
                &pole,
                null_mut(),
            );
            assert_eq!(s, SinewStatus::Ok);
            let mut model = [SinewTransform::default(); 4];
            assert_eq!(
                sinew_pose_get_model(pose, model.as_mut_ptr(), 4),
                SinewStatus::Ok
            );
            out.extend_from_slice(&model);
        }
        sinew_pose_destroy(pose);
        sinew_two_bone_ik_destroy(solver);
        sinew_fabrik_destroy(fabrik);
        sinew_ccd_destroy(ccd);
    }
    out
}

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
            ]
        })
        .map(f32::to_bits)
        .collect()
}

#[test]
fn eight_threads_match_serial_bitwise() {
    let skeleton = make_skeleton();
    let shared = Shared(skeleton);
    let serial: Vec<_> = (0..8).map(|seed| bits(&work(shared, seed, 2000))).collect();
    let handles: Vec<_> = (0..8)
        .map(|seed| std::thread::spawn(move || bits(&work(shared, seed, 2000))))
        .collect();
    for (seed, h) in handles.into_iter().enumerate() {
        assert!(
            h.join().unwrap() == serial[seed],
            "thread {seed} differs from serial"
        );
    }
    // SAFETY: created above; no thread uses it any more.
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
