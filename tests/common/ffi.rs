//! C ABI handles that several tests set up the same way, and arrays in the SoA batch layout.

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

/// `items` in structure-of-arrays blocks of four (item `i` in lane `i % 4` of block `i / 4`)
/// through `set` (a block type's `set_lane`); lanes past the last item keep `blank`'s values.
pub fn soa_blocks<B: Copy, T>(items: &[T], blank: B, set: fn(&mut B, usize, &T)) -> Vec<B> {
    let mut blocks = vec![blank; items.len().div_ceil(4)];
    for (i, t) in items.iter().enumerate() {
        set(&mut blocks[i / 4], i % 4, t);
    }
    blocks
}

/// Two-bone chains (root, joint, end per chain) in the SoA batch's layout: three blocks per
/// group of four chains; lanes past the last chain hold `fill` in every component.
pub fn soa_chains(chains: &[SinewTransform], fill: f32) -> Vec<SinewSoaTransform> {
    let v = SinewSoaVec3 {
        x: [fill; 4],
        y: [fill; 4],
        z: [fill; 4],
    };
    let blank = SinewSoaTransform {
        translation: v,
        rotation: SinewSoaQuat {
            x: [fill; 4],
            y: [fill; 4],
            z: [fill; 4],
            w: [fill; 4],
        },
        scale: v,
    };
    let count = chains.len() / 3;
    let mut blocks = vec![blank; 3 * count.div_ceil(4)];
    for (n, t) in chains.iter().enumerate() {
        let (i, k) = (n / 3, n % 3);
        blocks[3 * (i / 4) + k].set_lane(i % 4, t);
    }
    blocks
}
