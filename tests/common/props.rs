//! The proptest configuration every property test uses, and strategies for the math types.

use proptest::prelude::*;
use sinew::{Quat, Vec3};

/// `cases` cases per property, and no regression files.
pub fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        // Other people write into tests/ concurrently: keep regressions out of the tree.
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// A vector with every component in `-r..r`.
pub fn vec3(r: f32) -> impl Strategy<Value = Vec3> {
    (-r..r, -r..r, -r..r).prop_map(|(x, y, z)| Vec3::new(x, y, z))
}

/// A unit vector (not uniform on the sphere).
pub fn unit_dir() -> impl Strategy<Value = Vec3> {
    vec3(1.0)
        .prop_filter("direction needs a length", |v| v.length() > 0.2)
        .prop_map(Vec3::normalize)
}

/// A unit quaternion (not uniform over rotations).
pub fn unit_quat() -> impl Strategy<Value = Quat> {
    (-1.0f32..1.0, -1.0f32..1.0, -1.0f32..1.0, -1.0f32..1.0)
        .prop_map(|(x, y, z, w)| Quat::from_xyzw(x, y, z, w))
        .prop_filter("quaternion needs a length", |q| q.length() > 0.2)
        .prop_map(Quat::normalize)
}
