//! The C ABI. Every export is `sinew_*`, runs inside [`guard`](guard::guard), validates its
//! inputs before writing anything, and returns a [`SinewStatus`]; the message of the last
//! failure on the calling thread is read with [`sinew_last_error_message`].
//!
//! Handle ownership: every handle is created by `sinew_<thing>_create` and released by
//! `sinew_<thing>_destroy` (NULL is a no-op). `SinewSkeleton` handles share their skeleton by
//! reference count, so poses created from a skeleton stay valid after the skeleton handle is
//! destroyed. All other handles own their data outright.

pub mod batch;
pub mod blend;
pub mod ccd;
pub mod chain;
pub mod clip;
pub mod constraint;
pub mod crossfade;
pub mod error;
pub mod fabrik;
pub mod guard;
pub mod hand_ik;
pub mod mask;
pub mod pose;
pub mod skeleton;
pub mod status;
pub mod two_bone_ik;
pub mod types;
pub mod version;

pub use blend::*;
pub use ccd::*;
pub use clip::*;
pub use constraint::*;
pub use crossfade::*;
pub use error::sinew_last_error_message;
pub use fabrik::*;
pub use hand_ik::*;
pub use mask::*;
pub use pose::*;
pub use skeleton::*;
pub use status::SinewStatus;
pub use two_bone_ik::*;
pub use types::{SinewEndRotation, SinewIkResult, SinewQuat, SinewTransform, SinewVec3};
pub use version::*;

#[cfg(test)]
mod tests;
