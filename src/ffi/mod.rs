//! The C ABI. Every export is `sinew_*`, runs inside the one panic guard, validates its inputs
//! before writing anything, and returns a [`SinewStatus`]; the message of the last failure on
//! the calling thread is read with [`sinew_last_error_message`].
//!
//! Handle ownership: every handle is created by `sinew_<thing>_create` and released by
//! `sinew_<thing>_destroy` (NULL is a no-op). `SinewSkeleton` handles share their skeleton by
//! reference count, so poses created from a skeleton stay valid after the skeleton handle is
//! destroyed. All other handles own their data outright.
//!
//! # Safety
//! The pointer rule of every export: each pointer argument is NULL (where the export allows
//! it) or valid for the whole call: aligned, pointing to initialized memory that holds the
//! items the export names (one unless a count says otherwise), writable for outputs, and for a
//! handle a live one from its `_create`. NULL and misaligned pointers are detected and
//! reported; any other invalid pointer is undefined behaviour. An export's own `# Safety`
//! section says only what this rule does not: how many items an array holds. The header's
//! preamble (`cbindgen.toml`) states the same rule for C.
//!
//! Exports are written out one by one (cbindgen and csbindgen read the source, not macro
//! expansions), each a documented signature over a generic body: `handle` for every
//! handle's create, destroy, queries and updates, `settings` for each solver's settings, and
//! `chain` for what FABRIK and CCD share. A body's contract is its export's (this rule and
//! the export's `# Safety`) and its `unsafe` calls forward it, with null and alignment checked
//! by `args` before any reference is formed: a `SAFETY` comment says only what a block relies
//! on beyond that (an array's item count, ownership, an order of reads that lets inputs point
//! into outputs).

// Each export's contract is the rule above, stated once (and in the header's preamble);
// per-export sections would repeat it 86 times. C signatures, and the generic bodies that
// mirror them, take the arguments the ABI fixes.
#![allow(clippy::missing_safety_doc, clippy::too_many_arguments)]

mod aim;
mod args;
mod batch;
mod blend;
mod ccd;
mod chain;
mod clip;
mod constraint;
mod crossfade;
pub mod error;
mod fabrik;
mod guard;
mod hand_retarget;
mod handle;
mod mask;
mod multi_fabrik;
mod pose;
mod settings;
mod skeleton;
mod skin;
mod status;
mod two_bone;
mod types;
mod version;

pub use aim::*;
pub use blend::*;
pub use ccd::*;
pub use clip::*;
pub use constraint::*;
pub use crossfade::*;
pub use error::sinew_last_error_message;
pub use fabrik::*;
pub use hand_retarget::*;
pub use mask::*;
pub use multi_fabrik::*;
pub use pose::*;
pub use skeleton::*;
pub use skin::*;
pub use status::SinewStatus;
pub use two_bone::*;
pub use types::{
    SinewEndRotation, SinewIkResult, SinewMat4, SinewQuat, SinewSoaQuat, SinewSoaTransform,
    SinewSoaVec3, SinewTransform, SinewVec3,
};
pub use version::*;

#[cfg(test)]
mod tests;
