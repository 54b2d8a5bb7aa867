//! One table-driven test over every `sinew_*` export and every class of bad input that applies to
//! it. The table is data: each [`Case`] names an export, the argument or field it spoils, the
//! class of bad input, a setup (planting the bad value in the world's buffers or handles) and the
//! bad argument itself ([`Args`]), and the statuses the documentation allows. Every call is built
//! from the export's declaration in the header ([`call`]): the valid world's argument for each
//! parameter, but the one the case spoils.
//!
//! Completeness is checked against `include/sinew.h`, parsed here: every export must have cases,
//! every pointer argument (and pointer field of an input struct) a NULL case, every float
//! argument and every float field of an input struct or array (`SinewTransform`, settings,
//! constraints, keys, weights, layers) a case for each of NaN, +Inf, -Inf, 1e30 and 1e-40 (in
//! every element of the array; in a batch's per-chain arrays, every element of chain [`BAD`] of
//! [`B`]), every integer argument or input field at least one case (out of range, count, enum or
//! flag value). NULL and float cases are generated from the header, so a new argument or field
//! without a rule here fails the test, and so does an export missing from [`call::exports`] or a
//! parameter no argument rule covers. The cases written out by hand live with their job in
//! `tests/bad_input/cases/`.
//!
//! Each case runs against a fresh [`World`] (handles of every kind plus every buffer the exports
//! read or write) and checks:
//!
//! - the status is one the documentation gives (never `SINEW_STATUS_PANIC`);
//! - on failure, `sinew_last_error_message` is non-empty (and not the stale message planted
//!   before the call), and mentions the argument or chain at fault where the case names it; on
//!   success it is empty (functions returning nothing, and reading the message itself, leave it
//!   alone);
//! - on failure, nothing changed, byte for byte: every caller buffer (in/out chains, out
//!   pointers, out handles), every pose (`sinew_pose_get_local`), mask (`get_weights`), skeleton,
//!   clip (sampling), crossfade (weights, times, inertialization, pose, and its future updates)
//!   and solver (settings and re-solving fixed chains, which sees constraints and per-joint
//!   tuning) is compared with a twin world that got the same setup but not the call;
//! - on success (1e30 and denormals may be accepted), every float any export then reports is
//!   finite, every pose rotation is unit length, and re-solving, sampling and updating all
//!   succeed (`SINEW_STATUS_NUMERIC_OVERFLOW` is tolerated there only after a huge value in an
//!   unbounded field was accepted);
//! - for the batch exports (`*_solve_batch`), whose NUMERIC_OVERFLOW is a partial success, the
//!   base call first replays every chain through the single solve on copies and judges the
//!   batch against that ([`check_batch`]): a chain the single solve rejects must fail the whole
//!   batch with the same status and a message starting `chain <i>: `; otherwise every chain
//!   must hold the single solve's result exactly (two-bone, FABRIK and CCD alike), an
//!   overflowing chain and everything past the count stay untouched, and the status names the
//!   first overflowing chain.
//!
//! Where the documentation names a status it is the expectation; where it only says "rejected",
//! the expectation is the status whose `SinewStatus` description fits, as the library reports it
//! today (noted at the case).

mod batch;
mod call;
mod cases;
mod header;
mod probe;
mod table;
mod world;

use std::collections::{BTreeMap, BTreeSet};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::ptr::{null, null_mut};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Instant;

use sinew::ffi::SinewStatus as St;
use sinew::ffi::*;

use batch::*;
use call::*;
use header::*;
use probe::*;
use table::*;
use world::*;

/// Runs one case; `Err` describes how it failed.
fn run_case(case: &Case, reference: &Probe) -> Result<(), String> {
    let mut w = World::new();
    match &case.setup {
        Setup::None => {}
        Setup::Bufs(f) => f(&mut w.b),
        Setup::World(f) => f(&mut w),
    }
    let marker = plant_marker(&w);
    let outcome = (case.call)(&mut w);
    let after = message();
    let keeps_message = case.export == "sinew_last_error_message";
    let status = match outcome {
        Outcome::Fail(e) => return Err(e),
        Outcome::Void if case.expect.is_empty() => None,
        Outcome::Status(s) if !case.expect.is_empty() => Some(s),
        Outcome::Void => return Err("returned nothing but a status was expected".into()),
        Outcome::Status(s) => return Err(format!("returned {s:?} from a void call?")),
        Outcome::Value(v) => return Err(format!("returned {v}, which no rule judged")),
    };
    let unchanged = |w: &mut World| -> Result<(), String> {
        let twin = match &case.setup {
            Setup::World(f) => {
                let mut t = World::new();
                f(&mut t);
                probe(&mut t)
            }
            setup => {
                let mut b = Bufs::new();
                if let Setup::Bufs(f) = setup {
                    f(&mut b);
                }
                let mut p = Probe::default();
                b.segments(&mut p);
                p.0.extend(reference.0.iter().cloned());
                p
            }
        };
        match probe(w).diff(&twin) {
            Some(d) => Err(format!("not untouched: {d}")),
            None => Ok(()),
        }
    };
    match status {
        None => {
            if after != marker {
                return Err(format!(
                    "a void call changed the error message to {after:?}"
                ));
            }
            unchanged(&mut w)
        }
        Some(St::Panic) => Err(format!("PANIC: {after}")),
        Some(s) if !case.expect.contains(&s) => Err(format!(
            "status {s:?}, expected {:?} (message {after:?})",
            case.expect
        )),
        Some(St::Ok) => {
            if keeps_message {
                if after != marker {
                    return Err(format!("reading the message changed it to {after:?}"));
                }
            } else if !after.is_empty() {
                return Err(format!("success left the error message {after:?}"));
            }
            probe(&mut w).sane(case.lenient)
        }
        Some(s) => {
            if after.is_empty() || after == marker {
                return Err(format!("{s:?} without a fresh error message ({after:?})"));
            }
            if let Some(needle) = case.needle.as_deref().filter(|n| !after.contains(n)) {
                return Err(format!(
                    "{s:?} with message {after:?}, which does not mention {needle:?}"
                ));
            }
            unchanged(&mut w)
        }
    }
}

#[test]
fn every_export_rejects_bad_input_and_leaves_outputs_untouched() {
    let start = Instant::now();
    let (funcs, structs) = parse_header();
    assert!(
        funcs.len() >= 80,
        "parsed only {} exports from the header",
        funcs.len()
    );
    let need = requirements(&funcs, &structs);
    let table = build_table(&funcs, &need);

    // Coverage: every export, every requirement of the header, no stale or duplicate entries.
    let mut problems = table.gaps.clone();
    let header: BTreeSet<&str> = funcs.iter().map(|f| f.name.as_str()).collect();
    for e in table.callees.keys() {
        if !header.contains(e) {
            problems.push(format!("{e} is in the table but not in the header"));
        }
    }
    for f in &header {
        if !table.cases.iter().any(|c| c.export == *f) {
            problems.push(format!("{f} has no case"));
        }
    }
    let covered = |(export, path, n): &Key| {
        table.cases.iter().any(|c| {
            c.export == export
                && c.param == *path
                && match n {
                    Need::Null => c.class == Class::Null,
                    Need::Float(class) => c.class == *class,
                    Need::Other => c.class != Class::Null,
                }
        })
    };
    let missing: Vec<String> = need
        .iter()
        .filter(|k| !covered(k))
        .map(|(e, p, n)| format!("{e} {p} {n:?}"))
        .collect();
    if !missing.is_empty() {
        problems.push(format!(
            "uncovered requirements:\n  {}",
            missing.join("\n  ")
        ));
    }
    // The classes the issue lists, where they apply.
    use Class::*;
    let required: &[(&str, Class)] = &[
        ("sinew_two_bone_ik_solve", Degenerate),
        ("sinew_two_bone_ik_solve_pose", Degenerate),
        ("sinew_fabrik_solve", Degenerate),
        ("sinew_fabrik_solve_pose", Degenerate),
        ("sinew_ccd_solve", Degenerate),
        ("sinew_ccd_solve_pose", Degenerate),
        ("sinew_hand_ik_retargeting_apply_model", Degenerate),
        ("sinew_two_bone_ik_solve_pose", Range),
        ("sinew_fabrik_solve_pose", Range),
        ("sinew_ccd_solve_pose", Range),
        ("sinew_fabrik_set_constraint", Range),
        ("sinew_ccd_set_constraint", Range),
        ("sinew_ccd_set_joint", Range),
        ("sinew_joint_mask_set_weight", Range),
        ("sinew_joint_mask_create_subtree", Range),
        ("sinew_pose_get_model_transform", Range),
        ("sinew_pose_set_model_transform", Range),
        ("sinew_pose_apply_constraints", Range),
        ("sinew_clip_set_translation_track", Range),
        ("sinew_clip_set_rotation_track", Range),
        ("sinew_clip_set_scale_track", Range),
        ("sinew_clip_clear_track", Range),
        ("sinew_hand_ik_retargeting_apply_model", Range),
        ("sinew_hand_ik_retargeting_apply_pose", Range),
        ("sinew_skeleton_create", Count),
        ("sinew_fabrik_create", Count),
        ("sinew_ccd_create", Count),
        ("sinew_fabrik_solve", Count),
        ("sinew_ccd_solve", Count),
        ("sinew_fabrik_solve_pose", Count),
        ("sinew_ccd_solve_pose", Count),
        ("sinew_crossfade_create", Count),
        ("sinew_clip_set_translation_track", Count),
        ("sinew_pose_blend", Size),
        ("sinew_pose_blend_layers", Size),
        ("sinew_pose_blend_layers_additive", Size),
        ("sinew_pose_make_additive", Size),
        ("sinew_pose_apply_additive", Size),
        ("sinew_clip_sample", Size),
        ("sinew_crossfade_play", Size),
        ("sinew_crossfade_fade_to", Size),
        ("sinew_crossfade_get_pose", Size),
        ("sinew_pose_get_local", Size),
        ("sinew_pose_set_local", Size),
        ("sinew_joint_mask_get_weights", Size),
        ("sinew_joint_mask_set_weights", Size),
        ("sinew_skeleton_create", Parents),
        ("sinew_clip_set_translation_track", Keys),
        ("sinew_clip_set_rotation_track", Keys),
        ("sinew_clip_set_scale_track", Keys),
        ("sinew_two_bone_ik_solve_batch", Degenerate),
        ("sinew_two_bone_ik_solve_batch_soa", Degenerate),
        ("sinew_fabrik_solve_batch", Degenerate),
        ("sinew_ccd_solve_batch", Degenerate),
        ("sinew_two_bone_ik_solve_batch", Count),
        ("sinew_two_bone_ik_solve_batch_soa", Count),
        ("sinew_fabrik_solve_batch", Count),
        ("sinew_ccd_solve_batch", Count),
        ("sinew_two_bone_ik_solve_batch", Overflow),
        ("sinew_two_bone_ik_solve_batch_soa", Overflow),
        ("sinew_fabrik_solve_batch", Overflow),
        ("sinew_ccd_solve_batch", Overflow),
        ("sinew_two_bone_ik_solve_batch", Align),
        ("sinew_two_bone_ik_solve_batch_soa", Align),
        ("sinew_fabrik_solve_batch", Align),
        ("sinew_ccd_solve_batch", Align),
        ("sinew_aim_ik_solve", Degenerate),
        ("sinew_aim_ik_solve_pose", Degenerate),
        ("sinew_aim_ik_solve_pose", Range),
        ("sinew_aim_ik_set_joint", Range),
        ("sinew_aim_ik_create", Count),
        ("sinew_aim_ik_solve", Count),
        ("sinew_aim_ik_solve_pose", Count),
        ("sinew_aim_ik_solve_batch", Degenerate),
        ("sinew_aim_ik_solve_batch", Count),
        ("sinew_aim_ik_solve_batch", Overflow),
        ("sinew_aim_ik_solve_batch", Align),
        ("sinew_multi_fabrik_solve", Degenerate),
        ("sinew_multi_fabrik_solve_pose", Degenerate),
        ("sinew_multi_fabrik_solve", Range),
        ("sinew_multi_fabrik_solve_pose", Range),
        ("sinew_multi_fabrik_set_constraint", Range),
        ("sinew_multi_fabrik_create", Count),
        ("sinew_multi_fabrik_solve", Count),
        ("sinew_multi_fabrik_solve_pose", Count),
        ("sinew_multi_fabrik_solve", Size),
    ];
    for (export, class) in required {
        if !table
            .cases
            .iter()
            .any(|c| c.export == *export && c.class == *class)
        {
            problems.push(format!("{export} has no {class:?} case"));
        }
    }
    let mut names = BTreeSet::new();
    for c in &table.cases {
        if !names.insert(c.name.as_str()) {
            problems.push(format!("duplicate case name {:?}", c.name));
        }
    }
    assert!(
        problems.is_empty(),
        "the table is incomplete:\n{}",
        problems.join("\n")
    );

    // The world is deterministic: two fresh worlds probe identically.
    let mut reference = Probe::default();
    probe_world(&mut World::new(), &mut reference);
    let mut again = Probe::default();
    probe_world(&mut World::new(), &mut again);
    assert_eq!(reference.diff(&again), None, "two fresh worlds differ");
    reference.sane(false).expect("a fresh world is sane");

    let mut per_class: BTreeMap<Class, usize> = BTreeMap::new();
    for case in &table.cases {
        *per_class.entry(case.class).or_default() += 1;
    }
    // Cases are independent (each builds its own world; the error slot is per thread), so they
    // run on every core; results are reported in table order.
    let threads = std::thread::available_parallelism()
        .map_or(2, |n| n.get())
        .min(8);
    let next = AtomicUsize::new(0);
    let mut results: Vec<(usize, String)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut failed = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(case) = table.cases.get(i) else {
                            break failed;
                        };
                        let r = catch_unwind(AssertUnwindSafe(|| run_case(case, &reference)))
                            .unwrap_or_else(|p| {
                                Err(format!(
                                    "the case panicked: {:?}",
                                    p.downcast_ref::<String>()
                                ))
                            });
                        if let Err(e) = r {
                            failed.push((i, format!("{} [{:?}]: {e}", case.name, case.class)));
                        }
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    });
    results.sort();
    let failures: Vec<String> = results.into_iter().map(|(_, f)| f).collect();
    let elapsed = start.elapsed();
    println!(
        "{} exports, {} header requirements, {} cases in {elapsed:?} on {threads} threads",
        header.len(),
        need.len(),
        table.cases.len()
    );
    for (class, n) in &per_class {
        println!("  {class:?}: {n}");
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n{}",
        failures.len(),
        table.cases.len(),
        failures.join("\n")
    );
}

/// The harness itself: a failing call that changed anything observable is caught, wherever the
/// change is (a pose, a caller buffer, solver settings, per-joint tuning or constraints, a
/// crossfade's time, a clip's tracks), and so is a success that leaves an error message.
#[test]
fn the_checks_catch_every_kind_of_change() {
    let mut reference = Probe::default();
    probe_world(&mut World::new(), &mut reference);
    let sabotage: [(&str, WorldEdit); 9] = [
        ("a pose", |w| unsafe {
            sinew_pose_reset(w.pose_a);
        }),
        ("a caller buffer", |w| w.b.out_transforms[J].scale.x = 1.0),
        ("solver settings", |w| unsafe {
            let mut s = w.b.fabrik;
            s.max_iterations += 1;
            sinew_fabrik_set_settings(w.fabrik, &s);
        }),
        ("CCD per-joint tuning", |w| unsafe {
            sinew_ccd_set_joint(w.ccd, 1, 9.0, 0.8);
        }),
        ("aim per-joint tuning", |w| unsafe {
            sinew_aim_ik_set_joint(w.aim, 1, 2.0, 19.0);
        }),
        ("a FABRIK constraint", |w| unsafe {
            sinew_fabrik_set_constraint(w.fabrik, 1, null());
        }),
        ("a CCD constraint", |w| unsafe {
            sinew_ccd_set_constraint(w.ccd, 2, null());
        }),
        ("crossfade time", |w| unsafe {
            sinew_crossfade_update(w.crossfade, 0.001);
        }),
        ("a clip track", |w| unsafe {
            sinew_clip_clear_track(w.clip, 4, SinewTrackProperty::Scale as i32);
        }),
    ];
    for (what, f) in sabotage {
        let case = Case {
            export: "sinew_pose_reset",
            param: "pose".into(),
            class: Class::Null,
            name: format!("a failure that changed {what}"),
            setup: Setup::None,
            // SAFETY: NULL is rejected before use.
            call: Arc::new(move |w| {
                f(w);
                st(unsafe { sinew_pose_reset(null_mut()) })
            }),
            expect: NULLP.to_vec(),
            lenient: false,
            needle: None,
        };
        let r = run_case(&case, &reference);
        assert!(
            r.as_ref().is_err_and(|e| e.starts_with("not untouched")),
            "{}: {r:?}",
            case.name
        );
    }
    let quiet = Case {
        export: "sinew_pose_reset",
        param: "pose".into(),
        class: Class::Valid,
        name: "a success that leaves the stale message".into(),
        setup: Setup::None,
        call: Arc::new(|_| st(St::Ok)),
        expect: OK.to_vec(),
        lenient: false,
        needle: None,
    };
    assert!(run_case(&quiet, &reference).is_err());
}

/// The batch judge itself: a batch whose chains, results, guards or other buffers differ from
/// what the single solves give, or whose status or message does not fit them, is caught.
#[test]
fn the_batch_checks_catch_a_batch_unlike_its_single_solves() {
    let given = Given {
        rotations: true,
        per_chain: true,
        results: true,
    };
    let check = || BatchCheck {
        chains: |b| &mut b.batch3[..],
        joints: 3,
        given,
        tolerance: 1e-6,
    };
    let sabotage: [(&str, BufsEdit, St); 7] = [
        ("nothing", |_| {}, St::Ok),
        (
            "a chain off by 1e-4",
            |b| b.batch3[10].translation.y += 1e-4,
            St::Ok,
        ),
        (
            "a result off by 1e-4",
            |b| b.out_results[3].error += 1e-4,
            St::Ok,
        ),
        (
            "the chains' guard",
            |b| b.batch3[3 * B].scale.x = 1.0,
            St::Ok,
        ),
        (
            "the results' guard",
            |b| b.out_results[B].iterations = 1,
            St::Ok,
        ),
        ("an input", |b| b.batch_poles[0].z = 0.0, St::Ok),
        ("nothing, but NUMERIC_OVERFLOW", |_| {}, St::NumericOverflow),
    ];
    for (what, f, status) in sabotage {
        let mut w = World::new();
        let before = w.b;
        let replay = two_bone_replay(w.two_bone, &before, B, given);
        // SAFETY: the world's live solver and buffers of B chains.
        let s = unsafe {
            sinew_two_bone_ik_solve_batch(
                w.two_bone,
                w.b.batch3.as_mut_ptr(),
                B as u32,
                w.b.batch_effectors3.as_ptr(),
                w.b.batch_rotations.as_ptr(),
                w.b.batch_poles.as_ptr(),
                w.b.out_results.as_mut_ptr(),
            )
        };
        assert_eq!(s, St::Ok, "{}", message());
        f(&mut w.b);
        let outcome = check_batch(&mut w, &before, status, Some(replay), check());
        let caught = matches!(outcome, Outcome::Fail(_));
        assert_eq!(caught, what != "nothing", "{what}");
    }
    // A per-chain failure must carry the single solve's status and name the chain first.
    let mut w = World::new();
    w.b.batch_effectors3[BAD].x = f32::NAN;
    let before = w.b;
    let (batch, single) = (true, false);
    for (call, status, failing, fine) in [
        (batch, St::NonFinite, BAD, true),
        (batch, St::InvalidArgument, BAD, false),
        (batch, St::NonFinite, BAD + 1, false),
        (single, St::NonFinite, BAD, false),
    ] {
        // SAFETY: the world's live solver and buffers of B chains (of one for the single).
        let s = unsafe {
            if call == batch {
                sinew_two_bone_ik_solve_batch(
                    w.two_bone,
                    w.b.batch3.as_mut_ptr(),
                    B as u32,
                    w.b.batch_effectors3.as_ptr(),
                    null(),
                    null(),
                    null_mut(),
                )
            } else {
                sinew_two_bone_ik_solve(
                    w.two_bone,
                    w.b.batch3.as_mut_ptr(),
                    &w.b.batch_effectors3[BAD],
                    null(),
                    null(),
                    null_mut(),
                )
            }
        };
        assert_eq!(s, St::NonFinite, "{}", message());
        let replay = Some(Err((failing, St::NonFinite)));
        let outcome = check_batch(&mut w, &before, status, replay, check());
        let judged = !matches!(outcome, Outcome::Fail(_));
        assert_eq!(judged, fine, "{status:?}, chain {failing}, {:?}", message());
    }
}
