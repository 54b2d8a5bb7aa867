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
//! when the header declares a function these files never call, so a new export cannot slip by.
//! One module per job (skeleton and pose, solvers, batches, blending, clips); the helpers, the
//! conventions every export shares, threads and the coverage check are here.
//! Inputs are kept tiny (a 5-joint skeleton, 4-joint chains, a few frames) because Miri
//! interprets every instruction; the numbers themselves are checked elsewhere.

use std::ffi::{c_char, CString};
use std::mem::MaybeUninit;
use std::ptr::{null, null_mut};

use sinew::ffi::error::last_error_message;
use sinew::ffi::*;

mod batches;
mod blending;
mod clips;
mod pose;
mod solvers;

// ------------------------------------------------------------------------------ helpers

/// Settings filled by a `*_settings_default` export.
fn defaults<T>(fill: unsafe extern "C" fn(*mut T)) -> T {
    let mut settings = MaybeUninit::uninit();
    // SAFETY: an out-pointer to a local; the export fills it completely.
    unsafe {
        fill(settings.as_mut_ptr());
        settings.assume_init()
    }
}

/// The settings a `*_get_settings` export reads from `solver`.
///
/// # Safety
///
/// `solver` is a live handle of the solver `get` reads.
unsafe fn settings_of<H, T>(
    get: unsafe extern "C" fn(*const H, *mut T) -> SinewStatus,
    solver: *mut H,
) -> T {
    let mut settings = MaybeUninit::uninit();
    ok(get(solver, settings.as_mut_ptr()));
    settings.assume_init()
}

/// A handle `create` makes from the settings `fill` writes, changed by `edit`; and those
/// settings.
fn created<H, T>(
    fill: unsafe extern "C" fn(*mut T),
    edit: impl FnOnce(&mut T),
    create: impl FnOnce(&T, &mut *mut H) -> SinewStatus,
) -> (*mut H, T) {
    let mut settings = defaults(fill);
    edit(&mut settings);
    let mut handle = null_mut();
    ok(create(&settings, &mut handle));
    assert!(!handle.is_null());
    (handle, settings)
}

/// A solver's settings exports: `*_settings_default`, `*_get_settings`, `*_set_settings`.
type SettingsExports<H, T> = (
    unsafe extern "C" fn(*mut T),
    unsafe extern "C" fn(*const H, *mut T) -> SinewStatus,
    unsafe extern "C" fn(*mut H, *const T) -> SinewStatus,
);

/// Each solver's [`SettingsExports`], declared once.
macro_rules! settings_exports {
    ($($name:ident: $handle:ty, $settings:ty = ($default:ident, $get:ident, $set:ident))*) => {
        $(const $name: SettingsExports<$handle, $settings> = ($default, $get, $set);)*
    };
}

settings_exports! {
    TWO_BONE: SinewTwoBoneIk, SinewTwoBoneIkSettings = (sinew_two_bone_ik_settings_default,
        sinew_two_bone_ik_get_settings, sinew_two_bone_ik_set_settings)
    FABRIK: SinewFabrik, SinewFabrikSettings = (sinew_fabrik_settings_default,
        sinew_fabrik_get_settings, sinew_fabrik_set_settings)
    CCD: SinewCcd, SinewCcdSettings = (sinew_ccd_settings_default,
        sinew_ccd_get_settings, sinew_ccd_set_settings)
    AIM: SinewAimIk, SinewAimIkSettings = (sinew_aim_ik_settings_default,
        sinew_aim_ik_get_settings, sinew_aim_ik_set_settings)
    MULTI: SinewMultiFabrik, SinewMultiFabrikSettings = (sinew_multi_fabrik_settings_default,
        sinew_multi_fabrik_get_settings, sinew_multi_fabrik_set_settings)
    HAND: SinewHandIkRetargeting, SinewHandIkRetargetingSettings = (
        sinew_hand_ik_retargeting_settings_default, sinew_hand_ik_retargeting_get_settings,
        sinew_hand_ik_retargeting_set_settings)
}

/// An edit that makes settings invalid, the status it gets and the field the message names.
type BadSettings<T> = (fn(&mut T), SinewStatus, &'static str);

/// A handle `create` makes from its default settings, put through a settings round trip: the
/// defaults read back; `change` of them is accepted and reads back; each `bad` edit of the
/// changed settings is rejected with its status and a message naming its field, and the
/// changed settings stay. Returns the handle and the default settings.
///
/// # Safety
///
/// `create` makes a handle of the solver the exports take.
unsafe fn settings_round_trip<H, T: Copy + PartialEq + std::fmt::Debug>(
    (fill, get, set): SettingsExports<H, T>,
    create: impl FnOnce(&T, &mut *mut H) -> SinewStatus,
    change: fn(&mut T),
    bad: &[BadSettings<T>],
) -> (*mut H, T) {
    let (handle, defaults) = created(fill, |_| {}, create);
    assert_eq!(settings_of(get, handle), defaults);
    let mut changed = defaults;
    change(&mut changed);
    ok(set(handle, &changed));
    assert_eq!(settings_of(get, handle), changed);
    for (edit, status, field) in bad {
        let mut settings = changed;
        edit(&mut settings);
        fails(set(handle, &settings), *status, field);
        assert_eq!(
            settings_of(get, handle),
            changed,
            "unchanged by failed sets"
        );
    }
    (handle, defaults)
}

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

fn arm_chain() -> [SinewTransform; 3] {
    [
        tr(0.0, 0.0, 0.0, IDENTITY),
        tr(1.0, 0.0, 0.1, IDENTITY),
        tr(2.0, 0.0, 0.0, IDENTITY),
    ]
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

/// A FABRIK or a CCD handle, driven through the same calls.
#[derive(Clone, Copy)]
enum ChainHandle {
    Fabrik(*mut SinewFabrik),
    Ccd(*mut SinewCcd),
}

impl ChainHandle {
    /// Both solvers for chains of up to 4 joints, with default settings changed by `edit`
    /// (given each one's `end_rotation` and `max_iterations`).
    fn both(edit: impl Fn(&mut i32, &mut u32)) -> [Self; 2] {
        let create_fabrik = |s: &_, out: &mut _| {
            // SAFETY: settings and an out-pointer of locals.
            unsafe { sinew_fabrik_create(s, 4, out) }
        };
        let create_ccd = |s: &_, out: &mut _| {
            // SAFETY: settings and an out-pointer of locals.
            unsafe { sinew_ccd_create(s, 4, out) }
        };
        let edit_fabrik =
            |s: &mut SinewFabrikSettings| edit(&mut s.end_rotation, &mut s.max_iterations);
        let edit_ccd = |s: &mut SinewCcdSettings| edit(&mut s.end_rotation, &mut s.max_iterations);
        let (f, _) = created(sinew_fabrik_settings_default, edit_fabrik, create_fabrik);
        let (c, _) = created(sinew_ccd_settings_default, edit_ccd, create_ccd);
        [Self::Fabrik(f), Self::Ccd(c)]
    }

    /// Both solvers with default settings but at most 3 iterations (Miri interprets every
    /// one), `max_joints` 4, a hinge on joint 1.
    fn both_hinged() -> [Self; 2] {
        let hinge = hinge();
        let both = Self::both(|_, iterations| *iterations = 3);
        for solver in both {
            // SAFETY: a live handle and a constraint of a local.
            ok(unsafe { solver.set_constraint(1, &hinge) });
        }
        both
    }

    fn name(self) -> &'static str {
        match self {
            Self::Fabrik(_) => "FABRIK",
            Self::Ccd(_) => "CCD",
        }
    }

    /// `sinew_<solver>_set_constraint`.
    ///
    /// # Safety
    /// As that export.
    unsafe fn set_constraint(self, joint: u32, c: *const SinewJointConstraint) -> SinewStatus {
        // SAFETY: forwarded.
        unsafe {
            match self {
                Self::Fabrik(h) => sinew_fabrik_set_constraint(h, joint, c),
                Self::Ccd(h) => sinew_ccd_set_constraint(h, joint, c),
            }
        }
    }

    /// `sinew_<solver>_solve_pose`.
    ///
    /// # Safety
    /// As that export.
    unsafe fn solve_pose(
        self,
        pose: *mut SinewPose,
        joints: &[u32],
        goal: *const SinewVec3,
        rotation: *const SinewQuat,
        result: *mut SinewIkResult,
    ) -> SinewStatus {
        let (list, count) = (joints.as_ptr(), joints.len() as u32);
        // SAFETY: forwarded; `joints` holds `count` indices.
        unsafe {
            match self {
                Self::Fabrik(h) => {
                    sinew_fabrik_solve_pose(h, pose, list, count, goal, rotation, result)
                }
                Self::Ccd(h) => sinew_ccd_solve_pose(h, pose, list, count, goal, rotation, result),
            }
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
        sinew_multi_fabrik_destroy(null_mut());
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
        sinew_multi_fabrik_settings_default(null_mut());
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
        sinew_multi_fabrik_settings_default(null_mut());
        sinew_joint_constraint_default(null_mut());
        assert_eq!(last_error_message(), message);
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

/// Every function the header declares is called somewhere in these files. (A text scan, nothing for Miri
/// to check, and slow when interpreted.)
#[test]
#[cfg_attr(miri, ignore = "a text scan; nothing for Miri to check")]
fn every_export_is_called_here() {
    let header = include_str!("../../include/sinew.h");
    let this = [
        include_str!("main.rs"),
        include_str!("pose.rs"),
        include_str!("solvers.rs"),
        include_str!("batches.rs"),
        include_str!("blending.rs"),
        include_str!("clips.rs"),
    ]
    .concat();
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
        .filter(|name| {
            // Called, or passed to a helper that calls it (`settings_of(get, solver)`).
            !["(", ",", ")"]
                .iter()
                .any(|next| this.contains(&format!("{name}{next}")))
        })
        .collect();
    assert!(
        missing.is_empty(),
        "exports this test never calls: {missing:?}"
    );
}
