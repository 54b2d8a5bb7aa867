//! The chain solvers' closing step: an exact, continuous correction of an iterate whose tip
//! is off the target, which removes the slow convergence of FABRIK and CCD near full reach
//! without restarting from a fixed shape (a chain solved last frame only bends or unbends a
//! little and turns).
//!
//! - Tip nearer the root than the target: every bend of the chain (the turn between
//!   consecutive bone directions, carried along the chain) is scaled down by one common factor
//!   until the tip is as far from the root as the target, then the chain is swung about the
//!   root onto it. The bends fade together, so as the target leaves the reach the chain
//!   straightens evenly instead of all at once.
//! - Tip farther: the chain is split at its middle joint (by length) into two rigid halves,
//!   solved as a two-bone chain (law of cosines) in the plane of the root, the target and the
//!   middle joint. Bending at one joint turns the bones least for a given change of reach. A
//!   straight chain (middle joint on the root–target line) bends toward a direction the caller
//!   fixes in the root bone's frame.
//!
//! Also here, for the other kinds of closing step `ik::chain` takes: damped least-squares
//! (Newton) steps on the tip position, for free joints and hinges ([`newton_direction`],
//! [`newton_turn`], [`newton_step`]), and the even arc that frees a chain stuck on the
//! root–goal line ([`on_goal_line`], [`lay_arc`]).

use std::f32::consts::PI;

use glam::{Quat, Vec3A};

use crate::math;
use crate::rotation::{perpendicular_unit, shortest_arc};

/// The closing step turns no bone by more than this times the square root of the error (the
/// larger of the input's and the iterate's) over the chain length (radians). Near full reach
/// exact solutions move as the square root of the target's motion (a bend of angle a shortens
/// a bone pair by about a^2 / 8 of its length), which this admits; a larger turn means the
/// step is ill-conditioned for this iterate (a middle joint nearly straight far from full
/// reach), and the solver's own iterations go on instead.
const TURN_PER_SQRT_ERROR: f32 = 3.0;

/// Root-finding steps at most (the bracketed secant converges in about ten).
const MAX_STEPS: usize = 64;

/// Scratch of the closing step, one entry per joint.
pub(crate) struct Scratch<'a> {
    /// Each bone's bend from the previous bone, as a rotation vector in the frame carried
    /// along the chain (parallel transport).
    pub bends: &'a mut [Vec3A],
    /// The positions the step proposes.
    pub candidate: &'a mut [Vec3A],
}

/// Moves `positions` (root first, bone `j` from joint `j` to `j + 1` with length
/// `lengths[j]`) so that the tip lands on `goal` within `tol / 4`, keeping the root and every
/// bone length. `start_error` is how far the solve's input was from `goal` (the step may turn
/// bones as much as that calls for; see [`TURN_PER_SQRT_ERROR`]). `straight_bend` gives, for
/// the root–goal direction, a unit direction perpendicular to it toward which a straight chain
/// bends. Returns false, leaving `positions` untouched, when the goal is out of this step's
/// reach (beyond the chain, or nearer than its halves fold to) or when some bone would turn
/// by more than [`TURN_PER_SQRT_ERROR`] allows.
pub(crate) fn close(
    positions: &mut [Vec3A],
    lengths: &[f32],
    scratch: Scratch,
    goal: Vec3A,
    tol: f32,
    start_error: f32,
    straight_bend: impl FnOnce(Vec3A) -> Vec3A,
) -> bool {
    let n = positions.len();
    if n < 3 {
        return false;
    }
    let root = positions[0];
    let to_goal = goal - root;
    let d = to_goal.length();
    let length: f32 = lengths.iter().sum();
    if !(d < length && d > length * 1e-6) {
        return false;
    }
    let candidate = scratch.candidate;
    candidate[0] = root;
    let reach = (positions[n - 1] - root).length();
    let placed = if reach < d {
        unbend(
            positions,
            lengths,
            scratch.bends,
            goal,
            0.25 * tol,
            candidate,
        )
    } else {
        split(positions, lengths, goal, straight_bend, candidate)
    };
    if !placed {
        return false;
    }
    let error = (positions[n - 1] - goal).length().max(start_error);
    let cos_max = math::cos((TURN_PER_SQRT_ERROR * (error / length).sqrt()).min(PI));
    let small = positions
        .windows(2)
        .zip(candidate.windows(2))
        .all(|(old, new)| {
            let (u, v) = (old[1] - old[0], new[1] - new[0]);
            u.dot(v) >= cos_max * (u.length_squared() * v.length_squared()).sqrt()
        });
    if small {
        positions.copy_from_slice(&candidate[..n]);
    }
    small
}

/// The tip too near: bends scaled down by the factor nearest 1 that puts the tip at the goal's
/// distance, the chain then swung onto the goal; written into `out` (root already set).
fn unbend(
    positions: &[Vec3A],
    lengths: &[f32],
    bends: &mut [Vec3A],
    goal: Vec3A,
    eps: f32,
    out: &mut [Vec3A],
) -> bool {
    let root = positions[0];
    let d = (goal - root).length();
    let Some(frame) = read_bends(positions, lengths, bends) else {
        return false;
    };
    let bends = &*bends;
    let g = |s: f32| chord(frame, s, lengths, bends).length() - d;
    let Some(s) = solve(&g, (1.0, g(1.0)), 0.0, eps) else {
        return false;
    };
    let c = chord(frame, s, lengths, bends);
    lay(
        shortest_arc(c.into(), (goal - root).into()) * frame,
        s,
        lengths,
        bends,
        out,
    );
    true
}

/// The tip too far: two rigid halves split at the middle joint, bent there by the law of
/// cosines on the middle joint's side of the root–goal line; written into `out`.
fn split(
    positions: &[Vec3A],
    lengths: &[f32],
    goal: Vec3A,
    straight_bend: impl FnOnce(Vec3A) -> Vec3A,
    out: &mut [Vec3A],
) -> bool {
    let n = positions.len();
    let (root, tip) = (positions[0], positions[n - 1]);
    let middle = middle_joint(lengths);
    let joint = positions[middle];
    let (a, b) = ((joint - root).length(), (tip - joint).length());
    let to_goal = goal - root;
    let d = to_goal.length();
    if d < (a - b).abs() || a == 0.0 {
        return false;
    }
    let t = to_goal / d;
    let length: f32 = lengths.iter().sum();
    let side =
        perpendicular_unit(joint - root, t, length * 1e-6).unwrap_or_else(|| straight_bend(t));
    let cos = ((a * a + d * d - b * b) / (2.0 * a * d)).clamp(-1.0, 1.0);
    let sin = (1.0 - cos * cos).max(0.0).sqrt();
    let new_joint = root + (t * cos + side * sin) * a;
    let first = shortest_arc((joint - root).into(), (new_joint - root).into());
    for j in 1..=middle {
        out[j] = root + first * (positions[j] - root);
    }
    let start = out[middle];
    let second = shortest_arc((tip - joint).into(), (goal - start).into());
    for j in middle + 1..n {
        out[j] = start + second * (positions[j] - joint);
    }
    true
}

/// The joint nearest the middle of the chain's length (never the root or the tip).
fn middle_joint(lengths: &[f32]) -> usize {
    let half = 0.5 * lengths.iter().sum::<f32>();
    let mut along = 0.0;
    let mut best = (1, f32::INFINITY);
    for (k, l) in lengths.iter().enumerate().take(lengths.len() - 1) {
        along += l;
        let off = (along - half).abs();
        if off < best.1 {
            best = (k + 1, off);
        }
    }
    best.0
}

/// Reads the chain's bends into `bends` (bend `j` turns bone `j - 1`'s direction into bone
/// `j`'s, as a rotation vector in bone `j - 1`'s carried frame; bend 0 is zero) and returns
/// the frame carrying +X to the first bone of positive length. Zero-length bones take their
/// predecessor's direction. `None` when no bone has positive length.
fn read_bends(positions: &[Vec3A], lengths: &[f32], bends: &mut [Vec3A]) -> Option<Quat> {
    let dir = |j: usize| {
        let v = positions[j + 1] - positions[j];
        (lengths[j] > 0.0).then(|| v.try_normalize()).flatten()
    };
    let first = (0..lengths.len()).find_map(dir)?;
    let mut frame = shortest_arc(glam::Vec3::X, first.into());
    let start = frame;
    let mut previous = first;
    for (j, bend) in bends.iter_mut().enumerate() {
        let u = dir(j).unwrap_or(previous);
        let cross = previous.cross(u);
        let angle = math::atan2(cross.length(), previous.dot(u));
        let axis = if angle >= PI * 0.999 {
            perpendicular_unit(frame * Vec3A::Y, previous, 1e-3)
                .unwrap_or_else(|| previous.any_orthonormal_vector())
        } else {
            cross.normalize_or_zero()
        };
        let turn = axis * angle;
        *bend = frame.conjugate() * turn;
        frame = (Quat::from_scaled_axis(turn.into()) * frame).normalize();
        previous = u;
    }
    Some(start)
}

/// Root-to-tip vector of the chain starting along `frame`'s +X, bends scaled by `s`.
fn chord(mut frame: Quat, s: f32, lengths: &[f32], bends: &[Vec3A]) -> Vec3A {
    let mut c = Vec3A::ZERO;
    for (l, bend) in lengths.iter().zip(bends) {
        frame *= Quat::from_scaled_axis((*bend * s).into());
        c += frame * Vec3A::X * *l;
    }
    c
}

/// Writes the joints after the root (`out[0]`) of the chain starting along `frame`'s +X,
/// bends scaled by `s`.
fn lay(mut frame: Quat, s: f32, lengths: &[f32], bends: &[Vec3A], out: &mut [Vec3A]) {
    for (j, (l, bend)) in lengths.iter().zip(bends).enumerate() {
        frame *= Quat::from_scaled_axis((*bend * s).into());
        out[j + 1] = out[j] + frame * Vec3A::X * *l;
    }
}

/// The root of `g` nearest `a` between `a` and `limit` (either side of `a`), as far as steps
/// that start at 1/64 of the way and double can tell; then refined by [`bisect`].
fn solve(g: &impl Fn(f32) -> f32, (a, ga): (f32, f32), limit: f32, eps: f32) -> Option<f32> {
    let mut step = (limit - a) / 64.0;
    if step == 0.0 || step.is_nan() {
        return None;
    }
    let up = step > 0.0;
    let past = |s: f32| if up { s >= limit } else { s <= limit };
    let (mut near, mut g_near) = (a, ga);
    loop {
        let far = if past(near + step) {
            limit
        } else {
            near + step
        };
        let g_far = g(far);
        if g_far.abs() <= eps {
            return Some(far);
        }
        if (g_far < 0.0) != (g_near < 0.0) {
            return bisect(g, (near, g_near), (far, g_far), eps);
        }
        if far == limit {
            return None;
        }
        (near, g_near) = (far, g_far);
        step *= 2.0;
    }
}

/// Bracketed secant (Illinois) between two points where `g` has opposite signs, until
/// `|g| <= eps`; `None` if f32 cannot get there.
fn bisect(
    g: &impl Fn(f32) -> f32,
    (mut a, mut ga): (f32, f32),
    (mut b, mut gb): (f32, f32),
    eps: f32,
) -> Option<f32> {
    let mut side = 0i8;
    for _ in 0..MAX_STEPS {
        let mut s = (a * gb - b * ga) / (gb - ga);
        if !(s > a.min(b) && s < a.max(b)) {
            s = 0.5 * (a + b);
            if s == a || s == b {
                return None;
            }
        }
        let gs = g(s);
        if gs.abs() <= eps {
            return Some(s);
        }
        if (gs < 0.0) == (gb < 0.0) {
            (b, gb) = (s, gs);
            if side == -1 {
                ga *= 0.5;
            }
            side = -1;
        } else {
            (a, ga) = (s, gs);
            if side == 1 {
                gb *= 0.5;
            }
            side = 1;
        }
    }
    None
}

/// Damping of Newton's steps, as a fraction of the chain length: where the chain is far from
/// singular the step is Newton's; near full reach it shrinks instead of blowing up.
pub(crate) const DAMPING: f32 = 0.05;

/// The damped least-squares direction (Levenberg–Marquardt on the tip position) for joints at
/// `pivots`, each free to turn about any axis or, with `Some(axis)` (model space, unit), only
/// about that hinge axis: joint turns [`newton_turn`] of the result move the tip by the least
/// joint motion (in the least-squares sense) that would put it on `goal` to first order.
pub(crate) fn newton_direction(
    pivots: impl Iterator<Item = (Vec3A, Option<Vec3A>)>,
    tip: Vec3A,
    goal: Vec3A,
    length: f32,
) -> Vec3A {
    // A = sum over joints of J J^T: [r]x [r]x^T = |r|^2 I - r r^T for a free joint, c c^T
    // with c = axis x r for a hinge; r from the joint to the tip.
    let (mut diag, mut xy, mut xz, mut yz) = (Vec3A::ZERO, 0.0, 0.0, 0.0);
    for (p, hinge) in pivots {
        let r = tip - p;
        match hinge {
            None => {
                let sq = r * r;
                diag += Vec3A::splat(sq.x + sq.y + sq.z) - sq;
                xy -= r.x * r.y;
                xz -= r.x * r.z;
                yz -= r.y * r.z;
            }
            Some(axis) => {
                let c = axis.cross(r);
                diag += c * c;
                xy += c.x * c.y;
                xz += c.x * c.z;
                yz += c.y * c.z;
            }
        }
    }
    diag += Vec3A::splat((DAMPING * length).powi(2));
    let m = glam::Mat3A::from_cols(
        Vec3A::new(diag.x, xy, xz),
        Vec3A::new(xy, diag.y, yz),
        Vec3A::new(xz, yz, diag.z),
    );
    m.inverse() * (goal - tip)
}

/// The turn (rotation vector, model space) of a joint `r` away from the tip along the Newton
/// direction `y`: `r x y` for a free joint, its projection on the axis for a hinge.
pub(crate) fn newton_turn(r: Vec3A, hinge: Option<Vec3A>, y: Vec3A) -> Vec3A {
    match hinge {
        None => r.cross(y),
        Some(axis) => axis * axis.cross(r).dot(y),
    }
}

/// One damped least-squares step on a chain of free joints: every joint turns by
/// [`newton_turn`], bone `j` following the turns of joints `0..=j`. Bone lengths hold exactly;
/// continuous in the chain and the goal. `scale` shortens the step (1 is the full step).
/// Writes the result into `candidate` and returns the tip's new distance to `goal`.
pub(crate) fn newton_step(
    positions: &[Vec3A],
    goal: Vec3A,
    length: f32,
    scale: f32,
    candidate: &mut [Vec3A],
) -> f32 {
    let n = positions.len();
    let tip = positions[n - 1];
    let pivots = positions[..n - 1].iter().map(|p| (*p, None));
    let y = newton_direction(pivots, tip, goal, length) * scale;
    let mut carried = Quat::IDENTITY;
    candidate[0] = positions[0];
    for j in 0..n - 1 {
        let turn = newton_turn(tip - positions[j], None, y);
        carried = (carried * Quat::from_scaled_axis(turn.into())).normalize();
        candidate[j + 1] = candidate[j] + carried * (positions[j + 1] - positions[j]);
    }
    (candidate[n - 1] - goal).length()
}

/// Whether every joint lies on the line through the root toward `goal` (within 1e-3 of the
/// chain length): a chain laid straight or folded back on itself along it, which no FABRIK
/// pass, CCD sweep or Newton step can bend (every turn about the line moves nothing).
pub(crate) fn on_goal_line(positions: &[Vec3A], goal: Vec3A, length: f32) -> bool {
    let root = positions[0];
    let Some(t) = (goal - root).try_normalize() else {
        return false;
    };
    let eps = 1e-3 * length;
    positions.iter().all(|p| {
        let v = *p - root;
        (v - t * v.dot(t)).length() <= eps
    })
}

/// Lays the chain as an evenly bent arc from the root toward `goal`, bulging toward the unit
/// `side` (perpendicular to the root–goal line), with the bend per joint whose chord is the
/// goal's distance as far as bisection over [0, 2 pi / bones] finds it: the chain leaves the
/// line it was stuck on, and the solver's iterations go on from there.
pub(crate) fn lay_arc(positions: &mut [Vec3A], lengths: &[f32], goal: Vec3A, side: Vec3A) {
    let root = positions[0];
    let to_goal = goal - root;
    let d = f64::from(to_goal.length());
    let t = to_goal.normalize_or_zero();
    // Chord of the arc whose bone j heads at angle -j * theta, as (along, across) sums; the
    // headings come from one sin_cos by angle addition, in f64 so long chains do not drift.
    let chord = |theta: f64| {
        let (sin_step, cos_step) = math::sin_cos_f64(theta);
        let (mut cos, mut sin, mut along, mut across) = (1.0f64, 0.0f64, 0.0, 0.0);
        for &l in lengths {
            along += f64::from(l) * cos;
            across += f64::from(l) * sin;
            (cos, sin) = (
                cos * cos_step - sin * sin_step,
                sin * cos_step + cos * sin_step,
            );
        }
        (along, across)
    };
    let (mut lo, mut hi) = (0.0f64, 2.0 * std::f64::consts::PI / lengths.len() as f64);
    for _ in 0..60 {
        let mid = 0.5 * (lo + hi);
        let (c, s) = chord(mid);
        if math::hypot_f64(c, s) > d {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let theta = 0.5 * (lo + hi);
    let (c, s) = chord(theta);
    let start = math::atan2_f64(s, c);
    let mut p = root;
    for (j, l) in lengths.iter().enumerate() {
        let (sin, cos) = math::sin_cos_f64(start - j as f64 * theta);
        p += (t * cos as f32 + side * sin as f32) * *l;
        positions[j + 1] = p;
    }
}
