//! What FABRIK and CCD share: the chain target, per-joint constraints, scratch buffers sized
//! once at creation, loading and checking a chain, straight lay-out for unreachable targets,
//! the closing steps, and the pass that turns desired joint positions into rotations (minimal
//! arcs, constraints applied root to tip).

use glam::{Quat, Vec3, Vec3A};

use crate::constraint::{JointConstraint, Limit};
use crate::error::{ensure_finite, Error, ErrorKind, Result};
use crate::ik::reach;
use crate::ik::{exact_length, EndRotation, IkResult};
use crate::pose::Pose;
use crate::rotation::{frame_perpendicular, shortest_arc, swing_twist};
use crate::transform::{finite, validated_rotation, validated_transform, Transform};

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

/// Reach tolerance: absolute, or a fraction of the chain length (so a chain of subnormal
/// length is held to a subnormal tolerance, not to the smallest normal float).
pub(crate) fn tolerance(precision: f32, relative: bool, length: f32) -> f32 {
    if relative {
        precision * length
    } else {
        precision
    }
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

/// What one solve holds fixed, from loading the chain to storing the result.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Aim {
    /// Joints in the chain.
    pub n: usize,
    /// The first joint that turns (1 for a CCD chain with a fixed root).
    pub first: usize,
    /// Model rotation of the root's parent, which the root's constraint is relative to.
    pub root_parent: Quat,
    /// The validated target.
    pub target: ChainTarget,
    /// The target position.
    pub goal: Vec3A,
    /// The tip's rotation.
    pub end: EndRotation,
    /// Reach tolerance.
    pub tol: f32,
    /// Chain length (sum of bones).
    pub length: f32,
}

/// Relative improvement per iteration below which a solve counts as stalled.
const STALL_RATIO: f32 = 1e-3;

/// The tip's error over a solve's iterations, and whether the current iterate is the best so
/// far: it is set aside only when about to be overwritten, and restored at the end only when
/// something worse followed. The input counts: a solve never returns worse than it started.
pub(crate) struct Progress {
    /// The current iterate's error.
    pub error: f32,
    best: f32,
    /// Whether the current iterate is the best so far.
    pub at_best: bool,
}

impl Progress {
    pub fn new(error: f32) -> Self {
        Self {
            error,
            best: error,
            at_best: true,
        }
    }

    /// Takes the error of a closing step on the input, the input having been set aside first:
    /// a closing step can land farther off (a chain folded on the goal line laid out as an
    /// arc), and then the input stays the best iterate.
    pub fn closed(&mut self, error: f32) {
        self.next(error);
    }

    /// Takes an iteration's error; whether it improved on the last by less than
    /// [`STALL_RATIO`].
    pub fn next(&mut self, error: f32) -> bool {
        let stalled = error > self.error * (1.0 - STALL_RATIO);
        self.error = error;
        self.at_best = error < self.best;
        if self.at_best {
            self.best = error;
        }
        stalled
    }
}

/// Chain joint `joint`'s entry in a per-joint table of `max_joints` entries.
pub(crate) fn joint_slot<T>(table: &mut [T], joint: usize) -> Result<&mut T> {
    let max = table.len();
    table.get_mut(joint).ok_or_else(|| {
        Error::new(
            ErrorKind::OutOfRange,
            format!("chain joint {joint} is out of range (max_joints {max})"),
        )
    })
}

/// Buffers and per-joint constraints of a chain solver, allocated for `max_joints` at creation.
#[derive(Clone, Debug)]
pub(crate) struct ChainWork {
    constraints: Vec<Option<JointConstraint>>,
    /// Validated input transforms (rotations normalized).
    pub input: Vec<Transform>,
    /// Solver output.
    pub output: Vec<Transform>,
    /// Working joint positions (SIMD vectors: the FABRIK passes are long chains of vector math).
    pub positions: Vec<Vec3A>,
    /// Each bone (joint i to i+1) in joint i's rotated frame: model vector = rotation * bone.
    pub bones: Vec<Vec3A>,
    /// Bone lengths.
    pub lengths: Vec<f32>,
    /// Model-space bone vectors of the input (joint i to i+1): where orient turns each bone
    /// from, and the fallback bone where the passes find coincident joints.
    pub spans: Vec<Vec3A>,
    /// Model-space chain of a pose-level solve.
    pub pose_chain: Vec<Transform>,
    /// Positions of the best iterate so far.
    best_positions: Vec<Vec3A>,
    /// Output of the best iterate so far.
    best_output: Vec<Transform>,
    /// Per-joint rotations: each joint's turn in a tail-first CCD sweep, or its rotation in a
    /// constrained Newton step's proposal.
    pub deltas: Vec<Quat>,
    /// Scratch for the closing step's bends and the positions it proposes.
    bends: Vec<Vec3A>,
    closed: Vec<Vec3A>,
    /// Each hinge's turn toward the middle of its range in a centring Newton step (radians).
    centring: Vec<f32>,
}

/// Damped least-squares steps the closing step takes at most where the two-bone split is
/// refused (each is Newton's step where the chain is far from singular).
pub(super) const NEWTON_STEPS: usize = 8;

/// Fraction of its offset from the middle of its range that each hinge turns back by in the
/// first Newton step of a constrained closing step, within the damped null space (where the tip
/// does not move, to first order). At a singular pose, where the target cannot tell which way
/// the chain continues, it leans to the side with more room; a redundant chain, tracking,
/// drifts its hinges away from their limits. Small enough that the pure Newton steps after it
/// still converge.
const CENTRING: f32 = 0.02;

/// Reach ratio from which unconstrained solvers try the closing step on the input before
/// their own iterations, and the closing step tries its exact kind before Newton steps: near
/// full reach the iterations would bend the chain where the exact solutions are nearly
/// straight (and straightening it back as the target leaves the reach would turn bones fast),
/// and Newton steps slow down at the singularity.
const NEAR_REACH: f32 = 0.9;

/// Input error (a fraction of the chain length) up to which unconstrained solvers also try
/// the closing step first: a target that moved this little since the last solve is tracked by
/// the least motion, where CCD's sweeps would curl the chain's tip a little more every frame.
pub(super) const TRACKING: f32 = 0.05;

/// Fraction of the error a Newton step must remove for the next one to be taken: past it the
/// target is out of reach (or beyond the limits) and the iterations' own stall rule decides.
pub(super) const NEWTON_PROGRESS: f32 = 0.01;

/// Smallest chain FABRIK and CCD accept.
pub(crate) const MIN_CHAIN: usize = 2;

/// Checks a chain of `n` joints against a solver's range `min..=max`.
pub(crate) fn check_count(n: usize, min: usize, max: usize) -> Result<()> {
    if n < min {
        return Err(Error::new(
            ErrorKind::InvalidArgument,
            format!("a chain needs at least {min} joints, got {n}"),
        ));
    }
    if n > max {
        return Err(Error::new(
            ErrorKind::OutOfRange,
            format!("chain of {n} joints exceeds the solver's max_joints {max}"),
        ));
    }
    Ok(())
}

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
            positions: vec![Vec3A::ZERO; max_joints],
            bones: vec![Vec3A::ZERO; max_joints],
            lengths: vec![0.0; max_joints],
            spans: vec![Vec3A::ZERO; max_joints],
            pose_chain: vec![Transform::IDENTITY; max_joints],
            best_positions: vec![Vec3A::ZERO; max_joints],
            best_output: vec![Transform::IDENTITY; max_joints],
            deltas: vec![Quat::IDENTITY; max_joints],
            bends: vec![Vec3A::ZERO; max_joints],
            closed: vec![Vec3A::ZERO; max_joints],
            centring: vec![0.0; max_joints],
        })
    }

    pub fn max_joints(&self) -> usize {
        self.constraints.len()
    }

    pub fn set_constraint(&mut self, joint: usize, c: Option<JointConstraint>) -> Result<()> {
        *joint_slot(&mut self.constraints, joint)? = c;
        Ok(())
    }

    pub fn constraint(&self, joint: usize) -> Option<&JointConstraint> {
        self.constraints.get(joint).and_then(Option::as_ref)
    }

    pub fn has_constraints(&self, n: usize) -> bool {
        self.constraints[..n].iter().any(Option::is_some)
    }

    /// Validates a chain and its target and loads the chain; returns the solve's [`Aim`]
    /// (`first` 0, `tol` from `precision` and `relative` as [`tolerance`] gives it).
    pub fn load(
        &mut self,
        chain: &[Transform],
        target: &ChainTarget,
        root_parent: Quat,
        end: EndRotation,
        precision: f32,
        relative: bool,
    ) -> Result<Aim> {
        let n = chain.len();
        self.check_count(n)?;
        let input = &mut self.input[..n];
        for (i, (slot, t)) in input.iter_mut().zip(chain).enumerate() {
            *slot = validated_transform(t, || format!("chain transform {i}"))?;
        }
        let target = target.validated()?;
        let positions = &mut self.positions[..n];
        let (spans, lengths, bones) = (
            &mut self.spans[..n],
            &mut self.lengths[..n],
            &mut self.bones[..n],
        );
        let mut length = 0.0;
        let mut joint = Vec3A::from(input[0].translation);
        positions[0] = joint;
        for i in 0..n - 1 {
            let child = Vec3A::from(input[i + 1].translation);
            let v = child - joint;
            let l = v.length();
            positions[i + 1] = child;
            spans[i] = v;
            lengths[i] = l;
            bones[i] = input[i].rotation.conjugate() * v;
            length += l;
            joint = child;
        }
        Ok(Aim {
            n,
            first: 0,
            root_parent,
            target,
            goal: target.position.into(),
            end,
            tol: tolerance(precision, relative, length),
            length,
        })
    }

    /// Checks a chain and its target without loading them: batches check every chain before
    /// solving any.
    pub fn check(&self, chain: &[Transform], target: &ChainTarget) -> Result<()> {
        self.check_count(chain.len())?;
        for (i, t) in chain.iter().enumerate() {
            validated_transform(t, || format!("chain transform {i}"))?;
        }
        target.validated().map(|_| ())
    }

    fn check_count(&self, n: usize) -> Result<()> {
        check_count(n, MIN_CHAIN, self.max_joints())
    }

    /// Remembers the working positions as the best iterate so far (for solvers that iterate on
    /// positions and orient once at the end).
    pub fn save_best_positions(&mut self, n: usize) {
        self.best_positions[..n].copy_from_slice(&self.positions[..n]);
    }

    /// Returns to the best positions, so more iterations never give a worse answer.
    pub fn restore_best_positions(&mut self, n: usize) {
        self.positions[..n].copy_from_slice(&self.best_positions[..n]);
    }

    /// Remembers the output as the best iterate so far (for solvers that iterate on rotations;
    /// their positions are the output's translations).
    pub fn save_best_output(&mut self, n: usize) {
        self.best_output[..n].copy_from_slice(&self.output[..n]);
    }

    /// Returns to the best output and its positions.
    pub fn restore_best_output(&mut self, n: usize) {
        self.output[..n].copy_from_slice(&self.best_output[..n]);
        for (p, t) in self.positions[..n].iter_mut().zip(&self.output[..n]) {
            *p = t.translation.into();
        }
    }

    /// The closing step on the working positions, after an iteration of the solver left the
    /// tip more than `aim.tol` off `aim.goal`, in two kinds: the exact one ([`reach::close`]: bends
    /// scaled down or the chain's halves bent as a two-bone chain; a straight chain bends
    /// toward the root joint's local axis most perpendicular to its bone, fixed in the root
    /// bone's frame, as two-bone IK does), and up to [`NEWTON_STEPS`] damped least-squares
    /// steps while they bring the tip closer (the least motion where the chain is far from
    /// singular). Near full reach the exact kind goes first, elsewhere the Newton steps. A
    /// chain stuck on the root–goal line (straight or folded along it), which neither can
    /// bend, is laid out as an even arc toward the goal ([`reach::lay_arc`]). `start_error` is
    /// the input tip's distance to the goal: the exact kind may turn bones as far as that
    /// distance calls for. Returns whether the positions moved.
    pub fn close(&mut self, aim: &Aim, start_error: f32) -> bool {
        let (n, goal) = (aim.n, aim.goal);
        let near = self.near_reach(aim);
        if near && self.close_exactly(aim, start_error) {
            return true;
        }
        let moved = self.newton(aim);
        if self.tip_error(aim) <= aim.tol {
            return true;
        }
        if !near && self.close_exactly(aim, start_error) {
            return true;
        }
        if reach::on_goal_line(&self.positions[..n], goal, aim.length) {
            let dir = (goal - self.positions[0]).normalize();
            let side = frame_perpendicular(self.input[0].rotation, self.bones[0], dir);
            reach::lay_arc(&mut self.positions[..n], &self.lengths[..n - 1], goal, side);
            return true;
        }
        moved
    }

    /// [`reach::close`] on the working positions.
    fn close_exactly(&mut self, aim: &Aim, start_error: f32) -> bool {
        let n = aim.n;
        let (rotation, bone) = (self.input[0].rotation, self.bones[0]);
        reach::close(
            &mut self.positions[..n],
            &self.lengths[..n - 1],
            reach::Scratch {
                bends: &mut self.bends[..n - 1],
                candidate: &mut self.closed[..n],
            },
            aim.goal,
            aim.tol,
            start_error,
            |dir| frame_perpendicular(rotation, bone, dir),
        )
    }

    /// Up to [`NEWTON_STEPS`] damped least-squares steps ([`reach::newton_step`]) while they
    /// bring the tip closer, halving a step that does not; whether the positions moved.
    fn newton(&mut self, aim: &Aim) -> bool {
        let (n, goal, length) = (aim.n, aim.goal, aim.length);
        self.newton_steps(
            aim,
            |w, _, scale| {
                let (positions, candidate) = (&w.positions[..n], &mut w.closed[..n]);
                reach::newton_step(positions, goal, length, scale, candidate)
            },
            |w| w.positions[..n].copy_from_slice(&w.closed[..n]),
        )
    }

    /// Up to [`NEWTON_STEPS`] steps while they bring the tip closer: `step(self, k, scale)`
    /// proposes the `k`-th step, `scale` times the full one, and returns the tip's distance to
    /// `aim.goal` after it; `accept` takes the proposal. A step that does not help is halved
    /// (too far for the linear model); the steps stop within `aim.tol` or once one removes less
    /// than [`NEWTON_PROGRESS`] of the error. Whether the chain moved.
    fn newton_steps(
        &mut self,
        aim: &Aim,
        mut step: impl FnMut(&mut Self, usize, f32) -> f32,
        mut accept: impl FnMut(&mut Self),
    ) -> bool {
        let mut error = self.tip_error(aim);
        let mut moved = false;
        let mut scale = 1.0;
        for k in 0..NEWTON_STEPS {
            let next = step(self, k, scale);
            if next >= error || next.is_nan() {
                scale *= 0.5;
                continue;
            }
            accept(self);
            let slow = next > error * (1.0 - NEWTON_PROGRESS);
            (error, moved, scale) = (next, true, 1.0);
            if error <= aim.tol || slow {
                break;
            }
        }
        moved
    }

    /// The closing step that fits the chain: [`Self::close`] on the working positions for
    /// chains without constraints whose root turns (`aim.first` 0), else
    /// [`Self::newton_constrained`] on the output. Whether the chain moved.
    pub fn closing(&mut self, aim: &Aim, start_error: f32) -> bool {
        if aim.first > 0 || self.has_constraints(aim.n) {
            self.newton_constrained(aim)
        } else {
            self.close(aim, start_error)
        }
    }

    /// The closing step of constrained chains (and CCD chains with a fixed root): up to
    /// [`NEWTON_STEPS`] damped least-squares steps on the output rotations while they bring
    /// the tip closer than `aim.tol` allows, each joint's turn projected onto its constraint
    /// root to tip (a hinge turns about its axis only; see [`constrain_turn`]), bone lengths
    /// held by forward kinematics. The first step also turns hinges toward the middle of their
    /// range ([`CENTRING`]). Joints before `aim.first` keep their rotation; the tip's rotation
    /// is left to the caller. Whether the chain moved.
    pub fn newton_constrained(&mut self, aim: &Aim) -> bool {
        let (n, first) = (aim.n, aim.first);
        self.newton_steps(
            aim,
            |w, k, scale| w.constrained_step(aim, scale, k == 0),
            |w| {
                for i in first..n {
                    if i < n - 1 {
                        w.output[i].rotation = w.deltas[i];
                    }
                    w.positions[i] = w.closed[i];
                    w.output[i].translation = w.closed[i].into();
                }
            },
        )
    }

    /// One step of [`Self::newton_constrained`], `scale` times the full one: rotations into
    /// `deltas`, positions into `closed`; returns the tip's distance to the goal. With `centre`,
    /// each hinge also turns toward the middle of its range by [`CENTRING`] of its offset, and
    /// the damped least-squares direction is solved for what that leaves of the tip's error (so
    /// the centring turns only move the tip where the damping lets them, near singular poses).
    fn constrained_step(&mut self, aim: &Aim, scale: f32, centre: bool) -> f32 {
        let (n, first, root_parent, goal) = (aim.n, aim.first, aim.root_parent, aim.goal);
        let tip = self.positions[n - 1];
        let (constraints, output) = (&self.constraints, &self.output);
        let hinge = |i: usize| hinge_axis(constraints[i].as_ref(), output[i].rotation);
        let parent_of = |i: usize| {
            if i == 0 {
                root_parent
            } else {
                output[i - 1].rotation
            }
        };
        // The centring turns' motion of the tip, which the least-squares direction then
        // corrects: together they are Newton's step plus a turn in its damped null space.
        let mut shift = Vec3A::ZERO;
        for i in first..n - 1 {
            let turn = match (centre, constraints[i].as_ref(), hinge(i)) {
                (true, Some(c), Some(axis)) => {
                    let local = parent_of(i).conjugate() * output[i].rotation;
                    let turn = c.hinge_offset(local).map_or(0.0, |off| -CENTRING * off);
                    shift += axis.cross(tip - self.positions[i]) * turn;
                    turn
                }
                _ => 0.0,
            };
            self.centring[i] = turn * scale;
        }
        let pivots = (first..n - 1).map(|i| (self.positions[i], hinge(i)));
        let y = reach::newton_direction(pivots, tip, goal - shift, aim.length) * scale;
        let mut carried = Quat::IDENTITY;
        let mut parent = parent_of(first);
        self.closed[first] = self.positions[first];
        for i in first..n - 1 {
            let mut turn = reach::newton_turn(tip - self.positions[i], hinge(i), y);
            if let Some(axis) = hinge(i) {
                turn += axis * self.centring[i];
            }
            carried = (carried * Quat::from_scaled_axis(turn.into())).normalize();
            let desired = (carried * output[i].rotation).normalize();
            let before = parent_of(i).conjugate() * output[i].rotation;
            let rotation = constrain_turn(constraints[i].as_ref(), parent, desired, before);
            self.deltas[i] = rotation;
            self.closed[i + 1] = self.closed[i] + rotation * self.bones[i];
            parent = rotation;
        }
        (self.closed[n - 1] - goal).length()
    }

    /// The tip's distance to the goal.
    pub fn tip_error(&self, aim: &Aim) -> f32 {
        (self.positions[aim.n - 1] - aim.goal).length()
    }

    /// Whether the goal lies as far from the root as the chain is long, or farther.
    pub fn beyond_reach(&self, aim: &Aim) -> bool {
        (aim.goal - self.positions[0]).length() >= aim.length
    }

    /// Whether the goal lies beyond [`NEAR_REACH`] of the chain length from the root.
    fn near_reach(&self, aim: &Aim) -> bool {
        (aim.goal - self.positions[0]).length() >= NEAR_REACH * aim.length
    }

    /// Whether the closing step goes first: with the tip within [`TRACKING`] of the goal, and
    /// for chains without constraints also near full reach (where the exact kind is cheap and
    /// the iterations slow; constrained Newton steps would only add cost there).
    pub fn close_first(&self, aim: &Aim) -> bool {
        self.near_goal(aim) || (!self.has_constraints(aim.n) && self.near_reach(aim))
    }

    /// Whether the tip lies within [`TRACKING`] of the goal: close enough for Newton steps, a
    /// local method, to be worth their cost on constrained chains.
    pub fn near_goal(&self, aim: &Aim) -> bool {
        (aim.goal - self.positions[aim.n - 1]).length() <= TRACKING * aim.length
    }

    /// Lays the chain straight from the root toward the goal (desired positions).
    pub fn lay_straight(&mut self, aim: &Aim) {
        let root = self.positions[0];
        let dir = (aim.goal - root).normalize_or(self.spans[0].normalize_or_zero());
        for i in 0..aim.n - 1 {
            self.positions[i + 1] = self.positions[i] + dir * self.lengths[i];
        }
    }

    /// Turns desired positions into output transforms: each bone turns by the minimal arc from
    /// its input direction toward its desired child position (keeping twist); the tip's
    /// rotation follows `end`. Unconstrained, the desired positions (which must keep the bone
    /// lengths) become the output translations as they are. Constraints are applied root to tip
    /// relative to the (already solved) parent; a constrained bone can leave its child off the
    /// desired position, so then each bone aims from where its parent put it and positions
    /// follow by forward kinematics, bone lengths holding exactly. Positions are updated to the
    /// result.
    pub fn orient(&mut self, aim: &Aim) {
        let (n, root_parent) = (aim.n, aim.root_parent);
        let (input, output) = (&self.input[..n], &mut self.output[..n]);
        let (positions, spans, bones) =
            (&mut self.positions[..n], &self.spans[..n], &self.bones[..n]);
        let constraints = &self.constraints[..n];
        // Unconstrained, no bone waits on its parent's rotation: the bones are independent.
        let free = constraints.iter().all(Option::is_none);
        let mut pos = positions[0];
        let mut parent = root_parent;
        for i in 0..n - 1 {
            let arc = scaled_arc(spans[i], positions[i + 1] - pos);
            let model = (arc * input[i].rotation).normalize();
            let input_parent = if i == 0 {
                root_parent
            } else {
                input[i - 1].rotation
            };
            let before = input_parent.conjugate() * input[i].rotation;
            let rotation = constrain_turn(constraints[i].as_ref(), parent, model, before);
            output[i] = Transform {
                translation: pos.into(),
                rotation,
                ..input[i]
            };
            positions[i] = pos;
            pos = if free {
                positions[i + 1]
            } else {
                pos + rotation * bones[i]
            };
            parent = rotation;
        }
        let tip = n - 1;
        let (before, tip_input) = (input[tip - 1].rotation, input[tip].rotation);
        let rotation = end_rotation(aim.end, aim.target.rotation, before, tip_input, parent);
        output[tip] = Transform {
            translation: pos.into(),
            rotation: constrain(constraints[tip].as_ref(), parent, rotation),
            ..input[tip]
        };
        positions[tip] = pos;
    }

    /// Sets the tip's rotation on the output from the end-rotation mode (then its constraint).
    pub fn finish_tip(&mut self, aim: &Aim) {
        let n = aim.n;
        let parent = self.output[n - 2].rotation;
        let (before, tip_input) = (self.input[n - 2].rotation, self.input[n - 1].rotation);
        let rotation = end_rotation(aim.end, aim.target.rotation, before, tip_input, parent);
        self.output[n - 1].rotation = self.constrained(n - 1, parent, rotation);
    }

    /// Applies joint `i`'s constraint to a model rotation given its parent's model rotation.
    pub fn constrained(&self, i: usize, parent: Quat, model: Quat) -> Quat {
        constrain(self.constraints[i].as_ref(), parent, model)
    }

    /// Copies the output to the caller's chain after checking it is finite; returns the result
    /// of `iterations` iterations, its error the tip's exact distance to the goal (no underflow
    /// for chains of subnormal size).
    pub fn store(&self, chain: &mut [Transform], aim: &Aim, iterations: u32) -> Result<IkResult> {
        let n = chain.len();
        let error = exact_length(self.positions[n - 1] - aim.goal);
        let result = IkResult {
            reached: error <= aim.tol,
            error,
            iterations,
        };
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

/// A chain solver that [`solve_pose`], batches and the C ABI's chain exports can drive.
pub(crate) trait ChainSolver {
    /// What a solve aims at.
    type Target;
    /// Fewest joints of a chain.
    const MIN_JOINTS: usize;
    /// Most joints of a chain.
    fn max_joints(&self) -> usize;
    /// Checks a chain and its target without solving (batches check every chain first).
    fn check(&self, chain: &[Transform], target: &Self::Target) -> Result<()>;
    /// The buffer of `max_joints` transforms a pose-level solve builds its chain in.
    fn pose_chain(&mut self) -> &mut Vec<Transform>;
    /// Solves model-space `chain` in place; `root_parent` is the model rotation of the root's
    /// parent, which the root joint's constraint is relative to (unused by aim chains).
    fn solve_chain(
        &mut self,
        chain: &mut [Transform],
        root_parent: Quat,
        target: &Self::Target,
    ) -> Result<IkResult>;
}

/// A chain solver with per-joint constraints in a [`ChainWork`] (FABRIK and CCD).
pub(crate) trait ConstrainedSolver: ChainSolver {
    /// The solver's buffers.
    fn work_mut(&mut self) -> &mut ChainWork;
}

/// Declares what FABRIK and CCD offer alike on `$solver` (fields `settings: $settings` and
/// `work: ChainWork`, a method `solve_loaded` that solves a loaded chain): settings, size,
/// constraints, chain and pose-level solves, and [`ChainSolver`].
macro_rules! chain_solver {
    ($solver:ty, $settings:ty) => {
        impl $solver {
            /// Solves a model-space chain (root first; the root's position is pinned) in place.
            /// `root_parent` is the model rotation the root's constraint (and CCD's rotation
            /// limit) is relative to. On error the chain is untouched.
            pub fn solve(
                &mut self,
                chain: &mut [$crate::Transform],
                root_parent: $crate::Quat,
                target: &$crate::ChainTarget,
            ) -> $crate::Result<$crate::IkResult> {
                let s = &self.settings;
                let (end, precision, relative) =
                    (s.end_rotation, s.precision, s.relative_precision);
                let aim = self
                    .work
                    .load(chain, target, root_parent, end, precision, relative)?;
                self.solve_loaded(chain, aim)
            }

            /// Current settings.
            pub fn settings(&self) -> &$settings {
                &self.settings
            }

            /// Replaces the settings (unchanged on error).
            pub fn set_settings(&mut self, settings: $settings) -> $crate::Result<()> {
                settings.validate()?;
                self.settings = settings;
                Ok(())
            }

            /// Largest chain this solver accepts.
            pub fn max_joints(&self) -> usize {
                self.work.max_joints()
            }

            /// Sets (or with `None` clears) the constraint of chain joint `joint` (0 is the
            /// root).
            pub fn set_constraint(
                &mut self,
                joint: usize,
                c: Option<$crate::JointConstraint>,
            ) -> $crate::Result<()> {
                self.work.set_constraint(joint, c)
            }

            /// The constraint of chain joint `joint`, if any.
            pub fn constraint(&self, joint: usize) -> Option<&$crate::JointConstraint> {
                self.work.constraint(joint)
            }

            /// Solves joints `joints` of `pose` (root to tip, each the parent of the next)
            /// toward a model-space target and writes their local rotations back.
            pub fn solve_pose(
                &mut self,
                pose: &mut $crate::Pose,
                joints: &[u32],
                target: &$crate::ChainTarget,
            ) -> $crate::Result<$crate::IkResult> {
                $crate::ik::chain::solve_pose(self, pose, joints, target)
            }
        }

        impl $crate::ik::chain::ChainSolver for $solver {
            type Target = $crate::ChainTarget;
            const MIN_JOINTS: usize = $crate::ik::chain::MIN_CHAIN;

            fn max_joints(&self) -> usize {
                self.work.max_joints()
            }

            fn check(
                &self,
                chain: &[$crate::Transform],
                target: &$crate::ChainTarget,
            ) -> $crate::Result<()> {
                self.work.check(chain, target)
            }

            fn pose_chain(&mut self) -> &mut Vec<$crate::Transform> {
                &mut self.work.pose_chain
            }

            fn solve_chain(
                &mut self,
                chain: &mut [$crate::Transform],
                root_parent: $crate::Quat,
                target: &$crate::ChainTarget,
            ) -> $crate::Result<$crate::IkResult> {
                self.solve(chain, root_parent, target)
            }
        }

        impl $crate::ik::chain::ConstrainedSolver for $solver {
            fn work_mut(&mut self) -> &mut $crate::ik::chain::ChainWork {
                &mut self.work
            }
        }
    };
}
pub(crate) use chain_solver;

/// Solves joints `joints` of `pose` (root to tip, each the parent of the next) toward a
/// model-space target, then writes their local rotations back. Allocates nothing.
pub(crate) fn solve_pose<S: ChainSolver>(
    solver: &mut S,
    pose: &mut Pose,
    joints: &[u32],
    target: &S::Target,
) -> Result<IkResult> {
    let n = joints.len();
    check_count(n, S::MIN_JOINTS, solver.max_joints())?;
    pose.skeleton()
        .check_chain(joints.iter().map(|&j| j as usize))?;
    let parent = pose.parent_model_of(joints[0] as usize)?;
    let mut chain = std::mem::take(solver.pose_chain());
    let mut model = parent;
    for (slot, &j) in chain.iter_mut().zip(joints) {
        model = model.mul_transform(&pose.local().get(j as usize));
        *slot = model;
    }
    let outcome = chain[..n]
        .iter()
        .try_for_each(|t| finite(*t).map(drop))
        .and_then(|()| solver.solve_chain(&mut chain[..n], parent.rotation, target));
    if outcome.is_ok() {
        let mut parent_rotation = parent.rotation;
        for (t, &j) in chain[..n].iter().zip(joints) {
            let mut local = pose.local().get(j as usize);
            local.rotation = (parent_rotation.conjugate() * t.rotation).normalize();
            pose.put_local(j as usize, &local);
            parent_rotation = t.rotation;
        }
    }
    *solver.pose_chain() = chain;
    outcome
}

/// The tip's model rotation for end-rotation mode `end` and target rotation `target`, given
/// the input model rotations of the tip's parent and the tip and the parent's solved rotation.
pub(super) fn end_rotation(
    end: EndRotation,
    target: Option<Quat>,
    input_parent: Quat,
    input_tip: Quat,
    parent: Quat,
) -> Quat {
    match end {
        EndRotation::KeepModel => input_tip,
        EndRotation::CopyEffector => target.unwrap_or(input_tip),
        EndRotation::KeepLocal => (parent * (input_parent.conjugate() * input_tip)).normalize(),
    }
}

/// The model-space axis of a hinge constraint on a joint with model rotation `model`.
pub(super) fn hinge_axis(c: Option<&JointConstraint>, model: Quat) -> Option<Vec3A> {
    c.filter(|c| matches!(c.limit(), Limit::Hinge { .. }))
        .map(|c| Vec3A::from(model * c.axis()))
}

/// How far (radians) outside its limit a joint may start a turn that [`constrain_turn`]
/// carries rather than projects: rounding of an allowed rotation, not a real violation.
const TURN_FROM_SLACK: f32 = 1e-4;

/// Applies a joint's constraint to a turn: `model` is the turned model rotation under
/// `parent`, `before` the joint's local rotation before the turn. As [`constrain`], except that
/// a cone that clips the turn's swing keeps the turn's own spin about the joint's axis: the
/// axis goes by the shortest arc to where the projection puts it, carrying the spin the turn
/// asked for (then the twist range applies). Projection alone keeps the twist coordinate of the
/// overshooting rotation, and a turn pushing past the cone and pulled back along it would
/// leave a spin about the axis behind, every iteration of a chain held at its limit.
#[inline]
pub(super) fn constrain_turn(
    c: Option<&JointConstraint>,
    parent: Quat,
    model: Quat,
    before: Quat,
) -> Quat {
    let Some(c) = c else {
        return model;
    };
    let local = parent.conjugate() * model;
    let projected = c.project(local);
    if projected == local {
        return model;
    }
    if !matches!(c.limit(), Limit::Cone { .. }) || c.violation(before) > TURN_FROM_SLACK {
        return (parent * projected).normalize();
    }
    let axis = c.axis();
    let from = before * axis;
    let (_, spin) = swing_twist(local * before.conjugate(), from);
    let carried = (shortest_arc(from, projected * axis) * spin * before).normalize();
    (parent * c.project(carried)).normalize()
}

/// Applies a joint's constraint, if any, to a model rotation given its parent's model rotation.
pub(super) fn constrain(c: Option<&JointConstraint>, parent: Quat, model: Quat) -> Quat {
    let Some(c) = c else {
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

/// The shortest arc from `from` to `to` times some positive factor (callers normalize what
/// they build from it). One square root instead of two normalizations and a renormalization;
/// near-opposite, tiny or huge vectors take the robust [`shortest_arc`].
#[inline]
pub(super) fn scaled_arc(from: Vec3A, to: Vec3A) -> Quat {
    // |from| |to|, and the arc's scalar part before normalization.
    let norms = (from.length_squared() * to.length_squared()).sqrt();
    let w = norms + from.dot(to);
    // The bounds keep the squared norm of the result (2 norms w) normal; the dot bound is the
    // one `shortest_arc` uses for unit vectors.
    if norms > 1e-16 && norms < 1e16 && w > 0.01 * norms {
        let c = from.cross(to);
        Quat::from_xyzw(c.x, c.y, c.z, w)
    } else {
        shortest_arc(from.into(), to.into())
    }
}
