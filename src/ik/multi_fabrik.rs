//! Multi-effector FABRIK (Aristidou & Lasenby 2011, "multiple end effectors"): a joint tree
//! (a root and several end joints: pelvis to both hands, a palm to its fingertips) solved
//! toward several weighted targets at once. Each iteration runs the forward pass from every
//! effector inward, placing each sub-base (a joint where branches meet) at the weighted
//! centroid of the places its branches put it, then the backward pass from the pinned root,
//! where a sub-base turns as one rigid joint so its bones keep their offsets.
//!
//! One effector is a chain, solved by the single-chain [`Fabrik`] (closing steps and all), so
//! the result is the chain solver's bit for bit.

use glam::Quat;

use crate::constraint::JointConstraint;
use crate::error::{Error, ErrorKind, Result};
use crate::ik::chain::TRACKING;
use crate::ik::chain::{tolerance, validate_iteration_settings, ChainTarget, Progress};
use crate::ik::tree::{Kept, Shape, Tree};
use crate::ik::tree_newton::Step;
use crate::ik::{EndRotation, Fabrik, FabrikSettings, IkResult, TransformAccess};
use crate::pose::Pose;
use crate::skeleton::Skeleton;
use crate::transform::{finite, Transform};

pub use crate::ik::tree::EffectorTarget;

/// Multi-effector FABRIK settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MultiFabrikSettings {
    /// Reach tolerance of every effector: a fraction of the tree's size (its longest path
    /// from the root to an effector) when `relative_precision`, else in the caller's units.
    pub precision: f32,
    /// Whether `precision` is relative to the tree's size.
    pub relative_precision: bool,
    /// Most iterations of an attempt (forward and backward passes, closing steps); a solve
    /// that stops short of targets it may reach retries, up to six attempts in all.
    pub max_iterations: u32,
    /// Stop when two iterations running each improve the weighted error by less than 0.1 %.
    pub stop_when_stalled: bool,
    /// Rotation of effectors whose target has no rotation (or weight 0).
    pub end_rotation: EndRotation,
}

impl Default for MultiFabrikSettings {
    fn default() -> Self {
        Self {
            precision: 1e-3,
            relative_precision: true,
            max_iterations: 30,
            stop_when_stalled: true,
            end_rotation: EndRotation::KeepLocal,
        }
    }
}

impl MultiFabrikSettings {
    /// Checks every field is in its domain.
    pub fn validate(&self) -> Result<()> {
        validate_iteration_settings(self.precision, self.max_iterations)
    }

    /// The single-chain settings a one-effector solve runs with.
    fn chain(&self, target: &EffectorTarget) -> FabrikSettings {
        FabrikSettings {
            precision: self.precision,
            relative_precision: self.relative_precision,
            max_iterations: self.max_iterations,
            stop_when_stalled: self.stop_when_stalled,
            end_rotation: match target.rotation {
                Some(_) => EndRotation::CopyEffector,
                None => self.end_rotation,
            },
        }
    }
}

/// Most effectors a solver takes: its closing step solves a linear system of three rows per
/// effector, whose memory grows with their square.
pub const MAX_EFFECTORS: usize = 64;

/// Retries from a kicked input after the plain retry, when neither reached.
const KICKED_RETRIES: usize = 4;

/// Fraction of the tolerance kept as margin for the rounding of the final rotation pass.
const INNER_TOLERANCE_MARGIN: f32 = 1e-3;

/// A multi-effector FABRIK solver for trees of up to `max_joints` joints and `max_effectors`
/// effectors; all memory is allocated at creation.
#[derive(Clone, Debug)]
pub struct MultiFabrik {
    settings: MultiFabrikSettings,
    /// Constraints by skeleton joint, at most `max_joints` of them.
    constraints: Vec<(u32, JointConstraint)>,
    chain: Fabrik,
    tree: Tree,
    /// A one-effector tree as a chain: its joints and model transforms.
    chain_joints: Vec<u32>,
    chain_model: Vec<Transform>,
}

impl MultiFabrik {
    /// A solver for trees of 2 to `max_joints` joints with 1 to `max_effectors` effectors
    /// (at most `max_joints`).
    pub fn new(
        settings: MultiFabrikSettings,
        max_joints: usize,
        max_effectors: usize,
    ) -> Result<Self> {
        settings.validate()?;
        let chain = Fabrik::new(
            settings.chain(&EffectorTarget::at(glam::Vec3::ZERO)),
            max_joints,
        )?;
        let most = max_joints.min(MAX_EFFECTORS);
        if !(1..=most).contains(&max_effectors) {
            return Err(Error::new(
                ErrorKind::OutOfRange,
                format!("max_effectors {max_effectors} is outside 1..={most} (max_joints, at most {MAX_EFFECTORS})"),
            ));
        }
        Ok(Self {
            settings,
            constraints: Vec::with_capacity(max_joints),
            chain,
            tree: Tree::new(max_joints, max_effectors),
            chain_joints: vec![0; max_joints],
            chain_model: vec![Transform::IDENTITY; max_joints],
        })
    }

    /// Current settings.
    pub fn settings(&self) -> &MultiFabrikSettings {
        &self.settings
    }

    /// Replaces the settings (unchanged on error).
    pub fn set_settings(&mut self, settings: MultiFabrikSettings) -> Result<()> {
        settings.validate()?;
        self.settings = settings;
        Ok(())
    }

    /// Largest tree this solver accepts.
    pub fn max_joints(&self) -> usize {
        self.tree.max_joints()
    }

    /// Most effectors this solver accepts.
    pub fn max_effectors(&self) -> usize {
        self.tree.max_effectors()
    }

    /// Sets (or with `None` clears) the constraint of skeleton joint `joint`; it applies
    /// whenever that joint is in a solved tree. At most `max_joints` joints hold one.
    pub fn set_constraint(&mut self, joint: u32, c: Option<JointConstraint>) -> Result<()> {
        if joint as usize >= crate::skeleton::MAX_JOINTS {
            let message = format!(
                "joint {joint} is out of range (at most {})",
                crate::skeleton::MAX_JOINTS
            );
            return Err(Error::new(ErrorKind::OutOfRange, message));
        }
        let found = self.constraints.iter().position(|(j, _)| *j == joint);
        match (found, c) {
            (Some(i), Some(c)) => self.constraints[i].1 = c,
            (Some(i), None) => drop(self.constraints.swap_remove(i)),
            (None, Some(c)) if self.constraints.len() < self.max_joints() => {
                self.constraints.push((joint, c));
            }
            (None, Some(_)) => {
                let message = format!(
                    "more than max_joints {} joints constrained",
                    self.max_joints()
                );
                return Err(Error::new(ErrorKind::OutOfRange, message));
            }
            (None, None) => {}
        }
        Ok(())
    }

    /// The constraint of skeleton joint `joint`, if any.
    pub fn constraint(&self, joint: u32) -> Option<&JointConstraint> {
        self.constraints
            .iter()
            .find(|(j, _)| *j == joint)
            .map(|(_, c)| c)
    }

    /// Solves the tree of `root` and `effectors` (skeleton joints) in `model`, the skeleton's
    /// model-space transforms (any layout, through [`TransformAccess`]), toward `targets` (one
    /// per effector); writes the tree's joints' translations and rotations back (scales and the
    /// other joints are untouched: they are not moved with it) and one result per effector
    /// into `results`. The root stays in place; its constraint is relative to its parent's
    /// model rotation in `model`. On error nothing is written.
    pub fn solve<T: TransformAccess>(
        &mut self,
        skeleton: &Skeleton,
        model: &mut [T],
        root: u32,
        effectors: &[u32],
        targets: &[EffectorTarget],
        results: &mut [IkResult],
    ) -> Result<()> {
        check_len(model.len(), skeleton.joint_count(), "model transforms")?;
        check_len(results.len(), effectors.len(), "results")?;
        let shape = self.build(skeleton, root, effectors, targets)?;
        let root_parent = match skeleton.parent(root as usize) {
            Some(p) => validated(&model[p].transform(), p)?.rotation,
            None => Quat::IDENTITY,
        };
        if shape.m == 1 {
            let n = shape.n;
            for (t, &j) in self.chain_model[..n].iter_mut().zip(&self.tree.joints[..n]) {
                *t = model[j as usize].transform();
            }
            let target = self.chain_target();
            results[0] = self
                .chain
                .solve(&mut self.chain_model[..n], root_parent, &target)?;
            for (t, &j) in self.chain_model[..n].iter().zip(&self.tree.joints[..n]) {
                model[j as usize].set_translation_rotation(t.translation, t.rotation);
            }
            return Ok(());
        }
        for (t, &j) in self.tree.input[..shape.n].iter_mut().zip(&self.tree.joints) {
            *t = model[j as usize].transform();
        }
        self.solve_tree(shape, root_parent, results)?;
        for (t, &j) in self.tree.output[..shape.n].iter().zip(&self.tree.joints) {
            model[j as usize].set_translation_rotation(t.translation, t.rotation);
        }
        Ok(())
    }

    /// [`Self::solve`] on a pose: the tree's model transforms come from the pose's locals as
    /// [`Pose::model`] composes them, and the solved rotations go back as local rotations
    /// (joints outside the tree keep their locals and so follow their parents).
    pub fn solve_pose(
        &mut self,
        pose: &mut Pose,
        root: u32,
        effectors: &[u32],
        targets: &[EffectorTarget],
        results: &mut [IkResult],
    ) -> Result<()> {
        check_len(results.len(), effectors.len(), "results")?;
        let skeleton = pose.skeleton().clone();
        let shape = self.build(&skeleton, root, effectors, targets)?;
        if shape.m == 1 {
            let n = shape.n;
            self.chain_joints[..n].copy_from_slice(&self.tree.joints[..n]);
            let target = self.chain_target();
            results[0] = self
                .chain
                .solve_pose(pose, &self.chain_joints[..n], &target)?;
            return Ok(());
        }
        let parent = pose.parent_model_of(root as usize)?;
        let n = shape.n;
        for s in 0..n {
            let up = if s == 0 {
                parent
            } else {
                self.tree.input[self.tree.parent[s] as usize]
            };
            let local = pose.local().get(self.tree.joints[s] as usize);
            self.tree.input[s] = finite(up.mul_transform(&local))?;
        }
        self.solve_tree(shape, parent.rotation, results)?;
        for s in 0..n {
            // A joint with no weight below it and no constraint keeps its local exactly (its
            // model rotation only follows its parent's).
            if s > 0 && self.tree.weight[s] == 0.0 && self.tree.constraints[s].is_none() {
                continue;
            }
            let up = if s == 0 {
                parent.rotation
            } else {
                self.tree.output[self.tree.parent[s] as usize].rotation
            };
            let j = self.tree.joints[s] as usize;
            let mut local = pose.local().get(j);
            local.rotation = (up.conjugate() * self.tree.output[s].rotation).normalize();
            pose.put_local(j, &local);
        }
        Ok(())
    }

    /// Builds the tree and sets the chain solver up for a one-effector tree.
    fn build(
        &mut self,
        skeleton: &Skeleton,
        root: u32,
        effectors: &[u32],
        targets: &[EffectorTarget],
    ) -> Result<Shape> {
        let shape = self
            .tree
            .build(skeleton, root, effectors, targets, &self.constraints)?;
        if shape.m == 1 {
            self.chain
                .set_settings(self.settings.chain(&self.tree.targets[0]))?;
            for s in 0..shape.n {
                let c = self.constraint(self.tree.joints[s]).copied();
                self.chain.set_constraint(s, c)?;
            }
        }
        Ok(shape)
    }

    /// The one effector's target as the chain solver takes it.
    fn chain_target(&self) -> ChainTarget {
        let t = self.tree.targets[0];
        ChainTarget {
            position: t.position,
            rotation: t.rotation,
        }
    }

    /// Iterates on the loaded tree (input model transforms in `tree.input`), leaving the
    /// solved transforms in `tree.output` and one result per effector in `results`.
    ///
    /// The error of a tree has local minima where a sub-base's branches pull against each
    /// other, so an attempt can settle with effectors off targets it could reach. When the
    /// first attempt ran FABRIK's passes and left some effector off, and the targets pass
    /// [`Tree::within_reach`], the solve retries from the input with closing steps alone
    /// (they descend into other basins than the passes) and, after a near miss (every
    /// effector within [`TRACKING`] of the size of its target), from the input turned by up
    /// to [`KICKED_RETRIES`] fixed kicks. Each retry runs up to `max_iterations`; one is kept
    /// only when it reaches every target, so unreachable targets keep the first attempt's
    /// compromise.
    fn solve_tree(
        &mut self,
        shape: Shape,
        root_parent: Quat,
        results: &mut [IkResult],
    ) -> Result<()> {
        let s = self.settings;
        let t = &mut self.tree;
        let size = t.load(shape)?;
        let tol = tolerance(s.precision, s.relative_precision, size);
        let inner = tol * (1.0 - INNER_TOLERANCE_MARGIN);
        let step = Step {
            shape,
            root_parent,
            end: s.end_rotation,
            size,
            tol: inner,
        };
        t.restart(shape, root_parent, s.end_rotation);
        let (mut iterations, passed) = attempt(t, &s, step, true, s.max_iterations);
        if passed && !t.within(shape, inner) && t.within_reach(shape, inner) {
            // Kicks only for a near miss: far off, targets kept out of reach by constraints
            // are likelier than a local minimum, and would pay for every kick each solve.
            let kicks = if t.within(shape, TRACKING * size) {
                KICKED_RETRIES
            } else {
                0
            };
            t.save(shape.n, Kept::First);
            for retry in 0..=kicks {
                t.restart(shape, root_parent, s.end_rotation);
                if retry > 0 {
                    t.kick(step, retry - 1);
                }
                iterations += attempt(t, &s, step, false, s.max_iterations).0;
                if t.within(shape, inner) {
                    break;
                }
            }
            if !t.within(shape, inner) {
                t.restore(shape.n, Kept::First);
            }
        }
        t.results(shape, tol, iterations, results)
    }
}

/// Iterates on `t` from its current iterate (FABRIK's passes while some effector is farther
/// than [`TRACKING`] from its target, when `passes`; then closing steps) until every effector
/// is within `step.tol`, `budget` iterations ran or, with `stop_when_stalled`, two iterations
/// running stalled; leaves the best iterate. Returns the iterations run and whether passes
/// ran.
fn attempt(
    t: &mut Tree,
    s: &MultiFabrikSettings,
    step: Step,
    passes: bool,
    budget: u32,
) -> (u32, bool) {
    let (shape, inner) = (step.shape, step.tol);
    let mut progress = Progress::new(t.error(shape));
    let (mut iterations, mut was_stalled, mut passed) = (0, false, false);
    while !t.within(shape, inner) && iterations < budget {
        iterations += 1;
        if progress.at_best {
            t.save(shape.n, Kept::Best);
        }
        // Near every target (a tree solved last frame, or a few iterations in) the closing
        // step alone moves the tree least; FABRIK's passes would undo some of it.
        if passes && !t.within(shape, TRACKING * step.size) {
            t.passes(shape, step.root_parent, s.end_rotation);
            passed = true;
        }
        if !t.within(shape, inner) {
            t.close(step);
        }
        // Stalled twice running: one slow iteration is often the passes being undone.
        let stalled = progress.next(t.error(shape));
        if stalled && was_stalled && s.stop_when_stalled {
            break;
        }
        was_stalled = stalled;
    }
    // The weighted error can rise on the iteration that brings the last effector within the
    // tolerance: that iterate is kept.
    if !progress.at_best && !t.within(shape, inner) {
        t.restore(shape.n, Kept::Best);
    }
    (iterations, passed)
}

/// A model transform of the input, validated.
fn validated(t: &Transform, joint: usize) -> Result<Transform> {
    crate::transform::validated_transform(t, || format!("model transform {joint}"))
}

fn check_len(got: usize, expected: usize, what: &str) -> Result<()> {
    if got == expected {
        return Ok(());
    }
    let message = format!("{what} hold {got} items but {expected} are required");
    Err(Error::new(ErrorKind::SizeMismatch, message))
}
