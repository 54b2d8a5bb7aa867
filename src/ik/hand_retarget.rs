//! Unreal's HandIKRetargeting node: moves IK bones by the offset between the FK and IK hands,
//! so that IK hand bones authored on one skeleton follow the FK hands of another.

use glam::Vec3;

use super::TransformAccess;
use crate::error::{ensure_finite, Error, ErrorKind, Result};
use crate::pose::Pose;
use crate::skeleton::Skeleton;
use crate::transform::finite;

/// HandIKRetargeting settings (Unreal's defaults).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HandIkRetargetingSettings {
    /// Which hand drives the offset: 0 the left, 1 the right, between a mix. Default 0.5.
    pub hand_fk_weight: f32,
    /// Per-axis scale of the offset, each in [0, 1]. Default (1, 1, 1).
    pub per_axis_alpha: Vec3,
}

impl Default for HandIkRetargetingSettings {
    fn default() -> Self {
        Self {
            hand_fk_weight: 0.5,
            per_axis_alpha: Vec3::ONE,
        }
    }
}

impl HandIkRetargetingSettings {
    /// Checks every field is finite and in [0, 1].
    pub fn validate(&self) -> Result<()> {
        ensure_finite(
            self.hand_fk_weight.is_finite() && self.per_axis_alpha.is_finite(),
            "hand IK retargeting setting",
        )?;
        let unit = |v: f32| (0.0..=1.0).contains(&v);
        let a = self.per_axis_alpha;
        if !(unit(self.hand_fk_weight) && unit(a.x) && unit(a.y) && unit(a.z)) {
            return Err(Error::new(
                ErrorKind::InvalidArgument,
                format!(
                    "hand_fk_weight {} and per_axis_alpha {a} must lie in [0, 1]",
                    self.hand_fk_weight
                ),
            ));
        }
        Ok(())
    }
}

/// Indices of the four hand joints the offset is measured between.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HandPair {
    /// Right hand, FK (the animated hand).
    pub right_fk: u32,
    /// Left hand, FK.
    pub left_fk: u32,
    /// Right hand, IK (the IK target bone).
    pub right_ik: u32,
    /// Left hand, IK.
    pub left_ik: u32,
}

impl HandPair {
    fn indices(&self) -> [u32; 4] {
        [self.right_fk, self.left_fk, self.right_ik, self.left_ik]
    }
}

/// Moves bones by `(FK − IK) * per_axis_alpha`, FK and IK being the hand positions mixed by
/// `hand_fk_weight`; rotations are untouched.
#[derive(Clone, Debug)]
pub struct HandIkRetargeting {
    settings: HandIkRetargetingSettings,
}

impl HandIkRetargeting {
    /// A retargeter with validated settings.
    pub fn new(settings: HandIkRetargetingSettings) -> Result<Self> {
        settings.validate()?;
        Ok(Self { settings })
    }

    /// Current settings.
    pub fn settings(&self) -> &HandIkRetargetingSettings {
        &self.settings
    }

    /// Replaces the settings (unchanged on error).
    pub fn set_settings(&mut self, settings: HandIkRetargetingSettings) -> Result<()> {
        settings.validate()?;
        self.settings = settings;
        Ok(())
    }

    /// The model-space offset from the four hand positions.
    pub fn offset(&self, right_fk: Vec3, left_fk: Vec3, right_ik: Vec3, left_ik: Vec3) -> Vec3 {
        let w = self.settings.hand_fk_weight;
        let fk = left_fk.lerp(right_fk, w);
        let ik = left_ik.lerp(right_ik, w);
        (fk - ik) * self.settings.per_axis_alpha
    }

    /// The offset from the hands' model positions, `at(joint)`; fails when it overflows.
    fn offset_at(&self, hands: &HandPair, at: impl Fn(u32) -> Vec3) -> Result<Vec3> {
        let (right, left) = (at(hands.right_fk), at(hands.left_fk));
        let offset = self.offset(right, left, at(hands.right_ik), at(hands.left_ik));
        ensure_result_finite(offset)?;
        Ok(offset)
    }

    /// Adds the offset to each listed bone of a model-space array (duplicates move once).
    /// Returns the offset. On error nothing is written.
    pub fn apply_model<T: TransformAccess>(
        &self,
        model: &mut [T],
        hands: &HandPair,
        bones: &[u32],
    ) -> Result<Vec3> {
        let n = model.len();
        check_indices(hands.indices().iter().chain(bones), n)?;
        if let Some(i) = model.iter().position(|t| !t.transform().is_finite()) {
            return Err(Error::new(
                ErrorKind::NonFinite,
                format!("model transform {i} is not finite (NaN or infinity)"),
            ));
        }
        let at = |j: u32| model[j as usize].transform().translation;
        let offset = self.offset_at(hands, at)?;
        for &b in bones {
            ensure_result_finite(at(b) + offset)?;
        }
        for (k, &b) in bones.iter().enumerate() {
            if !bones[..k].contains(&b) {
                let t = model[b as usize].transform();
                model[b as usize].set_translation_rotation(t.translation + offset, t.rotation);
            }
        }
        Ok(offset)
    }

    /// Moves each listed bone of `pose` by the offset in model space. A bone whose ancestor is
    /// also listed already moves with it and is not moved again. Returns the offset.
    pub fn apply_pose(&self, pose: &mut Pose, hands: &HandPair, bones: &[u32]) -> Result<Vec3> {
        let skeleton = pose.skeleton().clone();
        check_indices(hands.indices().iter().chain(bones), skeleton.joint_count())?;
        let offset = self.offset_at(hands, |j| {
            skeleton.model_in(pose.blocks(), j as usize).translation
        })?;
        // Two passes: compute and check every new local transform, then write them all, so an
        // error leaves the pose untouched.
        for pass in [Pass::Check, Pass::Write] {
            for (k, &b) in bones.iter().enumerate() {
                if is_covered(&skeleton, bones, k) {
                    continue;
                }
                let b = b as usize;
                let parent = pose.parent_model_of(b)?;
                let mut model = parent.mul_transform(&pose.local().get(b));
                model.translation += offset;
                let local = finite(parent.inverse_mul(&model))?;
                if pass == Pass::Write {
                    let mut t = pose.local().get(b);
                    t.translation = local.translation;
                    pose.put_local(b, &t);
                }
            }
        }
        Ok(offset)
    }
}

/// The two passes of [`HandIkRetargeting::apply_pose`].
#[derive(Clone, Copy, PartialEq, Eq)]
enum Pass {
    Check,
    Write,
}

/// Whether `bones[k]` is a repeat or has an ancestor in `bones`, and so already moves.
fn is_covered(skeleton: &Skeleton, bones: &[u32], k: usize) -> bool {
    let b = bones[k];
    if bones[..k].contains(&b) {
        return true;
    }
    let mut ancestor = skeleton.parent(b as usize);
    while let Some(a) = ancestor {
        if bones.contains(&(a as u32)) {
            return true;
        }
        ancestor = skeleton.parent(a);
    }
    false
}

fn check_indices<'a>(indices: impl Iterator<Item = &'a u32>, count: usize) -> Result<()> {
    for &j in indices {
        if j as usize >= count {
            return Err(Error::new(
                ErrorKind::OutOfRange,
                format!("joint index {j} is out of range ({count} joints)"),
            ));
        }
    }
    Ok(())
}

fn ensure_result_finite(offset: Vec3) -> Result<()> {
    if offset.is_finite() {
        Ok(())
    } else {
        Err(Error::new(
            ErrorKind::NumericOverflow,
            "hand offset is not representable in f32 (inputs too large)",
        ))
    }
}
