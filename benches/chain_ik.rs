//! FABRIK and CCD cost on 4-, 10- and 32-joint chains, reachable (two thirds and 95 % of the
//! chain length) and unreachable targets, with and without cone constraints, at precision 1e-3
//! of the chain length and the default 10 iterations. Each configuration's result (iterations,
//! reached, error) is printed once before it is timed, so times can be read per iteration.
//! Batches of 64 ten-joint chains (per solve) compare the batch entry points with single calls.
//! Read figures as ratios within one run.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use sinew::ffi::{self, SinewIkResult, SinewTransform, SinewVec3};
use sinew::{
    Ccd, CcdSettings, ChainTarget, Fabrik, FabrikSettings, IkResult, JointConstraint, Limit, Quat,
    Transform, Vec3,
};

/// Reach tolerance as a fraction of the chain length (the FABRIK paper's setting).
const PRECISION: f32 = 1e-3;

/// A chain of unit bones along X with a slight curl.
fn chain(n: usize) -> Vec<Transform> {
    let curl = Quat::from_rotation_z(0.15);
    let mut rotation = Quat::IDENTITY;
    let mut position = Vec3::ZERO;
    (0..n)
        .map(|_| {
            let t = Transform::from_rotation_translation(rotation, position);
            rotation = (curl * rotation).normalize();
            position += rotation * Vec3::X;
            t
        })
        .collect()
}

fn cone() -> JointConstraint {
    let limit = Limit::Cone {
        half_angle_1: 0.5,
        half_angle_2: 0.5,
        twist: None,
    };
    JointConstraint::new(Quat::from_rotation_z(0.15), Vec3::X, limit).unwrap()
}

/// Prints what one solve of a configuration returns, outside the timed loop.
fn report(id: &str, r: IkResult) {
    eprintln!(
        "chain_ik/{id}: {} iterations, reached {}, error {:.3e}",
        r.iterations, r.reached, r.error
    );
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("chain_ik");
    let fabrik_settings = FabrikSettings {
        precision: PRECISION,
        relative_precision: true,
        ..FabrikSettings::default()
    };
    let ccd_settings = CcdSettings {
        precision: PRECISION,
        relative_precision: true,
        ..CcdSettings::default()
    };
    for n in [4usize, 10, 32] {
        let input = chain(n);
        let length = (n - 1) as f32;
        let reachable = Vec3::new(0.4, 0.5, 0.2) * length;
        let targets = [
            ("reachable", ChainTarget::at(reachable)),
            // 95 % of the chain length: unconstrained solvers start from the near-reach seed.
            (
                "near",
                ChainTarget::at(reachable.normalize() * 0.95 * length),
            ),
            (
                "unreachable",
                ChainTarget::at(Vec3::new(1.5, 0.2, 0.0) * length),
            ),
        ];
        for constrained in [false, true] {
            let mut fabrik = Fabrik::new(fabrik_settings, n).unwrap();
            let mut ccd = Ccd::new(ccd_settings, n).unwrap();
            if constrained {
                for i in 1..n {
                    fabrik.set_constraint(i, Some(cone())).unwrap();
                    ccd.set_constraint(i, Some(cone())).unwrap();
                }
            }
            let tag = if constrained { "cones" } else { "free" };
            for (name, target) in &targets {
                let mut work = input.clone();
                let id = format!("fabrik/{n}/{tag}/{name}");
                report(
                    &id,
                    fabrik.solve(&mut work, Quat::IDENTITY, target).unwrap(),
                );
                group.bench_function(id, |b| {
                    b.iter(|| {
                        work.copy_from_slice(&input);
                        black_box(
                            fabrik
                                .solve(black_box(&mut work), Quat::IDENTITY, target)
                                .unwrap(),
                        )
                    })
                });
                work.copy_from_slice(&input);
                let id = format!("ccd/{n}/{tag}/{name}");
                report(&id, ccd.solve(&mut work, Quat::IDENTITY, target).unwrap());
                group.bench_function(id, |b| {
                    b.iter(|| {
                        work.copy_from_slice(&input);
                        black_box(
                            ccd.solve(black_box(&mut work), Quat::IDENTITY, target)
                                .unwrap(),
                        )
                    })
                });
            }
        }
    }
    group.finish();
}

/// Chains in a batch, and joints per chain.
const BATCH: usize = 64;
const JOINTS: usize = 10;

/// FABRIK and CCD over `BATCH` chains with reachable targets spread around the chain: the
/// Rust batch, the C batch entry point, and the same chains one C call each.
fn batch(c: &mut Criterion) {
    let mut group = c.benchmark_group("chain_ik_batch");
    group.throughput(Throughput::Elements(BATCH as u64));
    let one = chain(JOINTS);
    let length = (JOINTS - 1) as f32;
    let input: Vec<Transform> = (0..BATCH).flat_map(|_| one.iter().copied()).collect();
    let targets: Vec<ChainTarget> = (0..BATCH)
        .map(|i| {
            let turn = Quat::from_rotation_y(i as f32 * 0.1);
            ChainTarget::at(turn * Vec3::new(0.4, 0.5, 0.2) * length)
        })
        .collect();
    let input_c: Vec<SinewTransform> = input.iter().map(|&t| t.into()).collect();
    let goals_c: Vec<SinewVec3> = targets.iter().map(|t| t.position.into()).collect();
    let mut results = vec![IkResult::default(); BATCH];
    let mut results_c = vec![SinewIkResult::default(); BATCH];

    let mut fabrik = Fabrik::new(FabrikSettings::default(), JOINTS).unwrap();
    let mut ccd = Ccd::new(CcdSettings::default(), JOINTS).unwrap();
    group.bench_function("fabrik/rust", |b| {
        b.iter_batched_ref(
            || input.clone(),
            |chains| fabrik.solve_batch(black_box(chains), JOINTS, None, &targets, &mut results),
            BatchSize::SmallInput,
        )
    });
    group.bench_function("ccd/rust", |b| {
        b.iter_batched_ref(
            || input.clone(),
            |chains| ccd.solve_batch(black_box(chains), JOINTS, None, &targets, &mut results),
            BatchSize::SmallInput,
        )
    });

    let (mut fabrik_c, mut ccd_c) = (std::ptr::null_mut(), std::ptr::null_mut());
    // SAFETY: pointers to locals; the defaults are plain values.
    unsafe {
        let mut fs = std::mem::zeroed();
        ffi::sinew_fabrik_settings_default(&mut fs);
        ffi::sinew_fabrik_create(&fs, JOINTS as u32, &mut fabrik_c);
        let mut cs = std::mem::zeroed();
        ffi::sinew_ccd_settings_default(&mut cs);
        ffi::sinew_ccd_create(&cs, JOINTS as u32, &mut ccd_c);
    }
    for solver in ["fabrik", "ccd"] {
        let solve_batch = |chains: *mut SinewTransform,
                           count: usize,
                           goals: *const SinewVec3,
                           results: *mut SinewIkResult| {
            // SAFETY: `chains` holds `count * JOINTS` transforms, the others `count` items.
            unsafe {
                if solver == "fabrik" {
                    ffi::sinew_fabrik_solve_batch(
                        fabrik_c,
                        chains,
                        JOINTS as u32,
                        count as u32,
                        std::ptr::null(),
                        goals,
                        std::ptr::null(),
                        results,
                    )
                } else {
                    ffi::sinew_ccd_solve_batch(
                        ccd_c,
                        chains,
                        JOINTS as u32,
                        count as u32,
                        std::ptr::null(),
                        goals,
                        std::ptr::null(),
                        results,
                    )
                }
            }
        };
        group.bench_function(format!("{solver}/c_abi"), |b| {
            b.iter_batched_ref(
                || input_c.clone(),
                |chains| {
                    solve_batch(
                        black_box(chains.as_mut_ptr()),
                        BATCH,
                        goals_c.as_ptr(),
                        results_c.as_mut_ptr(),
                    )
                },
                BatchSize::SmallInput,
            )
        });
        group.bench_function(format!("{solver}/c_abi_single_calls"), |b| {
            b.iter_batched_ref(
                || input_c.clone(),
                |chains| {
                    for (i, chain) in chains.chunks_exact_mut(JOINTS).enumerate() {
                        let (chain, goal) = (black_box(chain.as_mut_ptr()), &goals_c[i]);
                        let (n, parent, rotation) =
                            (JOINTS as u32, std::ptr::null(), std::ptr::null());
                        let result = &mut results_c[i];
                        // SAFETY: `chain` holds JOINTS transforms; the others are live values.
                        unsafe {
                            if solver == "fabrik" {
                                ffi::sinew_fabrik_solve(
                                    fabrik_c, chain, n, parent, goal, rotation, result,
                                )
                            } else {
                                ffi::sinew_ccd_solve(
                                    ccd_c, chain, n, parent, goal, rotation, result,
                                )
                            }
                        };
                    }
                },
                BatchSize::SmallInput,
            )
        });
    }
    // SAFETY: created above.
    unsafe {
        ffi::sinew_fabrik_destroy(fabrik_c);
        ffi::sinew_ccd_destroy(ccd_c);
    }
    group.finish();
}

criterion_group!(benches, bench, batch);
criterion_main!(benches);
