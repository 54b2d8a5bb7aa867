//! Field access to transforms stored in any layout, so solvers work in place on a caller's own
//! value types (the C ABI's packed transforms) without converting whole chains.

use glam::{Quat, Vec3};

use crate::transform::Transform;

/// A transform whose fields a solver reads and writes.
pub trait TransformAccess {
    /// The transform's fields as a [`Transform`].
    fn transform(&self) -> Transform;
    /// Replaces translation and rotation, keeping the scale.
    fn set_translation_rotation(&mut self, translation: Vec3, rotation: Quat);
    /// Replaces the rotation, keeping translation and scale.
    fn set_rotation(&mut self, rotation: Quat);
}

impl TransformAccess for Transform {
    #[inline(always)]
    fn transform(&self) -> Transform {
        *self
    }
    #[inline(always)]
    fn set_translation_rotation(&mut self, translation: Vec3, rotation: Quat) {
        self.translation = translation;
        self.rotation = rotation;
    }
    #[inline(always)]
    fn set_rotation(&mut self, rotation: Quat) {
        self.rotation = rotation;
    }
}
