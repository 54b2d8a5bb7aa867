//! Skin handle exports (`SinewSkin`): inverse bind matrices given once, for skinning palettes.

use super::args::arg_slice;
use super::guard::FfiResult;
use super::handle::{create_from, destroy, handle, query};
use super::skeleton::SinewSkeleton;
use super::status::SinewStatus;
use super::types::SinewMat4;
use crate::skin::Skin;
use glam::Mat4;

/// Opaque skin handle: the joints a mesh is skinned to and their inverse bind matrices.
/// Immutable once created, so it may be read from any number of threads at once.
pub struct SinewSkin {
    pub(crate) inner: Skin,
}
handle!(SinewSkin, "skin", Skin);

/// Creates a skin of `skeleton` with `count` palette entries: entry `k` is joint `joints[k]`
/// (unique indices below the joint count), or joint `k` when `joints` is NULL (then `count`
/// must equal the joint count), with inverse bind matrix `inverse_binds[k]` (finite; the
/// inverse of the joint's model matrix at bind time, as glTF's `inverseBindMatrices`).
/// Copied. `SINEW_STATUS_INVALID_ARGUMENT` for a `count` of 0 or a joint listed twice.
///
/// # Safety
/// `inverse_binds` must hold `count` items, and `joints` too unless NULL.
#[no_mangle]
pub unsafe extern "C" fn sinew_skin_create(
    skeleton: *const SinewSkeleton,
    joints: *const u32,
    inverse_binds: *const SinewMat4,
    count: u32,
    out_skin: *mut *mut SinewSkin,
) -> SinewStatus {
    let make = |s: &SinewSkeleton| {
        // SAFETY: the arrays hold `count` items.
        let (joints, binds) = unsafe {
            let joints = if joints.is_null() {
                None
            } else {
                Some(arg_slice(joints, count, "joints")?)
            };
            (joints, arg_slice(inverse_binds, count, "inverse_binds")?)
        };
        let binds: Vec<Mat4> = binds.iter().map(|&m| m.into()).collect();
        FfiResult::Ok(Skin::new(&s.inner, joints, &binds)?)
    };
    unsafe { create_from(skeleton, out_skin, make) }
}

/// Releases a skin. NULL is a no-op.
#[no_mangle]
pub unsafe extern "C" fn sinew_skin_destroy(skin: *mut SinewSkin) {
    unsafe { destroy(skin) }
}

/// Writes the number of palette entries (skinned joints).
#[no_mangle]
pub unsafe extern "C" fn sinew_skin_joint_count(
    skin: *const SinewSkin,
    out_count: *mut u32,
) -> SinewStatus {
    let count = |s: &SinewSkin| Ok(s.inner.joint_count() as u32);
    unsafe { query(skin, out_count, "out_count", count) }
}
