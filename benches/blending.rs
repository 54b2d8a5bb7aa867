//! Blending and pose cost per frame on 64- and 256-joint skeletons: N-layer blends (2 layers,
//! with a per-joint mask, plus an additive layer), the two-pose blend, local-to-model on a chain
//! and on a humanoid-like tree (and, beside it, model-space matrices and a skinning palette),
//! clip sampling (30 keys per track, forward playback; tracks keyed one by one at shared or at
//! their own times, and a clip built from 30 frames that wraps), a
//! crossfade update with a fade in progress, and the 2-layer blend through the C ABI.
//! Throughput is in joints, so Criterion also reports joints per second; read figures as
//! ratios within one run (the reference is ozz-animation's ns per joint on the same machine).

use std::hint::black_box;
use std::ptr::{null, null_mut};
use std::sync::Arc;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use sinew::ffi::{self, SinewBlendLayer, SinewPose, SinewSkeleton, SinewStatus, SinewTransform};
use sinew::{
    BlendSpace, Clip, ClipCursor, Crossfade, FadeCurve, Interpolation, JointMask, Layer, Mat4,
    Pose, Quat, Skeleton, Skin, Track, Transform, Vec3,
};

const SIZES: [usize; 2] = [64, 256];

/// A small deterministic generator (xorshift), so every run blends the same poses.
struct Rng(u32);

impl Rng {
    /// Uniform in [-1, 1).
    fn signed(&mut self) -> f32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 17;
        self.0 ^= self.0 << 5;
        (self.0 >> 8) as f32 / (1u32 << 23) as f32 - 1.0
    }

    fn vec3(&mut self, scale: f32) -> Vec3 {
        Vec3::new(self.signed(), self.signed(), self.signed()) * scale
    }

    /// A rotation of up to about 1 rad about a random axis.
    fn rotation(&mut self) -> Quat {
        let axis = (self.vec3(1.0) + Vec3::new(0.0, 0.0, 1e-3)).normalize();
        Quat::from_axis_angle(axis, self.signed())
    }

    /// A bone: short translation, moderate rotation, unit scale (the common case).
    fn transform(&mut self) -> Transform {
        Transform::from_rotation_translation(self.rotation(), self.vec3(0.2))
    }
}

/// Parent indices of a chain: every joint the child of the previous one.
fn chain_parents(n: usize) -> Vec<i32> {
    (0..n as i32).map(|i| i - 1).collect()
}

/// Parent indices of a humanoid-like tree: pelvis, a 4-joint spine, neck and head; arms of
/// clavicle, upper arm, forearm, hand and five 3-joint fingers; legs of thigh, calf, foot and
/// toe (53 joints); then 3-joint chains (face, hair, cloth) hung off the head, spine and pelvis
/// in turn until `n` joints. Parents always come before their children.
fn tree_parents(n: usize) -> Vec<i32> {
    let mut parents = vec![-1];
    let push = |parents: &mut Vec<i32>, parent: i32| {
        parents.push(parent);
        parents.len() as i32 - 1
    };
    let mut spine = 0;
    let mut spine_joints = Vec::new();
    for _ in 0..4 {
        spine = push(&mut parents, spine);
        spine_joints.push(spine);
    }
    let neck = push(&mut parents, spine);
    let head = push(&mut parents, neck);
    for _ in 0..2 {
        let clavicle = push(&mut parents, spine);
        let upper = push(&mut parents, clavicle);
        let fore = push(&mut parents, upper);
        let hand = push(&mut parents, fore);
        for _ in 0..5 {
            let mut j = hand;
            for _ in 0..3 {
                j = push(&mut parents, j);
            }
        }
    }
    for _ in 0..2 {
        let mut j = 0;
        for _ in 0..4 {
            j = push(&mut parents, j);
        }
    }
    let anchors = [head, spine_joints[1], 0, head, spine_joints[3]];
    let mut k = 0;
    while parents.len() < n {
        let mut j = anchors[k % anchors.len()];
        for _ in 0..3 {
            if parents.len() < n {
                j = push(&mut parents, j);
            }
        }
        k += 1;
    }
    parents.truncate(n);
    parents
}

fn skeleton(parents: &[i32], rng: &mut Rng) -> Arc<Skeleton> {
    let rest: Vec<Transform> = parents.iter().map(|_| rng.transform()).collect();
    Arc::new(Skeleton::new(parents, &rest, None).unwrap())
}

fn random_pose(skeleton: &Arc<Skeleton>, rng: &mut Rng) -> Pose {
    let mut pose = Pose::new(skeleton.clone());
    let local: Vec<Transform> = (0..skeleton.joint_count())
        .map(|_| rng.transform())
        .collect();
    pose.set_local(&local).unwrap();
    pose
}

/// A looping 1 s clip with linear translation, rotation and scale tracks of `keys` keys on
/// every joint: evenly spaced and shared by every track (a baked clip, sampled four joints at a
/// time), or with `per_track` times of their own (inner keys moved by up to 40 % of a step, as
/// after per-track key reduction).
fn clip(skeleton: &Skeleton, keys: usize, per_track: bool, rng: &mut Rng) -> Arc<Clip> {
    let duration = 1.0;
    let step = duration / (keys - 1) as f32;
    let times = |rng: &mut Rng| -> Vec<f32> {
        (0..keys)
            .map(|k| {
                let inner = per_track && k > 0 && k < keys - 1;
                let jitter = if inner { 0.4 * rng.signed() } else { 0.0 };
                (k as f32 + jitter) * step
            })
            .collect()
    };
    let mut clip = Clip::new(skeleton, duration).unwrap();
    for j in 0..skeleton.joint_count() {
        let t: Vec<Vec3> = (0..keys).map(|_| rng.vec3(0.2)).collect();
        let r: Vec<Quat> = (0..keys).map(|_| rng.rotation()).collect();
        let s: Vec<Vec3> = (0..keys).map(|_| Vec3::ONE + rng.vec3(0.1)).collect();
        let linear = Interpolation::Linear;
        let [tt, rt, st] = [0; 3].map(|_| times(rng));
        clip.set_translation_track(j, Track::new(linear, &tt, &t, None, duration).unwrap())
            .unwrap();
        clip.set_rotation_track(j, Track::new(linear, &rt, &r, None, duration).unwrap())
            .unwrap();
        clip.set_scale_track(j, Track::new(linear, &st, &s, None, duration).unwrap())
            .unwrap();
    }
    Arc::new(clip)
}

/// An upper-body mask: the spine's subtree, easing in over two levels.
fn upper_body_mask(skeleton: &Skeleton) -> JointMask {
    JointMask::subtree(skeleton, 2, 2).unwrap()
}

fn blends(c: &mut Criterion) {
    let mut group = c.benchmark_group("blend");
    for n in SIZES {
        group.throughput(Throughput::Elements(n as u64));
        let mut rng = Rng(0x9e37_79b9);
        let s = skeleton(&tree_parents(n), &mut rng);
        let (a, b, c) = (
            random_pose(&s, &mut rng),
            random_pose(&s, &mut rng),
            random_pose(&s, &mut rng),
        );
        let mask = upper_body_mask(&s);
        let mut delta = Pose::new(s.clone());
        delta.make_additive(&c, &a).unwrap();
        let mut out = Pose::new(s.clone());
        let two = [
            Layer {
                pose: &a,
                weight: 0.6,
                mask: None,
            },
            Layer {
                pose: &b,
                weight: 0.4,
                mask: None,
            },
        ];
        let masked = [
            two[0],
            Layer {
                mask: Some(&mask),
                ..two[1]
            },
        ];

        group.bench_function(BenchmarkId::new("layers2", n), |bench| {
            bench.iter(|| out.blend_layers(black_box(&two), 0.1).unwrap())
        });
        group.bench_function(BenchmarkId::new("layers2_mask", n), |bench| {
            bench.iter(|| out.blend_layers(black_box(&masked), 0.1).unwrap())
        });
        group.bench_function(BenchmarkId::new("layers2_additive", n), |bench| {
            bench.iter(|| {
                out.blend_layers(black_box(&two), 0.1).unwrap();
                out.add(black_box(&delta), 0.7, None).unwrap()
            })
        });
        let additive = [Layer {
            pose: &delta,
            weight: 0.7,
            mask: None,
        }];
        group.bench_function(BenchmarkId::new("layers2_additive_one_call", n), |bench| {
            bench.iter(|| {
                out.blend_layers_additive(black_box(&two), black_box(&additive), 0.1)
                    .unwrap()
            })
        });
        group.bench_function(BenchmarkId::new("additive", n), |bench| {
            bench.iter(|| {
                out.add_to(black_box(&a), black_box(&delta), 0.7, None)
                    .unwrap()
            })
        });
        group.bench_function(BenchmarkId::new("two_pose", n), |bench| {
            bench.iter(|| {
                out.blend(black_box(&a), black_box(&b), 0.3, None, BlendSpace::Local)
                    .unwrap()
            })
        });
        group.bench_function(BenchmarkId::new("two_pose_mask", n), |bench| {
            bench.iter(|| {
                out.blend(&a, &b, black_box(0.3), Some(&mask), BlendSpace::Local)
                    .unwrap()
            })
        });
        c_abi_layers(&mut group, &s, [&a, &b, &delta], n);
    }
    group.finish();
}

/// The 2-layer blend through `sinew_pose_blend_layers`, and with the additive layer through
/// `sinew_pose_blend_layers_additive`, on copies of the same poses (layers, then the delta).
fn c_abi_layers(
    group: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    s: &Skeleton,
    poses: [&Pose; 3],
    n: usize,
) {
    let rest: Vec<SinewTransform> = s.rest_pose().iter().map(|&t| t.into()).collect();
    let mut skeleton: *mut SinewSkeleton = null_mut();
    let make = |skeleton: *const SinewSkeleton, local: &[Transform]| {
        let local: Vec<SinewTransform> = local.iter().map(|&t| t.into()).collect();
        let mut pose: *mut SinewPose = null_mut();
        // SAFETY: valid pointers to locals; the skeleton handle is live.
        unsafe {
            assert_eq!(ffi::sinew_pose_create(skeleton, &mut pose), SinewStatus::Ok);
            let status = ffi::sinew_pose_set_local(pose, local.as_ptr(), n as u32);
            assert_eq!(status, SinewStatus::Ok);
        }
        pose
    };
    // SAFETY: valid pointers to locals; handles are destroyed below.
    unsafe {
        let status = ffi::sinew_skeleton_create(
            s.parents().as_ptr(),
            rest.as_ptr(),
            null(),
            n as u32,
            &mut skeleton,
        );
        assert_eq!(status, SinewStatus::Ok);
    }
    let (a, b, delta, out) = (
        make(skeleton, &poses[0].local().to_vec()),
        make(skeleton, &poses[1].local().to_vec()),
        make(skeleton, &poses[2].local().to_vec()),
        make(skeleton, s.rest_pose()),
    );
    let layers = [
        SinewBlendLayer {
            pose: a,
            weight: 0.6,
            mask: null(),
        },
        SinewBlendLayer {
            pose: b,
            weight: 0.4,
            mask: null(),
        },
    ];
    group.bench_function(BenchmarkId::new("c_abi_layers2", n), |bench| {
        bench.iter(|| {
            // SAFETY: the layers' poses and `out` are live, distinct handles.
            unsafe { ffi::sinew_pose_blend_layers(black_box(layers.as_ptr()), 2, 0.1, out) }
        })
    });
    let additive = [SinewBlendLayer {
        pose: delta,
        weight: 0.7,
        mask: null(),
    }];
    group.bench_function(BenchmarkId::new("c_abi_layers2_additive", n), |bench| {
        bench.iter(|| {
            let (l, d) = (black_box(layers.as_ptr()), black_box(additive.as_ptr()));
            // SAFETY: the layers' poses, the delta and `out` are live, distinct handles.
            unsafe { ffi::sinew_pose_blend_layers_additive(l, 2, d, 1, 0.1, out) }
        })
    });
    // SAFETY: created above, not used afterwards.
    unsafe {
        for p in [a, b, delta, out] {
            ffi::sinew_pose_destroy(p);
        }
        ffi::sinew_skeleton_destroy(skeleton);
    }
}

fn local_to_model(c: &mut Criterion) {
    let mut group = c.benchmark_group("local_to_model");
    for n in SIZES {
        group.throughput(Throughput::Elements(n as u64));
        for (shape, parents) in [("chain", chain_parents(n)), ("tree", tree_parents(n))] {
            let mut rng = Rng(0x2545_f491);
            let s = skeleton(&parents, &mut rng);
            let mut pose = random_pose(&s, &mut rng);
            group.bench_function(BenchmarkId::new(shape, n), |bench| {
                bench.iter(|| {
                    black_box(pose.model().unwrap());
                })
            });
            // The same pose's model matrices (the shared harness's matrices row).
            let mut out = vec![Mat4::ZERO; n];
            group.bench_function(BenchmarkId::new(format!("{shape}_matrices"), n), |bench| {
                bench.iter(|| pose.model_matrices_into(black_box(&mut out)).unwrap())
            });
        }
    }
    group.finish();
}

/// Beside local-to-model: the const model read into a buffer (`model_into`, the baseline),
/// model-space matrices, and a skinning palette of every joint.
fn model_matrices(c: &mut Criterion) {
    let mut group = c.benchmark_group("model_matrices");
    for n in SIZES {
        group.throughput(Throughput::Elements(n as u64));
        let mut rng = Rng(0x2545_f491);
        let s = skeleton(&tree_parents(n), &mut rng);
        let mut pose = random_pose(&s, &mut rng);
        let binds: Vec<Mat4> = pose
            .model()
            .unwrap()
            .iter()
            .map(|m| m.to_matrix().inverse())
            .collect();
        let skin = Skin::new(&s, None, &binds).unwrap();
        let mut model = vec![Transform::IDENTITY; n];
        let mut out = vec![Mat4::ZERO; n];
        group.bench_function(BenchmarkId::new("model_into", n), |bench| {
            bench.iter(|| pose.model_into(black_box(&mut model)).unwrap())
        });
        group.bench_function(BenchmarkId::new("matrices", n), |bench| {
            bench.iter(|| pose.model_matrices_into(black_box(&mut out)).unwrap())
        });
        group.bench_function(BenchmarkId::new("palette", n), |bench| {
            bench.iter(|| {
                pose.skinning_palette_into(&skin, black_box(&mut out))
                    .unwrap()
            })
        });
    }
    group.finish();
}

fn sampling(c: &mut Criterion) {
    let dt = 1.0 / 60.0;
    let mut group = c.benchmark_group("playback");
    for n in SIZES {
        group.throughput(Throughput::Elements(n as u64));
        let mut rng = Rng(0x6a09_e667);
        let s = skeleton(&tree_parents(n), &mut rng);
        let walk = clip(&s, 30, false, &mut rng);
        let run = clip(&s, 30, false, &mut rng);
        let mut out = Pose::new(s.clone());
        let mut cursor = ClipCursor::new(&walk);
        let mut time = 0.0f32;
        group.bench_function(BenchmarkId::new("sample30", n), |bench| {
            bench.iter(|| {
                time = (time + dt) % walk.duration();
                walk.sample(black_box(time), true, Some(&mut cursor), &mut out)
                    .unwrap()
            })
        });
        // Every track keyed at its own times: sampled track by track (its own generator, so
        // the data of the other cases stays as it was).
        let reduced = clip(&s, 30, true, &mut Rng(0x5be0_cd19));
        let mut time = 0.0f32;
        group.bench_function(BenchmarkId::new("sample30_per_track", n), |bench| {
            bench.iter(|| {
                time = (time + dt) % reduced.duration();
                reduced
                    .sample(black_box(time), true, Some(&mut cursor), &mut out)
                    .unwrap()
            })
        });
        // The same playback on a clip built from 30 uniformly sampled frames (one list of key
        // times shared by every track), wrapping from the last frame to the first.
        let frames: Vec<Transform> = (0..30 * n).map(|_| rng.transform()).collect();
        let linear = Interpolation::Linear;
        let cycle = Clip::from_frames(&s, 30, 30.0, &frames, None, linear, true).unwrap();
        let mut time = 0.0f32;
        group.bench_function(BenchmarkId::new("sample_frames30", n), |bench| {
            bench.iter(|| {
                time = (time + dt) % cycle.duration();
                cycle
                    .sample(black_box(time), true, Some(&mut cursor), &mut out)
                    .unwrap()
            })
        });
        let mut fade = Crossfade::new(s.clone(), 2).unwrap();
        fade.play(walk.clone(), true).unwrap();
        let mut toward_run = true;
        group.bench_function(BenchmarkId::new("crossfade_update", n), |bench| {
            bench.iter(|| {
                // Keep a 0.5 s linear fade in progress, alternating between the two clips.
                if fade.fade_count() == 0 {
                    let next = if toward_run { &run } else { &walk };
                    fade.fade_to(next.clone(), 0.5, FadeCurve::Linear, true)
                        .unwrap();
                    toward_run = !toward_run;
                }
                fade.update(black_box(dt)).unwrap()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, blends, local_to_model, sampling, model_matrices);
criterion_main!(benches);
