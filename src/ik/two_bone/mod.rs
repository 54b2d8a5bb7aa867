//! Analytic two-bone IK, with the semantics of Unreal's TwoBoneIK node (alpha, stretch with
//! start ratio and max scale, effector rotation modes, joint target) plus soften, twist
//! preservation and a pole weight (Unity's hint weight).
//!
//! A solve reads and checks its chain (`input`) and places the joint and end (`single`): the
//! branch-free `kernel` on one lane, or the `general` path where the kernel cannot place the
//! chain to full precision, both with the bone lengths of `stretch` (`placement` carries
//! chains into the kernel's lanes and back). `finish` then applies twist, end rotation and
//! weight. Batches (`batch`) run the kernel on four chains at a time with the same arithmetic,
//! so they equal single solves bit for bit.

mod batch;
mod finish;
mod general;
mod input;
mod kernel;
mod lanes;
mod packed;
mod placement;
mod settings;
mod single;
mod stretch;
mod wide;

pub(crate) use batch::TwoBoneBatch;
pub(crate) use finish::Solved;
pub use finish::REACH_TOLERANCE;
pub(crate) use lanes::{Q, V3};
pub use settings::{EndRotation, TwoBoneIkSettings, TwoBoneTarget};
pub(crate) use wide::{Chains4, Solved4};

use crate::error::Result;
use crate::ik::access::TransformAccess;
use crate::ik::IkResult;
use crate::pose::Pose;
use crate::transform::{finite, Transform};
use input::{is_clean, read_chain, validated_chain};

/// A two-bone IK solver: validated settings, reusable across chains and threads (it keeps no
/// per-solve state, so `&self` solves are safe to share).
#[derive(Clone, Debug)]
pub struct TwoBoneIk {
    settings: TwoBoneIkSettings,
}

impl TwoBoneIk {
    /// A solver with validated settings.
    pub fn new(settings: TwoBoneIkSettings) -> Result<Self> {
        settings.validate()?;
        Ok(Self { settings })
    }

    /// Current settings.
    pub fn settings(&self) -> &TwoBoneIkSettings {
        &self.settings
    }

    /// Replaces the settings after validating them (unchanged on error).
    pub fn set_settings(&mut self, settings: TwoBoneIkSettings) -> Result<()> {
        settings.validate()?;
        self.settings = settings;
        Ok(())
    }

    /// Solves a chain of three model-space transforms (root, joint, end) in place, in any
    /// layout that implements [`TransformAccess`]. On error the chain is left untouched.
    #[inline(always)]
    pub fn solve<T: TransformAccess>(
        &self,
        chain: &mut [T; 3],
        target: &TwoBoneTarget,
    ) -> Result<IkResult> {
        // The common case whole in registers, inlined into the caller; the rest out of line.
        if single::packed_applies(&self.settings, target.pole.is_some()) {
            if let Some(result) = single::solve_packed(&self.settings, chain, target) {
                return Ok(result);
            }
        }
        self.solve_checked(chain, target)
    }

    /// [`solve`](Self::solve) for every input: checked (and normalized) where it is not clean,
    /// placed by the kernel or the general path, finished.
    fn solve_checked<T: TransformAccess>(
        &self,
        chain: &mut [T; 3],
        target: &TwoBoneTarget,
    ) -> Result<IkResult> {
        let mut input = read_chain(chain);
        let mut target = *target;
        if !is_clean(&input, &target) {
            input = validated_chain(&input)?;
            target = target.validated()?;
        }
        let (solved, result) = single::solve(&self.settings, &input, &target)?;
        if let Some(solved) = solved {
            solved.write(chain);
        }
        Ok(result)
    }

    /// Solves many independent chains in one call, four at a time in four-wide lanes; each chain's
    /// result equals a single [`solve`](Self::solve) bit for bit.
    ///
    /// `chains`, `targets` and `results` must have the same length. Every input is checked
    /// before anything is written, so bad input leaves all chains untouched. A chain whose
    /// result overflows f32 is left untouched with its result entry, the others are solved,
    /// and the first such chain is reported as `NumericOverflow`.
    pub fn solve_batch(
        &self,
        chains: &mut [[Transform; 3]],
        targets: &[TwoBoneTarget],
        results: &mut [IkResult],
    ) -> Result<()> {
        batch::solve_slices(&self.settings, chains, targets, results)
    }

    /// [`solve_batch`](Self::solve_batch) over chains the caller stores in its own layout (the
    /// C ABI's packed transforms), with the same checks and guarantees.
    pub(crate) fn solve_batch_with<B: TwoBoneBatch>(&self, batch: &mut B) -> Result<()> {
        batch::solve(&self.settings, batch)
    }

    /// Solves joints `root`, `joint`, `end` of `pose` (each the parent of the next) toward a
    /// model-space target and writes local rotations back (and translations when stretching).
    /// Like Unreal's node, stretching scales the pose's current bone lengths: feed it the
    /// animated (un-stretched) pose each frame, or repeated solves compound the stretch.
    pub fn solve_pose(
        &self,
        pose: &mut Pose,
        joints: [u32; 3],
        target: &TwoBoneTarget,
    ) -> Result<IkResult> {
        let joints = joints.map(|j| j as usize);
        pose.skeleton().check_chain(joints)?;
        let parent = pose.parent_model_of(joints[0])?;
        let root = finite(parent.mul_transform(&pose.local().get(joints[0])))?;
        let mid = finite(root.mul_transform(&pose.local().get(joints[1])))?;
        let end = finite(mid.mul_transform(&pose.local().get(joints[2])))?;
        let mut chain = [root, mid, end];
        let result = self.solve(&mut chain, target)?;
        let parents = [parent, chain[0], chain[1]];
        // Back to local space, checked before anything is written (a tiny parent scale can
        // push a stretched translation out of f32's range).
        let mut locals = [Transform::IDENTITY; 3];
        for ((rel, model), p) in locals.iter_mut().zip(&chain).zip(&parents) {
            *rel = finite(p.inverse_mul(model))?;
        }
        let stretch = self.settings.allow_stretching;
        for (&j, rel) in joints.iter().zip(&locals) {
            let mut local = pose.local().get(j);
            local.rotation = rel.rotation.normalize();
            if stretch {
                local.translation = rel.translation;
            }
            pose.put_local(j, &local);
        }
        Ok(result)
    }
}
