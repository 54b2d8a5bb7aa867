//! Aim / look-at chains: turn a chain of joints (spine to head, or one joint) so that an aim
//! axis of its last joint, from an optional offset point (muzzle, eyes), points at a target.
//!
//! The aim is one model-space rotation (the minimal arc from the input's aim direction,
//! corrected pass by pass as an offset origin moves), limited as a whole and shared out among
//! the joints by weight: every joint turns about its axis, so the shares add up exactly and each
//! joint's turn is its share. With an up target the last joint then rolls about its aim axis.
//! The README ("Aim and look-at") states the rules this module implements.

use glam::{Quat, Vec3};

use crate::error::{ensure_finite, Error, ErrorKind, Result};
use crate::ik::chain::{check_count, joint_slot};
use crate::ik::IkResult;
use crate::math;
use crate::pose::Pose;
use crate::rotation::{angle, perpendicular_dir, shortest_arc};
use crate::transform::{overflow, validated_transform, Transform};

/// Aim settings. Defaults: aim along +X and up along +Y of the last joint (the bone axis of
/// Sinew's and Unreal's rigs, Unreal's LookAt default), no offset, full weight, no limit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AimIkSettings {
    /// Direction in the last joint's frame that should point at the target (any length but
    /// zero; normalized).
    pub aim_axis: Vec3,
    /// Direction in the last joint's frame turned toward the up target (not parallel to
    /// `aim_axis`; only its part perpendicular to `aim_axis` counts).
    pub up_axis: Vec3,
    /// The aim origin in the last joint's frame (scaled by its scale), e.g. a muzzle or the
    /// eyes; it need not lie on the aim axis.
    pub aim_offset: Vec3,
    /// Whether the up target is a model-space position (a pole) rather than a direction.
    pub up_is_position: bool,
    /// Overall weight (alpha) in [0, 1]: every joint turns by this fraction of its share.
    pub weight: f32,
    /// Largest total turn of the chain in degrees, in [0, 180]; 180 is unlimited.
    pub max_angle_degrees: f32,
    /// Residual aim angle (radians) under which a solve counts as reached and stops.
    pub tolerance: f32,
    /// Most passes (each shares the turn out again after the offset point moved); passes also
    /// stop once one gains less than 0.1 % on the best residual so far.
    pub max_iterations: u32,
}

impl Default for AimIkSettings {
    fn default() -> Self {
        Self {
            aim_axis: Vec3::X,
            up_axis: Vec3::Y,
            aim_offset: Vec3::ZERO,
            up_is_position: false,
            weight: 1.0,
            max_angle_degrees: 180.0,
            tolerance: 1e-4,
            max_iterations: 16,
        }
    }
}

/// Sine of the angle between the up target and the aim direction under which the roll fades
/// out linearly (in the sine): 10 degrees.
const ROLL_FADE_SINE: f32 = 0.173_648_18;

/// Relative gain on the best residual under which a pass counts as stalled.
const STALL_RATIO: f32 = 1e-3;

/// Smallest length of the up axis's part perpendicular to the aim axis (both normalized).
const MIN_UP_PERPENDICULAR: f32 = 1e-3;

impl AimIkSettings {
    /// Checks every field is in its domain.
    pub fn validate(&self) -> Result<()> {
        let v = |ok: bool, what: &str| ensure_finite(ok, what);
        v(self.aim_axis.is_finite(), "aim_axis")?;
        v(self.up_axis.is_finite(), "up_axis")?;
        v(self.aim_offset.is_finite(), "aim_offset")?;
        v(self.weight.is_finite(), "weight")?;
        v(self.max_angle_degrees.is_finite(), "max_angle_degrees")?;
        v(self.tolerance.is_finite(), "tolerance")?;
        let invalid = |m: String| Err(Error::new(ErrorKind::InvalidArgument, m));
        let Some(aim) = direction(self.aim_axis) else {
            return invalid("aim_axis must not be zero".into());
        };
        let up = direction(self.up_axis).unwrap_or(Vec3::ZERO);
        if perpendicular_dir(up, aim, MIN_UP_PERPENDICULAR).is_none() {
            return invalid("up_axis must be non-zero and not parallel to aim_axis".into());
        }
        if !(0.0..=1.0).contains(&self.weight) {
            return invalid(format!("weight {} is outside [0, 1]", self.weight));
        }
        if !(0.0..=180.0).contains(&self.max_angle_degrees) {
            let a = self.max_angle_degrees;
            return invalid(format!("max_angle_degrees {a} is outside [0, 180]"));
        }
        if self.tolerance <= 0.0 {
            return invalid(format!("tolerance {} must be positive", self.tolerance));
        }
        if self.max_iterations == 0 {
            return invalid("max_iterations must be at least 1".into());
        }
        Ok(())
    }
}

/// One joint's share of the turn and its limit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AimJoint {
    /// Relative share of the turn, at least 0 (0: the joint does not turn). Default 1.
    pub weight: f32,
    /// Largest turn of the joint from its input rotation, in degrees in [0, 180]. Default 180.
    pub max_angle_degrees: f32,
}

impl Default for AimJoint {
    fn default() -> Self {
        Self {
            weight: 1.0,
            max_angle_degrees: 180.0,
        }
    }
}

impl AimJoint {
    /// Checks the weight and limit are in their domains.
    pub fn validate(&self) -> Result<()> {
        ensure_finite(self.weight.is_finite(), "joint weight")?;
        ensure_finite(
            self.max_angle_degrees.is_finite(),
            "joint max_angle_degrees",
        )?;
        if self.weight < 0.0 || !(0.0..=180.0).contains(&self.max_angle_degrees) {
            return Err(Error::new(
                ErrorKind::InvalidArgument,
                format!(
                    "joint weight {} must be at least 0 and max_angle_degrees {} in [0, 180]",
                    self.weight, self.max_angle_degrees
                ),
            ));
        }
        Ok(())
    }
}

/// What to aim at, in the chain's model space.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AimTarget {
    /// The point the aim axis should pass through.
    pub position: Vec3,
    /// Up target: a direction, or a position when `up_is_position` is set. `None`: minimal
    /// roll.
    pub up: Option<Vec3>,
}

impl AimTarget {
    /// A target without up control.
    pub fn at(position: Vec3) -> Self {
        Self { position, up: None }
    }

    /// The target with up target `up`.
    pub fn with_up(self, up: Vec3) -> Self {
        Self {
            up: Some(up),
            ..self
        }
    }

    fn check(&self) -> Result<()> {
        ensure_finite(self.position.is_finite(), "target position")?;
        ensure_finite(self.up.is_none_or(|u| u.is_finite()), "up target")
    }
}

/// An aim solver for chains of 1 to `max_joints` joints; all memory is allocated at creation.
#[derive(Clone, Debug)]
pub struct AimIk {
    settings: AimIkSettings,
    joints: Vec<AimJoint>,
    /// Validated input chain.
    input: Vec<Transform>,
    /// The chain being built (copied to the caller's only on success).
    output: Vec<Transform>,
    /// Each joint's turn in radians.
    shares: Vec<f32>,
    /// Model-space chain of a pose-level solve.
    pose_chain: Vec<Transform>,
}

/// The limit rule: turns up to `limit` are taken whole; past it the chain holds at the limit
/// while the target is less than halfway from the limit to exactly behind (`behind`: the angle
/// between the input's aim axis and the direction from the input's aim origin to the target),
/// then eases linearly back to no turn at exactly behind, so a target crossing behind never
/// flips the chain to the other side.
pub(crate) fn limited_turn(turn: f32, behind: f32, limit: f32) -> f32 {
    use std::f32::consts::PI;
    if turn <= limit || limit >= PI {
        return turn.min(limit);
    }
    let hold_until = 0.5 * (PI + limit);
    if behind <= hold_until {
        limit
    } else {
        (limit * (PI - behind) / (PI - hold_until)).clamp(0.0, limit)
    }
}

/// Shares `total` radians out by weight under per-joint caps (water filling): joint `i` turns
/// `min(cap_i, lambda * weight_i)` with one `lambda` for the chain, so the turns add up to
/// `total` (which must not exceed the caps of the weighted joints).
pub(crate) fn share_out(total: f32, joints: &[AimJoint], shares: &mut [f32]) {
    // A negative share marks a joint still free to take more.
    for (s, j) in shares.iter_mut().zip(joints) {
        *s = if j.weight > 0.0 && j.max_angle_degrees > 0.0 {
            -1.0
        } else {
            0.0
        };
    }
    let mut remaining = total;
    loop {
        let free: f32 = joints
            .iter()
            .zip(shares.iter())
            .filter(|(_, s)| **s < 0.0)
            .map(|(j, _)| j.weight)
            .sum();
        if free <= 0.0 {
            return;
        }
        let lambda = remaining.max(0.0) / free;
        let mut capped = false;
        for (s, j) in shares.iter_mut().zip(joints) {
            let cap = j.max_angle_degrees.to_radians();
            if *s < 0.0 && lambda * j.weight >= cap {
                *s = cap;
                remaining -= cap;
                capped = true;
            }
        }
        if !capped {
            for (s, j) in shares.iter_mut().zip(joints) {
                if *s < 0.0 {
                    *s = lambda * j.weight;
                }
            }
            return;
        }
    }
}

impl AimIk {
    /// A solver for chains of 1 to `max_joints` joints, every joint at weight 1, unlimited.
    pub fn new(settings: AimIkSettings, max_joints: usize) -> Result<Self> {
        settings.validate()?;
        let max = crate::skeleton::MAX_JOINTS;
        if !(1..=max).contains(&max_joints) {
            return Err(Error::new(
                ErrorKind::OutOfRange,
                format!("max_joints {max_joints} is outside 1..={max}"),
            ));
        }
        Ok(Self {
            settings,
            joints: vec![AimJoint::default(); max_joints],
            input: vec![Transform::IDENTITY; max_joints],
            output: vec![Transform::IDENTITY; max_joints],
            shares: vec![0.0; max_joints],
            pose_chain: vec![Transform::IDENTITY; max_joints],
        })
    }

    /// Current settings.
    pub fn settings(&self) -> &AimIkSettings {
        &self.settings
    }

    /// Replaces the settings (unchanged on error).
    pub fn set_settings(&mut self, settings: AimIkSettings) -> Result<()> {
        settings.validate()?;
        self.settings = settings;
        Ok(())
    }

    /// Largest chain this solver accepts.
    pub fn max_joints(&self) -> usize {
        self.joints.len()
    }

    /// Sets chain joint `joint`'s weight and limit (0 is the chain's root).
    pub fn set_joint(&mut self, joint: usize, tuning: AimJoint) -> Result<()> {
        tuning.validate()?;
        *joint_slot(&mut self.joints, joint)? = tuning;
        Ok(())
    }

    /// Chain joint `joint`'s weight and limit.
    pub fn joint(&self, joint: usize) -> Option<&AimJoint> {
        self.joints.get(joint)
    }

    /// Turns a model-space chain (root first, each joint the parent of the next; the root
    /// stays in place) so the last joint's aim axis points at the target. `error` in the
    /// result is the residual angle in radians between the aim axis and the direction from
    /// the aim origin to the target. On error the chain is untouched.
    pub fn solve(&mut self, chain: &mut [Transform], target: &AimTarget) -> Result<IkResult> {
        let n = chain.len();
        check_count(n, 1, self.max_joints())?;
        for (i, (slot, t)) in self.input.iter_mut().zip(chain.iter()).enumerate() {
            *slot = validated_transform(t, || format!("chain transform {i}"))?;
        }
        target.check()?;
        let result = self.solve_loaded(n, target);
        if !(result.error.is_finite() && self.output[..n].iter().all(Transform::is_finite)) {
            return Err(overflow());
        }
        chain.copy_from_slice(&self.output[..n]);
        Ok(result)
    }

    /// Solves joints `joints` of `pose` (root to tip, each the parent of the next) and writes
    /// their local rotations back.
    pub fn solve_pose(
        &mut self,
        pose: &mut Pose,
        joints: &[u32],
        target: &AimTarget,
    ) -> Result<IkResult> {
        crate::ik::chain::solve_pose(self, pose, joints, target)
    }

    /// The solve on the loaded input `self.input[..n]`, into `self.output[..n]`.
    fn solve_loaded(&mut self, n: usize, target: &AimTarget) -> IkResult {
        let s = self.settings;
        let aim_local = direction(s.aim_axis).unwrap_or(Vec3::X);
        let up = direction(s.up_axis).unwrap_or(Vec3::Y);
        let up_local = perpendicular_dir(up, aim_local, 0.0).unwrap_or(Vec3::Y);
        let limit = self.limit(n);
        let roll_limit = self.joints[n - 1].max_angle_degrees.to_radians();
        let goal = target.position;
        let tip_in = self.input[n - 1];
        let behind = residual(&tip_in, aim_local, s.aim_offset, goal);
        let toward = swing(
            tip_in.rotation * aim_local,
            goal - tip_in.transform_point(s.aim_offset),
            tip_in.rotation * up_local,
        );
        self.output[..n].copy_from_slice(&self.input[..n]);
        let (mut turn, mut roll) = (Quat::IDENTITY, 0.0);
        let mut best = f32::INFINITY;
        let mut iterations = 0;
        while iterations < s.max_iterations {
            iterations += 1;
            let tip = self.output[n - 1];
            let aim = desired_direction(&tip, aim_local, s.aim_offset, goal);
            let current = tip.rotation * aim_local;
            // The swing is the turn less the last joint's roll, which came after it.
            let swing_rotation = Quat::from_axis_angle(current, -roll) * tip.rotation;
            let step = swing(current, aim, swing_rotation * up_local);
            let mut next = (step * turn).normalize();
            if angle(next) > limit {
                // Past the limit the aim is out of reach: the chain turns as far as the limit
                // rule allows along the arc from the input's aim toward the target seen from the
                // input's aim origin, which stays put as passes move the chain (arcs toward a
                // direction found from the moving origin swing about wildly near behind).
                next = limit_rotation(toward, behind, limit);
            }
            let change = angle(next * turn.conjugate());
            turn = next;
            self.turn_chain(n, turn, 1.0);
            let last_roll = roll;
            roll = self.roll_toward(n, target.up, up_local, aim_local, roll_limit);
            let residual = residual(&self.output[n - 1], aim_local, s.aim_offset, goal);
            let settled = change.max((roll - last_roll).abs()) <= 0.01 * s.tolerance;
            // A pass that gains less than 0.1 % on the best residual so far stops the passes
            // (an aim out of reach, or a target inside the offset, need not settle at all).
            let stalled = residual > best * (1.0 - STALL_RATIO);
            best = best.min(residual);
            if residual <= s.tolerance || settled || stalled {
                break;
            }
        }
        if s.weight < 1.0 {
            self.turn_chain(n, turn, s.weight);
            self.apply_roll(n, roll * s.weight, aim_local);
        }
        let error = residual(&self.output[n - 1], aim_local, s.aim_offset, goal);
        IkResult {
            reached: error <= s.tolerance,
            error,
            iterations,
        }
    }

    /// The most the chain turns: the overall limit, and the sum of the limits of the joints
    /// that take a share.
    fn limit(&self, n: usize) -> f32 {
        let joints: f32 = self.joints[..n]
            .iter()
            .filter(|j| j.weight > 0.0)
            .map(|j| j.max_angle_degrees.to_radians())
            .sum();
        self.settings.max_angle_degrees.to_radians().min(joints)
    }

    /// Rebuilds the output from the input with `turn` shared out (each share scaled by
    /// `weight`): joint `i` turns its subtree by its share about `turn`'s axis, about its own
    /// position.
    fn turn_chain(&mut self, n: usize, turn: Quat, weight: f32) {
        let turn = if turn.w < 0.0 { -turn } else { turn };
        let axis = Vec3::new(turn.x, turn.y, turn.z).try_normalize();
        let total = angle(turn);
        share_out(total, &self.joints[..n], &mut self.shares[..n]);
        let mut sum = 0.0;
        let mut moved = Quat::IDENTITY;
        let mut turned = false;
        for i in 0..n {
            let input = self.input[i];
            let translation = if turned {
                let parent_in = self.input[i - 1].translation;
                self.output[i - 1].translation + moved * (input.translation - parent_in)
            } else {
                input.translation
            };
            let share = self.shares[i] * weight;
            if let (Some(axis), true) = (axis, share > 0.0) {
                sum += share;
                moved = Quat::from_axis_angle(axis, sum);
                turned = true;
            }
            let rotation = if turned {
                (moved * input.rotation).normalize()
            } else {
                input.rotation
            };
            self.output[i] = Transform {
                translation,
                rotation,
                ..input
            };
        }
    }
}

impl AimIk {
    /// Rolls the last joint about its aim axis so its up axis turns toward the up target (none
    /// without one, or where it lies along the aim), as far as the joint's limit allows;
    /// returns the roll in radians.
    fn roll_toward(
        &mut self,
        n: usize,
        up: Option<Vec3>,
        up_local: Vec3,
        aim_local: Vec3,
        limit: f32,
    ) -> f32 {
        let tip = self.output[n - 1];
        let aim = tip.rotation * aim_local;
        let up = up.map(|u| {
            if self.settings.up_is_position {
                u - tip.translation
            } else {
                u
            }
        });
        let Some(up) = up.and_then(Vec3::try_normalize) else {
            return 0.0;
        };
        let Some(wanted) = perpendicular_dir(up, aim, 1e-6) else {
            return 0.0;
        };
        // Near the aim line the roll toward the up target is ill-defined: it fades out.
        let fade = (up.cross(aim).length() / ROLL_FADE_SINE).min(1.0);
        let Some(current) = perpendicular_dir(tip.rotation * up_local, aim, 0.0) else {
            return 0.0;
        };
        let mut roll = fade * math::atan2(current.cross(wanted).dot(aim), current.dot(wanted));
        // The joint's whole turn (its share of the aim, then the roll) stays within its limit:
        // the roll is shortened by bisection where it would not.
        let input = self.input[n - 1].rotation;
        let over = |r: f32| {
            angle(Quat::from_axis_angle(aim, r) * tip.rotation * input.conjugate()) > limit
        };
        if over(roll) {
            let (mut lo, mut hi) = (0.0, 1.0);
            for _ in 0..24 {
                let mid = 0.5 * (lo + hi);
                if over(roll * mid) {
                    hi = mid;
                } else {
                    lo = mid;
                }
            }
            roll *= lo;
        }
        self.apply_roll(n, roll, aim_local);
        roll
    }

    /// Turns the last joint by `roll` radians about its aim axis.
    fn apply_roll(&mut self, n: usize, roll: f32, aim_local: Vec3) {
        if roll != 0.0 {
            let tip = &mut self.output[n - 1];
            let aim = tip.rotation * aim_local;
            tip.rotation = (Quat::from_axis_angle(aim, roll) * tip.rotation).normalize();
        }
    }
}

/// The direction the aim axis should take, given the last joint as it stands: the turn about
/// the joint that makes the aim line pass through `goal`. The aim line lies at `h` from the
/// joint (its perpendicular offset); the point `h + s * aim` with `|h|^2 + s^2 = |goal - joint|^2`
/// is turned onto the goal. Where the offset is larger than the goal's distance (`s` would be
/// imaginary), `s` is 0: the line passes as near the goal as it can.
fn desired_direction(tip: &Transform, aim_local: Vec3, offset: Vec3, goal: Vec3) -> Vec3 {
    let aim = tip.rotation * aim_local;
    // Scaled to the goal's distance, so no square below overflows.
    let v = goal - tip.translation;
    let k = 1.0 / v.abs().max_element();
    if !(k.is_finite() && k > 0.0) {
        return aim;
    }
    let (v, to_origin) = (v * k, tip.rotation * (tip.scale * offset) * k);
    if (v - to_origin).length_squared() <= 1e-12 * to_origin.length_squared() {
        // The goal at the aim origin (to 1e-6 of the offset): every direction points at it.
        return aim;
    }
    let h = to_origin - aim * to_origin.dot(aim);
    let s = (v.length_squared() - h.length_squared()).max(0.0).sqrt();
    shortest_arc(h + aim * s, v) * aim
}

/// The minimal arc from `from` to `to`; within 1e-6 rad of a half turn, the half turn about
/// `up`, the last joint's up axis (made perpendicular to `from`).
fn swing(from: Vec3, to: Vec3, up: Vec3) -> Quat {
    if from.cross(to).length() < 1e-6 && from.dot(to) < 0.0 {
        let axis = perpendicular_dir(up, from, 0.0).unwrap_or(from.any_orthonormal_vector());
        Quat::from_axis_angle(axis, std::f32::consts::PI)
    } else {
        shortest_arc(from, to)
    }
}

/// `v` normalized, robust to huge and tiny finite components; `None` for zero.
fn direction(v: Vec3) -> Option<Vec3> {
    let m = v.abs().max_element();
    (m > 0.0 && m.is_finite()).then(|| (v / m).normalize())
}

/// `q` with its angle passed through [`limited_turn`].
fn limit_rotation(q: Quat, behind: f32, limit: f32) -> Quat {
    let q = if q.w < 0.0 { -q } else { q };
    let Some(axis) = Vec3::new(q.x, q.y, q.z).try_normalize() else {
        return Quat::IDENTITY;
    };
    let turn = angle(q);
    let limited = limited_turn(turn, behind, limit);
    if limited == turn {
        q
    } else {
        Quat::from_axis_angle(axis, limited)
    }
}

/// Angle in radians between the aim axis and the direction from the aim origin to `goal`;
/// 0 when the goal is at the origin.
fn residual(tip: &Transform, aim_local: Vec3, offset: Vec3, goal: Vec3) -> f32 {
    let aim = tip.rotation * aim_local;
    let d = goal - tip.transform_point(offset);
    let Some(d) = direction(d) else {
        return 0.0;
    };
    math::atan2(aim.cross(d).length(), aim.dot(d))
}

impl crate::ik::chain::ChainSolver for AimIk {
    type Target = AimTarget;
    const MIN_JOINTS: usize = 1;

    fn max_joints(&self) -> usize {
        self.joints.len()
    }

    fn check(&self, chain: &[Transform], target: &AimTarget) -> Result<()> {
        check_count(chain.len(), 1, self.max_joints())?;
        for (i, t) in chain.iter().enumerate() {
            validated_transform(t, || format!("chain transform {i}"))?;
        }
        target.check()
    }

    fn pose_chain(&mut self) -> &mut Vec<Transform> {
        &mut self.pose_chain
    }

    fn solve_chain(
        &mut self,
        chain: &mut [Transform],
        _: Quat,
        target: &AimTarget,
    ) -> Result<IkResult> {
        self.solve(chain, target)
    }
}
