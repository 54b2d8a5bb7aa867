//! Batch solves for FABRIK and CCD: many independent chains of one length in one call, every
//! input checked before anything is written.

use glam::Quat;

use super::chain::{ChainSolver, ChainTarget};
use super::{AimIk, AimTarget, Ccd, Fabrik, IkResult};
use crate::error::{Error, ErrorKind, Result};
use crate::rotation::normalize_robust;
use crate::transform::Transform;

/// Where a chain batch keeps its chains, targets and results, in the caller's layout.
pub(crate) trait ChainBatch<T> {
    /// Number of chains.
    fn count(&self) -> usize;
    /// Chain `i`'s target and the model rotation of its root's parent.
    fn target(&self, i: usize) -> (T, Quat);
    /// Chain `i` in Sinew's layout, to be solved in place (a converting caller loads it into
    /// a buffer).
    fn chain(&mut self, i: usize) -> &mut [Transform];
    /// Records chain `i`'s successful solve (a converting caller stores the buffer back).
    fn store(&mut self, i: usize, result: IkResult);
}

/// Checks every chain, target and parent rotation, then solves each chain. A chain whose
/// solve fails afterwards (only non-representable results can) is left untouched, the others
/// are solved, and the first such chain is reported.
pub(crate) fn solve_batch<S: ChainSolver>(
    solver: &mut S,
    joints: usize,
    batch: &mut impl ChainBatch<S::Target>,
) -> Result<()> {
    // The chain length is checked even for an empty batch, so a bad call fails every time.
    let (min, max) = (S::MIN_JOINTS, solver.max_joints());
    if !(min..=max).contains(&joints) {
        let kind = if joints < min {
            ErrorKind::InvalidArgument
        } else {
            ErrorKind::OutOfRange
        };
        return Err(Error::new(
            kind,
            format!("chains of {joints} joints: the solver takes {min}..={max}"),
        ));
    }
    let at = |i: usize| move |e: Error| Error::new(e.kind(), format!("chain {i}: {}", e.message()));
    for i in 0..batch.count() {
        let (target, parent) = batch.target(i);
        parent_rotation(parent).map_err(at(i))?;
        let chain = batch.chain(i);
        solver.check(chain, &target).map_err(at(i))?;
    }
    let mut first_failure = None;
    for i in 0..batch.count() {
        let (target, parent) = batch.target(i);
        // Checked above.
        let parent = parent_rotation(parent).unwrap_or(Quat::IDENTITY);
        match solver.solve_chain(batch.chain(i), parent, &target) {
            Ok(result) => batch.store(i, result),
            Err(e) => {
                first_failure.get_or_insert((i, e));
            }
        }
    }
    batch_outcome(first_failure)
}

/// What a batch returns after solving every chain it could: the first chain that failed (and
/// was left untouched), if any.
pub(crate) fn batch_outcome(first_failure: Option<(usize, Error)>) -> Result<()> {
    match first_failure {
        None => Ok(()),
        Some((i, e)) => Err(Error::new(
            e.kind(),
            format!(
                "chain {i} (and any later chain with the same problem) left untouched: {}",
                e.message()
            ),
        )),
    }
}

/// A root parent rotation normalized, or why it is unusable.
fn parent_rotation(q: Quat) -> Result<Quat> {
    if !q.is_finite() {
        return Err(Error::new(
            ErrorKind::NonFinite,
            "root parent rotation is not finite (NaN or infinity)",
        ));
    }
    normalize_robust(q).ok_or_else(|| {
        Error::new(
            ErrorKind::InvalidArgument,
            "root parent rotation is a zero quaternion",
        )
    })
}

/// Chains of `joints` transforms back to back, with per-chain targets, optional root parent
/// rotations (identity when absent) and results.
struct SliceBatch<'a, T> {
    chains: &'a mut [Transform],
    joints: usize,
    parents: Option<&'a [Quat]>,
    targets: &'a [T],
    results: &'a mut [IkResult],
}

impl<T: Copy> ChainBatch<T> for SliceBatch<'_, T> {
    fn count(&self) -> usize {
        self.targets.len()
    }
    fn target(&self, i: usize) -> (T, Quat) {
        let parent = self.parents.map_or(Quat::IDENTITY, |p| p[i]);
        (self.targets[i], parent)
    }
    fn chain(&mut self, i: usize) -> &mut [Transform] {
        &mut self.chains[i * self.joints..(i + 1) * self.joints]
    }
    fn store(&mut self, i: usize, result: IkResult) {
        self.results[i] = result;
    }
}

/// Checks that slice lengths describe `targets.len()` chains of `joints` joints.
fn slice_batch<'a, T>(
    chains: &'a mut [Transform],
    joints: usize,
    parents: Option<&'a [Quat]>,
    targets: &'a [T],
    results: &'a mut [IkResult],
) -> Result<SliceBatch<'a, T>> {
    let count = targets.len();
    let fits = joints.checked_mul(count) == Some(chains.len())
        && results.len() == count
        && parents.is_none_or(|p| p.len() == count);
    if !fits {
        return Err(Error::new(
            ErrorKind::InvalidArgument,
            format!(
                "batch sizes differ: {} transforms for {count} chains of {joints} joints, {} results{}",
                chains.len(),
                results.len(),
                parents.map_or(String::new(), |p| format!(", {} parent rotations", p.len()))
            ),
        ));
    }
    Ok(SliceBatch {
        chains,
        joints,
        parents,
        targets,
        results,
    })
}

macro_rules! chain_batch_method {
    ($solver:ty) => {
        impl $solver {
            /// Solves `targets.len()` independent chains of `joints` model-space transforms
            /// stored back to back in `chains`, each like a single `solve`. `root_parents`
            /// (one per chain) defaults to identity. Every input is checked before anything is
            /// written; a chain whose result overflows is left untouched with its result, the
            /// others are solved, and the first such chain is reported.
            pub fn solve_batch(
                &mut self,
                chains: &mut [Transform],
                joints: usize,
                root_parents: Option<&[Quat]>,
                targets: &[ChainTarget],
                results: &mut [IkResult],
            ) -> Result<()> {
                let mut batch = slice_batch(chains, joints, root_parents, targets, results)?;
                solve_batch(self, joints, &mut batch)
            }
        }
    };
}

chain_batch_method!(Fabrik);
chain_batch_method!(Ccd);

impl AimIk {
    /// Solves `targets.len()` independent chains of `joints` model-space transforms stored
    /// back to back in `chains`, each like [`AimIk::solve`], with the checks and overflow rule
    /// of the FABRIK and CCD batches.
    pub fn solve_batch(
        &mut self,
        chains: &mut [Transform],
        joints: usize,
        targets: &[AimTarget],
        results: &mut [IkResult],
    ) -> Result<()> {
        let mut batch = slice_batch(chains, joints, None, targets, results)?;
        solve_batch(self, joints, &mut batch)
    }
}
