//! Skeleton handle exports. A `SinewSkeleton` shares its skeleton by reference count with every
//! pose made from it.

use std::ffi::{c_char, CStr};
use std::sync::Arc;

use super::guard::{arg, arg_mut, arg_slice, arg_slice_mut, check_count, destroy, guard, publish};
use super::guard::{FfiError, FfiResult};
use super::status::SinewStatus;
use super::types::{write_transforms, SinewTransform};
use crate::skeleton::{Skeleton, MAX_JOINTS};
use crate::transform::Transform;

/// Most joints a skeleton may have.
pub const SINEW_MAX_JOINTS: u32 = 65_536;
const _: () = assert!(SINEW_MAX_JOINTS as usize == MAX_JOINTS);

/// Opaque skeleton handle: joint hierarchy, rest pose and names. Immutable once created, so
/// it may be read from any number of threads at once.
pub struct SinewSkeleton {
    pub(crate) inner: Arc<Skeleton>,
}

/// Reads `count` UTF-8 C strings.
unsafe fn read_names<'a>(names: *const *const c_char, count: u32) -> FfiResult<Vec<&'a str>> {
    // SAFETY: forwarded contract: `names` holds `count` pointers.
    let ptrs = unsafe { arg_slice(names, count, "names") }?;
    ptrs.iter()
        .enumerate()
        .map(|(i, &p)| {
            if p.is_null() {
                return Err(FfiError::null(&format!("names[{i}]")));
            }
            // SAFETY: non-null NUL-terminated string per the caller's contract.
            unsafe { CStr::from_ptr(p) }.to_str().map_err(|_| {
                FfiError::new(
                    SinewStatus::InvalidArgument,
                    format!("names[{i}] is not valid UTF-8"),
                )
            })
        })
        .collect()
}

/// Creates a skeleton from `joint_count` parent indices (-1 for a root; each parent must come
/// before its child), rest-pose local transforms and optional joint names (NULL, or
/// `joint_count` unique non-empty UTF-8 strings, copied). Rest rotations are renormalized.
///
/// # Safety
/// `parents` and `rest_pose` must hold `joint_count` items; `names` must be NULL or hold
/// `joint_count` NUL-terminated strings; `out_skeleton` must be valid for a write.
#[no_mangle]
pub unsafe extern "C" fn sinew_skeleton_create(
    parents: *const i32,
    rest_pose: *const SinewTransform,
    names: *const *const c_char,
    joint_count: u32,
    out_skeleton: *mut *mut SinewSkeleton,
) -> SinewStatus {
    guard(|| {
        // SAFETY: pointer validity is the caller's contract; null/alignment are checked.
        let out = unsafe { arg_mut(out_skeleton, "out_skeleton") }?;
        if joint_count == 0 || joint_count as usize > MAX_JOINTS {
            return Err(FfiError::new(
                SinewStatus::OutOfRange,
                format!("joint_count {joint_count} is outside 1..={MAX_JOINTS}"),
            ));
        }
        // SAFETY: as above.
        let parents = unsafe { arg_slice(parents, joint_count, "parents") }?;
        // SAFETY: as above.
        let rest = unsafe { arg_slice(rest_pose, joint_count, "rest_pose") }?;
        let names = if names.is_null() {
            None
        } else {
            // SAFETY: as above.
            Some(unsafe { read_names(names, joint_count) }?)
        };
        let rest: Vec<Transform> = rest.iter().map(|&t| t.into()).collect();
        let skeleton = Skeleton::new(parents, &rest, names.as_deref())?;
        publish(
            out,
            SinewSkeleton {
                inner: Arc::new(skeleton),
            },
        );
        Ok(())
    })
}

/// Releases a skeleton handle. Poses made from it keep the skeleton alive. NULL is a no-op.
///
/// # Safety
/// `skeleton` must be NULL or a live handle, not used afterwards.
#[no_mangle]
pub unsafe extern "C" fn sinew_skeleton_destroy(skeleton: *mut SinewSkeleton) {
    // SAFETY: forwarded contract.
    unsafe { destroy(skeleton) }
}

/// Writes the number of joints.
///
/// # Safety
/// Pointers must be valid.
#[no_mangle]
pub unsafe extern "C" fn sinew_skeleton_joint_count(
    skeleton: *const SinewSkeleton,
    out_count: *mut u32,
) -> SinewStatus {
    guard(|| {
        // SAFETY: caller's contract; null/alignment checked.
        let (skeleton, out) =
            unsafe { (arg(skeleton, "skeleton")?, arg_mut(out_count, "out_count")?) };
        *out = skeleton.inner.joint_count() as u32;
        Ok(())
    })
}

/// Looks up a joint by name; `SINEW_STATUS_NOT_FOUND` when no joint has it,
/// `SINEW_STATUS_INVALID_ARGUMENT` when `name` is not valid UTF-8.
///
/// # Safety
/// `name` must be a NUL-terminated string; other pointers valid.
#[no_mangle]
pub unsafe extern "C" fn sinew_skeleton_find_joint(
    skeleton: *const SinewSkeleton,
    name: *const c_char,
    out_index: *mut u32,
) -> SinewStatus {
    guard(|| {
        // SAFETY: caller's contract; null/alignment checked.
        let (skeleton, out) =
            unsafe { (arg(skeleton, "skeleton")?, arg_mut(out_index, "out_index")?) };
        if name.is_null() {
            return Err(FfiError::null("name"));
        }
        // SAFETY: non-null NUL-terminated string per the caller's contract.
        let name = unsafe { CStr::from_ptr(name) }.to_str().map_err(|_| {
            FfiError::new(SinewStatus::InvalidArgument, "`name` is not valid UTF-8")
        })?;
        let index = skeleton.inner.find_joint(name).ok_or_else(|| {
            FfiError::new(SinewStatus::NotFound, format!("no joint is named {name:?}"))
        })?;
        *out = index as u32;
        Ok(())
    })
}

/// Copies the parent indices; `count` must equal the joint count.
///
/// # Safety
/// `out_parents` must hold `count` items.
#[no_mangle]
pub unsafe extern "C" fn sinew_skeleton_get_parents(
    skeleton: *const SinewSkeleton,
    out_parents: *mut i32,
    count: u32,
) -> SinewStatus {
    guard(|| {
        // SAFETY: caller's contract; null/alignment checked.
        let skeleton = unsafe { arg(skeleton, "skeleton") }?;
        let parents = skeleton.inner.parents();
        check_count(count, parents.len(), "out_parents")?;
        // SAFETY: as above.
        let out = unsafe { arg_slice_mut(out_parents, count, "out_parents") }?;
        out.copy_from_slice(parents);
        Ok(())
    })
}

/// Copies the rest-pose local transforms; `count` must equal the joint count.
///
/// # Safety
/// `out_rest_pose` must hold `count` items.
#[no_mangle]
pub unsafe extern "C" fn sinew_skeleton_get_rest_pose(
    skeleton: *const SinewSkeleton,
    out_rest_pose: *mut SinewTransform,
    count: u32,
) -> SinewStatus {
    guard(|| {
        // SAFETY: caller's contract; null/alignment checked.
        let skeleton = unsafe { arg(skeleton, "skeleton") }?;
        let rest = skeleton.inner.rest_pose();
        check_count(count, rest.len(), "out_rest_pose")?;
        // SAFETY: as above.
        let out = unsafe { arg_slice_mut(out_rest_pose, count, "out_rest_pose") }?;
        write_transforms(out, rest);
        Ok(())
    })
}
