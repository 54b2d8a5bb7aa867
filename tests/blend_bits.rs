//! Blends keep their exact bits: layer blends (uniform, masked, with the rest pose filling in
//! below the threshold, with additive layers in the same call), additive layers (positive,
//! negative and zero weights, masked), additive deltas and two-pose blends in both spaces run
//! on fixed random poses of a 37-joint tree (a partial last block), and every output bit is
//! folded into a hash recorded from an earlier build. Other tests bound these results against
//! references; this one catches a change of arithmetic that stays within those bounds, as a
//! reordered sum or a fused multiply-add would.

mod common;

use std::sync::Arc;

use common::hash::Hash;
use common::poses::{bits, layer, pose_of};
use common::rng::Rng;
use sinew::{BlendSpace, JointMask, Layer, Pose, Skeleton, Transform, Vec3};

const SALT: u64 = 0xB1E0_DB17;
const JOINTS: usize = 37;

fn skeleton(rng: &mut Rng) -> Arc<Skeleton> {
    let parents: Vec<i32> = (0..JOINTS as i32)
        .map(|i| {
            if i == 0 {
                -1
            } else {
                rng.index(i as usize) as i32
            }
        })
        .collect();
    let rest: Vec<Transform> = (0..JOINTS).map(|_| transform(rng)).collect();
    Arc::new(Skeleton::new(&parents, &rest, None).unwrap())
}

fn transform(rng: &mut Rng) -> Transform {
    let s = Vec3::new(
        rng.range(0.5, 2.0),
        rng.range(0.5, 2.0),
        rng.range(0.5, 2.0),
    );
    Transform::new(rng.vec3(2.0), rng.rotation(3.1), s)
}

fn pose(s: &Arc<Skeleton>, rng: &mut Rng) -> Pose {
    let local: Vec<Transform> = (0..JOINTS).map(|_| transform(rng)).collect();
    pose_of(s, &local)
}

fn mask(s: &Skeleton, rng: &mut Rng) -> JointMask {
    let mut m = JointMask::uniform(s, 0.0).unwrap();
    let w: Vec<f32> = (0..JOINTS)
        .map(|j| match j % 5 {
            0 => 0.0,
            1 => 1.0,
            _ => rng.unit_f32(),
        })
        .collect();
    m.set_weights(&w).unwrap();
    m
}

fn fold(hash: &mut Hash, p: &Pose) {
    for joint in bits(p) {
        joint.iter().for_each(|&w| hash.word(w));
    }
}

#[test]
fn blends_keep_their_bits() {
    let mut hash = Hash::new();
    for seed in 0..8 {
        let mut rng = Rng::salted(seed, SALT);
        let s = skeleton(&mut rng);
        let [a, b, c] = [(); 3].map(|_| pose(&s, &mut rng));
        let (m1, m2) = (mask(&s, &mut rng), mask(&s, &mut rng));
        let mut delta = Pose::new(s.clone());
        delta.make_additive(&c, &a).unwrap();
        fold(&mut hash, &delta);
        let mut out = Pose::new(s.clone());
        let two = [layer(&a, 0.3, None), layer(&b, 0.7, None)];
        let masked = [
            layer(&a, 0.3, None),
            layer(&b, 0.7, Some(&m1)),
            layer(&c, 0.2, Some(&m2)),
        ];
        let faint = [layer(&a, 0.05, Some(&m1)), layer(&b, 0.1, None)];
        let add = [layer(&delta, 0.8, None), layer(&delta, -0.4, Some(&m2))];
        let blends: [(&[Layer], &[Layer], f32); 5] = [
            (&two, &[], 0.1),
            (&masked, &[], 0.1),
            (&faint, &[], 0.5),
            (&two, &add, 0.1),
            (&masked, &add[..1], 0.1),
        ];
        for (layers, additive, threshold) in blends {
            out.blend_layers_additive(layers, additive, threshold)
                .unwrap();
            fold(&mut hash, &out);
        }
        for (w, m) in [
            (1.0, None),
            (0.6, None),
            (-0.7, None),
            (0.0, None),
            (0.9, Some(&m1)),
        ] {
            out.copy_from(&b).unwrap();
            out.add(&delta, w, m).unwrap();
            fold(&mut hash, &out);
            out.add_to(&c, &delta, w, m).unwrap();
            fold(&mut hash, &out);
        }
        for space in [BlendSpace::Local, BlendSpace::ModelRotation] {
            for (t, m) in [(0.0, None), (0.35, None), (1.0, None), (0.6, Some(&m2))] {
                out.blend(&a, &b, t, m, space).unwrap();
                fold(&mut hash, &out);
            }
        }
    }
    assert_eq!(
        hash.0, 0x7a66_f650_8385_7557,
        "blend bits changed: {:#018x}",
        hash.0
    );
}
