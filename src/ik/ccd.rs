//! Cyclic coordinate descent with the semantics of Unreal's CCDIK node (precision, max
//! iterations, start from tail, per-joint rotation limits in degrees) plus per-joint weights
//! (Final IK's damping), a rotating root (optionally fixed) and joint constraints.
//!
//! Constraints win over weights and `fix_root`: the input is first projected onto them, so a
//! joint whose input violates its constraint turns onto it even at weight 0 or as a fixed root.

use glam::{Quat, Vec3A};

use crate::constraint::JointConstraint;
use crate::error::{ensure_finite, Error, ErrorKind, Result};
use crate::ik::chain::{
    chain_result, solve_pose, tolerance, validate_iteration_settings, ChainSolver, ChainTarget,
    ChainWork,
};
use crate::ik::{EndRotation, IkResult};
use crate::pose::Pose;
use crate::transform::Transform;

/// CCD settings. Defaults follow Unreal's CCDIK node, except that precision is relative.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CcdSettings {
    /// Reach tolerance: a fraction of the chain length when `relative_precision`, else in the
    /// caller's units.
    pub precision: f32,
    /// Whether `precision` is relative to the chain length.
    pub relative_precision: bool,
    /// Most sweeps over the chain (Unreal's default 10).
    pub max_iterations: u32,
    /// Sweep from the joint nearest the tip toward the root (Unreal's `bStartFromTail`).
    pub start_from_tail: bool,
    /// Keep the root joint's rotation (Unreal's node never rotates it; here it does by default).
    pub fix_root: bool,
    /// Stop when a sweep improves the error by less than 0.1 %.
    pub stop_when_stalled: bool,
    /// The tip's rotation.
    pub end_rotation: EndRotation,
}

impl Default for CcdSettings {
    fn default() -> Self {
        Self {
            precision: 1e-3,
            relative_precision: true,
            max_iterations: 10,
            start_from_tail: true,
            fix_root: false,
            stop_when_stalled: true,
            end_rotation: EndRotation::KeepLocal,
        }
    }
}

impl CcdSettings {
    /// Checks every field is in its domain.
    pub fn validate(&self) -> Result<()> {
        validate_iteration_settings(self.precision, self.max_iterations)
    }
}

/// Per-joint CCD tuning.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CcdJoint {
    /// Largest angle, in degrees, that the joint's local rotation may turn away from its input
    /// during a solve (Unreal's `RotationLimitPerJoints`); 180 is unlimited.
    pub rotation_limit_degrees: f32,
    /// Fraction of each step's rotation the joint takes, in [0, 1] (damps bones near the tip).
    pub weight: f32,
}

impl Default for CcdJoint {
    fn default() -> Self {
        Self {
            rotation_limit_degrees: 180.0,
            weight: 1.0,
        }
    }
}

impl CcdJoint {
    fn validate(&self) -> Result<()> {
        ensure_finite(
            self.rotation_limit_degrees.is_finite() && self.weight.is_finite(),
            "CCD joint setting",
        )?;
        if !(0.0..=180.0).contains(&self.rotation_limit_degrees) {
            return Err(Error::new(
                ErrorKind::InvalidArgument,
                format!(
                    "rotation_limit_degrees {} is outside [0, 180]",
                    self.rotation_limit_degrees
                ),
            ));
        }
        if !(0.0..=1.0).contains(&self.weight) {
            return Err(Error::new(
                ErrorKind::InvalidArgument,
                format!("weight {} is outside [0, 1]", self.weight),
            ));
        }
        Ok(())
    }

    fn is_default(&self) -> bool {
        *self == Self::default()
    }
}

/// A CCD solver for chains of up to `max_joints` joints; all memory is allocated at creation.
#[derive(Clone, Debug)]
pub struct Ccd {
    settings: CcdSettings,
    joints: Vec<CcdJoint>,
    /// Local rotations of the input, for the per-joint rotation limits.
    input_local: Vec<Quat>,
    work: ChainWork,
}

impl Ccd {
    /// A solver for chains of 2 to `max_joints` joints.
    pub fn new(settings: CcdSettings, max_joints: usize) -> Result<Self> {
        settings.validate()?;
        let work = ChainWork::new(max_joints)?;
        Ok(Self {
            settings,
            joints: vec![CcdJoint::default(); max_joints],
            input_local: vec![Quat::IDENTITY; max_joints],
            work,
        })
    }

    /// Current settings.
    pub fn settings(&self) -> &CcdSettings {
        &self.settings
    }

    /// Replaces the settings (unchanged on error).
    pub fn set_settings(&mut self, settings: CcdSettings) -> Result<()> {
        settings.validate()?;
        self.settings = settings;
        Ok(())
    }

    /// Largest chain this solver accepts.
    pub fn max_joints(&self) -> usize {
        self.work.max_joints()
    }

    /// Sets chain joint `joint`'s rotation limit and weight.
    pub fn set_joint(&mut self, joint: usize, tuning: CcdJoint) -> Result<()> {
        tuning.validate()?;
        let max = self.max_joints();
        let slot = self.joints.get_mut(joint).ok_or_else(|| {
            Error::new(
                ErrorKind::OutOfRange,
                format!("chain joint {joint} is out of range (max_joints {max})"),
            )
        })?;
        *slot = tuning;
        Ok(())
    }

    /// Sets (or with `None` clears) the constraint of chain joint `joint` (0 is the root).
    pub fn set_constraint(&mut self, joint: usize, c: Option<JointConstraint>) -> Result<()> {
        self.work.set_constraint(joint, c)
    }

    /// The constraint of chain joint `joint`, if any.
    pub fn constraint(&self, joint: usize) -> Option<&JointConstraint> {
        self.work.constraint(joint)
    }

    /// Solves a model-space chain (root first; the root's position is pinned) in place.
    /// `root_parent` is the model rotation the root's constraint and limit are relative to.
    /// On error the chain is untouched.
    pub fn solve(
        &mut self,
        chain: &mut [Transform],
        root_parent: Quat,
        target: &ChainTarget,
    ) -> Result<IkResult> {
        let (length, target) = self.work.load(chain, target)?;
        let target = &target;
        let n = chain.len();
        let s = self.settings;
        let tol = tolerance(s.precision, s.relative_precision, length);
        let goal = Vec3A::from(target.position);
        // Per-joint limits and weights shape each sweep; only plain chains take closing steps.
        let plain = self.joints[..n].iter().all(CcdJoint::is_default);
        let free = plain && !s.fix_root && !self.work.has_constraints(n);
        let w = &mut self.work;
        let mut iterations = 0;
        if (w.positions[n - 1] - goal).length() > tol
            && free
            && (goal - w.positions[0]).length() >= length
        {
            // What unlimited CCD converges to for an unreachable target, in one pass.
            w.lay_straight(n, goal);
            w.orient(n, root_parent, s.end_rotation, target);
            let offset = w.positions[n - 1] - goal;
            return w.store(chain, chain_result(offset, tol, 1));
        }
        // Start from the input projected onto the constraints.
        self.start(n, root_parent, target);
        let w = &mut self.work;
        let mut error = (w.positions[n - 1] - goal).length();
        let mut best = error;
        // Whether the current iterate is the best so far: it is set aside only when about to be
        // overwritten, and restored at the end only when something worse followed.
        let mut at_best = true;
        let start_error = error;
        let first = usize::from(s.fix_root);
        if plain
            && error > tol
            && w.close_first(n, goal, length)
            && w.closing(n, first, root_parent, goal, tol, length, error)
        {
            // The closing step on the input counts as the first iteration.
            if free {
                w.orient(n, root_parent, s.end_rotation, target);
            }
            error = (w.positions[n - 1] - goal).length();
            best = best.min(error);
            iterations = 1;
        }
        let mut parent = root_parent;
        for i in 0..n {
            self.input_local[i] = parent.conjugate() * self.work.input[i].rotation;
            parent = self.work.input[i].rotation;
        }
        while error > tol && iterations < s.max_iterations {
            iterations += 1;
            if at_best {
                self.work.save_best_output(n);
            }
            let (joints, input_local) = (&self.joints, &self.input_local);
            let tuning = |i: usize| {
                let t = joints[i];
                let limit = (t.rotation_limit_degrees < 180.0)
                    .then(|| (input_local[i], t.rotation_limit_degrees.to_radians()));
                (t.weight, limit)
            };
            let w = &mut self.work;
            w.ccd_sweep(n, first, s.start_from_tail, root_parent, goal, tuning);
            // Constrained closing steps cost a projection per joint and step: only near the
            // goal (farther off, Newton steps would not get there).
            if plain
                && (w.positions[n - 1] - goal).length() > tol
                && (free || w.near_goal(n, goal, length))
            {
                let moved = w.closing(n, first, root_parent, goal, tol, length, start_error);
                if moved && free {
                    w.orient(n, root_parent, s.end_rotation, target);
                }
            }
            let new_error = (self.work.positions[n - 1] - goal).length();
            let stalled = s.stop_when_stalled && new_error > error * (1.0 - STALL_RATIO);
            error = new_error;
            at_best = error < best;
            if at_best {
                best = error;
            }
            if stalled {
                break;
            }
        }
        if !at_best {
            self.work.restore_best_output(n);
        }
        let w = &mut self.work;
        w.finish_tip(n, s.end_rotation, target);
        let offset = w.positions[n - 1] - goal;
        w.store(chain, chain_result(offset, tol, iterations))
    }

    /// Sets the output to the working positions turned into (constrained) rotations; a fixed
    /// root keeps its input rotation exactly (projected only if a constraint of its own says so).
    fn start(&mut self, n: usize, root_parent: Quat, target: &ChainTarget) {
        let w = &mut self.work;
        w.orient(n, root_parent, self.settings.end_rotation, target);
        if self.settings.fix_root {
            w.output[0].rotation = w.constrained(0, root_parent, w.input[0].rotation);
        }
    }

    /// Solves joints `joints` of `pose` (root to tip, each the parent of the next) toward a
    /// model-space target and writes their local rotations back.
    pub fn solve_pose(
        &mut self,
        pose: &mut Pose,
        joints: &[u32],
        target: &ChainTarget,
    ) -> Result<IkResult> {
        solve_pose(self, pose, joints, target)
    }
}

/// Relative improvement per sweep below which a solve counts as stalled.
const STALL_RATIO: f32 = 1e-3;

impl ChainSolver for Ccd {
    fn work_mut(&mut self) -> &mut ChainWork {
        &mut self.work
    }

    fn solve_chain(
        &mut self,
        chain: &mut [Transform],
        root_parent: Quat,
        target: &ChainTarget,
    ) -> Result<IkResult> {
        self.solve(chain, root_parent, target)
    }
}
