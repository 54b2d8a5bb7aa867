//! Batch solves through the C ABI: arrays read and written element by element through raw
//! pointers (inputs may alias outputs without undefined behaviour), converted at the edge.

use glam::Quat;

use super::args::check_pointer;
use super::guard::FfiResult;
use super::types::{SinewIkResult, SinewQuat, SinewTransform, SinewVec3};
use crate::ik::chain_batch::ChainBatch;
use crate::ik::two_bone::TwoBoneBatch;
use crate::ik::{ChainTarget, IkResult, TwoBoneTarget};
use crate::transform::Transform;

/// Checks an array argument of `count` items: a required one must be non-NULL, and any
/// non-NULL one aligned. Nothing is checked for an empty batch.
pub(crate) fn check_array<T>(p: *const T, count: u32, name: &str, required: bool) -> FfiResult<()> {
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
    // SAFETY: caller's contract.
    (!p.is_null()).then(|| unsafe { p.add(i).read() })
}

/// The per-chain arrays of a target: positions (required), rotations and results (optional).
#[derive(Clone, Copy)]
pub(crate) struct TargetArrays {
    pub count: u32,
    pub positions: *const SinewVec3,
    pub rotations: *const SinewQuat,
    pub results: *mut SinewIkResult,
}

impl TargetArrays {
    /// Checks the arrays' pointers.
    pub fn check(&self) -> FfiResult<()> {
        check_array(self.positions, self.count, "effector_positions", true)?;
        check_array(self.rotations, self.count, "effector_rotations", false)?;
        check_array(self.results.cast_const(), self.count, "out_results", false)
    }

    /// Target `i`'s position and optional rotation.
    ///
    /// # Safety
    /// The arrays must hold `count` items; `i < count`.
    unsafe fn read(&self, i: usize) -> (glam::Vec3, Option<Quat>) {
        // SAFETY: caller's contract.
        unsafe {
            (
                self.positions.add(i).read().into(),
                read_opt(self.rotations, i).map(Quat::from),
            )
        }
    }

    /// Writes result `i` when results were asked for.
    ///
    /// # Safety
    /// As for [`read`](Self::read).
    unsafe fn write(&self, i: usize, result: IkResult) {
        if !self.results.is_null() {
            // SAFETY: caller's contract.
            unsafe { self.results.add(i).write(result.into()) };
        }
    }
}

/// A two-bone batch in C layout: `count` chains of three transforms, targets and poles.
pub(crate) struct TwoBoneArrays {
    chains: *mut SinewTransform,
    poles: *const SinewVec3,
    targets: TargetArrays,
}

impl TwoBoneArrays {
    /// The arrays, every pointer checked (before anything is read).
    pub fn new(
        chains: *mut SinewTransform,
        poles: *const SinewVec3,
        targets: TargetArrays,
    ) -> FfiResult<Self> {
        check_array(chains.cast_const(), targets.count, "chains", true)?;
        check_array(poles, targets.count, "joint_targets", false)?;
        targets.check()?;
        Ok(Self {
            chains,
            poles,
            targets,
        })
    }
}

impl TwoBoneBatch for TwoBoneArrays {
    type Transform = SinewTransform;
    fn count(&self) -> usize {
        self.targets.count as usize
    }
    fn target(&self, i: usize) -> TwoBoneTarget {
        // SAFETY: checked pointers; the export's contract gives `count` items per array.
        unsafe {
            let (position, rotation) = self.targets.read(i);
            TwoBoneTarget {
                position,
                rotation,
                pole: read_opt(self.poles, i).map(glam::Vec3::from),
            }
        }
    }
    fn chain(&mut self, i: usize) -> &mut [SinewTransform; 3] {
        // SAFETY: as in `target`; `chains` holds three transforms per chain. The borrow ends
        // before any other array is read, so arrays that overlap `chains` stay defined.
        unsafe { &mut *self.chains.add(3 * i).cast::<[SinewTransform; 3]>() }
    }
    fn set_result(&mut self, i: usize, result: IkResult) {
        // SAFETY: as in `target`.
        unsafe { self.targets.write(i, result) };
    }
    fn targets_may_alias_chains(&self) -> bool {
        let count = self.targets.count as usize;
        let chains = span(self.chains.cast_const(), 3 * count);
        [
            span(self.targets.positions, count),
            span(self.targets.rotations, count),
            span(self.poles, count),
        ]
        .iter()
        .any(|s| overlaps(s, &chains))
    }
}

/// The address range of `count` items at `p` (empty for NULL).
fn span<T>(p: *const T, count: usize) -> std::ops::Range<usize> {
    let start = p as usize;
    let len = if p.is_null() {
        0
    } else {
        count * std::mem::size_of::<T>()
    };
    start..start.saturating_add(len)
}

/// Whether two address ranges share a byte.
fn overlaps(a: &std::ops::Range<usize>, b: &std::ops::Range<usize>) -> bool {
    a.start < b.end && b.start < a.end
}

/// A FABRIK/CCD batch in C layout, solved through the handle's conversion buffer.
pub(crate) struct ChainArrays<'a> {
    pub chains: *mut SinewTransform,
    pub joints: usize,
    pub parents: *const SinewQuat,
    pub targets: TargetArrays,
    pub buffer: &'a mut [Transform],
}

impl ChainArrays<'_> {
    /// Checks every pointer (before anything is read).
    pub fn check(&self) -> FfiResult<()> {
        let count = self.targets.count;
        check_array(self.chains.cast_const(), count, "chains", true)?;
        check_array(self.parents, count, "root_parent_rotations", false)?;
        self.targets.check()
    }
}

impl ChainBatch for ChainArrays<'_> {
    fn count(&self) -> usize {
        self.targets.count as usize
    }
    fn target(&self, i: usize) -> (ChainTarget, Quat) {
        // SAFETY: checked pointers; the export's contract gives `count` items per array.
        unsafe {
            let (position, rotation) = self.targets.read(i);
            let parent = read_opt(self.parents, i).map_or(Quat::IDENTITY, Quat::from);
            (ChainTarget { position, rotation }, parent)
        }
    }
    fn chain(&mut self, i: usize) -> &mut [Transform] {
        let buffer = &mut self.buffer[..self.joints];
        for (j, slot) in buffer.iter_mut().enumerate() {
            // SAFETY: as in `target`; `joints` transforms per chain.
            *slot = unsafe { self.chains.add(i * self.joints + j).read() }.into();
        }
        buffer
    }
    fn store(&mut self, i: usize, result: IkResult) {
        for (j, t) in self.buffer[..self.joints].iter().enumerate() {
            // SAFETY: as in `chain`.
            unsafe { self.chains.add(i * self.joints + j).write((*t).into()) };
        }
        // SAFETY: as in `target`.
        unsafe { self.targets.write(i, result) };
    }
}
