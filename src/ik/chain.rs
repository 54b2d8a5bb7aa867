//! What FABRIK and CCD share: the chain target, per-joint constraints, scratch buffers sized
//! once at creation, validation, straight lay-out for unreachable targets, and the pass that
//! turns desired joint positions into rotations (minimal arcs, constraints applied root to tip).

use glam::{Quat, Vec3};

use crate::constraint::JointConstraint;
use crate::error::{ensure_finite, Error, ErrorKind, Result};
use crate::ik::{EndRotation, IkResult};
use crate::pose::{finite, Pose};
use crate::rotation::shortest_arc;
use crate::skeleton::{validated_rotation, validated_transform};
use crate::transform::Transform;

/// Where a chain's tip should go, in the chain's model space.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChainTarget {
    /// Tip position.
    pub position: Vec3,
    /// Tip rotation, used by [`EndRotation::CopyEffector`].
    pub rotation: Option<Quat>,
}

impl ChainTarget {
    /// A target position without rotation.
    pub fn at(position: Vec3) -> Self {
        Self {
            position,
            rotation: None,
        }
    }

    /// The target with its rotation normalized, or why it is unusable.
    pub(crate) fn validated(&self) -> Result<Self> {
        ensure_finite(self.position.is_finite(), "effector position")?;
        Ok(Self {
            rotation: validated_rotation(self.rotation)?,
            ..*self
        })
    }
}

/// Reach tolerance: absolute, or a fraction of the chain length.
pub(crate) fn tolerance(precision: f32, relative: bool, length: f32) -> f32 {
    let t = if relative {
        precision * length
    } else {
        precision
    };
    t.max(f32::MIN_POSITIVE)
}

/// Checks a precision and iteration count shared by the iterative solvers.
pub(crate) fn validate_iteration_settings(precision: f32, max_iterations: u32) -> Result<()> {
    ensure_finite(precision.is_finite(), "precision")?;
    if precision <= 0.0 {
        return Err(Error::new(
            ErrorKind::InvalidArgument,
            format!("precision {precision} must be positive"),
        ));
    }
    if max_iterations == 0 {
        return Err(Error::new(
            ErrorKind::InvalidArgument,
            "max_iterations must be at least 1",
        ));
    }
    Ok(())
}

/// Buffers and per-joint constraints of a chain solver, allocated for `max_joints` at creation.
#[derive(Clone, Debug)]
pub(crate) struct ChainWork {
    constraints: Vec<Option<JointConstraint>>,
    /// Validated input transforms (rotations normalized).
    pub input: Vec<Transform>,
    /// Solver output.
    pub output: Vec<Transform>,
    /// Working joint positions.
    pub positions: Vec<Vec3>,
    /// Each bone (joint i to i+1) in joint i's rotated frame: model vector = rotation * bone.
    pub bones: Vec<Vec3>,
    /// Bone lengths.
    pub lengths: Vec<f32>,
    /// Unit model-space bone directions of the input (zero for zero-length bones).
    pub directions: Vec<Vec3>,
    /// Model-space chain of a pose-level solve.
    pose_chain: Vec<Transform>,
    /// Positions of the best iterate so far.
    best_positions: Vec<Vec3>,
    /// Output of the best iterate so far.
    best_output: Vec<Transform>,
}

/// Smallest chain a solver accepts.
pub(crate) const MIN_CHAIN: usize = 2;

/// Reach ratio above which unconstrained solvers start from a blend toward the arc seed.
const NEAR_REACH: f32 = 0.9;

impl ChainWork {
    pub fn new(max_joints: usize) -> Result<Self> {
        if !(MIN_CHAIN..=crate::skeleton::MAX_JOINTS).contains(&max_joints) {
            return Err(Error::new(
                ErrorKind::OutOfRange,
                format!(
                    "max_joints {max_joints} is outside {MIN_CHAIN}..={}",
                    crate::skeleton::MAX_JOINTS
                ),
            ));
        }
        Ok(Self {
            constraints: vec![None; max_joints],
            input: vec![Transform::IDENTITY; max_joints],
            output: vec![Transform::IDENTITY; max_joints],
            positions: vec![Vec3::ZERO; max_joints],
            bones: vec![Vec3::ZERO; max_joints],
            lengths: vec![0.0; max_joints],
            directions: vec![Vec3::ZERO; max_joints],
            pose_chain: vec![Transform::IDENTITY; max_joints],
            best_positions: vec![Vec3::ZERO; max_joints],
            best_output: vec![Transform::IDENTITY; max_joints],
        })
    }

    pub fn max_joints(&self) -> usize {
        self.constraints.len()
    }

    pub fn set_constraint(&mut self, joint: usize, c: Option<JointConstraint>) -> Result<()> {
        let max = self.max_joints();
        let slot = self.constraints.get_mut(joint).ok_or_else(|| {
            Error::new(
                ErrorKind::OutOfRange,
                format!("chain joint {joint} is out of range (max_joints {max})"),
            )
        })?;
        *slot = c;
        Ok(())
    }

    pub fn constraint(&self, joint: usize) -> Option<&JointConstraint> {
        self.constraints.get(joint).and_then(Option::as_ref)
    }

    pub fn has_constraints(&self, n: usize) -> bool {
        self.constraints[..n].iter().any(Option::is_some)
    }

    /// Validates a chain and its target and loads the chain; returns the chain length (sum of
    /// bones) and the validated target.
    pub fn load(
        &mut self,
        chain: &[Transform],
        target: &ChainTarget,
    ) -> Result<(f32, ChainTarget)> {
        let n = chain.len();
        self.check_count(n)?;
        for (i, t) in chain.iter().enumerate() {
            self.input[i] = validated_transform(t, || format!("chain transform {i}"))?;
        }
        let target = target.validated()?;
        let mut length = 0.0;
        for i in 0..n {
            let t = self.input[i];
            self.positions[i] = t.translation;
            if i + 1 < n {
                let v = self.input[i + 1].translation - t.translation;
                let l = v.length();
                self.lengths[i] = l;
                self.bones[i] = t.rotation.conjugate() * v;
                self.directions[i] = if l > 0.0 { v / l } else { Vec3::ZERO };
                length += l;
            }
        }
        Ok((length, target))
    }

    fn check_count(&self, n: usize) -> Result<()> {
        if n < MIN_CHAIN {
            return Err(Error::new(
                ErrorKind::InvalidArgument,
                format!("a chain needs at least {MIN_CHAIN} joints, got {n}"),
            ));
        }
        if n > self.max_joints() {
            return Err(Error::new(
                ErrorKind::OutOfRange,
                format!(
                    "chain of {n} joints exceeds the solver's max_joints {}",
                    self.max_joints()
                ),
            ));
        }
        Ok(())
    }

    /// Remembers the current iterate as the best so far.
    pub fn save_best(&mut self, n: usize) {
        self.best_positions[..n].copy_from_slice(&self.positions[..n]);
        self.best_output[..n].copy_from_slice(&self.output[..n]);
    }

    /// Returns to the best iterate, so more iterations never give a worse answer.
    pub fn restore_best(&mut self, n: usize) {
        self.positions[..n].copy_from_slice(&self.best_positions[..n]);
        self.output[..n].copy_from_slice(&self.best_output[..n]);
    }

    /// One CCD step at joint `i` on the output chain: turn so the tip points at `goal`, scaled
    /// by `weight`, limited by `limit` (reference local rotation, max angle) and the joint's
    /// constraint; descendants follow, positions by forward kinematics (lengths never drift).
    pub fn ccd_step(
        &mut self,
        i: usize,
        n: usize,
        root_parent: Quat,
        goal: Vec3,
        weight: f32,
        limit: Option<(Quat, f32)>,
    ) {
        let pivot = self.output[i].translation;
        let tip = self.output[n - 1].translation;
        let mut arc = shortest_arc(tip - pivot, goal - pivot);
        if weight < 1.0 {
            arc = Quat::from_scaled_axis(arc.to_scaled_axis() * weight);
        }
        let parent = if i == 0 {
            root_parent
        } else {
            self.output[i - 1].rotation
        };
        let old = self.output[i].rotation;
        let mut local = parent.conjugate() * (arc * old).normalize();
        if let Some((reference, max_angle)) = limit {
            local = limit_deviation(reference, local, max_angle);
        }
        let rotation = self.constrained(i, parent, (parent * local).normalize());
        let delta = rotation * old.conjugate();
        self.output[i].rotation = rotation;
        for j in i + 1..n {
            self.output[j].rotation = (delta * self.output[j].rotation).normalize();
        }
        for j in i..n - 1 {
            self.output[j + 1].translation =
                self.output[j].translation + self.output[j].rotation * self.bones[j];
        }
    }

    /// Copies the output's joint positions into the working positions.
    pub fn sync_positions(&mut self, n: usize) {
        for (p, t) in self.positions[..n].iter_mut().zip(&self.output[..n]) {
            *p = t.translation;
        }
    }

    /// Near full reach, turns the working bones toward an evenly bent arc whose tip is
    /// exactly at `target` (bent in the input's plane), by a weight rising smoothly from 0 at
    /// 90 % of the chain length to 1 at full length. At full length the arc is the straight
    /// lay-out used for unreachable targets, so solutions do not jump across the edge of reach,
    /// and iterative solvers start next to a solution where they converge slowest. Callers keep
    /// the input as a candidate too, so a seed never makes a result worse.
    pub fn seed_near_reach(&mut self, n: usize, target: Vec3, length: f32) {
        let root = self.positions[0];
        let to_target = target - root;
        let d = to_target.length();
        let ratio = if length > 0.0 { d / length } else { 0.0 };
        if !(ratio > NEAR_REACH && ratio < 1.0) || n < 3 {
            return;
        }
        let x = (ratio - NEAR_REACH) / (1.0 - NEAR_REACH);
        let weight = x * x * (3.0 - 2.0 * x);
        let u = to_target / d;
        let sag = self.positions[1..n]
            .iter()
            .fold(Vec3::ZERO, |acc, p| acc + (*p - root));
        let v = crate::rotation::perpendicular_dir(sag, u, length * 1e-6)
            .unwrap_or_else(|| u.any_orthonormal_vector());
        let theta = self.arc_bend(n, d);
        let (sum_cos, sum_sin) = self.arc_chord(n, theta);
        let start = sum_sin.atan2(sum_cos);
        // Blend bone directions (not positions), so bone lengths hold along the way.
        let mut p = root;
        for j in 0..n - 1 {
            let heading = start - j as f32 * theta;
            let arc = u * heading.cos() + v * heading.sin();
            let dir = self.directions[j].lerp(arc, weight).normalize_or(arc);
            p += dir * self.lengths[j];
            self.positions[j + 1] = p;
        }
    }

    /// Chord of the arc whose bone `j` heads at angle `-j * theta`, as (along, across) sums.
    fn arc_chord(&self, n: usize, theta: f32) -> (f32, f32) {
        (0..n - 1).fold((0.0, 0.0), |(c, s), j| {
            let (sin, cos) = (j as f32 * theta).sin_cos();
            (c + self.lengths[j] * cos, s + self.lengths[j] * sin)
        })
    }

    /// The even bend per joint whose arc's chord has length `d` (bisection; the chord shrinks
    /// monotonically as the bend grows from 0 to pi / bones).
    fn arc_bend(&self, n: usize, d: f32) -> f32 {
        let (mut lo, mut hi) = (0.0f32, std::f32::consts::PI / (n - 1) as f32);
        for _ in 0..40 {
            let mid = 0.5 * (lo + hi);
            let (c, s) = self.arc_chord(n, mid);
            if c.hypot(s) > d {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        0.5 * (lo + hi)
    }

    /// Lays the chain straight from the root toward `target` (desired positions).
    pub fn lay_straight(&mut self, n: usize, target: Vec3) {
        let root = self.positions[0];
        let dir = (target - root).normalize_or(self.directions[0]);
        for i in 0..n - 1 {
            self.positions[i + 1] = self.positions[i] + dir * self.lengths[i];
        }
    }

    /// Turns desired positions into output transforms: each bone turns by the minimal arc from
    /// its input direction toward its desired child position (keeping twist), constraints are
    /// applied root to tip relative to the (already solved) parent, and positions follow by
    /// forward kinematics so bone lengths hold exactly. The tip's rotation follows `end`.
    /// Positions are updated to the result.
    pub fn orient(&mut self, n: usize, root_parent: Quat, end: EndRotation, target: &ChainTarget) {
        let mut pos = self.positions[0];
        let mut parent = root_parent;
        for i in 0..n - 1 {
            let input = self.input[i];
            let want = self.positions[i + 1] - pos;
            let arc = shortest_arc(input.rotation * self.bones[i], want);
            let rotation = self.constrained(i, parent, (arc * input.rotation).normalize());
            self.output[i] = Transform {
                translation: pos,
                rotation,
                ..input
            };
            self.positions[i] = pos;
            pos += rotation * self.bones[i];
            parent = rotation;
        }
        let tip = n - 1;
        let rotation = end_rotation(end, target, &self.input[tip - 1..=tip], parent);
        self.output[tip] = Transform {
            translation: pos,
            rotation: self.constrained(tip, parent, rotation),
            ..self.input[tip]
        };
        self.positions[tip] = pos;
    }

    /// Sets the tip's rotation on the output from the end-rotation mode (then its constraint).
    pub fn finish_tip(&mut self, n: usize, end: EndRotation, target: &ChainTarget) {
        let parent = self.output[n - 2].rotation;
        let rotation = end_rotation(end, target, &self.input[n - 2..n], parent);
        self.output[n - 1].rotation = self.constrained(n - 1, parent, rotation);
    }

    /// Applies joint `i`'s constraint to a model rotation given its parent's model rotation.
    pub fn constrained(&self, i: usize, parent: Quat, model: Quat) -> Quat {
        let Some(c) = &self.constraints[i] else {
            return model;
        };
        let local = parent.conjugate() * model;
        let projected = c.project(local);
        if projected == local {
            model
        } else {
            (parent * projected).normalize()
        }
    }

    /// Copies the output to the caller's chain after checking it is finite.
    pub fn store(&self, chain: &mut [Transform], result: IkResult) -> Result<IkResult> {
        let n = chain.len();
        if !(self.output[..n].iter().all(Transform::is_finite) && result.error.is_finite()) {
            return Err(Error::new(
                ErrorKind::NumericOverflow,
                "IK result is not representable in f32 (inputs too large)",
            ));
        }
        chain.copy_from_slice(&self.output[..n]);
        Ok(result)
    }
}

/// A chain solver that [`solve_pose`] can drive.
pub(crate) trait ChainSolver {
    /// The solver's buffers.
    fn work_mut(&mut self) -> &mut ChainWork;
    /// Solves model-space `chain` in place; `root_parent` is the model rotation of the root's
    /// parent, which the root joint's constraint is relative to.
    fn solve_chain(
        &mut self,
        chain: &mut [Transform],
        root_parent: Quat,
        target: &ChainTarget,
    ) -> Result<IkResult>;
}

/// Solves joints `joints` of `pose` (root to tip, each the parent of the next) toward a
/// model-space target, then writes their local rotations back. Allocates nothing.
pub(crate) fn solve_pose<S: ChainSolver>(
    solver: &mut S,
    pose: &mut Pose,
    joints: &[u32],
    target: &ChainTarget,
) -> Result<IkResult> {
    let n = joints.len();
    solver.work_mut().check_count(n)?;
    pose.skeleton()
        .check_chain(joints.iter().map(|&j| j as usize))?;
    let parent = pose.parent_model_of(joints[0] as usize)?;
    let mut chain = std::mem::take(&mut solver.work_mut().pose_chain);
    let mut model = parent;
    for (slot, &j) in chain.iter_mut().zip(joints) {
        model = model.mul_transform(&pose.local()[j as usize]);
        *slot = model;
    }
    let outcome = chain[..n]
        .iter()
        .try_for_each(|t| finite(*t).map(drop))
        .and_then(|()| solver.solve_chain(&mut chain[..n], parent.rotation, target));
    if outcome.is_ok() {
        let local = pose.local_mut();
        let mut parent_rotation = parent.rotation;
        for (t, &j) in chain[..n].iter().zip(joints) {
            local[j as usize].rotation = (parent_rotation.conjugate() * t.rotation).normalize();
            parent_rotation = t.rotation;
        }
    }
    solver.work_mut().pose_chain = chain;
    outcome
}

/// The tip's model rotation for an end-rotation mode, given the input (parent, tip) transforms
/// and the parent's solved rotation.
pub(crate) fn end_rotation(
    end: EndRotation,
    target: &ChainTarget,
    input: &[Transform],
    parent: Quat,
) -> Quat {
    let (input_parent, input_tip) = (input[0].rotation, input[1].rotation);
    match end {
        EndRotation::KeepModel => input_tip,
        EndRotation::CopyEffector => target.rotation.unwrap_or(input_tip),
        EndRotation::KeepLocal => (parent * (input_parent.conjugate() * input_tip)).normalize(),
    }
}

/// Pulls `local` back toward `reference` so the two differ by at most `max_angle` radians.
fn limit_deviation(reference: Quat, local: Quat, max_angle: f32) -> Quat {
    let mut delta = reference.conjugate() * local;
    if delta.w < 0.0 {
        delta = -delta;
    }
    let v = delta.to_scaled_axis();
    let angle = v.length();
    if angle <= max_angle {
        return local;
    }
    (reference * Quat::from_scaled_axis(v * (max_angle / angle))).normalize()
}

/// Builds a result for a final error.
pub(crate) fn chain_result(error: f32, tolerance: f32, iterations: u32) -> IkResult {
    IkResult {
        reached: error <= tolerance,
        error,
        iterations,
    }
}
