//! FABRIK and CCD cost on 4-, 10- and 32-joint chains, reachable and unreachable targets, with
//! and without cone constraints. Read figures as ratios within one run.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use sinew::{
    Ccd, CcdSettings, ChainTarget, Fabrik, FabrikSettings, JointConstraint, Limit, Quat, Transform,
    Vec3,
};

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

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("chain_ik");
    for n in [4usize, 10, 32] {
        let input = chain(n);
        let length = (n - 1) as f32;
        let targets = [
            (
                "reachable",
                ChainTarget::at(Vec3::new(0.4, 0.5, 0.2) * length),
            ),
            (
                "unreachable",
                ChainTarget::at(Vec3::new(1.5, 0.2, 0.0) * length),
            ),
        ];
        for constrained in [false, true] {
            let mut fabrik = Fabrik::new(FabrikSettings::default(), n).unwrap();
            let mut ccd = Ccd::new(CcdSettings::default(), n).unwrap();
            if constrained {
                for i in 1..n {
                    fabrik.set_constraint(i, Some(cone())).unwrap();
                    ccd.set_constraint(i, Some(cone())).unwrap();
                }
            }
            let tag = if constrained { "cones" } else { "free" };
            for (name, target) in &targets {
                let mut work = input.clone();
                group.bench_function(format!("fabrik/{n}/{tag}/{name}"), |b| {
                    b.iter(|| {
                        work.copy_from_slice(&input);
                        black_box(
                            fabrik
                                .solve(black_box(&mut work), Quat::IDENTITY, target)
                                .unwrap(),
                        )
                    })
                });
                group.bench_function(format!("ccd/{n}/{tag}/{name}"), |b| {
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
