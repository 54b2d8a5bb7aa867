//! `Skeleton`: the joint hierarchy (parents before children), its rest pose and joint names.

use crate::error::{Error, ErrorKind, Result};
use crate::packed::{Floats, Packed};
use crate::plan::{plan, Step, FEW_SLOTS, PREVIOUS, RECOMPUTE, ROOT, SCRATCH, SLOTS};
use crate::simd::F4;
use crate::soa::{to_blocks, JointTransforms, SoaTransform};
use crate::transform::{validated_transform, Transform};
use glam::Vec4;

/// Most joints a skeleton may have; indices fit in `u16` with room to spare for sentinels.
pub const MAX_JOINTS: usize = 1 << 16;

/// Parent index of a root joint.
pub const NO_PARENT: i32 = -1;

/// A validated joint hierarchy. Every parent index is [`NO_PARENT`] or smaller than the
/// joint's own index, so one forward pass visits parents before children (no cycles possible).
#[derive(Clone, Debug)]
pub struct Skeleton {
    parents: Vec<i32>,
    rest: Vec<Transform>,
    /// The rest pose in the pose's block layout, which new poses and blends copy.
    rest_blocks: Vec<SoaTransform>,
    names: Vec<String>,
    /// Joint indices sorted by name, for lookups by binary search: no hashing, so no random
    /// seed from the OS (on Windows, std's would import bcryptprimitives.dll).
    by_name: Vec<u32>,
    /// Where the forward pass finds each joint's parent (see [`crate::plan`]).
    steps: Vec<Step>,
    /// Whether a step is [`crate::plan::RECOMPUTE`].
    recomputes: bool,
    /// Slots the plan uses: one past the highest.
    slots_used: usize,
}

impl Skeleton {
    /// Validates and builds a skeleton from parent indices, rest-pose local transforms and
    /// optional joint names (unique, one per joint). Rest rotations are renormalized.
    pub fn new(parents: &[i32], rest: &[Transform], names: Option<&[&str]>) -> Result<Self> {
        let n = parents.len();
        if n == 0 {
            return Err(Error::new(
                ErrorKind::InvalidArgument,
                "a skeleton needs at least one joint",
            ));
        }
        if n > MAX_JOINTS {
            return Err(Error::new(
                ErrorKind::OutOfRange,
                format!("{n} joints exceeds the limit of {MAX_JOINTS}"),
            ));
        }
        if rest.len() != n {
            return Err(Error::new(
                ErrorKind::SizeMismatch,
                format!("{n} parents but {} rest transforms", rest.len()),
            ));
        }
        validate_parents(parents)?;
        let steps = plan(parents);
        let recomputes = steps.iter().any(|s| s.parent == RECOMPUTE);
        let slots_used = steps
            .iter()
            .filter(|s| s.save != SCRATCH)
            .map(|s| usize::from(s.save) + 1)
            .max()
            .unwrap_or(0);
        let mut rest = rest.to_vec();
        for (i, t) in rest.iter_mut().enumerate() {
            *t = validated_transform(t, || format!("rest transform of joint {i}"))?;
        }
        let (names, by_name) = match names {
            None => (Vec::new(), Vec::new()),
            Some(names) => build_name_table(names, n)?,
        };
        Ok(Self {
            parents: parents.to_vec(),
            rest_blocks: to_blocks(&rest),
            steps,
            recomputes,
            slots_used,
            rest,
            names,
            by_name,
        })
    }

    /// Number of joints.
    pub fn joint_count(&self) -> usize {
        self.parents.len()
    }

    /// Parent index of every joint ([`NO_PARENT`] for roots); parents precede children.
    pub fn parents(&self) -> &[i32] {
        &self.parents
    }

    /// Parent of `joint`, or `None` for a root. Panics if `joint` is out of range.
    pub fn parent(&self, joint: usize) -> Option<usize> {
        usize::try_from(self.parents[joint]).ok()
    }

    /// Where the forward pass finds each joint's parent (see [`crate::plan`]).
    pub(crate) fn steps(&self) -> &[Step] {
        &self.steps
    }

    /// Whether some joint's parent is recomputed by the forward pass (no slot was free).
    pub(crate) fn recomputes(&self) -> bool {
        self.recomputes
    }

    /// How many slots the plan uses (one past the highest).
    pub(crate) fn slots_used(&self) -> usize {
        self.slots_used
    }

    /// Rest-pose local transforms.
    pub fn rest_pose(&self) -> &[Transform] {
        &self.rest
    }

    /// The rest pose in blocks of four joints.
    pub(crate) fn rest_blocks(&self) -> &[SoaTransform] {
        &self.rest_blocks
    }

    /// Joint names, empty when the skeleton was built without names.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// Index of the joint called `name`.
    pub fn find_joint(&self, name: &str) -> Option<usize> {
        let names = &self.names;
        let found = self
            .by_name
            .binary_search_by(|&i| names[i as usize].as_str().cmp(name));
        found.ok().map(|k| self.by_name[k] as usize)
    }

    /// Fails with [`ErrorKind::OutOfRange`] unless `joint` is a valid index.
    pub fn check_joint(&self, joint: usize) -> Result<()> {
        if joint < self.joint_count() {
            Ok(())
        } else {
            Err(Error::new(
                ErrorKind::OutOfRange,
                format!(
                    "joint index {joint} is out of range (skeleton has {} joints)",
                    self.joint_count()
                ),
            ))
        }
    }

    /// Validates that `chain` lists existing joints, root first, each the parent of the next.
    pub fn check_chain(&self, chain: impl IntoIterator<Item = usize>) -> Result<()> {
        let mut previous: Option<usize> = None;
        for j in chain {
            self.check_joint(j)?;
            if let Some(p) = previous {
                if self.parent(j) != Some(p) {
                    return Err(Error::new(
                        ErrorKind::InvalidArgument,
                        format!(
                            "joint {p} is not the parent of joint {j}: a chain lists each joint's parent before it"
                        ),
                    ));
                }
            }
            previous = Some(j);
        }
        Ok(())
    }

    /// Computes model-space transforms from local ones in one forward pass.
    /// `local` and `model` must both hold [`Self::joint_count`] transforms.
    pub fn local_to_model(&self, local: &[Transform], model: &mut [Transform]) {
        self.local_to_model_finite(local, model);
    }

    /// [`Self::local_to_model`], also returning whether every model transform is finite
    /// (checked in the same pass), into any layout of ten floats per transform (such as the C
    /// ABI's).
    pub(crate) fn local_to_model_finite<L, T>(&self, local: &L, model: &mut [T]) -> bool
    where
        L: JointTransforms + ?Sized,
        T: Floats<10>,
    {
        assert!(model.len() == self.parents.len());
        let out = T::floats_mut(model);
        // `x * 0` is ±0 for a finite x and NaN otherwise: summed over every component it checks
        // them all with one comparison at the end.
        let mut probe = F4::splat(0.0);
        self.for_each_model(local, out.len(), |i, m| {
            probe = probe + m.zero_probe();
            m.store(&mut out[i]);
        });
        probe.eq(F4::splat(0.0)).all()
    }

    /// Whether the model transforms of `local` are surely finite, from a bound that one cheap
    /// pass computes without composing anything: `true` proves that no step of the forward
    /// pass overflows, `false` proves nothing (huge values, or rotations not of unit length).
    ///
    /// A model scale is a product of local scales along the path, so at most
    /// `P = Π max(1, |scale|∞)` over all joints. A model translation is a sum along the path of
    /// local translations, each scaled by a parent's model scale (at most `P`) and turned by
    /// its model rotation (a product of unit quaternions, so of length below 2 even after
    /// 2^16 roundings), which the rotation's arithmetic enlarges at most 49-fold on the way:
    /// at most `49 P Σ |translation|∞` (summed as 1-norms, which are larger). Kept below
    /// `f32::MAX / 256`, rounding included, every intermediate value is finite; the model
    /// matrices' entries ([`crate::matrices`]) are products and sums of the same magnitudes.
    pub(crate) fn model_surely_finite<L: JointTransforms + ?Sized>(&self, local: &L) -> bool {
        local.model_bound(self.parents.len()) <= f32::MAX / 256.0
    }

    /// Whether every model transform of `local` is finite: [`Self::local_to_model_finite`]'s
    /// verdict (the same operations, so the same values) without a buffer to write them to.
    pub(crate) fn model_is_finite<L: JointTransforms + ?Sized>(&self, local: &L) -> bool {
        let mut probe = F4::splat(0.0);
        let n = self.parents.len();
        self.for_each_model(local, n, |_, m| probe = probe + m.zero_probe());
        probe.eq(F4::splat(0.0)).all()
    }

    /// Calls `visit(joint, model)` with the model transform of each of the first `count`
    /// joints in order, root first, packed ([`Packed::mul`]: the same bits as
    /// [`Transform::mul_transform`]), without a buffer. See [`Self::for_each_model_block`].
    #[inline(always)]
    pub(crate) fn for_each_model<L: JointTransforms + ?Sized>(
        &self,
        local: &L,
        count: usize,
        mut visit: impl FnMut(usize, &Packed),
    ) {
        self.for_each_model_block(local, count, |c, models, len| {
            for (k, m) in models[..len].iter().enumerate() {
                visit(4 * c + k, m);
            }
        });
    }

    /// Calls `visit(block, models, len)` with the model transforms of the first `count`
    /// joints, four joints at a time (`len` of them valid, four but in the last block), root
    /// first. A parent is the previous joint's result, kept in registers, or the result the
    /// skeleton's [`plan`](crate::plan) keeps in a slot until its last child; one that found
    /// no free slot is recomputed by [`Self::model_in`] (not for depth-first orders with
    /// fewer than 63 parents waiting at a time). Any order gives the same values.
    #[inline(always)]
    pub(crate) fn for_each_model_block<L: JointTransforms + ?Sized>(
        &self,
        local: &L,
        count: usize,
        visit: impl FnMut(usize, &[Packed; 4], usize),
    ) {
        // Nearly always no parent is recomputed and few slots are used: then the pass has no
        // call in its loop (one there would make the compiler keep fewer values in registers) and
        // fewer slots to set up.
        match (self.recomputes, self.slots_used <= FEW_SLOTS) {
            (false, true) => self.model_blocks::<false, FEW_SLOTS, L>(local, count, visit),
            (false, false) => self.model_blocks::<false, SLOTS, L>(local, count, visit),
            (true, _) => self.model_blocks::<true, SLOTS, L>(local, count, visit),
        }
    }

    /// [`Self::for_each_model_block`], recomputing parents if `AGAIN`, with `N` slots (at least
    /// the plan's).
    #[inline(always)]
    fn model_blocks<const AGAIN: bool, const N: usize, L: JointTransforms + ?Sized>(
        &self,
        local: &L,
        count: usize,
        mut visit: impl FnMut(usize, &[Packed; 4], usize),
    ) {
        let steps = &self.steps[..count];
        let mut slots = [Packed::identity(); N];
        let mut previous = Packed::identity();
        let mut step = |i: usize, s: Step, l: &Packed| {
            advance::<AGAIN, N, L>(self, local, &mut slots, &mut previous, i, s, l)
        };
        let mut blocks = steps.chunks_exact(4);
        for (c, s) in blocks.by_ref().enumerate() {
            let [l0, l1, l2, l3] = local.block(c);
            let models = [
                step(4 * c, s[0], &l0),
                step(4 * c + 1, s[1], &l1),
                step(4 * c + 2, s[2], &l2),
                step(4 * c + 3, s[3], &l3),
            ];
            visit(c, &models, 4);
        }
        let rest = blocks.remainder();
        if !rest.is_empty() {
            let c = count / 4;
            let block = local.block(c);
            let mut models = [Packed::identity(); 4];
            for (k, (s, l)) in rest.iter().zip(&block).enumerate() {
                models[k] = step(4 * c + k, *s, l);
            }
            visit(c, &models, rest.len());
        }
    }

    /// Model-space transform of one joint: its ancestors composed root first, the same
    /// operations in the same order as [`Self::local_to_model`], so the same bits. O(depth),
    /// allocation-free.
    ///
    /// Composing from the joint upward instead would be another rule: [`Transform`]
    /// composition keeps per-axis scales apart from rotations, so it is not associative once a
    /// non-uniform scale sits above a rotation.
    pub fn model_of(&self, local: &[Transform], joint: usize) -> Transform {
        self.model_in(local, joint)
    }

    /// [`Self::model_of`] from any source of local transforms.
    pub(crate) fn model_in<L: JointTransforms + ?Sized>(
        &self,
        local: &L,
        joint: usize,
    ) -> Transform {
        self.fold_path(joint, |model: Option<Transform>, k| {
            let l = local.joint(k);
            match model {
                Some(m) => m.mul_transform(&l),
                None => l,
            }
        })
    }

    /// `step(acc, k)` over the joints `k` from the root to `joint`, in that order, `acc`
    /// `None` at the root and the previous step's result after. O(depth), allocation-free.
    pub(crate) fn fold_path<T>(
        &self,
        joint: usize,
        mut step: impl FnMut(Option<T>, usize) -> T,
    ) -> T {
        // The path is found walking up but composed walking down, so it is kept on the stack:
        // every SEGMENT-th joint of the way up (the checkpoints), then each segment's joints in
        // turn, from the root's segment down. Two walks, 1 KiB, for any depth up to MAX_JOINTS.
        let mut checkpoints = [0u16; SEGMENT];
        let mut segments = 0;
        let mut j = joint;
        'up: loop {
            checkpoints[segments] = j as u16;
            segments += 1;
            for _ in 0..SEGMENT {
                match self.parent(j) {
                    Some(p) => j = p,
                    None => break 'up,
                }
            }
        }
        let mut segment = [0u16; SEGMENT];
        let mut acc: Option<T> = None;
        for &start in checkpoints[..segments].iter().rev() {
            // The segment's joints from `start` up, at most SEGMENT of them.
            let (mut len, mut k) = (0, usize::from(start));
            loop {
                segment[len] = k as u16;
                len += 1;
                match self.parent(k) {
                    Some(p) if len < SEGMENT => k = p,
                    _ => break,
                }
            }
            for &k in segment[..len].iter().rev() {
                acc = Some(step(acc.take(), usize::from(k)));
            }
        }
        acc.expect("a path holds at least the joint itself")
    }
}

/// `P Σ` of [`Skeleton::model_surely_finite`]'s bound: the largest model scale `P` times
/// `1 + Σ |translation|₁` (the 1-norm, at least the ∞-norm the bound needs and cheaper to
/// sum four joints at a time), so that every model scale and rotated-scale entry is at most 9
/// times it and every model translation at most 49 times it; infinite when nothing is
/// proved (a non-finite component, or a rotation not of unit length).
pub(crate) fn model_bound<L: JointTransforms + ?Sized>(local: &L, joints: usize) -> f32 {
    // No branch in the loop: the probe catches any non-finite component (which `max`
    // would pass over), an overflowing product or sum becomes infinite and fails the test,
    // and f32 rounding (under 1 % over 2^16 joints) is well inside the margin.
    let mut probe = Vec4::ZERO;
    let (mut rotation, mut scale, mut reach) = (0.0f32, 1.0f32, 1.0f32);
    for j in 0..joints {
        let l = local.joint(j);
        probe += l.zero_probe();
        rotation = rotation.max(l.rotation.length_squared());
        scale *= l.scale.abs().max_element().max(1.0);
        let t = l.translation.abs();
        reach += (t.x + t.y) + t.z;
    }
    if probe == Vec4::ZERO && rotation <= 1.0 + 1e-5 {
        scale * reach
    } else {
        f32::INFINITY
    }
}

/// Joint `i`'s model transform from its local one `l`, its parent found by its step `s`;
/// kept as `previous` and, if the step says so, in a slot.
#[inline(always)]
fn advance<const AGAIN: bool, const N: usize, L: JointTransforms + ?Sized>(
    skeleton: &Skeleton,
    local: &L,
    slots: &mut [Packed; N],
    previous: &mut Packed,
    i: usize,
    s: Step,
    l: &Packed,
) -> Packed {
    let m = if s.parent == PREVIOUS {
        previous.mul(l)
    } else if s.parent < SCRATCH {
        slots[usize::from(s.parent) % N].mul(l)
    } else if s.parent == ROOT {
        *l
    } else if AGAIN {
        let p = skeleton.parents[i] as usize;
        Packed::from_transform(&skeleton.model_in(local, p)).mul(l)
    } else {
        unreachable!("the plan recomputes no parent")
    };
    if s.save != SCRATCH {
        slots[usize::from(s.save) % N] = m;
    }
    *previous = m;
    m
}

/// Joints per segment of [`Skeleton::model_of`]'s path: SEGMENT² covers the deepest skeleton.
const SEGMENT: usize = 256;
const _: () = assert!(SEGMENT * SEGMENT >= MAX_JOINTS && MAX_JOINTS <= 1 << 16);

fn validate_parents(parents: &[i32]) -> Result<()> {
    for (i, &p) in parents.iter().enumerate() {
        let bad = |why: &str| {
            Err(Error::new(
                ErrorKind::InvalidSkeleton,
                format!("joint {i} has parent {p}: {why}"),
            ))
        };
        if p == NO_PARENT {
            continue;
        }
        if p < NO_PARENT {
            return bad("negative parents other than -1 are not allowed");
        }
        if p as usize == i {
            return bad("a joint cannot be its own parent");
        }
        if p as usize > i {
            return bad(
                "parents must come before their children (no forward references or cycles)",
            );
        }
    }
    Ok(())
}

fn build_name_table(names: &[&str], n: usize) -> Result<(Vec<String>, Vec<u32>)> {
    if names.len() != n {
        return Err(Error::new(
            ErrorKind::SizeMismatch,
            format!("{n} joints but {} names", names.len()),
        ));
    }
    let empty = names.iter().position(|name| name.is_empty()).unwrap_or(n);
    let mut by_name: Vec<u32> = (0..n as u32).collect();
    // Stable: equal names keep index order, so each duplicate follows its first occurrence.
    by_name.sort_by(|&a, &b| names[a as usize].cmp(names[b as usize]));
    // The duplicate reported is the lowest-index joint that repeats an earlier name.
    let duplicate = by_name
        .windows(2)
        .filter(|w| names[w[0] as usize] == names[w[1] as usize])
        .min_by_key(|w| w[1]);
    let repeat = duplicate.map_or(n, |w| w[1] as usize);
    if empty < repeat {
        return Err(Error::new(
            ErrorKind::InvalidSkeleton,
            format!("joint {empty} has an empty name"),
        ));
    }
    if let Some(w) = duplicate {
        let first = by_name[by_name.partition_point(|&i| names[i as usize] < names[w[1] as usize])];
        return Err(Error::new(
            ErrorKind::InvalidSkeleton,
            format!(
                "joints {first} and {} are both named {:?}",
                w[1], names[w[1] as usize]
            ),
        ));
    }
    Ok((names.iter().map(|s| s.to_string()).collect(), by_name))
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{Quat, Vec3};

    fn rest(n: usize) -> Vec<Transform> {
        vec![Transform::from_translation(Vec3::X); n]
    }

    #[test]
    fn rejects_bad_parent_arrays() {
        for parents in [&[-1, 2, 1][..], &[-1, 1], &[0], &[-1, -2], &[-1, 5]] {
            let err = Skeleton::new(parents, &rest(parents.len()), None).unwrap_err();
            assert_eq!(err.kind(), ErrorKind::InvalidSkeleton, "{parents:?}");
        }
        let err = Skeleton::new(&[], &[], None).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidArgument);
        let err = Skeleton::new(&[-1, 0], &rest(1), None).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::SizeMismatch);
    }

    #[test]
    fn names_are_unique_and_found() {
        let s = Skeleton::new(&[-1, 0, 1], &rest(3), Some(&["a", "b", "c"])).unwrap();
        assert_eq!(s.find_joint("c"), Some(2));
        assert_eq!(s.find_joint("z"), None);
        let err = Skeleton::new(&[-1, 0], &rest(2), Some(&["a", "a"])).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidSkeleton);
    }

    #[test]
    fn every_name_is_found_and_errors_name_the_first_offender() {
        // A linear scan is the reference for the binary search over sorted names.
        let names: Vec<String> = (0..300)
            .map(|i| format!("j{}", (i * 7919) % 1000))
            .collect();
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        let parents: Vec<i32> = (0..300).map(|i| i - 1).collect();
        let s = Skeleton::new(&parents, &rest(300), Some(&refs)).unwrap();
        for (i, name) in refs.iter().enumerate() {
            assert_eq!(s.find_joint(name), Some(i));
        }
        assert_eq!(s.find_joint("j"), None);
        assert_eq!(s.find_joint("j9999"), None);
        // In index order, the first joint that repeats a name or is empty is the one reported.
        let cases: [(&[&str], &str); 4] = [
            (&["b", "a", "b", "a"], "joints 0 and 2 are both named \"b\""),
            (
                &["a", "b", "c", "c", "a"],
                "joints 2 and 3 are both named \"c\"",
            ),
            (&["a", "a", ""], "joints 0 and 1 are both named \"a\""),
            (&["a", "", "a"], "joint 1 has an empty name"),
        ];
        for (names, message) in cases {
            let parents: Vec<i32> = (0..names.len() as i32).map(|i| i - 1).collect();
            let err = Skeleton::new(&parents, &rest(names.len()), Some(names)).unwrap_err();
            assert_eq!(err.kind(), ErrorKind::InvalidSkeleton);
            assert!(err.to_string().contains(message), "{err} lacks {message}");
        }
    }

    /// Locals with non-uniform scales near 1 and small turns, so deep chains stay finite.
    fn skewed(n: usize) -> Vec<Transform> {
        (0..n)
            .map(|i| {
                let k = i as f32;
                Transform::new(
                    Vec3::new(1.0, 0.25 * (k * 0.7).sin(), 0.1),
                    Quat::from_rotation_z(0.3 * (k * 1.3).cos()) * Quat::from_rotation_x(0.2),
                    Vec3::new(1.0 + 0.01 * (k * 0.9).sin(), 0.99, 1.01),
                )
            })
            .collect()
    }

    /// Every third joint starts a side branch off the spine; the rest extend the spine.
    /// Parents first, depth first.
    fn spine_with_branches(n: usize) -> Vec<i32> {
        let mut spine = -1;
        (0..n as i32)
            .map(|i| {
                let p = spine;
                if i % 3 != 2 {
                    spine = i;
                }
                p
            })
            .collect()
    }

    #[test]
    #[cfg_attr(
        miri,
        ignore = "O(joints^2) model_of calls on 900-joint skeletons take many minutes under Miri; the native run covers it"
    )]
    fn model_of_is_the_forward_pass_bit_for_bit_at_any_depth() {
        // Chains around the segment length, and a deep spine with branches.
        for parents in [1, 255, 256, 257, 513]
            .map(|n: i32| (-1..n - 1).collect::<Vec<_>>())
            .into_iter()
            .chain([spine_with_branches(900)])
        {
            let n = parents.len();
            let local = skewed(n);
            let s = Skeleton::new(&parents, &local, None).unwrap();
            let mut model = vec![Transform::IDENTITY; n];
            assert!(s.local_to_model_finite(&local[..], &mut model));
            for (j, m) in model.iter().enumerate() {
                assert_eq!(s.model_of(&local, j), *m, "{n} joints, joint {j}");
            }
        }
    }

    #[test]
    fn model_is_finite_agrees_with_the_forward_pass_in_any_order() {
        let n = 200;
        let depth_first = spine_with_branches(n);
        // The same tree stored breadth first, so parents are often far back.
        let mut order: Vec<usize> = vec![0];
        let mut k = 0;
        while k < order.len() {
            let p = order[k] as i32;
            order.extend((0..n).filter(|&c| depth_first[c] == p));
            k += 1;
        }
        let mut position = vec![0; n];
        for (i, &j) in order.iter().enumerate() {
            position[j] = i;
        }
        let breadth_first: Vec<i32> = order
            .iter()
            .map(|&j| usize::try_from(depth_first[j]).map_or(-1, |p| position[p] as i32))
            .collect();
        // Two interleaved chains, and chains whose parents are all beyond the cache.
        let interleaved: Vec<i32> = (0..n as i32).map(|i| (i - 2).max(-1)).collect();
        let far: Vec<i32> = (0..n as i32).map(|i| (i - 100).max(-1)).collect();
        for parents in [depth_first, breadth_first, interleaved, far] {
            let s = Skeleton::new(&parents, &skewed(n), None).unwrap();
            let mut model = vec![Transform::IDENTITY; n];
            for huge in [None, Some(150), Some(199)] {
                let mut local = skewed(n);
                if let Some(j) = huge {
                    // Two huge offsets on one path overflow from the second one down.
                    local[j].translation.x = 3e38;
                    let p = s.parent(j).unwrap();
                    local[p].translation.x = 3e38;
                }
                let want = s.local_to_model_finite(&local[..], &mut model);
                assert_eq!(want, huge.is_none());
                assert_eq!(s.model_is_finite(&local[..]), want, "huge at {huge:?}");
            }
        }
    }

    #[test]
    #[cfg_attr(
        miri,
        ignore = "3000 random skeletons take minutes under Miri; the native run covers it"
    )]
    fn model_surely_finite_only_vouches_for_finite_poses() {
        // Random skeletons with magnitudes from tiny to near f32's limit: whenever the bound
        // says finite, the forward pass must be; and ordinary poses must pass it.
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        let mut unit = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 40) as f32 / (1u64 << 24) as f32
        };
        let (mut vouched, mut overflowed) = (0, 0);
        for case in 0..3000 {
            let n = 1 + (unit() * 40.0) as usize;
            let parents: Vec<i32> = (0..n)
                .map(|i| (unit() * (i + 1) as f32) as i32 - 1)
                .collect();
            // Each case has its own largest exponents, up to 10^38 for translations and 10^4
            // for scales; a third of the cases are ordinary (scales near 1, translations below
            // 10).
            let ordinary = case % 3 == 0;
            let (t_top, s_top) = if ordinary {
                (0.0, 0.0)
            } else {
                (unit() * 38.0, unit() * 4.0)
            };
            let mut big = |top: f32| (unit() * 2.0 - 1.0) * 10f32.powf(unit() * top);
            let local: Vec<Transform> = (0..n)
                .map(|_| {
                    let t = Vec3::new(big(t_top), big(t_top), big(t_top));
                    let s = Vec3::new(big(s_top), big(s_top), big(s_top));
                    let q = Quat::from_euler(glam::EulerRot::ZYX, big(0.5), big(0.5), big(0.5));
                    Transform::new(t, q, s)
                })
                .collect();
            let s = Skeleton::new(&parents, &local, None).unwrap();
            let mut model = vec![Transform::IDENTITY; n];
            let finite = s.local_to_model_finite(&local[..], &mut model);
            let surely = s.model_surely_finite(&local[..]);
            assert!(
                !surely || finite,
                "case {case}: vouched for an overflowing pose"
            );
            assert!(
                surely || !ordinary,
                "case {case}: an ordinary pose was not vouched for"
            );
            vouched += usize::from(surely && !ordinary);
            overflowed += usize::from(!finite);
        }
        // Both outcomes occur among the large cases.
        assert!(
            vouched > 25 && overflowed > 25,
            "{vouched} vouched, {overflowed} overflowed"
        );
    }

    #[test]
    fn model_of_matches_forward_pass() {
        let s = Skeleton::new(&[-1, 0, 1, 0], &rest(4), None).unwrap();
        let mut model = vec![Transform::IDENTITY; 4];
        s.local_to_model(s.rest_pose(), &mut model);
        assert_eq!(model[2].translation, Vec3::new(3.0, 0.0, 0.0));
        assert_eq!(s.model_of(s.rest_pose(), 2), model[2]);
        assert_eq!(model[3].translation, Vec3::new(2.0, 0.0, 0.0));
    }
}
