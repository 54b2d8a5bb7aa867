//! What every batch export shares (two-bone, FABRIK, CCD). Each call replays its chains through
//! the single solve first and judges the batch against that (`check_batch`): a per-chain failure
//! must be the single solve's status with the chain named, a success or overflow must match the
//! single solves chain by chain. Generated float cases spoil chain BAD of B.

use sinew::ffi::SinewStatus as St;
use sinew::ffi::*;

use crate::batch::batch_of;
use crate::call::Args;
use crate::header::Class::*;
use crate::table::*;
use crate::world::*;

pub fn cases(t: &mut Table) {
    for export in [
        "sinew_two_bone_ik_solve_batch",
        "sinew_two_bone_ik_solve_batch_soa",
        "sinew_fabrik_solve_batch",
        "sinew_ccd_solve_batch",
        "sinew_aim_ik_solve_batch",
    ] {
        batch(t, export);
    }
}

fn batch(t: &mut Table, export: &'static str) {
    let none = Args::none;
    let aim = export == "sinew_aim_ik_solve_batch";
    let per_chain = if export.starts_with("sinew_two_bone_ik_solve_batch") {
        "joint_targets"
    } else if aim {
        "up_targets"
    } else {
        "root_parent_rotations"
    };
    let positions = if aim {
        "target_positions"
    } else {
        "effector_positions"
    };
    let what = "five chains, each as its single solve";
    t.at(export, "chains", Valid).args(what, none(), OK);
    // (In the two-bone batch, 1 is a scalar tail only and 4 one SIMD group with no tail.)
    for (n, what) in [
        (0, "chain_count 0 touches nothing"),
        (1, "chain_count 1"),
        (4, "chain_count 4"),
    ] {
        t.at(export, "chain_count", Count)
            .args(what, none().int("chain_count", n), OK);
    }
    let all = [
        "chains",
        positions,
        "effector_rotations",
        per_chain,
        "out_results",
    ];
    // The aim batch has no effector rotations.
    let arrays: Vec<&str> = all
        .into_iter()
        .filter(|p| !(aim && *p == "effector_rotations"))
        .collect();
    let no_arrays = arrays
        .iter()
        .fold(none().int("chain_count", 0), |a, p| a.null(p));
    let what = "chain_count 0 with every array NULL";
    t.at(export, "chain_count", Count).args(what, no_arrays, OK);
    for &p in &arrays {
        let what = format!("misaligned {p}");
        t.at(export, p, Align)
            .args(&what, Args::misaligned(p), INVALID);
        t.needle(format!("`{p}`"));
    }
    // Finite input whose result overflows f32: that chain and its result stay untouched, the
    // others are solved (checked by the call), the first one is named.
    let huge = v(3e38, 3e38, 3e38);
    for (what, chains) in [
        ("chain 1 overflows (SIMD group)", &[1][..]),
        ("chain 4 overflows (scalar tail)", &[4]),
        ("chains 3 and 1 overflow", &[3, 1]),
        ("every chain overflows", &[0, 1, 2, 3, 4]),
    ] {
        let edit = move |b: &mut Bufs| {
            for &i in chains {
                batch_of(b, export).1[i] = huge;
            }
        };
        // An aim only turns toward a huge target; its overflow is a chain whose turned bone
        // spans more than f32's range (the root at -3e38, the next joint at 3e38).
        let spanning = move |b: &mut Bufs| {
            let (c, _) = batch_of(b, export);
            let joints = c.len() / B;
            for &i in chains {
                c[joints * i].translation.x = -3e38;
                c[joints * i + 1].translation.x = 3e38;
            }
        };
        if aim {
            t.at(export, "chains", Overflow)
                .bufs(what, spanning, OVERFLOW);
        } else {
            t.at(export, positions, Overflow).bufs(what, edit, OVERFLOW);
        }
        t.needle(format!("chain {}", chains.iter().min().unwrap()));
    }
    let zero = move |b: &mut Bufs| {
        let (chains, _) = batch_of(b, export);
        let joints = chains.len() / B;
        chains[joints * BAD + 1].rotation = SinewQuat::default();
    };
    t.at(export, "chains", Domain)
        .bufs("zero quaternion in chain 2", zero, INVALID);
    t.needle(format!("chain {BAD}: "));
    if !aim {
        let zero = |b: &mut Bufs| b.batch_rotations[BAD] = SinewQuat::default();
        let what = "zero effector rotation of chain 2";
        t.at(export, "effector_rotations", Domain)
            .bufs(what, zero, INVALID);
        t.needle(format!("chain {BAD}: "));
    }
    // The last chain: a bad value after every other chain, the SIMD group included.
    let nan = move |b: &mut Bufs| {
        let (chains, _) = batch_of(b, export);
        chains[chains.len() - 1].translation.y = f32::NAN;
    };
    let what = "NaN in the last chain's end";
    t.at(export, "chains", Nan)
        .bufs(what, nan, &[St::NonFinite]);
    t.needle(format!("chain {}: ", B - 1));
    let inf = move |b: &mut Bufs| batch_of(b, export).1[B - 1].z = f32::INFINITY;
    let what = "infinite effector of the last chain";
    t.at(export, positions, PosInf)
        .bufs(what, inf, &[St::NonFinite]);
    t.needle(format!("chain {}: ", B - 1));
}
