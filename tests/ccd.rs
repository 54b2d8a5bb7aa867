//! CCD: validity cases first, then the chain-solver contract it shares with FABRIK
//! (tests/common/chain_contract.rs), then what only CCD has: per-joint rotation limits and
//! weights, `fix_root`, and its mean iterations on the FABRIK paper's benchmark. Frame-after-frame
//! tracking of both chain solvers: chain_tracking.rs; joint limits: constraints.rs.

use std::f32::consts::PI;

use proptest::prelude::*;
use sinew::{
    Ccd, CcdJoint, CcdSettings, ChainTarget, EndRotation, ErrorKind, JointConstraint, Limit, Quat,
    Transform, Vec3,
};

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

// ------------------------------------------------------- limits beside constraints

proptest! {
    #![proptest_config(config(48))]

    /// [`limits_hold_with_constraints`] on random chains.
    #[test]
    fn ccd_rotation_limits_hold_with_constraints(
        seed in any::<u64>(),
        n in 3usize..9,
        from_tail in any::<bool>(),
        fix_root in any::<bool>(),
    ) {
        limits_hold_with_constraints(seed, n, from_tail, fix_root)?;
    }
}

/// Limits hold beside constraints too (README, "FABRIK and CCD"; `CcdJoint`): every joint but
/// the tip (whose rotation follows the end-rotation mode) ends within its rotation limit of its
/// input local rotation, or, where the input breaks the joint's constraint, of the input's
/// projection onto it (constraints win); and within its constraint. Random limits, weights and
/// constraints; the constraints are centred on another chain's pose, so inputs often break
/// them and the start's projection moves the joints around them.
fn limits_hold_with_constraints(
    seed: u64,
    n: usize,
    from_tail: bool,
    fix_root: bool,
) -> Result<(), TestCaseError> {
    let mut rng = seeded(seed);
    let chain = random_chain_of(&mut rng, n, 1.0, true);
    let other = random_chain_of(&mut rng, n, 1.0, true);
    let root_parent = rng.rotation(PI);
    let settings = CcdSettings {
        start_from_tail: from_tail,
        fix_root,
        ..ccd_settings(30, false)
    };
    let mut ccd = Ccd::new(settings, 8).unwrap();
    let mut limits = vec![180.0f32; n];
    let mut constraints = vec![None; n];
    for i in 0..n {
        if rng.chance(0.6) {
            limits[i] = rng.range(0.0, 90.0);
        }
        let joint = CcdJoint {
            rotation_limit_degrees: limits[i],
            weight: rng.range(0.2, 1.0),
        };
        ccd.set_joint(i, joint).unwrap();
        if rng.chance(0.5) {
            let c = random_constraint(&mut rng, &other, root_parent, i);
            ccd.set_constraint(i, Some(c)).unwrap();
            constraints[i] = Some(c);
        }
    }
    let before = locals_of(&chain, root_parent);
    let total = total_length(&chain);
    for _ in 0..3 {
        let goal = rng.in_shell(chain[0].translation, 0.0, 1.3 * total);
        let mut out = chain.clone();
        let r = ccd
            .solve(&mut out, root_parent, &ChainTarget::at(goal))
            .unwrap();
        check_solve(
            "CCD limited, constrained",
            &chain,
            &out,
            goal,
            &r,
            1e-3 * total,
        )?;
        let after = locals_of(&out, root_parent);
        for (i, c) in constraints.iter().enumerate() {
            let reference = c.map_or(before[i], |c| c.project(before[i]));
            let turned = rot_between(reference, after[i]);
            prop_assert!(
                i == n - 1 || turned <= limits[i].to_radians() + 1e-3,
                "joint {i} turned {} deg, limit {}",
                turned.to_degrees(),
                limits[i]
            );
            if let Some(c) = c {
                prop_assert!(
                    c.violation(after[i]) <= 1e-3,
                    "joint {i} breaks its constraint"
                );
            }
        }
    }
    Ok(())
}

/// A case of the property above where a sweep's turn, cut to the limit, was then projected
/// onto the joint's constraint past the limit again (joint 1 ended 11.1° from its input, limit
/// 10.8°).
#[test]
fn ccd_constraint_projection_does_not_undo_a_limit() {
    limits_hold_with_constraints(3052624229306266705, 3, false, false).unwrap();
}

/// The cross-platform run's CCD case 326 (`tests/c/chains.c`), with the f32 values of its
/// parity line (written shortest): joint 6 (limit 90°, weight 0.99, no constraint of its own) sits between
/// constrained joints 5 and 7, and the start (the input projected onto the constraints) turned
/// it 107.7° from its input local rotation. Every limit and every constraint holds on output.
#[test]
fn ccd_limits_hold_next_to_constrained_joints() {
    /// Per joint: model translation, model rotation (x, y, z, w).
    const INPUT: [([f32; 3], [f32; 4]); 10] = [
        (
            [2.5472498, -0.342618, 0.539763],
            [0.016229395, -0.3632021, -0.13023151, -0.92242104],
        ),
        (
            [3.1310973, -0.75743735, -0.64181566],
            [-0.3736502, 0.21839638, -0.65997016, -0.6141074],
        ),
        (
            [3.5444467, -1.0964472, -1.6226283],
            [0.10717851, -0.70016533, -0.6109906, -0.35351333],
        ),
        (
            [3.999527, -1.5359728, -2.6268768],
            [-0.8518545, -0.00068521994, -0.20228428, -0.48314014],
        ),
        (
            [4.13826, -1.6841533, -3.0069728],
            [0.16061454, -0.5335727, 0.54279935, -0.62838846],
        ),
        (
            [4.4104614, -1.9509902, -3.635809],
            [0.39969215, -0.4012196, -0.8232134, -0.03985855],
        ),
        (
            [4.9464593, -2.3909273, -4.9461656],
            [0.28435352, 0.12350829, -0.50064385, -0.8082354],
        ),
        (
            [5.2400017, -2.5613937, -5.5875826],
            [0.19652627, 0.26392418, -0.57603407, 0.74826884],
        ),
        (
            [5.318075, -2.5920434, -5.753131],
            [0.7936736, -0.5119809, -0.15518194, -0.28961426],
        ),
        (
            [5.8051476, -2.7557056, -6.910246],
            [0.1999381, 0.06939885, -0.7580155, -0.6169449],
        ),
    ];
    /// (rotation limit in degrees, weight) per joint.
    const TUNING: [(f32, f32); 10] = [
        (180.0, 0.0),
        (0.0, 0.25),
        (180.0, 1.0),
        (180.0, 1.0),
        (30.0, 0.2546395),
        (180.0, 1.0),
        (90.0, 0.99065995),
        (180.0, 0.0),
        (180.0, 1.0),
        (180.0, 1.0),
    ];
    let identity = Quat::IDENTITY;
    let q = Quat::from_xyzw;
    let v = Vec3::new;
    let cone = |h1, h2, twist| Limit::Cone {
        half_angle_1: h1,
        half_angle_2: h2,
        twist,
    };
    let constraints = [
        (
            0,
            q(0.4654544, -0.3861206, 0.78454757, 0.13692422),
            v(0.82796925, -1.3262479, 0.052677028),
            Limit::Twist {
                min: -1.2291411,
                max: 0.47209,
            },
        ),
        (
            1,
            identity,
            v(-0.95245034, -0.51892465, -0.26708567),
            cone(2.6307018, 1.4172504, None),
        ),
        (
            4,
            q(-0.50482213, -0.17281531, -0.84381694, 0.057117503),
            Vec3::X,
            Limit::Twist {
                min: 0.5104625,
                max: 1.3484061,
            },
        ),
        (
            5,
            identity,
            v(0.65339947, -0.7340274, -1.1100206),
            cone(PI, 0.5849933, Some((-2.6146486, -1.2456007))),
        ),
        (
            7,
            identity,
            v(0.14149636, 0.0691079, -0.098203905),
            cone(2.1183534, 2.9980311, Some((1.6025445, PI))),
        ),
        (
            8,
            identity,
            Vec3::X,
            cone(1.0328945, 0.7069296, Some((-0.42291093, 0.1582675))),
        ),
    ];
    let chain: Vec<Transform> = INPUT
        .iter()
        .map(|&(t, r)| {
            Transform::from_rotation_translation(Quat::from_array(r), Vec3::from_array(t))
        })
        .collect();
    let settings = CcdSettings {
        precision: 0.001,
        relative_precision: true,
        max_iterations: 10,
        start_from_tail: true,
        fix_root: false,
        stop_when_stalled: true,
        end_rotation: EndRotation::CopyEffector,
    };
    let mut ccd = Ccd::new(settings, 16).unwrap();
    for (i, (rotation_limit_degrees, weight)) in TUNING.into_iter().enumerate() {
        let joint = CcdJoint {
            rotation_limit_degrees,
            weight,
        };
        ccd.set_joint(i, joint).unwrap();
    }
    let mut built = [None; 10];
    for (i, reference, axis, limit) in constraints {
        let c = JointConstraint::new(reference, axis, limit).unwrap();
        ccd.set_constraint(i, Some(c)).unwrap();
        built[i] = Some(c);
    }
    let goal = v(9.560648, 2.1008093, -3.5147219);
    let mut out = chain.clone();
    ccd.solve(&mut out, identity, &ChainTarget::at(goal))
        .unwrap();
    let (before, after) = (locals_of(&chain, identity), locals_of(&out, identity));
    for (i, c) in built.iter().enumerate() {
        // Constraints win: a joint whose input breaks its own constraint is limited from the
        // input's projection.
        let reference = c.map_or(before[i], |c| c.project(before[i]));
        let (limit, _) = TUNING[i];
        let turned = rot_between(reference, after[i]);
        assert!(
            turned <= limit.to_radians() + 1e-3,
            "joint {i} turned {}°, limit {limit}°",
            turned.to_degrees()
        );
        if let Some(c) = c {
            assert!(
                c.violation(after[i]) <= 1e-3,
                "joint {i} breaks its constraint"
            );
        }
    }
}
