//! The multi-effector solver's closing step: damped least-squares (Levenberg–Marquardt) steps
//! on every joint rotation of the tree at once, toward every effector's target weighted by its
//! weight — the tree form of the chain solvers' Newton steps (`ik::reach`). FABRIK's passes
//! with sub-bases converge slowly once close (a sub-base's branches pull against each other
//! through the centroid); these steps finish the job by the least joint motion.

use glam::{Quat, Vec3A};

use crate::ik::chain::{constrain_turn, hinge_axis, NEWTON_PROGRESS, NEWTON_STEPS, TRACKING};
use crate::ik::reach::{newton_turn, DAMPING};
use crate::ik::tree::{Shape, Tree, NONE};
use crate::ik::EndRotation;

/// Axes of the turns that start retries ([`Tree::kick`]): spread over the sphere, no two
/// opposite, so the joints of a tree turn different ways.
const KICKS: [[f32; 3]; 7] = [
    [1.0, 1.0, 1.0],
    [1.0, -1.0, 0.0],
    [0.0, 1.0, -1.0],
    [-1.0, 0.0, 1.0],
    [1.0, 1.0, -1.0],
    [-1.0, 1.0, 1.0],
    [1.0, -1.0, 1.0],
];

/// What a step holds fixed: the tree's shape, the root's parent rotation, the effectors' end
/// rotation, the size the damping scales with and the tolerance.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Step {
    pub shape: Shape,
    pub root_parent: Quat,
    pub end: EndRotation,
    pub size: f32,
    pub tol: f32,
}

impl Tree {
    /// Up to [`NEWTON_STEPS`] damped least-squares steps on the output while they lower the
    /// weighted error, halving a step that does not; they stop once every weighted effector
    /// is within `tol` or a step removes less than [`NEWTON_PROGRESS`] of the error.
    pub fn close(&mut self, step: Step) {
        let mut error = self.error(step.shape);
        let mut scale = 1.0;
        for _ in 0..NEWTON_STEPS {
            let next = self.propose(step, scale);
            if next >= error || next.is_nan() {
                scale *= 0.5;
                continue;
            }
            self.accept(step.shape);
            let slow = next > error * (1.0 - NEWTON_PROGRESS);
            (error, scale) = (next, 1.0);
            if self.within(step.shape, step.tol) || slow {
                break;
            }
        }
    }

    /// One step, `scale` times the full one, into `rotations` and `closed`; returns its
    /// weighted error.
    fn propose(&mut self, step: Step, scale: f32) -> f32 {
        let Shape { n, m } = step.shape;
        self.build_system(step);
        solve_spd(&mut self.system[..9 * m * m], &mut self.rhs[..3 * m], 3 * m);
        self.omega[..n].fill(Vec3A::ZERO);
        for k in 0..m {
            let w = self.targets[k].weight.sqrt();
            let slot = self.slots[k] as usize;
            let y = Vec3A::from_slice(&self.rhs[3 * k..3 * k + 3]) * w;
            let mut s = self.parent[slot];
            loop {
                let i = s as usize;
                let axis = hinge_axis(self.constraints[i].as_ref(), self.output[i].rotation);
                let r = self.positions[slot] - self.positions[i];
                self.omega[i] += newton_turn(r, axis, y);
                if i == 0 {
                    break;
                }
                s = self.parent[i];
            }
        }
        self.turn_by(step, scale)
    }

    /// Turns every joint of the iterate by a fixed 1-radian turn (one of [`KICKS`], by slot
    /// and `k`, constraints applied), to start retry `k` from another basin of the error.
    pub fn kick(&mut self, step: Step, k: usize) {
        for s in 0..step.shape.n {
            self.omega[s] = Vec3A::from(KICKS[(s + 3 * k) % KICKS.len()]).normalize();
        }
        self.turn_by(step, 1.0);
        self.accept(step.shape);
    }

    /// Turns every joint by `scale` times its `omega` (model-space rotation vectors, each
    /// joint's turn carried by its descendants), constraints applied, into `rotations` and
    /// `closed`; returns the weighted error there.
    fn turn_by(&mut self, step: Step, scale: f32) -> f32 {
        let Shape { n, m } = step.shape;
        for s in 0..n {
            let (parent, input_parent, carried, pos) = if s == 0 {
                let p = step.root_parent;
                (p, p, Quat::IDENTITY, self.positions[0])
            } else {
                let p = self.parent[s] as usize;
                let parent = self.rotations[p];
                let pos = self.closed[p] + parent * self.bones[s];
                (parent, self.input[p].rotation, self.carried[p], pos)
            };
            self.closed[s] = pos;
            if self.first_child[s] == NONE || self.weight[s] == 0.0 {
                self.rotations[s] = self.follow(s, parent, input_parent, step.end);
                continue;
            }
            let carried =
                (carried * Quat::from_scaled_axis((self.omega[s] * scale).into())).normalize();
            self.carried[s] = carried;
            let output = self.output[s].rotation;
            let desired = (carried * output).normalize();
            let old_parent = if s == 0 {
                step.root_parent
            } else {
                self.output[self.parent[s] as usize].rotation
            };
            let before = old_parent.conjugate() * output;
            let c = self.constraints[s].as_ref();
            self.rotations[s] = constrain_turn(c, parent, desired, before);
        }
        let (mut sum, mut total) = (0.0, 0.0);
        for k in 0..m {
            let t = &self.targets[k];
            let d = self.closed[self.slots[k] as usize] - Vec3A::from(t.position);
            sum += t.weight * d.length_squared();
            total += t.weight;
        }
        (sum / total).sqrt()
    }

    /// Takes the proposal: rotations and positions, and each sub-base's turn from its input.
    fn accept(&mut self, shape: Shape) {
        for s in 0..shape.n {
            self.output[s].rotation = self.rotations[s];
            self.output[s].translation = self.closed[s].into();
            self.positions[s] = self.closed[s];
            self.turns[s] = (self.rotations[s] * self.input[s].rotation.conjugate()).normalize();
        }
    }

    /// The damped normal equations of the weighted effector errors: block (k, l) of
    /// `system` sums, over the joints above both effectors, `sqrt(w_k w_l) J_k J_l^T` (for a
    /// free joint `(r_k . r_l) I - r_l r_k^T`, for a hinge `(a x r_k)(a x r_l)^T`, `r` from
    /// the joint to the effector), plus `(DAMPING size)^2` on the diagonal; `rhs` holds
    /// `sqrt(w_k) (target_k - effector_k)`.
    fn build_system(&mut self, step: Step) {
        let m = step.shape.m;
        let dim = 3 * m;
        self.system[..dim * dim].fill(0.0);
        for k in 0..m {
            let t = &self.targets[k];
            let e = (Vec3A::from(t.position) - self.positions[self.slots[k] as usize])
                * t.weight.sqrt();
            self.rhs[3 * k..3 * k + 3].copy_from_slice(&e.to_array());
            for l in 0..=k {
                let block = self.block(k, l);
                for (i, row) in block.iter().enumerate() {
                    for (j, v) in row.iter().enumerate() {
                        self.system[(3 * k + i) * dim + 3 * l + j] = *v;
                        self.system[(3 * l + j) * dim + 3 * k + i] = *v;
                    }
                }
            }
        }
        // Levenberg–Marquardt's damping, eased as the error shrinks: far off it keeps steps
        // short near singular poses; close to the targets Gauss–Newton's own steps converge
        // fast where a fixed damping would crawl.
        let ease = (self.error(step.shape) / (TRACKING * step.size)).clamp(1e-3, 1.0);
        let damping = (DAMPING * step.size).powi(2) * ease;
        for i in 0..dim {
            self.system[i * dim + i] += damping;
        }
    }

    /// Block (k, l) of the normal equations (rows of effector k, columns of effector l).
    fn block(&self, k: usize, l: usize) -> [[f32; 3]; 3] {
        let (sk, sl) = (self.slots[k] as usize, self.slots[l] as usize);
        let (pk, pl) = (self.positions[sk], self.positions[sl]);
        let w = (self.targets[k].weight * self.targets[l].weight).sqrt();
        let mut block = [[0.0; 3]; 3];
        if w == 0.0 {
            return block;
        }
        // The lowest joint above both, then every joint above it.
        let mut s = self.common_ancestor(self.parent[sk], self.parent[sl]) as usize;
        loop {
            let (rk, rl) = (pk - self.positions[s], pl - self.positions[s]);
            match hinge_axis(self.constraints[s].as_ref(), self.output[s].rotation) {
                None => {
                    let dot = rk.dot(rl);
                    for (i, row) in block.iter_mut().enumerate() {
                        for (j, v) in row.iter_mut().enumerate() {
                            *v += w * (if i == j { dot } else { 0.0 } - rl[i] * rk[j]);
                        }
                    }
                }
                Some(axis) => {
                    let (ck, cl) = (axis.cross(rk), axis.cross(rl));
                    for (i, row) in block.iter_mut().enumerate() {
                        for (j, v) in row.iter_mut().enumerate() {
                            *v += w * ck[i] * cl[j];
                        }
                    }
                }
            }
            if s == 0 {
                break;
            }
            s = self.parent[s] as usize;
        }
        block
    }
}

/// Solves `a x = b` in place (`b` becomes `x`) for a symmetric positive definite `a` of
/// `dim` rows (row-major) by Cholesky factorization; `a` is overwritten. A pivot that is not
/// positive (rounding on a nearly singular system the damping should prevent) leaves `b` zero.
fn solve_spd(a: &mut [f32], b: &mut [f32], dim: usize) {
    for j in 0..dim {
        let mut d = a[j * dim + j];
        for k in 0..j {
            d -= a[j * dim + k] * a[j * dim + k];
        }
        if d.is_nan() || d <= 0.0 {
            b.fill(0.0);
            return;
        }
        let d = d.sqrt();
        a[j * dim + j] = d;
        for i in j + 1..dim {
            let mut v = a[i * dim + j];
            for k in 0..j {
                v -= a[i * dim + k] * a[j * dim + k];
            }
            a[i * dim + j] = v / d;
        }
    }
    for i in 0..dim {
        let mut v = b[i];
        for k in 0..i {
            v -= a[i * dim + k] * b[k];
        }
        b[i] = v / a[i * dim + i];
    }
    for i in (0..dim).rev() {
        let mut v = b[i];
        for k in i + 1..dim {
            v -= a[k * dim + i] * b[k];
        }
        b[i] = v / a[i * dim + i];
    }
}
