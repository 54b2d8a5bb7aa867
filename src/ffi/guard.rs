//! The one panic guard every export runs in, the error type export bodies return, and the
//! thread-local error slot the guard writes (the only mutable global state in Sinew).

use std::any::Any;
use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::panic::{catch_unwind, AssertUnwindSafe};

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

    /// `value` of the C enum `what` is not one of its values.
    #[cold]
    pub fn bad_enum(name: &str, value: i32, what: &str) -> Self {
        Self::new(
            SinewStatus::InvalidArgument,
            format!("{name} {value} is not a {what} value"),
        )
    }
}

impl From<Error> for FfiError {
    fn from(e: Error) -> Self {
        Self::new(e.kind().into(), e.message().to_owned())
    }
}

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
fn clear_last_error() {
    if HAS_ERROR.with(Cell::get) {
        LAST_ERROR.with(|slot| slot.borrow_mut().clear());
        HAS_ERROR.with(|flag| flag.set(false));
    }
}

/// Runs `read` on this thread's last error message (empty after a successful call).
pub(crate) fn with_last_error<R>(read: impl FnOnce(&str) -> R) -> R {
    LAST_ERROR.with(|slot| read(&slot.borrow()))
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
