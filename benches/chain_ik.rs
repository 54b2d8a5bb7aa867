//! FABRIK and CCD cost on 4-, 10- and 32-joint chains, reachable (two thirds and 95 % of the
//! chain length) and unreachable targets, with and without cone constraints, at precision 1e-3
//! of the chain length and the default 10 iterations. Each configuration's result (iterations,
//! reached, error) is printed once before it is timed, so times can be read per iteration.
//! Read figures as ratios within one run.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
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

criterion_group!(benches, bench);
criterion_main!(benches);
