//! Model matrices composed as matrices: each joint's rotation matrix is its parent's times its
//! local one, its scale kept apart (so no shear, as everywhere in model space), and its
//! translation its parent's translation plus its parent's rotation of the parent-scaled local
//! translation. In exact arithmetic that is the matrix of the model transform
//! ([`crate::transform::Transform::mul_transform`], then `to_matrix`); in f32 it equals it to
//! rounding, and a chain of 3×3 products with the local matrices made four joints at a time is
//! about a quarter faster than a chain of quaternion products each turned into a matrix.
//!
//! The rule, per joint `j` with parent `p` (a root's parent is the identity: `R = I`,
//! `s = (1, 1, 1)`, `t = 0`), each operation an f32 one, in this order:
//!
//! ```text
//! L      = the local rotation's matrix: Transform::to_matrix's entries without the scale
//! R_j.c  = (R_p.0 L[0][c] + R_p.1 L[1][c]) + R_p.2 L[2][c]      (columns c = 0, 1, 2)
//! s_j    = s_p ∘ local.scale
//! v      = s_p ∘ local.translation
//! t_j    = ((t_p + R_p.0 v.x) + R_p.1 v.y) + R_p.2 v.z
//! M_j    = (R_j.0 s_j.x, R_j.1 s_j.y, R_j.2 s_j.z, (t_j, 1)), row 3 exactly (0, 0, 0, 1)
//! ```

use crate::plan::{FEW_SLOTS, PREVIOUS, ROOT, SCRATCH, SLOTS};
use crate::simd::{lanes, F4, M4};
use crate::skeleton::Skeleton;
use crate::soa::{Rows, SoaTransform};

/// A joint's model frame: rotation matrix columns, scale and translation, each in one [`F4`]
/// (lane 3: 0 in the columns and the scale up to sign, 1 in the translation).
#[derive(Clone, Copy)]
struct Frame {
    r: [F4; 3],
    s: F4,
    t: F4,
}

impl Frame {
    /// The identity, a root's parent.
    #[inline(always)]
    fn identity() -> Self {
        let unit = |k: usize| F4::from_array(std::array::from_fn(|i| f32::from(i == k)));
        Self {
            r: [unit(0), unit(1), unit(2)],
            s: F4::from_array([1.0, 1.0, 1.0, 0.0]),
            t: unit(3),
        }
    }

    /// The matrix as four columns.
    #[inline(always)]
    fn columns(&self) -> [F4; 4] {
        let xyz = M4::from_bitmask(0b0111);
        let (r, s) = (self.r, self.s);
        [
            (r[0] * s.shuffle::<{ lanes(0, 0, 0, 0) }>()).keep(xyz),
            (r[1] * s.shuffle::<{ lanes(1, 1, 1, 1) }>()).keep(xyz),
            (r[2] * s.shuffle::<{ lanes(2, 2, 2, 2) }>()).keep(xyz),
            self.t,
        ]
    }
}

/// Lane `k` of `v` in every lane.
#[inline(always)]
fn lane(v: F4, k: usize) -> F4 {
    match k {
        0 => v.shuffle::<{ lanes(0, 0, 0, 0) }>(),
        1 => v.shuffle::<{ lanes(1, 1, 1, 1) }>(),
        2 => v.shuffle::<{ lanes(2, 2, 2, 2) }>(),
        _ => v.shuffle::<{ lanes(3, 3, 3, 3) }>(),
    }
}

/// A block's local rotation matrices, entry `[r][c]` a row of four joints: the entries of
/// [`crate::transform::Transform::to_matrix`] without the scale, in its operation order.
#[inline(always)]
fn rotation_matrices(rows: &Rows) -> [[F4; 3]; 3] {
    let [x, y, z, w] = rows.r;
    let (xx, yy, zz) = (x * x, y * y, z * z);
    let (xy, xz, yz, wx, wy, wz) = (x * y, x * z, y * z, w * x, w * y, w * z);
    let (one, two) = (F4::splat(1.0), F4::splat(2.0));
    [
        [one - two * (yy + zz), two * (xy - wz), two * (xz + wy)],
        [two * (xy + wz), one - two * (xx + zz), two * (yz - wx)],
        [two * (xz - wy), two * (yz + wx), one - two * (xx + yy)],
    ]
}

/// A block's local translations and scales, one joint per [`F4`] (lane 3 zero).
#[inline(always)]
fn translations_and_scales(rows: &Rows) -> ([F4; 4], [F4; 4]) {
    let zero = F4::splat(0.0);
    let ([t0, t1, t2], [s0, s1, s2]) = (rows.t, rows.s);
    (
        F4::transpose([t0, t1, t2, zero]),
        F4::transpose([s0, s1, s2, zero]),
    )
}

/// Joint `k` of a block composed onto its parent's frame `p` (the module's rule): `e` the
/// block's local rotation matrices, `t` and `s` the joint's translation and scale.
#[inline(always)]
fn compose(p: &Frame, e: &[[F4; 3]; 3], t: F4, s: F4, k: usize) -> Frame {
    let column = |c: usize| {
        p.r[0] * lane(e[0][c], k) + p.r[1] * lane(e[1][c], k) + p.r[2] * lane(e[2][c], k)
    };
    let v = p.s * t;
    let (vx, vy, vz) = (
        v.shuffle::<{ lanes(0, 0, 0, 0) }>(),
        v.shuffle::<{ lanes(1, 1, 1, 1) }>(),
        v.shuffle::<{ lanes(2, 2, 2, 2) }>(),
    );
    Frame {
        r: [column(0), column(1), column(2)],
        s: p.s * s,
        t: p.t + p.r[0] * vx + p.r[1] * vy + p.r[2] * vz,
    }
}

/// Calls `visit(joint, columns)` with the model matrix of each of the first `count` joints,
/// root first. A parent is the previous joint's frame, kept in registers, or the frame the
/// skeleton's [`plan`](crate::plan) keeps in a slot until its last child; one that found no
/// free slot is composed again from the root. Any joint order gives the same values.
#[inline(always)]
pub(crate) fn for_each_model_matrix(
    skeleton: &Skeleton,
    local: &[SoaTransform],
    count: usize,
    visit: impl FnMut(usize, &[F4; 4]),
) {
    // Nearly always no parent is recomputed and few slots are used: then the pass has no
    // call in its loop (one there would make the compiler keep fewer values in registers) and
    // fewer slots to set up.
    match (skeleton.recomputes(), skeleton.slots_used() <= FEW_SLOTS) {
        (false, true) => pass::<false, FEW_SLOTS>(skeleton, local, count, visit),
        (false, false) => pass::<false, SLOTS>(skeleton, local, count, visit),
        (true, _) => pass::<true, SLOTS>(skeleton, local, count, visit),
    }
}

/// [`for_each_model_matrix`], recomputing parents if `AGAIN`, with `N` slots (at least the
/// plan's).
#[inline(always)]
fn pass<const AGAIN: bool, const N: usize>(
    skeleton: &Skeleton,
    local: &[SoaTransform],
    count: usize,
    mut visit: impl FnMut(usize, &[F4; 4]),
) {
    let steps = &skeleton.steps()[..count];
    let identity = Frame::identity();
    let mut slots = [identity; N];
    let mut previous = identity;
    // Joint `k` (a constant in full blocks) of block `c`.
    macro_rules! joint {
        ($c:expr, $k:expr, $s:expr, $e:expr, $t:expr, $sc:expr) => {{
            let (i, s) = (4 * $c + $k, $s);
            let parent = if s.parent == PREVIOUS {
                previous
            } else if s.parent < SCRATCH {
                slots[usize::from(s.parent) % N]
            } else if s.parent == ROOT {
                identity
            } else if AGAIN {
                frame_of(skeleton, local, skeleton.parent(i).expect("a parent"))
            } else {
                unreachable!("the plan recomputes no parent")
            };
            let frame = compose(&parent, $e, $t[$k], $sc[$k], $k);
            if s.save != SCRATCH {
                slots[usize::from(s.save) % N] = frame;
            }
            previous = frame;
            visit(i, &frame.columns());
        }};
    }
    let mut blocks = steps.chunks_exact(4);
    for (c, (s, block)) in blocks.by_ref().zip(local).enumerate() {
        let rows = block.rows();
        let e = rotation_matrices(&rows);
        let (t, sc) = translations_and_scales(&rows);
        joint!(c, 0, s[0], &e, t, sc);
        joint!(c, 1, s[1], &e, t, sc);
        joint!(c, 2, s[2], &e, t, sc);
        joint!(c, 3, s[3], &e, t, sc);
    }
    let (c, rest) = (count / 4, blocks.remainder());
    if let Some(block) = local.get(c).filter(|_| !rest.is_empty()) {
        let rows = block.rows();
        let e = rotation_matrices(&rows);
        let (t, sc) = translations_and_scales(&rows);
        for (k, s) in rest.iter().enumerate() {
            joint!(c, k, *s, &e, t, sc);
        }
    }
}

/// One joint's model frame, composed from the root along its path: the same operations as
/// [`for_each_model_matrix`]'s, so the same bits.
#[cold]
#[inline(never)]
fn frame_of(skeleton: &Skeleton, local: &[SoaTransform], joint: usize) -> Frame {
    skeleton.fold_path(joint, |parent: Option<Frame>, j| {
        let parent = parent.unwrap_or_else(Frame::identity);
        let (rows, k) = (local[j / 4].rows(), j % 4);
        let (translations, scales) = translations_and_scales(&rows);
        compose(
            &parent,
            &rotation_matrices(&rows),
            translations[k],
            scales[k],
            k,
        )
    })
}
