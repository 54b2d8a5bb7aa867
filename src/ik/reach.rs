//! The chain solvers' closing step: the chain is split at its middle joint (by length) into two
//! halves that move rigidly, and solved exactly as a two-bone chain: the middle joint bends
//! (law of cosines) in the plane of the root, the target and where it is now. When the halves
//! are too short to reach even laid end to end, the bends inside both halves are first scaled
//! down by one common factor until they are just long enough.
//!
//! It is exact (up to rounding) and continuous in the chain it starts from, which removes the
//! slow convergence of FABRIK and CCD near full reach without restarting from a fixed shape: a
//! chain solved last frame only bends or unbends a little and turns. A straight chain (its
//! middle joint on the root–target line) bends toward a direction the caller fixes in the root
//! bone's frame. Bending at one joint is the least a chain can turn its bones to change its
//! reach (each half tilts by the same angle).

use std::f32::consts::PI;

use glam::{Quat, Vec3A};

use crate::rotation::{perpendicular_unit, shortest_arc};

/// The closing step turns no bone by more than this times the square root of the error (the
/// larger of the input's and the iterate's) over the chain length (radians). Near full reach exact solutions move as the square
/// root of the target's motion (a bend of angle a shortens a bone pair by about a^2 / 8 of its
/// length), which this admits; a larger turn means the split is ill-conditioned for this
/// iterate (its middle joint nearly straight far from full reach), and the solver's own
/// iterations go on instead.
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
/// bones as much as that calls for; see [`TURN_PER_SQRT_ERROR`]). `straight_bend` gives, for the root–goal direction, a unit direction
/// perpendicular to it toward which a straight chain bends. Returns false, leaving `positions`
/// untouched, when the halves cannot reach the goal (beyond reach, or nearer than they fold
/// to) or when some bone would turn by more than [`TURN_PER_SQRT_ERROR`] allows.
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
    let middle = middle_joint(lengths);
    let Some(halves) = Halves::of(positions, lengths, middle, scratch.bends) else {
        return false;
    };
    let bends = &*scratch.bends;
    let reach = |s: f32| halves.chords(s, lengths, bends);
    let (a1, b1) = reach(1.0);
    // Laid end to end the halves must reach the goal; if they do not, unbend them.
    let s = if a1 + b1 >= d {
        1.0
    } else {
        let g = |s: f32| {
            let (a, b) = reach(s);
            a + b - d
        };
        match solve(&g, (1.0, a1 + b1 - d), 0.0, 0.25 * tol) {
            Some(s) => s,
            None => return false,
        }
    };
    let (a, b) = reach(s);
    if d < (a - b).abs() {
        return false;
    }
    // Two-bone placement of the middle joint, on its side of the root–goal line.
    let t = to_goal / d;
    let side = perpendicular_unit(positions[middle] - root, t, length * 1e-6)
        .unwrap_or_else(|| straight_bend(t));
    let cos = ((a * a + d * d - b * b) / (2.0 * a * d)).clamp(-1.0, 1.0);
    let sin = (1.0 - cos * cos).max(0.0).sqrt();
    let joint = root + (t * cos + side * sin) * a;
    let candidate = scratch.candidate;
    candidate[0] = root;
    halves.place(s, lengths, bends, joint, goal, candidate);
    let error = (positions[n - 1] - goal).length().max(start_error);
    let cos_max = (TURN_PER_SQRT_ERROR * (error / length).sqrt())
        .min(PI)
        .cos();
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

/// The two halves of a chain split at joint `middle`, with the bends inside each.
struct Halves {
    middle: usize,
    /// Frames carrying +X to each half's first bone direction.
    frames: [Quat; 2],
}

impl Halves {
    /// Reads the bends inside each half into `bends` (bend `j` turns bone `j - 1`'s direction
    /// into bone `j`'s; each half's first bend is zero). Zero-length bones take their
    /// predecessor's direction. `None` when a half has no bone of positive length.
    fn of(
        positions: &[Vec3A],
        lengths: &[f32],
        middle: usize,
        bends: &mut [Vec3A],
    ) -> Option<Self> {
        let dir = |j: usize| {
            let v = positions[j + 1] - positions[j];
            (lengths[j] > 0.0).then(|| v.try_normalize()).flatten()
        };
        let mut frames = [Quat::IDENTITY; 2];
        for (h, range) in [(0, 0..middle), (1, middle..lengths.len())] {
            let first = range.clone().find_map(dir)?;
            let mut frame = shortest_arc(glam::Vec3::X, first.into());
            frames[h] = frame;
            let mut previous = first;
            for j in range {
                let u = dir(j).unwrap_or(previous);
                let cross = previous.cross(u);
                let angle = cross.length().atan2(previous.dot(u));
                let axis = if angle >= PI * 0.999 {
                    perpendicular_unit(frame * Vec3A::Y, previous, 1e-3)
                        .unwrap_or_else(|| previous.any_orthonormal_vector())
                } else {
                    cross.normalize_or_zero()
                };
                let turn = axis * angle;
                bends[j] = frame.conjugate() * turn;
                frame = (Quat::from_scaled_axis(turn.into()) * frame).normalize();
                previous = u;
            }
        }
        Some(Self { middle, frames })
    }

    /// The bone ranges and start frames of the two halves.
    fn parts(&self, lengths: &[f32]) -> [(std::ops::Range<usize>, Quat); 2] {
        [
            (0..self.middle, self.frames[0]),
            (self.middle..lengths.len(), self.frames[1]),
        ]
    }

    /// Each half's root-to-end distance with its bends scaled by `s`.
    fn chords(&self, s: f32, lengths: &[f32], bends: &[Vec3A]) -> (f32, f32) {
        let [a, b] = self
            .parts(lengths)
            .map(|(range, frame)| chord(frame, s, &lengths[range.clone()], &bends[range]));
        (a.length(), b.length())
    }

    /// Writes the joints of both halves (bends scaled by `s`) into `out` (whose root is set),
    /// each turned rigidly: the first from the root toward `joint`, the second from where the
    /// first ends toward `goal` (so coincident joints stay coincident).
    fn place(
        &self,
        s: f32,
        lengths: &[f32],
        bends: &[Vec3A],
        joint: Vec3A,
        goal: Vec3A,
        out: &mut [Vec3A],
    ) {
        for (h, (range, frame)) in self.parts(lengths).into_iter().enumerate() {
            let start = out[range.start];
            let end = if h == 0 { joint } else { goal };
            let c = chord(frame, s, &lengths[range.clone()], &bends[range.clone()]);
            let turn = shortest_arc(c.into(), (end - start).into());
            let mut frame = turn * frame;
            let mut p = start;
            for j in range {
                frame *= Quat::from_scaled_axis((bends[j] * s).into());
                p += frame * Vec3A::X * lengths[j];
                out[j + 1] = p;
            }
        }
    }
}

/// Start-to-end vector of a run of bones starting along `frame`'s +X, bends scaled by `s`.
fn chord(mut frame: Quat, s: f32, lengths: &[f32], bends: &[Vec3A]) -> Vec3A {
    let mut c = Vec3A::ZERO;
    for (l, bend) in lengths.iter().zip(bends) {
        frame *= Quat::from_scaled_axis((*bend * s).into());
        c += frame * Vec3A::X * *l;
    }
    c
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

/// Damping of [`newton_step`], as a fraction of the chain length: where the chain is far from
/// singular the step is Newton's; near full reach it shrinks instead of blowing up.
const DAMPING: f32 = 0.05;

/// One damped least-squares step (Levenberg–Marquardt on the tip position): every joint turns
/// by the smallest rotations (in the least-squares sense) that would move the tip onto `goal`
/// to first order. Bone lengths hold exactly; continuous in the chain and the goal. Converges
/// quadratically where the closing step's split is ill-conditioned (far from full reach).
/// `scale` shortens the step (1 is the full step). Writes the result into `candidate` and
/// returns the tip's new distance to `goal`.
pub(crate) fn newton_step(
    positions: &[Vec3A],
    goal: Vec3A,
    length: f32,
    scale: f32,
    candidate: &mut [Vec3A],
) -> f32 {
    let n = positions.len();
    let tip = positions[n - 1];
    let e = goal - tip;
    // A = sum over joints of [r]x [r]x^T = |r|^2 I - r r^T, with r from the joint to the tip.
    let (mut diag, mut xy, mut xz, mut yz) = (Vec3A::ZERO, 0.0, 0.0, 0.0);
    for p in &positions[..n - 1] {
        let r = tip - *p;
        let sq = r * r;
        let r2 = sq.x + sq.y + sq.z;
        diag += Vec3A::splat(r2) - sq;
        xy -= r.x * r.y;
        xz -= r.x * r.z;
        yz -= r.y * r.z;
    }
    diag += Vec3A::splat((DAMPING * length).powi(2));
    let m = glam::Mat3A::from_cols(
        Vec3A::new(diag.x, xy, xz),
        Vec3A::new(xy, diag.y, yz),
        Vec3A::new(xz, yz, diag.z),
    );
    let y = m.inverse() * e * scale;
    // Joint j turns by r_j x y; bone j follows the turns of joints 0..=j, nearest applied first.
    let mut carried = Quat::IDENTITY;
    candidate[0] = positions[0];
    for j in 0..n - 1 {
        let turn = (tip - positions[j]).cross(y);
        carried = (carried * Quat::from_scaled_axis(turn.into())).normalize();
        candidate[j + 1] = candidate[j] + carried * (positions[j + 1] - positions[j]);
    }
    (candidate[n - 1] - goal).length()
}

/// Whether every joint lies on the line through the root toward `goal` (within 1e-5 of the
/// chain length): a chain laid straight or folded back on itself along it, which no FABRIK
/// pass, CCD sweep or Newton step can bend (every turn about the line moves nothing).
pub(crate) fn on_goal_line(positions: &[Vec3A], goal: Vec3A, length: f32) -> bool {
    let root = positions[0];
    let Some(t) = (goal - root).try_normalize() else {
        return false;
    };
    let eps = 1e-5 * length;
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
        let (sin_step, cos_step) = theta.sin_cos();
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
        if c.hypot(s) > d {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let theta = 0.5 * (lo + hi);
    let (c, s) = chord(theta);
    let start = s.atan2(c);
    let mut p = root;
    for (j, l) in lengths.iter().enumerate() {
        let (sin, cos) = (start - j as f64 * theta).sin_cos();
        p += (t * cos as f32 + side * sin as f32) * *l;
        positions[j + 1] = p;
    }
}
