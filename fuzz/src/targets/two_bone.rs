//! `two_bone`: two-bone IK settings (invalid enums and flags, any floats), chain solves with
//! arbitrary model-space chains, effectors, rotations and poles, and pose-level solves with
//! arbitrary joint triples.

use std::ptr::{null, null_mut};

use sinew::ffi::*;

use crate::check::{self, ids, sentinel, untouched};
use crate::gen::Gen;
use crate::require;
use crate::world::{self, check_pose, created, pose_local, TwoBone};

pub fn settings(g: &mut Gen) -> SinewTwoBoneIkSettings {
    let mut s = std::mem::MaybeUninit::uninit();
    // SAFETY: valid out-pointer.
    unsafe { sinew_two_bone_ik_settings_default(s.as_mut_ptr()) };
    // SAFETY: just written.
    let mut s = unsafe { s.assume_init() };
    if g.chance(25) {
        return s;
    }
    if g.bool() {
        s.weight = g.weight();
    }
    s.allow_stretching = g.flag();
    if g.bool() {
        s.start_stretch_ratio = if g.chance(80) {
            0.5 + g.unit_f32()
        } else {
            g.f32_any()
        };
    }
    if g.bool() {
        s.max_stretch_scale = if g.chance(80) {
            1.0 + g.unit_f32()
        } else {
            g.f32_any()
        };
    }
    s.end_rotation = g.enum_i32(0, 3);
    if g.bool() {
        s.soften = g.weight();
    }
    s.keep_twist = g.flag();
    if g.bool() {
        s.pole_weight = g.weight();
    }
    s
}

fn get_settings(solver: &TwoBone) -> SinewTwoBoneIkSettings {
    let mut out = std::mem::MaybeUninit::uninit();
    // SAFETY: live solver, valid out-pointer.
    let s = unsafe { sinew_two_bone_ik_get_settings(solver.0, out.as_mut_ptr()) };
    assert!(check::status(s, "sinew_two_bone_ik_get_settings"));
    // SAFETY: written on success.
    unsafe { out.assume_init() }
}

fn chain(g: &mut Gen) -> [SinewTransform; 3] {
    match g.byte() {
        0..=159 => {
            // A plausible limb: root somewhere, two bones of random length and direction.
            let root = g.transform_clean();
            let mut c = [root, g.transform_clean(), g.transform_clean()];
            let scale = if g.chance(80) { 1.0 } else { g.f32_any() };
            for i in 1..3 {
                let d = g.vec3_clean();
                c[i].translation = SinewVec3 {
                    x: c[i - 1].translation.x + d.x * scale,
                    y: c[i - 1].translation.y + d.y * scale,
                    z: c[i - 1].translation.z + d.z * scale,
                };
            }
            c
        }
        160..=189 => {
            // Degenerate: coincident or collinear joints.
            let t = g.transform_clean();
            let mut c = [t, t, t];
            if g.bool() {
                c[2].translation.x += g.f32_clean();
            }
            if g.bool() {
                c[1].translation.x += g.f32_clean();
            }
            c
        }
        _ => [g.transform(), g.transform(), g.transform()],
    }
}

fn effector(g: &mut Gen, c: &[SinewTransform; 3]) -> SinewVec3 {
    match g.byte() {
        0..=99 => g.vec3_clean(),
        100..=139 => c[g.below(3)].translation,
        140..=179 => {
            let d = g.vec3_clean();
            let s = g.f32_any();
            SinewVec3 {
                x: c[0].translation.x + d.x * s,
                y: c[0].translation.y + d.y * s,
                z: c[0].translation.z + d.z * s,
            }
        }
        _ => g.vec3(),
    }
}

fn solve(g: &mut Gen, solver: &TwoBone) {
    let mut c = chain(g);
    let position = effector(g, &c);
    let rotation = g.quat();
    let pole = if g.chance(60) {
        c[1].translation
    } else {
        g.vec3()
    };
    let pole = match g.byte() {
        0..=99 => pole,
        100..=149 => {
            // On the root-target line or at the root.
            let t = g.unit_f32() * 2.0 - 0.5;
            SinewVec3 {
                x: c[0].translation.x + (position.x - c[0].translation.x) * t,
                y: c[0].translation.y + (position.y - c[0].translation.y) * t,
                z: c[0].translation.z + (position.z - c[0].translation.z) * t,
            }
        }
        _ => g.vec3(),
    };
    let mut result = SinewIkResult {
        reached: 9,
        error: -9.0,
        iterations: 9,
    };
    let result_before = result;
    let before = c;
    let (with_rot, with_pole, with_result) = (g.bool(), g.bool(), g.chance(80));
    let null_position = g.chance(3);
    crate::trace!(
        "sinew_two_bone_ik_solve(chain {c:?}, position {position:?} (NULL {null_position}), rotation {:?}, pole {:?}, result {with_result})",
        with_rot.then_some(rotation),
        with_pole.then_some(pole)
    );
    // SAFETY: `c` holds three transforms; other pointers are locals or NULL.
    let s = unsafe {
        sinew_two_bone_ik_solve(
            solver.0,
            c.as_mut_ptr(),
            if null_position { null() } else { &position },
            if with_rot { &rotation } else { null() },
            if with_pole { &pole } else { null() },
            if with_result { &mut result } else { null_mut() },
        )
    };
    if check::status(s, "sinew_two_bone_ik_solve") {
        check::finite_transforms(&c, "two-bone chain");
        if with_result {
            check::finite_result(&result, Some(1), "two-bone result");
        }
    } else {
        untouched(&before, &c, "two-bone chain");
        untouched(&[result_before], &[result], "two-bone result");
    }
}

fn solve_pose(g: &mut Gen, solver: &TwoBone, pose: &world::Pose, parents: &[i32]) {
    let joints = world::joint_chain(g, parents, 3);
    let n = parents.len();
    let pick = |g: &mut Gen, i: usize| joints.get(i).copied().unwrap_or_else(|| g.index(n));
    let (root, joint, end) = (pick(g, 0), pick(g, 1), pick(g, 2));
    let position = if g.chance(70) {
        g.vec3_clean()
    } else {
        g.vec3()
    };
    let rotation = g.quat();
    let pole = g.vec3();
    let mut result = SinewIkResult {
        reached: 9,
        error: -9.0,
        iterations: 9,
    };
    let result_before = result;
    let before = pose_local(pose.0);
    let (with_rot, with_pole) = (g.bool(), g.bool());
    crate::trace!(
        "sinew_two_bone_ik_solve_pose(pose {:p} = {before:?}, joints {root} {joint} {end}, position {position:?}, rotation {:?}, pole {:?})",
        pose.0,
        with_rot.then_some(rotation),
        with_pole.then_some(pole)
    );
    // SAFETY: live handles and local values.
    let s = unsafe {
        sinew_two_bone_ik_solve_pose(
            solver.0,
            pose.0,
            root,
            joint,
            end,
            &position,
            if with_rot { &rotation } else { null() },
            if with_pole { &pole } else { null() },
            &mut result,
        )
    };
    if check::status(s, "sinew_two_bone_ik_solve_pose") {
        check_pose(pose.0, "two-bone pose");
        check::finite_result(&result, Some(1), "two-bone pose result");
    } else {
        untouched(&before, &pose_local(pose.0), "two-bone pose");
        untouched(&[result_before], &[result], "two-bone pose result");
    }
}

/// The `two_bone` target.
pub fn run(data: &[u8]) {
    let mut g = Gen::new(data);
    let first = settings(&mut g);
    let mut out: *mut SinewTwoBoneIk = sentinel();
    crate::trace!("sinew_two_bone_ik_create({first:?})");
    // SAFETY: valid pointers.
    let s = unsafe { sinew_two_bone_ik_create(&first, &mut out) };
    let solver = match created(s, out, "sinew_two_bone_ik_create") {
        Some(p) => TwoBone(p),
        None => {
            let mut d = std::mem::MaybeUninit::uninit();
            let mut out: *mut SinewTwoBoneIk = sentinel();
            // SAFETY: defaults are valid.
            let s = unsafe {
                sinew_two_bone_ik_settings_default(d.as_mut_ptr());
                sinew_two_bone_ik_create(d.as_ptr(), &mut out)
            };
            TwoBone(created(s, out, "sinew_two_bone_ik_create(defaults)").expect("defaults"))
        }
    };
    let (skeleton, spec) = world::valid_skeleton(&mut g, 12);
    let pose = world::random_pose(&mut g, &skeleton);
    for _ in 0..32 {
        if g.is_empty() {
            break;
        }
        match g.byte() % 8 {
            0 => {
                let before = get_settings(&solver);
                let new = settings(&mut g);
                crate::trace!("sinew_two_bone_ik_set_settings({new:?})");
                // SAFETY: live solver, local settings.
                let s = unsafe { sinew_two_bone_ik_set_settings(solver.0, &new) };
                if check::status(s, "sinew_two_bone_ik_set_settings") {
                    let after = get_settings(&solver);
                    require!(
                        ids::CONTRACT,
                        after == new,
                        "settings read back differ: {new:?} -> {after:?}"
                    );
                } else {
                    untouched(&[before], &[get_settings(&solver)], "two-bone settings");
                }
            }
            1..=4 => solve(&mut g, &solver),
            5 | 6 => solve_pose(&mut g, &solver, &pose, &spec.parents),
            _ => {
                let n = spec.parents.len() as u32;
                let local = g.transforms(n as usize);
                let s = world::set_local(pose.0, &local, n);
                if check::status(s, "sinew_pose_set_local") {
                    check_pose(pose.0, "set_local");
                }
            }
        }
    }
}
