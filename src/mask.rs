//! `JointMask`: a weight in [0, 1] per joint that scopes blends and additive layers (like
//! Unity's AvatarMask or ozz's joint weights), buildable from a subtree with a depth falloff
//! (like Unreal's branch filter).

use crate::error::{ensure_finite, Error, ErrorKind, Result};
use crate::skeleton::Skeleton;

/// Per-joint weights for one skeleton's joint count.
#[derive(Clone, Debug, PartialEq)]
pub struct JointMask {
    /// The weights four joints at a time (the lanes blend kernels load), 0 past the last joint.
    blocks: Vec<[f32; 4]>,
    joints: usize,
}

impl JointMask {
    /// A mask giving every joint of `skeleton` the weight `value` (in [0, 1]).
    pub fn uniform(skeleton: &Skeleton, value: f32) -> Result<Self> {
        check_weight(value)?;
        Ok(Self::from_weights(&vec![value; skeleton.joint_count()]))
    }

    /// Weight 1 on the subtree rooted at `root` and 0 elsewhere; with `blend_depth` d > 0 the
    /// weight ramps up over the subtree's first d levels: `(depth + 1) / (d + 1)`, so the blend
    /// eases in along the branch (Unreal's BlendDepth).
    pub fn subtree(skeleton: &Skeleton, root: usize, blend_depth: u32) -> Result<Self> {
        skeleton.check_joint(root)?;
        // One forward pass (parents come first): depth below `root`, or -1 outside the subtree.
        let mut weights = vec![-1.0f32; skeleton.joint_count()];
        weights[root] = 0.0;
        for i in root + 1..weights.len() {
            if let Some(p) = skeleton.parent(i) {
                if weights[p] >= 0.0 {
                    weights[i] = weights[p] + 1.0;
                }
            }
        }
        let ramp = blend_depth as f32 + 1.0;
        for w in &mut weights {
            *w = if *w < 0.0 {
                0.0
            } else {
                ((*w + 1.0) / ramp).min(1.0)
            };
        }
        Ok(Self::from_weights(&weights))
    }

    /// A mask holding `weights` (already checked).
    fn from_weights(weights: &[f32]) -> Self {
        let mut blocks = vec![[0.0; 4]; weights.len().div_ceil(4)];
        blocks.as_flattened_mut()[..weights.len()].copy_from_slice(weights);
        Self {
            blocks,
            joints: weights.len(),
        }
    }

    /// Number of joints the mask covers.
    pub fn joint_count(&self) -> usize {
        self.joints
    }

    /// The weights, one per joint.
    pub fn weights(&self) -> &[f32] {
        &self.blocks.as_flattened()[..self.joints]
    }

    /// The weights four joints at a time, 0 past the last joint.
    pub(crate) fn blocks(&self) -> &[[f32; 4]] {
        &self.blocks
    }

    /// The weights, one per joint, to write.
    fn weights_mut(&mut self) -> &mut [f32] {
        &mut self.blocks.as_flattened_mut()[..self.joints]
    }

    /// Weight of one joint.
    pub fn weight(&self, joint: usize) -> f32 {
        self.weights()[joint]
    }

    /// Sets one joint's weight (in [0, 1]).
    pub fn set_weight(&mut self, joint: usize, value: f32) -> Result<()> {
        check_weight(value)?;
        let count = self.joints;
        let slot = self.weights_mut().get_mut(joint).ok_or_else(|| {
            Error::new(
                ErrorKind::OutOfRange,
                format!("joint {joint} is out of range ({count} joints)"),
            )
        })?;
        *slot = value;
        Ok(())
    }

    /// Replaces every weight after validating them all (unchanged on error).
    pub fn set_weights(&mut self, weights: &[f32]) -> Result<()> {
        check_count(weights.len(), self.joints, "weights")?;
        weights.iter().try_for_each(|&w| check_weight(w))?;
        self.weights_mut().copy_from_slice(weights);
        Ok(())
    }
}

/// Fails unless `value` is a finite weight in [0, 1].
fn check_weight(value: f32) -> Result<()> {
    ensure_finite(value.is_finite(), "mask weight")?;
    if (0.0..=1.0).contains(&value) {
        Ok(())
    } else {
        Err(Error::new(
            ErrorKind::InvalidArgument,
            format!("mask weight {value} is outside [0, 1]"),
        ))
    }
}

/// Fails with [`ErrorKind::SizeMismatch`] unless `len` equals `expected`.
pub(crate) fn check_count(len: usize, expected: usize, what: &str) -> Result<()> {
    if len == expected {
        Ok(())
    } else {
        Err(Error::new(
            ErrorKind::SizeMismatch,
            format!("{what} has {len} entries for {expected} joints"),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transform::Transform;

    #[test]
    fn subtree_ramps_over_blend_depth_and_excludes_the_rest() {
        // 0 -> 1 -> 2 -> 3, and 0 -> 4
        let rest = vec![Transform::IDENTITY; 5];
        let s = Skeleton::new(&[-1, 0, 1, 2, 0], &rest, None).unwrap();
        let m = JointMask::subtree(&s, 1, 2).unwrap();
        assert_eq!(m.weights(), &[0.0, 1.0 / 3.0, 2.0 / 3.0, 1.0, 0.0]);
        let hard = JointMask::subtree(&s, 1, 0).unwrap();
        assert_eq!(hard.weights(), &[0.0, 1.0, 1.0, 1.0, 0.0]);
    }
}
