//! `SinewStatus`: the result code of every export.

use crate::error::ErrorKind;

/// Result of a Sinew call. Anything but `SINEW_STATUS_OK` leaves a message for
/// `sinew_last_error_message` and leaves the caller's outputs untouched.
#[repr(i32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SinewStatus {
    /// Success.
    Ok = 0,
    /// A required pointer was NULL.
    NullPointer = 1,
    /// A value is outside its domain, or a pointer is misaligned.
    InvalidArgument = 2,
    /// An input float is NaN or infinite.
    NonFinite = 3,
    /// An index or count is outside the valid range.
    OutOfRange = 4,
    /// Two sizes that must agree do not (e.g. a buffer and a pose).
    SizeMismatch = 5,
    /// The parent array or names do not form a valid skeleton.
    InvalidSkeleton = 6,
    /// Sinew panicked internally; the call had no effect. Please report it.
    Panic = 7,
    /// A looked-up name does not exist.
    NotFound = 8,
    /// Finite inputs would give a non-finite result (magnitudes too large for f32).
    NumericOverflow = 9,
}

impl From<ErrorKind> for SinewStatus {
    fn from(kind: ErrorKind) -> Self {
        match kind {
            ErrorKind::InvalidArgument => Self::InvalidArgument,
            ErrorKind::NonFinite => Self::NonFinite,
            ErrorKind::OutOfRange => Self::OutOfRange,
            ErrorKind::SizeMismatch => Self::SizeMismatch,
            ErrorKind::InvalidSkeleton => Self::InvalidSkeleton,
            ErrorKind::NotFound => Self::NotFound,
            ErrorKind::NumericOverflow => Self::NumericOverflow,
        }
    }
}
