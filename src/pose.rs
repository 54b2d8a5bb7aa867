//! `Pose`: a skeleton's local transforms, stored four joints per block (structure of arrays)
//! so blends, additive layers and sampling run four joints per instruction, with model-space
//! views computed in one pass.

use std::sync::Arc;

use glam::{Mat4, Quat};

use crate::constraint::JointConstraint;
use crate::error::{Error, ErrorKind, Result};
use crate::matrices::for_each_model_matrix;
use crate::packed::{load_matrix, mul_matrix, rows_of, store_matrix, Floats};
use crate::simd::F4;
use crate::skeleton::Skeleton;
use crate::skin::Skin;
use crate::soa::{normalize4, Finish, JointTransforms, SoaTransform};
use crate::transform::{finite, overflow, validated_transform, write_validated, Transform};

/// Local (parent-relative) transforms for every joint of a shared [`Skeleton`], plus buffers
/// allocated once so that blending and computing model transforms allocate nothing.
///
/// The transforms are stored in blocks of four joints, component by component; read them with
/// [`Self::local`] (one joint, all of them, or a copy into a slice) and write them with
/// [`Self::set_local`], [`Self::edit_local`] or the blends.
#[derive(Clone, Debug)]
pub struct Pose {
    skeleton: Arc<Skeleton>,
    /// Local transforms, four joints per block; lanes past the last joint hold identities.
    local: Vec<SoaTransform>,
    /// Blocks results are staged in, swapped in once they are all valid.
    staged: Vec<SoaTransform>,
    /// Model-space transforms, one per joint.
    model: Vec<Transform>,
    /// Scratch for blends that work on model-space rotations (three per joint).
    pub(crate) rotations: Vec<Quat>,
    /// Scratch for masked layer blends, two rows of blocks: each lane's reciprocal total weight,
    /// then the rest pose's normalized weight (see [`crate::Pose::blend_layers`]).
    norms: Vec<[f32; 4]>,
}

/// A pose's buffers borrowed apart: the staging blocks (scratch until
/// [`Pose::commit_staged`]), the current blocks and the skeleton.
pub(crate) struct Staging<'a> {
    pub staged: &'a mut [SoaTransform],
    pub local: &'a [SoaTransform],
    pub skeleton: &'a Skeleton,
    pub norms: &'a mut [[f32; 4]],
}

/// A read-only view of a pose's local transforms, joint by joint (see [`Pose::local`]).
#[derive(Clone, Copy)]
pub struct Locals<'a> {
    blocks: &'a [SoaTransform],
    len: usize,
}

impl<'a> Locals<'a> {
    /// Number of joints.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the view is empty (never, for a pose).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Joint `joint`'s local transform. Panics when `joint` is out of range, as indexing does.
    pub fn get(&self, joint: usize) -> Transform {
        assert!(
            joint < self.len,
            "joint {joint} out of range for a pose of {} joints",
            self.len
        );
        self.blocks.joint(joint)
    }

    /// Every joint's local transform, in order.
    pub fn iter(&self) -> LocalsIter<'a> {
        LocalsIter {
            blocks: self.blocks,
            next: 0,
            len: self.len,
        }
    }

    /// A copy of every local transform.
    pub fn to_vec(&self) -> Vec<Transform> {
        self.iter().collect()
    }
}

impl<'a> IntoIterator for Locals<'a> {
    type Item = Transform;
    type IntoIter = LocalsIter<'a>;
    fn into_iter(self) -> LocalsIter<'a> {
        self.iter()
    }
}

/// The local transforms of a pose in joint order, by value (see [`Locals::iter`]).
#[derive(Clone)]
pub struct LocalsIter<'a> {
    blocks: &'a [SoaTransform],
    next: usize,
    len: usize,
}

impl Iterator for LocalsIter<'_> {
    type Item = Transform;
    fn next(&mut self) -> Option<Transform> {
        let j = self.next;
        (j < self.len).then(|| {
            self.next += 1;
            self.blocks.joint(j)
        })
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.len - self.next;
        (left, Some(left))
    }
}

impl ExactSizeIterator for LocalsIter<'_> {}

impl std::fmt::Debug for Locals<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl PartialEq for Locals<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.len == other.len && self.iter().eq(other.iter())
    }
}

impl PartialEq<[Transform]> for Locals<'_> {
    fn eq(&self, other: &[Transform]) -> bool {
        self.len == other.len() && self.iter().eq(other.iter().copied())
    }
}

impl PartialEq<&[Transform]> for Locals<'_> {
    fn eq(&self, other: &&[Transform]) -> bool {
        *self == **other
    }
}

impl PartialEq<Vec<Transform>> for Locals<'_> {
    fn eq(&self, other: &Vec<Transform>) -> bool {
        *self == other[..]
    }
}

impl PartialEq<Locals<'_>> for [Transform] {
    fn eq(&self, other: &Locals<'_>) -> bool {
        *other == *self
    }
}

impl PartialEq<Locals<'_>> for Vec<Transform> {
    fn eq(&self, other: &Locals<'_>) -> bool {
        *other == self[..]
    }
}

impl Pose {
    /// A pose of `skeleton` at its rest pose.
    pub fn new(skeleton: Arc<Skeleton>) -> Self {
        let n = skeleton.joint_count();
        let local = skeleton.rest_blocks().to_vec();
        let local_blocks = local.len();
        Self {
            skeleton,
            staged: local.clone(),
            local,
            model: vec![Transform::IDENTITY; n],
            rotations: vec![Quat::IDENTITY; 3 * n],
            norms: vec![[0.0; 4]; 2 * local_blocks],
        }
    }

    /// The skeleton this pose belongs to.
    pub fn skeleton(&self) -> &Arc<Skeleton> {
        &self.skeleton
    }

    /// Number of joints.
    pub fn joint_count(&self) -> usize {
        self.model.len()
    }

    /// The local transforms, joint by joint: `pose.local().get(j)`, `pose.local().iter()`.
    pub fn local(&self) -> Locals<'_> {
        Locals {
            blocks: &self.local,
            len: self.joint_count(),
        }
    }

    /// The local transforms in blocks of four joints, for the four-joint kernels.
    pub(crate) fn blocks(&self) -> &[SoaTransform] {
        &self.local
    }

    /// Split borrows for kernels that compute a new pose into the staging blocks.
    pub(crate) fn staging(&mut self) -> Staging<'_> {
        Staging {
            staged: &mut self.staged,
            local: &self.local,
            skeleton: &self.skeleton,
            norms: &mut self.norms,
        }
    }

    /// Whether every component of every joint is finite, four joints at a time.
    pub(crate) fn all_finite(&self) -> bool {
        let mut probe = F4::splat(0.0);
        for block in &self.local {
            probe = probe + block.rows().probe();
        }
        probe.eq(F4::splat(0.0)).all()
    }

    /// The local blocks, for kernels that keep every lane finite with a unit rotation (lanes
    /// past the last joint included: identities).
    pub(crate) fn blocks_mut(&mut self) -> &mut [SoaTransform] {
        &mut self.local
    }

    /// [`Self::commit_staged`] for staged blocks a kernel stored through `finish`.
    pub(crate) fn commit_finished(&mut self, finish: &Finish) -> Result<()> {
        self.commit_staged(finish.finite(&self.staged))
    }

    /// Makes the staged blocks the local ones if the results are `finite`, by swapping the
    /// buffers; fails with [`ErrorKind::NumericOverflow`] otherwise (nothing changes).
    pub(crate) fn commit_staged(&mut self, finite: bool) -> Result<()> {
        if !finite {
            return Err(Error::new(
                ErrorKind::NumericOverflow,
                "the blended pose is not representable in f32 (inputs too large)",
            ));
        }
        std::mem::swap(&mut self.local, &mut self.staged);
        Ok(())
    }

    /// Sets joint `joint`'s local transform without checks, for solvers and kernels that
    /// produce finite transforms with unit rotations.
    #[inline]
    pub(crate) fn put_local(&mut self, joint: usize, t: &Transform) {
        self.local[joint / 4].set(joint % 4, t);
    }

    /// Edits joint `joint`'s local transform through `edit`; the result is checked as
    /// [`Self::set_local`] checks (its rotation renormalized). Unchanged on error.
    pub fn edit_local(&mut self, joint: usize, edit: impl FnOnce(&mut Transform)) -> Result<()> {
        self.skeleton.check_joint(joint)?;
        let mut t = self.local.joint(joint);
        edit(&mut t);
        let t = validated_transform(&t, || format!("local transform of joint {joint}"))?;
        self.put_local(joint, &t);
        Ok(())
    }

    /// Returns every joint to the rest pose.
    pub fn reset(&mut self) {
        self.local.copy_from_slice(self.skeleton.rest_blocks());
    }

    /// Copies every local transform into `out` (one per joint).
    pub fn local_into(&self, out: &mut [Transform]) -> Result<()> {
        self.local_into_as(out)
    }

    /// [`Self::local_into`] for any layout a [`Transform`] converts exactly to.
    pub(crate) fn local_into_as<T: From<Transform>>(&self, out: &mut [T]) -> Result<()> {
        self.check_len(out.len())?;
        for (chunk, block) in out.chunks_mut(4).zip(&self.local) {
            for (k, o) in chunk.iter_mut().enumerate() {
                *o = block.get(k).into();
            }
        }
        Ok(())
    }

    /// Replaces all local transforms after validating every one (finite, rotations of usable
    /// length, renormalized when not unit to within 1e-6). Nothing is written on error.
    pub fn set_local(&mut self, local: &[Transform]) -> Result<()> {
        self.set_local_as(local)
    }

    /// [`Self::set_local`] from any layout of ten floats per transform that converts exactly
    /// to a [`Transform`].
    pub(crate) fn set_local_as<T: Floats<10>>(&mut self, local: &[T]) -> Result<()>
    where
        Transform: From<T>,
    {
        self.check_len(local.len())?;
        let records = T::floats(local);
        for (c, (chunk, staged)) in records.chunks(4).zip(&mut self.staged).enumerate() {
            // Finite lanes whose rotations are in normalization's common case, nearly every
            // input, are checked and renormalized four at a time, transposed from the records.
            let mut rows = match chunk.try_into() {
                Ok(four) => rows_of(four),
                Err(_) => {
                    *staged = SoaTransform::IDENTITY;
                    for (k, t) in local[4 * c..].iter().enumerate() {
                        staged.set(k, &Transform::from(*t));
                    }
                    staged.rows()
                }
            };
            let finite = rows.probe_ts().eq(F4::splat(0.0)).all();
            if finite && normalize4(&mut rows.r).all() {
                staged.store(&rows);
                continue;
            }
            *staged = SoaTransform::IDENTITY;
            for (k, t) in local[4 * c..].iter().take(4).enumerate() {
                let what = || format!("local transform of joint {}", 4 * c + k);
                staged.set(k, &validated_transform(&Transform::from(*t), what)?);
            }
        }
        std::mem::swap(&mut self.local, &mut self.staged);
        Ok(())
    }

    /// [`Self::set_local`] from any re-iterable source, without allocating: one pass
    /// validates, a second writes.
    pub fn set_local_iter<I>(&mut self, local: I) -> Result<()>
    where
        I: ExactSizeIterator<Item = Transform> + Clone,
    {
        self.check_len(local.len())?;
        let what = |i| format!("local transform of joint {i}");
        write_validated(local, what, |j, t| self.put_local(j, &t))
    }

    /// Model-space transforms of every joint, recomputed in one forward pass: each joint's
    /// parent's model transform composed with its local one, root first
    /// (`model[j] = model[parent].mul_transform(&local[j])`), the one rule every model-space
    /// read, write and pose-level solve follows. Fails with [`ErrorKind::NumericOverflow`]
    /// when finite local transforms compose beyond f32's range.
    pub fn model(&mut self) -> Result<&[Transform]> {
        if !self
            .skeleton
            .local_to_model_finite(&self.local[..], &mut self.model)
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
    pub(crate) fn model_into_as<T: Floats<10>>(&self, out: &mut [T]) -> Result<()> {
        self.check_len(out.len())?;
        // Nothing may be written unless every result is finite: a cheap bound proves it for
        // all but huge poses, for which the forward pass is run once without writing.
        let skeleton = &self.skeleton;
        let local = &self.local[..];
        if !(skeleton.model_surely_finite(local) || skeleton.model_is_finite(local)) {
            return Err(overflow());
        }
        let out = T::floats_mut(out);
        skeleton.for_each_model_block(local, out.len(), |c, models, len| {
            let out = &mut out[4 * c..4 * c + len];
            for (o, m) in out.iter_mut().zip(models) {
                m.store(o);
            }
        });
        Ok(())
    }

    /// Model-space 4×4 matrices of every joint into `out` (one per joint): each joint's model
    /// transform as a matrix, composed as matrices down the hierarchy (rotation matrices
    /// multiplied, scales kept apart, translations placed by the parent's rotation; the exact
    /// rule is in the README and `sinew_pose_compute_model_matrices`'s documentation), so equal
    /// to [`Transform::to_matrix`] of [`Self::model_into`]'s transform to rounding, and faster
    /// to compute. The matrix of the composed TRS, not the product of the local matrices:
    /// Sinew's model space never shears (see [`Transform`]), so the two differ once a
    /// non-uniform scale sits above a rotation, and this is the one that places each joint
    /// where every other model-space function does. `out` is untouched on error
    /// ([`ErrorKind::SizeMismatch`], or [`ErrorKind::NumericOverflow`] when a matrix leaves
    /// f32's range; a cheap bound proves them finite for all but poses with magnitudes near
    /// it, which take a checking pass first).
    pub fn model_matrices_into(&self, out: &mut [Mat4]) -> Result<()> {
        self.model_matrices_into_as(out)
    }

    /// [`Self::model_matrices_into`] for any layout a [`Mat4`] converts exactly to.
    pub(crate) fn model_matrices_into_as<T: Floats<16>>(&self, out: &mut [T]) -> Result<()> {
        self.check_len(out.len())?;
        let (skeleton, local) = (&self.skeleton, &self.local[..]);
        // Under this bound every matrix entry is finite (see `model_bound`).
        let n = self.joint_count();
        if local.model_bound(n) > f32::MAX / 256.0 {
            let mut probe = F4::splat(0.0);
            for_each_model_matrix(skeleton, local, n, |_, &[c0, c1, c2, c3]| {
                probe = probe + ((c0 + c1) + (c2 + c3)) * F4::splat(0.0);
            });
            if !probe.eq(F4::splat(0.0)).all() {
                return Err(overflow());
            }
        }
        let out = T::floats_mut(out);
        for_each_model_matrix(skeleton, local, n, |i, m| store_matrix(m, &mut out[i]));
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
    pub(crate) fn skinning_palette_into_as<T: Floats<16>>(
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
        let binds = Mat4::floats(skin.inverse_binds());
        let entry = |i: usize, m: &[F4; 4]| {
            let k = skin.entry(i)?;
            Some((k, mul_matrix(m, &load_matrix(&binds[k]))))
        };
        // Model entries are at most 49 times the bound, a palette entry the sum of four of
        // them times inverse bind entries: well inside f32's range under these limits.
        let bound = local.model_bound(self.joint_count());
        if bound > f32::MAX / 256.0 || bound * skin.magnitude() > f32::MAX / 65536.0 {
            let mut probe = F4::splat(0.0);
            for_each_model_matrix(skeleton, local, skin.joints_used(), |i, m| {
                if let Some((_, [c0, c1, c2, c3])) = entry(i, m) {
                    probe = probe + (c0 + c1 + c2 + c3) * F4::splat(0.0);
                }
            });
            if !probe.eq(F4::splat(0.0)).all() {
                return Err(overflow());
            }
        }
        let out = T::floats_mut(out);
        for_each_model_matrix(skeleton, local, skin.joints_used(), |i, m| {
            if let Some((k, p)) = entry(i, m) {
                store_matrix(&p, &mut out[k]);
            }
        });
        Ok(())
    }

    /// Model-space transform of one joint, O(depth): the same value, bit for bit, as
    /// [`Self::model`] gives it.
    pub fn model_of(&self, joint: usize) -> Result<Transform> {
        self.skeleton.check_joint(joint)?;
        finite(self.skeleton.model_in(&self.local[..], joint))
    }

    /// Model-space transform of `joint`'s parent (identity for a root).
    pub fn parent_model_of(&self, joint: usize) -> Result<Transform> {
        self.skeleton.check_joint(joint)?;
        match self.skeleton.parent(joint) {
            Some(p) => finite(self.skeleton.model_in(&self.local[..], p)),
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
        self.put_local(joint, &finite(parent.inverse_mul(&model))?);
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
        let what = |i| format!("model transform of joint {i}");
        write_validated(model, what, |i, t| self.model[i] = t)?;
        // Children first, so each parent's model transform is still there when a child reads it.
        for i in (0..self.model.len()).rev() {
            if let Some(p) = self.skeleton.parent(i) {
                self.model[i] = self.model[p].inverse_mul(&self.model[i]);
            }
        }
        if !self.model.iter().all(Transform::is_finite) {
            return Err(overflow());
        }
        for (j, t) in self.model.iter().enumerate() {
            self.local[j / 4].set(j % 4, t);
        }
        Ok(())
    }

    /// Projects joint `joint`'s local rotation onto `constraint`'s allowed set.
    pub fn apply_constraint(&mut self, joint: usize, constraint: &JointConstraint) -> Result<()> {
        self.skeleton.check_joint(joint)?;
        let mut local = self.local.joint(joint);
        local.rotation = constraint.project(local.rotation);
        self.put_local(joint, &local);
        Ok(())
    }

    pub(crate) fn check_len(&self, len: usize) -> Result<()> {
        if len == self.joint_count() {
            Ok(())
        } else {
            Err(Error::new(
                ErrorKind::SizeMismatch,
                format!(
                    "{len} transforms given for a pose of {} joints",
                    self.joint_count()
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
        other
            .edit_local(1, |t| t.rotation = Quat::from_rotation_x(1.0))
            .unwrap();
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
        pose.edit_local(0, |t| t.scale = Vec3::splat(1e37)).unwrap();
        pose.model_into(&mut out).unwrap();
        assert_eq!(out, pose.model().unwrap());
        assert!(out[2].translation.x > 1e37);
        let before = vec![Transform::from_translation(Vec3::Y); 3];
        let mut out = before.clone();
        for j in [0, 1] {
            pose.edit_local(j, |t| t.translation = Vec3::new(3e38, 0.0, 0.0))
                .unwrap();
        }
        let err = pose.model_into(&mut out).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::NumericOverflow);
        assert_eq!(out, before);
        let err = pose.model_into(&mut out[..2]).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::SizeMismatch);
        assert_eq!(out, before);
    }

    /// A component: ordinary, zero, tiny, huge, or (rarely) not finite.
    fn component() -> impl proptest::strategy::Strategy<Value = f32> {
        use proptest::prelude::*;
        prop_oneof![
            8 => -2.0f32..2.0,
            1 => Just(0.0f32),
            1 => Just(-0.0f32),
            1 => -1e-20f32..1e-20,
            1 => -1e30f32..1e30,
            1 => prop::sample::select(vec![f32::NAN, f32::INFINITY, f32::NEG_INFINITY]),
        ]
    }

    proptest::proptest! {
        // The four-joint path of set_local against the joint-by-joint rule
        // (`validated_transform`): the same bits stored, the same error for the first bad
        // joint, the pose untouched on error.
        #[test]
        #[cfg_attr(miri, ignore)]
        fn set_local_is_the_joint_by_joint_rule(
            c in proptest::collection::vec(proptest::array::uniform10(component()), 1..14),
            unit in proptest::collection::vec(proptest::bool::ANY, 14),
        ) {
            let local: Vec<Transform> = c.iter().zip(&unit).map(|(c, &unit)| {
                let r = Quat::from_xyzw(c[3], c[4], c[5], c[6]);
                // Half the rotations unit already (normalization passes them through).
                let r = if unit && r.is_finite() && r.length() > 1e-3 { r.normalize() } else { r };
                Transform::new(Vec3::new(c[0], c[1], c[2]), r, Vec3::new(c[7], c[8], c[9]))
            }).collect();
            let n = local.len();
            let parents: Vec<i32> = (-1..n as i32 - 1).collect();
            let skeleton = Arc::new(Skeleton::new(&parents, &vec![Transform::IDENTITY; n], None).unwrap());
            let mut pose = Pose::new(skeleton);
            let want: std::result::Result<Vec<Transform>, Error> = local
                .iter()
                .enumerate()
                .map(|(j, t)| validated_transform(t, || format!("local transform of joint {j}")))
                .collect();
            let bits = |ts: &[Transform]| -> Vec<[u32; 10]> {
                ts.iter().map(|t| Transform::floats(std::slice::from_ref(t))[0].map(f32::to_bits)).collect()
            };
            match (pose.set_local(&local), want) {
                (Ok(()), Ok(want)) => proptest::prop_assert_eq!(bits(&pose.local().to_vec()), bits(&want)),
                (Err(got), Err(want)) => {
                    proptest::prop_assert_eq!(got.kind(), want.kind());
                    proptest::prop_assert_eq!(got.to_string(), want.to_string());
                    proptest::prop_assert_eq!(pose.local().to_vec(), vec![Transform::IDENTITY; n]);
                }
                (got, want) => proptest::prop_assert!(false, "{:?} vs {:?}", got, want.map(|_| ())),
            }
        }
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
