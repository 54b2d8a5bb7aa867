//! The target arguments of every solve (one item each, or one per chain in a batch) and
//! batches in C layout. Batch arrays are read and written element by element through raw
//! pointers (inputs may alias outputs without undefined behaviour), converted at the edge.

use glam::{Quat, Vec3};

use super::args::{arg, check_pointer, opt_arg, OptOut};
use super::guard::FfiResult;
use super::types::{
    SinewIkResult, SinewQuat, SinewSoaQuat, SinewSoaTransform, SinewSoaVec3, SinewTransform,
    SinewVec3,
};
use crate::ik::chain_batch::ChainBatch;
use crate::ik::two_bone::{Chains4, Solved, Solved4, TwoBoneBatch, Q, V3};
use crate::ik::{AimTarget, ChainTarget, IkResult, TwoBoneTarget};
use crate::simd::F4;
use crate::transform::Transform;

/// A solve's target as C passes it: effector positions (required), rotations and poles
/// (optional; a pole is two-bone's joint target, NULL for chains) and where results go
/// (optional), one item each for a single solve or one per chain for a batch.
#[derive(Clone, Copy)]
pub(crate) struct Target {
    position: *const SinewVec3,
    rotation: *const SinewQuat,
    pole: *const SinewVec3,
    result: *mut SinewIkResult,
    names: &'static TargetNames,
}

/// The C names of a target's position and pole arguments, single and per chain, for messages.
pub(crate) struct TargetNames {
    position: &'static str,
    positions: &'static str,
    pole: &'static str,
    poles: &'static str,
}

/// Effectors and joint targets (two-bone, FABRIK, CCD).
const EFFECTOR: TargetNames = TargetNames {
    position: "effector_position",
    positions: "effector_positions",
    pole: "joint_target",
    poles: "joint_targets",
};

/// Aim targets and up targets.
const AIM: TargetNames = TargetNames {
    position: "target_position",
    positions: "target_positions",
    pole: "up_target",
    poles: "up_targets",
};

impl Target {
    /// A target without a pole.
    pub fn new(
        position: *const SinewVec3,
        rotation: *const SinewQuat,
        result: *mut SinewIkResult,
    ) -> Self {
        let pole = std::ptr::null();
        Self {
            position,
            rotation,
            pole,
            result,
            names: &EFFECTOR,
        }
    }

    /// An aim target: position, optional up target, no rotation.
    pub fn aim(
        position: *const SinewVec3,
        up: *const SinewVec3,
        result: *mut SinewIkResult,
    ) -> Self {
        let rotation = std::ptr::null();
        Self {
            position,
            rotation,
            pole: up,
            result,
            names: &AIM,
        }
    }

    /// The target with poles `pole`.
    pub fn with_pole(self, pole: *const SinewVec3) -> Self {
        Self { pole, ..self }
    }

    /// Body of a single solve: reads the target and checks the result pointer before `solve`
    /// borrows the chain (they may point into it), and writes the result only on success.
    pub unsafe fn solve(
        self,
        solve: impl FnOnce(TwoBoneTarget) -> FfiResult<IkResult>,
    ) -> FfiResult<()> {
        let target = unsafe {
            TwoBoneTarget {
                position: (*arg(self.position, self.names.position)?).into(),
                rotation: opt_arg(self.rotation, "effector_rotation")?.map(|&q| q.into()),
                pole: opt_arg(self.pole, self.names.pole)?.map(|&p| p.into()),
            }
        };
        let out = OptOut::new(self.result, "out_result")?;
        let result = solve(target)?;
        unsafe { out.write(result) };
        Ok(())
    }

    /// Checks the arrays of a batch of `count` chains.
    fn check(&self, count: u32) -> FfiResult<()> {
        check_array(self.pole, count, self.names.poles, false)?;
        check_array(self.position, count, self.names.positions, true)?;
        check_array(self.rotation, count, "effector_rotations", false)?;
        check_array(self.result.cast_const(), count, "out_results", false)
    }

    /// Chain `i`'s target in a batch.
    ///
    /// # Safety
    /// The arrays must be checked and hold more than `i` items.
    unsafe fn read(&self, i: usize) -> TwoBoneTarget {
        unsafe {
            TwoBoneTarget {
                position: self.position.add(i).read().into(),
                rotation: read_opt(self.rotation, i).map(Quat::from),
                pole: read_opt(self.pole, i).map(Vec3::from),
            }
        }
    }

    /// Writes chain `i`'s result in a batch when results were asked for.
    ///
    /// # Safety
    /// As for [`read`](Self::read).
    unsafe fn write(&self, i: usize, result: IkResult) {
        if !self.result.is_null() {
            unsafe { self.result.add(i).write(result.into()) };
        }
    }
}

/// A chain target: the two-bone target without its pole.
impl From<TwoBoneTarget> for ChainTarget {
    fn from(t: TwoBoneTarget) -> Self {
        ChainTarget {
            position: t.position,
            rotation: t.rotation,
        }
    }
}

/// An aim target: the position, with the pole argument as its up target (no rotation).
impl From<TwoBoneTarget> for AimTarget {
    fn from(t: TwoBoneTarget) -> Self {
        AimTarget {
            position: t.position,
            up: t.pole,
        }
    }
}

/// Checks an array argument of `count` items: a required one must be non-NULL, and any
/// non-NULL one aligned. Nothing is checked for an empty batch.
fn check_array<T>(p: *const T, count: u32, name: &str, required: bool) -> FfiResult<()> {
    if count == 0 || (!required && p.is_null()) {
        return Ok(());
    }
    check_pointer(p, name)
}

/// Reads item `i` of an optional array.
///
/// # Safety
/// A non-NULL `p` must hold more than `i` items.
unsafe fn read_opt<T: Copy>(p: *const T, i: usize) -> Option<T> {
    (!p.is_null()).then(|| unsafe { p.add(i).read() })
}

/// A two-bone batch in C layout: `count` chains of three transforms and their targets.
pub(crate) struct TwoBoneArrays {
    chains: *mut SinewTransform,
    count: u32,
    targets: Target,
}

impl TwoBoneArrays {
    /// The arrays, every pointer checked (before anything is read).
    pub fn new(chains: *mut SinewTransform, count: u32, targets: Target) -> FfiResult<Self> {
        check_array(chains.cast_const(), count, "chains", true)?;
        targets.check(count)?;
        Ok(Self {
            chains,
            count,
            targets,
        })
    }
}

impl TwoBoneArrays {
    /// Chain `i`'s three transforms.
    fn chain(&self, i: usize) -> *mut SinewTransform {
        // SAFETY: checked pointer; `chains` holds three transforms per chain.
        unsafe { self.chains.add(3 * i) }
    }
}

impl TwoBoneBatch for TwoBoneArrays {
    fn count(&self) -> usize {
        self.count as usize
    }
    fn target(&self, i: usize) -> TwoBoneTarget {
        // SAFETY: checked pointers; the export's contract gives `count` items per array.
        unsafe { self.targets.read(i) }
    }
    fn read(&mut self, i: usize) -> [Transform; 3] {
        // SAFETY: as in `target`; read by value, so arrays that overlap `chains` stay defined.
        let c = self.chain(i);
        unsafe { [0, 1, 2].map(|k| c.add(k).read().into()) }
    }
    fn write(&mut self, i: usize, solved: &Solved) {
        // SAFETY: as in `read`; the borrow ends before any other array is read.
        solved.write(unsafe { &mut *self.chain(i).cast::<[SinewTransform; 3]>() });
    }
    fn set_result(&mut self, i: usize, result: IkResult) {
        // SAFETY: as in `target`.
        unsafe { self.targets.write(i, result) };
    }
    #[inline(always)]
    fn lanes(&mut self, start: usize) -> Chains4 {
        let last = self.count as usize - 1;
        let items = |p: *const f32, size: usize| {
            [0, 1, 2, 3].map(|j| p.wrapping_add(size * (start + j).min(last)))
        };
        let chains = items(self.chains.cast_const().cast(), 30);
        // SAFETY: checked arrays of `count` items; a chain is thirty floats (three
        // transforms), read four at a time from offsets that stay inside it.
        let load = |p: [*const f32; 4], k: usize| {
            F4::transpose(p.map(|p| F4::from_array(unsafe { p.add(k).cast::<[f32; 4]>().read() })))
        };
        let [tx0, ty0, tz0, rx0] = load(chains, 0);
        let [ry0, rz0, rw0, sx0] = load(chains, 4);
        let [sy0, sz0, tx1, ty1] = load(chains, 8);
        let [tz1, rx1, ry1, rz1] = load(chains, 12);
        let [rw1, sx1, sy1, sz1] = load(chains, 16);
        let [tx2, ty2, tz2, rx2] = load(chains, 20);
        let [ry2, rz2, rw2, sx2] = load(chains, 24);
        let [_, _, sy2, sz2] = load(chains, 26);
        let v3 = |x, y, z| V3 { x, y, z };
        let q = |x, y, z, w| Q { x, y, z, w };
        // Targets are three or four floats apart: gathered lane by lane.
        let gather =
            |p: [*const f32; 4], k: usize| F4::from_array(p.map(|p| unsafe { p.add(k).read() }));
        let vec3s = |p| v3(gather(p, 0), gather(p, 1), gather(p, 2));
        let t = &self.targets;
        let (rotation, pole) = (t.rotation.cast::<f32>(), t.pole.cast::<f32>());
        let all = |p: *const f32| if p.is_null() { 0 } else { 0b1111 };
        Chains4 {
            pos: [v3(tx0, ty0, tz0), v3(tx1, ty1, tz1), v3(tx2, ty2, tz2)],
            rot: [
                q(rx0, ry0, rz0, rw0),
                q(rx1, ry1, rz1, rw1),
                q(rx2, ry2, rz2, rw2),
            ],
            scale: [v3(sx0, sy0, sz0), v3(sx1, sy1, sz1), v3(sx2, sy2, sz2)],
            goal: vec3s(items(t.position.cast(), 3)),
            goal_rot: if rotation.is_null() {
                Q::identity()
            } else {
                let [x, y, z, w] = load(items(rotation, 4), 0);
                q(x, y, z, w)
            },
            has_goal_rot: all(rotation),
            pole: if pole.is_null() {
                V3::zero()
            } else {
                vec3s(items(pole, 3))
            },
            has_pole: all(pole),
        }
    }
    #[inline(always)]
    fn write_lanes(&mut self, start: usize, solved: &Solved4, done: u32) {
        let rows = |a: F4, b: F4, c: F4, d: F4| F4::transpose([a, b, c, d]).map(F4::to_array);
        let (r, (mp, mq), (ep, eq)) = (&solved.root, &solved.mid, &solved.end);
        let root = rows(r.x, r.y, r.z, r.w);
        // Translation and rotation are seven floats in a row: the first four, then three.
        let mid = rows(mp.x, mp.y, mp.z, mq.x);
        let mid_rest = rows(mq.y, mq.z, mq.w, mq.w);
        let end = rows(ep.x, ep.y, ep.z, eq.x);
        let end_rest = rows(eq.y, eq.z, eq.w, eq.w);
        let (error, reached) = (solved.error.to_array(), solved.reached.bitmask());
        for j in (0..4).filter(|j| done & (1 << j) != 0) {
            let c = self.chain(start + j).cast::<f32>();
            // SAFETY: as in `lanes`; the solved floats of chain `start + j` are written.
            unsafe {
                c.add(3).cast::<[f32; 4]>().write_unaligned(root[j]);
                c.add(10).cast::<[f32; 4]>().write_unaligned(mid[j]);
                c.add(20).cast::<[f32; 4]>().write_unaligned(end[j]);
                for k in 0..3 {
                    c.add(14 + k).write(mid_rest[j][k]);
                    c.add(24 + k).write(end_rest[j][k]);
                }
                self.targets.write(
                    start + j,
                    IkResult {
                        reached: reached & (1 << j) != 0,
                        error: error[j],
                        iterations: 1,
                    },
                );
            }
        }
    }
}

/// A FABRIK/CCD/aim batch's chains as C passes them: `count` chains of `joints` transforms back
/// to back, with optional root parent rotations (one per chain).
#[derive(Clone, Copy)]
pub(crate) struct ChainArrays {
    chains: *mut SinewTransform,
    pub joints: usize,
    count: u32,
    parents: *const SinewQuat,
}

impl ChainArrays {
    /// The arrays of a batch (checked by [`converted`](Self::converted)).
    pub fn new(
        chains: *mut SinewTransform,
        joints: u32,
        count: u32,
        parents: *const SinewQuat,
    ) -> Self {
        let joints = joints as usize;
        Self {
            chains,
            joints,
            count,
            parents,
        }
    }

    /// The batch with its targets, solved through `buffer`, every pointer checked (before
    /// anything is read).
    pub fn converted(self, targets: Target, buffer: &mut [Transform]) -> FfiResult<Converted<'_>> {
        check_array(self.chains.cast_const(), self.count, "chains", true)?;
        check_array(self.parents, self.count, "root_parent_rotations", false)?;
        targets.check(self.count)?;
        Ok(Converted {
            arrays: self,
            targets,
            buffer,
        })
    }
}

/// A FABRIK/CCD/aim batch in C layout, solved through the handle's conversion buffer.
pub(crate) struct Converted<'a> {
    arrays: ChainArrays,
    targets: Target,
    buffer: &'a mut [Transform],
}

impl<T: From<TwoBoneTarget>> ChainBatch<T> for Converted<'_> {
    fn count(&self) -> usize {
        self.arrays.count as usize
    }
    fn target(&self, i: usize) -> (T, Quat) {
        // SAFETY: checked pointers; the export's contract gives `count` items per array.
        unsafe {
            let target = self.targets.read(i).into();
            let parent = read_opt(self.arrays.parents, i).map_or(Quat::IDENTITY, Quat::from);
            (target, parent)
        }
    }
    fn chain(&mut self, i: usize) -> &mut [Transform] {
        let joints = self.arrays.joints;
        let buffer = &mut self.buffer[..joints];
        for (j, slot) in buffer.iter_mut().enumerate() {
            // SAFETY: as in `target`; `joints` transforms per chain.
            *slot = unsafe { self.arrays.chains.add(i * joints + j).read() }.into();
        }
        buffer
    }
    fn store(&mut self, i: usize, result: IkResult) {
        let joints = self.arrays.joints;
        for (j, t) in self.buffer[..joints].iter().enumerate() {
            // SAFETY: as in `chain`.
            unsafe { self.arrays.chains.add(i * joints + j).write((*t).into()) };
        }
        // SAFETY: as in `target`.
        unsafe { self.targets.write(i, result) };
    }
}

/// A two-bone batch in structure-of-arrays blocks: `count` chains in groups of four, each
/// group three `SinewSoaTransform` blocks (root, joint, end) with one block of targets.
/// Lanes past `count` in the last group are read (the whole block is the caller's) but never
/// written.
pub(crate) struct TwoBoneSoa {
    chains: *mut SinewSoaTransform,
    count: u32,
    position: *const SinewSoaVec3,
    rotation: *const SinewSoaQuat,
    pole: *const SinewSoaVec3,
    results: *mut SinewIkResult,
}

impl TwoBoneSoa {
    /// The blocks, every pointer checked (before anything is read).
    pub fn new(
        chains: *mut SinewSoaTransform,
        count: u32,
        position: *const SinewSoaVec3,
        rotation: *const SinewSoaQuat,
        pole: *const SinewSoaVec3,
        results: *mut SinewIkResult,
    ) -> FfiResult<Self> {
        check_array(chains.cast_const(), count, "chains", true)?;
        check_array(pole, count, "joint_targets", false)?;
        check_array(position, count, "effector_positions", true)?;
        check_array(rotation, count, "effector_rotations", false)?;
        check_array(results.cast_const(), count, "out_results", false)?;
        Ok(Self {
            chains,
            count,
            position,
            rotation,
            pole,
            results,
        })
    }

    /// Block `k` (0 root, 1 joint, 2 end) of group `g`.
    fn block(&self, g: usize, k: usize) -> *mut SinewSoaTransform {
        // SAFETY: checked pointer; the export's contract gives three blocks per group.
        unsafe { self.chains.add(3 * g + k) }
    }
}

/// A block of vectors in lanes.
#[inline(always)]
fn soa_v3(v: &SinewSoaVec3) -> V3<F4> {
    V3 {
        x: F4::from_array(v.x),
        y: F4::from_array(v.y),
        z: F4::from_array(v.z),
    }
}

/// A block of quaternions in lanes.
#[inline(always)]
fn soa_q(q: &SinewSoaQuat) -> Q<F4> {
    Q {
        x: F4::from_array(q.x),
        y: F4::from_array(q.y),
        z: F4::from_array(q.z),
        w: F4::from_array(q.w),
    }
}

impl TwoBoneBatch for TwoBoneSoa {
    fn count(&self) -> usize {
        self.count as usize
    }
    fn target(&self, i: usize) -> TwoBoneTarget {
        let (g, l) = (i / 4, i % 4);
        // SAFETY: checked pointers; one block per group of four chains.
        unsafe {
            TwoBoneTarget {
                position: (*self.position.add(g)).lane(l).into(),
                rotation: read_opt(self.rotation, g).map(|q| q.lane(l).into()),
                pole: read_opt(self.pole, g).map(|p| p.lane(l).into()),
            }
        }
    }
    fn read(&mut self, i: usize) -> [Transform; 3] {
        let (g, l) = (i / 4, i % 4);
        // SAFETY: as in `target`; read by value.
        [0, 1, 2].map(|k| unsafe { self.block(g, k).read() }.lane(l).into())
    }
    fn write(&mut self, i: usize, solved: &Solved) {
        let (g, l) = (i / 4, i % 4);
        let mut chain = self.read(i);
        solved.write(&mut chain);
        for (k, t) in chain.iter().enumerate() {
            // SAFETY: as in `target`; the caller's block, ours for the call. Only lane `l` of
            // the translation and rotation is written.
            let b = unsafe { &mut *self.block(g, k) };
            b.translation.set_lane(l, &t.translation.into());
            b.rotation.set_lane(l, &t.rotation.into());
        }
    }
    fn set_result(&mut self, i: usize, result: IkResult) {
        if !self.results.is_null() {
            // SAFETY: checked pointer of `count` results.
            unsafe { self.results.add(i).write(result.into()) };
        }
    }
    #[inline(always)]
    fn lanes(&mut self, start: usize) -> Chains4 {
        let g = start / 4;
        // SAFETY: as in `target`; blocks read by value.
        let [root, joint, end] = [0, 1, 2].map(|k| unsafe { self.block(g, k).read() });
        let rotation = unsafe { read_opt(self.rotation, g) };
        let pole = unsafe { read_opt(self.pole, g) };
        let all = |has: bool| if has { 0b1111 } else { 0 };
        Chains4 {
            pos: [&root, &joint, &end].map(|b| soa_v3(&b.translation)),
            rot: [&root, &joint, &end].map(|b| soa_q(&b.rotation)),
            scale: [&root, &joint, &end].map(|b| soa_v3(&b.scale)),
            goal: soa_v3(unsafe { &*self.position.add(g) }),
            goal_rot: rotation.as_ref().map_or(Q::identity(), soa_q),
            has_goal_rot: all(rotation.is_some()),
            pole: pole.as_ref().map_or(V3::zero(), soa_v3),
            has_pole: all(pole.is_some()),
        }
    }
    #[inline(always)]
    fn write_lanes(&mut self, start: usize, solved: &Solved4, done: u32) {
        if done != 0b1111 {
            for (j, (s, result)) in solved.lanes().iter().enumerate() {
                if done & (1 << j) != 0 {
                    self.write(start + j, s);
                    self.set_result(start + j, *result);
                }
            }
            return;
        }
        let g = start / 4;
        let v = |v: &V3<F4>| SinewSoaVec3 {
            x: v.x.to_array(),
            y: v.y.to_array(),
            z: v.z.to_array(),
        };
        let q = |q: &Q<F4>| SinewSoaQuat {
            x: q.x.to_array(),
            y: q.y.to_array(),
            z: q.z.to_array(),
            w: q.w.to_array(),
        };
        // SAFETY: as in `target`; whole fields of blocks written through the pointers.
        unsafe {
            (&raw mut (*self.block(g, 0)).rotation).write(q(&solved.root));
            (&raw mut (*self.block(g, 1)).translation).write(v(&solved.mid.0));
            (&raw mut (*self.block(g, 1)).rotation).write(q(&solved.mid.1));
            (&raw mut (*self.block(g, 2)).translation).write(v(&solved.end.0));
            (&raw mut (*self.block(g, 2)).rotation).write(q(&solved.end.1));
        }
        let (error, reached) = (solved.error.to_array(), solved.reached.bitmask());
        for (j, error) in error.into_iter().enumerate() {
            let result = IkResult {
                reached: reached & (1 << j) != 0,
                error,
                iterations: 1,
            };
            self.set_result(start + j, result);
        }
    }
}
