//! Unit tests of the C ABI conventions, through real exports.

use std::ptr::{null, null_mut};

use super::guard::test_hooks::arm_panic;
use super::*;
use crate::ffi::error::last_error_message;

fn make_solver() -> *mut SinewTwoBoneIk {
    let mut settings = std::mem::MaybeUninit::uninit();
    let mut solver = null_mut();
    // SAFETY: valid out-pointers.
    unsafe {
        sinew_two_bone_ik_settings_default(settings.as_mut_ptr());
        assert_eq!(
            sinew_two_bone_ik_create(settings.as_ptr(), &mut solver),
            SinewStatus::Ok
        );
    }
    solver
}

fn arm() -> [SinewTransform; 3] {
    let at = |x: f32| SinewTransform {
        translation: SinewVec3 { x, y: 0.0, z: 0.0 },
        rotation: SinewQuat {
            w: 1.0,
            ..Default::default()
        },
        scale: SinewVec3 {
            x: 1.0,
            y: 1.0,
            z: 1.0,
        },
    };
    [at(0.0), at(1.0), at(2.0)]
}

#[test]
fn a_panic_inside_an_export_becomes_a_status() {
    let solver = make_solver();
    let mut chain = arm();
    let before = chain;
    let goal = SinewVec3 {
        x: 1.0,
        y: 1.0,
        z: 0.0,
    };
    let mut result = SinewIkResult {
        reached: 7,
        error: 7.0,
        iterations: 7,
    };
    // SAFETY: valid pointers.
    let solve = |chain: &mut [SinewTransform; 3], result: &mut SinewIkResult| unsafe {
        sinew_two_bone_ik_solve(solver, chain.as_mut_ptr(), &goal, null(), null(), result)
    };
    arm_panic();
    // The guard turns the injected panic into a status.
    assert_eq!(solve(&mut chain, &mut result), SinewStatus::Panic);
    assert!(last_error_message().contains("injected test panic"));
    assert_eq!(chain, before, "a panicking call has no effect");
    assert_eq!(result.iterations, 7);
    // The next call works normally and clears the message.
    assert_eq!(solve(&mut chain, &mut result), SinewStatus::Ok);
    assert!(last_error_message().is_empty());
    // SAFETY: created above.
    unsafe { sinew_two_bone_ik_destroy(solver) };
}

#[test]
fn error_message_truncates_on_char_boundaries_and_reports_full_length() {
    super::guard::set_last_error("héllo wörld");
    let full = "héllo wörld".len();
    let mut len = 0usize;
    // SAFETY: NULL buffer with zero capacity is a length query.
    assert_eq!(
        unsafe { sinew_last_error_message(null_mut(), 0, &mut len) },
        SinewStatus::Ok
    );
    assert_eq!(len, full);
    let mut buf = [0x55 as std::ffi::c_char; 3];
    // SAFETY: buffer of 3 bytes.
    unsafe { sinew_last_error_message(buf.as_mut_ptr(), 3, &mut len) };
    // "hé" is 3 bytes; only 2 fit before the NUL, and 'é' must not be split.
    assert_eq!(buf[0] as u8, b'h');
    assert_eq!(buf[1], 0);
    assert_eq!(len, full);
    assert_eq!(
        last_error_message(),
        "héllo wörld",
        "reading does not clear"
    );
    // SAFETY: a non-zero capacity with a NULL buffer is rejected, not written.
    let status = unsafe { sinew_last_error_message(null_mut(), 4, null_mut()) };
    assert_eq!(status, SinewStatus::NullPointer);
}

#[test]
fn null_and_misaligned_pointers_are_rejected_without_writes() {
    let solver = make_solver();
    let goal = SinewVec3::default();
    // SAFETY: the export checks every pointer before use.
    let status =
        unsafe { sinew_two_bone_ik_solve(solver, null_mut(), &goal, null(), null(), null_mut()) };
    assert_eq!(status, SinewStatus::NullPointer);
    assert!(last_error_message().contains("chain"));
    /// A buffer whose start is 16-aligned, so start + 1 is never aligned for f32.
    #[repr(C, align(16))]
    struct Aligned([u8; 128]);
    let mut bytes = Aligned([0u8; 128]);
    let misaligned = bytes
        .0
        .as_mut_ptr()
        .wrapping_add(1)
        .cast::<SinewTransform>();
    // SAFETY: misalignment is detected before any dereference.
    let status =
        unsafe { sinew_two_bone_ik_solve(solver, misaligned, &goal, null(), null(), null_mut()) };
    assert_eq!(status, SinewStatus::InvalidArgument);
    assert!(last_error_message().contains("aligned"));
    assert!(bytes.0.iter().all(|&b| b == 0));
    // SAFETY: destroy(NULL) is a no-op; the solver was created above.
    unsafe {
        sinew_two_bone_ik_destroy(null_mut());
        sinew_two_bone_ik_destroy(solver);
    }
}

#[test]
fn abi_version_matches_header_constant() {
    assert_eq!(sinew_abi_version(), SINEW_ABI_VERSION);
    let (mut a, mut b, mut c) = (9, 9, 9);
    // SAFETY: valid pointers.
    assert_eq!(
        unsafe { sinew_version(&mut a, &mut b, &mut c) },
        SinewStatus::Ok
    );
    assert_eq!(format!("{a}.{b}.{c}"), env!("CARGO_PKG_VERSION"));
}
