//! Solver settings across the ABI, declared once per solver: [`c_settings!`] converts a
//! `#[repr(C)]` settings struct to and from the core's field by field, [`solver_handle!`]
//! makes a handle a [`Solver`], and the generic bodies here are each solver's
//! `_settings_default`, `_create`, `_get_settings` and `_set_settings` (its `_destroy` is
//! [`destroy`](super::handle::destroy)). The bodies' contract is their exports': the
//! module's pointer rule.

use glam::Vec3;

use super::args::{arg, arg_mut, c_enum, flag};
use super::guard::{guard_void, FfiError, FfiResult};
use super::handle::{create, query, update, Handle};
use super::status::SinewStatus;
use super::types::{SinewVec3, END_ROTATIONS};
use crate::ik::EndRotation;

/// Reads a settings field as C stores it (`Self`) into the core's type `T`, or says why it
/// has no such value (a flag not 0 or 1, an enum value out of range). Writing one is `Into`.
pub trait CField<T> {
    /// The core value of field `name`.
    fn read(self, name: &str) -> FfiResult<T>;
}

impl<T> CField<T> for T {
    fn read(self, _: &str) -> FfiResult<T> {
        Ok(self)
    }
}

impl CField<bool> for u32 {
    fn read(self, name: &str) -> FfiResult<bool> {
        flag(self, name)
    }
}

impl CField<EndRotation> for i32 {
    fn read(self, name: &str) -> FfiResult<EndRotation> {
        c_enum(self, name, "SinewEndRotation", &END_ROTATIONS)
    }
}

impl CField<Vec3> for SinewVec3 {
    fn read(self, _: &str) -> FfiResult<Vec3> {
        Ok(self.into())
    }
}

/// A solver's C settings struct, which converts from its core settings and back (validated).
pub trait CSettings: Copy + From<Self::Core> {
    /// The core's settings.
    type Core: Copy + Default + for<'a> TryFrom<&'a Self, Error = FfiError>;
}

/// Declares that C settings struct `$c` holds core settings `$core` field by field, under the
/// same names: `From<$core>`, a validating `TryFrom<&$c>` and [`CSettings`].
macro_rules! c_settings {
    ($c:ty => $core:ty { $($field:ident),+ $(,)? }) => {
        impl From<$core> for $c {
            fn from(s: $core) -> Self {
                Self { $($field: s.$field.into()),+ }
            }
        }

        impl TryFrom<&$c> for $core {
            type Error = $crate::ffi::guard::FfiError;

            fn try_from(s: &$c) -> $crate::ffi::guard::FfiResult<Self> {
                use $crate::ffi::settings::CField;
                let settings = Self { $($field: s.$field.read(stringify!($field))?),+ };
                settings.validate()?;
                Ok(settings)
            }
        }

        impl $crate::ffi::settings::CSettings for $c {
            type Core = $core;
        }
    };
}
pub(crate) use c_settings;

/// A solver handle whose settings C reads and replaces.
pub trait Solver: Handle {
    /// Its C settings struct.
    type Settings: CSettings;
    /// The current settings.
    fn settings(&self) -> <Self::Settings as CSettings>::Core;
    /// Replaces the settings after validating them (unchanged on error).
    fn set_settings(&mut self, settings: <Self::Settings as CSettings>::Core) -> crate::Result<()>;
}

/// Declares a solver handle `$handle` (a struct whose field `inner` is the core solver, made
/// from `$inner` when given), named `$name` in messages, with C settings `$settings`.
macro_rules! solver_handle {
    ($handle:ty, $name:literal, $settings:ty $(, $inner:ty)?) => {
        $crate::ffi::handle::handle!($handle, $name $(, $inner)?);

        impl $crate::ffi::settings::Solver for $handle {
            type Settings = $settings;
            fn settings(&self) -> <$settings as $crate::ffi::settings::CSettings>::Core {
                *self.inner.settings()
            }
            fn set_settings(
                &mut self,
                settings: <$settings as $crate::ffi::settings::CSettings>::Core,
            ) -> $crate::Result<()> {
                self.inner.set_settings(settings)
            }
        }
    };
}
pub(crate) use solver_handle;

/// Body of `_settings_default`: fills `out` with the core's defaults; NULL is ignored.
pub unsafe fn settings_default<S: CSettings>(out: *mut S) {
    guard_void(|| {
        *unsafe { arg_mut(out, "out") }? = S::Core::default().into();
        Ok(())
    });
}

/// Body of `_create`: reads and validates `settings`, then publishes `new(settings)`.
pub unsafe fn create_solver<H: Solver, T: Into<H>>(
    settings: *const H::Settings,
    out: *mut *mut H,
    new: impl FnOnce(<H::Settings as CSettings>::Core) -> crate::Result<T>,
) -> SinewStatus {
    let make = || FfiResult::Ok(new(unsafe { arg(settings, "settings") }?.try_into()?)?);
    unsafe { create(out, make) }
}

/// Body of `_get_settings`.
pub unsafe fn get_settings<H: Solver>(solver: *const H, out: *mut H::Settings) -> SinewStatus {
    unsafe { query(solver, out, "out_settings", |s| Ok(s.settings().into())) }
}

/// Body of `_set_settings`: the solver is unchanged on error.
pub unsafe fn set_settings<H: Solver>(solver: *mut H, settings: *const H::Settings) -> SinewStatus {
    let read = || unsafe { arg(settings, "settings") }?.try_into();
    unsafe { update(solver, |s| Ok(s.set_settings(read()?)?)) }
}
