//! Batch solves: many independent chains in one call, four at a time through the kernel's
//! four-wide lanes, each chain's result equal to a single solve's bit for bit.

use glam::Vec3;

use super::finish::finish;
use super::input::{is_clean, read_chain, validated_chain};
use super::placement::{gather, Placement};
use super::settings::{TwoBoneIkSettings, TwoBoneTarget};
use super::single::{place, uses_kernel};
use super::{general, kernel};
use crate::error::{Error, ErrorKind, Result};
use crate::ik::access::TransformAccess;
use crate::ik::chain_batch::batch_outcome;
use crate::ik::IkResult;
use crate::transform::Transform;

/// Where a batch solve finds its chains, targets and results, for callers that keep them in
/// their own layout (the C ABI's arrays, whose targets may point into the chains).
pub(crate) trait TwoBoneBatch {
    /// The caller's transform type.
    type Transform: TransformAccess;
    /// Number of chains.
    fn count(&self) -> usize;
    /// Chain `i`'s target.
    fn target(&self, i: usize) -> TwoBoneTarget;
    /// Chain `i`: root, joint and end in model space.
    fn chain(&mut self, i: usize) -> &mut [Self::Transform; 3];
    /// Stores chain `i`'s result.
    fn set_result(&mut self, i: usize, result: IkResult);
    /// Whether targets may be stored inside the chains (then they change as chains are
    /// solved and are checked again when read).
    fn targets_may_alias_chains(&self) -> bool {
        false
    }
}

/// Slices of chains, targets and results of one length.
struct SliceBatch<'a> {
    chains: &'a mut [[Transform; 3]],
    targets: &'a [TwoBoneTarget],
    results: &'a mut [IkResult],
}

impl TwoBoneBatch for SliceBatch<'_> {
    type Transform = Transform;
    fn count(&self) -> usize {
        self.chains.len()
    }
    fn target(&self, i: usize) -> TwoBoneTarget {
        self.targets[i]
    }
    fn chain(&mut self, i: usize) -> &mut [Transform; 3] {
        &mut self.chains[i]
    }
    fn set_result(&mut self, i: usize, result: IkResult) {
        self.results[i] = result;
    }
}

/// [`solve`] over slices of one length.
pub(super) fn solve_slices(
    s: &TwoBoneIkSettings,
    chains: &mut [[Transform; 3]],
    targets: &[TwoBoneTarget],
    results: &mut [IkResult],
) -> Result<()> {
    if targets.len() != chains.len() || results.len() != chains.len() {
        return Err(Error::new(
            ErrorKind::InvalidArgument,
            format!(
                "batch sizes differ: {} chains, {} targets, {} results",
                chains.len(),
                targets.len(),
                results.len()
            ),
        ));
    }
    solve(
        s,
        &mut SliceBatch {
            chains,
            targets,
            results,
        },
    )
}

/// Checks every chain and target, then solves them in groups of four: the kernel on all four
/// lanes when it applies to the group, the general path for the lanes it cannot place.
/// Inlined into the entry points, as when it was their body (as a call it ran about 6 % more
/// instructions per chain).
#[inline(always)]
pub(super) fn solve<B: TwoBoneBatch>(s: &TwoBoneIkSettings, batch: &mut B) -> Result<()> {
    let count = batch.count();
    // Check everything first, so bad input leaves every chain untouched.
    let mut recheck = batch.targets_may_alias_chains();
    for i in 0..count {
        let target = batch.target(i);
        let chain = read_chain(batch.chain(i));
        if !is_clean(&chain, &target) {
            validated_chain(&chain)
                .and(target.validated())
                .map_err(|e| Error::new(e.kind(), format!("chain {i}: {}", e.message())))?;
            recheck = true;
        }
    }
    // Inputs are read again as each chain is solved. Clean input that cannot change is
    // used as it is; otherwise (rotations to normalize, targets stored inside chains solved
    // before them) each read is checked again.
    let read = |batch: &mut B, i, (chain, target): &mut ([Transform; 3], TwoBoneTarget)| {
        let source = batch.chain(i);
        for (t, from) in chain.iter_mut().zip(source.iter()) {
            *t = from.transform();
        }
        *target = batch.target(i);
        if recheck && !is_clean(chain, target) {
            *chain = validated_chain(chain)?;
            *target = target.validated()?;
        }
        Ok(())
    };
    let mut failure: Option<(usize, Error)> = None;
    let mut group = [([Transform::IDENTITY; 3], TwoBoneTarget::at(Vec3::ZERO)); 4];
    let mut read_ok: [Result<()>; 4] = [Ok(()), Ok(()), Ok(()), Ok(())];
    let mut start = 0;
    while start < count {
        let lanes = (count - start).min(4);
        for (j, (slot, ok)) in group.iter_mut().zip(&mut read_ok).enumerate() {
            *ok = read(batch, start + j.min(lanes - 1), slot);
        }
        let has_pole = group[0].1.pole.is_some();
        let uniform = group.iter().all(|(_, t)| t.pole.is_some() == has_pole);
        let wide = (lanes == 4 && uniform && uses_kernel(s, has_pole))
            .then(|| Placement::lanes(&kernel::place(s, &gather(&group))));
        for (j, (input, target)) in group.iter().take(lanes).enumerate() {
            let solved = std::mem::replace(&mut read_ok[j], Ok(())).and_then(|()| {
                let placed = match &wide {
                    Some((placed, ok)) if ok[j] => placed[j],
                    Some(_) => general::place(s, input, target),
                    None => place(s, input, target),
                };
                finish(s, input, target, placed)
            });
            match solved {
                Ok((solved, result)) => {
                    if let Some(solved) = solved {
                        solved.write(batch.chain(start + j));
                    }
                    batch.set_result(start + j, result);
                }
                Err(e) => {
                    failure.get_or_insert((start + j, e));
                }
            }
        }
        start += lanes;
    }
    batch_outcome(failure)
}
