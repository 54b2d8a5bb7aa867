//! The one panic guard every export runs in, and the argument checks it reports through.

use std::any::Any;
use std::borrow::Cow;
use std::panic::{catch_unwind, AssertUnwindSafe};

use super::error::{clear_last_error, set_last_error};
use super::status::SinewStatus;
use crate::error::Error;

/// A failed export: the status to return and the message for the error slot. Boxed, so an
/// `FfiResult` is a pointer wide and the success path of every export passes it in registers.
#[derive(Debug)]
pub struct FfiError(Box<Failure>);

#[derive(Debug)]
struct Failure {
    status: SinewStatus,
    message: Cow<'static, str>,
}

/// What an export's body returns.
pub type FfiResult<T> = Result<T, FfiError>;

impl FfiError {
    /// An error with an explicit status.
    #[cold]
    pub fn new(status: SinewStatus, message: impl Into<Cow<'static, str>>) -> Self {
        Self(Box::new(Failure {
            status,
            message: message.into(),
        }))
    }

    /// A required pointer argument was NULL.
    #[cold]
    pub fn null(name: &str) -> Self {
        Self::new(
            SinewStatus::NullPointer,
            format!("`{name}` must not be NULL"),
        )
    }
}

impl From<Error> for FfiError {
    fn from(e: Error) -> Self {
        Self::new(e.kind().into(), e.message().to_owned())
    }
}

/// What a guarded export does with the thread's error slot.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Slot {
    /// Clear it on success, record the message on failure: every export returning a status.
    Report,
    /// Record failures only: `sinew_last_error_message` itself, which must not erase what it reads.
    KeepOnSuccess,
    /// Never touch it (except to record a panic): functions returning nothing, which have no
    /// status to go with a message.
    Untouched,
}

/// Runs an export's body: catches panics, maps errors to a status and records the message,
/// clearing the error slot on success.
#[inline(always)]
pub fn guard(body: impl FnOnce() -> FfiResult<()>) -> SinewStatus {
    run(body, Slot::Report)
}

/// Like [`guard`] but leaves the error slot alone on success, for reading the slot itself.
pub fn guard_keeping_error(body: impl FnOnce() -> FfiResult<()>) -> SinewStatus {
    run(body, Slot::KeepOnSuccess)
}

/// For exports that return nothing (destroy, defaults): failures are ignored and the error
/// slot is left alone, so such calls never erase or replace a message.
pub fn guard_void(body: impl FnOnce() -> FfiResult<()>) {
    run(body, Slot::Untouched);
}

#[inline(always)]
fn run(body: impl FnOnce() -> FfiResult<()>, slot: Slot) -> SinewStatus {
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        #[cfg(test)]
        test_hooks::panic_if_armed();
        body()
    }));
    match outcome {
        Ok(Ok(())) => {
            if slot == Slot::Report {
                clear_last_error();
            }
            SinewStatus::Ok
        }
        Ok(Err(e)) => {
            if slot != Slot::Untouched {
                set_last_error(&e.0.message);
            }
            e.0.status
        }
        Err(payload) => {
            set_last_error(&format!("internal panic: {}", panic_text(&*payload)));
            SinewStatus::Panic
        }
    }
}

fn panic_text(payload: &(dyn Any + Send)) -> &str {
    payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("non-string panic payload")
}

/// Fails unless `p` is non-null and aligned for `T` (forms no reference).
#[inline(always)]
pub fn check_pointer<T>(p: *const T, name: &str) -> FfiResult<()> {
    if p.is_null() {
        return Err(FfiError::null(name));
    }
    if !p.is_aligned() {
        return Err(FfiError::new(
            SinewStatus::InvalidArgument,
            format!("`{name}` is not aligned for its type"),
        ));
    }
    Ok(())
}

/// Borrows a required input.
///
/// # Safety
/// A non-null `p` must point to a valid `T` for `'a`.
#[inline(always)]
pub unsafe fn arg<'a, T>(p: *const T, name: &str) -> FfiResult<&'a T> {
    check_pointer(p, name)?;
    // SAFETY: non-null and aligned; validity is the caller's contract.
    Ok(unsafe { &*p })
}

/// Borrows an optional input: NULL gives `None`.
///
/// # Safety
/// A non-null `p` must point to a valid `T` for `'a`.
#[inline(always)]
pub unsafe fn opt_arg<'a, T>(p: *const T, name: &str) -> FfiResult<Option<&'a T>> {
    if p.is_null() {
        Ok(None)
    } else {
        // SAFETY: forwarded contract.
        unsafe { arg(p, name) }.map(Some)
    }
}

/// Borrows an optional in/out argument: NULL gives `None`.
///
/// # Safety
/// A non-null `p` must point to a valid `T`, not aliased elsewhere, for `'a`.
#[inline(always)]
pub unsafe fn opt_arg_mut<'a, T>(p: *mut T, name: &str) -> FfiResult<Option<&'a mut T>> {
    if p.is_null() {
        Ok(None)
    } else {
        // SAFETY: forwarded contract.
        unsafe { arg_mut(p, name) }.map(Some)
    }
}

/// Borrows a required in/out argument.
///
/// # Safety
/// A non-null `p` must point to a valid `T`, not aliased elsewhere, for `'a`.
#[inline(always)]
pub unsafe fn arg_mut<'a, T>(p: *mut T, name: &str) -> FfiResult<&'a mut T> {
    check_pointer(p, name)?;
    // SAFETY: non-null and aligned; validity and exclusivity are the caller's contract.
    Ok(unsafe { &mut *p })
}

/// Borrows an input array of `count` items (NULL allowed only when `count` is 0).
///
/// # Safety
/// A non-null `p` must point to `count` valid items for `'a`.
pub unsafe fn arg_slice<'a, T>(p: *const T, count: u32, name: &str) -> FfiResult<&'a [T]> {
    if count == 0 {
        return Ok(&[]);
    }
    check_pointer(p, name)?;
    // SAFETY: non-null, aligned, `count` items per the caller's contract.
    Ok(unsafe { std::slice::from_raw_parts(p, count as usize) })
}

/// Borrows an output array of `count` items (NULL allowed only when `count` is 0).
///
/// # Safety
/// A non-null `p` must point to `count` writable items, not aliased elsewhere, for `'a`.
pub unsafe fn arg_slice_mut<'a, T>(p: *mut T, count: u32, name: &str) -> FfiResult<&'a mut [T]> {
    if count == 0 {
        return Ok(&mut []);
    }
    check_pointer(p, name)?;
    // SAFETY: non-null, aligned, `count` items per the caller's contract.
    Ok(unsafe { std::slice::from_raw_parts_mut(p, count as usize) })
}

/// Fails with `SIZE_MISMATCH` unless a caller's buffer holds exactly `expected` items.
pub fn check_count(count: u32, expected: usize, what: &str) -> FfiResult<()> {
    if count as usize == expected {
        Ok(())
    } else {
        Err(FfiError::new(
            SinewStatus::SizeMismatch,
            format!("{what} holds {count} items but {expected} are required"),
        ))
    }
}

/// Reads a `uint32_t` flag that must be 0 or 1.
pub fn flag(value: u32, name: &str) -> FfiResult<bool> {
    match value {
        0 => Ok(false),
        1 => Ok(true),
        v => Err(FfiError::new(
            SinewStatus::InvalidArgument,
            format!("`{name}` is {v}; flags must be 0 or 1"),
        )),
    }
}

/// Writes a freshly created handle through a caller's out-pointer.
///
/// # Safety
/// `out` must be valid for writes (checked non-null and aligned by the caller via [`arg_mut`]).
pub fn publish<T>(out: &mut *mut T, value: T) {
    *out = Box::into_raw(Box::new(value));
}

/// Frees a handle made by [`publish`]; NULL is a no-op. Runs inside the guard so a panicking
/// destructor cannot unwind into C, and leaves the thread's last error message alone.
///
/// # Safety
/// `p` must be NULL or a live handle from [`publish`] of the same type, not used afterwards.
pub unsafe fn destroy<T>(p: *mut T) {
    if p.is_null() {
        return;
    }
    guard_void(|| {
        // SAFETY: the caller hands back ownership of a handle created by `publish`.
        drop(unsafe { Box::from_raw(p) });
        Ok(())
    });
}

#[cfg(test)]
pub(crate) mod test_hooks {
    use std::cell::Cell;

    thread_local! {
        static ARMED: Cell<bool> = const { Cell::new(false) };
    }

    /// Makes the next guarded export on this thread panic inside the guard.
    pub fn arm_panic() {
        ARMED.with(|a| a.set(true));
    }

    pub(super) fn panic_if_armed() {
        if ARMED.with(|a| a.replace(false)) {
            panic!("injected test panic");
        }
    }
}
