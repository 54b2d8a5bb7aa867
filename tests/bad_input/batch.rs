//! The batch exports (`*_solve_batch`), judged against their single solves: every chain is
//! replayed through the single solve on copies first, and the batch must match that chain by
//! chain ([`check_batch`]).

use std::ptr::null;

use sinew::ffi::SinewStatus as St;
use sinew::ffi::*;

use crate::call::{st, Callee, Outcome, Val};
use crate::probe::Probe;
use crate::world::*;

/// What each chain of a batch should hold after the call, from replaying it chain by chain
/// through the single solve on copies: the single solve's chain and result, or `None` where
/// the single solve overflows (the batch leaves that chain and its result untouched). `Err`
/// names the first chain whose single solve fails otherwise, and its status: the batch must
/// then fail as a whole with that status and a message starting `chain <i>: `.
pub type Replay = Result<Vec<Option<(Vec<SinewTransform>, SinewIkResult)>>, (usize, St)>;

/// The optional arrays a batch call passed (NULL ones are NULL single arguments in the replay).
#[derive(Clone, Copy)]
pub struct Given {
    pub rotations: bool,
    /// Poles (two-bone), root parent rotations (FABRIK, CCD) or up targets (aim).
    pub per_chain: bool,
    pub results: bool,
}

/// Replays `count` chains of `joints` transforms of `chains` through `solve` (the chain's
/// index, a copy of the chain, a copy of its result).
fn replay(
    chains: &[SinewTransform],
    results: &[SinewIkResult],
    (count, joints): (usize, usize),
    mut solve: impl FnMut(usize, &mut [SinewTransform], &mut SinewIkResult) -> St,
) -> Replay {
    let mut out = Vec::new();
    for i in 0..count {
        let mut chain = chains[joints * i..joints * (i + 1)].to_vec();
        let mut result = results[i];
        match solve(i, &mut chain, &mut result) {
            St::Ok => out.push(Some((chain, result))),
            St::NumericOverflow => out.push(None),
            s => return Err((i, s)),
        }
    }
    Ok(out)
}

/// Replays `count` two-bone chains of `b` through `sinew_two_bone_ik_solve`.
pub fn two_bone_replay(
    solver: *mut SinewTwoBoneIk,
    b: &Bufs,
    count: usize,
    given: Given,
) -> Replay {
    replay(&b.batch3, &b.out_results, (count, 3), |i, chain, result| {
        let rotation = opt(given.rotations, &b.batch_rotations[i]);
        let pole = opt(given.per_chain, &b.batch_poles[i]);
        let effector = &b.batch_effectors3[i];
        // SAFETY: a live solver; a copy of one chain, one item per other pointer.
        unsafe {
            sinew_two_bone_ik_solve(solver, chain.as_mut_ptr(), effector, rotation, pole, result)
        }
    })
}

/// Replays `count` FABRIK or CCD chains of `joints` joints of `b` through the single solve
/// (`solver`: whether FABRIK, and the two handles).
pub fn chain_replay(
    solver: (bool, *mut SinewFabrik, *mut SinewCcd),
    b: &Bufs,
    count: usize,
    joints: usize,
    given: Given,
) -> Replay {
    replay(
        &b.batch,
        &b.out_results,
        (count, joints),
        |i, chain, result| {
            let parent = opt(given.per_chain, &b.batch_parents[i]);
            let rotation = opt(given.rotations, &b.batch_rotations[i]);
            let target = (&b.batch_effectors[i], rotation);
            // SAFETY: live solvers; a copy of one chain, one item per other pointer.
            unsafe { chain_solve(solver, chain, parent, target, result) }
        },
    )
}

/// Replays `count` aim chains of `joints` joints of `b` through `sinew_aim_ik_solve`.
pub fn aim_replay(
    solver: *mut SinewAimIk,
    b: &Bufs,
    count: usize,
    joints: usize,
    given: Given,
) -> Replay {
    replay(
        &b.batch,
        &b.out_results,
        (count, joints),
        |i, chain, result| {
            let up = opt(given.per_chain, &b.batch_poles[i]);
            let (c, n) = (chain.as_mut_ptr(), chain.len() as u32);
            // SAFETY: a live solver; a copy of one chain, one item per other pointer.
            unsafe { sinew_aim_ik_solve(solver, c, n, &b.batch_effectors[i], up, result) }
        },
    )
}

/// The single FABRIK (`solver.0`) or CCD solve of `chain` (of `chain.len()` joints) toward
/// `target` (effector position and optional rotation).
///
/// # Safety
///
/// The handles are live; `parent` and the target rotation are NULL or valid.
pub unsafe fn chain_solve(
    solver: (bool, *mut SinewFabrik, *mut SinewCcd),
    chain: &mut [SinewTransform],
    parent: *const SinewQuat,
    (effector, rotation): (&SinewVec3, *const SinewQuat),
    result: &mut SinewIkResult,
) -> St {
    let (c, n) = (chain.as_mut_ptr(), chain.len() as u32);
    if solver.0 {
        sinew_fabrik_solve(solver.1, c, n, parent, effector, rotation, result)
    } else {
        sinew_ccd_solve(solver.2, c, n, parent, effector, rotation, result)
    }
}

/// `p` when the batch call passed its array, else NULL.
pub fn opt<T>(on: bool, p: *const T) -> *const T {
    if on {
        p
    } else {
        null()
    }
}

/// Whether two floats agree within `tol` relative to their size (0: the same value).
pub fn near(a: f32, b: f32, tol: f32) -> bool {
    a == b || (a - b).abs() <= tol * a.abs().max(b.abs()).max(1.0)
}

pub fn near_transform(a: &SinewTransform, b: &SinewTransform, tol: f32) -> bool {
    let v3 = |x: SinewVec3, y: SinewVec3| {
        near(x.x, y.x, tol) && near(x.y, y.y, tol) && near(x.z, y.z, tol)
    };
    let (p, r) = (a.rotation, b.rotation);
    let q4 = |s: f32| {
        near(p.x, s * r.x, tol)
            && near(p.y, s * r.y, tol)
            && near(p.z, s * r.z, tol)
            && near(p.w, s * r.w, tol)
    };
    v3(a.translation, b.translation) && v3(a.scale, b.scale) && (q4(1.0) || q4(-1.0))
}

/// How a batch base call's outcome is judged against its replay.
pub struct BatchCheck {
    /// The batch's chains array in a `Bufs`.
    pub chains: fn(&mut Bufs) -> &mut [SinewTransform],
    /// Transforms per chain.
    pub joints: usize,
    pub given: Given,
    /// How far a solved chain may stray from the single solve's, relative to its size: 0 for
    /// every batch export (the header: each chain equals its single solve bit for bit).
    pub tolerance: f32,
}

/// Judges a batch call that returned `status`, given the state `before` it and the replay of
/// its chains (none when the call's counts make a replay meaningless):
///
/// - a chain whose single solve fails (not by overflow): the batch fails with the same status
///   and a message starting `chain <i>: ` (the harness then checks every byte is untouched);
/// - otherwise, when it succeeds or reports an overflow: every chain the single solve solves
///   holds the single solve's chain and result (within the tolerance), every chain it
///   overflows and every chain past the count is untouched with its result, guards and all
///   other buffers are untouched, and the status is NUMERIC_OVERFLOW naming the first
///   overflowing chain exactly when there is one. After an overflow the batch arrays are put
///   back as they were, so the harness's byte-for-byte check covers everything else (the
///   handles too).
pub fn check_batch(
    w: &mut World,
    before: &Bufs,
    status: St,
    replay: Option<Replay>,
    c: BatchCheck,
) -> Outcome {
    let Some(replay) = replay else {
        return st(status);
    };
    let message = message();
    let expected = match replay {
        Err((i, single)) => {
            let prefix = format!("chain {i}: ");
            if status != single || !message.starts_with(&prefix) {
                return Outcome::Fail(format!(
                    "the single solve of chain {i} returns {single:?}; the batch returned \
                     {status:?} with message {message:?} (expected the same status and a \
                     message starting {prefix:?})"
                ));
            }
            return st(status);
        }
        Ok(expected) => expected,
    };
    if !matches!(status, St::Ok | St::NumericOverflow) {
        // An argument the replay did not use (a NULL or misaligned pointer, a bad count):
        // the harness judges the status and checks nothing changed.
        return st(status);
    }
    let first_overflow = expected.iter().position(Option::is_none);
    match first_overflow {
        None if status != St::Ok => {
            return Outcome::Fail(format!(
                "{status:?} ({message:?}) although every chain solves singly"
            ))
        }
        Some(i)
            if status != St::NumericOverflow || !message.starts_with(&format!("chain {i} ")) =>
        {
            return Outcome::Fail(format!(
                "chain {i} overflows singly; the batch returned {status:?} with {message:?} \
                 (expected NUMERIC_OVERFLOW naming chain {i})"
            ))
        }
        _ => {}
    }
    let (mut now, mut old) = (w.b, *before);
    {
        let (got, was) = ((c.chains)(&mut now), (c.chains)(&mut old));
        for (i, want) in expected.iter().enumerate() {
            let range = c.joints * i..c.joints * (i + 1);
            let (got, was) = (&got[range.clone()], &was[range]);
            let fine = match want {
                Some((chain, _)) => got
                    .iter()
                    .zip(chain)
                    .all(|(a, b)| near_transform(a, b, c.tolerance)),
                None => words_of(got) == words_of(was),
            };
            if !fine {
                let want = want.as_ref().map_or(was, |(chain, _)| chain.as_slice());
                return Outcome::Fail(format!("chain {i} holds {got:?}, expected {want:?}"));
            }
        }
        let rest = c.joints * expected.len();
        if words_of(&got[rest..]) != words_of(&was[rest..]) {
            return Outcome::Fail(format!(
                "the chains array changed past the {} chains solved",
                expected.len()
            ));
        }
    }
    for (i, (got, was)) in now.out_results.iter().zip(&old.out_results).enumerate() {
        let want = match expected.get(i) {
            Some(Some((_, result))) if c.given.results => *result,
            _ => *was,
        };
        let fine = got.reached == want.reached
            && got.iterations == want.iterations
            && near(got.error, want.error, c.tolerance);
        if !fine {
            return Outcome::Fail(format!("out_results[{i}] is {got:?}, expected {want:?}"));
        }
    }
    (c.chains)(&mut now).copy_from_slice((c.chains)(&mut old));
    now.out_results = old.out_results;
    let (mut a, mut b) = (Probe::default(), Probe::default());
    now.segments(&mut a);
    old.segments(&mut b);
    if let Some(d) = a.diff(&b) {
        return Outcome::Fail(format!("the batch wrote outside its outputs: {d}"));
    }
    if status == St::NumericOverflow {
        w.b = now;
    }
    st(status)
}

/// A batch call: replays its chains through the single solve on copies, plants the stale
/// message again (so the batch call alone decides the message the harness reads), calls the
/// batch and judges it ([`check_batch`]).
pub fn call(w: &mut World, c: &Callee, args: &[Val]) -> Outcome {
    let soa = c.func.name == "sinew_two_bone_ik_solve_batch_soa";
    let two_bone = soa || c.func.name == "sinew_two_bone_ik_solve_batch";
    let aim = c.func.name == "sinew_aim_ik_solve_batch";
    let count = c.get(args, "chain_count").count();
    let joints = if two_bone {
        3
    } else {
        c.get(args, "joint_count").count()
    };
    let per_chain = if two_bone {
        "joint_targets"
    } else if aim {
        "up_targets"
    } else {
        "root_parent_rotations"
    };
    let given = Given {
        rotations: !aim && !c.get(args, "effector_rotations").is_null(),
        per_chain: !c.get(args, per_chain).is_null(),
        results: !c.get(args, "out_results").is_null(),
    };
    let before = w.b;
    // Chain lengths outside 2..=max_joints (aim: 1..=max_joints) are the call's error, not a
    // chain's.
    let min = if aim { 1 } else { 2 };
    let replay = (count <= B && (two_bone || (min..=N).contains(&joints))).then(|| {
        if two_bone {
            two_bone_replay(w.two_bone, &before, count, given)
        } else if aim {
            aim_replay(w.aim, &before, count, joints, given)
        } else {
            let fabrik = c.func.name == "sinew_fabrik_solve_batch";
            chain_replay((fabrik, w.fabrik, w.ccd), &before, count, joints, given)
        }
    });
    stale_marker(w.skel);
    let status = match if soa {
        soa::call(w, c, args)
    } else {
        (c.erased)(args)
    } {
        Outcome::Status(s) => s,
        other => return other,
    };
    let check = BatchCheck {
        chains: if two_bone { two_bone_chains } else { chains },
        joints,
        given,
        tolerance: 0.0,
    };
    check_batch(w, &before, status, replay, check)
}

/// The two-bone batch's chains array.
pub fn two_bone_chains(b: &mut Bufs) -> &mut [SinewTransform] {
    &mut b.batch3[..]
}

/// The FABRIK and CCD batches' chains array.
fn chains(b: &mut Bufs) -> &mut [SinewTransform] {
    &mut b.batch[..]
}

/// A batch's chains (as many as the base call passes) and effectors.
pub fn batch_of<'a>(
    b: &'a mut Bufs,
    export: &str,
) -> (&'a mut [SinewTransform], &'a mut [SinewVec3; B]) {
    if export.starts_with("sinew_two_bone_ik_solve_batch") {
        (&mut b.batch3[..3 * B], &mut b.batch_effectors3)
    } else {
        (&mut b.batch[..N * B], &mut b.batch_effectors)
    }
}

/// The structure-of-arrays batch, called on the world's two-bone batch arrays arranged in
/// blocks of four lanes: the same chains, so it is judged like the array batch.
pub mod soa {
    use super::*;

    /// Groups of four chains that cover the world's B.
    const G: usize = B.div_ceil(4);

    /// The world's batch arrays in blocks; lanes past B hold sentinels.
    #[derive(Clone, Copy, PartialEq, Debug)]
    struct Blocks {
        chains: [SinewSoaTransform; 3 * G],
        effectors: [SinewSoaVec3; G],
        rotations: [SinewSoaQuat; G],
        poles: [SinewSoaVec3; G],
    }

    impl Blocks {
        fn of(b: &Bufs) -> Self {
            let mut s = Blocks {
                chains: [SinewSoaTransform::default(); 3 * G],
                effectors: [SinewSoaVec3::default(); G],
                rotations: [SinewSoaQuat::default(); G],
                poles: [SinewSoaVec3::default(); G],
            };
            for i in 0..4 * G {
                let (g, l) = (i / 4, i % 4);
                for k in 0..3 {
                    let t = if i < B { b.batch3[3 * i + k] } else { SENT_T };
                    s.chains[3 * g + k].set_lane(l, &t);
                }
                let item = |a: &[SinewVec3; B]| if i < B { a[i] } else { SENT_T.translation };
                s.effectors[g].set_lane(l, &item(&b.batch_effectors3));
                s.poles[g].set_lane(l, &item(&b.batch_poles));
                let rotation = if i < B { b.batch_rotations[i] } else { ID };
                s.rotations[g].set_lane(l, &rotation);
            }
            s
        }

        /// Lane `i`'s chain written back over the world's chain `i`.
        fn write_back(&self, b: &mut Bufs, i: usize) {
            let (g, l) = (i / 4, i % 4);
            for k in 0..3 {
                b.batch3[3 * i + k] = self.chains[3 * g + k].lane(l);
            }
        }
    }

    /// `p` moved from `from` (the world's array) to `to` (its blocks) by the same byte offset,
    /// so NULL stays NULL and a misaligned pointer stays misaligned.
    fn moved(p: Val, from: *const u8, to: *mut u8) -> Val {
        match p {
            Val::Ptr(p) if !p.is_null() => {
                let offset = (p as usize).wrapping_sub(from as usize);
                Val::Ptr(to.wrapping_add(offset).cast())
            }
            other => other,
        }
    }

    /// Calls the SoA batch with the array arguments pointed at blocks built from the world's
    /// arrays, then copies the solved lanes back; any write to a lane past B is a failure.
    pub fn call(w: &mut World, c: &Callee, args: &[Val]) -> Outcome {
        let mut blocks = Blocks::of(&w.b);
        let before = blocks;
        let mut args = args.to_vec();
        let b = &mut w.b;
        let arrays: [(&str, *const u8, *mut u8); 4] = [
            (
                "chains",
                b.batch3.as_ptr().cast(),
                blocks.chains.as_mut_ptr().cast(),
            ),
            (
                "effector_positions",
                b.batch_effectors3.as_ptr().cast(),
                blocks.effectors.as_mut_ptr().cast(),
            ),
            (
                "effector_rotations",
                b.batch_rotations.as_ptr().cast(),
                blocks.rotations.as_mut_ptr().cast(),
            ),
            (
                "joint_targets",
                b.batch_poles.as_ptr().cast(),
                blocks.poles.as_mut_ptr().cast(),
            ),
        ];
        for (name, from, to) in arrays {
            let k = c.func.params.iter().position(|p| p.name == name).unwrap();
            args[k] = moved(args[k], from, to);
        }
        let out = (c.erased)(&args);
        for i in 0..B {
            blocks.write_back(&mut w.b, i);
        }
        let mut unused = blocks;
        let mut unused_before = before;
        for i in 0..B {
            // Only lanes past B must match exactly: blank the solved ones.
            for s in [&mut unused, &mut unused_before] {
                let (g, l) = (i / 4, i % 4);
                let sentinel = SinewTransform {
                    rotation: ID,
                    ..SENT_T
                };
                for k in 0..3 {
                    s.chains[3 * g + k].set_lane(l, &sentinel);
                }
            }
        }
        if words(&unused) != words(&unused_before) {
            return Outcome::Fail(format!("lanes past chain {B} changed: {unused:?}"));
        }
        out
    }
}
