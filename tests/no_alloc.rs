//! Solve paths allocate nothing once their handles exist: a counting global allocator tallies
//! this thread's allocations around each call, through the Rust API and the C ABI.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::ptr::{null, null_mut};
use std::sync::Arc;

use sinew::ffi::*;
use sinew::{Pose, Quat, Skeleton, Transform, TwoBoneIk, TwoBoneIkSettings, TwoBoneTarget, Vec3};

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
        let model = pose.model().to_vec();
        assert_eq!(
            allocations(|| {
                pose.model();
            }),
            0
        );
        assert_eq!(allocations(|| pose.set_model(&model).unwrap()), 0);
        let local = pose.local().to_vec();
        assert_eq!(allocations(|| pose.set_local(&local).unwrap()), 0);
    }
}

#[test]
fn c_abi_solve_and_pose_paths_allocate_nothing() {
    let rest: Vec<SinewTransform> = arm_skeleton()
        .rest_pose()
        .iter()
        .map(|&t| t.into())
        .collect();
    let parents = [-1, 0, 1, 2];
    let (mut skeleton, mut pose, mut solver) = (null_mut(), null_mut(), null_mut());
    let mut settings = SinewTwoBoneIkSettings::from(TwoBoneIkSettings::default());
    settings.allow_stretching = 1;
    // SAFETY: valid pointers to locals throughout; handles are destroyed at the end.
    unsafe {
        assert_eq!(
            sinew_skeleton_create(parents.as_ptr(), rest.as_ptr(), null(), 4, &mut skeleton),
            SinewStatus::Ok
        );
        assert_eq!(sinew_pose_create(skeleton, &mut pose), SinewStatus::Ok);
        assert_eq!(
            sinew_two_bone_ik_create(&settings, &mut solver),
            SinewStatus::Ok
        );
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
                assert_eq!(
                    sinew_pose_get_model(pose, model.as_mut_ptr(), 4),
                    SinewStatus::Ok
                );
                let mut chain = [model[1], model[2], model[3]];
                let s = sinew_two_bone_ik_solve(
                    solver,
                    chain.as_mut_ptr(),
                    &goal,
                    null(),
                    &pole,
                    &mut result,
                );
                assert_eq!(s, SinewStatus::Ok);
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
                assert_eq!(s, SinewStatus::Ok);
                assert_eq!(
                    sinew_pose_set_model(pose, model.as_ptr(), 4),
                    SinewStatus::Ok
                );
                assert_eq!(
                    sinew_pose_set_local(pose, rest.as_ptr(), 4),
                    SinewStatus::Ok
                );
                assert_eq!(
                    sinew_pose_get_local(pose, model.as_mut_ptr(), 4),
                    SinewStatus::Ok
                );
            }),
            0
        );
        sinew_two_bone_ik_destroy(solver);
        sinew_pose_destroy(pose);
        sinew_skeleton_destroy(skeleton);
    }
}
