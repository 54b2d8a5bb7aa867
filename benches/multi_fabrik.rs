//! Multi-effector FABRIK per frame: the 20-joint upper body reaching with both hands and the
//! hand with five fingers (the trees of `tests/common/trees.rs`), each solved from the previous
//! frame's output toward targets that are the effectors' places in a moving pose (every joint
//! swinging about its own fixed axis, 0.5 % of a turn a frame), so every target is reachable
//! and all of them together. Same-run baseline: single-chain FABRIK on the root-to-effector
//! path of the same skeleton (pelvis to left hand, palm to first fingertip), following the
//! first effector's target. Mean iterations per solve are printed before timing. Read figures
//! as ratios.

use std::hint::black_box;
use std::sync::Arc;

use criterion::{criterion_group, criterion_main, Criterion};
use sinew::{
    ChainTarget, EffectorTarget, Fabrik, FabrikSettings, IkResult, JointConstraint, Limit,
    MultiFabrik, MultiFabrikSettings, Pose, Quat, Skeleton, Vec3,
};

#[allow(dead_code)]
#[path = "../tests/common/rng.rs"]
mod rng;
#[allow(dead_code)]
#[path = "../tests/common/trees.rs"]
mod trees;

/// A tree and its moving targets: `targets(frame)` per effector.
struct Scene {
    name: &'static str,
    skeleton: Arc<Skeleton>,
    root: u32,
    effectors: Vec<u32>,
    /// Per joint: the axis it swings about and the phase of its swing.
    swings: Vec<(Vec3, f32)>,
}

/// Largest swing of each joint away from its rest rotation, in radians.
const SWING: f32 = 0.3;

impl Scene {
    /// The effectors' positions in the pose of `frame`: each joint's rest rotation turned by
    /// `SWING * sin(a + phase)` about its axis, `a` advancing 0.5 % of a turn a frame.
    fn targets(&self, frame: u32) -> Vec<EffectorTarget> {
        let a = frame as f32 * 0.005 * std::f32::consts::TAU;
        let mut pose = Pose::new(self.skeleton.clone());
        for (j, &(axis, phase)) in self.swings.iter().enumerate() {
            let turn = Quat::from_axis_angle(axis, SWING * (a + phase).sin());
            pose.edit_local(j, |t| t.rotation = (t.rotation * turn).normalize())
                .unwrap();
        }
        let model = trees::model(&pose);
        self.effectors
            .iter()
            .map(|&e| EffectorTarget::at(model[e as usize].translation))
            .collect()
    }

    /// The path from the root to the first effector (root first).
    fn chain(&self) -> Vec<u32> {
        let mut path = vec![self.effectors[0]];
        while *path.last().unwrap() != self.root {
            let j = *path.last().unwrap() as usize;
            path.push(self.skeleton.parent(j).unwrap() as u32);
        }
        path.reverse();
        path
    }
}

fn scenes() -> Vec<Scene> {
    let mut rng = rng::Rng::salted(7, 0x6d66_6265_6e63_6821);
    let mut scene = |name, (skeleton, root, effectors): (Arc<Skeleton>, u32, Vec<u32>)| {
        let swings = (0..skeleton.joint_count())
            .map(|_| (rng.dir(), rng.range(0.0, std::f32::consts::TAU)))
            .collect();
        Scene {
            name,
            skeleton,
            root,
            effectors,
            swings,
        }
    };
    let (body, root, hands) = trees::upper_body();
    let (hand, palm, tips) = trees::hand();
    vec![
        scene("upper body, 2 hands", (body, root, hands.to_vec())),
        scene("hand, 5 fingers", (hand, palm, tips.to_vec())),
    ]
}

const FRAMES: u32 = 400;

fn bench(c: &mut Criterion) {
    for scene in scenes() {
        let m = scene.effectors.len();
        let mut ik = MultiFabrik::new(MultiFabrikSettings::default(), 32, m).unwrap();
        let chain = scene.chain();
        let mut fabrik = Fabrik::new(FabrikSettings::default(), 32).unwrap();
        let mut results = vec![IkResult::default(); m];
        // Mean iterations along the path (from the rest pose, then each frame's output).
        let (mut pose, mut chain_pose) = (
            Pose::new(scene.skeleton.clone()),
            Pose::new(scene.skeleton.clone()),
        );
        let (mut tree_iterations, mut chain_iterations, mut reached) = (0u64, 0u64, 0u32);
        for frame in 1..=FRAMES {
            let t = scene.targets(frame);
            ik.solve_pose(&mut pose, scene.root, &scene.effectors, &t, &mut results)
                .unwrap();
            tree_iterations += u64::from(results[0].iterations);
            reached += u32::from(results.iter().all(|r| r.reached));
            let goal = ChainTarget::at(t[0].position);
            let r = fabrik.solve_pose(&mut chain_pose, &chain, &goal).unwrap();
            chain_iterations += u64::from(r.iterations);
        }
        println!(
            "{}: {} effectors, chain of {} joints; mean iterations: tree {:.2}, chain {:.2}; \
             every effector reached on {reached} of {FRAMES} frames",
            scene.name,
            m,
            chain.len(),
            tree_iterations as f64 / f64::from(FRAMES),
            chain_iterations as f64 / f64::from(FRAMES),
        );
        let targets: Vec<Vec<EffectorTarget>> = (0..FRAMES).map(|f| scene.targets(f)).collect();
        let mut group = c.benchmark_group(format!("multi_fabrik/{}", scene.name));
        let mut frame = 0usize;
        group.bench_function("tree", |b| {
            b.iter(|| {
                frame = (frame + 1) % targets.len();
                let t = &targets[frame];
                ik.solve_pose(&mut pose, scene.root, &scene.effectors, t, &mut results)
                    .unwrap();
                black_box(&results);
            })
        });
        let mut frame = 0usize;
        group.bench_function("chain baseline", |b| {
            b.iter(|| {
                frame = (frame + 1) % targets.len();
                let goal = ChainTarget::at(targets[frame][0].position);
                black_box(fabrik.solve_pose(&mut chain_pose, &chain, &goal).unwrap());
            })
        });
        group.finish();
    }
}

/// The cost of retries: the upper body solved cold from the rest pose toward hands sent up,
/// back and in, with arms free (the first attempt reaches: the baseline), with arms held
/// nearly straight by tight cones (the first attempt stops short and a retry reaches), and
/// with the spine stiff too (out of reach: a retry runs and does not). Iterations per solve
/// are printed before timing.
fn bench_retries(c: &mut Criterion) {
    let (skeleton, root, hands) = trees::upper_body();
    let rest = Pose::new(skeleton.clone());
    let start = trees::model(&rest);
    let targets = [
        EffectorTarget::at(start[10].translation + Vec3::new(-0.3, 0.3, 0.3)),
        EffectorTarget::at(start[14].translation + Vec3::new(0.3, 0.3, 0.3)),
    ];
    let stiff = JointConstraint::new(
        Quat::IDENTITY,
        Vec3::X,
        Limit::Cone {
            half_angle_1: 0.02,
            half_angle_2: 0.02,
            twist: None,
        },
    )
    .unwrap();
    let cases: [(&str, &[u32]); 3] = [
        ("free (baseline)", &[]),
        ("stiff arms, a retry reaches", &[8, 9, 12, 13]),
        (
            "stiff spine and arms, out of reach",
            &[1, 2, 3, 4, 7, 8, 9, 11, 12, 13],
        ),
    ];
    let mut group = c.benchmark_group("multi_fabrik/retries");
    for (name, stiffened) in cases {
        let mut ik = MultiFabrik::new(MultiFabrikSettings::default(), 32, 2).unwrap();
        for &joint in stiffened {
            ik.set_constraint(joint, Some(stiff)).unwrap();
        }
        let mut results = [IkResult::default(); 2];
        let mut pose = rest.clone();
        ik.solve_pose(&mut pose, root, &hands, &targets, &mut results)
            .unwrap();
        println!(
            "retries, {name}: {} iterations, reached {}",
            results[0].iterations,
            results.iter().all(|r| r.reached)
        );
        group.bench_function(name, |b| {
            b.iter(|| {
                pose.clone_from(&rest);
                ik.solve_pose(&mut pose, root, &hands, &targets, &mut results)
                    .unwrap();
                black_box(&results);
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench, bench_retries);
criterion_main!(benches);
