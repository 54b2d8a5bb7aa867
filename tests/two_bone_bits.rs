//! Single two-bone solves keep their exact bits: a fixed set of chains (ordinary ones, which the
//! branch-free kernel places, and degenerate ones, which go through the general path) is solved
//! under several settings through the Rust API and the C ABI, and every output bit (chain,
//! result, or the error's kind) is folded into a hash recorded from an earlier build. Batches
//! are compared with single solves elsewhere (tests/batch.rs); this test catches a change of
//! arithmetic that moves both together, as a reordered sum or a fused multiply-add would.

mod common;

use common::chains::bits;
use common::hash::Hash;
use common::rng::Rng;
use sinew::ffi::*;
use sinew::Transform;
use sinew::{EndRotation, TwoBoneIk, TwoBoneIkSettings, TwoBoneTarget};

const SALT: u64 = 0xB175_2B0E;

/// A chain and target: mostly ordinary arms with or without a pole, and one in eight
/// degenerate (target at the root, a zero-length bone, a straight input, a pole on the aim
/// line, out of reach, a non-unit rotation to normalize on the way in).
fn arm(rng: &mut Rng) -> ([Transform; 3], TwoBoneTarget) {
    let root = rng.vec3(3.0);
    let mid = root + rng.dir() * rng.range(0.2, 1.5);
    let mut end = mid + rng.dir() * rng.range(0.2, 1.5);
    let mut goal = root + rng.dir() * rng.range(0.05, 2.5);
    let kind = rng.index(16);
    match kind {
        0 => goal = root,
        1 => end = mid,
        2 => end = mid + (mid - root) * 0.7,
        3 => goal = root + (goal - root) * 4.0,
        _ => {}
    }
    let mut chain =
        [root, mid, end].map(|p| Transform::from_rotation_translation(rng.rotation(3.0), p));
    if kind == 5 {
        chain[2].rotation *= 1.25;
    }
    let pole = match kind {
        6 => Some(goal + (goal - root)),
        7..=10 => None,
        _ => Some(root + rng.vec3(2.0)),
    };
    let target = TwoBoneTarget {
        position: goal,
        rotation: (kind % 3 != 0).then(|| rng.rotation(3.0)),
        pole,
    };
    (chain, target)
}

fn settings() -> Vec<TwoBoneIkSettings> {
    let d = TwoBoneIkSettings::default();
    vec![
        d,
        TwoBoneIkSettings {
            end_rotation: EndRotation::CopyEffector,
            ..d
        },
        TwoBoneIkSettings {
            end_rotation: EndRotation::KeepLocal,
            allow_stretching: true,
            max_stretch_scale: 1.5,
            ..d
        },
        TwoBoneIkSettings {
            soften: 0.9,
            keep_twist: true,
            ..d
        },
        TwoBoneIkSettings {
            weight: 0.6,
            pole_weight: 0.5,
            end_rotation: EndRotation::KeepLocal,
            ..d
        },
        TwoBoneIkSettings { weight: 0.0, ..d },
    ]
}

/// Hash of every solve's output for `settings`, through the Rust API and the C ABI (which must
/// agree bit for bit).
fn solve_all(settings: TwoBoneIkSettings, n: usize) -> u64 {
    let mut rng = Rng::salted(1, SALT);
    let solver = TwoBoneIk::new(settings).unwrap();
    let mut handle = std::ptr::null_mut();
    // SAFETY: pointers to locals.
    let status = unsafe { sinew_two_bone_ik_create(&settings.into(), &mut handle) };
    assert_eq!(status, SinewStatus::Ok);
    let mut hash = Hash::new();
    for i in 0..n {
        let (input, target) = arm(&mut rng);
        let mut chain = input;
        let outcome = solver.solve(&mut chain, &target);

        let mut c_chain = input.map(SinewTransform::from);
        let position = SinewVec3::from(target.position);
        let rotation = target.rotation.map(SinewQuat::from);
        let pole = target.pole.map(SinewVec3::from);
        let mut c_result = SinewIkResult::default();
        // SAFETY: the chain holds three transforms; the rest are locals or NULL.
        let status = unsafe {
            sinew_two_bone_ik_solve(
                handle,
                c_chain.as_mut_ptr(),
                &position,
                rotation.as_ref().map_or(std::ptr::null(), |q| q),
                pole.as_ref().map_or(std::ptr::null(), |p| p),
                &mut c_result,
            )
        };
        let c_out = c_chain.map(Transform::from);
        match outcome {
            Ok(result) => {
                assert_eq!(status, SinewStatus::Ok, "chain {i}");
                assert_eq!(bits(&c_out), bits(&chain), "chain {i}");
                assert_eq!(
                    c_result.error.to_bits(),
                    result.error.to_bits(),
                    "chain {i}"
                );
                assert_eq!(c_result.reached != 0, result.reached, "chain {i}");
                bits(&chain).into_iter().for_each(|w| hash.word(w));
                hash.word(result.error.to_bits());
                hash.word(u32::from(result.reached));
            }
            Err(e) => {
                assert_ne!(status, SinewStatus::Ok, "chain {i}");
                assert_eq!(bits(&c_out), bits(&input), "chain {i}");
                hash.word(0xE000 + e.kind() as u32);
            }
        }
    }
    // SAFETY: created above.
    unsafe { sinew_two_bone_ik_destroy(handle) };
    hash.0
}

#[test]
fn single_solves_keep_their_bits() {
    // Recorded from the build before the packed one-chain kernel (identical on x86-64 and
    // aarch64: every operation is IEEE-exact or from the pure-Rust libm).
    let expected: [u64; 6] = [
        0xe6c023aa819cd9e4,
        0x30084ecc5537dcd2,
        0x5a10f5ccfb27f5b1,
        0x971d97bd381e3277,
        0x587a71fc9e883c65,
        0x007307c1346826d5,
    ];
    let got: Vec<u64> = settings().into_iter().map(|s| solve_all(s, 4000)).collect();
    assert_eq!(got, expected, "hashes per settings: {got:#018x?}");
}
