//! `Pose`: a skeleton's local transforms, with model-space views computed in one pass.

use std::sync::Arc;

use glam::{Mat4, Quat};

use crate::constraint::JointConstraint;
use crate::error::{Error, ErrorKind, Result};
use crate::skeleton::{model_bound, Skeleton};
use crate::skin::{mat_mul, Skin};
use crate::transform::{copy_validated, finite, overflow, validated_transform, Transform};

/// Local (parent-relative) transforms for every joint of a shared [`Skeleton`], plus a
/// model-space buffer allocated once so that computing model transforms allocates nothing.
#[derive(Clone, Debug)]
pub struct Pose {
    pub(crate) skeleton: Arc<Skeleton>,
    pub(crate) local: Vec<Transform>,
    pub(crate) model: Vec<Transform>,
    /// Scratch for blends that work on model-space rotations (three per joint).
    pub(crate) rotations: Vec<Quat>,
}

impl Pose {
    /// A pose of `skeleton` at its rest pose.
    pub fn new(skeleton: Arc<Skeleton>) -> Self {
        let local = skeleton.rest_pose().to_vec();
        let model = vec![Transform::IDENTITY; local.len()];
        let rotations = vec![Quat::IDENTITY; 3 * local.len()];
        Self {
            skeleton,
            local,
            model,
            rotations,
        }
    }

    /// The skeleton this pose belongs to.
    pub fn skeleton(&self) -> &Arc<Skeleton> {
        &self.skeleton
    }

    /// Number of joints.
    pub fn joint_count(&self) -> usize {
        self.local.len()
    }

    /// Local transforms, one per joint.
    pub fn local(&self) -> &[Transform] {
        &self.local
    }

    /// Mutable access to the local transforms, for callers that keep them finite and unit.
    pub fn local_mut(&mut self) -> &mut [Transform] {
        &mut self.local
    }

    /// Returns every joint to the rest pose.
    pub fn reset(&mut self) {
        self.local.copy_from_slice(self.skeleton.rest_pose());
    }

    /// Replaces all local transforms after validating every one (nothing is written on error).
    pub fn set_local(&mut self, local: &[Transform]) -> Result<()> {
        self.set_local_iter(local.iter().copied())
    }

    /// [`Self::set_local`] from any re-iterable source (e.g. converted FFI values), without
    /// allocating: one pass validates, a second writes.
    pub fn set_local_iter<I>(&mut self, local: I) -> Result<()>
    where
        I: ExactSizeIterator<Item = Transform> + Clone,
    {
        self.check_len(local.len())?;
        copy_validated(&mut self.local, local, |i| {
            format!("local transform of joint {i}")
        })
    }

    /// Model-space transforms of every joint, recomputed in one forward pass: each joint's
    /// parent's model transform composed with its local one, root first
    /// (`model[j] = model[parent].mul_transform(&local[j])`), the one rule every model-space
    /// read, write and pose-level solve follows. Fails with [`ErrorKind::NumericOverflow`]
    /// when finite local transforms compose beyond f32's range.
    pub fn model(&mut self) -> Result<&[Transform]> {
        if !self
            .skeleton
            .local_to_model_finite(&self.local, &mut self.model)
        {
            return Err(overflow());
        }
        Ok(&self.model)
    }

    /// [`Self::model`] from a shared pose, into the caller's `out` (one per joint): the same
    /// values, bit for bit. `out` is untouched on error ([`ErrorKind::SizeMismatch`],
    /// [`ErrorKind::NumericOverflow`]): a cheap first pass bounds the results, and only when
    /// the bound cannot prove them finite (magnitudes near f32's range) does a full pass check
    /// them before the writing one.
    pub fn model_into(&self, out: &mut [Transform]) -> Result<()> {
        self.model_into_as(out)
    }

    /// [`Self::model_into`] for any layout that converts exactly to and from [`Transform`].
    pub(crate) fn model_into_as<T>(&self, out: &mut [T]) -> Result<()>
    where
        T: Copy + From<Transform>,
        Transform: From<T>,
    {
        self.check_len(out.len())?;
        // Nothing may be written unless every result is finite: a cheap bound proves it for
        // all but huge poses, for which the forward pass is run once without writing.
        let skeleton = &self.skeleton;
        if !(skeleton.model_surely_finite(&self.local) || skeleton.model_is_finite(&self.local)) {
            return Err(overflow());
        }
        let finite = skeleton.local_to_model_finite(&self.local, out);
        debug_assert!(finite, "the checks above proved every result finite");
        Ok(())
    }

    /// Model-space 4×4 matrices of every joint into `out` (one per joint): each joint's model
    /// transform, as [`Self::model_into`] gives it (the same bits), turned into a matrix by
    /// [`Transform::to_matrix`]. The matrix of the composed TRS, not the product of the local
    /// matrices: Sinew's model space never shears (see [`Transform`]), so the two differ once a
    /// non-uniform scale sits above a rotation, and this is the one that places each joint
    /// where every other model-space function does. `out` is untouched on error
    /// ([`ErrorKind::SizeMismatch`], or [`ErrorKind::NumericOverflow`] when a model transform
    /// or matrix leaves f32's range; a cheap bound proves them finite for all but poses with
    /// magnitudes near it, which take a checking pass first).
    pub fn model_matrices_into(&self, out: &mut [Mat4]) -> Result<()> {
        self.model_matrices_into_as(out)
    }

    /// [`Self::model_matrices_into`] for any layout a [`Mat4`] converts exactly to.
    pub(crate) fn model_matrices_into_as<T: From<Mat4>>(&self, out: &mut [T]) -> Result<()> {
        self.check_len(out.len())?;
        let (skeleton, local) = (&self.skeleton, &self.local[..]);
        // Under this bound every model entry is finite (see `model_bound`).
        if model_bound(local) > f32::MAX / 256.0 {
            let mut finite = true;
            skeleton.for_each_model(local, local.len(), |_, m| {
                finite &= m.is_finite() && m.to_matrix().is_finite();
            });
            if !finite {
                return Err(overflow());
            }
        }
        skeleton.for_each_model(local, local.len(), |i, m| out[i] = m.to_matrix().into());
        Ok(())
    }

    /// The skinning palette of `skin` into `out` (one per skin entry): entry `k` is the model
    /// matrix of the skin's joint `k` ([`Self::model_matrices_into`]'s, the same bits) times
    /// its inverse bind matrix, `model · inverse_bind`, which takes mesh space at bind time to
    /// model space now. `skin` must be made for a skeleton with this pose's joint count.
    /// `out` is untouched on error ([`ErrorKind::SizeMismatch`], or
    /// [`ErrorKind::NumericOverflow`] when an entry leaves f32's range; a cheap bound proves
    /// them finite for all but magnitudes near it, which take a checking pass first).
    pub fn skinning_palette_into(&self, skin: &Skin, out: &mut [Mat4]) -> Result<()> {
        self.skinning_palette_into_as(skin, out)
    }

    /// [`Self::skinning_palette_into`] for any layout a [`Mat4`] converts exactly to.
    pub(crate) fn skinning_palette_into_as<T: From<Mat4>>(
        &self,
        skin: &Skin,
        out: &mut [T],
    ) -> Result<()> {
        if skin.skeleton_joint_count() != self.joint_count() {
            let message = format!(
                "the skin is for a skeleton of {} joints, the pose has {}",
                skin.skeleton_joint_count(),
                self.joint_count()
            );
            return Err(Error::new(ErrorKind::SizeMismatch, message));
        }
        if out.len() != skin.joint_count() {
            let message = format!(
                "{} matrices given for a skin of {} joints",
                out.len(),
                skin.joint_count()
            );
            return Err(Error::new(ErrorKind::SizeMismatch, message));
        }
        let (skeleton, local) = (&self.skeleton, &self.local[..]);
        let binds = skin.inverse_binds();
        let entry = |i: usize, m: &Transform| {
            let k = skin.entry(i)?;
            Some((k, mat_mul(&m.to_matrix(), &binds[k])))
        };
        // Model entries are at most 49 times the bound, a palette entry the sum of four of
        // them times inverse bind entries: well inside f32's range under these limits.
        let bound = model_bound(local);
        if bound > f32::MAX / 256.0 || bound * skin.magnitude() > f32::MAX / 65536.0 {
            let mut finite = true;
            skeleton.for_each_model(local, skin.joints_used(), |i, m| {
                finite &= entry(i, m).is_none_or(|(_, p)| p.is_finite());
            });
            if !finite {
                return Err(overflow());
            }
        }
        skeleton.for_each_model(local, skin.joints_used(), |i, m| {
            if let Some((k, p)) = entry(i, m) {
                out[k] = p.into();
            }
        });
        Ok(())
    }

    /// Model-space transform of one joint, O(depth): the same value, bit for bit, as
    /// [`Self::model`] gives it.
    pub fn model_of(&self, joint: usize) -> Result<Transform> {
        self.skeleton.check_joint(joint)?;
        finite(self.skeleton.model_of(&self.local, joint))
    }

    /// Model-space transform of `joint`'s parent (identity for a root).
    pub fn parent_model_of(&self, joint: usize) -> Result<Transform> {
        self.skeleton.check_joint(joint)?;
        match self.skeleton.parent(joint) {
            Some(p) => finite(self.skeleton.model_of(&self.local, p)),
            None => Ok(Transform::IDENTITY),
        }
    }

    /// Moves one joint to a model-space transform; its descendants keep their local transforms
    /// and so follow it. The new local transform is `parent_model.inverse_mul(model)`, the
    /// inverse of the root-first rule, so [`Self::model_of`] then gives `model` back (to
    /// rounding, for non-zero parent scales). Unchanged on error.
    pub fn set_model_of(&mut self, joint: usize, model: &Transform) -> Result<()> {
        let model = validated_transform(model, || "model transform".into())?;
        let parent = self.parent_model_of(joint)?;
        self.local[joint] = finite(parent.inverse_mul(&model))?;
        Ok(())
    }

    /// Replaces the pose from model-space transforms of every joint (model to local).
    pub fn set_model(&mut self, model: &[Transform]) -> Result<()> {
        self.set_model_iter(model.iter().copied())
    }

    /// [`Self::set_model`] from any re-iterable source, without allocating: the inputs are
    /// validated, staged in the model buffer, then converted to local.
    pub fn set_model_iter<I>(&mut self, model: I) -> Result<()>
    where
        I: ExactSizeIterator<Item = Transform> + Clone,
    {
        self.check_len(model.len())?;
        copy_validated(&mut self.model, model, |i| {
            format!("model transform of joint {i}")
        })?;
        // Children first, so each parent's model transform is still there when a child reads it.
        for i in (0..self.local.len()).rev() {
            if let Some(p) = self.skeleton.parent(i) {
                self.model[i] = self.model[p].inverse_mul(&self.model[i]);
            }
        }
        if !self.model.iter().all(Transform::is_finite) {
            return Err(overflow());
        }
        self.local.copy_from_slice(&self.model);
        Ok(())
    }

    /// Projects joint `joint`'s local rotation onto `constraint`'s allowed set.
    pub fn apply_constraint(&mut self, joint: usize, constraint: &JointConstraint) -> Result<()> {
        self.skeleton.check_joint(joint)?;
        let local = &mut self.local[joint];
        local.rotation = constraint.project(local.rotation);
        Ok(())
    }

    pub(crate) fn check_len(&self, len: usize) -> Result<()> {
        if len == self.local.len() {
            Ok(())
        } else {
            Err(Error::new(
                ErrorKind::SizeMismatch,
                format!(
                    "{len} transforms given for a pose of {} joints",
                    self.local.len()
                ),
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{Quat, Vec3};

    fn arm() -> Arc<Skeleton> {
        let rest = [
            Transform::from_translation(Vec3::new(0.0, 1.0, 0.0)),
            Transform::from_rotation_translation(Quat::from_rotation_z(0.4), Vec3::X),
            Transform::from_rotation_translation(Quat::from_rotation_y(-0.3), Vec3::X),
        ];
        Arc::new(Skeleton::new(&[-1, 0, 1], &rest, None).unwrap())
    }

    #[test]
    fn model_round_trips_through_set_model() {
        let mut pose = Pose::new(arm());
        let model = pose.model().unwrap().to_vec();
        let mut other = Pose::new(arm());
        other.local_mut()[1].rotation = Quat::from_rotation_x(1.0);
        other.set_model(&model).unwrap();
        for (a, b) in other.local().iter().zip(pose.local()) {
            assert!(a.translation.abs_diff_eq(b.translation, 1e-6));
            assert!(a.rotation.abs_diff_eq(b.rotation, 1e-6));
        }
    }

    #[test]
    fn set_model_of_moves_descendants() {
        let mut pose = Pose::new(arm());
        let target = Transform::from_translation(Vec3::new(5.0, 5.0, 5.0));
        pose.set_model_of(1, &target).unwrap();
        assert!(pose
            .model_of(1)
            .unwrap()
            .translation
            .abs_diff_eq(target.translation, 1e-5));
        let tip = pose.model_of(2).unwrap().translation;
        assert!((tip - target.translation).length() - 1.0 < 1e-5);
    }

    #[test]
    fn model_into_is_model_and_writes_nothing_on_error() {
        let mut pose = Pose::new(arm());
        let mut out = vec![Transform::from_translation(Vec3::Y); 3];
        pose.model_into(&mut out).unwrap();
        assert_eq!(out, pose.model().unwrap());
        // Too large for the bound, still finite: the checking pass lets it through.
        pose.local_mut()[0].scale = Vec3::splat(1e37);
        pose.model_into(&mut out).unwrap();
        assert_eq!(out, pose.model().unwrap());
        assert!(out[2].translation.x > 1e37);
        let before = vec![Transform::from_translation(Vec3::Y); 3];
        let mut out = before.clone();
        for j in [0, 1] {
            pose.local_mut()[j].translation = Vec3::new(3e38, 0.0, 0.0);
        }
        let err = pose.model_into(&mut out).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::NumericOverflow);
        assert_eq!(out, before);
        let err = pose.model_into(&mut out[..2]).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::SizeMismatch);
        assert_eq!(out, before);
    }

    #[test]
    fn bad_input_leaves_pose_untouched() {
        let mut pose = Pose::new(arm());
        let before = pose.local().to_vec();
        let mut bad = before.clone();
        bad[2].translation.x = f32::NAN;
        assert_eq!(
            pose.set_local(&bad).unwrap_err().kind(),
            ErrorKind::NonFinite
        );
        assert_eq!(
            pose.set_local(&bad[..2]).unwrap_err().kind(),
            ErrorKind::SizeMismatch
        );
        assert_eq!(pose.local(), &before[..]);
    }
}
