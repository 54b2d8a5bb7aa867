//! Cyclic coordinate descent with the semantics of Unreal's CCDIK node (precision, max
//! iterations, start from tail, per-joint rotation limits in degrees) plus per-joint weights
//! (Final IK's damping), a rotating root (optionally fixed) and joint constraints.
//!
//! Constraints win over weights, `fix_root` and rotation limits: the input is first projected
//! onto them, so a joint whose input violates its constraint turns onto it even at weight 0 or
//! as a fixed root, and its rotation limit is measured from that projection. Limits hold from
//! the start on: where the projection of a parent re-aims a limited bone, the bone turns back
//! within its limit.

use glam::{Quat, Vec3A};

use crate::constraint::JointConstraint;
use crate::error::{ensure_finite, Error, ErrorKind, Result};
use crate::ik::chain::{
    chain_solver, constrain_turn, joint_slot, scaled_arc, validate_iteration_settings, Aim,
    ChainWork, Progress,
};
use crate::ik::{EndRotation, IkResult};
use crate::rotation;
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
    /// (or from the input's projection onto the joint's constraint, where the input breaks it)
    /// during a solve (Unreal's `RotationLimitPerJoints`); 180 is unlimited. The tip's rotation
    /// follows the end-rotation mode instead.
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
    /// Local rotations of the input projected onto the constraints: what the per-joint rotation
    /// limits are measured from.
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

    /// Sets chain joint `joint`'s rotation limit and weight.
    pub fn set_joint(&mut self, joint: usize, tuning: CcdJoint) -> Result<()> {
        tuning.validate()?;
        *joint_slot(&mut self.joints, joint)? = tuning;
        Ok(())
    }

    /// [`Self::solve`] on the chain `aim` describes, loaded in the work buffers.
    fn solve_loaded(&mut self, chain: &mut [Transform], mut aim: Aim) -> Result<IkResult> {
        let s = self.settings;
        aim.first = usize::from(s.fix_root);
        let n = aim.n;
        // Per-joint limits and weights shape each sweep; only plain chains take closing steps.
        let plain = self.joints[..n].iter().all(CcdJoint::is_default);
        let free = plain && !s.fix_root && !self.work.has_constraints(n);
        let w = &mut self.work;
        let mut iterations = 0;
        if w.tip_error(&aim) > aim.tol && free && w.beyond_reach(&aim) {
            // What unlimited CCD converges to for an unreachable target, in one pass.
            w.lay_straight(&aim);
            w.orient(&aim);
            return w.store(chain, &aim, 1);
        }
        // What the rotation limits count from (unlimited joints need no projection).
        let mut parent = aim.root_parent;
        for i in 0..n {
            let local = parent.conjugate() * self.work.input[i].rotation;
            let limited = self.joints[i].rotation_limit_degrees < 180.0;
            self.input_local[i] = match self.work.constraint(i) {
                Some(c) if limited => c.project(local),
                _ => local,
            };
            parent = self.work.input[i].rotation;
        }
        // Start from the input projected onto the constraints.
        self.start(&aim);
        let w = &mut self.work;
        let start_error = w.tip_error(&aim);
        let mut progress = Progress::new(start_error);
        if plain && start_error > aim.tol && w.close_first(&aim) {
            // The closing step on the input counts as the first iteration; the input is set
            // aside first, in case the step lands farther off.
            w.save_best_output(n);
            if w.closing(&aim, start_error) {
                if free {
                    w.orient(&aim);
                }
                progress.closed(w.tip_error(&aim));
                iterations = 1;
            }
        }
        while progress.error > aim.tol && iterations < s.max_iterations {
            iterations += 1;
            if progress.at_best {
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
            sweep(w, &aim, s.start_from_tail, tuning);
            // Constrained closing steps cost a projection per joint and step: only near the
            // goal (farther off, Newton steps would not get there).
            if plain && w.tip_error(&aim) > aim.tol && (free || w.near_goal(&aim)) {
                let moved = w.closing(&aim, start_error);
                if moved && free {
                    w.orient(&aim);
                }
            }
            if progress.next(w.tip_error(&aim)) && s.stop_when_stalled {
                break;
            }
        }
        if !progress.at_best {
            self.work.restore_best_output(n);
        }
        let w = &mut self.work;
        w.finish_tip(&aim);
        w.store(chain, &aim, iterations)
    }

    /// Sets the output to the working positions turned into (constrained) rotations; a fixed
    /// root keeps its input rotation exactly (projected only if a constraint of its own says so).
    /// Then [`Self::hold_limits`]: the sweeps keep every limit only if they start within them.
    fn start(&mut self, aim: &Aim) {
        let w = &mut self.work;
        w.orient(aim);
        if self.settings.fix_root {
            w.output[0].rotation = w.constrained(0, aim.root_parent, w.input[0].rotation);
        }
        self.hold_limits(aim);
    }

    /// Turns each joint (but the tip) that the projected start turned past its rotation limit
    /// back within it, root to tip, and onto its constraint: a parent's projection re-aims its
    /// children's bones at their input positions, which can turn an unconstrained child any
    /// amount. The joints after one that turned back keep their local rotations (so their
    /// constraints and limits still hold) and positions follow by forward kinematics. A start
    /// within every limit is left as it is, bit for bit.
    fn hold_limits(&mut self, aim: &Aim) {
        let n = aim.n;
        let w = &mut self.work;
        let (mut old_parent, mut parent) = (aim.root_parent, aim.root_parent);
        let mut moved = false;
        for i in 0..n {
            if moved {
                let pos = w.positions[i - 1] + parent * w.bones[i - 1];
                w.positions[i] = pos;
                w.output[i].translation = pos.into();
            }
            let old = w.output[i].rotation;
            let mut local = old_parent.conjugate() * old;
            old_parent = old;
            let t = self.joints[i];
            let (reference, max_angle) =
                (self.input_local[i], t.rotation_limit_degrees.to_radians());
            if i < n - 1
                && t.rotation_limit_degrees < 180.0
                && !within_limit(reference, local, max_angle)
            {
                local = limit_deviation(reference, local, max_angle);
                if let Some(c) = w.constraint(i) {
                    local = constrain_within_limit(c, reference, max_angle, reference, local);
                }
                moved = true;
            }
            if moved {
                w.output[i].rotation = (parent * local).normalize();
            }
            parent = w.output[i].rotation;
        }
    }
}

chain_solver!(Ccd, CcdSettings);

/// One CCD sweep on `w`'s output chain over joints `first..n - 1`, tip side first or root
/// first: each joint turns so the tip points at the goal, by the fraction and within the limit
/// `tuning(i)` gives (weight, optional reference local rotation and max angle), and then onto
/// its constraint, back within the limit if that left it ([`constrain_within_limit`]: a joint
/// that starts within both ends within both); descendants follow rigidly, positions (output
/// and working) by forward kinematics (lengths never drift). FABRIK sweeps too, once its passes stall on constraints.
///
/// Only the tip is carried along joint by joint; the other descendants are brought up to
/// date once, at the end, which keeps a sweep linear in the chain length.
pub(crate) fn sweep(
    w: &mut ChainWork,
    aim: &Aim,
    from_tail: bool,
    tuning: impl Fn(usize) -> (f32, Option<(Quat, f32)>),
) {
    let (n, first, root_parent, goal) = (aim.n, aim.first, aim.root_parent, aim.goal);
    let mut tip = Vec3A::from(w.output[n - 1].translation);
    let turn = |w: &ChainWork, i: usize, parent: Quat, current: Quat, pivot: Vec3A, tip: Vec3A| {
        let (weight, limit) = tuning(i);
        let mut arc = scaled_arc(tip - pivot, goal - pivot);
        if weight < 1.0 {
            arc = Quat::from_scaled_axis(arc.normalize().to_scaled_axis() * weight);
        }
        let mut local = parent.conjugate() * (arc * current).normalize();
        if let Some((reference, max_angle)) = limit {
            local = limit_deviation(reference, local, max_angle);
        }
        let before = parent.conjugate() * current;
        let c = w.constraint(i);
        let model = constrain_turn(c, parent, (parent * local).normalize(), before);
        match (c, limit) {
            (Some(c), Some((reference, max_angle))) => {
                let local = parent.conjugate() * model;
                if within_limit(reference, local, max_angle) {
                    model
                } else {
                    let local = constrain_within_limit(c, reference, max_angle, before, local);
                    (parent * local).normalize()
                }
            }
            _ => model,
        }
    };
    if from_tail {
        // Joints nearer the root are untouched until their own turn; joint j ends up turned
        // by the turns of joints first..=j, the root side's applied last.
        for i in (first..n - 1).rev() {
            let parent = if i == 0 {
                root_parent
            } else {
                w.output[i - 1].rotation
            };
            let current = w.output[i].rotation;
            let pivot = Vec3A::from(w.output[i].translation);
            let rotation = turn(w, i, parent, current, pivot, tip);
            let delta = rotation * current.conjugate();
            w.deltas[i] = delta;
            w.output[i].rotation = rotation;
            tip = pivot + delta * (tip - pivot);
        }
        let mut carried = Quat::IDENTITY;
        let mut pos = Vec3A::from(w.output[first].translation);
        for j in first..n {
            let t = &mut w.output[j];
            if j > first {
                t.rotation = (carried * t.rotation).normalize();
                t.translation = pos.into();
                w.positions[j] = pos;
            }
            if j < n - 1 {
                pos += t.rotation * w.bones[j];
                carried *= w.deltas[j];
            }
        }
    } else {
        // Each joint is final once turned; `carried` is what the joints after it have
        // turned by so far, and `pivot` where forward kinematics puts the next joint.
        let mut carried = Quat::IDENTITY;
        let mut pivot = Vec3A::from(w.output[first].translation);
        let mut parent = if first == 0 {
            root_parent
        } else {
            w.output[first - 1].rotation
        };
        for i in first..n - 1 {
            let current = (carried * w.output[i].rotation).normalize();
            let rotation = turn(w, i, parent, current, pivot, tip);
            let delta = rotation * current.conjugate();
            w.output[i].rotation = rotation;
            w.output[i].translation = pivot.into();
            w.positions[i] = pivot;
            tip = pivot + delta * (tip - pivot);
            carried = delta * carried;
            pivot += rotation * w.bones[i];
            parent = rotation;
        }
        let t = &mut w.output[n - 1];
        t.rotation = (carried * t.rotation).normalize();
        t.translation = pivot.into();
        w.positions[n - 1] = pivot;
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

/// Slack (radians) of the rotation limit and the constraint in [`constrain_within_limit`]:
/// rounding of a rotation on their edge, not a real overshoot.
const LIMIT_SLACK: f32 = 1e-5;

/// Bisection steps of [`constrain_within_limit`].
const LIMIT_STEPS: usize = 24;

/// Whether local rotation `local` lies within `max_angle` radians (plus [`LIMIT_SLACK`]) of
/// `reference`.
fn within_limit(reference: Quat, local: Quat, max_angle: f32) -> bool {
    rotation::angle(reference.conjugate() * local) <= max_angle + LIMIT_SLACK
}

/// A joint's local rotation `proposed` moved onto its constraint `c` and within `max_angle` of
/// `reference`: its projection when that is within the limit, else the farthest point along
/// the turn from `valid` (a rotation both allow) toward that projection that both allow, as
/// far as [`LIMIT_STEPS`] bisection steps tell. Projection can take a rotation the limit
/// allows back past it (a constraint need not contain the shortest way to its edge).
fn constrain_within_limit(
    c: &JointConstraint,
    reference: Quat,
    max_angle: f32,
    valid: Quat,
    proposed: Quat,
) -> Quat {
    let projected = c.project(proposed);
    if within_limit(reference, projected, max_angle) {
        return projected;
    }
    let mut delta = valid.conjugate() * projected;
    if delta.w < 0.0 {
        delta = -delta;
    }
    let turn = delta.to_scaled_axis();
    let at = |t: f32| (valid * Quat::from_scaled_axis(turn * t)).normalize();
    let allowed = |q: Quat| within_limit(reference, q, max_angle) && c.violation(q) <= LIMIT_SLACK;
    let (mut lo, mut hi) = (0.0f32, 1.0f32);
    for _ in 0..LIMIT_STEPS {
        let mid = 0.5 * (lo + hi);
        if allowed(at(mid)) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    if lo == 0.0 {
        valid
    } else {
        at(lo)
    }
}
