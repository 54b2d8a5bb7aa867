//! Two-bone IK cost: single solves through the Rust API and the C ABI (reachable and
//! unreachable targets, with and without stretch and soften, with a pole and, through Rust,
//! without), the C ABI's overhead on the same packed data, and batches of 256 chains (reported
//! per solve; arrays of transforms and SoA blocks of four) against 256 single calls.
//!
//! Inputs are prepared outside the timed region (`iter_batched_ref`), as in an engine where
//! the chain comes from a pose computed earlier; resetting it inside the loop would time the
//! copy and its store-forwarding stalls instead. Read figures as ratios within one run.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use sinew::ffi::{
    self, SinewIkResult, SinewSoaQuat, SinewSoaTransform, SinewSoaVec3, SinewTransform,
    SinewTwoBoneIk, SinewVec3,
};
use sinew::{IkResult, Quat, Transform, TwoBoneIk, TwoBoneIkSettings, TwoBoneTarget, Vec3};

/// The arm of ozz-animation's two-bone sample setup (also used by the ozz baseline).
fn arm() -> [Transform; 3] {
    [
        Transform::from_translation(Vec3::ZERO),
        Transform::from_rotation_translation(Quat::from_rotation_z(0.3), Vec3::new(0.3, 0.05, 0.0)),
        Transform::from_translation(Vec3::new(0.55, -0.1, 0.0)),
    ]
}

const POLE: Vec3 = Vec3::new(0.2, 0.0, -1.0);

fn targets() -> [(&'static str, Vec3); 2] {
    [
        ("reachable", Vec3::new(0.3, 0.25, 0.1)),
        ("unreachable", Vec3::new(2.0, 1.0, 0.5)),
    ]
}

/// A C ABI solver handle, destroyed on drop.
struct Handle(*mut SinewTwoBoneIk);

impl Handle {
    fn new(settings: TwoBoneIkSettings) -> Self {
        let mut handle = std::ptr::null_mut();
        // SAFETY: valid pointers to locals.
        unsafe { ffi::sinew_two_bone_ik_create(&settings.into(), &mut handle) };
        Self(handle)
    }

    /// One C ABI solve of a packed chain.
    fn solve(&self, chain: &mut [SinewTransform; 3], goal: &SinewVec3, pole: &SinewVec3) {
        let mut result = SinewIkResult::default();
        // SAFETY: the chain holds three transforms; the other pointers reference live values.
        unsafe {
            ffi::sinew_two_bone_ik_solve(
                self.0,
                black_box(chain.as_mut_ptr()),
                black_box(goal),
                std::ptr::null(),
                black_box(pole),
                &mut result,
            )
        };
        black_box(result);
    }
}

impl Drop for Handle {
    fn drop(&mut self) {
        // SAFETY: created in `new`.
        unsafe { ffi::sinew_two_bone_ik_destroy(self.0) };
    }
}

fn single(c: &mut Criterion) {
    let configs = [
        ("plain", TwoBoneIkSettings::default()),
        (
            "stretch+soften",
            TwoBoneIkSettings {
                allow_stretching: true,
                soften: 0.9,
                ..TwoBoneIkSettings::default()
            },
        ),
    ];
    let mut group = c.benchmark_group("two_bone_ik");
    for (config, settings) in configs {
        let solver = TwoBoneIk::new(settings).unwrap();
        let handle = Handle::new(settings);
        for (name, goal) in targets() {
            let target = TwoBoneTarget::at(goal).with_pole(POLE);
            let base = arm();
            group.bench_function(format!("rust/{config}/{name}"), |b| {
                b.iter_batched_ref(
                    || base,
                    |chain| black_box(solver.solve(black_box(chain), &target).unwrap()),
                    BatchSize::SmallInput,
                )
            });
            // Without a pole the bend comes from the input chain (a different rule).
            let free = TwoBoneTarget::at(goal);
            group.bench_function(format!("rust/{config}/{name}/no_pole"), |b| {
                b.iter_batched_ref(
                    || base,
                    |chain| black_box(solver.solve(black_box(chain), &free).unwrap()),
                    BatchSize::SmallInput,
                )
            });
            let base_c: [SinewTransform; 3] = base.map(Into::into);
            let (goal_c, pole_c) = (SinewVec3::from(goal), SinewVec3::from(POLE));
            group.bench_function(format!("c_abi/{config}/{name}"), |b| {
                b.iter_batched_ref(
                    || base_c,
                    |chain| handle.solve(chain, &goal_c, &pole_c),
                    BatchSize::SmallInput,
                )
            });
        }
    }
    group.finish();
}

/// The same solve on the same packed (C layout) data, called through Rust and through the
/// C ABI: the difference is the cost of the boundary (checks, panic guard, error slot).
fn ffi_overhead(c: &mut Criterion) {
    let mut group = c.benchmark_group("ffi_overhead");
    let settings = TwoBoneIkSettings::default();
    let solver = TwoBoneIk::new(settings).unwrap();
    let handle = Handle::new(settings);
    let goal = targets()[0].1;
    let target = TwoBoneTarget::at(goal).with_pole(POLE);
    let base_c: [SinewTransform; 3] = arm().map(Into::into);
    let (goal_c, pole_c) = (SinewVec3::from(goal), SinewVec3::from(POLE));
    group.bench_function("rust", |b| {
        b.iter_batched_ref(
            || base_c,
            |chain| black_box(solver.solve(black_box(chain), &target).unwrap()),
            BatchSize::SmallInput,
        )
    });
    group.bench_function("c_abi", |b| {
        b.iter_batched_ref(
            || base_c,
            |chain| handle.solve(chain, &goal_c, &pole_c),
            BatchSize::SmallInput,
        )
    });
    group.finish();
}

/// Chains in a batch: enough for the SIMD groups to dominate, few enough to stay in L1/L2.
const BATCH: usize = 256;

/// Batches of `BATCH` chains, alternating reachable and unreachable targets; the throughput
/// setting makes Criterion report time per solve.
fn batch(c: &mut Criterion) {
    let mut group = c.benchmark_group("two_bone_ik_batch");
    group.throughput(Throughput::Elements(BATCH as u64));
    let settings = TwoBoneIkSettings::default();
    let solver = TwoBoneIk::new(settings).unwrap();
    let handle = Handle::new(settings);
    let goals: Vec<Vec3> = (0..BATCH).map(|i| targets()[i % 2].1).collect();
    let targets: Vec<TwoBoneTarget> = goals
        .iter()
        .map(|&g| TwoBoneTarget::at(g).with_pole(POLE))
        .collect();
    let input = vec![arm(); BATCH];
    let mut results = vec![IkResult::default(); BATCH];
    group.bench_function("rust", |b| {
        b.iter_batched_ref(
            || input.clone(),
            |chains| {
                solver
                    .solve_batch(black_box(chains), &targets, &mut results)
                    .unwrap()
            },
            BatchSize::SmallInput,
        )
    });
    let free: Vec<TwoBoneTarget> = goals.iter().map(|&g| TwoBoneTarget::at(g)).collect();
    group.bench_function("rust_no_pole", |b| {
        b.iter_batched_ref(
            || input.clone(),
            |chains| {
                solver
                    .solve_batch(black_box(chains), &free, &mut results)
                    .unwrap()
            },
            BatchSize::SmallInput,
        )
    });
    let input_c: Vec<SinewTransform> = input.iter().flatten().map(|&t| t.into()).collect();
    let goals_c: Vec<SinewVec3> = goals.iter().map(|&g| g.into()).collect();
    let poles_c = vec![SinewVec3::from(POLE); BATCH];
    let mut results_c = vec![SinewIkResult::default(); BATCH];
    group.bench_function("c_abi", |b| {
        b.iter_batched_ref(
            || input_c.clone(),
            |chains| {
                // SAFETY: every array holds BATCH items (chains 3 * BATCH).
                unsafe {
                    ffi::sinew_two_bone_ik_solve_batch(
                        handle.0,
                        black_box(chains.as_mut_ptr()),
                        BATCH as u32,
                        goals_c.as_ptr(),
                        std::ptr::null(),
                        poles_c.as_ptr(),
                        results_c.as_mut_ptr(),
                    )
                }
            },
            BatchSize::SmallInput,
        )
    });
    // The same chains and targets in SoA blocks of four (ozz's SoaTransform layout).
    let lane = |b: &mut [[f32; 4]; 3], l: usize, v: Vec3| [b[0][l], b[1][l], b[2][l]] = v.into();
    let vec3s = |items: &[Vec3]| -> Vec<SinewSoaVec3> {
        let mut blocks = vec![[[0.0f32; 4]; 3]; items.len().div_ceil(4)];
        for (i, &v) in items.iter().enumerate() {
            lane(&mut blocks[i / 4], i % 4, v);
        }
        let block = |[x, y, z]: [[f32; 4]; 3]| SinewSoaVec3 { x, y, z };
        blocks.into_iter().map(block).collect()
    };
    let input_soa: Vec<SinewSoaTransform> = (0..3 * BATCH.div_ceil(4))
        .map(|b| {
            let (group, k) = (b / 3, b % 3);
            let chain = |l: usize| input[4 * group + l][k];
            let v3 = |f: fn(&Transform) -> Vec3| vec3s(&[0, 1, 2, 3].map(|l| f(&chain(l))))[0];
            let q = |c: usize| [0, 1, 2, 3].map(|l| chain(l).rotation.to_array()[c]);
            SinewSoaTransform {
                translation: v3(|t| t.translation),
                rotation: SinewSoaQuat {
                    x: q(0),
                    y: q(1),
                    z: q(2),
                    w: q(3),
                },
                scale: v3(|t| t.scale),
            }
        })
        .collect();
    let (goals_soa, poles_soa) = (vec3s(&goals), vec3s(&vec![POLE; BATCH]));
    group.bench_function("c_abi_soa", |b| {
        b.iter_batched_ref(
            || input_soa.clone(),
            |chains| {
                // SAFETY: every block array holds BATCH / 4 blocks (chains three per group).
                unsafe {
                    ffi::sinew_two_bone_ik_solve_batch_soa(
                        handle.0,
                        black_box(chains.as_mut_ptr()),
                        BATCH as u32,
                        goals_soa.as_ptr(),
                        std::ptr::null(),
                        poles_soa.as_ptr(),
                        results_c.as_mut_ptr(),
                    )
                }
            },
            BatchSize::SmallInput,
        )
    });
    // The same chains one C call each: the baseline the batch entry point is measured against.
    group.bench_function("c_abi_single_calls", |b| {
        b.iter_batched_ref(
            || input_c.clone(),
            |chains| {
                for (i, chain) in chains.chunks_exact_mut(3).enumerate() {
                    let chain: &mut [SinewTransform; 3] = chain.try_into().unwrap();
                    handle.solve(chain, &goals_c[i], &poles_c[i]);
                }
            },
            BatchSize::SmallInput,
        )
    });
    group.finish();
}

criterion_group!(benches, single, ffi_overhead, batch);
criterion_main!(benches);
