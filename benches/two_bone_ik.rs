//! Two-bone IK cost: the Rust API against the C ABI on the same inputs, reachable and
//! unreachable targets, with and without stretch and soften, single solves and batches of 256
//! chains (reported per solve). Figures are read as ratios against the `rust/reachable`
//! baseline measured in the same run.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use sinew::ffi::{self, SinewIkResult, SinewTransform, SinewTwoBoneIk, SinewVec3};
use sinew::{Quat, Transform, TwoBoneIk, TwoBoneIkSettings, TwoBoneTarget, Vec3};

fn arm() -> [Transform; 3] {
    [
        Transform::from_translation(Vec3::ZERO),
        Transform::from_rotation_translation(Quat::from_rotation_z(0.3), Vec3::new(0.3, 0.05, 0.0)),
        Transform::from_translation(Vec3::new(0.55, -0.1, 0.0)),
    ]
}

fn targets() -> [(&'static str, Vec3); 2] {
    [
        ("reachable", Vec3::new(0.3, 0.25, 0.1)),
        ("unreachable", Vec3::new(2.0, 1.0, 0.5)),
    ]
}

fn bench(c: &mut Criterion) {
    let pole = Vec3::new(0.2, 0.0, -1.0);
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
        let mut handle: *mut SinewTwoBoneIk = std::ptr::null_mut();
        let ffi_settings = settings.into();
        // SAFETY: valid pointers to locals.
        unsafe { ffi::sinew_two_bone_ik_create(&ffi_settings, &mut handle) };
        for (name, goal) in targets() {
            let target = TwoBoneTarget::at(goal).with_pole(pole);
            let base = arm();
            let base_c: [SinewTransform; 3] = base.map(Into::into);
            group.bench_function(format!("rust/{config}/{name}"), |b| {
                b.iter(|| {
                    let mut chain = base;
                    black_box(
                        solver
                            .solve(black_box(&mut chain), black_box(&target))
                            .unwrap(),
                    );
                    chain
                })
            });
            let goal_c = SinewVec3::from(goal);
            let pole_c = SinewVec3::from(pole);
            group.bench_function(format!("c_abi/{config}/{name}"), |b| {
                b.iter(|| {
                    let mut chain = base_c;
                    let mut result = SinewIkResult::default();
                    // SAFETY: all pointers reference live locals; the handle is valid.
                    unsafe {
                        ffi::sinew_two_bone_ik_solve(
                            handle,
                            black_box(chain.as_mut_ptr()),
                            black_box(&goal_c),
                            std::ptr::null(),
                            black_box(&pole_c),
                            &mut result,
                        )
                    };
                    (chain, result)
                })
            });
        }
        // SAFETY: created above.
        unsafe { ffi::sinew_two_bone_ik_destroy(handle) };
    }
    group.finish();
    batch(c, pole);
}

/// Chains in a batch: enough for the SIMD groups to dominate, few enough to stay in L1/L2.
const BATCH: usize = 256;

/// Batches of `BATCH` chains, alternating reachable and unreachable targets; Criterion's
/// throughput makes the reported time per solve.
fn batch(c: &mut Criterion, pole: Vec3) {
    let mut group = c.benchmark_group("two_bone_ik_batch");
    group.throughput(Throughput::Elements(BATCH as u64));
    let solver = TwoBoneIk::new(TwoBoneIkSettings::default()).unwrap();
    let goals: Vec<Vec3> = (0..BATCH).map(|i| targets()[i % 2].1).collect();
    let targets: Vec<TwoBoneTarget> = goals
        .iter()
        .map(|&g| TwoBoneTarget::at(g).with_pole(pole))
        .collect();
    let input = vec![arm(); BATCH];
    let mut chains = input.clone();
    let mut results = vec![sinew::IkResult::default(); BATCH];
    group.bench_function("rust", |b| {
        b.iter(|| {
            chains.copy_from_slice(&input);
            solver
                .solve_batch(black_box(&mut chains), black_box(&targets), &mut results)
                .unwrap();
        })
    });
    let input_c: Vec<SinewTransform> = input.iter().flatten().map(|&t| t.into()).collect();
    let mut chains_c = input_c.clone();
    let goals_c: Vec<SinewVec3> = goals.iter().map(|&g| g.into()).collect();
    let poles_c = vec![SinewVec3::from(pole); BATCH];
    let mut results_c = vec![SinewIkResult::default(); BATCH];
    let mut handle: *mut SinewTwoBoneIk = std::ptr::null_mut();
    // SAFETY: valid pointers to locals.
    unsafe { ffi::sinew_two_bone_ik_create(&TwoBoneIkSettings::default().into(), &mut handle) };
    group.bench_function("c_abi", |b| {
        b.iter(|| {
            chains_c.copy_from_slice(&input_c);
            // SAFETY: every array holds BATCH items (chains 3 * BATCH).
            unsafe {
                ffi::sinew_two_bone_ik_solve_batch(
                    handle,
                    black_box(chains_c.as_mut_ptr()),
                    BATCH as u32,
                    goals_c.as_ptr(),
                    std::ptr::null(),
                    poles_c.as_ptr(),
                    results_c.as_mut_ptr(),
                )
            }
        })
    });
    // The same chains one call at a time, as the baseline for the batch.
    group.bench_function("c_abi_single_calls", |b| {
        b.iter(|| {
            chains_c.copy_from_slice(&input_c);
            for (i, chain) in chains_c.chunks_exact_mut(3).enumerate() {
                // SAFETY: three transforms per chain; other pointers reference live locals.
                unsafe {
                    ffi::sinew_two_bone_ik_solve(
                        handle,
                        black_box(chain.as_mut_ptr()),
                        &goals_c[i],
                        std::ptr::null(),
                        &poles_c[i],
                        &mut results_c[i],
                    )
                };
            }
        })
    });
    // SAFETY: created above.
    unsafe { ffi::sinew_two_bone_ik_destroy(handle) };
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
