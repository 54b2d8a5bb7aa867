//! Argument checks: pointers (null, alignment), arrays and their counts, flags and C enums.
//! Each returns the error the export reports, and none forms a reference before its checks
//! pass. The `unsafe fn`s borrow a caller's memory for `'a`: their contract is the exports'
//! pointer rule (the module's `# Safety`), forwarded; `_mut` borrows must not alias others.

use super::guard::{FfiError, FfiResult};
use super::status::SinewStatus;

/// Fails unless `p` is non-null and aligned for `T` (forms no reference).
#[inline(always)]
pub fn check_pointer<T>(p: *const T, name: &str) -> FfiResult<()> {
    if p.is_null() {
        return Err(FfiError::null(name));
    }
    if !p.is_aligned() {
        let message = format!("`{name}` is not aligned for its type");
        return Err(FfiError::new(SinewStatus::InvalidArgument, message));
    }
    Ok(())
}

/// Borrows a required input.
#[inline(always)]
pub unsafe fn arg<'a, T>(p: *const T, name: &str) -> FfiResult<&'a T> {
    check_pointer(p, name)?;
    // SAFETY: non-null and aligned; validity is the caller's contract.
    Ok(unsafe { &*p })
}

/// Borrows an optional input: NULL gives `None`.
#[inline(always)]
pub unsafe fn opt_arg<'a, T>(p: *const T, name: &str) -> FfiResult<Option<&'a T>> {
    (!p.is_null()).then(|| unsafe { arg(p, name) }).transpose()
}

/// Borrows a required in/out argument.
#[inline(always)]
pub unsafe fn arg_mut<'a, T>(p: *mut T, name: &str) -> FfiResult<&'a mut T> {
    check_pointer(p, name)?;
    // SAFETY: non-null and aligned; validity and exclusivity are the caller's contract.
    Ok(unsafe { &mut *p })
}

/// Borrows an optional in/out argument: NULL gives `None`.
#[inline(always)]
pub unsafe fn opt_arg_mut<'a, T>(p: *mut T, name: &str) -> FfiResult<Option<&'a mut T>> {
    (!p.is_null())
        .then(|| unsafe { arg_mut(p, name) })
        .transpose()
}

/// Borrows an input array of `count` items (NULL allowed only when `count` is 0).
pub unsafe fn arg_slice<'a, T>(p: *const T, count: u32, name: &str) -> FfiResult<&'a [T]> {
    if count == 0 {
        return Ok(&[]);
    }
    check_pointer(p, name)?;
    // SAFETY: non-null, aligned, `count` items per the caller's contract.
    Ok(unsafe { std::slice::from_raw_parts(p, count as usize) })
}

/// Borrows an output array of `count` items (NULL allowed only when `count` is 0).
pub unsafe fn arg_slice_mut<'a, T>(p: *mut T, count: u32, name: &str) -> FfiResult<&'a mut [T]> {
    if count == 0 {
        return Ok(&mut []);
    }
    check_pointer(p, name)?;
    // SAFETY: non-null, aligned, `count` items per the caller's contract.
    Ok(unsafe { std::slice::from_raw_parts_mut(p, count as usize) })
}

/// [`arg_slice`] of an array that must hold exactly `expected` items.
pub unsafe fn arg_array<'a, T>(
    p: *const T,
    n: u32,
    expected: usize,
    name: &str,
) -> FfiResult<&'a [T]> {
    check_count(n, expected, name)?;
    unsafe { arg_slice(p, n, name) }
}

/// [`arg_slice_mut`] of an array that must hold exactly `expected` items.
pub unsafe fn arg_array_mut<'a, T>(
    p: *mut T,
    n: u32,
    expected: usize,
    name: &str,
) -> FfiResult<&'a mut [T]> {
    check_count(n, expected, name)?;
    unsafe { arg_slice_mut(p, n, name) }
}

/// Fails with `SIZE_MISMATCH` unless a caller's buffer holds exactly `expected` items.
pub fn check_count(count: u32, expected: usize, what: &str) -> FfiResult<()> {
    if count as usize == expected {
        return Ok(());
    }
    let message = format!("{what} holds {count} items but {expected} are required");
    Err(FfiError::new(SinewStatus::SizeMismatch, message))
}

/// Reads a `uint32_t` flag that must be 0 or 1.
pub fn flag(value: u32, name: &str) -> FfiResult<bool> {
    match value {
        0 | 1 => Ok(value == 1),
        v => {
            let message = format!("`{name}` is {v}; flags must be 0 or 1");
            Err(FfiError::new(SinewStatus::InvalidArgument, message))
        }
    }
}

/// Reads the `int32_t` argument or field `name` of the C enum `what`, whose values 0, 1, ...
/// stand for `values` in order.
pub fn c_enum<T: Copy>(value: i32, name: &str, what: &str, values: &[T]) -> FfiResult<T> {
    let found = usize::try_from(value).ok().and_then(|i| values.get(i));
    found
        .copied()
        .ok_or_else(|| FfiError::bad_enum(name, value, what))
}

/// An optional output: checked (null or aligned) when the call starts, before anything is
/// written, and written through the raw pointer only once the call succeeds, so until then it
/// may alias the call's other arguments.
pub struct OptOut<T>(*mut T);

impl<T> OptOut<T> {
    /// Checks `p` (NULL: nothing will be written).
    pub fn new(p: *mut T, name: &str) -> FfiResult<Self> {
        if !p.is_null() {
            check_pointer(p.cast_const(), name)?;
        }
        Ok(Self(p))
    }

    /// Writes `value` if the caller asked for it (the pointer's validity is the caller's
    /// contract).
    pub unsafe fn write(self, value: impl Into<T>) {
        if !self.0.is_null() {
            // SAFETY: checked non-null and aligned in `new`; validity is the caller's contract.
            unsafe { self.0.write(value.into()) };
        }
    }
}
