//! The core's error type: a kind that the C ABI maps to a status, and a message for people.

use std::fmt;

/// What class of problem an [`Error`] reports; each maps to one C status code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// A value is outside its documented domain (a weight above 1, an unknown mode, ...).
    InvalidArgument,
    /// An input holds NaN or an infinity.
    NonFinite,
    /// An index or a count is outside the valid range.
    OutOfRange,
    /// Two inputs that must have the same length do not.
    SizeMismatch,
    /// A parent array or joint name table does not describe a valid skeleton.
    InvalidSkeleton,
    /// A looked-up item (a joint name) does not exist.
    NotFound,
    /// Finite inputs would produce a non-finite result (magnitudes too large for f32).
    NumericOverflow,
}

/// An error from the Sinew core: a kind plus a human-readable message. Boxed, so a
/// `Result` of the core is small and its success path stays in registers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error(Box<Inner>);

#[derive(Clone, Debug, PartialEq, Eq)]
struct Inner {
    kind: ErrorKind,
    message: String,
}

impl Error {
    /// Builds an error of `kind` with `message`.
    #[cold]
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        Self(Box::new(Inner {
            kind,
            message: message.into(),
        }))
    }

    /// The class of the problem.
    pub fn kind(&self) -> ErrorKind {
        self.0.kind
    }

    /// The human-readable description.
    pub fn message(&self) -> &str {
        &self.0.message
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.message)
    }
}

impl std::error::Error for Error {}

/// Shorthand for results of the core.
pub type Result<T> = std::result::Result<T, Error>;

/// Fails with [`ErrorKind::NonFinite`] naming `what` when `ok` is false.
#[inline(always)]
pub(crate) fn ensure_finite(ok: bool, what: &str) -> Result<()> {
    if ok {
        Ok(())
    } else {
        Err(Error::new(
            ErrorKind::NonFinite,
            format!("{what} is not finite (NaN or infinity)"),
        ))
    }
}
