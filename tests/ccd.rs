//! CCD: validity cases first, then the chain-solver contract it shares with FABRIK
//! (tests/common/chain_contract.rs), then what only CCD has: per-joint rotation limits and
//! weights, `fix_root`, and its mean iterations on the FABRIK paper's benchmark. Frame-after-frame
//! tracking of both chain solvers: chain_tracking.rs; joint limits: constraints.rs.

use std::f32::consts::PI;

use proptest::prelude::*;
use sinew::{Ccd, CcdJoint, CcdSettings, ChainTarget, ErrorKind, Quat, Transform, Vec3};

mod common;

use common::chain_contract::{
    chain_contract_tests, check_solve, paper_benchmark, random_chain_of, random_constraint, seeded,
};
use common::chains::{bits, build, locals_of, total_length};
use common::props::config;
use common::rotations::rot_between;
use common::solvers::{ccd_settings, Kind};

// ----------------------------------------------------------------------------------- validity

chain_contract_tests!(validity, Ccd);

/// `set_joint` rejects joints beyond `max_joints`, rotation limits outside 0..=180 degrees,
/// weights outside 0..=1 and non-finite values.
#[test]
fn invalid_joint_tunings_are_rejected() {
    use ErrorKind::{InvalidArgument as Invalid, NonFinite, OutOfRange};
    let mut ccd = Ccd::new(CcdSettings::default(), 4).unwrap();
    let cases = [
        (4, 30.0, 1.0, OutOfRange),
        (0, -1.0, 1.0, Invalid),
        (0, 181.0, 1.0, Invalid),
        (0, 30.0, 1.5, Invalid),
        (0, 30.0, -0.1, Invalid),
        (0, f32::NAN, 1.0, NonFinite),
        (0, 30.0, f32::NAN, NonFinite),
    ];
    for (joint, rotation_limit_degrees, weight, kind) in cases {
        let tuning = CcdJoint {
            rotation_limit_degrees,
            weight,
        };
        let err = ccd.set_joint(joint, tuning).unwrap_err();
        assert_eq!(err.kind(), kind, "joint {joint}: {tuning:?}");
    }
}

// ------------------------------------------------------------------ the chain-solver contract

chain_contract_tests!(properties, Ccd);

// ---------------------------------------------------------------------------- CCD specifics

proptest! {
    #![proptest_config(config(48))]

    /// Each joint's local rotation stays within its rotation limit of the input local rotation.
    #[test]
    fn ccd_rotation_limits_hold(seed in any::<u64>(), n in 3usize..8, from_tail in any::<bool>()) {
        let mut rng = seeded(seed);
        let chain = random_chain_of(&mut rng, n, 1.0, true);
        let root_parent = rng.rotation(PI);
        let mut ccd = Ccd::new(CcdSettings { start_from_tail: from_tail, ..ccd_settings(30, false) }, 8).unwrap();
        let mut limits = vec![180.0; n];
        for (i, limit) in limits.iter_mut().enumerate() {
            *limit = rng.range(2.0, 60.0);
            ccd.set_joint(i, CcdJoint { rotation_limit_degrees: *limit, weight: 1.0 }).unwrap();
        }
        let before = locals_of(&chain, root_parent);
        let total = total_length(&chain);
        for _ in 0..3 {
            let goal = rng.in_shell(chain[0].translation, 0.0, 1.3 * total);
            let mut out = chain.clone();
            let r = ccd.solve(&mut out, root_parent, &ChainTarget::at(goal)).unwrap();
            check_solve("CCD limited", &chain, &out, goal, &r, 1e-3 * total)?;
            let after = locals_of(&out, root_parent);
            for i in 0..n {
                let turned = rot_between(before[i], after[i]);
                prop_assert!(
                    turned <= limits[i].to_radians() + 1e-3,
                    "joint {i} turned {} deg, limit {}",
                    turned.to_degrees(),
                    limits[i]
                );
            }
        }
    }

    /// Weight 0 freezes a joint's local rotation; all weights 0 freeze the chain.
    #[test]
    fn ccd_weight_zero_freezes_joints(seed in any::<u64>(), n in 3usize..8, all in any::<bool>()) {
        let mut rng = seeded(seed);
        let chain = random_chain_of(&mut rng, n, 1.0, true);
        let mut ccd = Ccd::new(ccd_settings(20, false), 8).unwrap();
        let mut frozen = vec![false; n];
        for (i, f) in frozen.iter_mut().enumerate() {
            *f = all || rng.chance(0.4);
            let weight = if *f { 0.0 } else { rng.range(0.2, 1.0) };
            ccd.set_joint(i, CcdJoint { rotation_limit_degrees: 180.0, weight }).unwrap();
        }
        let total = total_length(&chain);
        let goal = rng.in_shell(chain[0].translation, 0.0, 1.3 * total);
        let mut out = chain.clone();
        let r = ccd.solve(&mut out, Quat::IDENTITY, &ChainTarget::at(goal)).unwrap();
        check_solve("CCD weighted", &chain, &out, goal, &r, 1e-3 * total)?;
        let (before, after) = (locals_of(&chain, Quat::IDENTITY), locals_of(&out, Quat::IDENTITY));
        for i in (0..n).filter(|&i| frozen[i]) {
            prop_assert!(rot_between(before[i], after[i]) <= 1e-5, "joint {i} moved with weight 0");
        }
        if all {
            for (a, b) in chain.iter().zip(&out) {
                prop_assert!((a.translation - b.translation).length() <= 1e-5 * total);
            }
        }
    }

    /// fix_root keeps the root's rotation (and position) bit-identical while the rest solves.
    #[test]
    fn ccd_fix_root_keeps_the_root_rotation(seed in any::<u64>(), n in 3usize..8, constrained in any::<bool>()) {
        let mut rng = seeded(seed);
        let chain = random_chain_of(&mut rng, n, 1.0, true);
        let total = total_length(&chain);
        let mut ccd = Ccd::new(CcdSettings { fix_root: true, ..ccd_settings(30, false) }, 8).unwrap();
        if constrained {
            let c = random_constraint(&mut rng, &chain, Quat::IDENTITY, 0);
            ccd.set_constraint(0, Some(c)).unwrap();
        }
        for goal in [
            rng.in_shell(chain[0].translation, 0.0, total),
            rng.in_shell(chain[0].translation, 1.2 * total, 2.0 * total),
        ] {
            let mut out = chain.clone();
            let r = ccd.solve(&mut out, Quat::IDENTITY, &ChainTarget::at(goal)).unwrap();
            check_solve("CCD fix_root", &chain, &out, goal, &r, 1e-3 * total)?;
            prop_assert_eq!(bits(&out[..1]), bits(&chain[..1]));
        }
    }
}

#[test]
fn ccd_fix_root_keeps_an_exact_root_rotation_and_still_solves() {
    let root = Transform::from_rotation_translation(Quat::from_xyzw(0.0, 0.0, 0.6, 0.8), Vec3::ONE);
    let locals = [Transform::from_translation(Vec3::X); 4];
    let chain = build(root, &locals);
    let mut ccd = Ccd::new(
        CcdSettings {
            fix_root: true,
            ..ccd_settings(100, false)
        },
        8,
    )
    .unwrap();
    let goal = chain[1].translation + Vec3::new(0.5, 1.5, 0.7);
    let mut out = chain.clone();
    let r = ccd
        .solve(&mut out, Quat::IDENTITY, &ChainTarget::at(goal))
        .unwrap();
    assert!(r.reached, "{r:?}");
    assert_eq!(bits(&out[..1]), bits(&chain[..1]));
}

/// The smallest case of the property above: a root rotated 2 rad about X.
#[test]
fn ccd_fix_root_keeps_the_root_rotation_bits() {
    let q = Quat::from_rotation_x(2.0);
    let chain = [
        Transform::from_rotation_translation(q, Vec3::ZERO),
        Transform::from_rotation_translation(q, q * Vec3::X),
        Transform::from_rotation_translation(q, q * Vec3::X * 2.0),
    ];
    let mut ccd = Ccd::new(
        CcdSettings {
            fix_root: true,
            ..CcdSettings::default()
        },
        4,
    )
    .unwrap();
    let mut out = chain;
    ccd.solve(
        &mut out,
        Quat::IDENTITY,
        &ChainTarget::at(Vec3::new(0.5, 1.5, 0.0)),
    )
    .unwrap();
    assert_eq!(
        out[0].rotation.to_array().map(f32::to_bits),
        chain[0].rotation.to_array().map(f32::to_bits),
        "root rotation {} became {}",
        chain[0].rotation,
        out[0].rotation
    );
}

/// CCD on the FABRIK paper's benchmark (`paper_benchmark`; fabrik.rs holds FABRIK to it), on a
/// tenth of its targets: the mean is printed for comparison; it only has to be finite and within
/// the iteration budget.
#[test]
fn ccd_on_the_fabrik_paper_benchmark() {
    for (_, mean, _) in paper_benchmark(Kind::Ccd, 200) {
        assert!(mean.is_finite() && mean <= 1000.0);
    }
}
