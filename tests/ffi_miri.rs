//! Round trips through every export of the C ABI, called from Rust exactly as C calls them (raw
//! pointers, out-pointers, NULLs), small enough to run under Miri in seconds (about 20 s, with
//! the lib's unit tests):
//!
//! ```sh
//! MIRIFLAGS="-Zmiri-deterministic-floats -Zmiri-strict-provenance" \
//!     cargo +nightly miri test --lib --test ffi_miri
//! ```
//!
//! It also runs in plain `cargo test`. Results that must agree bit for bit natively are compared
//! within [`SAME`] under Miri, which perturbs transcendental functions unless told not to.
//! What it adds to `tests/c_abi.rs` (which checks the numbers
//! from a real C program but cannot run under Miri) is Miri's view of the unsafe boundary: every
//! export's pointer handling (borrows formed from caller pointers, aliasing outputs such as
//! `out == a` in a blend, batch inputs pointing into the chains being solved, slices from
//! `(pointer, count)`, handles boxed and freed, reference
//! counted skeletons and clips outliving their handles, the thread-local error slot, a skeleton
//! shared by two threads) is checked for undefined behaviour, leaks and data races.
//!
//! Each handle kind is created, used on its success and error paths, and destroyed, and every
//! `*_destroy` and `*_settings_default` is called with NULL. `every_export_is_called_here` fails
//! when the header declares a function this file never calls, so a new export cannot slip by.
//! Inputs are kept tiny (a 5-joint skeleton, 4-joint chains, a few frames) because Miri
//! interprets every instruction; the numbers themselves are checked elsewhere.

use std::ffi::{c_char, CString};
use std::mem::MaybeUninit;
use std::ptr::{null, null_mut};

use sinew::ffi::error::last_error_message;
use sinew::ffi::*;

// ------------------------------------------------------------------------------ helpers

/// Asserts `SINEW_STATUS_OK`, showing the error message otherwise.
#[track_caller]
fn ok(status: SinewStatus) {
    assert_eq!(status, SinewStatus::Ok, "message: {}", last_error_message());
    assert!(
        last_error_message().is_empty(),
        "success clears the message"
    );
}

/// Asserts a failure with `expected` status and a message mentioning `needle`.
#[track_caller]
fn fails(status: SinewStatus, expected: SinewStatus, needle: &str) {
    assert_eq!(status, expected, "message: {}", last_error_message());
    let message = last_error_message();
    assert!(
        message.contains(needle),
        "message {message:?} does not mention {needle:?}"
    );
}

const ONE: SinewVec3 = SinewVec3 {
    x: 1.0,
    y: 1.0,
    z: 1.0,
};
const IDENTITY: SinewQuat = SinewQuat {
    x: 0.0,
    y: 0.0,
    z: 0.0,
    w: 1.0,
};

fn v3(x: f32, y: f32, z: f32) -> SinewVec3 {
    SinewVec3 { x, y, z }
}

/// A rotation of `angle` radians about Z.
fn rot_z(angle: f32) -> SinewQuat {
    let (s, c) = (angle * 0.5).sin_cos();
    SinewQuat {
        x: 0.0,
        y: 0.0,
        z: s,
        w: c,
    }
}

fn tr(x: f32, y: f32, z: f32, rotation: SinewQuat) -> SinewTransform {
    SinewTransform {
        translation: v3(x, y, z),
        rotation,
        scale: ONE,
    }
}

fn dist(a: SinewVec3, b: SinewVec3) -> f32 {
    ((a.x - b.x).powi(2) + (a.y - b.y).powi(2) + (a.z - b.z).powi(2)).sqrt()
}

fn close(a: &SinewTransform, b: &SinewTransform, eps: f32) -> bool {
    let (p, q) = (a.rotation, b.rotation);
    let dot = p.x * q.x + p.y * q.y + p.z * q.z + p.w * q.w;
    dist(a.translation, b.translation) <= eps
        && dist(a.scale, b.scale) <= eps
        && (1.0 - dot.abs()) <= eps
}

/// How far two results of the same computation, reached by different paths (an aliased output
/// or a distinct one, a cursor or none, another thread), may differ: nothing natively, where
/// they agree bit for bit; a little under Miri, which deliberately perturbs the last bits of
/// transcendental functions (`sin`, `acos`, ...) on each call.
const SAME: f32 = if cfg!(miri) { 1e-5 } else { 0.0 };

/// Asserts two arrays of transforms agree within [`SAME`].
#[track_caller]
fn same(a: &[SinewTransform], b: &[SinewTransform]) {
    let flat = |t: &SinewTransform| {
        let (p, q, s) = (t.translation, t.rotation, t.scale);
        [p.x, p.y, p.z, q.x, q.y, q.z, q.w, s.x, s.y, s.z]
    };
    assert_eq!(a.len(), b.len());
    for (i, (x, y)) in a.iter().zip(b).enumerate() {
        let agree = flat(x)
            .iter()
            .zip(flat(y).iter())
            .all(|(u, v)| (u - v).abs() <= SAME);
        assert!(agree, "joint {i}: {x:?} != {y:?}");
    }
}

/// Storage aligned well beyond any Sinew type, so `.ptr(1)` is misaligned for sure (a plain
/// byte array may land on any address, and one byte past it could then be aligned).
#[repr(C, align(16))]
struct Bytes([u8; 256]);

impl Bytes {
    fn new() -> Self {
        Self([0; 256])
    }
    /// A pointer `offset` bytes into the storage, typed as `T` (never dereferenced by the tests).
    fn ptr<T>(&mut self, offset: usize) -> *mut T {
        self.0.as_mut_ptr().wrapping_add(offset).cast()
    }
    fn untouched(&self) -> bool {
        self.0.iter().all(|&b| b == 0)
    }
}

/// The test skeleton: root, upper arm, forearm, hand (a chain), and a head on the root.
const JOINTS: u32 = 5;
const PARENTS: [i32; 5] = [-1, 0, 1, 2, 0];
const NAMES: [&str; 5] = ["root", "upper", "lower", "hand", "head"];

/// 0.4 rad about Z, spelled out: under Miri `sin`/`cos` are not bit-reproducible from call
/// to call, and the rest pose is compared exactly.
const BEND: SinewQuat = SinewQuat {
    x: 0.0,
    y: 0.0,
    z: 0.198_669_33,
    w: 0.980_066_6,
};

fn rest() -> [SinewTransform; 5] {
    [
        tr(0.0, 1.0, 0.0, IDENTITY),
        tr(0.1, 0.0, 0.0, IDENTITY),
        tr(0.3, 0.0, 0.0, BEND),
        tr(0.3, 0.0, 0.0, IDENTITY),
        tr(0.0, 0.5, 0.0, IDENTITY),
    ]
}

/// Joint names as C strings, and the array of pointers to them (valid while the first lives).
fn c_names(names: &[&str]) -> (Vec<CString>, Vec<*const c_char>) {
    let owned: Vec<CString> = names.iter().map(|n| CString::new(*n).unwrap()).collect();
    let ptrs = owned.iter().map(|n| n.as_ptr()).collect();
    (owned, ptrs)
}

fn skeleton() -> *mut SinewSkeleton {
    let (_owned, names) = c_names(&NAMES);
    let rest = rest();
    let mut out = null_mut();
    // SAFETY: arrays of JOINTS items, an out-pointer to a local.
    ok(unsafe {
        sinew_skeleton_create(
            PARENTS.as_ptr(),
            rest.as_ptr(),
            names.as_ptr(),
            JOINTS,
            &mut out,
        )
    });
    assert!(!out.is_null());
    out
}

fn pose(skeleton: *const SinewSkeleton) -> *mut SinewPose {
    let mut out = null_mut();
    // SAFETY: a live skeleton, an out-pointer to a local.
    ok(unsafe { sinew_pose_create(skeleton, &mut out) });
    out
}

fn local(pose: *const SinewPose) -> [SinewTransform; 5] {
    let mut out = [SinewTransform::default(); 5];
    // SAFETY: a live pose and a buffer of JOINTS transforms.
    ok(unsafe { sinew_pose_get_local(pose, out.as_mut_ptr(), JOINTS) });
    out
}

fn set_local(pose: *mut SinewPose, local: &[SinewTransform; 5]) {
    // SAFETY: a live pose and JOINTS transforms.
    ok(unsafe { sinew_pose_set_local(pose, local.as_ptr(), JOINTS) });
}

fn model(pose: *mut SinewPose) -> [SinewTransform; 5] {
    let mut out = [SinewTransform::default(); 5];
    // SAFETY: a live pose and a buffer of JOINTS transforms.
    ok(unsafe { sinew_pose_get_model(pose, out.as_mut_ptr(), JOINTS) });
    out
}

/// A pose differing from the rest pose in every joint but the root.
fn posed(skeleton: *const SinewSkeleton) -> *mut SinewPose {
    let p = pose(skeleton);
    let mut l = rest();
    l[1].rotation = rot_z(0.3);
    l[2].rotation = rot_z(0.9);
    l[3].translation = v3(0.35, 0.05, 0.0);
    l[4].scale = v3(1.2, 1.2, 1.2);
    set_local(p, &l);
    p
}

// ------------------------------------------------------------------------------ conventions

#[test]
fn versions_and_the_error_slot() {
    assert_eq!(sinew_abi_version(), SINEW_ABI_VERSION);
    let (mut major, mut minor, mut patch) = (99, 99, 99);
    // SAFETY: out-pointers to locals.
    ok(unsafe { sinew_version(&mut major, &mut minor, &mut patch) });
    assert_eq!(
        format!("{major}.{minor}.{patch}"),
        env!("CARGO_PKG_VERSION")
    );
    // SAFETY: NULL is rejected before any write.
    let s = unsafe { sinew_version(null_mut(), &mut minor, &mut patch) };
    fails(s, SinewStatus::NullPointer, "major");

    // Length query, then a buffer too small for the message, then one large enough.
    let message = last_error_message();
    let mut len = 0usize;
    // SAFETY: NULL with capacity 0 is a length query.
    assert_eq!(
        unsafe { sinew_last_error_message(null_mut(), 0, &mut len) },
        SinewStatus::Ok
    );
    assert_eq!(len, message.len());
    let mut small = [0x7f as c_char; 5];
    // SAFETY: a buffer of 5 bytes.
    let s = unsafe { sinew_last_error_message(small.as_mut_ptr(), 5, null_mut()) };
    assert_eq!(s, SinewStatus::Ok);
    let bytes: Vec<u8> = small.iter().map(|&c| c as u8).collect();
    assert_eq!(&bytes[..4], &message.as_bytes()[..4]);
    assert_eq!(bytes[4], 0, "NUL-terminated within capacity");
    let mut one = [0x7f as c_char; 1];
    // SAFETY: a buffer of 1 byte: only the terminator fits.
    unsafe { sinew_last_error_message(one.as_mut_ptr(), 1, null_mut()) };
    assert_eq!(one[0], 0);
    let mut big = vec![0x7f as c_char; len + 1];
    // SAFETY: a buffer of len + 1 bytes.
    unsafe { sinew_last_error_message(big.as_mut_ptr(), big.len(), &mut len) };
    let text: Vec<u8> = big[..len].iter().map(|&c| c as u8).collect();
    assert_eq!(String::from_utf8(text).unwrap(), message);
    assert_eq!(big[len], 0);
    assert_eq!(last_error_message(), message, "reading does not clear");
    // SAFETY: a NULL buffer with a capacity is rejected, not written.
    let s = unsafe { sinew_last_error_message(null_mut(), 8, null_mut()) };
    assert_eq!(s, SinewStatus::NullPointer);
    // The next successful call clears the message.
    // SAFETY: out-pointers to locals.
    ok(unsafe { sinew_version(&mut major, &mut minor, &mut patch) });
}

#[test]
fn destroying_null_and_defaults_into_null_do_nothing() {
    let mut count = 0;
    // SAFETY: a NULL skeleton is rejected before use.
    let s = unsafe { sinew_skeleton_joint_count(null(), &mut count) };
    fails(s, SinewStatus::NullPointer, "skeleton");
    let message = last_error_message();
    // SAFETY: NULL is a no-op for every destroy and settings default.
    unsafe {
        sinew_skeleton_destroy(null_mut());
        sinew_pose_destroy(null_mut());
        sinew_two_bone_ik_destroy(null_mut());
        sinew_fabrik_destroy(null_mut());
        sinew_ccd_destroy(null_mut());
        sinew_hand_ik_retargeting_destroy(null_mut());
        sinew_joint_mask_destroy(null_mut());
        sinew_clip_destroy(null_mut());
        sinew_clip_cursor_destroy(null_mut());
        sinew_crossfade_destroy(null_mut());
    }
    assert_eq!(
        last_error_message(),
        message,
        "functions returning nothing leave the message alone"
    );
    // SAFETY: NULL is ignored by every settings default.
    unsafe {
        sinew_two_bone_ik_settings_default(null_mut());
        sinew_fabrik_settings_default(null_mut());
        sinew_ccd_settings_default(null_mut());
        sinew_hand_ik_retargeting_settings_default(null_mut());
        sinew_joint_constraint_default(null_mut());
    }
    // Destroying a live handle leaves it alone too.
    let skel = skeleton();
    // SAFETY: a NULL skeleton is rejected; then the live one is destroyed once.
    unsafe {
        sinew_skeleton_joint_count(null(), &mut count);
        sinew_skeleton_destroy(skel);
    }
    assert!(last_error_message().contains("skeleton"));
}

/// The README says functions returning nothing leave the error message alone, and the header
/// says the settings defaults ignore NULL: a NULL `out` must not replace the thread's message.
#[test]
fn settings_defaults_into_null_keep_the_error_message() {
    let mut count = 0;
    // SAFETY: a NULL skeleton is rejected before use; NULL is ignored by the defaults.
    unsafe {
        sinew_skeleton_joint_count(null(), &mut count);
        let message = last_error_message();
        sinew_two_bone_ik_settings_default(null_mut());
        sinew_fabrik_settings_default(null_mut());
        sinew_ccd_settings_default(null_mut());
        sinew_hand_ik_retargeting_settings_default(null_mut());
        sinew_joint_constraint_default(null_mut());
        assert_eq!(last_error_message(), message);
    }
}

// ------------------------------------------------------------------------------ skeleton, pose

#[test]
fn skeleton_round_trip_and_errors() {
    let skel = skeleton();
    let mut count = 0;
    // SAFETY: live handle, out-pointers to locals, arrays of the stated sizes throughout.
    unsafe {
        ok(sinew_skeleton_joint_count(skel, &mut count));
        assert_eq!(count, JOINTS);
        let mut index = 99;
        let name = CString::new("hand").unwrap();
        ok(sinew_skeleton_find_joint(skel, name.as_ptr(), &mut index));
        assert_eq!(index, 3);
        let missing = CString::new("tail").unwrap();
        let s = sinew_skeleton_find_joint(skel, missing.as_ptr(), &mut index);
        fails(s, SinewStatus::NotFound, "tail");
        assert_eq!(index, 3, "untouched on error");
        let s = sinew_skeleton_find_joint(skel, null(), &mut index);
        fails(s, SinewStatus::NullPointer, "name");

        let mut parents = [7i32; 5];
        ok(sinew_skeleton_get_parents(
            skel,
            parents.as_mut_ptr(),
            JOINTS,
        ));
        assert_eq!(parents, PARENTS);
        let mut rest_out = [SinewTransform::default(); 5];
        ok(sinew_skeleton_get_rest_pose(
            skel,
            rest_out.as_mut_ptr(),
            JOINTS,
        ));
        for (a, b) in rest_out.iter().zip(rest().iter()) {
            assert!(close(a, b, 1e-6), "{a:?} != {b:?}");
        }
        let mut short = [7i32; 4];
        let s = sinew_skeleton_get_parents(skel, short.as_mut_ptr(), 4);
        fails(s, SinewStatus::SizeMismatch, "out_parents");
        assert_eq!(short, [7; 4]);
        let mut bytes = Bytes::new();
        let s = sinew_skeleton_get_rest_pose(skel, bytes.ptr(2), JOINTS);
        fails(s, SinewStatus::InvalidArgument, "aligned");
        assert!(bytes.untouched());
        sinew_skeleton_destroy(skel);

        // Creation errors leave the out-pointer untouched.
        let rest = rest();
        let sentinel = std::ptr::NonNull::<SinewSkeleton>::dangling().as_ptr();
        let mut out = sentinel;
        let s = sinew_skeleton_create(PARENTS.as_ptr(), rest.as_ptr(), null(), 0, &mut out);
        fails(s, SinewStatus::OutOfRange, "joint_count");
        let bad_parents = [-1, 2, 0, 1, 0];
        let s = sinew_skeleton_create(bad_parents.as_ptr(), rest.as_ptr(), null(), 5, &mut out);
        assert_eq!(s, SinewStatus::InvalidSkeleton, "{}", last_error_message());
        let (_owned, mut names) = c_names(&NAMES);
        names[2] = null();
        let s = sinew_skeleton_create(PARENTS.as_ptr(), rest.as_ptr(), names.as_ptr(), 5, &mut out);
        fails(s, SinewStatus::NullPointer, "names[2]");
        let not_utf8 = [b'a' as c_char, 0xff_u8 as c_char, 0];
        names[2] = not_utf8.as_ptr();
        let s = sinew_skeleton_create(PARENTS.as_ptr(), rest.as_ptr(), names.as_ptr(), 5, &mut out);
        fails(s, SinewStatus::InvalidArgument, "UTF-8");
        let (_dup, dup_names) = c_names(&["a", "b", "c", "b", "e"]);
        let s = sinew_skeleton_create(
            PARENTS.as_ptr(),
            rest.as_ptr(),
            dup_names.as_ptr(),
            5,
            &mut out,
        );
        assert_eq!(s, SinewStatus::InvalidSkeleton, "{}", last_error_message());
        let s = sinew_skeleton_create(null(), rest.as_ptr(), null(), 5, &mut out);
        fails(s, SinewStatus::NullPointer, "parents");
        let s = sinew_skeleton_create(PARENTS.as_ptr(), rest.as_ptr(), null(), 5, null_mut());
        fails(s, SinewStatus::NullPointer, "out_skeleton");
        assert_eq!(out, sentinel);
    }
}

#[test]
fn pose_round_trip_and_errors() {
    let skel = skeleton();
    let p = pose(skel);
    // The pose keeps the skeleton alive after its handle is gone.
    // SAFETY: the handle is not used again.
    unsafe { sinew_skeleton_destroy(skel) };
    let mut count = 0;
    // SAFETY: live pose, out-pointers to locals, arrays of the stated sizes throughout.
    unsafe {
        ok(sinew_pose_joint_count(p, &mut count));
        assert_eq!(count, JOINTS);
        assert_eq!(local(p), rest());

        let mut l = rest();
        l[2].rotation = rot_z(1.1);
        l[3].translation = v3(0.25, 0.1, 0.0);
        set_local(p, &l);
        same(&local(p), &l); // renormalized: exact unless Miri's `sin_cos` is a bit off unit
        let m = model(p);
        let mut hand = SinewTransform::default();
        ok(sinew_pose_get_model_transform(p, 3, &mut hand));
        assert!(close(&hand, &m[3], 1e-6));
        // The const read gives what the mutable one does.
        let mut computed = [SinewTransform::default(); 5];
        ok(sinew_pose_compute_model(p, computed.as_mut_ptr(), JOINTS));
        same(&computed, &m);

        // Model space round trip.
        ok(sinew_pose_reset(p));
        assert_eq!(local(p), rest());
        ok(sinew_pose_set_model(p, m.as_ptr(), JOINTS));
        for (a, b) in local(p).iter().zip(l.iter()) {
            assert!(close(a, b, 1e-5), "{a:?} != {b:?}");
        }
        // Moving one joint in model space; its child follows.
        let target = tr(0.5, 1.5, 0.2, rot_z(-0.3));
        ok(sinew_pose_set_model_transform(p, 2, &target));
        ok(sinew_pose_get_model_transform(p, 2, &mut hand));
        assert!(close(&hand, &target, 1e-5));

        // Errors change nothing.
        let before = local(p);
        let mut nan = before;
        nan[1].translation.y = f32::NAN;
        let s = sinew_pose_set_local(p, nan.as_ptr(), JOINTS);
        assert_eq!(s, SinewStatus::NonFinite);
        let s = sinew_pose_set_model(p, nan.as_ptr(), JOINTS);
        assert_eq!(s, SinewStatus::NonFinite);
        let s = sinew_pose_set_local(p, before.as_ptr(), 4);
        fails(s, SinewStatus::SizeMismatch, "local");
        let mut out4 = [SinewTransform::default(); 4];
        let s = sinew_pose_get_local(p, out4.as_mut_ptr(), 4);
        fails(s, SinewStatus::SizeMismatch, "out_local");
        let s = sinew_pose_get_model(p, out4.as_mut_ptr(), 4);
        fails(s, SinewStatus::SizeMismatch, "out_model");
        let s = sinew_pose_compute_model(p, out4.as_mut_ptr(), 4);
        fails(s, SinewStatus::SizeMismatch, "out_model");
        let s = sinew_pose_compute_model(null(), computed.as_mut_ptr(), JOINTS);
        fails(s, SinewStatus::NullPointer, "pose");
        let s = sinew_pose_get_model_transform(p, JOINTS, &mut hand);
        assert_eq!(s, SinewStatus::OutOfRange);
        let s = sinew_pose_set_model_transform(p, JOINTS, &target);
        assert_eq!(s, SinewStatus::OutOfRange);
        let s = sinew_pose_set_model_transform(p, 1, null());
        fails(s, SinewStatus::NullPointer, "transform");
        let s = sinew_pose_create(null(), &mut null_mut());
        fails(s, SinewStatus::NullPointer, "skeleton");
        let mut bytes = Bytes::new();
        let s = sinew_pose_get_local(p, bytes.ptr(1), JOINTS);
        fails(s, SinewStatus::InvalidArgument, "aligned");
        assert!(bytes.untouched());
        let s = sinew_pose_compute_model(p, bytes.ptr(1), JOINTS);
        fails(s, SinewStatus::InvalidArgument, "aligned");
        assert!(bytes.untouched());
        assert_eq!(local(p), before);
        sinew_pose_destroy(p);
    }
}

// ------------------------------------------------------------------------------ solvers

fn arm_chain() -> [SinewTransform; 3] {
    [
        tr(0.0, 0.0, 0.0, IDENTITY),
        tr(1.0, 0.0, 0.1, IDENTITY),
        tr(2.0, 0.0, 0.0, IDENTITY),
    ]
}

#[test]
fn two_bone_ik_round_trip_and_errors() {
    // SAFETY: settings are written before read; handles are live until destroyed; pointers are
    // to locals or arrays of the stated sizes.
    unsafe {
        let mut defaults = MaybeUninit::uninit();
        sinew_two_bone_ik_settings_default(defaults.as_mut_ptr());
        let defaults = defaults.assume_init();
        let mut solver = null_mut();
        ok(sinew_two_bone_ik_create(&defaults, &mut solver));
        let mut read = MaybeUninit::uninit();
        ok(sinew_two_bone_ik_get_settings(solver, read.as_mut_ptr()));
        assert_eq!(read.assume_init(), defaults);

        let mut stretchy = defaults;
        stretchy.allow_stretching = 1;
        ok(sinew_two_bone_ik_set_settings(solver, &stretchy));
        let mut bad = defaults;
        bad.allow_stretching = 2;
        let s = sinew_two_bone_ik_set_settings(solver, &bad);
        fails(s, SinewStatus::InvalidArgument, "allow_stretching");
        bad = defaults;
        bad.end_rotation = 9;
        let s = sinew_two_bone_ik_set_settings(solver, &bad);
        fails(s, SinewStatus::InvalidArgument, "end_rotation");
        bad = defaults;
        bad.weight = f32::NAN;
        assert_eq!(
            sinew_two_bone_ik_set_settings(solver, &bad),
            SinewStatus::NonFinite
        );
        let mut other = null_mut();
        assert_ne!(sinew_two_bone_ik_create(&bad, &mut other), SinewStatus::Ok);
        assert!(other.is_null());
        ok(sinew_two_bone_ik_get_settings(solver, read.as_mut_ptr()));
        assert_eq!(read.assume_init(), stretchy, "unchanged by failed sets");
        ok(sinew_two_bone_ik_set_settings(solver, &defaults));

        // A chain in place, with a pole and an effector rotation.
        let mut chain = arm_chain();
        let goal = v3(1.0, 1.0, 0.0);
        let pole = v3(1.0, 0.0, 1.0);
        let effector_rotation = rot_z(0.5);
        let mut result = SinewIkResult::default();
        ok(sinew_two_bone_ik_solve(
            solver,
            chain.as_mut_ptr(),
            &goal,
            &effector_rotation,
            &pole,
            &mut result,
        ));
        assert_eq!(result.reached, 1);
        assert!(dist(chain[2].translation, goal) < 1e-4);
        ok(sinew_two_bone_ik_solve(
            solver,
            chain.as_mut_ptr(),
            &goal,
            null(),
            null(),
            null_mut(),
        ));

        // Errors leave the chain and the result untouched.
        let before = chain;
        let stale = result;
        let nan_goal = v3(f32::NAN, 0.0, 0.0);
        let s = sinew_two_bone_ik_solve(
            solver,
            chain.as_mut_ptr(),
            &nan_goal,
            null(),
            null(),
            &mut result,
        );
        assert_eq!(s, SinewStatus::NonFinite);
        let s = sinew_two_bone_ik_solve(
            solver,
            chain.as_mut_ptr(),
            null(),
            null(),
            null(),
            &mut result,
        );
        fails(s, SinewStatus::NullPointer, "effector_position");
        let mut bytes = Bytes::new();
        let s = sinew_two_bone_ik_solve(
            solver,
            chain.as_mut_ptr(),
            &goal,
            null(),
            null(),
            bytes.ptr(1),
        );
        fails(s, SinewStatus::InvalidArgument, "out_result");
        let s =
            sinew_two_bone_ik_solve(solver, bytes.ptr(4 + 1), &goal, null(), null(), null_mut());
        fails(s, SinewStatus::InvalidArgument, "chain");
        assert!(bytes.untouched());
        assert_eq!(chain, before);
        assert_eq!(result, stale);

        // On a pose: upper, lower, hand.
        let skel = skeleton();
        let p = pose(skel);
        let reach = v3(0.3, 1.4, 0.1);
        ok(sinew_two_bone_ik_solve_pose(
            solver,
            p,
            1,
            2,
            3,
            &reach,
            null(),
            &pole,
            &mut result,
        ));
        assert_eq!(result.reached, 1);
        let mut hand = SinewTransform::default();
        ok(sinew_pose_get_model_transform(p, 3, &mut hand));
        assert!(dist(hand.translation, reach) < 1e-4);
        let before = local(p);
        let s =
            sinew_two_bone_ik_solve_pose(solver, p, 1, 3, 2, &reach, null(), null(), null_mut());
        assert_ne!(s, SinewStatus::Ok, "not a parent chain");
        let s = sinew_two_bone_ik_solve_pose(
            solver,
            p,
            1,
            2,
            JOINTS,
            &reach,
            null(),
            null(),
            null_mut(),
        );
        assert_eq!(s, SinewStatus::OutOfRange, "{}", last_error_message());
        assert_eq!(local(p), before);

        sinew_pose_destroy(p);
        sinew_skeleton_destroy(skel);
        sinew_two_bone_ik_destroy(solver);
    }
}

fn straight_chain() -> [SinewTransform; 4] {
    [
        tr(0.0, 0.0, 0.0, IDENTITY),
        tr(0.25, 0.0, 0.0, IDENTITY),
        tr(0.5, 0.0, 0.0, IDENTITY),
        tr(0.75, 0.0, 0.0, IDENTITY),
    ]
}

/// A hinge about Z on chain joint `1`: bends only in the XY plane, within ±1 rad.
fn hinge() -> SinewJointConstraint {
    let mut c = MaybeUninit::uninit();
    // SAFETY: an out-pointer to a local, written before read.
    let mut c = unsafe {
        sinew_joint_constraint_default(c.as_mut_ptr());
        c.assume_init()
    };
    c.r#type = SinewConstraintType::Hinge as i32;
    c.axis = v3(0.0, 0.0, 1.0);
    c.min_angle = -1.0;
    c.max_angle = 1.0;
    c
}

#[test]
fn fabrik_round_trip_and_errors() {
    // SAFETY: as in two_bone_ik_round_trip_and_errors.
    unsafe {
        let mut defaults = MaybeUninit::uninit();
        sinew_fabrik_settings_default(defaults.as_mut_ptr());
        let defaults = defaults.assume_init();
        let mut solver = null_mut();
        let s = sinew_fabrik_create(&defaults, 0, &mut solver);
        assert_eq!(s, SinewStatus::OutOfRange, "{}", last_error_message());
        assert!(solver.is_null());
        ok(sinew_fabrik_create(&defaults, 4, &mut solver));
        let mut read = MaybeUninit::uninit();
        ok(sinew_fabrik_get_settings(solver, read.as_mut_ptr()));
        assert_eq!(read.assume_init(), defaults);
        let mut changed = defaults;
        changed.max_iterations = 20;
        ok(sinew_fabrik_set_settings(solver, &changed));
        let mut bad = changed;
        bad.stop_when_stalled = 3;
        let s = sinew_fabrik_set_settings(solver, &bad);
        fails(s, SinewStatus::InvalidArgument, "stop_when_stalled");
        ok(sinew_fabrik_get_settings(solver, read.as_mut_ptr()));
        assert_eq!(read.assume_init(), changed);

        let hinge = hinge();
        ok(sinew_fabrik_set_constraint(solver, 1, &hinge));
        let s = sinew_fabrik_set_constraint(solver, 4, &hinge);
        assert_eq!(s, SinewStatus::OutOfRange, "{}", last_error_message());
        let mut broken = hinge;
        broken.r#type = 42;
        let s = sinew_fabrik_set_constraint(solver, 1, &broken);
        fails(s, SinewStatus::InvalidArgument, "constraint type");
        ok(sinew_fabrik_set_constraint(solver, 2, null()));

        let mut chain = straight_chain();
        let goal = v3(0.3, 0.4, 0.0);
        let parent = rot_z(0.1);
        let mut result = SinewIkResult::default();
        ok(sinew_fabrik_solve(
            solver,
            chain.as_mut_ptr(),
            4,
            &parent,
            &goal,
            null(),
            &mut result,
        ));
        assert!(result.iterations >= 1);
        assert!((dist(chain[3].translation, goal) - result.error).abs() < 1e-5);
        assert_eq!(chain[0].translation, v3(0.0, 0.0, 0.0), "the root stays");

        let before = chain;
        let zero = SinewQuat::default();
        let s = sinew_fabrik_solve(
            solver,
            chain.as_mut_ptr(),
            4,
            &zero,
            &goal,
            null(),
            &mut result,
        );
        fails(s, SinewStatus::InvalidArgument, "root_parent_rotation");
        let mut five = [tr(0.0, 0.0, 0.0, IDENTITY); 5];
        let s = sinew_fabrik_solve(
            solver,
            five.as_mut_ptr(),
            5,
            null(),
            &goal,
            null(),
            null_mut(),
        );
        fails(s, SinewStatus::OutOfRange, "max_joints");
        let s = sinew_fabrik_solve(solver, null_mut(), 4, null(), &goal, null(), null_mut());
        fails(s, SinewStatus::NullPointer, "chain");
        assert_eq!(chain, before);

        // On a pose: root, upper, lower, hand.
        let skel = skeleton();
        let p = pose(skel);
        ok(sinew_fabrik_set_constraint(solver, 1, null()));
        let joints = [0u32, 1, 2, 3];
        let reach = v3(0.4, 1.3, 0.2);
        ok(sinew_fabrik_solve_pose(
            solver,
            p,
            joints.as_ptr(),
            4,
            &reach,
            &rot_z(0.2),
            &mut result,
        ));
        let mut hand = SinewTransform::default();
        ok(sinew_pose_get_model_transform(p, 3, &mut hand));
        assert!((dist(hand.translation, reach) - result.error).abs() < 1e-5);
        let not_a_chain = [0u32, 2, 1, 3];
        let before = local(p);
        let s = sinew_fabrik_solve_pose(
            solver,
            p,
            not_a_chain.as_ptr(),
            4,
            &reach,
            null(),
            null_mut(),
        );
        assert_ne!(s, SinewStatus::Ok);
        assert_eq!(local(p), before);

        sinew_pose_destroy(p);
        sinew_skeleton_destroy(skel);
        sinew_fabrik_destroy(solver);
    }
}

#[test]
fn ccd_round_trip_and_errors() {
    // SAFETY: as in two_bone_ik_round_trip_and_errors.
    unsafe {
        let mut defaults = MaybeUninit::uninit();
        sinew_ccd_settings_default(defaults.as_mut_ptr());
        let defaults = defaults.assume_init();
        let mut solver = null_mut();
        ok(sinew_ccd_create(&defaults, 4, &mut solver));
        let mut read = MaybeUninit::uninit();
        ok(sinew_ccd_get_settings(solver, read.as_mut_ptr()));
        assert_eq!(read.assume_init(), defaults);
        let mut changed = defaults;
        changed.start_from_tail = 0;
        ok(sinew_ccd_set_settings(solver, &changed));
        let mut bad = changed;
        bad.fix_root = 5;
        let s = sinew_ccd_set_settings(solver, &bad);
        fails(s, SinewStatus::InvalidArgument, "fix_root");
        ok(sinew_ccd_get_settings(solver, read.as_mut_ptr()));
        assert_eq!(read.assume_init(), changed);

        ok(sinew_ccd_set_joint(solver, 1, 30.0, 0.8));
        let s = sinew_ccd_set_joint(solver, 1, 270.0, 0.8);
        assert_eq!(s, SinewStatus::InvalidArgument, "{}", last_error_message());
        let s = sinew_ccd_set_joint(solver, 9, 30.0, 0.8);
        assert_eq!(s, SinewStatus::OutOfRange, "{}", last_error_message());
        let hinge = hinge();
        ok(sinew_ccd_set_constraint(solver, 2, &hinge));
        let mut nan = hinge;
        nan.max_angle = f32::NAN;
        let s = sinew_ccd_set_constraint(solver, 2, &nan);
        assert_eq!(s, SinewStatus::NonFinite);

        let mut chain = straight_chain();
        let goal = v3(0.2, 0.5, 0.1);
        let mut result = SinewIkResult::default();
        ok(sinew_ccd_solve(
            solver,
            chain.as_mut_ptr(),
            4,
            null(),
            &goal,
            null(),
            &mut result,
        ));
        assert!((dist(chain[3].translation, goal) - result.error).abs() < 1e-5);
        let before = chain;
        let s = sinew_ccd_solve(
            solver,
            chain.as_mut_ptr(),
            1,
            null(),
            &goal,
            null(),
            &mut result,
        );
        assert_ne!(s, SinewStatus::Ok, "a chain needs two joints");
        assert_eq!(chain, before);

        let skel = skeleton();
        let p = pose(skel);
        let joints = [1u32, 2, 3];
        let reach = v3(0.3, 1.3, 0.1);
        ok(sinew_ccd_solve_pose(
            solver,
            p,
            joints.as_ptr(),
            3,
            &reach,
            null(),
            &mut result,
        ));
        let mut hand = SinewTransform::default();
        ok(sinew_pose_get_model_transform(p, 3, &mut hand));
        assert!((dist(hand.translation, reach) - result.error).abs() < 1e-5);
        let s = sinew_ccd_solve_pose(solver, p, null(), 3, &reach, null(), null_mut());
        fails(s, SinewStatus::NullPointer, "joints");

        sinew_pose_destroy(p);
        sinew_skeleton_destroy(skel);
        sinew_ccd_destroy(solver);
    }
}

// ------------------------------------------------------------------------------ batches

/// Chains per batch: one four-wide SIMD group of the two-bone batch and a scalar tail.
const CHAINS: usize = 5;

/// How far a two-bone batch chain may stray from its single solve: 1e-6 relative (the
/// header), or [`SAME`] under Miri.
const BATCH: f32 = if cfg!(miri) { 1e-5 } else { 1e-6 };

/// Asserts batch transforms match the single solves' within `tol` relative to their size.
#[track_caller]
fn near_all(batch: &[SinewTransform], single: &[SinewTransform], tol: f32) {
    let near = |a: f32, b: f32| (a - b).abs() <= tol * a.abs().max(b.abs()).max(1.0);
    assert_eq!(batch.len(), single.len());
    for (i, (x, y)) in batch.iter().zip(single).enumerate() {
        let v = |a: SinewVec3, b: SinewVec3| near(a.x, b.x) && near(a.y, b.y) && near(a.z, b.z);
        let (p, q) = (x.rotation, y.rotation);
        let fine = v(x.translation, y.translation)
            && v(x.scale, y.scale)
            && near(p.x, q.x)
            && near(p.y, q.y)
            && near(p.z, q.z)
            && near(p.w, q.w);
        assert!(fine, "transform {i}: {x:?} != {y:?}");
    }
}

#[track_caller]
fn near_results(batch: &[SinewIkResult], single: &[SinewIkResult], tol: f32) {
    for (i, (b, s)) in batch.iter().zip(single).enumerate() {
        assert_eq!(
            (b.reached, b.iterations),
            (s.reached, s.iterations),
            "result {i}"
        );
        assert!(
            (b.error - s.error).abs() <= tol,
            "result {i}: {b:?} != {s:?}"
        );
    }
}

/// `p` when `on`, else NULL (an optional argument left out).
fn or_null<T>(on: bool, p: *const T) -> *const T {
    if on {
        p
    } else {
        null()
    }
}

/// A result no solve writes, to show which entries a batch left alone.
const STALE: SinewIkResult = SinewIkResult {
    reached: 7,
    error: -1.0,
    iterations: 7,
};

/// Five arms back to back, each bent and placed a little differently, all off the XY plane, so
/// every window of their floats the aliasing test reads as a quaternion is non-zero.
fn arm_chains() -> [SinewTransform; 3 * CHAINS] {
    let mut out = [SinewTransform::default(); 3 * CHAINS];
    for i in 0..CHAINS {
        let f = i as f32;
        let mut arm = arm_chain();
        arm[1].translation.y = 0.3 - 0.15 * f;
        for (k, t) in arm.iter_mut().enumerate() {
            t.translation.z += 0.1 * f + 0.05;
            t.rotation = rot_z(0.1 * (f + k as f32) + 0.05);
        }
        out[3 * i..3 * i + 3].copy_from_slice(&arm);
    }
    out
}

/// FABRIK and CCD batches have no SIMD group: three chains (the last one not the first) are
/// enough, and Miri interprets every iteration.
const CHAIN_BATCH: usize = 3;

/// Three four-joint chains back to back, likewise.
fn straight_chains() -> [SinewTransform; 4 * CHAIN_BATCH] {
    let mut out = [SinewTransform::default(); 4 * CHAIN_BATCH];
    for i in 0..CHAIN_BATCH {
        let f = i as f32;
        let mut chain = straight_chain();
        for (k, t) in chain.iter_mut().enumerate() {
            t.translation.y += 0.02 * f * k as f32;
            t.translation.z += 0.1 * f + 0.05;
            t.rotation = rot_z(0.05 * (f + k as f32) + 0.05);
        }
        out[4 * i..4 * i + 4].copy_from_slice(&chain);
    }
    out
}

#[test]
fn two_bone_ik_batch_round_trip_and_errors() {
    // SAFETY: as in two_bone_ik_round_trip_and_errors; every array holds CHAINS items
    // (`chains` three per chain).
    unsafe {
        let mut defaults = MaybeUninit::uninit();
        sinew_two_bone_ik_settings_default(defaults.as_mut_ptr());
        let defaults = defaults.assume_init();
        let mut solver = null_mut();
        ok(sinew_two_bone_ik_create(&defaults, &mut solver));
        let chains = arm_chains();
        let goals: [SinewVec3; CHAINS] = std::array::from_fn(|i| {
            let f = i as f32;
            v3(1.0 + 0.1 * f, 1.0 - 0.3 * f, 0.1 * f)
        });
        let turns: [SinewQuat; CHAINS] = std::array::from_fn(|i| rot_z(0.2 * i as f32));
        let poles: [SinewVec3; CHAINS] = std::array::from_fn(|i| v3(1.0, -1.0, 0.5 * i as f32));

        // Each chain as its single solve: with poles through the SIMD kernel (pole_weight 1),
        // through the general path (pole_weight 0.5), and with no optional arrays at all.
        let mut half = defaults;
        half.pole_weight = 0.5;
        for (settings, optional) in [(defaults, true), (half, true), (defaults, false)] {
            ok(sinew_two_bone_ik_set_settings(solver, &settings));
            let (turns_p, poles_p) = (
                or_null(optional, turns.as_ptr()),
                or_null(optional, poles.as_ptr()),
            );
            let mut singles = chains;
            let mut single_results = [STALE; CHAINS];
            for i in 0..CHAINS {
                ok(sinew_two_bone_ik_solve(
                    solver,
                    singles.as_mut_ptr().add(3 * i),
                    &goals[i],
                    or_null(optional, &turns[i]),
                    or_null(optional, &poles[i]),
                    &mut single_results[i],
                ));
            }
            let mut batch = chains;
            let mut results = [STALE; CHAINS];
            ok(sinew_two_bone_ik_solve_batch(
                solver,
                batch.as_mut_ptr(),
                CHAINS as u32,
                goals.as_ptr(),
                turns_p,
                poles_p,
                if optional {
                    results.as_mut_ptr()
                } else {
                    null_mut()
                },
            ));
            near_all(&batch, &singles, BATCH);
            if optional {
                near_results(&results, &single_results, BATCH);
            } else {
                assert_eq!(results, [STALE; CHAINS], "no results asked for");
            }
        }
        ok(sinew_two_bone_ik_set_settings(solver, &defaults));

        // No chains: nothing is read, every array may be NULL.
        ok(sinew_two_bone_ik_solve_batch(
            solver,
            null_mut(),
            0,
            null(),
            null(),
            null(),
            null_mut(),
        ));

        // Bad input anywhere leaves every chain and result untouched, the SIMD group included.
        let mut batch = chains;
        let mut results = [STALE; CHAINS];
        let mut bad_goals = goals;
        bad_goals[3].y = f32::NAN;
        let s = sinew_two_bone_ik_solve_batch(
            solver,
            batch.as_mut_ptr(),
            CHAINS as u32,
            bad_goals.as_ptr(),
            turns.as_ptr(),
            poles.as_ptr(),
            results.as_mut_ptr(),
        );
        fails(s, SinewStatus::NonFinite, "chain 3: ");
        let mut bad_turns = turns;
        bad_turns[4] = SinewQuat::default();
        let s = sinew_two_bone_ik_solve_batch(
            solver,
            batch.as_mut_ptr(),
            CHAINS as u32,
            goals.as_ptr(),
            bad_turns.as_ptr(),
            poles.as_ptr(),
            results.as_mut_ptr(),
        );
        fails(s, SinewStatus::InvalidArgument, "chain 4: ");
        let mut bad_chains = chains;
        bad_chains[3 * 2 + 1].scale.x = f32::INFINITY;
        let s = sinew_two_bone_ik_solve_batch(
            solver,
            bad_chains.as_mut_ptr(),
            CHAINS as u32,
            goals.as_ptr(),
            null(),
            null(),
            results.as_mut_ptr(),
        );
        fails(s, SinewStatus::NonFinite, "chain 2: ");
        assert_eq!(bad_chains[..6], chains[..6]);
        let s = sinew_two_bone_ik_solve_batch(
            solver,
            batch.as_mut_ptr(),
            CHAINS as u32,
            null(),
            null(),
            null(),
            results.as_mut_ptr(),
        );
        fails(s, SinewStatus::NullPointer, "effector_positions");
        let s = sinew_two_bone_ik_solve_batch(
            solver,
            null_mut(),
            CHAINS as u32,
            goals.as_ptr(),
            null(),
            null(),
            null_mut(),
        );
        fails(s, SinewStatus::NullPointer, "chains");
        let mut bytes = Bytes::new();
        let s = sinew_two_bone_ik_solve_batch(
            solver,
            batch.as_mut_ptr(),
            CHAINS as u32,
            goals.as_ptr(),
            null(),
            null(),
            bytes.ptr(1),
        );
        fails(s, SinewStatus::InvalidArgument, "out_results");
        let s = sinew_two_bone_ik_solve_batch(
            solver,
            batch.as_mut_ptr(),
            CHAINS as u32,
            goals.as_ptr(),
            null(),
            bytes.ptr(2),
            null_mut(),
        );
        fails(s, SinewStatus::InvalidArgument, "joint_targets");
        assert!(bytes.untouched());
        assert_eq!(batch, chains);
        assert_eq!(results, [STALE; CHAINS]);

        // Chains 1 (in the SIMD group) and 4 (the tail) overflow: left untouched with their
        // results, the others solved, chain 1 named.
        let mut singles = chains;
        let mut single_results = [STALE; CHAINS];
        for i in [0, 2, 3] {
            ok(sinew_two_bone_ik_solve(
                solver,
                singles.as_mut_ptr().add(3 * i),
                &goals[i],
                null(),
                &poles[i],
                &mut single_results[i],
            ));
        }
        let mut far = goals;
        far[1] = v3(3e38, 3e38, 3e38);
        far[4] = v3(-3e38, 3e38, -3e38);
        let s = sinew_two_bone_ik_solve_batch(
            solver,
            batch.as_mut_ptr(),
            CHAINS as u32,
            far.as_ptr(),
            null(),
            poles.as_ptr(),
            results.as_mut_ptr(),
        );
        fails(s, SinewStatus::NumericOverflow, "chain 1");
        near_all(&batch, &singles, BATCH);
        near_results(&results, &single_results, BATCH);
        assert_eq!((results[1], results[4]), (STALE, STALE));

        sinew_two_bone_ik_destroy(solver);
    }
}

/// A FABRIK or a CCD handle, driven through the same calls.
#[derive(Clone, Copy)]
enum ChainHandle {
    Fabrik(*mut SinewFabrik),
    Ccd(*mut SinewCcd),
}

impl ChainHandle {
    /// Both solvers with default settings but at most 3 iterations (Miri interprets every
    /// one), `max_joints` 4, a hinge on joint 1.
    fn both() -> [Self; 2] {
        let hinge = hinge();
        // SAFETY: settings written before read; out-pointers to locals; live handles.
        unsafe {
            let mut fs = MaybeUninit::uninit();
            sinew_fabrik_settings_default(fs.as_mut_ptr());
            let mut fs = fs.assume_init();
            fs.max_iterations = 3;
            let mut cs = MaybeUninit::uninit();
            sinew_ccd_settings_default(cs.as_mut_ptr());
            let mut cs = cs.assume_init();
            cs.max_iterations = 3;
            let (mut f, mut c) = (null_mut(), null_mut());
            ok(sinew_fabrik_create(&fs, 4, &mut f));
            ok(sinew_ccd_create(&cs, 4, &mut c));
            ok(sinew_fabrik_set_constraint(f, 1, &hinge));
            ok(sinew_ccd_set_constraint(c, 1, &hinge));
            [Self::Fabrik(f), Self::Ccd(c)]
        }
    }

    /// `sinew_<solver>_solve`.
    ///
    /// # Safety
    /// As that export.
    unsafe fn solve(
        self,
        chain: *mut SinewTransform,
        joints: u32,
        parent: *const SinewQuat,
        goal: *const SinewVec3,
        rotation: *const SinewQuat,
        result: *mut SinewIkResult,
    ) -> SinewStatus {
        // SAFETY: forwarded.
        unsafe {
            match self {
                Self::Fabrik(h) => {
                    sinew_fabrik_solve(h, chain, joints, parent, goal, rotation, result)
                }
                Self::Ccd(h) => sinew_ccd_solve(h, chain, joints, parent, goal, rotation, result),
            }
        }
    }

    /// `sinew_<solver>_solve_batch`.
    ///
    /// # Safety
    /// As that export.
    #[allow(clippy::too_many_arguments)]
    unsafe fn batch(
        self,
        chains: *mut SinewTransform,
        joints: u32,
        count: u32,
        parents: *const SinewQuat,
        goals: *const SinewVec3,
        rotations: *const SinewQuat,
        results: *mut SinewIkResult,
    ) -> SinewStatus {
        // SAFETY: forwarded.
        unsafe {
            match self {
                Self::Fabrik(h) => sinew_fabrik_solve_batch(
                    h, chains, joints, count, parents, goals, rotations, results,
                ),
                Self::Ccd(h) => sinew_ccd_solve_batch(
                    h, chains, joints, count, parents, goals, rotations, results,
                ),
            }
        }
    }

    fn destroy(self) {
        // SAFETY: a live handle, not used afterwards.
        unsafe {
            match self {
                Self::Fabrik(h) => sinew_fabrik_destroy(h),
                Self::Ccd(h) => sinew_ccd_destroy(h),
            }
        }
    }
}

#[test]
fn fabrik_and_ccd_batch_round_trips_and_errors() {
    let chains = straight_chains();
    let goals: [SinewVec3; CHAIN_BATCH] = std::array::from_fn(|i| {
        let f = i as f32;
        v3(0.3 + 0.05 * f, 0.4 - 0.1 * f, 0.1 * f)
    });
    let parents: [SinewQuat; CHAIN_BATCH] = std::array::from_fn(|i| rot_z(0.1 * i as f32));
    let turns: [SinewQuat; CHAIN_BATCH] = std::array::from_fn(|i| rot_z(0.3 - 0.1 * i as f32));
    for solver in ChainHandle::both() {
        // SAFETY: live handles; every array holds CHAIN_BATCH items (`chains` 4 per chain).
        unsafe {
            // Each chain as its single solve: with every optional array, and as chains of two
            // joints back to back with none. (The first solves serve the overflow check below.)
            let mut solved = (chains, [STALE; CHAIN_BATCH]);
            for (joints, optional) in [(4usize, true), (2, false)] {
                let pick = |p: *const SinewQuat| or_null(optional, p);
                let mut singles = chains;
                let mut single_results = [STALE; CHAIN_BATCH];
                for i in 0..CHAIN_BATCH {
                    ok(solver.solve(
                        singles.as_mut_ptr().add(joints * i),
                        joints as u32,
                        pick(&parents[i]),
                        &goals[i],
                        pick(&turns[i]),
                        &mut single_results[i],
                    ));
                }
                let mut batch = chains;
                let mut results = [STALE; CHAIN_BATCH];
                ok(solver.batch(
                    batch.as_mut_ptr(),
                    joints as u32,
                    CHAIN_BATCH as u32,
                    pick(parents.as_ptr()),
                    goals.as_ptr(),
                    pick(turns.as_ptr()),
                    if optional {
                        results.as_mut_ptr()
                    } else {
                        null_mut()
                    },
                ));
                same(&batch, &singles);
                if optional {
                    near_results(&results, &single_results, SAME);
                    solved = (singles, single_results);
                } else {
                    assert_eq!(results, [STALE; CHAIN_BATCH], "no results asked for");
                }
            }
            ok(solver.batch(null_mut(), 4, 0, null(), null(), null(), null_mut()));

            // Bad input anywhere leaves every chain and result untouched.
            let mut batch = chains;
            let mut results = [STALE; CHAIN_BATCH];
            let s = solver.batch(
                batch.as_mut_ptr(),
                5,
                CHAIN_BATCH as u32,
                null(),
                goals.as_ptr(),
                null(),
                results.as_mut_ptr(),
            );
            fails(s, SinewStatus::OutOfRange, "5 joints");
            let s = solver.batch(
                batch.as_mut_ptr(),
                1,
                CHAIN_BATCH as u32,
                null(),
                goals.as_ptr(),
                null(),
                results.as_mut_ptr(),
            );
            fails(s, SinewStatus::InvalidArgument, "joints");
            let mut bad_parents = parents;
            bad_parents[1] = SinewQuat::default();
            let s = solver.batch(
                batch.as_mut_ptr(),
                4,
                CHAIN_BATCH as u32,
                bad_parents.as_ptr(),
                goals.as_ptr(),
                null(),
                results.as_mut_ptr(),
            );
            fails(s, SinewStatus::InvalidArgument, "chain 1: ");
            let mut bad_chains = chains;
            bad_chains[4 * 2 + 3].translation.x = f32::NAN;
            let s = solver.batch(
                bad_chains.as_mut_ptr(),
                4,
                CHAIN_BATCH as u32,
                null(),
                goals.as_ptr(),
                null(),
                results.as_mut_ptr(),
            );
            fails(s, SinewStatus::NonFinite, "chain 2: ");
            assert_eq!(bad_chains[..8], chains[..8]);
            let s = solver.batch(
                batch.as_mut_ptr(),
                4,
                CHAIN_BATCH as u32,
                null(),
                null(),
                null(),
                results.as_mut_ptr(),
            );
            fails(s, SinewStatus::NullPointer, "effector_positions");
            let mut bytes = Bytes::new();
            let s = solver.batch(
                batch.as_mut_ptr(),
                4,
                CHAIN_BATCH as u32,
                bytes.ptr(2),
                goals.as_ptr(),
                null(),
                null_mut(),
            );
            fails(s, SinewStatus::InvalidArgument, "root_parent_rotations");
            assert!(bytes.untouched());
            assert_eq!(batch, chains);
            assert_eq!(results, [STALE; CHAIN_BATCH]);

            // Chain 1 overflows: left untouched with its result, the others solved.
            let (mut singles, mut single_results) = solved;
            singles[4..8].copy_from_slice(&chains[4..8]);
            single_results[1] = STALE;
            let mut far = goals;
            far[1] = v3(3e38, 3e38, 3e38);
            let s = solver.batch(
                batch.as_mut_ptr(),
                4,
                CHAIN_BATCH as u32,
                parents.as_ptr(),
                far.as_ptr(),
                turns.as_ptr(),
                results.as_mut_ptr(),
            );
            fails(s, SinewStatus::NumericOverflow, "chain 1");
            same(&batch, &singles);
            near_results(&results, &single_results, SAME);
        }
        solver.destroy();
    }
}

#[test]
fn hand_ik_retargeting_round_trip_and_errors() {
    // SAFETY: as in two_bone_ik_round_trip_and_errors.
    unsafe {
        let mut defaults = MaybeUninit::uninit();
        sinew_hand_ik_retargeting_settings_default(defaults.as_mut_ptr());
        let defaults = defaults.assume_init();
        let mut node = null_mut();
        ok(sinew_hand_ik_retargeting_create(&defaults, &mut node));
        let mut read = MaybeUninit::uninit();
        ok(sinew_hand_ik_retargeting_get_settings(
            node,
            read.as_mut_ptr(),
        ));
        assert_eq!(read.assume_init(), defaults);
        let mut right = defaults;
        right.hand_fk_weight = 1.0;
        ok(sinew_hand_ik_retargeting_set_settings(node, &right));
        let mut bad = right;
        bad.per_axis_alpha.y = 1.5;
        let s = sinew_hand_ik_retargeting_set_settings(node, &bad);
        fails(s, SinewStatus::InvalidArgument, "per_axis_alpha");
        let mut other = null_mut();
        let s = sinew_hand_ik_retargeting_create(&bad, &mut other);
        assert_eq!(s, SinewStatus::InvalidArgument);
        assert!(other.is_null());

        // Right hand (FK 3, IK 2) drives the offset; bone 4 moves by FK - IK.
        let skel = skeleton();
        let p = posed(skel);
        let mut m = model(p);
        let hands = SinewHandJoints {
            right_fk: 3,
            left_fk: 1,
            right_ik: 2,
            left_ik: 0,
        };
        let bones = [4u32, 4];
        let expected = v3(
            m[3].translation.x - m[2].translation.x,
            m[3].translation.y - m[2].translation.y,
            m[3].translation.z - m[2].translation.z,
        );
        let head = m[4].translation;
        let mut offset = SinewVec3::default();
        ok(sinew_hand_ik_retargeting_apply_model(
            node,
            m.as_mut_ptr(),
            JOINTS,
            &hands,
            bones.as_ptr(),
            2,
            &mut offset,
        ));
        assert!(dist(offset, expected) < 1e-6);
        let moved = v3(head.x + offset.x, head.y + offset.y, head.z + offset.z);
        assert!(dist(m[4].translation, moved) < 1e-6, "duplicates move once");
        let before = m;
        let far = [JOINTS];
        let s = sinew_hand_ik_retargeting_apply_model(
            node,
            m.as_mut_ptr(),
            JOINTS,
            &hands,
            far.as_ptr(),
            1,
            null_mut(),
        );
        assert_eq!(s, SinewStatus::OutOfRange, "{}", last_error_message());
        assert_eq!(m, before);

        ok(sinew_hand_ik_retargeting_apply_pose(
            node,
            p,
            &hands,
            bones.as_ptr(),
            1,
            null_mut(),
        ));
        let mut head_now = SinewTransform::default();
        ok(sinew_pose_get_model_transform(p, 4, &mut head_now));
        assert!(dist(head_now.translation, moved) < 1e-5);
        let s =
            sinew_hand_ik_retargeting_apply_pose(node, p, null(), bones.as_ptr(), 1, null_mut());
        fails(s, SinewStatus::NullPointer, "hands");

        sinew_pose_destroy(p);
        sinew_skeleton_destroy(skel);
        sinew_hand_ik_retargeting_destroy(node);
    }
}

#[test]
fn constraints_apply_to_a_pose_all_or_nothing() {
    let skel = skeleton();
    let p = posed(skel);
    let hinge = hinge();
    let mut twist = hinge;
    twist.r#type = SinewConstraintType::Twist as i32;
    twist.axis = v3(1.0, 0.0, 0.0);
    // SAFETY: live pose; arrays of the stated sizes.
    unsafe {
        ok(sinew_pose_apply_constraints(
            p,
            [2u32, 3].as_ptr(),
            [hinge, twist].as_ptr(),
            2,
        ));
        // Joint 2 was bent 0.9 rad about Z, inside the hinge's ±1 rad: kept.
        let l = local(p);
        assert!(close(&l[2], &tr(0.3, 0.0, 0.0, rot_z(0.9)), 1e-5));
        let before = l;
        let s =
            sinew_pose_apply_constraints(p, [2u32, JOINTS].as_ptr(), [hinge, hinge].as_ptr(), 2);
        assert_eq!(s, SinewStatus::OutOfRange, "{}", last_error_message());
        let mut nan = hinge;
        nan.swing_half_angle_1 = f32::INFINITY;
        let s = sinew_pose_apply_constraints(p, [1u32, 2].as_ptr(), [hinge, nan].as_ptr(), 2);
        assert_eq!(s, SinewStatus::NonFinite);
        let s = sinew_pose_apply_constraints(p, [1u32].as_ptr(), null(), 1);
        fails(s, SinewStatus::NullPointer, "constraints");
        assert_eq!(local(p), before, "nothing applied when one entry is bad");
        ok(sinew_pose_apply_constraints(p, null(), null(), 0));
        sinew_pose_destroy(p);
        sinew_skeleton_destroy(skel);
    }
}

// ------------------------------------------------------------------------------ blending

fn mask(skeleton: *const SinewSkeleton, value: f32) -> *mut SinewJointMask {
    let mut out = null_mut();
    // SAFETY: a live skeleton and an out-pointer to a local.
    ok(unsafe { sinew_joint_mask_create(skeleton, value, &mut out) });
    out
}

fn weights(mask: *const SinewJointMask) -> [f32; 5] {
    let mut out = [9.0; 5];
    // SAFETY: a live mask and a buffer of JOINTS floats.
    ok(unsafe { sinew_joint_mask_get_weights(mask, out.as_mut_ptr(), JOINTS) });
    out
}

#[test]
fn joint_masks_round_trip_and_errors() {
    let skel = skeleton();
    let m = mask(skel, 0.5);
    assert_eq!(weights(m), [0.5; 5]);
    // SAFETY: live handles; arrays of the stated sizes; out-pointers to locals.
    unsafe {
        ok(sinew_joint_mask_set_weight(m, 4, 0.25));
        assert_eq!(weights(m), [0.5, 0.5, 0.5, 0.5, 0.25]);
        let w = [0.0, 0.1, 0.2, 0.3, 0.4];
        ok(sinew_joint_mask_set_weights(m, w.as_ptr(), JOINTS));
        assert_eq!(weights(m), w);
        let s = sinew_joint_mask_set_weight(m, 1, 1.5);
        assert_eq!(s, SinewStatus::InvalidArgument, "{}", last_error_message());
        let s = sinew_joint_mask_set_weight(m, JOINTS, 0.5);
        assert_eq!(s, SinewStatus::OutOfRange, "{}", last_error_message());
        let s = sinew_joint_mask_set_weights(m, w.as_ptr(), 4);
        fails(s, SinewStatus::SizeMismatch, "weights");
        let nan = [0.0, f32::NAN, 0.0, 0.0, 0.0];
        let s = sinew_joint_mask_set_weights(m, nan.as_ptr(), JOINTS);
        assert_eq!(s, SinewStatus::NonFinite);
        let mut four = [9.0f32; 4];
        let s = sinew_joint_mask_get_weights(m, four.as_mut_ptr(), 4);
        fails(s, SinewStatus::SizeMismatch, "out_weights");
        assert_eq!(weights(m), w, "unchanged by the errors");
        let mut other = null_mut();
        let s = sinew_joint_mask_create(skel, -0.5, &mut other);
        assert_eq!(s, SinewStatus::InvalidArgument);
        assert!(other.is_null());

        // The arm below the upper arm, ramping over one level.
        let mut sub = null_mut();
        ok(sinew_joint_mask_create_subtree(skel, 1, 1, &mut sub));
        assert_eq!(weights(sub), [0.0, 0.5, 1.0, 1.0, 0.0]);
        let s = sinew_joint_mask_create_subtree(skel, JOINTS, 0, &mut other);
        assert_eq!(s, SinewStatus::OutOfRange, "{}", last_error_message());
        assert!(other.is_null());

        sinew_joint_mask_destroy(sub);
        sinew_joint_mask_destroy(m);
        sinew_skeleton_destroy(skel);
    }
}

#[test]
fn two_pose_blends_with_every_aliasing() {
    let skel = skeleton();
    let a = pose(skel);
    let b = posed(skel);
    let out = pose(skel);
    let half = mask(skel, 0.5);
    let (la, lb) = (local(a), local(b));
    let local_space = SinewBlendSpace::Local as i32;
    let model_space = SinewBlendSpace::ModelRotation as i32;
    // SAFETY: live handles; `out` may be `a` or `b` by contract.
    unsafe {
        ok(sinew_pose_blend(a, b, 0.0, null(), local_space, out));
        same(&local(out), &la);
        ok(sinew_pose_blend(a, b, 1.0, null(), local_space, out));
        same(&local(out), &lb);
        ok(sinew_pose_blend(a, b, 0.5, half, model_space, out));
        let distinct = local(out);

        // out == a, out == b and a == b == out give what a distinct output gets.
        let copy = pose(skel);
        set_local(copy, &la);
        ok(sinew_pose_blend(copy, b, 0.5, half, model_space, copy));
        same(&local(copy), &distinct);
        set_local(copy, &lb);
        ok(sinew_pose_blend(a, copy, 0.5, half, model_space, copy));
        same(&local(copy), &distinct);
        ok(sinew_pose_blend(copy, copy, 0.3, null(), local_space, copy));
        same(&local(copy), &distinct); // a pose blended with itself is itself

        // Errors change nothing.
        let s = sinew_pose_blend(a, b, 0.5, null(), 7, out);
        fails(s, SinewStatus::InvalidArgument, "space");
        let s = sinew_pose_blend(a, b, 1.5, null(), local_space, out);
        assert_ne!(s, SinewStatus::Ok);
        let s = sinew_pose_blend(copy, copy, f32::NAN, null(), local_space, copy);
        assert_eq!(s, SinewStatus::NonFinite);
        let s = sinew_pose_blend(a, null(), 0.5, null(), local_space, out);
        fails(s, SinewStatus::NullPointer, "b");
        let s = sinew_pose_blend(a, b, 0.5, null(), local_space, null_mut());
        fails(s, SinewStatus::NullPointer, "out");
        assert_eq!(local(out), distinct);
        same(&local(copy), &distinct);

        for p in [a, b, out, copy] {
            sinew_pose_destroy(p);
        }
        sinew_joint_mask_destroy(half);
        sinew_skeleton_destroy(skel);
    }
}

#[test]
fn layered_and_additive_blends() {
    let skel = skeleton();
    let a = pose(skel);
    let b = posed(skel);
    let out = pose(skel);
    let delta = pose(skel);
    let upper = mask(skel, 1.0);
    // SAFETY: live handles; arrays of the stated sizes.
    unsafe {
        ok(sinew_joint_mask_set_weight(upper, 0, 0.0));
        let layers = [
            SinewBlendLayer {
                pose: a,
                weight: 0.25,
                mask: null(),
            },
            SinewBlendLayer {
                pose: b,
                weight: 0.75,
                mask: upper,
            },
        ];
        ok(sinew_pose_blend_layers(layers.as_ptr(), 2, 0.1, out));
        let blended = local(out);
        assert_ne!(blended, local(a));
        // Only b at weight 1 gives b.
        let only_b = [SinewBlendLayer {
            pose: b,
            weight: 1.0,
            mask: null(),
        }];
        ok(sinew_pose_blend_layers(only_b.as_ptr(), 1, 0.1, out));
        for (x, y) in local(out).iter().zip(local(b).iter()) {
            assert!(close(x, y, 1e-6));
        }
        // No layers: the rest pose.
        ok(sinew_pose_blend_layers(null(), 0, 0.1, out));
        assert_eq!(local(out), rest());
        ok(sinew_pose_blend_layers(layers.as_ptr(), 2, 0.1, out));

        let aliased = [SinewBlendLayer {
            pose: out,
            weight: 1.0,
            mask: null(),
        }];
        let s = sinew_pose_blend_layers(aliased.as_ptr(), 1, 0.1, out);
        fails(s, SinewStatus::InvalidArgument, "output pose");
        let negative = [SinewBlendLayer {
            pose: a,
            weight: -1.0,
            mask: null(),
        }];
        let s = sinew_pose_blend_layers(negative.as_ptr(), 1, 0.1, out);
        assert_ne!(s, SinewStatus::Ok);
        let s = sinew_pose_blend_layers(layers.as_ptr(), 2, 0.0, out);
        assert_ne!(s, SinewStatus::Ok, "threshold must be positive");
        let dangling_pose = [SinewBlendLayer {
            pose: null(),
            weight: 1.0,
            mask: null(),
        }];
        let s = sinew_pose_blend_layers(dangling_pose.as_ptr(), 1, 0.1, out);
        fails(s, SinewStatus::NullPointer, "pose");
        assert_eq!(local(out), blended);

        // Additive: delta of (b over a), applied to a, gives b; in place and distinct agree.
        ok(sinew_pose_make_additive(b, a, delta));
        ok(sinew_pose_apply_additive(a, delta, 1.0, null(), out));
        for (x, y) in local(out).iter().zip(local(b).iter()) {
            assert!(close(x, y, 1e-5), "{x:?} != {y:?}");
        }
        ok(sinew_pose_apply_additive(a, delta, 0.5, upper, out));
        let distinct = local(out);
        let base = pose(skel);
        ok(sinew_pose_apply_additive(base, delta, 0.5, upper, base));
        same(&local(base), &distinct);

        let s = sinew_pose_make_additive(b, a, a);
        fails(s, SinewStatus::InvalidArgument, "output pose");
        let s = sinew_pose_make_additive(b, a, null_mut());
        fails(s, SinewStatus::NullPointer, "out_delta");
        let s = sinew_pose_apply_additive(a, delta, 1.0, null(), delta);
        fails(s, SinewStatus::InvalidArgument, "delta");
        let s = sinew_pose_apply_additive(a, delta, f32::NAN, null(), out);
        assert_eq!(s, SinewStatus::NonFinite);
        assert_eq!(local(out), distinct);

        for p in [a, b, out, delta, base] {
            sinew_pose_destroy(p);
        }
        sinew_joint_mask_destroy(upper);
        sinew_skeleton_destroy(skel);
    }
}

// ------------------------------------------------------------------------------ clips, crossfade

const LINEAR: i32 = SinewInterpolation::Linear as i32;

fn clip(skeleton: *const SinewSkeleton, duration: f32) -> *mut SinewClip {
    let mut out = null_mut();
    // SAFETY: a live skeleton and an out-pointer to a local.
    ok(unsafe { sinew_clip_create(skeleton, duration, &mut out) });
    out
}

/// A clip turning the forearm from 0 to 1 rad about Z over `duration`.
fn bending_clip(skeleton: *const SinewSkeleton, duration: f32) -> *mut SinewClip {
    let c = clip(skeleton, duration);
    let times = [0.0, duration];
    let values = [rot_z(0.0), rot_z(1.0)];
    // SAFETY: a live clip and arrays of 2 keys.
    ok(unsafe {
        sinew_clip_set_rotation_track(
            c,
            2,
            SinewInterpolation::Slerp as i32,
            times.as_ptr(),
            values.as_ptr(),
            null(),
            null(),
            2,
        )
    });
    c
}

#[test]
fn clips_cursors_and_sampling() {
    let skel = skeleton();
    let c = clip(skel, 1.0);
    let out = pose(skel);
    // SAFETY: live handles; arrays of the stated sizes; out-pointers to locals.
    unsafe {
        let mut duration = 0.0;
        ok(sinew_clip_duration(c, &mut duration));
        assert_eq!(duration, 1.0);
        let mut other = null_mut();
        let s = sinew_clip_create(skel, -1.0, &mut other);
        assert_ne!(s, SinewStatus::Ok);
        assert!(other.is_null());

        let times = [0.0f32, 0.5, 1.0];
        let moves = [v3(0.3, 0.0, 0.0), v3(0.3, 0.2, 0.0), v3(0.3, 0.0, 0.0)];
        ok(sinew_clip_set_translation_track(
            c,
            3,
            LINEAR,
            times.as_ptr(),
            moves.as_ptr(),
            null(),
            null(),
            3,
        ));
        let turns = [rot_z(0.0), rot_z(0.5), rot_z(1.0)];
        let spins = [rot_z(0.0); 3];
        ok(sinew_clip_set_rotation_track(
            c,
            1,
            SinewInterpolation::Cubic as i32,
            times.as_ptr(),
            turns.as_ptr(),
            spins.as_ptr(),
            spins.as_ptr(),
            3,
        ));
        let sizes = [ONE, v3(1.5, 1.5, 1.5)];
        ok(sinew_clip_set_scale_track(
            c,
            4,
            SinewInterpolation::Step as i32,
            [0.0f32, 0.5].as_ptr(),
            sizes.as_ptr(),
            null(),
            null(),
            2,
        ));

        // Sampling with a cursor, forward and wrapping, matches sampling without one.
        let mut cursor = null_mut();
        ok(sinew_clip_cursor_create(c, &mut cursor));
        let probe = pose(skel);
        for t in [0.1f32, 0.3, 0.6, 0.95, 1.2, 1.7] {
            ok(sinew_clip_sample(c, cursor, t, 1, out));
            ok(sinew_clip_sample(c, null_mut(), t, 1, probe));
            same(&local(out), &local(probe));
        }
        ok(sinew_clip_sample(c, null_mut(), 0.25, 0, out));
        let l = local(out);
        assert!(dist(l[3].translation, v3(0.3, 0.1, 0.0)) < 1e-6);
        assert_eq!(l[4].scale, ONE);
        ok(sinew_clip_sample(c, null_mut(), 5.0, 0, out));
        assert_eq!(local(out)[4].scale, v3(1.5, 1.5, 1.5), "clamped to the end");

        // Track errors change nothing.
        let s = sinew_clip_set_translation_track(
            c,
            3,
            SinewInterpolation::Cubic as i32,
            times.as_ptr(),
            moves.as_ptr(),
            moves.as_ptr(),
            null(),
            3,
        );
        fails(s, SinewStatus::NullPointer, "tangents");
        let backwards = [0.0f32, 0.7, 0.6];
        let s = sinew_clip_set_translation_track(
            c,
            3,
            LINEAR,
            backwards.as_ptr(),
            moves.as_ptr(),
            null(),
            null(),
            3,
        );
        assert_ne!(s, SinewStatus::Ok);
        let zero = [SinewQuat::default(); 3];
        let s = sinew_clip_set_rotation_track(
            c,
            1,
            LINEAR,
            times.as_ptr(),
            zero.as_ptr(),
            null(),
            null(),
            3,
        );
        assert_ne!(s, SinewStatus::Ok);
        let s = sinew_clip_set_scale_track(
            c,
            JOINTS,
            LINEAR,
            times.as_ptr(),
            moves.as_ptr(),
            null(),
            null(),
            3,
        );
        assert_eq!(s, SinewStatus::OutOfRange, "{}", last_error_message());
        let s =
            sinew_clip_set_scale_track(c, 1, 17, times.as_ptr(), moves.as_ptr(), null(), null(), 3);
        fails(s, SinewStatus::InvalidArgument, "interpolation");
        let s = sinew_clip_sample(c, cursor, 0.25, 2, out);
        fails(s, SinewStatus::InvalidArgument, "looping");
        let s = sinew_clip_sample(c, cursor, f32::NAN, 0, out);
        assert_eq!(s, SinewStatus::NonFinite);
        ok(sinew_clip_sample(c, null_mut(), 0.25, 0, probe));
        same(&local(probe), &l); // the clip is unchanged by the errors

        // Clearing tracks returns joints to the rest pose.
        ok(sinew_clip_clear_track(
            c,
            3,
            SinewTrackProperty::Translation as i32,
        ));
        ok(sinew_clip_clear_track(
            c,
            1,
            SinewTrackProperty::Rotation as i32,
        ));
        ok(sinew_clip_clear_track(
            c,
            4,
            SinewTrackProperty::Scale as i32,
        ));
        let s = sinew_clip_clear_track(c, 4, 3);
        fails(s, SinewStatus::InvalidArgument, "property");
        ok(sinew_clip_sample(c, cursor, 0.25, 0, out));
        assert_eq!(local(out), rest());

        sinew_clip_cursor_destroy(cursor);
        sinew_pose_destroy(probe);
        sinew_pose_destroy(out);
        sinew_clip_destroy(c);
        sinew_skeleton_destroy(skel);
    }
}

#[test]
fn crossfade_round_trip_and_errors() {
    let skel = skeleton();
    let walk = bending_clip(skel, 1.0);
    let wave = clip(skel, 2.0);
    let idle = clip(skel, 0.5);
    let out = pose(skel);
    // SAFETY: live handles; out-pointers to locals; arrays of the stated sizes.
    unsafe {
        let mut fade = null_mut();
        let s = sinew_crossfade_create(skel, 0, &mut fade);
        assert_eq!(s, SinewStatus::OutOfRange, "{}", last_error_message());
        assert!(fade.is_null());
        ok(sinew_crossfade_create(skel, 1, &mut fade));

        ok(sinew_crossfade_play(fade, walk, 1));
        // The controller keeps the clip alive after its handle is destroyed.
        sinew_clip_destroy(walk);
        ok(sinew_crossfade_update(fade, 0.25));
        ok(sinew_crossfade_get_pose(fade, out));
        let l = local(out);
        assert!(close(&l[2], &tr(0.3, 0.0, 0.0, rot_z(0.25)), 1e-5));

        // A clip being played cannot be edited.
        let mut queued = 7;
        ok(sinew_crossfade_fade_to(
            fade,
            wave,
            0.5,
            SinewFadeCurve::Smooth as i32,
            0,
            &mut queued,
        ));
        assert_eq!(queued, 1);
        let times = [0.0f32];
        let values = [rot_z(0.2)];
        let s = sinew_clip_set_rotation_track(
            wave,
            1,
            LINEAR,
            times.as_ptr(),
            values.as_ptr(),
            null(),
            null(),
            1,
        );
        fails(s, SinewStatus::InvalidArgument, "crossfade");
        // The same request again is ignored; a third clip does not fit the queue.
        ok(sinew_crossfade_fade_to(
            fade,
            wave,
            0.5,
            SinewFadeCurve::Linear as i32,
            0,
            &mut queued,
        ));
        assert_eq!(queued, 0);
        let s = sinew_crossfade_fade_to(
            fade,
            idle,
            0.5,
            SinewFadeCurve::Linear as i32,
            0,
            null_mut(),
        );
        fails(s, SinewStatus::OutOfRange, "queue");
        let s = sinew_crossfade_fade_to(fade, idle, 0.5, 9, 0, null_mut());
        fails(s, SinewStatus::InvalidArgument, "curve");

        let mut count = 0;
        ok(sinew_crossfade_fade_count(fade, &mut count));
        assert_eq!(count, 1);
        ok(sinew_crossfade_update(fade, 0.1));
        let mut w = [-1.0f32; 3];
        ok(sinew_crossfade_get_weights(
            fade,
            w.as_mut_ptr(),
            3,
            &mut count,
        ));
        assert_eq!(count, 2);
        assert!((w[0] + w[1] - 1.0).abs() < 1e-6 && w[1] > 0.0 && w[1] < 1.0);
        assert_eq!(w[2], -1.0, "only `count` weights written");
        let mut first = [-1.0f32; 1];
        ok(sinew_crossfade_get_weights(
            fade,
            first.as_mut_ptr(),
            1,
            &mut count,
        ));
        assert_eq!((first[0], count), (w[0], 2));
        ok(sinew_crossfade_get_weights(fade, null_mut(), 0, &mut count));
        assert_eq!(count, 2);
        // Clip times in the same order: walk 0.35 s in (looping), wave 0.1 s.
        let mut t = [-1.0f32; 3];
        ok(sinew_crossfade_get_times(
            fade,
            t.as_mut_ptr(),
            3,
            &mut count,
        ));
        assert_eq!(count, 2);
        assert!((t[0] - 0.35).abs() < 1e-6 && t[1] == 0.1, "{t:?}");
        assert_eq!(t[2], -1.0, "only `count` times written");
        ok(sinew_crossfade_get_times(fade, null_mut(), 0, &mut count));
        assert_eq!(count, 2);
        let s = sinew_crossfade_get_times(fade, null_mut(), 1, &mut count);
        fails(s, SinewStatus::NullPointer, "out_times");
        let (mut active, mut left) = (7u32, -1.0f32);
        ok(sinew_crossfade_is_inertializing(
            fade,
            &mut active,
            &mut left,
        ));
        assert_eq!((active, left), (0, 0.0));

        // Update errors change nothing.
        ok(sinew_crossfade_get_pose(fade, out));
        let before = local(out);
        let s = sinew_crossfade_update(fade, -0.1);
        fails(s, SinewStatus::InvalidArgument, "dt");
        let s = sinew_crossfade_update(fade, f32::INFINITY);
        assert_eq!(s, SinewStatus::NonFinite);
        ok(sinew_crossfade_get_pose(fade, out));
        assert_eq!(local(out), before);

        // Inertialized transitions switch at once and finish.
        ok(sinew_crossfade_update(fade, 1.0));
        ok(sinew_crossfade_fade_to(
            fade,
            idle,
            0.2,
            SinewFadeCurve::Inertialize as i32,
            1,
            null_mut(),
        ));
        ok(sinew_crossfade_update(fade, 0.1));
        ok(sinew_crossfade_is_inertializing(
            fade,
            &mut active,
            &mut left,
        ));
        assert_eq!(active, 1);
        assert!((left - 0.1).abs() < 1e-6, "{left}");
        ok(sinew_crossfade_is_inertializing(
            fade,
            &mut active,
            null_mut(),
        ));
        let s = sinew_crossfade_is_inertializing(fade, null_mut(), &mut left);
        fails(s, SinewStatus::NullPointer, "out_active");
        for _ in 0..2 {
            ok(sinew_crossfade_update(fade, 0.1));
        }
        ok(sinew_crossfade_is_inertializing(
            fade,
            &mut active,
            &mut left,
        ));
        assert_eq!((active, left), (0, 0.0));
        ok(sinew_crossfade_get_pose(fade, out));
        assert_eq!(local(out), rest(), "idle has no tracks");

        // A pose of another skeleton is refused.
        let small_parents = [-1i32];
        let small_rest = [tr(0.0, 0.0, 0.0, IDENTITY)];
        let mut small = null_mut();
        ok(sinew_skeleton_create(
            small_parents.as_ptr(),
            small_rest.as_ptr(),
            null(),
            1,
            &mut small,
        ));
        let wrong = pose(small);
        let s = sinew_crossfade_get_pose(fade, wrong);
        assert_eq!(s, SinewStatus::SizeMismatch, "{}", last_error_message());
        // So is one of a skeleton with as many joints but other parents.
        let mut other = null_mut();
        ok(sinew_skeleton_create(
            [-1, 0, 1, 2, 3].as_ptr(),
            rest().as_ptr(),
            null(),
            JOINTS,
            &mut other,
        ));
        let foreign = pose(other);
        let s = sinew_crossfade_get_pose(fade, foreign);
        fails(s, SinewStatus::InvalidArgument, "other parents");
        sinew_pose_destroy(foreign);
        sinew_skeleton_destroy(other);
        let s = sinew_crossfade_play(fade, null(), 0);
        fails(s, SinewStatus::NullPointer, "clip");

        // Once the controller is gone, the clip can be edited again.
        sinew_crossfade_destroy(fade);
        ok(sinew_clip_set_rotation_track(
            wave,
            1,
            LINEAR,
            times.as_ptr(),
            values.as_ptr(),
            null(),
            null(),
            1,
        ));

        sinew_pose_destroy(wrong);
        sinew_skeleton_destroy(small);
        sinew_pose_destroy(out);
        sinew_clip_destroy(wave);
        sinew_clip_destroy(idle);
        sinew_skeleton_destroy(skel);
    }
}

// ------------------------------------------------------------------------------ overlapping inputs

/// Optional inputs a C caller points into the chain being solved (the pole at the current
/// elbow, the effector rotation at the tip's current rotation) are read before the chain is
/// written, so the solve equals one with copies of them. Nothing in the header forbids this.
///
/// Under Miri's Stacked Borrows model this checks that the exports read every by-value input
/// (effector position and rotation, pole, root parent rotation) before forming the chain's
/// `&mut`, so overlapping inputs are not undefined behaviour.
#[test]
fn optional_inputs_may_point_into_the_chain() {
    // SAFETY: pointers into live locals; handles live until destroyed.
    unsafe {
        let mut two_bone = null_mut();
        let mut settings = MaybeUninit::uninit();
        sinew_two_bone_ik_settings_default(settings.as_mut_ptr());
        let mut settings = settings.assume_init();
        settings.end_rotation = SinewEndRotation::CopyEffector as i32;
        ok(sinew_two_bone_ik_create(&settings, &mut two_bone));
        let goal = v3(1.0, 1.0, 0.0);
        let mut copied = arm_chain();
        copied[2].rotation = rot_z(0.3);
        let mut inside = copied;
        let (pole, turn) = (copied[1].translation, copied[2].rotation);
        ok(sinew_two_bone_ik_solve(
            two_bone,
            copied.as_mut_ptr(),
            &goal,
            &turn,
            &pole,
            null_mut(),
        ));
        let p = inside.as_mut_ptr();
        ok(sinew_two_bone_ik_solve(
            two_bone,
            p,
            &goal,
            std::ptr::addr_of!((*p.add(2)).rotation),
            std::ptr::addr_of!((*p.add(1)).translation),
            null_mut(),
        ));
        same(&inside, &copied);
        sinew_two_bone_ik_destroy(two_bone);

        let (fabrik, ccd) = {
            let (mut f, mut c) = (null_mut(), null_mut());
            let mut fs = MaybeUninit::uninit();
            sinew_fabrik_settings_default(fs.as_mut_ptr());
            let mut fs = fs.assume_init();
            fs.end_rotation = SinewEndRotation::CopyEffector as i32;
            ok(sinew_fabrik_create(&fs, 4, &mut f));
            let mut cs = MaybeUninit::uninit();
            sinew_ccd_settings_default(cs.as_mut_ptr());
            let mut cs = cs.assume_init();
            cs.end_rotation = SinewEndRotation::CopyEffector as i32;
            ok(sinew_ccd_create(&cs, 4, &mut c));
            (f, c)
        };
        let goal = v3(0.3, 0.4, 0.0);
        let mut copied = straight_chain();
        copied[0].rotation = rot_z(0.2);
        copied[3].rotation = rot_z(0.6);
        let mut inside = copied;
        let (parent, turn) = (copied[0].rotation, copied[3].rotation);
        ok(sinew_fabrik_solve(
            fabrik,
            copied.as_mut_ptr(),
            4,
            &parent,
            &goal,
            &turn,
            null_mut(),
        ));
        let p = inside.as_mut_ptr();
        ok(sinew_fabrik_solve(
            fabrik,
            p,
            4,
            std::ptr::addr_of!((*p).rotation),
            &goal,
            std::ptr::addr_of!((*p.add(3)).rotation),
            null_mut(),
        ));
        same(&inside, &copied);

        let mut copied = straight_chain();
        copied[3].rotation = rot_z(0.6);
        let mut inside = copied;
        let turn = copied[3].rotation;
        ok(sinew_ccd_solve(
            ccd,
            copied.as_mut_ptr(),
            4,
            null(),
            &goal,
            &turn,
            null_mut(),
        ));
        let p = inside.as_mut_ptr();
        ok(sinew_ccd_solve(
            ccd,
            p,
            4,
            null(),
            &goal,
            std::ptr::addr_of!((*p.add(3)).rotation),
            null_mut(),
        ));
        same(&inside, &copied);
        sinew_fabrik_destroy(fabrik);
        sinew_ccd_destroy(ccd);
    }
}

/// Whether every float of `ts` is finite.
fn finite(ts: &[SinewTransform]) -> bool {
    ts.iter().all(|t| {
        let (p, q, s) = (t.translation, t.rotation, t.scale);
        [p.x, p.y, p.z, q.x, q.y, q.z, q.w, s.x, s.y, s.z]
            .iter()
            .all(|x| x.is_finite())
    })
}

/// `COUNT` items of type `T` read from `floats`, starting `at` floats in: the values an array
/// argument pointing there holds.
///
/// # Safety
/// `floats` must hold `at + COUNT * size_of::<T>() / 4` floats, and `T` be made of `f32`s.
unsafe fn floats_as<T: Copy, const COUNT: usize>(floats: *const f32, at: usize) -> [T; COUNT] {
    // SAFETY: caller's contract; `T` is 4-aligned.
    unsafe { floats.add(at).cast::<[T; COUNT]>().read() }
}

/// The per-chain arrays of a batch may point into its `chains` array: the implementation reads
/// them through raw pointers, never through references overlapping the chains it writes, so
/// under Miri this is defined behaviour. Where every input a chain reads lies in the last
/// chain (written last, after its own inputs are read), the batch equals one with copies;
/// where inputs lie in the first chain (written before later chains read them) the values
/// depend on the order of the solve, so only success and finite output are checked.
#[test]
fn batch_inputs_may_point_into_the_chains() {
    // Float offsets in a transform: translation 0, rotation 3, scale 7.
    // SAFETY: pointers derived from one raw pointer per array, to live locals; each window
    // (one item per chain from the offset) lies within the array; every float is finite and every
    // four-float window a non-zero quaternion (see `arm_chains`, `straight_chains`).
    unsafe {
        let mut settings = MaybeUninit::uninit();
        sinew_two_bone_ik_settings_default(settings.as_mut_ptr());
        let mut settings = settings.assume_init();
        settings.end_rotation = SinewEndRotation::CopyEffector as i32;
        let mut two_bone = null_mut();
        ok(sinew_two_bone_ik_create(&settings, &mut two_bone));
        let chains = arm_chains();
        let last = 3 * (CHAINS - 1) * 10;
        let flat = chains.as_ptr().cast::<f32>();
        let goals: [SinewVec3; CHAINS] = floats_as(flat, last);
        let turns: [SinewQuat; CHAINS] = floats_as(flat, last + 3);
        let poles: [SinewVec3; CHAINS] = floats_as(flat, last + 7);
        let mut copied = chains;
        let mut copied_results = [STALE; CHAINS];
        ok(sinew_two_bone_ik_solve_batch(
            two_bone,
            copied.as_mut_ptr(),
            CHAINS as u32,
            goals.as_ptr(),
            turns.as_ptr(),
            poles.as_ptr(),
            copied_results.as_mut_ptr(),
        ));
        let mut inside = chains;
        let mut results = [STALE; CHAINS];
        let p = inside.as_mut_ptr();
        let f = p.cast::<f32>();
        ok(sinew_two_bone_ik_solve_batch(
            two_bone,
            p,
            CHAINS as u32,
            f.add(last).cast(),
            f.add(last + 3).cast(),
            f.add(last + 7).cast(),
            results.as_mut_ptr(),
        ));
        same(&inside, &copied);
        near_results(&results, &copied_results, SAME);
        // Inputs in the first chain, which the SIMD group writes before the tail reads them.
        let mut inside = chains;
        let p = inside.as_mut_ptr();
        let f = p.cast::<f32>();
        ok(sinew_two_bone_ik_solve_batch(
            two_bone,
            p,
            CHAINS as u32,
            f.cast(),
            f.add(3).cast(),
            f.add(7).cast(),
            results.as_mut_ptr(),
        ));
        assert!(finite(&inside), "{inside:?}");
        sinew_two_bone_ik_destroy(two_bone);

        let chains = straight_chains();
        let last = 4 * (CHAIN_BATCH - 1) * 10;
        let flat = chains.as_ptr().cast::<f32>();
        let goals: [SinewVec3; CHAIN_BATCH] = floats_as(flat, last);
        let turns: [SinewQuat; CHAIN_BATCH] = floats_as(flat, last + 3);
        let parents: [SinewQuat; CHAIN_BATCH] = floats_as(flat, last + 13);
        for solver in ChainHandle::both() {
            let mut copied = chains;
            let mut copied_results = [STALE; CHAIN_BATCH];
            ok(solver.batch(
                copied.as_mut_ptr(),
                4,
                CHAIN_BATCH as u32,
                parents.as_ptr(),
                goals.as_ptr(),
                turns.as_ptr(),
                copied_results.as_mut_ptr(),
            ));
            let mut inside = chains;
            let mut results = [STALE; CHAIN_BATCH];
            let p = inside.as_mut_ptr();
            let f = p.cast::<f32>();
            ok(solver.batch(
                p,
                4,
                CHAIN_BATCH as u32,
                f.add(last + 13).cast(),
                f.add(last).cast(),
                f.add(last + 3).cast(),
                results.as_mut_ptr(),
            ));
            same(&inside, &copied);
            near_results(&results, &copied_results, SAME);
            let mut inside = chains;
            let p = inside.as_mut_ptr();
            let f = p.cast::<f32>();
            ok(solver.batch(
                p,
                4,
                CHAIN_BATCH as u32,
                f.add(13).cast(),
                f.cast(),
                f.add(3).cast(),
                results.as_mut_ptr(),
            ));
            assert!(finite(&inside), "{inside:?}");
            solver.destroy();
        }
    }
}

// ------------------------------------------------------------------------------ threads

/// A skeleton handle shared read-only across threads, as the C ABI allows.
#[derive(Clone, Copy)]
struct Shared(*const SinewSkeleton);
// SAFETY: a SinewSkeleton is immutable after creation and reference counted atomically.
unsafe impl Send for Shared {}

#[test]
fn two_threads_share_a_skeleton_and_keep_their_own_errors() {
    let skel = skeleton();
    let shared = Shared(skel);
    let work = move |seed: u32| {
        let shared = shared;
        let p = pose(shared.0);
        let mut settings = MaybeUninit::uninit();
        let mut solver = null_mut();
        // SAFETY: handles made, used and destroyed on this thread; the skeleton is only read.
        unsafe {
            sinew_two_bone_ik_settings_default(settings.as_mut_ptr());
            ok(sinew_two_bone_ik_create(settings.as_ptr(), &mut solver));
            for f in 0..3 {
                let t = (seed * 3 + f) as f32 * 0.3;
                let goal = v3(0.2 + 0.3 * t.cos(), 1.0 + 0.3 * t.sin(), 0.05);
                ok(sinew_two_bone_ik_solve_pose(
                    solver,
                    p,
                    1,
                    2,
                    3,
                    &goal,
                    null(),
                    null(),
                    null_mut(),
                ));
            }
            let s = sinew_two_bone_ik_solve_pose(
                solver,
                p,
                1,
                2,
                99,
                &v3(0.0, 0.0, 0.0),
                null(),
                null(),
                null_mut(),
            );
            assert_eq!(s, SinewStatus::OutOfRange);
            let message = last_error_message();
            sinew_two_bone_ik_destroy(solver);
            let mut count = 0;
            ok(sinew_skeleton_joint_count(shared.0, &mut count));
            assert_eq!(count, JOINTS);
            let result = model(p);
            sinew_pose_destroy(p);
            (message, result)
        }
    };
    let threads: Vec<_> = (0..2)
        .map(|seed| std::thread::spawn(move || work(seed)))
        .collect();
    let results: Vec<_> = threads.into_iter().map(|t| t.join().unwrap()).collect();
    assert!(
        last_error_message().is_empty(),
        "errors stay on their thread"
    );
    for (seed, (message, model)) in results.iter().enumerate() {
        assert!(message.contains("99"), "{message:?}");
        same(model, &work(seed as u32).1);
    }
    // SAFETY: no thread uses it any more.
    unsafe { sinew_skeleton_destroy(skel) };
}

// ------------------------------------------------------------------------------ coverage

/// Every function the header declares is called somewhere above. (A text scan, nothing for Miri
/// to check, and slow when interpreted.)
#[test]
#[cfg_attr(miri, ignore = "a text scan; nothing for Miri to check")]
fn every_export_is_called_here() {
    let header = include_str!("../include/sinew.h");
    let this = include_str!("ffi_miri.rs");
    let mut declared = Vec::new();
    for line in header.lines() {
        let code = line.trim_start();
        if code.starts_with("//") || code.starts_with('*') || code.starts_with("/*") {
            continue;
        }
        let Some(start) = code.find("sinew_") else {
            continue;
        };
        let rest = &code[start..];
        let end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        if rest[end..].starts_with('(') {
            declared.push(&rest[..end]);
        }
    }
    assert!(
        declared.len() >= 80,
        "parsed only {} declarations",
        declared.len()
    );
    let missing: Vec<_> = declared
        .iter()
        .filter(|name| !this.contains(&format!("{name}(")))
        .collect();
    assert!(
        missing.is_empty(),
        "exports this test never calls: {missing:?}"
    );
}
