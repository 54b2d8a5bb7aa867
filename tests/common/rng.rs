//! SplitMix64: a tiny deterministic generator, so a proptest seed describes a whole scenario
//! and the statistical measurements of the tests are reproducible.

use sinew::{Quat, Vec3};

pub struct Rng(u64);

impl Rng {
    /// The stream of `seed` mixed with `salt`. Each test file keeps its own salt, so the same
    /// seed gives different scenarios in different files (and each file's recorded seeds keep
    /// their meaning).
    pub fn salted(seed: u64, salt: u64) -> Self {
        Self(seed ^ salt)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    pub fn unit_f32(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32
    }

    pub fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.unit_f32()
    }

    pub fn chance(&mut self, p: f32) -> bool {
        self.unit_f32() < p
    }

    pub fn index(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    pub fn vec3(&mut self, r: f32) -> Vec3 {
        Vec3::new(self.range(-r, r), self.range(-r, r), self.range(-r, r))
    }

    pub fn dir(&mut self) -> Vec3 {
        loop {
            let v = self.vec3(1.0);
            let l = v.length_squared();
            if l > 0.01 && l <= 1.0 {
                return v.normalize();
            }
        }
    }

    /// A rotation about a random axis by an angle uniform in [0, max_angle].
    pub fn rotation(&mut self, max_angle: f32) -> Quat {
        let axis = self.dir();
        Quat::from_axis_angle(axis, self.range(0.0, max_angle))
    }

    /// A point uniform (by volume) in the spherical shell r0..r1 around `center`.
    pub fn in_shell(&mut self, center: Vec3, r0: f32, r1: f32) -> Vec3 {
        let u = self.unit_f32();
        let r = (r0.powi(3) + u * (r1.powi(3) - r0.powi(3))).cbrt();
        center + self.dir() * r
    }

    /// A point uniform (by volume) in the ball of `radius` around `center`.
    pub fn in_ball(&mut self, center: Vec3, radius: f32) -> Vec3 {
        center + self.dir() * radius * self.unit_f32().cbrt()
    }
}
