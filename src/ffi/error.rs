//! The thread-local error slot, the only mutable global state in Sinew.

use std::cell::{Cell, RefCell};
use std::ffi::c_char;

use super::guard::{guard_keeping_error, FfiResult};
use super::status::SinewStatus;

thread_local! {
    static LAST_ERROR: RefCell<String> = const { RefCell::new(String::new()) };
    /// Whether `LAST_ERROR` holds a message: a plain flag (no destructor, no borrow) so the
    /// successful call every export ends with costs one thread-local load.
    static HAS_ERROR: Cell<bool> = const { Cell::new(false) };
}

/// Records `message` as this thread's last error.
pub(crate) fn set_last_error(message: &str) {
    LAST_ERROR.with(|slot| {
        let mut slot = slot.borrow_mut();
        slot.clear();
        slot.push_str(message);
    });
    HAS_ERROR.with(|flag| flag.set(!message.is_empty()));
}

/// Empties this thread's last error (keeps its buffer, so it never allocates).
#[inline(always)]
pub(crate) fn clear_last_error() {
    if HAS_ERROR.with(Cell::get) {
        LAST_ERROR.with(|slot| slot.borrow_mut().clear());
        HAS_ERROR.with(|flag| flag.set(false));
    }
}

/// Copies this thread's last error message (UTF-8, empty after a successful call) into `buf`.
///
/// Writes at most `capacity - 1` bytes, cut at a character boundary, plus a NUL terminator.
/// `*out_len` (if not NULL) receives the full message length in bytes without the NUL, so a
/// caller can size a buffer by calling once with `buf = NULL, capacity = 0`. Reading the
/// message does not clear it.
///
/// # Safety
/// `buf` must be NULL or valid for `capacity` bytes; `out_len` must be NULL or valid.
#[no_mangle]
pub unsafe extern "C" fn sinew_last_error_message(
    buf: *mut c_char,
    capacity: usize,
    out_len: *mut usize,
) -> SinewStatus {
    guard_keeping_error(|| {
        if buf.is_null() && capacity > 0 {
            return Err(super::guard::FfiError::null("buf"));
        }
        LAST_ERROR.with(|slot| {
            let message = slot.borrow();
            if capacity > 0 {
                let mut n = message.len().min(capacity - 1);
                while !message.is_char_boundary(n) {
                    n -= 1;
                }
                // SAFETY: the caller guarantees `buf` holds `capacity` bytes and n < capacity.
                unsafe {
                    std::ptr::copy_nonoverlapping(message.as_ptr(), buf.cast::<u8>(), n);
                    *buf.add(n) = 0;
                }
            }
            if !out_len.is_null() {
                // SAFETY: checked non-null; the caller guarantees validity.
                unsafe { *out_len = message.len() };
            }
        });
        FfiResult::Ok(())
    })
}

/// This thread's last error message, for Rust callers and tests of the C ABI.
pub fn last_error_message() -> String {
    LAST_ERROR.with(|slot| slot.borrow().clone())
}
