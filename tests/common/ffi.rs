//! C ABI handles that several tests set up the same way.

use sinew::ffi::error::last_error_message;
use sinew::ffi::*;
use sinew::Skeleton;

/// Asserts `SINEW_STATUS_OK`, showing the error message otherwise (formatted only then: it
/// allocates nothing on success).
#[track_caller]
pub fn ok(status: SinewStatus) {
    assert_eq!(status, SinewStatus::Ok, "{}", last_error_message());
}

/// A track setter of the C ABI (`sinew_clip_set_{translation,rotation,scale}_track`): clip,
/// joint, interpolation, times, values, in and out tangents, key count.
pub type SetTrack<T> = unsafe extern "C" fn(
    *mut SinewClip,
    u32,
    i32,
    *const f32,
    *const T,
    *const T,
    *const T,
    u32,
) -> SinewStatus;

/// A C skeleton without names: `parents` and the rest pose `rest`. The caller destroys it
/// (`sinew_skeleton_destroy`).
pub fn c_skeleton(parents: &[i32], rest: &[SinewTransform]) -> *mut SinewSkeleton {
    assert_eq!(parents.len(), rest.len());
    let mut skeleton = std::ptr::null_mut();
    // SAFETY: both arrays hold `parents.len()` items; the out-pointer is a local.
    let status = unsafe {
        sinew_skeleton_create(
            parents.as_ptr(),
            rest.as_ptr(),
            std::ptr::null(),
            parents.len() as u32,
            &mut skeleton,
        )
    };
    assert_eq!(status, SinewStatus::Ok);
    skeleton
}

/// [`c_skeleton`] with a core skeleton's parents and rest pose.
pub fn c_skeleton_of(skeleton: &Skeleton) -> *mut SinewSkeleton {
    let rest: Vec<SinewTransform> = skeleton.rest_pose().iter().map(|&t| t.into()).collect();
    c_skeleton(skeleton.parents(), &rest)
}

/// A FABRIK and a CCD handle with default settings, for chains of up to `max_joints` joints.
/// The caller destroys them (`sinew_fabrik_destroy`, `sinew_ccd_destroy`).
pub fn default_chain_solvers(max_joints: u32) -> (*mut SinewFabrik, *mut SinewCcd) {
    let (mut fabrik, mut ccd) = (std::ptr::null_mut(), std::ptr::null_mut());
    let mut fs = std::mem::MaybeUninit::uninit();
    let mut cs = std::mem::MaybeUninit::uninit();
    // SAFETY: every pointer is to a local; the settings are written before they are read.
    unsafe {
        sinew_fabrik_settings_default(fs.as_mut_ptr());
        assert_eq!(
            sinew_fabrik_create(fs.as_ptr(), max_joints, &mut fabrik),
            SinewStatus::Ok
        );
        sinew_ccd_settings_default(cs.as_mut_ptr());
        assert_eq!(
            sinew_ccd_create(cs.as_ptr(), max_joints, &mut ccd),
            SinewStatus::Ok
        );
    }
    (fabrik, ccd)
}
