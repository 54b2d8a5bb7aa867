//! Batch solves (two-bone, FABRIK and CCD) against their single solves, and inputs that point
//! into the very chains being solved (single and batch).

use std::mem::MaybeUninit;
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

        // Bad input anywhere leaves every chain and result untouched, the SIMD group included.
        let mut batch = chains;
        let mut results = [STALE; CHAINS];
        let mut bad_goals = goals;
        bad_goals[3].y = f32::NAN;
        let s = sinew_two_bone_ik_solve_batch(
            solver,
            batch.as_mut_ptr(),
            CHAINS as u32,
            bad_goals.as_ptr(),
            turns.as_ptr(),
            poles.as_ptr(),
            results.as_mut_ptr(),
        );
        fails(s, SinewStatus::NonFinite, "chain 3: ");
        let mut bad_turns = turns;
        bad_turns[4] = SinewQuat::default();
        let s = sinew_two_bone_ik_solve_batch(
            solver,
            batch.as_mut_ptr(),
            CHAINS as u32,
            goals.as_ptr(),
            bad_turns.as_ptr(),
            poles.as_ptr(),
            results.as_mut_ptr(),
        );
        fails(s, SinewStatus::InvalidArgument, "chain 4: ");
        let mut bad_chains = chains;
        bad_chains[3 * 2 + 1].scale.x = f32::INFINITY;
        let s = sinew_two_bone_ik_solve_batch(
            solver,
            bad_chains.as_mut_ptr(),
            CHAINS as u32,
            goals.as_ptr(),
            null(),
            null(),
            results.as_mut_ptr(),
        );
        fails(s, SinewStatus::NonFinite, "chain 2: ");
        assert_eq!(bad_chains[..6], chains[..6]);
        let s = sinew_two_bone_ik_solve_batch(
            solver,
            batch.as_mut_ptr(),
            CHAINS as u32,
            null(),
            null(),
            null(),
            results.as_mut_ptr(),
        );
        fails(s, SinewStatus::NullPointer, "effector_positions");
        let s = sinew_two_bone_ik_solve_batch(
            solver,
            null_mut(),
            CHAINS as u32,
            goals.as_ptr(),
            null(),
            null(),
            null_mut(),
        );
        fails(s, SinewStatus::NullPointer, "chains");
        let mut bytes = Bytes::new();
        let s = sinew_two_bone_ik_solve_batch(
            solver,
            batch.as_mut_ptr(),
            CHAINS as u32,
            goals.as_ptr(),
            null(),
            null(),
            bytes.ptr(1),
        );
        fails(s, SinewStatus::InvalidArgument, "out_results");
        let s = sinew_two_bone_ik_solve_batch(
            solver,
            batch.as_mut_ptr(),
            CHAINS as u32,
            goals.as_ptr(),
            null(),
            bytes.ptr(2),
            null_mut(),
        );
        fails(s, SinewStatus::InvalidArgument, "joint_targets");
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

/// A FABRIK or a CCD handle, driven through the same calls.
#[derive(Clone, Copy)]
enum ChainHandle {
    Fabrik(*mut SinewFabrik),
    Ccd(*mut SinewCcd),
}

impl ChainHandle {
    /// Both solvers with default settings but at most 3 iterations (Miri interprets every
    /// one), `max_joints` 4, a hinge on joint 1.
    fn both() -> [Self; 2] {
        let hinge = hinge();
        // SAFETY: settings written before read; out-pointers to locals; live handles.
        unsafe {
            let mut fs = MaybeUninit::uninit();
            sinew_fabrik_settings_default(fs.as_mut_ptr());
            let mut fs = fs.assume_init();
            fs.max_iterations = 3;
            let mut cs = MaybeUninit::uninit();
            sinew_ccd_settings_default(cs.as_mut_ptr());
            let mut cs = cs.assume_init();
            cs.max_iterations = 3;
            let (mut f, mut c) = (null_mut(), null_mut());
            ok(sinew_fabrik_create(&fs, 4, &mut f));
            ok(sinew_ccd_create(&cs, 4, &mut c));
            ok(sinew_fabrik_set_constraint(f, 1, &hinge));
            ok(sinew_ccd_set_constraint(c, 1, &hinge));
            [Self::Fabrik(f), Self::Ccd(c)]
        }
    }

    /// `sinew_<solver>_solve`.
    ///
    /// # Safety
    /// As that export.
    unsafe fn solve(
        self,
        chain: *mut SinewTransform,
        joints: u32,
        parent: *const SinewQuat,
        goal: *const SinewVec3,
        rotation: *const SinewQuat,
        result: *mut SinewIkResult,
    ) -> SinewStatus {
        // SAFETY: forwarded.
        unsafe {
            match self {
                Self::Fabrik(h) => {
                    sinew_fabrik_solve(h, chain, joints, parent, goal, rotation, result)
                }
                Self::Ccd(h) => sinew_ccd_solve(h, chain, joints, parent, goal, rotation, result),
            }
        }
    }

    /// `sinew_<solver>_solve_batch`.
    ///
    /// # Safety
    /// As that export.
    #[allow(clippy::too_many_arguments)]
    unsafe fn batch(
        self,
        chains: *mut SinewTransform,
        joints: u32,
        count: u32,
        parents: *const SinewQuat,
        goals: *const SinewVec3,
        rotations: *const SinewQuat,
        results: *mut SinewIkResult,
    ) -> SinewStatus {
        // SAFETY: forwarded.
        unsafe {
            match self {
                Self::Fabrik(h) => sinew_fabrik_solve_batch(
                    h, chains, joints, count, parents, goals, rotations, results,
                ),
                Self::Ccd(h) => sinew_ccd_solve_batch(
                    h, chains, joints, count, parents, goals, rotations, results,
                ),
            }
        }
    }

    fn destroy(self) {
        // SAFETY: a live handle, not used afterwards.
        unsafe {
            match self {
                Self::Fabrik(h) => sinew_fabrik_destroy(h),
                Self::Ccd(h) => sinew_ccd_destroy(h),
            }
        }
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
    for solver in ChainHandle::both() {
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

            // Bad input anywhere leaves every chain and result untouched.
            let mut batch = chains;
            let mut results = [STALE; CHAIN_BATCH];
            let s = solver.batch(
                batch.as_mut_ptr(),
                5,
                CHAIN_BATCH as u32,
                null(),
                goals.as_ptr(),
                null(),
                results.as_mut_ptr(),
            );
            fails(s, SinewStatus::OutOfRange, "5 joints");
            let s = solver.batch(
                batch.as_mut_ptr(),
                1,
                CHAIN_BATCH as u32,
                null(),
                goals.as_ptr(),
                null(),
                results.as_mut_ptr(),
            );
            fails(s, SinewStatus::InvalidArgument, "joints");
            let mut bad_parents = parents;
            bad_parents[1] = SinewQuat::default();
            let s = solver.batch(
                batch.as_mut_ptr(),
                4,
                CHAIN_BATCH as u32,
                bad_parents.as_ptr(),
                goals.as_ptr(),
                null(),
                results.as_mut_ptr(),
            );
            fails(s, SinewStatus::InvalidArgument, "chain 1: ");
            let mut bad_chains = chains;
            bad_chains[4 * 2 + 3].translation.x = f32::NAN;
            let s = solver.batch(
                bad_chains.as_mut_ptr(),
                4,
                CHAIN_BATCH as u32,
                null(),
                goals.as_ptr(),
                null(),
                results.as_mut_ptr(),
            );
            fails(s, SinewStatus::NonFinite, "chain 2: ");
            assert_eq!(bad_chains[..8], chains[..8]);
            let s = solver.batch(
                batch.as_mut_ptr(),
                4,
                CHAIN_BATCH as u32,
                null(),
                null(),
                null(),
                results.as_mut_ptr(),
            );
            fails(s, SinewStatus::NullPointer, "effector_positions");
            let mut bytes = Bytes::new();
            let s = solver.batch(
                batch.as_mut_ptr(),
                4,
                CHAIN_BATCH as u32,
                bytes.ptr(2),
                goals.as_ptr(),
                null(),
                null_mut(),
            );
            fails(s, SinewStatus::InvalidArgument, "root_parent_rotations");
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

/// Optional inputs a C caller points into the chain being solved (the pole at the current
/// elbow, the effector rotation at the tip's current rotation) are read before the chain is
/// written, so the solve equals one with copies of them. Nothing in the header forbids this.
///
/// Under Miri's Stacked Borrows model this checks that the exports read every by-value input
/// (effector position and rotation, pole, root parent rotation) before forming the chain's
/// `&mut`, so overlapping inputs are not undefined behaviour.
#[test]
fn optional_inputs_may_point_into_the_chain() {
    // SAFETY: pointers into live locals; handles live until destroyed.
    unsafe {
        let mut two_bone = null_mut();
        let mut settings = MaybeUninit::uninit();
        sinew_two_bone_ik_settings_default(settings.as_mut_ptr());
        let mut settings = settings.assume_init();
        settings.end_rotation = SinewEndRotation::CopyEffector as i32;
        ok(sinew_two_bone_ik_create(&settings, &mut two_bone));
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

        let (fabrik, ccd) = {
            let (mut f, mut c) = (null_mut(), null_mut());
            let mut fs = MaybeUninit::uninit();
            sinew_fabrik_settings_default(fs.as_mut_ptr());
            let mut fs = fs.assume_init();
            fs.end_rotation = SinewEndRotation::CopyEffector as i32;
            ok(sinew_fabrik_create(&fs, 4, &mut f));
            let mut cs = MaybeUninit::uninit();
            sinew_ccd_settings_default(cs.as_mut_ptr());
            let mut cs = cs.assume_init();
            cs.end_rotation = SinewEndRotation::CopyEffector as i32;
            ok(sinew_ccd_create(&cs, 4, &mut c));
            (f, c)
        };
        let goal = v3(0.3, 0.4, 0.0);
        let mut copied = straight_chain();
        copied[0].rotation = rot_z(0.2);
        copied[3].rotation = rot_z(0.6);
        let mut inside = copied;
        let (parent, turn) = (copied[0].rotation, copied[3].rotation);
        ok(sinew_fabrik_solve(
            fabrik,
            copied.as_mut_ptr(),
            4,
            &parent,
            &goal,
            &turn,
            null_mut(),
        ));
        let p = inside.as_mut_ptr();
        ok(sinew_fabrik_solve(
            fabrik,
            p,
            4,
            std::ptr::addr_of!((*p).rotation),
            &goal,
            std::ptr::addr_of!((*p.add(3)).rotation),
            null_mut(),
        ));
        same(&inside, &copied);

        let mut copied = straight_chain();
        copied[3].rotation = rot_z(0.6);
        let mut inside = copied;
        let turn = copied[3].rotation;
        ok(sinew_ccd_solve(
            ccd,
            copied.as_mut_ptr(),
            4,
            null(),
            &goal,
            &turn,
            null_mut(),
        ));
        let p = inside.as_mut_ptr();
        ok(sinew_ccd_solve(
            ccd,
            p,
            4,
            null(),
            &goal,
            std::ptr::addr_of!((*p.add(3)).rotation),
            null_mut(),
        ));
        same(&inside, &copied);
        sinew_fabrik_destroy(fabrik);
        sinew_ccd_destroy(ccd);
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

/// `COUNT` items of type `T` read from `floats`, starting `at` floats in: the values an array
/// argument pointing there holds.
///
/// # Safety
/// `floats` must hold `at + COUNT * size_of::<T>() / 4` floats, and `T` be made of `f32`s.
unsafe fn floats_as<T: Copy, const COUNT: usize>(floats: *const f32, at: usize) -> [T; COUNT] {
    // SAFETY: caller's contract; `T` is 4-aligned.
    unsafe { floats.add(at).cast::<[T; COUNT]>().read() }
}

/// The per-chain arrays of a batch may point into its `chains` array: the implementation reads
/// them through raw pointers, never through references overlapping the chains it writes, so
/// under Miri this is defined behaviour. Where every input a chain reads lies in the last
/// chain (written last, after its own inputs are read), the batch equals one with copies;
/// where inputs lie in the first chain (written before later chains read them) the values
/// depend on the order of the solve, so only success and finite output are checked.
#[test]
fn batch_inputs_may_point_into_the_chains() {
    // Float offsets in a transform: translation 0, rotation 3, scale 7.
    // SAFETY: pointers derived from one raw pointer per array, to live locals; each window
    // (one item per chain from the offset) lies within the array; every float is finite and every
    // four-float window a non-zero quaternion (see `arm_chains`, `straight_chains`).
    unsafe {
        let mut settings = MaybeUninit::uninit();
        sinew_two_bone_ik_settings_default(settings.as_mut_ptr());
        let mut settings = settings.assume_init();
        settings.end_rotation = SinewEndRotation::CopyEffector as i32;
        let mut two_bone = null_mut();
        ok(sinew_two_bone_ik_create(&settings, &mut two_bone));
        let chains = arm_chains();
        let last = 3 * (CHAINS - 1) * 10;
        let flat = chains.as_ptr().cast::<f32>();
        let goals: [SinewVec3; CHAINS] = floats_as(flat, last);
        let turns: [SinewQuat; CHAINS] = floats_as(flat, last + 3);
        let poles: [SinewVec3; CHAINS] = floats_as(flat, last + 7);
        let mut copied = chains;
        let mut copied_results = [STALE; CHAINS];
        ok(sinew_two_bone_ik_solve_batch(
            two_bone,
            copied.as_mut_ptr(),
            CHAINS as u32,
            goals.as_ptr(),
            turns.as_ptr(),
            poles.as_ptr(),
            copied_results.as_mut_ptr(),
        ));
        let mut inside = chains;
        let mut results = [STALE; CHAINS];
        let p = inside.as_mut_ptr();
        let f = p.cast::<f32>();
        ok(sinew_two_bone_ik_solve_batch(
            two_bone,
            p,
            CHAINS as u32,
            f.add(last).cast(),
            f.add(last + 3).cast(),
            f.add(last + 7).cast(),
            results.as_mut_ptr(),
        ));
        same(&inside, &copied);
        near_results(&results, &copied_results, SAME);
        // Inputs in the first chain, which the SIMD group writes before the tail reads them.
        let mut inside = chains;
        let p = inside.as_mut_ptr();
        let f = p.cast::<f32>();
        ok(sinew_two_bone_ik_solve_batch(
            two_bone,
            p,
            CHAINS as u32,
            f.cast(),
            f.add(3).cast(),
            f.add(7).cast(),
            results.as_mut_ptr(),
        ));
        assert!(finite(&inside), "{inside:?}");
        sinew_two_bone_ik_destroy(two_bone);

        let chains = straight_chains();
        let last = 4 * (CHAIN_BATCH - 1) * 10;
        let flat = chains.as_ptr().cast::<f32>();
        let goals: [SinewVec3; CHAIN_BATCH] = floats_as(flat, last);
        let turns: [SinewQuat; CHAIN_BATCH] = floats_as(flat, last + 3);
        let parents: [SinewQuat; CHAIN_BATCH] = floats_as(flat, last + 13);
        for solver in ChainHandle::both() {
            let mut copied = chains;
            let mut copied_results = [STALE; CHAIN_BATCH];
            ok(solver.batch(
                copied.as_mut_ptr(),
                4,
                CHAIN_BATCH as u32,
                parents.as_ptr(),
                goals.as_ptr(),
                turns.as_ptr(),
                copied_results.as_mut_ptr(),
            ));
            let mut inside = chains;
            let mut results = [STALE; CHAIN_BATCH];
            let p = inside.as_mut_ptr();
            let f = p.cast::<f32>();
            ok(solver.batch(
                p,
                4,
                CHAIN_BATCH as u32,
                f.add(last + 13).cast(),
                f.add(last).cast(),
                f.add(last + 3).cast(),
                results.as_mut_ptr(),
            ));
            same(&inside, &copied);
            near_results(&results, &copied_results, SAME);
            let mut inside = chains;
            let p = inside.as_mut_ptr();
            let f = p.cast::<f32>();
            ok(solver.batch(
                p,
                4,
                CHAIN_BATCH as u32,
                f.add(13).cast(),
                f.cast(),
                f.add(3).cast(),
                results.as_mut_ptr(),
            ));
            assert!(finite(&inside), "{inside:?}");
            solver.destroy();
        }
    }
}
