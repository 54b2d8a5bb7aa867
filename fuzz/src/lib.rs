//! Support for the fuzz targets in `fuzz_targets/`: decoding bytes into C ABI inputs
//! ([`gen`]), the properties checked after every call ([`check`]) and owned handles and
//! skeletons ([`world`]). Every target drives only the C exports (`sinew::ffi::*`), as a C, C++
//! or C# caller would. See docs/FUZZING.md.

// The helpers take the raw handles the C ABI hands out, always live ones made by the target
// itself, exactly as a C caller holds them.
#![allow(clippy::not_unsafe_ptr_arg_deref)]

pub mod check;
pub mod gen;
pub mod targets;
pub mod world;

pub use gen::Gen;
