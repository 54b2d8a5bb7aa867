//! Batch solves: each chain of a batch gets what a single solve gives it, bit for bit (two-bone,
//! FABRIK and CCD alike), through the Rust API and the C ABI alike; bad input leaves
//! every chain untouched; an overflowing chain is skipped while the others are solved; and
//! distinct handles solve batches on different threads at once.

mod common;

use common::chains::bits;
use common::ffi::{default_chain_solvers, soa_blocks, soa_chains};
use common::rng::Rng;
use sinew::ffi::*;
use sinew::{
    Ccd, CcdSettings, ChainTarget, ErrorKind, Fabrik, FabrikSettings, IkResult, Quat, Transform,
    TwoBoneIk, TwoBoneIkSettings, TwoBoneTarget, Vec3,
};

const SALT: u64 = 0x0BA7_C4E5;

/// A random arm and target: mostly ordinary, sometimes degenerate (target at the root, a
/// zero-length bone, pole on the aim line, far out of reach), so batches mix the SIMD lanes
/// with the general path.
fn arm(rng: &mut Rng) -> ([Transform; 3], TwoBoneTarget) {
    let root = rng.vec3(3.0);
    let mid = root + rng.dir() * rng.range(0.2, 1.5);
    let mut end = mid + rng.dir() * rng.range(0.2, 1.5);
    let mut goal = root + rng.dir() * rng.range(0.0, 3.5);
    let kind = rng.index(10);
    if kind == 0 {
        goal = root;
    }
    if kind == 1 {
        end = mid;
    }
    let mut chain =
        [root, mid, end].map(|p| Transform::from_rotation_translation(rng.rotation(3.0), p));
    if kind == 5 {
        // Not unit: checked and normalized on the way in, like a single solve does.
        chain[1].rotation *= 1.5;
    }
    let pole = match kind {
        2 => Some(goal + (goal - root)),
        3 | 4 => None,
        _ => Some(root + rng.vec3(2.0)),
    };
    let target = TwoBoneTarget {
        position: goal,
        rotation: (kind != 6).then(|| rng.rotation(3.0)),
        pole,
    };
    (chain, target)
}

fn two_bone_settings() -> [TwoBoneIkSettings; 4] {
    [
        TwoBoneIkSettings {
            end_rotation: sinew::EndRotation::CopyEffector,
            ..TwoBoneIkSettings::default()
        },
        TwoBoneIkSettings::default(),
        TwoBoneIkSettings {
            allow_stretching: true,
            soften: 0.9,
            end_rotation: sinew::EndRotation::KeepLocal,
            ..TwoBoneIkSettings::default()
        },
        TwoBoneIkSettings {
            weight: 0.6,
            keep_twist: true,
            pole_weight: 0.5,
            ..TwoBoneIkSettings::default()
        },
    ]
}

#[test]
fn two_bone_batches_equal_single_solves_through_rust_and_c() {
    let mut rng = Rng::salted(7, SALT);
    for settings in two_bone_settings() {
        let solver = TwoBoneIk::new(settings).unwrap();
        let mut handle = std::ptr::null_mut();
        // SAFETY: pointers to locals.
        assert_eq!(
            unsafe { sinew_two_bone_ik_create(&settings.into(), &mut handle) },
            SinewStatus::Ok
        );
        for count in [0usize, 1, 4, 5, 9, 64] {
            let (input, targets): (Vec<_>, Vec<_>) = (0..count).map(|_| arm(&mut rng)).unzip();
            let mut chains = input.clone();
            let mut results = vec![IkResult::default(); count];
            solver
                .solve_batch(&mut chains, &targets, &mut results)
                .unwrap();

            let mut c_chains: Vec<SinewTransform> =
                input.iter().flatten().map(|&t| t.into()).collect();
            let positions: Vec<SinewVec3> = targets.iter().map(|t| t.position.into()).collect();
            // Every chain has an effector rotation in C: the identity where Rust has none.
            let rotation = |t: &TwoBoneTarget| t.rotation.unwrap_or(glam::Quat::IDENTITY);
            let rotations: Vec<SinewQuat> = targets.iter().map(|t| rotation(t).into()).collect();
            // Poles are all-or-none in C: NULL for the whole batch when any is missing.
            let poles: Option<Vec<SinewVec3>> =
                targets.iter().map(|t| t.pole.map(Into::into)).collect();
            let mut c_results = vec![SinewIkResult::default(); count];
            // SAFETY: every array holds `count` items (chains 3 * count).
            let status = unsafe {
                sinew_two_bone_ik_solve_batch(
                    handle,
                    c_chains.as_mut_ptr(),
                    count as u32,
                    positions.as_ptr(),
                    rotations.as_ptr(),
                    poles.as_ref().map_or(std::ptr::null(), |p| p.as_ptr()),
                    c_results.as_mut_ptr(),
                )
            };
            assert_eq!(status, SinewStatus::Ok);

            for i in 0..count {
                let mut single = input[i];
                let expected = solver.solve(&mut single, &targets[i]).unwrap();
                assert_eq!(bits(&chains[i]), bits(&single), "chain {i} of {count}");
                assert_eq!(results[i].reached, expected.reached);
                assert_eq!(results[i].error.to_bits(), expected.error.to_bits());
                assert_eq!(results[i].iterations, expected.iterations);

                let mut c_target = targets[i];
                c_target.pole = poles.as_ref().and(c_target.pole);
                c_target.rotation = Some(rotation(&c_target));
                let mut c_single = input[i];
                solver.solve(&mut c_single, &c_target).unwrap();
                let c_chain: Vec<Transform> = c_chains[3 * i..3 * i + 3]
                    .iter()
                    .map(|&t| t.into())
                    .collect();
                assert_eq!(
                    bits(&c_chain),
                    bits(&c_single),
                    "C ABI chain {i} of {count}"
                );
                assert_eq!(c_results[i].iterations, 1);
            }
        }
        // SAFETY: created above.
        unsafe { sinew_two_bone_ik_destroy(handle) };
    }
}

#[test]
fn two_bone_batch_rejects_bad_input_before_writing_and_skips_overflow() {
    let mut rng = Rng::salted(11, SALT);
    let solver = TwoBoneIk::new(TwoBoneIkSettings::default()).unwrap();
    let (input, mut targets): (Vec<_>, Vec<_>) = (0..6).map(|_| arm(&mut rng)).unzip();
    let mut chains = input.clone();
    let mut results = vec![IkResult::default(); 6];
    targets[5].position.y = f32::NAN;
    let err = solver
        .solve_batch(&mut chains, &targets, &mut results)
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::NonFinite);
    assert!(err.message().starts_with("chain 5: "), "{}", err.message());
    assert_eq!(chains, input);
    assert!(results.iter().all(|r| *r == IkResult::default()));

    // A chain whose solution overflows f32 is left alone; the others are solved.
    targets[5].position = Vec3::ZERO;
    let huge = 3.0e38;
    chains[2] = [-huge, 0.0, huge].map(|x| Transform::from_translation(Vec3::new(x, 0.0, 0.0)));
    let before = chains.clone();
    let err = solver
        .solve_batch(&mut chains, &targets, &mut results)
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::NumericOverflow);
    assert!(err.message().starts_with("chain 2 "), "{}", err.message());
    assert_eq!(chains[2], before[2]);
    assert_eq!(results[2], IkResult::default());
    for i in [0, 1, 3, 4, 5] {
        let mut single = before[i];
        solver.solve(&mut single, &targets[i]).unwrap();
        assert_eq!(
            bits(&chains[i]),
            bits(&single),
            "chain {i}, solved around the overflow"
        );
    }

    let err = solver
        .solve_batch(&mut chains, &targets[..5], &mut results)
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidArgument);
}

/// Chains of `n` joints with random bends and targets, back to back.
fn chains(rng: &mut Rng, count: usize, n: usize) -> (Vec<Transform>, Vec<ChainTarget>) {
    let mut out = Vec::with_capacity(count * n);
    let mut targets = Vec::with_capacity(count);
    for _ in 0..count {
        let mut position = rng.vec3(2.0);
        let mut rotation = rng.rotation(3.0);
        for _ in 0..n {
            out.push(Transform::from_rotation_translation(rotation, position));
            rotation = (rng.rotation(0.5) * rotation).normalize();
            position += rotation * Vec3::X * rng.range(0.3, 1.0);
        }
        let reach = (n - 1) as f32;
        targets.push(ChainTarget {
            position: out[out.len() - n].translation + rng.dir() * rng.range(0.0, 1.2 * reach),
            rotation: Some(rng.rotation(3.0)),
        });
    }
    (out, targets)
}

#[test]
fn fabrik_and_ccd_batches_equal_single_solves_bit_for_bit() {
    let mut rng = Rng::salted(13, SALT);
    let (n, count) = (6usize, 7usize);
    let (input, targets) = chains(&mut rng, count, n);
    let parents: Vec<Quat> = (0..count).map(|_| rng.rotation(1.0)).collect();
    let mut fabrik = Fabrik::new(FabrikSettings::default(), n).unwrap();
    let mut ccd = Ccd::new(CcdSettings::default(), n).unwrap();
    let (c_fabrik, c_ccd) = default_chain_solvers(n as u32);
    for use_ccd in [false, true] {
        let mut batch = input.clone();
        let mut results = vec![IkResult::default(); count];
        let solved = if use_ccd {
            ccd.solve_batch(&mut batch, n, Some(&parents), &targets, &mut results)
        } else {
            fabrik.solve_batch(&mut batch, n, Some(&parents), &targets, &mut results)
        };
        solved.unwrap();

        let mut c_batch: Vec<SinewTransform> = input.iter().map(|&t| t.into()).collect();
        let positions: Vec<SinewVec3> = targets.iter().map(|t| t.position.into()).collect();
        let rotations: Vec<SinewQuat> =
            targets.iter().map(|t| t.rotation.unwrap().into()).collect();
        let c_parents: Vec<SinewQuat> = parents.iter().map(|&q| q.into()).collect();
        let mut c_results = vec![SinewIkResult::default(); count];
        // The batch's arrays: chains, joints per chain, count, root parents, targets, results.
        let (ch, j, c) = (c_batch.as_mut_ptr(), n as u32, count as u32);
        let (pa, po, ro) = (c_parents.as_ptr(), positions.as_ptr(), rotations.as_ptr());
        let re = c_results.as_mut_ptr();
        // SAFETY: every array holds `count` items (chains `count * n`).
        let status = unsafe {
            if use_ccd {
                sinew_ccd_solve_batch(c_ccd, ch, j, c, pa, po, ro, re)
            } else {
                sinew_fabrik_solve_batch(c_fabrik, ch, j, c, pa, po, ro, re)
            }
        };
        assert_eq!(status, SinewStatus::Ok);

        for i in 0..count {
            let mut single = input[i * n..(i + 1) * n].to_vec();
            let expected = if use_ccd {
                ccd.solve(&mut single, parents[i], &targets[i])
            } else {
                fabrik.solve(&mut single, parents[i], &targets[i])
            }
            .unwrap();
            assert_eq!(bits(&batch[i * n..(i + 1) * n]), bits(&single), "chain {i}");
            assert_eq!(results[i], expected);
            let c_chain: Vec<Transform> = c_batch[i * n..(i + 1) * n]
                .iter()
                .map(|&t| t.into())
                .collect();
            assert_eq!(bits(&c_chain), bits(&single), "C ABI chain {i}");
            assert_eq!(c_results[i].iterations, expected.iterations);
        }
    }

    // Bad input anywhere: nothing written.
    let mut bad = input.clone();
    bad[3 * n + 2].rotation = Quat::from_xyzw(0.0, 0.0, 0.0, 0.0);
    let before = bad.clone();
    let mut results = vec![IkResult::default(); count];
    let err = fabrik
        .solve_batch(&mut bad, n, None, &targets, &mut results)
        .unwrap_err();
    assert!(err.message().starts_with("chain 3: "), "{}", err.message());
    assert_eq!(bits(&bad), bits(&before));
    assert!(results.iter().all(|r| *r == IkResult::default()));
    let err = ccd
        .solve_batch(&mut bad, n + 1, None, &targets, &mut results)
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidArgument);
    // SAFETY: created by the helper.
    unsafe {
        sinew_fabrik_destroy(c_fabrik);
        sinew_ccd_destroy(c_ccd);
    }
}

#[test]
fn distinct_handles_solve_batches_on_threads_at_once() {
    let mut rng = Rng::salted(17, SALT);
    let (n, count) = (8usize, 32usize);
    let work: Vec<_> = (0..4).map(|_| chains(&mut rng, count, n)).collect();
    let arms: Vec<Vec<_>> = (0..4)
        .map(|_| (0..count).map(|_| arm(&mut rng)).collect())
        .collect();
    let solve = |k: usize| {
        let mut fabrik = Fabrik::new(FabrikSettings::default(), n).unwrap();
        let two_bone = TwoBoneIk::new(TwoBoneIkSettings::default()).unwrap();
        let (mut chain, targets) = work[k].clone();
        let mut results = vec![IkResult::default(); count];
        fabrik
            .solve_batch(&mut chain, n, None, &targets, &mut results)
            .unwrap();
        let (mut arms_k, arm_targets): (Vec<_>, Vec<_>) = arms[k].iter().copied().unzip();
        two_bone
            .solve_batch(&mut arms_k, &arm_targets, &mut results)
            .unwrap();
        (bits(&chain), bits(&arms_k.concat()))
    };
    let serial: Vec<_> = (0..4).map(solve).collect();
    let parallel: Vec<_> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..4).map(|k| s.spawn(move || solve(k))).collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert_eq!(serial, parallel);
}

#[test]
fn two_bone_batch_rechecks_targets_stored_inside_solved_chains() {
    // Chain 0 is laid out so that the five 16-byte windows at its start read as unit
    // quaternions; `effector_rotations` points there, so chains 1..4 copy rotations that the
    // solve of chain 0 rewrites. Whatever they read, the rotations written must be unit.
    let settings = TwoBoneIkSettings {
        end_rotation: sinew::EndRotation::CopyEffector,
        ..TwoBoneIkSettings::default()
    };
    let t = |p: [f32; 3], s: [f32; 3]| Transform {
        translation: Vec3::from(p),
        rotation: Quat::IDENTITY,
        scale: Vec3::from(s),
    };
    let chain0 = [
        t([1.0, 0.0, 0.0], [0.0, 1.0, 0.0]),
        t([0.0, 0.0, 1.0], [0.0, 0.0, 0.0]),
        t([0.0, 1.0, 1.0], [1.0; 3]),
    ];
    let mut rng = Rng::salted(19, SALT);
    let mut chains: Vec<SinewTransform> = chain0.iter().map(|&t| t.into()).collect();
    for _ in 1..5 {
        chains.extend(arm(&mut rng).0.iter().map(|&t| SinewTransform::from(t)));
    }
    let goals = [SinewVec3::from(Vec3::new(0.5, 0.5, 0.5)); 5];
    let mut handle = std::ptr::null_mut();
    let mut results = [SinewIkResult::default(); 5];
    // SAFETY: the rotations alias the first 80 bytes of `chains`, inside the array.
    unsafe {
        assert_eq!(
            sinew_two_bone_ik_create(&settings.into(), &mut handle),
            SinewStatus::Ok
        );
        let rotations = chains.as_ptr().cast::<SinewQuat>();
        let status = sinew_two_bone_ik_solve_batch(
            handle,
            chains.as_mut_ptr(),
            5,
            goals.as_ptr(),
            rotations,
            std::ptr::null(),
            results.as_mut_ptr(),
        );
        sinew_two_bone_ik_destroy(handle);
        assert!(
            matches!(status, SinewStatus::Ok | SinewStatus::InvalidArgument),
            "{status:?}"
        );
    }
    for t in &chains {
        let q = Quat::from(t.rotation);
        assert!((q.length() - 1.0).abs() < 1e-5, "{q:?}");
    }
}

/// Vectors in blocks of four lanes; lanes past the last hold NaN (they must be ignored and
/// left as they are).
fn soa_vec3s(v: &[SinewVec3]) -> Vec<SinewSoaVec3> {
    let nan = [f32::NAN; 4];
    let blank = SinewSoaVec3 {
        x: nan,
        y: nan,
        z: nan,
    };
    soa_blocks(v, blank, SinewSoaVec3::set_lane)
}

#[test]
fn two_bone_soa_batches_equal_aos_batches_and_leave_unused_lanes_alone() {
    let mut rng = Rng::salted(13, SALT);
    for settings in two_bone_settings() {
        let mut handle = std::ptr::null_mut();
        // SAFETY: pointers to locals.
        assert_eq!(
            unsafe { sinew_two_bone_ik_create(&settings.into(), &mut handle) },
            SinewStatus::Ok
        );
        for (count, with_poles) in [(1usize, true), (4, false), (5, true), (9, true), (64, true)] {
            let (input, targets): (Vec<_>, Vec<_>) = (0..count).map(|_| arm(&mut rng)).unzip();
            let chains: Vec<SinewTransform> = input.iter().flatten().map(|&t| t.into()).collect();
            let positions: Vec<SinewVec3> = targets.iter().map(|t| t.position.into()).collect();
            let rotation = |t: &TwoBoneTarget| t.rotation.unwrap_or(glam::Quat::IDENTITY);
            let rotations: Vec<SinewQuat> = targets.iter().map(|t| rotation(t).into()).collect();
            let pole = |t: &TwoBoneTarget| t.pole.unwrap_or(t.position + glam::Vec3::Y);
            let poles: Vec<SinewVec3> = targets.iter().map(|t| pole(t).into()).collect();
            let poles_ptr = |p: *const SinewVec3| if with_poles { p } else { std::ptr::null() };

            let mut aos = chains.clone();
            let mut aos_results = vec![SinewIkResult::default(); count];
            // SAFETY: every array holds `count` items (chains 3 * count).
            let status = unsafe {
                sinew_two_bone_ik_solve_batch(
                    handle,
                    aos.as_mut_ptr(),
                    count as u32,
                    positions.as_ptr(),
                    rotations.as_ptr(),
                    poles_ptr(poles.as_ptr()),
                    aos_results.as_mut_ptr(),
                )
            };
            assert_eq!(status, SinewStatus::Ok);

            let mut soa = soa_chains(&chains, f32::NAN);
            let soa_positions = soa_vec3s(&positions);
            let soa_poles = soa_vec3s(&poles);
            let soa_rotations =
                soa_blocks(&rotations, SinewSoaQuat::default(), SinewSoaQuat::set_lane);
            let mut soa_results = vec![SinewIkResult::default(); count];
            // SAFETY: every array holds `count.div_ceil(4)` blocks (chains three per group).
            let status = unsafe {
                sinew_two_bone_ik_solve_batch_soa(
                    handle,
                    soa.as_mut_ptr(),
                    count as u32,
                    soa_positions.as_ptr(),
                    soa_rotations.as_ptr(),
                    if with_poles {
                        soa_poles.as_ptr()
                    } else {
                        std::ptr::null()
                    },
                    soa_results.as_mut_ptr(),
                )
            };
            assert_eq!(status, SinewStatus::Ok);
            let want = soa_chains(&aos, f32::NAN);
            let bits = |b: &[SinewSoaTransform]| -> Vec<u32> {
                b.iter()
                    .flat_map(|t| {
                        let (p, q, s) = (t.translation, t.rotation, t.scale);
                        [p.x, p.y, p.z, q.x, q.y, q.z, q.w, s.x, s.y, s.z]
                    })
                    .flatten()
                    .map(f32::to_bits)
                    .collect()
            };
            assert_eq!(bits(&soa), bits(&want), "{count} chains");
            assert_eq!(soa_results, aos_results, "{count} chains");
        }
        // SAFETY: created above.
        unsafe { sinew_two_bone_ik_destroy(handle) };
    }
}

/// Every frame: each chain solved from its previous frame's output toward a target moving
/// along a circle (through the reach limit and back), in one batch and by single solves. The
/// batch (its lanes, and the general path it hands lanes to) gives the single solves' bits at
/// every frame, and at full weight, once settled, no bone turns by more than a small step per frame.
#[test]
fn two_bone_batches_track_moving_targets_like_single_solves() {
    let mut rng = Rng::salted(21, SALT);
    for settings in two_bone_settings() {
        let solver = TwoBoneIk::new(settings).unwrap();
        let count = 9;
        // Arms of unit bones, slightly bent, at random places: the targets circle each root.
        let starts: Vec<[Transform; 3]> = (0..count)
            .map(|_| {
                let root = rng.vec3(3.0);
                let bend = Quat::from_rotation_z(0.3);
                [
                    Transform::from_translation(root),
                    Transform::from_rotation_translation(bend, root + Vec3::X),
                    Transform::from_rotation_translation(bend, root + Vec3::X * 1.95),
                ]
            })
            .collect();
        let (mut batch, mut single) = (starts.clone(), starts.clone());
        let mut results = vec![IkResult::default(); count];
        for frame in 0..240 {
            let phase = frame as f32 / 240.0 * std::f32::consts::TAU;
            let targets: Vec<TwoBoneTarget> = starts
                .iter()
                .enumerate()
                .map(|(i, c)| {
                    let radius = 1.2 + 0.9 * (phase + i as f32).sin();
                    let p = c[0].translation
                        + Vec3::new(phase.cos(), phase.sin(), 0.3 * (2.0 * phase).sin()) * radius;
                    TwoBoneTarget::at(p).with_pole(c[0].translation + Vec3::Z * 3.0)
                })
                .collect();
            let before = batch.clone();
            solver
                .solve_batch(&mut batch, &targets, &mut results)
                .unwrap();
            for (i, (chain, target)) in single.iter_mut().zip(&targets).enumerate() {
                let result = solver.solve(chain, target).unwrap();
                assert_eq!(bits(chain), bits(&batch[i]), "frame {frame}, chain {i}");
                assert_eq!(result, results[i], "frame {frame}, chain {i}");
                // Once settled (the first solve jumps from the start pose), at full weight. At
                // weight 0.6 with keep_twist and pole weight 0.5 the elbow swings about 4 rad
                // over 10 frames (up to 0.64 rad a frame) while a target passes 0.3 from the
                // root, the same before the batch's lanes existed (c138674): a single-solve
                // behaviour left open, not checked here.
                for k in (0..2).filter(|_| frame >= 30 && settings.weight == 1.0) {
                    let turn = before[i][k].rotation.angle_between(batch[i][k].rotation);
                    assert!(
                        turn < 0.2,
                        "{settings:?} frame {frame}, chain {i}, bone {k} turned {turn} rad"
                    );
                }
            }
        }
    }
}
