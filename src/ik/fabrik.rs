//! FABRIK (Aristidou & Lasenby 2011) with the semantics of Unreal's FABRIK node: precision,
//! max iterations, effector rotation source, straight lay-out for unreachable targets; plus a
//! relative tolerance, early exit when an iteration stops improving, and joint constraints.
//!
//! Beyond the paper: unconstrained, every iteration that leaves the tip off the target ends
//! with the closing step (`ik::reach`): the chain's bends scaled by one factor until the tip is
//! as far from the root as the target, then the chain swung onto it. That removes FABRIK's slow
//! convergence near full reach and makes straight chains bend toward targets on their own line,
//! while staying continuous in the input (a chain solved last frame moves a little). With
//! constraints, positions become constrained rotations after every iteration, and once the
//! passes stall the remaining iterations are constraint-aware CCD sweeps.

use glam::Vec3A;

use crate::error::Result;
use crate::ik::ccd::sweep;
use crate::ik::chain::{chain_solver, validate_iteration_settings, Aim, ChainWork, Progress};
use crate::ik::{EndRotation, IkResult};
use crate::transform::Transform;

/// FABRIK settings. Defaults follow Unreal's node, except that precision is relative.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FabrikSettings {
    /// Reach tolerance: a fraction of the chain length when `relative_precision`, else in the
    /// caller's units (Unreal's `Precision`, 1 cm by default there).
    pub precision: f32,
    /// Whether `precision` is relative to the chain length.
    pub relative_precision: bool,
    /// Most forward-and-backward iterations (Unreal's default 10).
    pub max_iterations: u32,
    /// Stop when an iteration improves the error by less than 0.1 %.
    pub stop_when_stalled: bool,
    /// The tip's rotation (Unreal's `EffectorRotationSource`, default keep local).
    pub end_rotation: EndRotation,
}

impl Default for FabrikSettings {
    fn default() -> Self {
        Self {
            precision: 1e-3,
            relative_precision: true,
            max_iterations: 10,
            stop_when_stalled: true,
            end_rotation: EndRotation::KeepLocal,
        }
    }
}

impl FabrikSettings {
    /// Checks every field is in its domain.
    pub fn validate(&self) -> Result<()> {
        validate_iteration_settings(self.precision, self.max_iterations)
    }
}

/// Fraction of the tolerance kept as margin for the rounding of the final rotation pass.
const INNER_TOLERANCE_MARGIN: f32 = 1e-3;

/// A FABRIK solver for chains of up to `max_joints` joints; all memory is allocated at creation.
#[derive(Clone, Debug)]
pub struct Fabrik {
    settings: FabrikSettings,
    work: ChainWork,
}

impl Fabrik {
    /// A solver for chains of 2 to `max_joints` joints.
    pub fn new(settings: FabrikSettings, max_joints: usize) -> Result<Self> {
        settings.validate()?;
        Ok(Self {
            settings,
            work: ChainWork::new(max_joints)?,
        })
    }

    /// [`Self::solve`] on the chain `aim` describes, loaded in the work buffers.
    fn solve_loaded(&mut self, chain: &mut [Transform], aim: Aim) -> Result<IkResult> {
        let s = self.settings;
        let n = aim.n;
        let constrained = self.work.has_constraints(n);
        let w = &mut self.work;
        // Constraints act on rotations: the input is first projected onto them, and after every
        // iteration positions become constrained rotations and back, so each iteration starts
        // from an allowed pose.
        if constrained {
            w.orient(&aim);
        }
        let start_error = w.tip_error(&aim);
        let mut iterations = 0;
        if start_error > aim.tol && !constrained && w.beyond_reach(&aim) {
            w.lay_straight(&aim);
            iterations = 1;
        } else {
            // Aim slightly inside the tolerance: the final rotation pass rebuilds positions with
            // rounding that must not push a reached chain back outside it.
            let inner = Aim {
                tol: aim.tol * (1.0 - INNER_TOLERANCE_MARGIN),
                ..aim
            };
            let mut progress = Progress::new(start_error);
            let mut sweeping = false;
            if start_error > inner.tol && w.close_first(&inner) {
                // The closing step on the input counts as the first iteration; the input is set
                // aside first, in case the step lands farther off.
                save_best(w, n, constrained);
                w.closing(&inner, start_error);
                progress.closed(w.tip_error(&inner));
                iterations = 1;
            }
            while progress.error > inner.tol && iterations < s.max_iterations {
                iterations += 1;
                if progress.at_best {
                    save_best(w, n, constrained);
                }
                if sweeping {
                    sweep(w, &inner, true, |_| (1.0, None));
                } else {
                    forward_backward(w, n, inner.goal);
                    if constrained {
                        w.orient(&inner);
                    }
                }
                // Constrained closing steps cost a projection per joint and step: only near
                // the goal (farther off, Newton steps would not get there).
                if w.tip_error(&inner) > inner.tol && (!constrained || w.near_goal(&inner)) {
                    w.closing(&inner, start_error);
                }
                let stalled = progress.next(w.tip_error(&inner));
                if stalled && constrained && !sweeping {
                    // Pass-then-project reaches a fixed point short of targets the limits allow;
                    // CCD sweeps respect each constraint as they go and get past it.
                    sweeping = true;
                } else if stalled && s.stop_when_stalled {
                    break;
                }
            }
            if !progress.at_best {
                if constrained {
                    w.restore_best_output(n);
                } else {
                    w.restore_best_positions(n);
                }
            }
        }
        if constrained {
            // CCD sweeps carry the tip along; give it its end rotation again.
            w.finish_tip(&aim);
        } else {
            w.orient(&aim);
        }
        w.store(chain, &aim, iterations)
    }
}

chain_solver!(Fabrik, FabrikSettings);

/// Remembers the best iterate: unconstrained, the passes work on positions alone (rotations
/// come once, at the end); constrained, every iterate is oriented and lives in the output.
fn save_best(w: &mut ChainWork, n: usize, constrained: bool) {
    if constrained {
        w.save_best_output(n);
    } else {
        w.save_best_positions(n);
    }
}

/// One FABRIK iteration: tip to the target and in to joint 1 (the root would only be put back),
/// then out from the root. Coincident joints fall back to the input bone, so nothing divides by
/// zero.
///
/// The passes are one long dependency chain (each joint waits on the one placed before it), so
/// the vector from the last placed joint is taken as (old position - the joint before that) -
/// last bone: the first difference does not wait for the last placed joint to be summed up.
fn forward_backward(w: &mut ChainWork, n: usize, goal: Vec3A) {
    let (positions, lengths, spans) = (&mut w.positions[..n], &w.lengths[..n], &w.spans[..n]);
    positions[n - 1] = goal;
    let mut anchor = goal;
    let mut bone = Vec3A::ZERO;
    for i in (1..n - 1).rev() {
        let d = (positions[i] - anchor) - bone;
        anchor += bone;
        bone = bone_toward(d, lengths[i], -spans[i]);
        positions[i] = anchor + bone;
    }
    anchor = positions[0];
    bone = Vec3A::ZERO;
    for i in 0..n - 1 {
        let d = (positions[i + 1] - anchor) - bone;
        anchor += bone;
        bone = bone_toward(d, lengths[i], spans[i]);
        positions[i + 1] = anchor + bone;
    }
}

/// `d` scaled to `length`, or `fallback` where the scale is zero or not finite (`d` zero, tiny
/// or huge, or a zero-length bone). One square root and one division, no normalized direction
/// first: the passes are a chain of these, each waiting on the last.
#[inline]
pub(super) fn bone_toward(d: Vec3A, length: f32, fallback: Vec3A) -> Vec3A {
    let scale = length / d.length_squared().sqrt();
    if scale > 0.0 && scale < f32::INFINITY {
        d * scale
    } else {
        fallback
    }
}
