//! Decoding fuzzer bytes into C ABI inputs, biased toward values that matter: mostly sane
//! numbers (so inputs get past validation and reach the solvers), plus NaN, infinities, huge
//! and tiny magnitudes, denormals, zero quaternions, out-of-range indices, invalid enums and
//! flags. Every draw is total: once the bytes run out, draws return zeros.

use arbitrary::Unstructured;
use sinew::ffi::{SinewQuat, SinewTransform, SinewVec3};
use sinew::{Quat, Vec3};

/// Floats that break naive code: non-finite, extreme, denormal, boundary values.
pub const SPECIAL_F32: [f32; 40] = [
    0.0,
    -0.0,
    1.0,
    -1.0,
    0.5,
    2.0,
    f32::NAN,
    -f32::NAN,
    f32::INFINITY,
    f32::NEG_INFINITY,
    f32::MAX,
    -f32::MAX,
    f32::MIN_POSITIVE,
    -f32::MIN_POSITIVE,
    1e-40,
    -1e-40,
    1.4e-45,
    f32::EPSILON,
    1e-7,
    1e-6,
    1e-3,
    1e3,
    1e6,
    1e15,
    1e19,
    2e19,
    1e30,
    -1e30,
    1e38,
    -1e38,
    std::f32::consts::PI,
    -std::f32::consts::PI,
    std::f32::consts::FRAC_PI_2,
    180.0,
    180.00002,
    1.000_000_1,
    0.999_999_94,
    -1e-7,
    3.0e-39,
    65536.0,
];

/// A cursor over fuzzer bytes.
pub struct Gen<'a> {
    u: Unstructured<'a>,
}

impl<'a> Gen<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        Self {
            u: Unstructured::new(data),
        }
    }

    /// True once every byte has been used.
    pub fn is_empty(&self) -> bool {
        self.u.is_empty()
    }

    pub fn byte(&mut self) -> u8 {
        self.u.arbitrary().unwrap_or(0)
    }

    pub fn u16(&mut self) -> u16 {
        self.u.arbitrary().unwrap_or(0)
    }

    pub fn u32(&mut self) -> u32 {
        self.u.arbitrary().unwrap_or(0)
    }

    pub fn i32(&mut self) -> i32 {
        self.u.arbitrary().unwrap_or(0)
    }

    pub fn bool(&mut self) -> bool {
        self.byte() & 1 == 1
    }

    /// True with probability about `percent` / 100.
    pub fn chance(&mut self, percent: u32) -> bool {
        (u32::from(self.byte()) * 100) < percent * 256
    }

    /// A value in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            return 0;
        }
        if n <= 256 {
            usize::from(self.byte()) % n
        } else {
            self.u32() as usize % n
        }
    }

    /// A nice float: a multiple of 1/64 in about [-512, 512], or a small one in [-4, 4].
    pub fn f32_clean(&mut self) -> f32 {
        if self.bool() {
            f32::from(self.u16() as i16) / 64.0
        } else {
            f32::from(self.byte() as i8) / 32.0
        }
    }

    /// A float in [0, 1] on a 1/255 grid, with both ends reachable.
    pub fn unit_f32(&mut self) -> f32 {
        f32::from(self.byte()) / 255.0
    }

    /// Any float: mostly nice, about one in eight a special value, a few raw bit patterns.
    pub fn f32_any(&mut self) -> f32 {
        match self.byte() {
            0..=199 => self.f32_clean(),
            200..=215 => f32::from_bits(self.u32()),
            _ => SPECIAL_F32[self.below(SPECIAL_F32.len())],
        }
    }

    /// A weight-like float: usually in [0, 1], sometimes anything.
    pub fn weight(&mut self) -> f32 {
        if self.chance(85) {
            self.unit_f32()
        } else {
            self.f32_any()
        }
    }

    pub fn vec3_clean(&mut self) -> SinewVec3 {
        SinewVec3 {
            x: self.f32_clean(),
            y: self.f32_clean(),
            z: self.f32_clean(),
        }
    }

    /// A vector: clean, degenerate (zero), or with arbitrary components.
    pub fn vec3(&mut self) -> SinewVec3 {
        match self.byte() {
            0..=199 => self.vec3_clean(),
            200..=209 => SinewVec3::default(),
            210..=219 => {
                let s = self.f32_any();
                let v = self.vec3_clean();
                SinewVec3 {
                    x: v.x * s,
                    y: v.y * s,
                    z: v.z * s,
                }
            }
            _ => SinewVec3 {
                x: self.f32_any(),
                y: self.f32_any(),
                z: self.f32_any(),
            },
        }
    }

    /// A unit quaternion from three angles on a fine grid.
    pub fn quat_unit(&mut self) -> SinewQuat {
        let mut angle = || f32::from(self.u16() as i16) * (std::f32::consts::PI / 16384.0);
        let (a, b, c) = (angle(), angle(), angle());
        (Quat::from_rotation_x(a) * Quat::from_rotation_y(b) * Quat::from_rotation_z(c)).into()
    }

    /// A rotation: usually unit, sometimes unnormalized, scaled to extremes, zero or garbage.
    pub fn quat(&mut self) -> SinewQuat {
        match self.byte() {
            0..=179 => self.quat_unit(),
            180..=204 => {
                // Unnormalized but usable.
                let q = self.quat_unit();
                let s = 0.25 + self.unit_f32() * 4.0;
                scale_quat(q, s)
            }
            205..=219 => {
                let q = self.quat_unit();
                let s = self.f32_any();
                scale_quat(q, s)
            }
            220..=229 => SinewQuat::default(),
            230..=237 => {
                // Axis-aligned, including exact half turns (w = 0).
                let mut q = SinewQuat::default();
                match self.below(4) {
                    0 => q.x = if self.bool() { 1.0 } else { -1.0 },
                    1 => q.y = if self.bool() { 1.0 } else { -1.0 },
                    2 => q.z = if self.bool() { 1.0 } else { -1.0 },
                    _ => q.w = -1.0,
                }
                q
            }
            _ => SinewQuat {
                x: self.f32_any(),
                y: self.f32_any(),
                z: self.f32_any(),
                w: self.f32_any(),
            },
        }
    }

    /// A scale: mostly one, sometimes another positive value, zero, negative or garbage.
    pub fn scale(&mut self) -> SinewVec3 {
        match self.byte() {
            0..=179 => SinewVec3 {
                x: 1.0,
                y: 1.0,
                z: 1.0,
            },
            180..=214 => {
                let s = 0.1 + self.unit_f32() * 3.0;
                SinewVec3 { x: s, y: s, z: s }
            }
            215..=229 => SinewVec3 {
                x: 0.1 + self.unit_f32() * 3.0,
                y: 0.1 + self.unit_f32() * 3.0,
                z: 0.1 + self.unit_f32() * 3.0,
            },
            230..=235 => SinewVec3::default(),
            236..=241 => SinewVec3 {
                x: -1.0,
                y: 1.0,
                z: 1.0,
            },
            _ => self.vec3(),
        }
    }

    /// A clean transform: nice translation, unit rotation, mostly unit scale.
    pub fn transform_clean(&mut self) -> SinewTransform {
        SinewTransform {
            translation: self.vec3_clean(),
            rotation: self.quat_unit(),
            scale: SinewVec3 {
                x: 1.0,
                y: 1.0,
                z: 1.0,
            },
        }
    }

    /// Any transform: usually sane, each part sometimes extreme or invalid.
    pub fn transform(&mut self) -> SinewTransform {
        if self.chance(70) {
            let mut t = self.transform_clean();
            if self.chance(20) {
                t.scale = self.scale();
            }
            return t;
        }
        SinewTransform {
            translation: self.vec3(),
            rotation: self.quat(),
            scale: self.scale(),
        }
    }

    /// `count` transforms: all clean, or each drawn from [`Self::transform`].
    pub fn transforms(&mut self, count: usize) -> Vec<SinewTransform> {
        let clean = self.chance(60);
        (0..count)
            .map(|_| {
                if clean {
                    self.transform_clean()
                } else {
                    self.transform()
                }
            })
            .collect()
    }

    /// An index for something of `n` items: usually valid, sometimes `n`, huge or negative
    /// when cast to i32.
    pub fn index(&mut self, n: usize) -> u32 {
        match self.byte() {
            0..=219 if n > 0 => self.below(n) as u32,
            0..=229 => n as u32,
            230..=239 => n as u32 + 1 + u32::from(self.byte()),
            240..=245 => u32::MAX,
            246..=249 => i32::MAX as u32,
            250..=252 => 65_536,
            _ => self.u32(),
        }
    }

    /// An enum value in `0..count`: usually valid, sometimes anything.
    pub fn enum_i32(&mut self, first: i32, count: i32) -> i32 {
        match self.byte() {
            0..=229 => first + self.below(count as usize) as i32,
            230..=239 => first - 1,
            240..=245 => first + count,
            246..=249 => i32::MIN,
            _ => self.i32(),
        }
    }

    /// A `uint32_t` flag: usually 0 or 1, sometimes not.
    pub fn flag(&mut self) -> u32 {
        match self.byte() {
            0..=119 => 0,
            120..=239 => 1,
            240..=247 => 2,
            248..=251 => u32::MAX,
            _ => self.u32(),
        }
    }

    /// Bytes of a joint name (no NUL): printable, empty, non-ASCII UTF-8, invalid UTF-8, or
    /// raw.
    pub fn name_bytes(&mut self) -> Vec<u8> {
        match self.byte() {
            0..=159 => format!("j{}", self.byte() % 32).into_bytes(),
            160..=179 => Vec::new(),
            180..=194 => "épaule\u{FFFD}".as_bytes().to_vec(),
            195..=204 => "\u{FFFD}".as_bytes().to_vec(),
            205..=214 => vec![0xff],
            215..=224 => vec![b'j', 0xc3],
            _ => {
                let n = self.below(12);
                (0..n)
                    .map(|_| self.byte())
                    .map(|b| if b == 0 { 1 } else { b })
                    .collect()
            }
        }
    }
}

fn scale_quat(q: SinewQuat, s: f32) -> SinewQuat {
    SinewQuat {
        x: q.x * s,
        y: q.y * s,
        z: q.z * s,
        w: q.w * s,
    }
}

/// Converts a C vector to glam.
pub fn v3(v: SinewVec3) -> Vec3 {
    Vec3::from(v)
}
