//! Aim chains against a baseline measured in the same run: FABRIK reaching for a point with the
//! same four-joint spine (pelvis, chest, neck, head). Aim cases: one joint (a head alone), the
//! spine with the origin on the head joint, at the eyes (off the axis, so passes repeat), with an
//! up target, and beyond a 60-degree clamp; and a batch of 64 spines. Each configuration's result
//! is printed once before it is timed. Read figures as ratios to `fabrik_spine`.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use sinew::{
    AimIk, AimIkSettings, AimTarget, ChainTarget, Fabrik, FabrikSettings, IkResult, Quat,
    Transform, Vec3,
};

fn spine() -> Vec<Transform> {
    [1.0, 1.25, 1.5, 1.6]
        .iter()
        .map(|&y| Transform::from_translation(Vec3::new(0.0, y, 0.0)))
        .collect()
}

fn report(id: &str, r: IkResult) {
    eprintln!(
        "aim/{id}: {} passes, reached {}, error {:.3e}",
        r.iterations, r.reached, r.error
    );
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("aim");
    let rest = spine();
    let goal = Vec3::new(2.0, 2.2, 1.0);

    let mut fabrik = Fabrik::new(FabrikSettings::default(), 4).unwrap();
    // The baseline: the spine's tip reaching for a point 0.3 m away, within reach.
    let reach = ChainTarget::at(Vec3::new(0.25, 1.5, 0.15));
    let mut chain = rest.clone();
    report(
        "fabrik_spine",
        fabrik.solve(&mut chain, Quat::IDENTITY, &reach).unwrap(),
    );
    group.bench_function("fabrik_spine", |b| {
        b.iter_batched_ref(
            || rest.clone(),
            |c| black_box(fabrik.solve(c, Quat::IDENTITY, &reach).unwrap()),
            BatchSize::SmallInput,
        )
    });

    let eyes = AimIkSettings {
        aim_offset: Vec3::new(0.1, 0.08, 0.0),
        ..AimIkSettings::default()
    };
    let clamped = AimIkSettings {
        max_angle_degrees: 60.0,
        ..eyes
    };
    let cases: [(&str, AimIkSettings, usize, AimTarget); 5] = [
        (
            "one_joint",
            AimIkSettings::default(),
            1,
            AimTarget::at(goal),
        ),
        ("spine", AimIkSettings::default(), 4, AimTarget::at(goal)),
        ("spine_eyes", eyes, 4, AimTarget::at(goal)),
        (
            "spine_eyes_up",
            eyes,
            4,
            AimTarget::at(goal).with_up(Vec3::Z),
        ),
        (
            "spine_clamped",
            clamped,
            4,
            AimTarget::at(Vec3::new(-2.0, 1.6, 0.5)),
        ),
    ];
    for (id, settings, n, target) in cases {
        let mut aim = AimIk::new(settings, 4).unwrap();
        let input: Vec<Transform> = rest[4 - n..].to_vec();
        let mut chain = input.clone();
        report(id, aim.solve(&mut chain, &target).unwrap());
        group.bench_function(id, |b| {
            b.iter_batched_ref(
                || input.clone(),
                |c| black_box(aim.solve(c, &target).unwrap()),
                BatchSize::SmallInput,
            )
        });
    }

    // 64 spines per call, each with its own target around the character.
    const CROWD: usize = 64;
    let chains: Vec<Transform> = (0..CROWD).flat_map(|_| rest.iter().copied()).collect();
    let targets: Vec<AimTarget> = (0..CROWD)
        .map(|i| {
            let a = i as f32 * 0.1;
            AimTarget::at(Vec3::new(2.0 * a.cos(), 1.8, 2.0 * a.sin()))
        })
        .collect();
    let mut results = vec![IkResult::default(); CROWD];
    let mut aim = AimIk::new(eyes, 4).unwrap();
    group.throughput(Throughput::Elements(CROWD as u64));
    group.bench_function("batch_64_spines_eyes", |b| {
        b.iter_batched_ref(
            || chains.clone(),
            |c| aim.solve_batch(c, 4, &targets, &mut results).unwrap(),
            BatchSize::SmallInput,
        )
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
