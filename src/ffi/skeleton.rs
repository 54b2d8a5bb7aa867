//! Skeleton handle exports. A `SinewSkeleton` shares its skeleton by reference count with every
//! pose made from it.

use std::ffi::{c_char, CStr};
use std::sync::Arc;

use super::args::arg_slice;
use super::guard::{FfiError, FfiResult};
use super::handle::{copy_out, create, destroy, handle, query};
use super::status::SinewStatus;
use super::types::SinewTransform;
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
handle!(SinewSkeleton, "skeleton");

/// Reads the required UTF-8 C string `name` (an argument or an array entry).
///
/// # Safety
/// A non-null `p` must point to a NUL-terminated string.
unsafe fn read_str<'a>(p: *const c_char, name: &str) -> FfiResult<&'a str> {
    if p.is_null() {
        return Err(FfiError::null(name));
    }
    // SAFETY: non-null and NUL-terminated per the caller's contract.
    let text = unsafe { CStr::from_ptr(p) }.to_str();
    let message = || format!("`{name}` is not valid UTF-8");
    text.map_err(|_| FfiError::new(SinewStatus::InvalidArgument, message()))
}

/// Creates a skeleton from `joint_count` parent indices (-1 for a root; each parent must come
/// before its child), rest-pose local transforms and optional joint names (NULL, or
/// `joint_count` unique non-empty UTF-8 strings, copied). Rest rotations are renormalized.
///
/// # Safety
/// `parents` and `rest_pose` must hold `joint_count` items; `names` must be NULL or hold
/// `joint_count` NUL-terminated strings.
#[no_mangle]
pub unsafe extern "C" fn sinew_skeleton_create(
    parents: *const i32,
    rest_pose: *const SinewTransform,
    names: *const *const c_char,
    joint_count: u32,
    out_skeleton: *mut *mut SinewSkeleton,
) -> SinewStatus {
    let make = || {
        if joint_count == 0 || joint_count as usize > MAX_JOINTS {
            let message = format!("joint_count {joint_count} is outside 1..={MAX_JOINTS}");
            return Err(FfiError::new(SinewStatus::OutOfRange, message));
        }
        // SAFETY: the arrays hold `joint_count` items.
        let (parents, rest, names) = unsafe {
            let parents = arg_slice(parents, joint_count, "parents")?;
            let rest = arg_slice(rest_pose, joint_count, "rest_pose")?;
            let names = if names.is_null() {
                &[]
            } else {
                arg_slice(names, joint_count, "names")?
            };
            let read = names.iter().enumerate();
            let names = read.map(|(i, &p)| read_str(p, &format!("names[{i}]")));
            (parents, rest, names.collect::<FfiResult<Vec<_>>>()?)
        };
        let rest: Vec<Transform> = rest.iter().map(|&t| t.into()).collect();
        let names = (!names.is_empty()).then_some(&names[..]);
        let inner = Arc::new(Skeleton::new(parents, &rest, names)?);
        Ok(SinewSkeleton { inner })
    };
    unsafe { create(out_skeleton, make) }
}

/// Releases a skeleton handle. Poses made from it keep the skeleton alive. NULL is a no-op.
#[no_mangle]
pub unsafe extern "C" fn sinew_skeleton_destroy(skeleton: *mut SinewSkeleton) {
    unsafe { destroy(skeleton) }
}

/// Writes the number of joints.
#[no_mangle]
pub unsafe extern "C" fn sinew_skeleton_joint_count(
    skeleton: *const SinewSkeleton,
    out_count: *mut u32,
) -> SinewStatus {
    let count = |s: &SinewSkeleton| Ok(s.inner.joint_count() as u32);
    unsafe { query(skeleton, out_count, "out_count", count) }
}

/// Looks up a joint by name; `SINEW_STATUS_NOT_FOUND` when no joint has it,
/// `SINEW_STATUS_INVALID_ARGUMENT` when `name` is not valid UTF-8.
///
/// # Safety
/// `name` must be a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn sinew_skeleton_find_joint(
    skeleton: *const SinewSkeleton,
    name: *const c_char,
    out_index: *mut u32,
) -> SinewStatus {
    let find = |s: &SinewSkeleton| {
        let name = unsafe { read_str(name, "name") }?;
        let missing = || format!("no joint is named {name:?}");
        let index = s.inner.find_joint(name);
        Ok(index.ok_or_else(|| FfiError::new(SinewStatus::NotFound, missing()))? as u32)
    };
    unsafe { query(skeleton, out_index, "out_index", find) }
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
    let parents: fn(&SinewSkeleton) -> &[i32] = |s| s.inner.parents();
    unsafe { copy_out(skeleton, out_parents, count, "out_parents", parents) }
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
    let rest: fn(&SinewSkeleton) -> &[Transform] = |s| s.inner.rest_pose();
    unsafe { copy_out(skeleton, out_rest_pose, count, "out_rest_pose", rest) }
}
