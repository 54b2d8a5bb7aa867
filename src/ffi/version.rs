//! Version queries: the crate's semantic version and the ABI version of this header.

use super::args::arg_mut;
use super::guard::guard;
use super::status::SinewStatus;

/// ABI version of this header. Bumped on any incompatible change to a signature or struct;
/// compare it with `sinew_abi_version()` at load time.
pub const SINEW_ABI_VERSION: u32 = 1;

/// Writes the library's semantic version.
#[no_mangle]
pub unsafe extern "C" fn sinew_version(
    major: *mut u32,
    minor: *mut u32,
    patch: *mut u32,
) -> SinewStatus {
    guard(|| {
        let (major, minor, patch) = unsafe {
            (
                arg_mut(major, "major")?,
                arg_mut(minor, "minor")?,
                arg_mut(patch, "patch")?,
            )
        };
        let parse = |s: &str| s.parse::<u32>().unwrap_or(0);
        *major = parse(env!("CARGO_PKG_VERSION_MAJOR"));
        *minor = parse(env!("CARGO_PKG_VERSION_MINOR"));
        *patch = parse(env!("CARGO_PKG_VERSION_PATCH"));
        Ok(())
    })
}

/// The ABI version the library was built with; equals `SINEW_ABI_VERSION` of a matching header.
#[no_mangle]
pub extern "C" fn sinew_abi_version() -> u32 {
    SINEW_ABI_VERSION
}
