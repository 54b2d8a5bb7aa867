//! Handles: the opaque objects C holds pointers to. [`handle!`] declares each one's name
//! once; the generic bodies here create one (boxed, published through an out-pointer only on
//! success), destroy one (NULL is a no-op), and borrow one to query or change it. Their
//! contract is their exports': the module's pointer rule.

use super::args::{arg, arg_array_mut, arg_mut, check_pointer};
use super::guard::{guard, guard_void, FfiError, FfiResult};
use super::status::SinewStatus;

/// An opaque handle type. Ownership: a handle lives in a `Box` whose pointer C holds from its
/// `_create` ([`create`]) to its `_destroy` ([`destroy`]); every other export borrows it
/// through a null- and alignment-checked pointer ([`Handle::get`], [`Handle::get_mut`]).
pub trait Handle: Sized {
    /// The handle's argument name in exports and error messages (`"pose"`, `"solver"`).
    const NAME: &'static str;
    /// The name of its `_create`'s out-pointer (`"out_pose"`).
    const OUT: &'static str;

    /// Borrows the handle argument `p`.
    unsafe fn get<'a>(p: *const Self) -> FfiResult<&'a Self> {
        unsafe { arg(p, Self::NAME) }
    }

    /// Borrows the handle argument `p` mutably.
    unsafe fn get_mut<'a>(p: *mut Self) -> FfiResult<&'a mut Self> {
        unsafe { arg_mut(p, Self::NAME) }
    }
}

/// Declares `$handle` a [`Handle`] named `$name` (its `_create` writes through `out_$name`),
/// made from the core value `$inner` it holds as its one field `inner`.
macro_rules! handle {
    ($handle:ty, $name:literal) => {
        impl $crate::ffi::handle::Handle for $handle {
            const NAME: &'static str = $name;
            const OUT: &'static str = concat!("out_", $name);
        }
    };
    ($handle:ty, $name:literal, $inner:ty) => {
        $crate::ffi::handle::handle!($handle, $name);

        impl From<$inner> for $handle {
            fn from(inner: $inner) -> Self {
                Self { inner }
            }
        }
    };
}
pub(crate) use handle;

/// Body of `_create`: checks the out-pointer, makes the handle (or the value it wraps), and
/// only then writes it.
pub unsafe fn create<H: Handle, T: Into<H>, E: Into<FfiError>>(
    out: *mut *mut H,
    make: impl FnOnce() -> Result<T, E>,
) -> SinewStatus {
    guard(|| {
        check_pointer(out.cast_const(), H::OUT)?;
        let handle = Box::into_raw(Box::new(make().map_err(Into::into)?.into()));
        // SAFETY: checked non-null and aligned; validity is the caller's contract.
        unsafe { out.write(handle) };
        Ok(())
    })
}

/// [`create`] from another handle, `source` (a skeleton for a pose, say).
pub unsafe fn create_from<S: Handle, H: Handle, T: Into<H>, E: Into<FfiError>>(
    source: *const S,
    out: *mut *mut H,
    make: impl FnOnce(&S) -> Result<T, E>,
) -> SinewStatus {
    unsafe { create(out, || make(S::get(source)?).map_err(Into::into)) }
}

/// Body of `_destroy`: frees a handle made by [`create`]; NULL is a no-op. Runs inside the
/// guard so a panicking destructor cannot unwind into C, and leaves the thread's last error
/// message alone.
///
/// # Safety
/// `p` must be NULL or a live handle from [`create`] of the same type, not used afterwards.
pub unsafe fn destroy<H: Handle>(p: *mut H) {
    if p.is_null() {
        return;
    }
    guard_void(|| {
        // SAFETY: the caller hands back ownership of a handle created by `create`.
        drop(unsafe { Box::from_raw(p) });
        Ok(())
    });
}

/// Body of a query: borrows the handle, computes `value` from it and writes it through the
/// required `out` (untouched on error).
pub unsafe fn query<H: Handle, T>(
    handle: *const H,
    out: *mut T,
    out_name: &str,
    value: impl FnOnce(&H) -> FfiResult<T>,
) -> SinewStatus {
    guard(|| {
        let (handle, out) = unsafe { (H::get(handle)?, arg_mut(out, out_name)?) };
        *out = value(handle)?;
        Ok(())
    })
}

/// Body of an export that changes a handle in place (`change` leaves it unchanged on error).
pub unsafe fn update<H: Handle>(
    handle: *mut H,
    change: impl FnOnce(&mut H) -> FfiResult<()>,
) -> SinewStatus {
    guard(|| change(unsafe { H::get_mut(handle) }?))
}

/// Body of an export that reads a handle.
pub unsafe fn inspect<H: Handle>(
    handle: *const H,
    read: impl FnOnce(&H) -> FfiResult<()>,
) -> SinewStatus {
    guard(|| read(unsafe { H::get(handle) }?))
}

/// Body of an export that copies a handle's per-joint array into `out`, which must hold
/// exactly as many items (`count`).
pub unsafe fn copy_out<H: Handle, S: Copy + Into<T>, T>(
    handle: *const H,
    out: *mut T,
    count: u32,
    out_name: &str,
    source: fn(&H) -> &[S],
) -> SinewStatus {
    let copy = |h: &H| {
        let source = source(h);
        // SAFETY: `out` holds `count` items.
        let out = unsafe { arg_array_mut(out, count, source.len(), out_name) }?;
        for (o, &s) in out.iter_mut().zip(source) {
            *o = s.into();
        }
        Ok(())
    };
    unsafe { inspect(handle, copy) }
}
