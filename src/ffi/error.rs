//! Reading the thread-local error slot the guard writes: `sinew_last_error_message` for C and
//! [`last_error_message`] for Rust callers and tests.

use std::ffi::c_char;

use super::guard::{guard_keeping_error, with_last_error, FfiError};
use super::status::SinewStatus;

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
            return Err(FfiError::null("buf"));
        }
        with_last_error(|message| {
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
        Ok(())
    })
}

/// This thread's last error message, for Rust callers and tests of the C ABI.
pub fn last_error_message() -> String {
    with_last_error(str::to_owned)
}
