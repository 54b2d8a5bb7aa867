//! Batch solves: many independent chains in one call, four at a time in lanes, each chain's
//! result equal to a single solve's bit for bit.

use super::finish::{finish, Solved};
use super::input::{is_clean, validated_chain};
use super::placement::Placement;
use super::settings::{TwoBoneIkSettings, TwoBoneTarget};
use super::single;
use super::wide::{self, Chains4, Solved4};
use crate::error::{Error, ErrorKind, Result};
use crate::ik::chain_batch::batch_outcome;
use crate::ik::IkResult;
use crate::transform::Transform;

/// Where a batch solve finds its chains, targets and results, for callers that keep them in
/// their own layout (the C ABI's arrays, whose targets may point into the chains).
pub(crate) trait TwoBoneBatch {
    /// Number of chains.
    fn count(&self) -> usize;
    /// Chain `i`'s target.
    fn target(&self, i: usize) -> TwoBoneTarget;
    /// Chain `i`: root, joint and end in model space.
    fn read(&mut self, i: usize) -> [Transform; 3];
    /// Writes a solve's new values over chain `i`.
    fn write(&mut self, i: usize, solved: &Solved);
    /// Stores chain `i`'s result.
    fn set_result(&mut self, i: usize, result: IkResult);
    /// Chains `start..start + 4` and their targets in lanes; lanes past the last chain repeat
    /// it (or hold anything: they are ignored).
    #[inline(always)]
    fn lanes(&mut self, start: usize) -> Chains4 {
        let last = self.count() - 1;
        let i = [0, 1, 2, 3].map(|j| (start + j).min(last));
        let chains = i.map(|i| self.read(i));
        Chains4::gather(&chains, &i.map(|i| self.target(i)))
    }
    /// Writes lanes `done` (bits) of `solved` over chains `start..` with their results.
    #[inline(always)]
    fn write_lanes(&mut self, start: usize, solved: &Solved4, done: u32) {
        for (j, (solved, result)) in solved.lanes().iter().enumerate() {
            if done & (1 << j) != 0 {
                self.write(start + j, solved);
                self.set_result(start + j, *result);
            }
        }
    }
}

/// Slices of chains, targets and results of one length.
struct SliceBatch<'a> {
    chains: &'a mut [[Transform; 3]],
    targets: &'a [TwoBoneTarget],
    results: &'a mut [IkResult],
}

impl TwoBoneBatch for SliceBatch<'_> {
    fn count(&self) -> usize {
        self.chains.len()
    }
    fn target(&self, i: usize) -> TwoBoneTarget {
        self.targets[i]
    }
    fn read(&mut self, i: usize) -> [Transform; 3] {
        self.chains[i]
    }
    fn write(&mut self, i: usize, solved: &Solved) {
        solved.write(&mut self.chains[i]);
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

/// Bits of the first `n` lanes.
fn live(n: usize) -> u32 {
    (1 << n.min(4)) - 1
}

/// Checks every chain and target, then solves them four at a time in lanes ([`wide`]); a
/// lane that the lanes cannot complete is solved alone from the values read for its group,
/// as a single solve would. Inlined into the entry points, as when it was their body.
#[inline(always)]
pub(super) fn solve<B: TwoBoneBatch>(s: &TwoBoneIkSettings, batch: &mut B) -> Result<()> {
    let count = batch.count();
    // Check everything first, so bad input leaves every chain untouched.
    for start in (0..count).step_by(4) {
        let chains = batch.lanes(start);
        let live = live(count - start);
        let unclean = live & !wide::clean(&chains);
        for j in (0..4).filter(|j| unclean & (1 << j) != 0) {
            let (chain, target) = chains.lane(j);
            validated_chain(&chain)
                .and(target.validated())
                .map_err(|e| {
                    Error::new(e.kind(), format!("chain {}: {}", start + j, e.message()))
                })?;
        }
    }
    // Inputs are read again as each group is solved (targets stored inside chains solved
    // before them have changed) and checked again where they are not clean.
    let mut failure: Option<(usize, Error)> = None;
    for start in (0..count).step_by(4) {
        let chains = batch.lanes(start);
        let live = live(count - start);
        let pass = wide::solve(s, &chains);
        let done = pass.done & live;
        if let Some(solved) = pass.solved.as_ref().filter(|_| done != 0) {
            batch.write_lanes(start, solved, done);
        }
        if done == live {
            continue;
        }
        let placed = pass.placed.as_ref().map(Placement::lanes);
        for j in (0..4).filter(|j| (live & !done) & (1 << j) != 0) {
            let (input, target) = chains.lane(j);
            let solved = if pass.placed_ok & (1 << j) != 0 {
                let placement = placed.as_ref().map(|(p, _)| p[j]);
                finish(s, &input, &target, placement.expect("lanes were placed"))
            } else {
                one(s, &input, &target)
            };
            match solved {
                Ok((solved, result)) => {
                    if let Some(solved) = solved {
                        batch.write(start + j, &solved);
                    }
                    batch.set_result(start + j, result);
                }
                Err(e) => {
                    failure.get_or_insert((start + j, e));
                }
            }
        }
    }
    batch_outcome(failure)
}

/// One chain as a single solve does it: checked where it is not clean, placed, finished.
fn one(
    s: &TwoBoneIkSettings,
    input: &[Transform; 3],
    target: &TwoBoneTarget,
) -> Result<(Option<Solved>, IkResult)> {
    let (input, target) = if is_clean(input, target) {
        (*input, *target)
    } else {
        (validated_chain(input)?, target.validated()?)
    };
    single::solve(s, &input, &target)
}
