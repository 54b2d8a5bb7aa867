//! Regression tests for bugs found by the fuzz targets in `fuzz/` (see docs/FUZZING.md), each
//! reduced to the smallest C ABI call sequence that shows it. They call the exports exactly as
//! C does (raw pointers, out-pointers), like the fuzz targets, so a fix is checked where the bug
//! was seen.

use std::ptr::null;

use sinew::ffi::*;

fn v3(x: f32, y: f32, z: f32) -> SinewVec3 {
    SinewVec3 { x, y, z }
}

fn quat(x: f32, y: f32, z: f32, w: f32) -> SinewQuat {
    SinewQuat { x, y, z, w }
}

fn transform(translation: SinewVec3, rotation: SinewQuat) -> SinewTransform {
    SinewTransform {
        translation,
        rotation,
        scale: v3(1.0, 1.0, 1.0),
    }
}

fn identity() -> SinewTransform {
    transform(v3(0.0, 0.0, 0.0), quat(0.0, 0.0, 0.0, 1.0))
}

fn squared_length(q: SinewQuat) -> f32 {
    q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w
}

/// A skeleton of `parents.len()` joints at the identity rest pose, and a pose of it. Both are
/// destroyed by the caller.
fn skeleton_and_pose(parents: &[i32]) -> (*mut SinewSkeleton, *mut SinewPose) {
    let rest = vec![identity(); parents.len()];
    let (mut skeleton, mut pose) = (std::ptr::null_mut(), std::ptr::null_mut());
    // SAFETY: arrays hold `parents.len()` items; out-pointers are locals.
    unsafe {
        assert_eq!(
            sinew_skeleton_create(
                parents.as_ptr(),
                rest.as_ptr(),
                null(),
                parents.len() as u32,
                &mut skeleton
            ),
            SinewStatus::Ok
        );
        assert_eq!(sinew_pose_create(skeleton, &mut pose), SinewStatus::Ok);
    }
    (skeleton, pose)
}

fn local_of(pose: *const SinewPose, n: usize) -> Vec<SinewTransform> {
    let mut out = vec![SinewTransform::default(); n];
    // SAFETY: `out` holds `n` items.
    assert_eq!(
        unsafe { sinew_pose_get_local(pose, out.as_mut_ptr(), n as u32) },
        SinewStatus::Ok
    );
    out
}

/// Found by the `two_bone`, `chain`, `blend` and `clip` targets (`non-unit-rotation`):
/// `sinew_pose_set_local` validated rotations with the robust normalization (which accepts any
/// finite non-zero quaternion) but then stored `rotation.normalize()`, whose squared length
/// overflows f32 once a component exceeds about 1.8e19: the call returned OK and the pose held
/// the zero quaternion (0, 0, 0, 0). `sinew_pose_set_model` and `sinew_skeleton_create`
/// normalize the same input correctly. The README promises normalized rotations ("rotations
/// renormalized"); the zero rotation then flows into model-space transforms, blends and solves.
#[test]
fn set_local_with_a_huge_rotation_stores_a_unit_rotation() {
    let (skeleton, pose) = skeleton_and_pose(&[-1]);
    let huge = [transform(v3(1.0, 2.0, 3.0), quat(0.0, 0.0, 0.0, 2e19))];
    // SAFETY: `huge` holds one transform, the pose has one joint.
    let status = unsafe { sinew_pose_set_local(pose, huge.as_ptr(), 1) };
    let stored = local_of(pose, 1)[0];
    // SAFETY: live handles, destroyed once.
    unsafe {
        sinew_pose_destroy(pose);
        sinew_skeleton_destroy(skeleton);
    }
    // Either rejected (outputs untouched) or accepted as the unit rotation it points along.
    if status == SinewStatus::Ok {
        assert!(
            (squared_length(stored.rotation) - 1.0).abs() < 1e-5,
            "set_local returned OK but stored rotation {:?} (squared length {})",
            stored.rotation,
            squared_length(stored.rotation)
        );
        assert_eq!(stored.rotation, quat(0.0, 0.0, 0.0, 1.0));
    } else {
        assert_eq!(stored, identity(), "a failed set_local changed the pose");
    }
}

/// Found by the `skeleton` target (`contract`): `sinew_skeleton_find_joint` converted the query
/// with `to_string_lossy`, so a name that is not valid UTF-8 (here the single byte 0xFF) was
/// looked up as U+FFFD and found a joint whose name really is "\u{FFFD}". No joint has the
/// queried name (skeleton names must be valid UTF-8, so none can), and the header documents
/// `SINEW_STATUS_NOT_FOUND` for that case; invalid UTF-8 could also be an INVALID_ARGUMENT, but
/// never a hit on another name.
#[test]
fn find_joint_with_invalid_utf8_finds_nothing() {
    let names = [c"\u{FFFD}".as_ptr(), c"hand".as_ptr()];
    let rest = [identity(), identity()];
    let parents = [-1, 0];
    let mut skeleton = std::ptr::null_mut();
    // SAFETY: arrays hold two items; names are NUL-terminated.
    unsafe {
        assert_eq!(
            sinew_skeleton_create(
                parents.as_ptr(),
                rest.as_ptr(),
                names.as_ptr(),
                2,
                &mut skeleton
            ),
            SinewStatus::Ok
        );
    }
    let query = [0xFFu8, 0];
    let mut index = 12345u32;
    // SAFETY: `query` is NUL-terminated; out-value is a local.
    let status = unsafe { sinew_skeleton_find_joint(skeleton, query.as_ptr().cast(), &mut index) };
    // SAFETY: live handle, destroyed once.
    unsafe { sinew_skeleton_destroy(skeleton) };
    assert_ne!(
        status,
        SinewStatus::Ok,
        "find_joint(b\"\\xFF\") found joint {index}, named \"\\u{{FFFD}}\""
    );
    assert_eq!(index, 12345, "a failed find_joint wrote its out-value");
}

/// Found by the `two_bone` target (`non-finite`): with `allow_stretching = 1`,
/// `sinew_two_bone_ik_solve_pose` writes each solved joint's local translation as
/// `parent_model.inverse_mul(solved_model).translation` with no finiteness check. Under a
/// parent whose model scale is tiny on some axis (here 1e-38, whose reciprocal 1e38 is still
/// finite, so the safe reciprocal keeps it) and large on another (1e6), the rounding error of the
/// solved model-space bone is multiplied by that reciprocal and overflows: the call returns OK
/// and the pose holds an infinite translation. The README promises "Outputs are never NaN or
/// infinite" (finite inputs whose result would overflow give `SINEW_STATUS_NUMERIC_OVERFLOW`,
/// with the pose untouched). Without stretching only rotations are written and the pose stays
/// finite.
#[test]
fn stretching_two_bone_pose_solve_under_a_degenerate_scale_stays_finite() {
    let (skeleton, pose) = skeleton_and_pose(&[-1, 0, 1, 2]);
    let id = quat(0.0, 0.0, 0.0, 1.0);
    let local = [
        SinewTransform {
            translation: v3(0.0, 0.0, 0.0),
            rotation: id,
            scale: v3(1e-38, 1e-38, 1e6),
        },
        transform(v3(0.0, 0.0, 100.0), id),
        transform(v3(0.0, 0.0, 100.0), id),
        transform(v3(0.0, 0.0, 100.0), id),
    ];
    let mut settings = std::mem::MaybeUninit::uninit();
    let mut solver = std::ptr::null_mut();
    // SAFETY: `local` holds the pose's 4 joints; out-pointers are locals.
    unsafe {
        assert_eq!(
            sinew_pose_set_local(pose, local.as_ptr(), 4),
            SinewStatus::Ok
        );
        sinew_two_bone_ik_settings_default(settings.as_mut_ptr());
        let mut settings = settings.assume_init();
        settings.allow_stretching = 1;
        assert_eq!(
            sinew_two_bone_ik_create(&settings, &mut solver),
            SinewStatus::Ok
        );
    }
    let before = local_of(pose, 4);
    let target = v3(100.0, 0.0, 0.0);
    // SAFETY: live handles; optional arguments NULL.
    let status = unsafe {
        sinew_two_bone_ik_solve_pose(
            solver,
            pose,
            1,
            2,
            3,
            &target,
            null(),
            null(),
            std::ptr::null_mut(),
        )
    };
    let after = local_of(pose, 4);
    // SAFETY: live handles, destroyed once.
    unsafe {
        sinew_two_bone_ik_destroy(solver);
        sinew_pose_destroy(pose);
        sinew_skeleton_destroy(skeleton);
    }
    let finite = |t: &SinewTransform| {
        [t.translation.x, t.translation.y, t.translation.z]
            .iter()
            .chain(&[t.rotation.x, t.rotation.y, t.rotation.z, t.rotation.w])
            .chain(&[t.scale.x, t.scale.y, t.scale.z])
            .all(|v| v.is_finite())
    };
    if status == SinewStatus::Ok {
        for (j, t) in after.iter().enumerate() {
            assert!(
                finite(t),
                "solve_pose returned OK but joint {j} is not finite: {t:?}"
            );
        }
    } else {
        assert_eq!(after, before, "a failed solve_pose changed the pose");
    }
}
