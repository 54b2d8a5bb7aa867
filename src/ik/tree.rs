//! The joint tree a multi-effector solve works on: the root, every effector and the joints
//! between them, found from a skeleton's parents and kept in scratch buffers sized at the
//! solver's creation, with FABRIK's passes over it (sub-bases combining their branches) and the
//! pass that turns positions into rotations.

use glam::{Quat, Vec3A};

use crate::constraint::JointConstraint;
use crate::error::{ensure_finite, Error, ErrorKind, Result};
use crate::ik::chain::{constrain, constrain_turn, end_rotation, scaled_arc};
use crate::ik::fabrik::bone_toward;
use crate::ik::{exact_length, EndRotation, IkResult};
use crate::rotation::shortest_arc;
use crate::skeleton::Skeleton;
use crate::transform::{validated_rotation, validated_transform, Transform};

/// No slot or effector.
pub(crate) const NONE: u32 = u32::MAX;

/// Fixed-point steps of a sub-base's rotation fit ([`Tree::fit`]); each starts from the last
/// iteration's rotation, so a few suffice.
const FIT_STEPS: usize = 4;

/// Where one effector joint should go.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EffectorTarget {
    /// Model-space position.
    pub position: glam::Vec3,
    /// Model rotation the effector joint takes (then its constraint); `None` follows the
    /// solver's `end_rotation`.
    pub rotation: Option<Quat>,
    /// How hard this effector pulls where branches meet: finite, 0 or more. 0 turns it off.
    pub weight: f32,
}

impl EffectorTarget {
    /// A target position without rotation, weight 1.
    pub fn at(position: glam::Vec3) -> Self {
        Self {
            position,
            rotation: None,
            weight: 1.0,
        }
    }

    /// The target with rotation `rotation`.
    pub fn with_rotation(self, rotation: Quat) -> Self {
        Self {
            rotation: Some(rotation),
            ..self
        }
    }

    /// The target with weight `weight`.
    pub fn with_weight(self, weight: f32) -> Self {
        Self { weight, ..self }
    }

    /// The target with its rotation normalized, or why effector `k`'s target is unusable.
    pub(crate) fn validated(&self, k: usize) -> Result<Self> {
        ensure_finite(self.position.is_finite(), "effector target position")
            .and_then(|()| ensure_finite(self.weight.is_finite(), "effector weight"))
            .map_err(|e| Error::new(e.kind(), format!("effector {k}: {}", e.message())))?;
        if self.weight < 0.0 {
            let message = format!("effector {k}: weight {} is negative", self.weight);
            return Err(Error::new(ErrorKind::InvalidArgument, message));
        }
        Ok(Self {
            rotation: validated_rotation(self.rotation)?,
            ..*self
        })
    }
}

/// Scratch of a multi-effector solve: one entry per tree joint ("slot"), slots in skeleton
/// order (so parents come first and slot 0 is the root), plus one per effector.
#[derive(Clone, Debug)]
pub(crate) struct Tree {
    /// Skeleton joint of each slot.
    pub joints: Vec<u32>,
    /// Parent slot (unused for the root).
    pub parent: Vec<u32>,
    pub(super) first_child: Vec<u32>,
    pub(super) next_sibling: Vec<u32>,
    /// Effector index of each slot, or [`NONE`].
    pub(super) effector: Vec<u32>,
    /// Sum of the weights of the effectors at or below each slot.
    pub(super) weight: Vec<f32>,
    /// Length of the path from the root to each slot.
    pub(super) depth: Vec<f32>,
    pub(super) constraints: Vec<Option<JointConstraint>>,
    /// Validated input model transforms.
    pub input: Vec<Transform>,
    /// Solved model transforms.
    pub output: Vec<Transform>,
    pub(super) positions: Vec<Vec3A>,
    /// Each slot's bone from its parent: model vector in the input, in the parent's input
    /// frame, and length.
    pub(super) spans: Vec<Vec3A>,
    pub(super) bones: Vec<Vec3A>,
    pub(super) lengths: Vec<f32>,
    /// Each sub-base's turn from its input rotation, fitted to its branches.
    pub(super) turns: Vec<Quat>,
    /// Copies of the iterate, by [`Kept`].
    kept: [Saved; 3],
    /// A Newton step's proposal: per slot, the accumulated turn, the turn, the rotation and
    /// the position; and its linear system, (3 effectors) squared and 3 per effector.
    pub(super) carried: Vec<Quat>,
    pub(super) omega: Vec<Vec3A>,
    pub(super) rotations: Vec<Quat>,
    pub(super) closed: Vec<Vec3A>,
    pub(super) system: Vec<f32>,
    pub(super) rhs: Vec<f32>,
    /// Slot of each effector and its validated target.
    pub slots: Vec<u32>,
    pub targets: Vec<EffectorTarget>,
}

/// A copy of an iterate: positions, sub-base turns and output transforms.
#[derive(Clone, Debug)]
struct Saved {
    positions: Vec<Vec3A>,
    turns: Vec<Quat>,
    output: Vec<Transform>,
}

impl Saved {
    fn new(max_joints: usize) -> Self {
        Self {
            positions: vec![Vec3A::ZERO; max_joints],
            turns: vec![Quat::IDENTITY; max_joints],
            output: vec![Transform::IDENTITY; max_joints],
        }
    }
}

/// Which copy of the iterate [`Tree::save`] and [`Tree::restore`] use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kept {
    /// An attempt's best iterate.
    Best,
    /// The iterate before FABRIK's passes.
    Before,
    /// The first attempt's result.
    First,
}

/// A built tree's sizes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Shape {
    /// Tree joints.
    pub n: usize,
    /// Effectors.
    pub m: usize,
}

fn invalid(message: String) -> Error {
    Error::new(ErrorKind::InvalidArgument, message)
}

impl Tree {
    pub fn new(max_joints: usize, max_effectors: usize) -> Self {
        Self {
            joints: vec![0; max_joints],
            parent: vec![NONE; max_joints],
            first_child: vec![NONE; max_joints],
            next_sibling: vec![NONE; max_joints],
            effector: vec![NONE; max_joints],
            weight: vec![0.0; max_joints],
            depth: vec![0.0; max_joints],
            constraints: vec![None; max_joints],
            input: vec![Transform::IDENTITY; max_joints],
            output: vec![Transform::IDENTITY; max_joints],
            positions: vec![Vec3A::ZERO; max_joints],
            spans: vec![Vec3A::ZERO; max_joints],
            bones: vec![Vec3A::ZERO; max_joints],
            lengths: vec![0.0; max_joints],
            turns: vec![Quat::IDENTITY; max_joints],
            kept: std::array::from_fn(|_| Saved::new(max_joints)),
            carried: vec![Quat::IDENTITY; max_joints],
            omega: vec![Vec3A::ZERO; max_joints],
            rotations: vec![Quat::IDENTITY; max_joints],
            closed: vec![Vec3A::ZERO; max_joints],
            system: vec![0.0; 9 * max_effectors * max_effectors],
            rhs: vec![0.0; 3 * max_effectors],
            slots: vec![0; max_effectors],
            targets: vec![EffectorTarget::at(glam::Vec3::ZERO); max_effectors],
        }
    }

    pub fn max_joints(&self) -> usize {
        self.joints.len()
    }

    pub fn max_effectors(&self) -> usize {
        self.slots.len()
    }

    /// Checks the effectors and their targets and finds the tree: the root, the effectors and
    /// every joint between; `constraints` (skeleton joint, constraint) are looked up for it.
    pub fn build(
        &mut self,
        skeleton: &Skeleton,
        root: u32,
        effectors: &[u32],
        targets: &[EffectorTarget],
        constraints: &[(u32, JointConstraint)],
    ) -> Result<Shape> {
        let m = effectors.len();
        self.check_effectors(skeleton, root, effectors)?;
        if targets.len() != m {
            let message = format!("{} targets given for {m} effectors", targets.len());
            return Err(Error::new(ErrorKind::SizeMismatch, message));
        }
        let mut total = 0.0;
        for (k, (slot, t)) in self.targets[..m].iter_mut().zip(targets).enumerate() {
            *slot = t.validated(k)?;
            total += slot.weight;
        }
        if total <= 0.0 {
            let message = "every effector weight is zero (or their sum underflows)".to_owned();
            return Err(invalid(message));
        }
        let n = self.collect(skeleton, root, effectors)?;
        self.link(skeleton, n);
        for (k, &e) in effectors.iter().enumerate() {
            let s = self.slot_of(n, e);
            self.slots[k] = s as u32;
            self.effector[s] = k as u32;
        }
        for s in 0..n {
            let j = self.joints[s];
            let found = constraints.iter().find(|(joint, _)| *joint == j);
            self.constraints[s] = found.map(|&(_, c)| c);
        }
        Ok(Shape { n, m })
    }

    /// Every effector must be a joint below `root`, listed once, and not above another.
    fn check_effectors(&self, skeleton: &Skeleton, root: u32, effectors: &[u32]) -> Result<()> {
        skeleton.check_joint(root as usize)?;
        let m = effectors.len();
        if m == 0 {
            return Err(invalid("at least one effector is required".into()));
        }
        if m > self.max_effectors() {
            let message = format!(
                "{m} effectors exceed the solver's max_effectors {}",
                self.max_effectors()
            );
            return Err(Error::new(ErrorKind::OutOfRange, message));
        }
        for (k, &e) in effectors.iter().enumerate() {
            skeleton.check_joint(e as usize)?;
            if let Some(l) = effectors[..k].iter().position(|&x| x == e) {
                return Err(invalid(format!("effectors {l} and {k} are both joint {e}")));
            }
            let mut j = e as usize;
            loop {
                let Some(p) = skeleton.parent(j) else {
                    return Err(invalid(format!(
                        "effector {k} (joint {e}) is not below root joint {root}"
                    )));
                };
                if p == root as usize {
                    break;
                }
                if let Some(l) = effectors.iter().position(|&x| x as usize == p) {
                    return Err(invalid(format!(
                        "effector {l} (joint {p}) is an ancestor of effector {k} (joint {e}); \
                         effectors must end their branches"
                    )));
                }
                j = p;
            }
        }
        Ok(())
    }

    /// Collects the tree's joints in skeleton order (parents first, the root in slot 0).
    fn collect(&mut self, skeleton: &Skeleton, root: u32, effectors: &[u32]) -> Result<usize> {
        let max = self.max_joints();
        self.joints[0] = root;
        let mut n = 1;
        for &e in effectors {
            let mut j = e;
            while !self.joints[..n].contains(&j) {
                if n == max {
                    return Err(Error::new(
                        ErrorKind::OutOfRange,
                        format!("the tree from root {root} to its effectors has more than max_joints {max} joints"),
                    ));
                }
                self.joints[n] = j;
                n += 1;
                j = skeleton.parents()[j as usize] as u32;
            }
        }
        self.joints[..n].sort_unstable();
        Ok(n)
    }

    fn slot_of(&self, n: usize, joint: u32) -> usize {
        self.joints[..n]
            .binary_search(&joint)
            .expect("tree joints hold every parent on a path")
    }

    /// Parent slots and child lists (each parent's children in slot order).
    fn link(&mut self, skeleton: &Skeleton, n: usize) {
        self.first_child[..n].fill(NONE);
        self.next_sibling[..n].fill(NONE);
        self.effector[..n].fill(NONE);
        for s in (1..n).rev() {
            let p = skeleton.parents()[self.joints[s] as usize] as u32;
            let p = self.slot_of(s, p);
            self.parent[s] = p as u32;
            self.next_sibling[s] = self.first_child[p];
            self.first_child[p] = s as u32;
        }
    }

    /// The children of slot `s`.
    fn children(&self, s: usize) -> impl Iterator<Item = usize> + '_ {
        let mut c = self.first_child[s];
        std::iter::from_fn(move || {
            let this = c;
            (this != NONE).then(|| {
                c = self.next_sibling[this as usize];
                this as usize
            })
        })
    }

    /// Validates the input model transforms (in `input`) and derives bones, weights and depths;
    /// returns the tree's size: its longest path from the root to an effector.
    pub fn load(&mut self, shape: Shape) -> Result<f32> {
        let Shape { n, m } = shape;
        for s in 0..n {
            let j = self.joints[s];
            self.input[s] = validated_transform(&self.input[s], || format!("joint {j}"))?;
            self.positions[s] = self.input[s].translation.into();
            self.weight[s] = 0.0;
        }
        for k in 0..m {
            self.weight[self.slots[k] as usize] = self.targets[k].weight;
        }
        self.depth[0] = 0.0;
        for s in 1..n {
            let p = self.parent[s] as usize;
            let span = self.positions[s] - self.positions[p];
            self.spans[s] = span;
            self.bones[s] = self.input[p].rotation.conjugate() * span;
            self.lengths[s] = span.length();
            self.depth[s] = self.depth[p] + self.lengths[s];
        }
        for s in (1..n).rev() {
            let w = self.weight[s];
            self.weight[self.parent[s] as usize] += w;
        }
        let size = (0..m).map(|k| self.depth[self.slots[k] as usize]);
        Ok(size.fold(0.0, f32::max))
    }

    /// Puts the iterate back on the input: positions, no sub-base turns, output rotations by
    /// [`Self::orient`] (the input's, constrained).
    pub fn restart(&mut self, shape: Shape, root_parent: Quat, end: EndRotation) {
        for s in 0..shape.n {
            self.positions[s] = self.input[s].translation.into();
            self.turns[s] = Quat::IDENTITY;
        }
        self.orient(shape, root_parent, end);
    }

    /// Whether every weighted target lies within its effector's reach from the root (the
    /// length of the path from the root to it) and every two within reach of each other (the
    /// length of the path between their effectors), give or take `tol` each: necessary for
    /// the targets to be reachable together, and cheap enough to check before retrying.
    pub fn within_reach(&self, shape: Shape, tol: f32) -> bool {
        let at = |k: usize| Vec3A::from(self.targets[k].position);
        let weighted = |k: &usize| self.targets[*k].weight > 0.0;
        (0..shape.m).filter(weighted).all(|k| {
            let sk = self.slots[k];
            let root = (at(k) - self.positions[0]).length() <= self.depth[sk as usize] + tol;
            root && (0..k).filter(weighted).all(|l| {
                let sl = self.slots[l];
                let a = self.depth[self.common_ancestor(sk, sl) as usize];
                let path = self.depth[sk as usize] + self.depth[sl as usize] - 2.0 * a;
                (at(k) - at(l)).length() <= path + 2.0 * tol
            })
        })
    }

    /// The lowest slot at or above both `a` and `b`.
    pub(super) fn common_ancestor(&self, mut a: u32, mut b: u32) -> u32 {
        // Parents come before their children, so the larger slot is never above the other.
        while a != b {
            if a > b {
                a = self.parent[a as usize];
            } else {
                b = self.parent[b as usize];
            }
        }
        a
    }

    /// The forward pass, effectors inward: each effector (of non-zero weight) on its target,
    /// each other joint where its children put it (one child: FABRIK's step; several, a
    /// sub-base: the weighted centroid of the places each branch puts it, each branch weighing
    /// the sum of its effectors' weights). The root stays; joints with no weight below them do
    /// not move.
    pub fn forward(&mut self, shape: Shape) {
        for s in (1..shape.n).rev() {
            if self.weight[s] == 0.0 {
                continue;
            }
            let k = self.effector[s];
            if k != NONE {
                self.positions[s] = self.targets[k as usize].position.into();
                continue;
            }
            let p = self.positions[s];
            let (mut sum, mut total, mut count, mut last) = (Vec3A::ZERO, 0.0, 0, p);
            for c in self.children(s) {
                last = self.positions[c]
                    + bone_toward(p - self.positions[c], self.lengths[c], -self.spans[c]);
                sum += last * self.weight[c];
                total += self.weight[c];
                count += 1;
            }
            self.positions[s] = if count == 1 { last } else { sum / total };
        }
    }

    /// The backward pass, root outward: a joint's one child goes a bone's length from it
    /// toward where the forward pass left the child (FABRIK's step); a sub-base's children
    /// keep their offsets in its frame, turned by the rotation that best takes them toward
    /// where the forward pass left them ([`Self::fit`]).
    pub fn backward(&mut self, shape: Shape) {
        for s in 0..shape.n {
            let first = self.first_child[s];
            if first == NONE {
                continue;
            }
            let p = self.positions[s];
            if self.next_sibling[first as usize] == NONE {
                let c = first as usize;
                if self.weight[c] == 0.0 {
                    continue;
                }
                self.positions[c] =
                    p + bone_toward(self.positions[c] - p, self.lengths[c], self.spans[c]);
                continue;
            }
            self.turns[s] = self.fit(s);
            let mut c = first;
            while c != NONE {
                let i = c as usize;
                self.positions[i] = p + self.turns[s] * self.spans[i];
                c = self.next_sibling[i];
            }
        }
    }

    /// The turn of sub-base `s` from its input rotation that best aims its bones (input
    /// `spans`) at its children's positions, each child weighing the sum of its effectors'
    /// weights (all alike when every weight below `s` is zero): from the last turn, a few
    /// steps each turning by the weighted mean of the children's remaining shortest arcs (as
    /// rotation vectors).
    fn fit(&self, s: usize) -> Quat {
        let p = self.positions[s];
        let even = self.weight[s] == 0.0;
        let mut turn = self.turns[s];
        for _ in 0..FIT_STEPS {
            let (mut sum, mut total) = (Vec3A::ZERO, 0.0);
            for c in self.children(s) {
                let w = if even { 1.0 } else { self.weight[c] };
                let from = turn * self.spans[c];
                let arc = shortest_arc(from.into(), (self.positions[c] - p).into());
                sum += Vec3A::from(arc.to_scaled_axis()) * w;
                total += w;
            }
            turn = (Quat::from_scaled_axis((sum / total).into()) * turn).normalize();
        }
        turn
    }

    /// Turns positions into output transforms, root outward: a joint with one child turns by
    /// the minimal arc from its input bone toward the child (keeping twist), a sub-base by its
    /// fitted turn, an effector takes its target's rotation or follows `end`, and a joint with
    /// no weight below it keeps its input local rotation (its branch follows as animated);
    /// each joint's constraint applies relative to its solved parent, and positions follow by
    /// forward kinematics, so bone lengths and sub-base offsets hold exactly.
    pub fn orient(&mut self, shape: Shape, root_parent: Quat, end: EndRotation) {
        for s in 0..shape.n {
            let (parent, input_parent, pos) = if s == 0 {
                (root_parent, root_parent, self.positions[0])
            } else {
                let p = self.parent[s] as usize;
                let parent = self.output[p].rotation;
                let pos = self.positions[p] + parent * self.bones[s];
                (parent, self.input[p].rotation, pos)
            };
            let input = self.input[s];
            let c = self.constraints[s].as_ref();
            let first = self.first_child[s];
            let rotation = if s > 0 && self.weight[s] == 0.0 || first == NONE {
                self.follow(s, parent, input_parent, end)
            } else {
                let turn = if self.next_sibling[first as usize] == NONE {
                    let child = self.positions[first as usize];
                    scaled_arc(self.spans[first as usize], child - pos)
                } else {
                    self.turns[s]
                };
                let model = (turn * input.rotation).normalize();
                let before = input_parent.conjugate() * input.rotation;
                constrain_turn(c, parent, model, before)
            };
            self.output[s] = Transform {
                translation: pos.into(),
                rotation,
                ..input
            };
            self.positions[s] = pos;
        }
    }

    /// The model rotation of slot `s` under a parent of model rotation `parent` (input
    /// `input_parent`) when it is an effector or has no weight below it: an effector takes its
    /// target's rotation or follows `end`; a weightless branch keeps its input local rotation
    /// (it follows its parent as animated); then the constraint.
    pub(super) fn follow(
        &self,
        s: usize,
        parent: Quat,
        input_parent: Quat,
        end: EndRotation,
    ) -> Quat {
        let input = self.input[s].rotation;
        let model = if s > 0 && self.weight[s] == 0.0 {
            (parent * (input_parent.conjugate() * input)).normalize()
        } else {
            let t = self.targets[self.effector[s] as usize];
            let end = if t.rotation.is_some() {
                EndRotation::CopyEffector
            } else {
                end
            };
            end_rotation(end, t.rotation, input_parent, input, parent)
        };
        constrain(self.constraints[s].as_ref(), parent, model)
    }

    /// Each effector's distance to its target, weighted: the root of the weighted mean of
    /// squared distances (the quantity the iterations lower).
    pub fn error(&self, shape: Shape) -> f32 {
        let (mut sum, mut total) = (0.0, 0.0);
        for k in 0..shape.m {
            let t = &self.targets[k];
            let d = self.positions[self.slots[k] as usize] - Vec3A::from(t.position);
            sum += t.weight * d.length_squared();
            total += t.weight;
        }
        (sum / total).sqrt()
    }

    /// Whether every effector of non-zero weight lies within `tol` of its target.
    pub fn within(&self, shape: Shape, tol: f32) -> bool {
        (0..shape.m).all(|k| {
            let t = &self.targets[k];
            let d = self.positions[self.slots[k] as usize] - Vec3A::from(t.position);
            t.weight == 0.0 || d.length() <= tol
        })
    }

    /// One forward and backward pass, then [`Self::orient`]; undone when it raises the
    /// weighted error (a sub-base's branches pulling it off effectors already reached), so
    /// the closing step goes on from the better iterate.
    pub fn passes(&mut self, shape: Shape, root_parent: Quat, end: EndRotation) {
        self.unless_worse(shape, |t| {
            t.forward(shape);
            t.backward(shape);
            t.orient(shape, root_parent, end);
        });
    }

    /// Runs `change` on the iterate and undoes it if it raises the weighted error.
    fn unless_worse(&mut self, shape: Shape, change: impl FnOnce(&mut Self)) {
        let error = self.error(shape);
        self.save(shape.n, Kept::Before);
        change(self);
        if self.error(shape) > error {
            self.restore(shape.n, Kept::Before);
        }
    }

    /// Copies the iterate's first `n` slots into copy `which`.
    pub fn save(&mut self, n: usize, which: Kept) {
        let to = &mut self.kept[which as usize];
        to.positions[..n].copy_from_slice(&self.positions[..n]);
        to.turns[..n].copy_from_slice(&self.turns[..n]);
        to.output[..n].copy_from_slice(&self.output[..n]);
    }

    /// Puts copy `which` of the first `n` slots back as the iterate.
    pub fn restore(&mut self, n: usize, which: Kept) {
        let from = &self.kept[which as usize];
        self.positions[..n].copy_from_slice(&from.positions[..n]);
        self.turns[..n].copy_from_slice(&from.turns[..n]);
        self.output[..n].copy_from_slice(&from.output[..n]);
    }

    /// Each effector's result after `iterations`, reached within `tol`; fails (writing
    /// nothing) when the output is not representable.
    pub fn results(
        &self,
        shape: Shape,
        tol: f32,
        iterations: u32,
        out: &mut [IkResult],
    ) -> Result<()> {
        let finite = self.output[..shape.n].iter().all(Transform::is_finite);
        let error = |k: usize| {
            let p = self.positions[self.slots[k] as usize];
            exact_length(p - Vec3A::from(self.targets[k].position))
        };
        if !(finite && (0..shape.m).all(|k| error(k).is_finite())) {
            return Err(Error::new(
                ErrorKind::NumericOverflow,
                "IK result is not representable in f32 (inputs too large)",
            ));
        }
        for (k, r) in out[..shape.m].iter_mut().enumerate() {
            let error = error(k);
            *r = IkResult {
                reached: error <= tol,
                error,
                iterations,
            };
        }
        Ok(())
    }
}
