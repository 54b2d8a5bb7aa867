//! Batch solves (two-bone, FABRIK and CCD) against their single solves, and inputs that point
//! into the very chains being solved (single and batch).

use std::ptr::{null, null_mut};

use sinew::ffi::*;

use super::*;

// ------------------------------------------------------------------------------ batches

/// Chains per batch: one four-wide SIMD group of the two-bone batch and a scalar tail.
const CHAINS: usize = 5;

/// How far a two-bone batch chain may stray from its single solve: 1e-6 relative (the
/// header), or [`SAME`] under Miri.
const BATCH: f32 = if cfg!(miri) { 1e-5 } else { 1e-6 };

/// Asserts batch transforms match the single solves' within `tol` relative to their size.
#[track_caller]
fn near_all(batch: &[SinewTransform], single: &[SinewTransform], tol: f32) {
    let near = |a: f32, b: f32| (a - b).abs() <= tol * a.abs().max(b.abs()).max(1.0);
    assert_eq!(batch.len(), single.len());
    for (i, (x, y)) in batch.iter().zip(single).enumerate() {
        let v = |a: SinewVec3, b: SinewVec3| near(a.x, b.x) && near(a.y, b.y) && near(a.z, b.z);
        let (p, q) = (x.rotation, y.rotation);
        let fine = v(x.translation, y.translation)
            && v(x.scale, y.scale)
            && near(p.x, q.x)
            && near(p.y, q.y)
            && near(p.z, q.z)
            && near(p.w, q.w);
        assert!(fine, "transform {i}: {x:?} != {y:?}");
    }
}

#[track_caller]
fn near_results(batch: &[SinewIkResult], single: &[SinewIkResult], tol: f32) {
    for (i, (b, s)) in batch.iter().zip(single).enumerate() {
        assert_eq!(
            (b.reached, b.iterations),
            (s.reached, s.iterations),
            "result {i}"
        );
        assert!(
            (b.error - s.error).abs() <= tol,
            "result {i}: {b:?} != {s:?}"
        );
    }
}

/// `p` when `on`, else NULL (an optional argument left out).
fn or_null<T>(on: bool, p: *const T) -> *const T {
    if on {
        p
    } else {
        null()
    }
}

/// A bad call of `sinew_two_bone_ik_solve_batch`: chains, goals, effector rotations, poles,
/// results; the status and a word of the message it must give.
type TwoBoneBatchCall = (
    *mut SinewTransform,
    *const SinewVec3,
    *const SinewQuat,
    *const SinewVec3,
    *mut SinewIkResult,
    SinewStatus,
    &'static str,
);

/// A bad call of a FABRIK or CCD batch: chains, joints per chain, root parent rotations, goals,
/// results; the status and a word of the message it must give.
type ChainBatchCall = (
    *mut SinewTransform,
    u32,
    *const SinewQuat,
    *const SinewVec3,
    *mut SinewIkResult,
    SinewStatus,
    &'static str,
);

/// A result no solve writes, to show which entries a batch left alone.
const STALE: SinewIkResult = SinewIkResult {
    reached: 7,
    error: -1.0,
    iterations: 7,
};

/// Five arms back to back, each bent and placed a little differently, all off the XY plane, so
/// every window of their floats the aliasing test reads as a quaternion is non-zero.
fn arm_chains() -> [SinewTransform; 3 * CHAINS] {
    let mut out = [SinewTransform::default(); 3 * CHAINS];
    for i in 0..CHAINS {
        let f = i as f32;
        let mut arm = arm_chain();
        arm[1].translation.y = 0.3 - 0.15 * f;
        for (k, t) in arm.iter_mut().enumerate() {
            t.translation.z += 0.1 * f + 0.05;
            t.rotation = rot_z(0.1 * (f + k as f32) + 0.05);
        }
        out[3 * i..3 * i + 3].copy_from_slice(&arm);
    }
    out
}

/// FABRIK and CCD batches have no SIMD group: three chains (the last one not the first) are
/// enough, and Miri interprets every iteration.
const CHAIN_BATCH: usize = 3;

/// Three four-joint chains back to back, likewise.
fn straight_chains() -> [SinewTransform; 4 * CHAIN_BATCH] {
    let mut out = [SinewTransform::default(); 4 * CHAIN_BATCH];
    for i in 0..CHAIN_BATCH {
        let f = i as f32;
        let mut chain = straight_chain();
        for (k, t) in chain.iter_mut().enumerate() {
            t.translation.y += 0.02 * f * k as f32;
            t.translation.z += 0.1 * f + 0.05;
            t.rotation = rot_z(0.05 * (f + k as f32) + 0.05);
        }
        out[4 * i..4 * i + 4].copy_from_slice(&chain);
    }
    out
}

#[test]
fn two_bone_ik_batch_round_trip_and_errors() {
    // SAFETY: as in two_bone_ik_round_trip_and_errors; every array holds CHAINS items
    // (`chains` three per chain).
    unsafe {
        let defaults = defaults(sinew_two_bone_ik_settings_default);
        let mut solver = null_mut();
        ok(sinew_two_bone_ik_create(&defaults, &mut solver));
        let chains = arm_chains();
        let goals: [SinewVec3; CHAINS] = std::array::from_fn(|i| {
            let f = i as f32;
            v3(1.0 + 0.1 * f, 1.0 - 0.3 * f, 0.1 * f)
        });
        let turns: [SinewQuat; CHAINS] = std::array::from_fn(|i| rot_z(0.2 * i as f32));
        let poles: [SinewVec3; CHAINS] = std::array::from_fn(|i| v3(1.0, -1.0, 0.5 * i as f32));

        // Each chain as its single solve: with poles through the SIMD kernel (pole_weight 1),
        // through the general path (pole_weight 0.5), and with no optional arrays at all.
        let mut half = defaults;
        half.pole_weight = 0.5;
        for (settings, optional) in [(defaults, true), (half, true), (defaults, false)] {
            ok(sinew_two_bone_ik_set_settings(solver, &settings));
            let (turns_p, poles_p) = (
                or_null(optional, turns.as_ptr()),
                or_null(optional, poles.as_ptr()),
            );
            let mut singles = chains;
            let mut single_results = [STALE; CHAINS];
            for i in 0..CHAINS {
                ok(sinew_two_bone_ik_solve(
                    solver,
                    singles.as_mut_ptr().add(3 * i),
                    &goals[i],
                    or_null(optional, &turns[i]),
                    or_null(optional, &poles[i]),
                    &mut single_results[i],
                ));
            }
            let mut batch = chains;
            let mut results = [STALE; CHAINS];
            ok(sinew_two_bone_ik_solve_batch(
                solver,
                batch.as_mut_ptr(),
                CHAINS as u32,
                goals.as_ptr(),
                turns_p,
                poles_p,
                if optional {
                    results.as_mut_ptr()
                } else {
                    null_mut()
                },
            ));
            near_all(&batch, &singles, BATCH);
            if optional {
                near_results(&results, &single_results, BATCH);
            } else {
                assert_eq!(results, [STALE; CHAINS], "no results asked for");
            }
        }
        ok(sinew_two_bone_ik_set_settings(solver, &defaults));

        // No chains: nothing is read, every array may be NULL.
        ok(sinew_two_bone_ik_solve_batch(
            solver,
            null_mut(),
            0,
            null(),
            null(),
            null(),
            null_mut(),
        ));

        // Bad input anywhere leaves every chain and result untouched, the SIMD group included:
        // (chains, goals, effector rotations, poles, results; status, message).
        let mut batch = chains;
        let mut results = [STALE; CHAINS];
        let mut bad_goals = goals;
        bad_goals[3].y = f32::NAN;
        let mut bad_turns = turns;
        bad_turns[4] = SinewQuat::default();
        let mut bad_chains = chains;
        bad_chains[3 * 2 + 1].scale.x = f32::INFINITY;
        let mut bytes = Bytes::new();
        let (b, r) = (batch.as_mut_ptr(), results.as_mut_ptr());
        let (g, t, p) = (goals.as_ptr(), turns.as_ptr(), poles.as_ptr());
        use SinewStatus::{InvalidArgument, NonFinite, NullPointer};
        let bad: [TwoBoneBatchCall; 7] = [
            (b, bad_goals.as_ptr(), t, p, r, NonFinite, "chain 3: "),
            (b, g, bad_turns.as_ptr(), p, r, InvalidArgument, "chain 4: "),
            (
                bad_chains.as_mut_ptr(),
                g,
                null(),
                null(),
                r,
                NonFinite,
                "chain 2: ",
            ),
            (
                b,
                null(),
                null(),
                null(),
                r,
                NullPointer,
                "effector_positions",
            ),
            (
                null_mut(),
                g,
                null(),
                null(),
                null_mut(),
                NullPointer,
                "chains",
            ),
            (
                b,
                g,
                null(),
                null(),
                bytes.ptr(1),
                InvalidArgument,
                "out_results",
            ),
            (
                b,
                g,
                null(),
                bytes.ptr(2),
                null_mut(),
                InvalidArgument,
                "joint_targets",
            ),
        ];
        for (c, g, t, p, r, status, message) in bad {
            let s = sinew_two_bone_ik_solve_batch(solver, c, CHAINS as u32, g, t, p, r);
            fails(s, status, message);
        }
        assert_eq!(bad_chains[..6], chains[..6]);
        assert!(bytes.untouched());
        assert_eq!(batch, chains);
        assert_eq!(results, [STALE; CHAINS]);

        // Chains 1 (in the SIMD group) and 4 (the tail) overflow: left untouched with their
        // results, the others solved, chain 1 named.
        let mut singles = chains;
        let mut single_results = [STALE; CHAINS];
        for i in [0, 2, 3] {
            ok(sinew_two_bone_ik_solve(
                solver,
                singles.as_mut_ptr().add(3 * i),
                &goals[i],
                null(),
                &poles[i],
                &mut single_results[i],
            ));
        }
        let mut far = goals;
        far[1] = v3(3e38, 3e38, 3e38);
        far[4] = v3(-3e38, 3e38, -3e38);
        let s = sinew_two_bone_ik_solve_batch(
            solver,
            batch.as_mut_ptr(),
            CHAINS as u32,
            far.as_ptr(),
            null(),
            poles.as_ptr(),
            results.as_mut_ptr(),
        );
        fails(s, SinewStatus::NumericOverflow, "chain 1");
        near_all(&batch, &singles, BATCH);
        near_results(&results, &single_results, BATCH);
        assert_eq!((results[1], results[4]), (STALE, STALE));

        sinew_two_bone_ik_destroy(solver);
    }
}

/// Items `i` of `count` in blocks of four lanes, through `set` (lane, item, block); the lanes
/// past `count` keep `blank`.
fn blocks<B: Copy>(count: usize, blank: B, set: impl Fn(&mut B, usize, usize)) -> Vec<B> {
    let mut out = vec![blank; count.div_ceil(4)];
    for i in 0..count {
        set(&mut out[i / 4], i % 4, i);
    }
    out
}

/// `chains` (three transforms each) in SoA blocks, three per group; unused lanes NaN.
fn soa_chains(chains: &[SinewTransform]) -> Vec<SinewSoaTransform> {
    let nan = SinewSoaVec3 {
        x: [f32::NAN; 4],
        y: [f32::NAN; 4],
        z: [f32::NAN; 4],
    };
    let blank = SinewSoaTransform {
        translation: nan,
        rotation: SinewSoaQuat {
            x: [f32::NAN; 4],
            y: [f32::NAN; 4],
            z: [f32::NAN; 4],
            w: [f32::NAN; 4],
        },
        scale: nan,
    };
    let count = chains.len() / 3;
    let mut out = vec![blank; 3 * count.div_ceil(4)];
    for i in 0..count {
        for k in 0..3 {
            out[3 * (i / 4) + k].set_lane(i % 4, &chains[3 * i + k]);
        }
    }
    out
}

#[test]
fn two_bone_ik_soa_batch_round_trip_and_errors() {
    // SAFETY: as in two_bone_ik_round_trip_and_errors; every block array holds CHAINS.div_ceil(4)
    // blocks (`chains` three per group), the results CHAINS items.
    unsafe {
        let defaults = defaults(sinew_two_bone_ik_settings_default);
        let mut solver = null_mut();
        ok(sinew_two_bone_ik_create(&defaults, &mut solver));
        let chains = arm_chains();
        let goals: [SinewVec3; CHAINS] =
            std::array::from_fn(|i| v3(1.0 - 0.2 * i as f32, 0.8, 0.1));
        let turns: [SinewQuat; CHAINS] = std::array::from_fn(|i| rot_z(0.2 * i as f32));
        let poles: [SinewVec3; CHAINS] = std::array::from_fn(|i| v3(1.0, -1.0, 0.5 * i as f32));
        let vec3s = |items: &[SinewVec3; CHAINS]| {
            let blank = SinewSoaVec3::default();
            blocks(CHAINS, blank, |b, l, i| b.set_lane(l, &items[i]))
        };
        let (soa_goals, soa_poles) = (vec3s(&goals), vec3s(&poles));
        let soa_turns = blocks(CHAINS, SinewSoaQuat::default(), |b, l, i| {
            b.set_lane(l, &turns[i])
        });
        ok(sinew_two_bone_ik_set_settings(
            solver,
            &SinewTwoBoneIkSettings {
                end_rotation: SinewEndRotation::CopyEffector as i32,
                ..defaults
            },
        ));
        let mut aos = chains;
        let mut aos_results = [STALE; CHAINS];
        ok(sinew_two_bone_ik_solve_batch(
            solver,
            aos.as_mut_ptr(),
            CHAINS as u32,
            goals.as_ptr(),
            turns.as_ptr(),
            poles.as_ptr(),
            aos_results.as_mut_ptr(),
        ));
        let mut soa = soa_chains(&chains);
        let mut results = [STALE; CHAINS];
        ok(sinew_two_bone_ik_solve_batch_soa(
            solver,
            soa.as_mut_ptr(),
            CHAINS as u32,
            soa_goals.as_ptr(),
            soa_turns.as_ptr(),
            soa_poles.as_ptr(),
            results.as_mut_ptr(),
        ));
        // The same bits as the array batch; the lanes past the last chain still NaN.
        let bits = |b: &[SinewSoaTransform]| -> Vec<u32> {
            let words = std::slice::from_raw_parts(b.as_ptr().cast::<u32>(), b.len() * 40);
            words.to_vec()
        };
        assert_eq!(bits(&soa), bits(&soa_chains(&aos)));
        assert_eq!(results, aos_results);

        // Bad input leaves every block and result untouched; a NULL or misaligned array is named.
        let mut bad_goals = soa_goals.clone();
        bad_goals[0].y[3] = f32::NAN;
        let before = bits(&soa);
        let mut bytes = Bytes::new();
        let (c, r) = (soa.as_mut_ptr(), results.as_mut_ptr());
        use SinewStatus::{InvalidArgument, NonFinite, NullPointer};
        for (c, g, r, status, message) in [
            (c, bad_goals.as_ptr(), r, NonFinite, "chain 3: "),
            (c, null(), r, NullPointer, "effector_positions"),
            (null_mut(), soa_goals.as_ptr(), r, NullPointer, "chains"),
            (
                c,
                soa_goals.as_ptr(),
                bytes.ptr(1),
                InvalidArgument,
                "out_results",
            ),
        ] {
            let s =
                sinew_two_bone_ik_solve_batch_soa(solver, c, CHAINS as u32, g, null(), null(), r);
            fails(s, status, message);
        }
        assert_eq!(bits(&soa), before);
        assert_eq!(results, aos_results);
        assert!(bytes.untouched());
        // No chains: nothing is read, every array may be NULL.
        ok(sinew_two_bone_ik_solve_batch_soa(
            solver,
            null_mut(),
            0,
            null(),
            null(),
            null(),
            null_mut(),
        ));
        sinew_two_bone_ik_destroy(solver);
    }
}

#[test]
fn fabrik_and_ccd_batch_round_trips_and_errors() {
    let chains = straight_chains();
    let goals: [SinewVec3; CHAIN_BATCH] = std::array::from_fn(|i| {
        let f = i as f32;
        v3(0.3 + 0.05 * f, 0.4 - 0.1 * f, 0.1 * f)
    });
    let parents: [SinewQuat; CHAIN_BATCH] = std::array::from_fn(|i| rot_z(0.1 * i as f32));
    let turns: [SinewQuat; CHAIN_BATCH] = std::array::from_fn(|i| rot_z(0.3 - 0.1 * i as f32));
    for solver in ChainHandle::both_hinged() {
        // SAFETY: live handles; every array holds CHAIN_BATCH items (`chains` 4 per chain).
        unsafe {
            // Each chain as its single solve: with every optional array, and as chains of two
            // joints back to back with none. (The first solves serve the overflow check below.)
            let mut solved = (chains, [STALE; CHAIN_BATCH]);
            for (joints, optional) in [(4usize, true), (2, false)] {
                let pick = |p: *const SinewQuat| or_null(optional, p);
                let mut singles = chains;
                let mut single_results = [STALE; CHAIN_BATCH];
                for i in 0..CHAIN_BATCH {
                    ok(solver.solve(
                        singles.as_mut_ptr().add(joints * i),
                        joints as u32,
                        pick(&parents[i]),
                        &goals[i],
                        pick(&turns[i]),
                        &mut single_results[i],
                    ));
                }
                let mut batch = chains;
                let mut results = [STALE; CHAIN_BATCH];
                ok(solver.batch(
                    batch.as_mut_ptr(),
                    joints as u32,
                    CHAIN_BATCH as u32,
                    pick(parents.as_ptr()),
                    goals.as_ptr(),
                    pick(turns.as_ptr()),
                    if optional {
                        results.as_mut_ptr()
                    } else {
                        null_mut()
                    },
                ));
                same(&batch, &singles);
                if optional {
                    near_results(&results, &single_results, SAME);
                    solved = (singles, single_results);
                } else {
                    assert_eq!(results, [STALE; CHAIN_BATCH], "no results asked for");
                }
            }
            ok(solver.batch(null_mut(), 4, 0, null(), null(), null(), null_mut()));

            // Bad input anywhere leaves every chain and result untouched: (chains, joints,
            // root parent rotations, goals, results; status, message).
            let mut batch = chains;
            let mut results = [STALE; CHAIN_BATCH];
            let mut bad_parents = parents;
            bad_parents[1] = SinewQuat::default();
            let mut bad_chains = chains;
            bad_chains[4 * 2 + 3].translation.x = f32::NAN;
            let mut bytes = Bytes::new();
            let (b, r, g) = (batch.as_mut_ptr(), results.as_mut_ptr(), goals.as_ptr());
            use SinewStatus::{InvalidArgument, NonFinite, NullPointer, OutOfRange};
            let bad: [ChainBatchCall; 6] = [
                (b, 5, null(), g, r, OutOfRange, "5 joints"),
                (b, 1, null(), g, r, InvalidArgument, "joints"),
                (
                    b,
                    4,
                    bad_parents.as_ptr(),
                    g,
                    r,
                    InvalidArgument,
                    "chain 1: ",
                ),
                (
                    bad_chains.as_mut_ptr(),
                    4,
                    null(),
                    g,
                    r,
                    NonFinite,
                    "chain 2: ",
                ),
                (b, 4, null(), null(), r, NullPointer, "effector_positions"),
                (
                    b,
                    4,
                    bytes.ptr(2),
                    g,
                    null_mut(),
                    InvalidArgument,
                    "root_parent_rotations",
                ),
            ];
            for (c, joints, p, g, r, status, message) in bad {
                let s = solver.batch(c, joints, CHAIN_BATCH as u32, p, g, null(), r);
                fails(s, status, message);
            }
            assert_eq!(bad_chains[..8], chains[..8]);
            assert!(bytes.untouched());
            assert_eq!(batch, chains);
            assert_eq!(results, [STALE; CHAIN_BATCH]);

            // Chain 1 overflows: left untouched with its result, the others solved.
            let (mut singles, mut single_results) = solved;
            singles[4..8].copy_from_slice(&chains[4..8]);
            single_results[1] = STALE;
            let mut far = goals;
            far[1] = v3(3e38, 3e38, 3e38);
            let s = solver.batch(
                batch.as_mut_ptr(),
                4,
                CHAIN_BATCH as u32,
                parents.as_ptr(),
                far.as_ptr(),
                turns.as_ptr(),
                results.as_mut_ptr(),
            );
            fails(s, SinewStatus::NumericOverflow, "chain 1");
            same(&batch, &singles);
            near_results(&results, &single_results, SAME);
        }
        solver.destroy();
    }
}

// ------------------------------------------------------------------------------ overlapping inputs

/// A two-bone solver with default settings but for the end rotation: the effector's, so the
/// effector rotation is read.
fn two_bone_copying_effector() -> *mut SinewTwoBoneIk {
    let copy_effector = SinewEndRotation::CopyEffector as i32;
    let (solver, _) = created(
        sinew_two_bone_ik_settings_default,
        |s| s.end_rotation = copy_effector,
        // SAFETY: settings and an out-pointer of locals.
        |s, out| unsafe { sinew_two_bone_ik_create(s, out) },
    );
    solver
}

/// Optional inputs a C caller points into the chain being solved (the pole at the current
/// elbow, the effector rotation at the tip's current rotation, the root parent rotation at the
/// root's) are read before the chain is written, so the solve equals one with copies of them.
/// Nothing in the header forbids this.
///
/// Under Miri's Stacked Borrows model this checks that the exports read every by-value input
/// (effector position and rotation, pole, root parent rotation) before forming the chain's
/// `&mut`, so overlapping inputs are not undefined behaviour.
#[test]
fn optional_inputs_may_point_into_the_chain() {
    let copy_effector = SinewEndRotation::CopyEffector as i32;
    // SAFETY: pointers into live locals; handles live until destroyed.
    unsafe {
        let two_bone = two_bone_copying_effector();
        let goal = v3(1.0, 1.0, 0.0);
        let mut copied = arm_chain();
        copied[2].rotation = rot_z(0.3);
        let mut inside = copied;
        let (pole, turn) = (copied[1].translation, copied[2].rotation);
        ok(sinew_two_bone_ik_solve(
            two_bone,
            copied.as_mut_ptr(),
            &goal,
            &turn,
            &pole,
            null_mut(),
        ));
        let p = inside.as_mut_ptr();
        ok(sinew_two_bone_ik_solve(
            two_bone,
            p,
            &goal,
            std::ptr::addr_of!((*p.add(2)).rotation),
            std::ptr::addr_of!((*p.add(1)).translation),
            null_mut(),
        ));
        same(&inside, &copied);
        sinew_two_bone_ik_destroy(two_bone);

        let goal = v3(0.3, 0.4, 0.0);
        for solver in ChainHandle::both(|end, _| *end = copy_effector) {
            let mut copied = straight_chain();
            copied[0].rotation = rot_z(0.2);
            copied[3].rotation = rot_z(0.6);
            let mut inside = copied;
            let (parent, turn) = (copied[0].rotation, copied[3].rotation);
            ok(solver.solve(copied.as_mut_ptr(), 4, &parent, &goal, &turn, null_mut()));
            let p = inside.as_mut_ptr();
            ok(solver.solve(
                p,
                4,
                std::ptr::addr_of!((*p).rotation),
                &goal,
                std::ptr::addr_of!((*p.add(3)).rotation),
                null_mut(),
            ));
            same(&inside, &copied);
            solver.destroy();
        }
    }
}

/// Whether every float of `ts` is finite.
fn finite(ts: &[SinewTransform]) -> bool {
    ts.iter().all(|t| {
        let (p, q, s) = (t.translation, t.rotation, t.scale);
        [p.x, p.y, p.z, q.x, q.y, q.z, q.w, s.x, s.y, s.z]
            .iter()
            .all(|x| x.is_finite())
    })
}

/// A batch whose three per-chain input arrays point into its own `chains` (`C` chains back to
/// back): `batch` solves the chains it is given with the three inputs it is given (`offsets`
/// say where each lies in a transform and how many floats an item has) and writes results.
/// Inputs in the last chain (written last, after its own inputs are read) give the batch with
/// copies of them; inputs in the first chain (written before later chains read them) give
/// values that depend on the order of the solve, so only success and finite output are
/// checked.
///
/// # Safety
/// `batch` calls a batch export with the pointers it is given; every window of the inputs (one
/// item per chain from its offset) lies within `chains` and holds finite floats, and every
/// rotation window a non-zero quaternion.
unsafe fn inputs_into_chains<const N: usize, const C: usize>(
    chains: [SinewTransform; N],
    offsets: [(usize, usize); 3],
    batch: impl Fn(*mut SinewTransform, [*const f32; 3], *mut SinewIkResult) -> SinewStatus,
) {
    // Floats a transform has; where the last chain starts.
    const FLOATS: usize = 10;
    let last = (N - N / C) * FLOATS;
    let flat = chains.as_ptr().cast::<f32>();
    // SAFETY: the caller's windows lie within `chains`.
    let copies = offsets.map(|(at, floats)| unsafe {
        std::slice::from_raw_parts(flat.add(last + at), C * floats).to_vec()
    });
    let mut copied = chains;
    let mut copied_results = [STALE; C];
    ok(batch(
        copied.as_mut_ptr(),
        copies.each_ref().map(|c| c.as_ptr()),
        copied_results.as_mut_ptr(),
    ));
    for start in [last, 0] {
        let mut inside = chains;
        let mut results = [STALE; C];
        let p = inside.as_mut_ptr();
        let f = p.cast::<f32>().cast_const();
        // SAFETY: as above, through the one pointer to `inside`.
        let inputs = offsets.map(|(at, _)| unsafe { f.add(start + at) });
        ok(batch(p, inputs, results.as_mut_ptr()));
        if start == last {
            same(&inside, &copied);
            near_results(&results, &copied_results, SAME);
        } else {
            assert!(finite(&inside), "{inside:?}");
        }
    }
}

/// The per-chain arrays of a batch may point into its `chains` array: the implementation reads
/// them through raw pointers, never through references overlapping the chains it writes, so
/// under Miri this is defined behaviour (see `inputs_into_chains`).
#[test]
fn batch_inputs_may_point_into_the_chains() {
    // Float offsets in a transform: translation 0, rotation 3, scale 7; the next transform's
    // rotation 13.
    // SAFETY: live handles; the windows lie within the chains, whose floats are finite and whose
    // four-float windows are non-zero quaternions (see `arm_chains`, `straight_chains`).
    unsafe {
        let two_bone = two_bone_copying_effector();
        // Goals, effector rotations and poles.
        let offsets = [(0, 3), (3, 4), (7, 3)];
        inputs_into_chains::<{ 3 * CHAINS }, CHAINS>(
            arm_chains(),
            offsets,
            |chains, [g, t, p], r| {
                sinew_two_bone_ik_solve_batch(
                    two_bone,
                    chains,
                    CHAINS as u32,
                    g.cast(),
                    t.cast(),
                    p.cast(),
                    r,
                )
            },
        );
        sinew_two_bone_ik_destroy(two_bone);

        // Root parent rotations, goals and effector rotations.
        let offsets = [(13, 4), (0, 3), (3, 4)];
        for solver in ChainHandle::both_hinged() {
            let chains = straight_chains();
            inputs_into_chains::<{ 4 * CHAIN_BATCH }, CHAIN_BATCH>(
                chains,
                offsets,
                |c, [p, g, t], r| {
                    solver.batch(c, 4, CHAIN_BATCH as u32, p.cast(), g.cast(), t.cast(), r)
                },
            );
            solver.destroy();
        }
    }
}
