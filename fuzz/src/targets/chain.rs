//! `chain`: FABRIK and CCD solvers with arbitrary settings, `max_joints`, joint constraints of
//! every type (and garbage), per-joint CCD limits, chain solves of any length, root parent
//! rotations and targets, and pose-level solves with arbitrary joint lists.

use std::ptr::{null, null_mut};

use sinew::ffi::*;

use crate::check::{self, ids, sentinel, untouched};
use crate::gen::Gen;
use crate::require;
use crate::world::{self, check_pose, created, pose_local, Ccd, Fabrik};

/// Overwrites fields of a (default) constraint with fuzzed values: every type, garbage types,
/// flags, zero/NaN axes and references, angles outside their ranges or inverted.
pub fn fuzz_constraint(g: &mut Gen, c: &mut SinewJointConstraint) {
    c.r#type = g.enum_i32(1, 3);
    c.limit_twist = g.flag();
    if g.chance(60) {
        c.reference = g.quat();
    }
    if g.chance(60) {
        c.axis = match g.byte() {
            0..=159 => g.vec3_clean(),
            160..=199 => SinewVec3 {
                x: 1.0,
                y: 0.0,
                z: 0.0,
            },
            _ => g.vec3(),
        };
    }
    let angle = |g: &mut Gen, lo: f32, hi: f32| {
        if g.chance(85) {
            lo + g.unit_f32() * (hi - lo)
        } else {
            g.f32_any()
        }
    };
    let pi = std::f32::consts::PI;
    c.swing_half_angle_1 = angle(g, 0.0, pi);
    c.swing_half_angle_2 = angle(g, 0.0, pi);
    let (a, b) = (angle(g, -pi, pi), angle(g, -pi, pi));
    if g.chance(85) {
        c.min_angle = a.min(b);
        c.max_angle = a.max(b);
    } else {
        c.min_angle = a;
        c.max_angle = b;
    }
}

fn constraint(g: &mut Gen) -> SinewJointConstraint {
    let mut c = std::mem::MaybeUninit::uninit();
    // SAFETY: valid out-pointer.
    unsafe { sinew_joint_constraint_default(c.as_mut_ptr()) };
    // SAFETY: just written.
    let mut c = unsafe { c.assume_init() };
    fuzz_constraint(g, &mut c);
    c
}

/// Iteration counts the fuzzer solves with: invalid 0, usual small ones, occasionally larger.
fn max_iterations(g: &mut Gen) -> u32 {
    match g.byte() {
        0..=9 => 0,
        10..=239 => 1 + g.below(24) as u32,
        _ => 100 + g.below(400) as u32,
    }
}

fn precision(g: &mut Gen) -> f32 {
    match g.byte() {
        0..=199 => 1e-4 + g.unit_f32() * 0.05,
        _ => g.f32_any(),
    }
}

/// One of the two solvers behind a common interface.
enum Solver {
    Fabrik(Fabrik, SinewFabrikSettings),
    Ccd(Ccd, SinewCcdSettings),
}

impl Solver {
    fn max_iterations(&self) -> u32 {
        match self {
            Solver::Fabrik(_, s) => s.max_iterations,
            Solver::Ccd(_, s) => s.max_iterations,
        }
    }
}

fn fabrik_settings(g: &mut Gen) -> SinewFabrikSettings {
    let mut s = std::mem::MaybeUninit::uninit();
    // SAFETY: valid out-pointer.
    unsafe { sinew_fabrik_settings_default(s.as_mut_ptr()) };
    // SAFETY: just written.
    let mut s = unsafe { s.assume_init() };
    if g.chance(20) {
        return s;
    }
    s.precision = precision(g);
    s.relative_precision = g.flag();
    s.max_iterations = max_iterations(g);
    s.stop_when_stalled = g.flag();
    s.end_rotation = g.enum_i32(0, 3);
    s
}

fn ccd_settings(g: &mut Gen) -> SinewCcdSettings {
    let mut s = std::mem::MaybeUninit::uninit();
    // SAFETY: valid out-pointer.
    unsafe { sinew_ccd_settings_default(s.as_mut_ptr()) };
    // SAFETY: just written.
    let mut s = unsafe { s.assume_init() };
    if g.chance(20) {
        return s;
    }
    s.precision = precision(g);
    s.relative_precision = g.flag();
    s.max_iterations = max_iterations(g);
    s.start_from_tail = g.flag();
    s.fix_root = g.flag();
    s.stop_when_stalled = g.flag();
    s.end_rotation = g.enum_i32(0, 3);
    s
}

fn max_joints(g: &mut Gen) -> u32 {
    match g.byte() {
        0..=229 => 2 + g.below(31) as u32,
        230..=234 => 0,
        235..=239 => 1,
        240..=244 => SINEW_MAX_JOINTS + 1,
        245..=249 => u32::MAX,
        _ => 2 + g.below(300) as u32,
    }
}

fn create(g: &mut Gen) -> Option<(Solver, usize)> {
    let max = max_joints(g);
    if g.bool() {
        let settings = fabrik_settings(g);
        crate::trace!("sinew_fabrik_create({settings:?}, max_joints {max})");
        let mut out: *mut SinewFabrik = sentinel();
        // SAFETY: valid pointers.
        let s = unsafe { sinew_fabrik_create(&settings, max, &mut out) };
        let p = created(s, out, "sinew_fabrik_create")?;
        require!(
            ids::CONTRACT,
            (2..=SINEW_MAX_JOINTS).contains(&max),
            "fabrik max_joints {max} accepted"
        );
        Some((Solver::Fabrik(Fabrik(p), settings), max as usize))
    } else {
        let settings = ccd_settings(g);
        crate::trace!("sinew_ccd_create({settings:?}, max_joints {max})");
        let mut out: *mut SinewCcd = sentinel();
        // SAFETY: valid pointers.
        let s = unsafe { sinew_ccd_create(&settings, max, &mut out) };
        let p = created(s, out, "sinew_ccd_create")?;
        require!(
            ids::CONTRACT,
            (2..=SINEW_MAX_JOINTS).contains(&max),
            "ccd max_joints {max} accepted"
        );
        Some((Solver::Ccd(Ccd(p), settings), max as usize))
    }
}

fn set_settings(g: &mut Gen, solver: &mut Solver) {
    match solver {
        Solver::Fabrik(h, current) => {
            let new = fabrik_settings(g);
            crate::trace!("sinew_fabrik_set_settings({new:?})");
            // SAFETY: live handle, local settings.
            let s = unsafe { sinew_fabrik_set_settings(h.0, &new) };
            let mut read = std::mem::MaybeUninit::uninit();
            let ok = check::status(s, "sinew_fabrik_set_settings");
            // SAFETY: live handle.
            let r = unsafe { sinew_fabrik_get_settings(h.0, read.as_mut_ptr()) };
            assert!(check::status(r, "sinew_fabrik_get_settings"));
            // SAFETY: written on success.
            let read = unsafe { read.assume_init() };
            if ok {
                require!(
                    ids::CONTRACT,
                    read == new,
                    "fabrik settings read back differ"
                );
                *current = new;
            } else {
                untouched(&[*current], &[read], "fabrik settings");
            }
        }
        Solver::Ccd(h, current) => {
            let new = ccd_settings(g);
            crate::trace!("sinew_ccd_set_settings({new:?})");
            // SAFETY: live handle, local settings.
            let s = unsafe { sinew_ccd_set_settings(h.0, &new) };
            let mut read = std::mem::MaybeUninit::uninit();
            let ok = check::status(s, "sinew_ccd_set_settings");
            // SAFETY: live handle.
            let r = unsafe { sinew_ccd_get_settings(h.0, read.as_mut_ptr()) };
            assert!(check::status(r, "sinew_ccd_get_settings"));
            // SAFETY: written on success.
            let read = unsafe { read.assume_init() };
            if ok {
                require!(ids::CONTRACT, read == new, "ccd settings read back differ");
                *current = new;
            } else {
                untouched(&[*current], &[read], "ccd settings");
            }
        }
    }
}

fn set_constraint(g: &mut Gen, solver: &Solver, max: usize) {
    let joint = g.index(max);
    let c = constraint(g);
    let clear = g.chance(15);
    let p: *const SinewJointConstraint = if clear { null() } else { &c };
    crate::trace!(
        "sinew_<chain>_set_constraint(joint {joint}, {:?})",
        (!clear).then_some(c)
    );
    // SAFETY: live handle; `p` NULL or a local.
    let s = unsafe {
        match solver {
            Solver::Fabrik(h, _) => sinew_fabrik_set_constraint(h.0, joint, p),
            Solver::Ccd(h, _) => sinew_ccd_set_constraint(h.0, joint, p),
        }
    };
    check::status(s, "sinew_<chain>_set_constraint");
}

fn set_ccd_joint(g: &mut Gen, solver: &Solver, max: usize) {
    let Solver::Ccd(h, _) = solver else { return };
    let joint = g.index(max);
    let limit = if g.chance(80) {
        g.unit_f32() * 180.0
    } else {
        g.f32_any()
    };
    let weight = g.weight();
    crate::trace!("sinew_ccd_set_joint(joint {joint}, limit {limit}, weight {weight})");
    // SAFETY: live handle.
    let s = unsafe { sinew_ccd_set_joint(h.0, joint, limit, weight) };
    if check::status(s, "sinew_ccd_set_joint") {
        require!(
            ids::CONTRACT,
            (0.0..=180.0).contains(&limit) && (0.0..=1.0).contains(&weight),
            "ccd joint limit {limit} / weight {weight} accepted"
        );
    }
}

/// A model-space chain of `n` joints: usually a connected limb, sometimes degenerate or
/// arbitrary.
fn model_chain(g: &mut Gen, n: usize) -> Vec<SinewTransform> {
    match g.byte() {
        0..=179 => {
            let mut c: Vec<SinewTransform> = Vec::with_capacity(n);
            let scale = if g.chance(85) { 1.0 } else { g.f32_any() };
            for i in 0..n {
                let mut t = g.transform_clean();
                if i > 0 {
                    let d = if g.chance(90) {
                        g.vec3_clean()
                    } else {
                        SinewVec3::default()
                    };
                    let p = c[i - 1].translation;
                    t.translation = SinewVec3 {
                        x: p.x + d.x * scale,
                        y: p.y + d.y * scale,
                        z: p.z + d.z * scale,
                    };
                }
                c.push(t);
            }
            c
        }
        _ => g.transforms(n),
    }
}

fn solve(g: &mut Gen, solver: &Solver, max: usize) {
    let n = match g.byte() {
        0..=219 => 2 + g.below(max.min(40).saturating_sub(1)),
        220..=229 if max < 1000 => max + 1,
        220..=239 => g.below(2),
        _ => g.below(max.min(64) + 2),
    };
    let mut chain = model_chain(g, n);
    let parent = g.quat();
    let position = if g.chance(60) {
        let base = chain.first().map(|t| t.translation).unwrap_or_default();
        let d = g.vec3_clean();
        SinewVec3 {
            x: base.x + d.x,
            y: base.y + d.y,
            z: base.z + d.z,
        }
    } else {
        g.vec3()
    };
    let rotation = g.quat();
    let (with_parent, with_rot, with_result) = (g.bool(), g.bool(), g.chance(85));
    let mut result = SinewIkResult {
        reached: 9,
        error: -9.0,
        iterations: 9,
    };
    let result_before = result;
    let before = chain.clone();
    let parent_p: *const SinewQuat = if with_parent { &parent } else { null() };
    let rot_p: *const SinewQuat = if with_rot { &rotation } else { null() };
    let res_p: *mut SinewIkResult = if with_result { &mut result } else { null_mut() };
    crate::trace!(
        "sinew_<chain>_solve(chain {chain:?}, n {n}, parent {:?}, position {position:?}, rotation {:?})",
        with_parent.then_some(parent),
        with_rot.then_some(rotation)
    );
    // SAFETY: `chain` holds `n` transforms; other pointers are locals or NULL.
    let s = unsafe {
        match solver {
            Solver::Fabrik(h, _) => sinew_fabrik_solve(
                h.0,
                chain.as_mut_ptr(),
                n as u32,
                parent_p,
                &position,
                rot_p,
                res_p,
            ),
            Solver::Ccd(h, _) => sinew_ccd_solve(
                h.0,
                chain.as_mut_ptr(),
                n as u32,
                parent_p,
                &position,
                rot_p,
                res_p,
            ),
        }
    };
    if check::status(s, "sinew_<chain>_solve") {
        require!(
            ids::CONTRACT,
            n <= max,
            "a chain of {n} > max_joints {max} was solved"
        );
        check::finite_transforms(&chain, "solved chain");
        if with_result {
            check::finite_result(&result, Some(solver.max_iterations()), "chain result");
        }
    } else {
        untouched(&before, &chain, "chain");
        untouched(&[result_before], &[result], "chain result");
    }
}

fn solve_pose(g: &mut Gen, solver: &Solver, pose: &world::Pose, parents: &[i32], max: usize) {
    let joints = world::joint_chain(g, parents, max.min(48) + 1);
    let position = if g.chance(70) {
        g.vec3_clean()
    } else {
        g.vec3()
    };
    let rotation = g.quat();
    let with_rot = g.bool();
    let mut result = SinewIkResult {
        reached: 9,
        error: -9.0,
        iterations: 9,
    };
    let result_before = result;
    let before = pose_local(pose.0);
    let rot_p: *const SinewQuat = if with_rot { &rotation } else { null() };
    let count = joints.len() as u32;
    crate::trace!(
        "sinew_<chain>_solve_pose(pose {:p} = {before:?}, joints {joints:?}, position {position:?}, rotation {:?})",
        pose.0,
        with_rot.then_some(rotation)
    );
    // SAFETY: `joints` holds `count` items; other pointers are locals.
    let s = unsafe {
        match solver {
            Solver::Fabrik(h, _) => sinew_fabrik_solve_pose(
                h.0,
                pose.0,
                joints.as_ptr(),
                count,
                &position,
                rot_p,
                &mut result,
            ),
            Solver::Ccd(h, _) => sinew_ccd_solve_pose(
                h.0,
                pose.0,
                joints.as_ptr(),
                count,
                &position,
                rot_p,
                &mut result,
            ),
        }
    };
    if check::status(s, "sinew_<chain>_solve_pose") {
        check_pose(pose.0, "chain pose");
        check::finite_result(&result, Some(solver.max_iterations()), "chain pose result");
    } else {
        untouched(&before, &pose_local(pose.0), "chain pose");
        untouched(&[result_before], &[result], "chain pose result");
    }
}

/// The `chain` target.
pub fn run(data: &[u8]) {
    let mut g = Gen::new(data);
    let Some((mut solver, max)) = create(&mut g) else {
        return;
    };
    let (skeleton, spec) = world::valid_skeleton(&mut g, 40);
    let pose = world::random_pose(&mut g, &skeleton);
    for _ in 0..32 {
        if g.is_empty() {
            break;
        }
        match g.byte() % 10 {
            0 => set_settings(&mut g, &mut solver),
            1 | 2 => set_constraint(&mut g, &solver, max),
            3 => set_ccd_joint(&mut g, &solver, max),
            4..=6 => solve(&mut g, &solver, max),
            7 | 8 => solve_pose(&mut g, &solver, &pose, &spec.parents, max),
            _ => {
                let k = g.below(4);
                let joints: Vec<u32> = (0..k).map(|_| g.index(spec.parents.len())).collect();
                let cs: Vec<SinewJointConstraint> = (0..k).map(|_| constraint(&mut g)).collect();
                let before = pose_local(pose.0);
                // SAFETY: both arrays hold `k` items.
                let s = unsafe {
                    sinew_pose_apply_constraints(pose.0, joints.as_ptr(), cs.as_ptr(), k as u32)
                };
                if check::status(s, "sinew_pose_apply_constraints") {
                    check_pose(pose.0, "constrained pose");
                } else {
                    untouched(&before, &pose_local(pose.0), "constrained pose");
                }
            }
        }
    }
}
