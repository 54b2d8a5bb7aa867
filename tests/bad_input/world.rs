//! The world every case runs against: handles of every kind in a known state, and every buffer
//! an export reads or writes ([`Bufs`]), with the rules that map an export's pointer argument to
//! its buffer ([`slot`]) and a float field path to the float ([`Floats`]).

use std::ffi::{c_char, c_void, CStr};
use std::ptr::{null, null_mut};

use sinew::ffi::SinewStatus as St;
use sinew::ffi::*;
use sinew::{Mat4, Quat, Vec3};

use crate::probe::Probe;

pub const J: usize = 8;
pub const J2: usize = 3;
/// Chain length of the world's FABRIK and CCD solvers (their `max_joints`).
pub const N: usize = 4;
/// Effectors of the world's multi-effector FABRIK solves (its `max_effectors`), from root 0.
pub const M: usize = 3;
/// Chains in the batch buffers: one four-wide SIMD group of the two-bone batch and a scalar
/// tail.
pub const B: usize = 5;
/// The chain a batch's generated bad values go into: not the first, so a chain solved (or
/// written) before every input was checked shows; in the two-bone batch's SIMD group.
pub const BAD: usize = 2;

pub const PARENTS: [i32; J] = [-1, 0, 1, 2, 3, 0, 5, 5];
/// `PARENTS` with the last joint under the one before it: the same count, another hierarchy.
pub const PARENTS3: [i32; J] = [-1, 0, 1, 2, 3, 0, 5, 6];
pub const NAMES: [&CStr; J] = [
    c"root",
    c"spine",
    c"upper_arm",
    c"forearm",
    c"hand",
    c"ik_hand_root",
    c"ik_hand_r",
    c"ik_hand_l",
];
pub const ID: SinewQuat = SinewQuat {
    x: 0.0,
    y: 0.0,
    z: 0.0,
    w: 1.0,
};

pub fn v(x: f32, y: f32, z: f32) -> SinewVec3 {
    SinewVec3 { x, y, z }
}

pub fn q(axis: [f32; 3], angle: f32) -> SinewQuat {
    Quat::from_axis_angle(Vec3::from(axis).normalize(), angle).into()
}

pub fn qmul(a: SinewQuat, b: SinewQuat) -> SinewQuat {
    (Quat::from(a) * Quat::from(b)).normalize().into()
}

pub fn tr(t: [f32; 3], rotation: SinewQuat, s: f32) -> SinewTransform {
    SinewTransform {
        translation: v(t[0], t[1], t[2]),
        rotation,
        scale: v(s, s, s),
    }
}

/// Rest pose of the world's skeleton (and a guard element).
pub fn rest() -> [SinewTransform; J + 1] {
    let z = [0.0, 0.0, 1.0];
    [
        tr([0.0, 1.0, 0.0], q([0.0, 1.0, 0.0], 0.02), 1.0),
        tr([0.0, 0.4, 0.0], q(z, 0.1), 1.0),
        tr([0.15, 0.1, 0.0], q(z, -0.3), 1.0),
        tr([0.3, 0.0, 0.0], q(z, 0.4), 1.0),
        tr([0.27, 0.0, 0.0], q([0.0, 1.0, 0.0], 0.2), 1.0),
        tr([0.0, 0.0, 0.05], q([1.0, 0.0, 0.0], 0.05), 1.0),
        tr([0.5, 0.6, 0.1], q([1.0, 0.0, 0.0], 0.3), 1.0),
        tr([-0.5, 0.6, 0.1], q([0.0, 0.0, 1.0], -0.1), 1.0),
        tr([9.0, 9.0, 9.0], q([1.0, 0.0, 0.0], 0.1), 1.0),
    ]
}

/// The rest pose with every rotation turned a little (by `angle` about a fixed axis).
pub fn posed(angle: f32) -> [SinewTransform; J + 1] {
    let mut r = rest();
    for (k, t) in r.iter_mut().enumerate() {
        t.rotation = qmul(t.rotation, q([0.3, 1.0, 0.2], angle * (k as f32 + 1.0)));
    }
    r
}

pub fn cone() -> SinewJointConstraint {
    SinewJointConstraint {
        r#type: SinewConstraintType::Cone as i32,
        limit_twist: 1,
        reference: q([0.0, 0.0, 1.0], 0.05),
        // Not axis-aligned, so a denormal in one component still leaves a usable axis.
        axis: v(1.0, 0.25, 0.5),
        swing_half_angle_1: 0.6,
        swing_half_angle_2: 0.4,
        min_angle: -0.5,
        max_angle: 0.5,
    }
}

/// A multi-effector target at `position`, with `rotation` if given, of `weight`.
pub fn target(
    position: SinewVec3,
    rotation: Option<SinewQuat>,
    weight: f32,
) -> SinewEffectorTarget {
    SinewEffectorTarget {
        position,
        rotation: rotation.unwrap_or(ID),
        weight,
        use_rotation: u32::from(rotation.is_some()),
    }
}

/// Finite, recognisable contents for output buffers (a valid transform, so that finiteness and
/// unit-rotation checks pass on buffers an export did not write).
pub const SENT_F: f32 = -7.25;
pub const SENT_U: u32 = 0xA5A5_A5A5;
pub const SENT_T: SinewTransform = SinewTransform {
    translation: SinewVec3 {
        x: SENT_F,
        y: 3.5,
        z: 11.0,
    },
    rotation: ID,
    scale: SinewVec3 {
        x: 2.0,
        y: 2.0,
        z: 2.0,
    },
};

/// One layer weight of `sinew_pose_blend_layers(_additive)` (the layers themselves hold
/// handles).
#[derive(Clone, Copy)]
pub struct LayerWeight {
    pub weight: f32,
}

/// Every buffer an export reads or writes. Arrays passed with a count hold one guard element
/// more than the count, so a write past the count is caught too. All types here are
/// padding-free (4-byte fields only, or a lone `usize`), so they compare byte for byte.
#[derive(Clone, Copy)]
pub struct Bufs {
    // In/out.
    pub chain3: [SinewTransform; 3],
    pub chain: [SinewTransform; N + 1],
    /// `sinew_two_bone_ik_solve_batch`: B chains of three, back to back, and a guard.
    pub batch3: [SinewTransform; 3 * B + 1],
    /// FABRIK and CCD batches: B chains of N back to back, then guards up to room for B chains
    /// of N + 1 (so even a `joint_count` read before it is rejected stays in bounds).
    pub batch: [SinewTransform; (N + 1) * B],
    pub model: [SinewTransform; J + 1],
    // Inputs.
    pub locals: [SinewTransform; J + 1],
    pub rest: [SinewTransform; J + 1],
    pub transform: SinewTransform,
    pub effector: SinewVec3,
    pub chain_effector: SinewVec3,
    pub pose_effector: SinewVec3,
    pub effector_rotation: SinewQuat,
    pub pole: SinewVec3,
    pub root_parent: SinewQuat,
    /// Per-chain inputs of the batches (two-bone effectors, FABRIK/CCD effectors, effector
    /// rotations, poles, root parent rotations).
    pub batch_effectors3: [SinewVec3; B],
    pub batch_effectors: [SinewVec3; B],
    pub batch_rotations: [SinewQuat; B],
    pub batch_poles: [SinewVec3; B],
    pub batch_parents: [SinewQuat; B],
    pub joints: [u32; N + 2],
    pub apply_joints: [u32; 2],
    pub constraints: [SinewJointConstraint; 2],
    pub constraint: SinewJointConstraint,
    pub hands: SinewHandJoints,
    pub bones: [u32; 2],
    pub parents: [i32; J + 1],
    pub weights: [f32; J + 1],
    pub layers: [LayerWeight; 2],
    /// The additive layers' weights of `sinew_pose_blend_layers_additive` (one subtracts).
    pub additive: [LayerWeight; 2],
    pub times: [f32; 3],
    pub v3_values: [SinewVec3; 3],
    pub s_values: [SinewVec3; 3],
    pub v3_in: [SinewVec3; 3],
    pub v3_out: [SinewVec3; 3],
    pub q_values: [SinewQuat; 3],
    pub q_in: [SinewQuat; 3],
    pub q_out: [SinewQuat; 3],
    /// `sinew_clip_create_from_frames`: two frames of J joints, frame-major, and a guard.
    pub frames: [SinewTransform; 2 * J + 1],
    pub joint_mask: [u8; J],
    pub two: SinewTwoBoneIkSettings,
    pub fabrik: SinewFabrikSettings,
    pub ccd: SinewCcdSettings,
    pub aim: SinewAimIkSettings,
    pub hand: SinewHandIkRetargetingSettings,
    pub multi: SinewMultiFabrikSettings,
    /// Multi-effector FABRIK: effector joints (both hands of the world's skeleton and its
    /// hand), their targets (the first with a rotation), and a guard each.
    pub effectors: [u32; M + 1],
    pub targets: [SinewEffectorTarget; M + 1],
    // Outputs, filled with sentinels.
    pub out_transforms: [SinewTransform; J + 1],
    pub out_transform: SinewTransform,
    pub out_result: SinewIkResult,
    /// A batch's results, and a guard.
    pub out_results: [SinewIkResult; B + 1],
    pub out_vec3: SinewVec3,
    pub out_floats: [f32; J + 1],
    pub out_parents: [i32; J + 1],
    pub out_u32: [u32; 3],
    pub out_f32: f32,
    pub out_two: SinewTwoBoneIkSettings,
    pub out_fabrik: SinewFabrikSettings,
    pub out_ccd: SinewCcdSettings,
    pub out_aim: SinewAimIkSettings,
    pub out_hand: SinewHandIkRetargetingSettings,
    pub out_multi: SinewMultiFabrikSettings,
    pub out_constraint: SinewJointConstraint,
    pub out_text: [u8; 64],
    pub out_len: usize,
    pub out_handle: usize,
    /// `sinew_skin_create`'s joints (every joint, shuffled) and inverse binds, and a guard.
    pub skin_joints: [u32; J + 1],
    pub inverse_binds: [SinewMat4; J + 1],
    /// Model matrices and palettes.
    pub out_matrices: [SinewMat4; J + 1],
}

/// A recognisable finite matrix for output buffers.
pub const SENT_M: SinewMat4 = SinewMat4 {
    m00: SENT_F,
    m10: 3.5,
    m20: 11.0,
    m30: 2.0,
    m01: SENT_F,
    m11: 3.5,
    m21: 11.0,
    m31: 2.0,
    m02: SENT_F,
    m12: 3.5,
    m22: 11.0,
    m32: 2.0,
    m03: SENT_F,
    m13: 3.5,
    m23: 11.0,
    m33: 2.0,
};

pub const SENT_HANDLE: usize = 0xA5A5_A5A5_A5A5_A5A0;

impl Bufs {
    pub fn new() -> Self {
        let z = [0.0, 0.0, 1.0];
        let mut two = std::mem::MaybeUninit::uninit();
        let mut fabrik = std::mem::MaybeUninit::uninit();
        let mut ccd = std::mem::MaybeUninit::uninit();
        let mut aim = std::mem::MaybeUninit::uninit();
        let mut hand = std::mem::MaybeUninit::uninit();
        let mut multi = std::mem::MaybeUninit::uninit();
        // SAFETY: each default function fills its struct completely.
        let (mut two, mut fabrik, mut ccd, mut aim, hand, mut multi) = unsafe {
            sinew_two_bone_ik_settings_default(two.as_mut_ptr());
            sinew_fabrik_settings_default(fabrik.as_mut_ptr());
            sinew_ccd_settings_default(ccd.as_mut_ptr());
            sinew_aim_ik_settings_default(aim.as_mut_ptr());
            sinew_hand_ik_retargeting_settings_default(hand.as_mut_ptr());
            sinew_multi_fabrik_settings_default(multi.as_mut_ptr());
            (
                two.assume_init(),
                fabrik.assume_init(),
                ccd.assume_init(),
                aim.assume_init(),
                hand.assume_init(),
                multi.assume_init(),
            )
        };
        two.allow_stretching = 1;
        two.pole_weight = 0.8;
        // A small budget keeps re-solving (probing) cheap in debug builds.
        fabrik.max_iterations = 4;
        ccd.max_iterations = 4;
        // An offset origin off the axis and a clamp, so every field takes part in a solve.
        aim.aim_offset = v(0.1, 0.05, 0.0);
        aim.max_angle_degrees = 120.0;
        aim.max_iterations = 6;
        multi.max_iterations = 4;
        let mut model = [SENT_T; J + 1];
        for (i, t) in model.iter_mut().enumerate() {
            let f = i as f32;
            *t = tr(
                [0.1 * f, 1.0 + 0.05 * f, 0.1 * (i % 3) as f32],
                q([0.0, 1.0, 0.0], 0.1 * f + 0.05),
                1.0,
            );
        }
        let mut weights = [0.0, 0.2, 0.5, 1.0, 1.0, 0.7, 0.3, 0.9, 0.5];
        weights[J] = 0.5;
        let mut parents = [0; J + 1];
        parents[..J].copy_from_slice(&PARENTS);
        let chain3 = [
            tr([0.15, 1.5, 0.0], q(z, -0.2), 1.0),
            tr([0.44, 1.44, 0.0], q(z, 0.2), 1.0),
            tr([0.70, 1.5, 0.0], q([1.0, 0.0, 0.0], 0.1), 1.0),
        ];
        let chain = [
            tr([0.0, 0.0, 0.0], q([0.0, 0.0, 1.0], 0.05), 1.0),
            tr([0.3, 0.05, 0.0], q(z, -0.1), 1.0),
            tr([0.6, 0.0, 0.05], q(z, -0.15), 1.0),
            tr([0.85, -0.05, 0.1], q([0.0, 1.0, 0.0], 0.1), 1.0),
            tr([9.0, 9.0, 9.0], q([1.0, 0.0, 0.0], 0.1), 1.0),
        ];
        // Batch chain `i`: the single solves' chain moved and turned a little more for each `i`,
        // so every lane differs.
        let moved = |t: SinewTransform, i: usize| {
            let f = i as f32;
            let mut t = t;
            t.translation.x += 0.02 * f;
            t.translation.z += 0.1 * f;
            t.rotation = qmul(t.rotation, q([0.2, 1.0, 0.5], 0.07 * f));
            t
        };
        let mut batch3 = [SENT_T; 3 * B + 1];
        let mut batch = [SENT_T; (N + 1) * B];
        for i in 0..B {
            for k in 0..3 {
                batch3[3 * i + k] = moved(chain3[k], i);
            }
            for k in 0..N {
                batch[N * i + k] = moved(chain[k], i);
            }
        }
        let (effector, chain_effector, pole) =
            (v(0.45, 1.2, 0.25), v(0.5, 0.45, 0.2), v(0.3, 1.3, -1.0));
        let per_chain = |p: SinewVec3, d: [f32; 3]| {
            std::array::from_fn(|i| {
                let f = i as f32;
                v(p.x + d[0] * f, p.y + d[1] * f, p.z + 0.1 * f + d[2] * f)
            })
        };
        let out_settings_two = SinewTwoBoneIkSettings {
            weight: SENT_F,
            allow_stretching: SENT_U,
            start_stretch_ratio: SENT_F,
            max_stretch_scale: SENT_F,
            end_rotation: SENT_U as i32,
            soften: SENT_F,
            keep_twist: SENT_U,
            pole_weight: SENT_F,
        };
        Self {
            chain3,
            chain,
            batch3,
            batch,
            model,
            locals: posed(0.05),
            rest: rest(),
            transform: tr([0.1, 1.2, 0.3], q(z, 0.5), 1.0),
            effector,
            chain_effector,
            pose_effector: v(0.35, 1.45, 0.3),
            effector_rotation: q([1.0, 1.0, 0.0], 0.3),
            pole,
            root_parent: q(z, 0.1),
            // Far enough apart that some chains reach and some stretch or fall short.
            batch_effectors3: per_chain(effector, [0.04, -0.08, 0.0]),
            batch_effectors: per_chain(chain_effector, [0.05, 0.12, -0.05]),
            batch_rotations: std::array::from_fn(|i| {
                q([1.0, 1.0, 0.2 * i as f32], 0.3 + 0.2 * i as f32)
            }),
            batch_poles: per_chain(pole, [0.0, 0.05, 0.0]),
            batch_parents: std::array::from_fn(|i| q(z, 0.1 + 0.15 * i as f32)),
            joints: [1, 2, 3, 4, 0, 0],
            apply_joints: [3, 4],
            constraints: [cone(), cone()],
            constraint: cone(),
            hands: SinewHandJoints {
                right_fk: 4,
                left_fk: 3,
                right_ik: 6,
                left_ik: 7,
            },
            bones: [5, 6],
            parents,
            weights,
            layers: [LayerWeight { weight: 0.6 }, LayerWeight { weight: 0.5 }],
            additive: [LayerWeight { weight: 0.7 }, LayerWeight { weight: -0.4 }],
            times: [0.0, 0.4, 0.8],
            v3_values: [v(0.0, 0.0, 0.0), v(0.1, 0.2, 0.0), v(0.2, 0.1, 0.3)],
            s_values: [v(1.0, 1.0, 1.0), v(1.2, 1.0, 1.0), v(0.9, 1.1, 1.0)],
            v3_in: [v(0.1, 0.0, 0.0), v(0.0, 0.1, 0.0), v(0.0, 0.0, 0.1)],
            v3_out: [v(0.0, 0.1, 0.0), v(0.1, 0.0, 0.0), v(0.0, 0.0, -0.1)],
            q_values: [
                q([0.0, 0.0, 1.0], 0.2),
                q([0.0, 1.0, 0.0], 0.5),
                q([1.0, 0.0, 0.0], 1.0),
            ],
            q_in: [SinewQuat {
                x: 0.01,
                y: 0.0,
                z: 0.0,
                w: 0.0,
            }; 3],
            q_out: [SinewQuat {
                x: 0.0,
                y: 0.02,
                z: 0.0,
                w: 0.0,
            }; 3],
            frames: {
                let (a, b) = (posed(0.05), posed(-0.1));
                std::array::from_fn(|i| if i < J { a[i] } else { b[i - J] })
            },
            joint_mask: std::array::from_fn(|j| u8::from(j != 2)),
            two,
            fabrik,
            ccd,
            aim,
            hand,
            multi,
            effectors: [4, 6, 7, 0],
            targets: [
                target(v(0.45, 1.5, 0.3), Some(q([0.0, 1.0, 0.0], 0.4)), 1.0),
                target(v(0.6, 1.9, 0.4), None, 0.5),
                target(v(-0.4, 1.8, 0.2), None, 2.0),
                target(v(9.0, 9.0, 9.0), None, 1.0),
            ],
            out_transforms: [SENT_T; J + 1],
            out_transform: SENT_T,
            out_result: SinewIkResult {
                reached: SENT_U,
                error: SENT_F,
                iterations: SENT_U,
            },
            out_results: [SinewIkResult {
                reached: SENT_U,
                error: SENT_F,
                iterations: SENT_U,
            }; B + 1],
            out_vec3: SENT_T.translation,
            out_floats: [SENT_F; J + 1],
            out_parents: [SENT_U as i32; J + 1],
            out_u32: [SENT_U; 3],
            out_f32: SENT_F,
            out_two: out_settings_two,
            out_fabrik: SinewFabrikSettings {
                precision: SENT_F,
                relative_precision: SENT_U,
                max_iterations: SENT_U,
                stop_when_stalled: SENT_U,
                end_rotation: SENT_U as i32,
            },
            out_ccd: SinewCcdSettings {
                precision: SENT_F,
                relative_precision: SENT_U,
                max_iterations: SENT_U,
                start_from_tail: SENT_U,
                fix_root: SENT_U,
                stop_when_stalled: SENT_U,
                end_rotation: SENT_U as i32,
            },
            out_aim: SinewAimIkSettings {
                aim_axis: SENT_T.translation,
                up_axis: SENT_T.translation,
                aim_offset: SENT_T.translation,
                up_is_position: SENT_U,
                weight: SENT_F,
                max_angle_degrees: SENT_F,
                tolerance: SENT_F,
                max_iterations: SENT_U,
            },
            out_hand: SinewHandIkRetargetingSettings {
                hand_fk_weight: SENT_F,
                per_axis_alpha: SENT_T.translation,
            },
            out_multi: SinewMultiFabrikSettings {
                precision: SENT_F,
                relative_precision: SENT_U,
                max_iterations: SENT_U,
                stop_when_stalled: SENT_U,
                end_rotation: SENT_U as i32,
            },
            out_constraint: SinewJointConstraint {
                r#type: SENT_U as i32,
                limit_twist: SENT_U,
                reference: ID,
                axis: SENT_T.translation,
                swing_half_angle_1: SENT_F,
                swing_half_angle_2: SENT_F,
                min_angle: SENT_F,
                max_angle: SENT_F,
            },
            out_text: [0xA5; 64],
            out_len: SENT_HANDLE,
            out_handle: SENT_HANDLE,
            skin_joints: [3, 0, 7, 1, 5, 2, 6, 4, J as u32],
            inverse_binds: std::array::from_fn(|i| {
                let f = i as f32;
                let bind = Mat4::from_rotation_translation(
                    Quat::from_rotation_y(0.2 * f),
                    Vec3::new(0.1 * f, 1.0 + 0.2 * f, -0.05 * f),
                );
                bind.inverse().into()
            }),
            out_matrices: [SENT_M; J + 1],
        }
    }

    /// Every field, as labelled segments.
    pub fn segments(&self, p: &mut Probe) {
        use crate::probe::Kind::*;
        p.push("chain3", UnitTransforms, words(&self.chain3));
        p.push("chain", UnitTransforms, words(&self.chain));
        p.push("batch3", UnitTransforms, words(&self.batch3));
        p.push("batch", UnitTransforms, words(&self.batch));
        p.push("model", Transforms, words(&self.model));
        p.push("locals", Raw, words(&self.locals));
        p.push("rest", Raw, words(&self.rest));
        p.push("transform", Raw, words(&self.transform));
        p.push("effector", Raw, words(&self.effector));
        p.push("chain_effector", Raw, words(&self.chain_effector));
        p.push("pose_effector", Raw, words(&self.pose_effector));
        p.push("effector_rotation", Raw, words(&self.effector_rotation));
        p.push("pole", Raw, words(&self.pole));
        p.push("root_parent", Raw, words(&self.root_parent));
        p.push("batch_effectors3", Raw, words(&self.batch_effectors3));
        p.push("batch_effectors", Raw, words(&self.batch_effectors));
        p.push("batch_rotations", Raw, words(&self.batch_rotations));
        p.push("batch_poles", Raw, words(&self.batch_poles));
        p.push("batch_parents", Raw, words(&self.batch_parents));
        p.push("joints", Raw, words(&self.joints));
        p.push("apply_joints", Raw, words(&self.apply_joints));
        p.push("constraints", Raw, words(&self.constraints));
        p.push("constraint", Raw, words(&self.constraint));
        p.push("hands", Raw, words(&self.hands));
        p.push("bones", Raw, words(&self.bones));
        p.push("parents", Raw, words(&self.parents));
        p.push("weights", Raw, words(&self.weights));
        p.push("layer weights", Raw, words(&self.layers.map(|l| l.weight)));
        let additive = self.additive.map(|l| l.weight);
        p.push("additive layer weights", Raw, words(&additive));
        p.push("times", Raw, words(&self.times));
        p.push("v3_values", Raw, words(&self.v3_values));
        p.push("s_values", Raw, words(&self.s_values));
        p.push("v3_in", Raw, words(&self.v3_in));
        p.push("v3_out", Raw, words(&self.v3_out));
        p.push("q_values", Raw, words(&self.q_values));
        p.push("q_in", Raw, words(&self.q_in));
        p.push("q_out", Raw, words(&self.q_out));
        p.push("two", Raw, words(&self.two));
        p.push("fabrik", Raw, words(&self.fabrik));
        p.push("aim", Raw, words(&self.aim));
        p.push("ccd", Raw, words(&self.ccd));
        p.push("hand", Raw, words(&self.hand));
        p.push("multi", Raw, words(&self.multi));
        p.push("effectors", Raw, words(&self.effectors));
        p.push("targets", Raw, words(&self.targets));
        p.push(
            "out_transforms",
            UnitTransforms,
            words(&self.out_transforms),
        );
        p.push("out_transform", UnitTransforms, words(&self.out_transform));
        p.push("out_result", Raw, words(&self.out_result));
        p.push("out_result.error", Floats, words(&self.out_result.error));
        p.push("out_results", Raw, words(&self.out_results));
        p.push(
            "out_results.error",
            Floats,
            words(&self.out_results.map(|r| r.error)),
        );
        p.push("out_vec3", Floats, words(&self.out_vec3));
        p.push("out_floats", Floats, words(&self.out_floats));
        p.push("out_parents", Raw, words(&self.out_parents));
        p.push("out_u32", Raw, words(&self.out_u32));
        p.push("out_f32", Floats, words(&self.out_f32));
        p.push("out_two", Raw, words(&self.out_two));
        p.push("out_fabrik", Raw, words(&self.out_fabrik));
        p.push("out_aim", Raw, words(&self.out_aim));
        p.push("out_ccd", Raw, words(&self.out_ccd));
        p.push("out_hand", Raw, words(&self.out_hand));
        p.push("out_multi", Raw, words(&self.out_multi));
        p.push("out_constraint", Raw, words(&self.out_constraint));
        p.push("out_text", Raw, words(&self.out_text));
        p.push("out_len", Raw, words(&self.out_len));
        p.push("out_handle", Raw, words(&self.out_handle));
        p.push("skin_joints", Raw, words(&self.skin_joints));
        p.push("inverse_binds", Raw, words(&self.inverse_binds));
        p.push("out_matrices", Floats, words(&self.out_matrices));
    }
}

/// The bytes of a padding-free value, as 32-bit words.
pub fn words<T: Copy>(value: &T) -> Vec<u32> {
    words_of(std::slice::from_ref(value))
}

/// The bytes of a slice of padding-free values, as 32-bit words.
pub fn words_of<T: Copy>(values: &[T]) -> Vec<u32> {
    let size = std::mem::size_of_val(values);
    assert_eq!(size % 4, 0);
    let p = values.as_ptr().cast::<u8>();
    if p.align_offset(4) == 0 {
        // SAFETY: `T` is one of this file's padding-free types (only 4-byte scalars, or a
        // usize), so all `size` bytes are initialized; the pointer is 4-aligned.
        return unsafe { std::slice::from_raw_parts(p.cast::<u32>(), size / 4) }.to_vec();
    }
    // SAFETY: as above (a byte array at an unaligned offset).
    let bytes = unsafe { std::slice::from_raw_parts(p, size) };
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_ne_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// A float argument or field resolved by its path in the header (`translation.x`, ...).
/// Buffers of other element types have no float to resolve.
pub trait Floats {
    fn float_mut(&mut self, _path: &str) -> Option<&mut f32> {
        None
    }
}

impl Floats for u8 {}
impl Floats for u32 {}
impl Floats for i32 {}
impl Floats for usize {}
impl Floats for SinewIkResult {}
impl Floats for SinewHandJoints {}

impl Floats for f32 {
    fn float_mut(&mut self, path: &str) -> Option<&mut f32> {
        path.is_empty().then_some(self)
    }
}

/// `Floats` for a struct whose float fields are named directly.
macro_rules! flat_floats {
    ($($t:ty: $($field:ident),+;)*) => {
        $(impl Floats for $t {
            fn float_mut(&mut self, path: &str) -> Option<&mut f32> {
                match path {
                    $(stringify!($field) => Some(&mut self.$field),)+
                    _ => None,
                }
            }
        })*
    };
}

flat_floats! {
    LayerWeight: weight;
    SinewTwoBoneIkSettings: weight, start_stretch_ratio, max_stretch_scale, soften, pole_weight;
    SinewFabrikSettings: precision;
    SinewCcdSettings: precision;
    SinewMultiFabrikSettings: precision;
    SinewMat4: m00, m10, m20, m30, m01, m11, m21, m31, m02, m12, m22, m32, m03, m13, m23, m33;
}

/// Vectors and quaternions by component; `x[4]` (a structure-of-arrays block's lanes) is the
/// same component of the chain the block holds in that lane, which the SoA batch reads from
/// the world's arrays of single items (`batch::soa`).
macro_rules! component_floats {
    ($($t:ty: $($field:ident),+;)*) => {
        $(impl Floats for $t {
            fn float_mut(&mut self, path: &str) -> Option<&mut f32> {
                match path.strip_suffix("[4]").unwrap_or(path) {
                    $(stringify!($field) => Some(&mut self.$field),)+
                    _ => None,
                }
            }
        })*
    };
}

component_floats! {
    SinewVec3: x, y, z;
    SinewQuat: x, y, z, w;
}

pub fn split(path: &str) -> (&str, &str) {
    path.split_once('.').unwrap_or((path, ""))
}

impl Floats for SinewTransform {
    fn float_mut(&mut self, path: &str) -> Option<&mut f32> {
        match split(path) {
            ("translation", rest) => self.translation.float_mut(rest),
            ("rotation", rest) => self.rotation.float_mut(rest),
            ("scale", rest) => self.scale.float_mut(rest),
            _ => None,
        }
    }
}

impl Floats for SinewJointConstraint {
    fn float_mut(&mut self, path: &str) -> Option<&mut f32> {
        match split(path) {
            ("reference", rest) => self.reference.float_mut(rest),
            ("axis", rest) => self.axis.float_mut(rest),
            (field, "") => {
                let angles = [
                    ("swing_half_angle_1", &mut self.swing_half_angle_1),
                    ("swing_half_angle_2", &mut self.swing_half_angle_2),
                    ("min_angle", &mut self.min_angle),
                    ("max_angle", &mut self.max_angle),
                ];
                angles
                    .into_iter()
                    .find(|(name, _)| *name == field)
                    .map(|(_, f)| f)
            }
            _ => None,
        }
    }
}

impl Floats for SinewAimIkSettings {
    fn float_mut(&mut self, path: &str) -> Option<&mut f32> {
        match split(path) {
            ("aim_axis", rest) => self.aim_axis.float_mut(rest),
            ("up_axis", rest) => self.up_axis.float_mut(rest),
            ("aim_offset", rest) => self.aim_offset.float_mut(rest),
            ("weight", "") => Some(&mut self.weight),
            ("max_angle_degrees", "") => Some(&mut self.max_angle_degrees),
            ("tolerance", "") => Some(&mut self.tolerance),
            _ => None,
        }
    }
}

impl Floats for SinewEffectorTarget {
    fn float_mut(&mut self, path: &str) -> Option<&mut f32> {
        match split(path) {
            ("position", rest) => self.position.float_mut(rest),
            ("rotation", rest) => self.rotation.float_mut(rest),
            ("weight", "") => Some(&mut self.weight),
            _ => None,
        }
    }
}

impl Floats for SinewHandIkRetargetingSettings {
    fn float_mut(&mut self, path: &str) -> Option<&mut f32> {
        match split(path) {
            ("hand_fk_weight", "") => Some(&mut self.hand_fk_weight),
            ("per_axis_alpha", rest) => self.per_axis_alpha.float_mut(rest),
            _ => None,
        }
    }
}

/// A buffer of the world: its address for a call, or its elements for planting bad floats.
pub trait Buffer<'a> {
    fn ptr(self: Box<Self>) -> *mut c_void;
    fn elements(self: Box<Self>) -> Vec<&'a mut dyn Floats>;
}

impl<'a, T: Floats + 'a> Buffer<'a> for &'a mut [T] {
    fn ptr(self: Box<Self>) -> *mut c_void {
        (*self).as_mut_ptr().cast()
    }

    fn elements(self: Box<Self>) -> Vec<&'a mut dyn Floats> {
        (*self).iter_mut().map(|x| x as &mut dyn Floats).collect()
    }
}

/// The buffer an export reads or writes for pointer argument `param` (as many elements as the
/// call passes); `None` for a parameter no rule covers.
pub fn slot<'a>(b: &'a mut Bufs, export: &str, param: &str) -> Option<Box<dyn Buffer<'a> + 'a>> {
    fn all<'a, T: Floats + 'a>(s: &'a mut [T]) -> Box<dyn Buffer<'a> + 'a> {
        Box::new(s)
    }
    fn one<'a, T: Floats + 'a>(x: &'a mut T) -> Box<dyn Buffer<'a> + 'a> {
        all(std::slice::from_mut(x))
    }
    let rotation_track = export == "sinew_clip_set_rotation_track";
    let solver = export.split('_').nth(1).unwrap_or_default();
    Some(match param {
        // Inputs and in/out arrays.
        "chain" if export == "sinew_two_bone_ik_solve" => all(&mut b.chain3),
        // The SoA batch reads the same chains, arranged in blocks for the call (`batch::soa`).
        "chains" if export.starts_with("sinew_two_bone_ik_solve_batch") => {
            all(&mut b.batch3[..3 * B])
        }
        "chains" => all(&mut b.batch[..N * B]),
        "effector_positions" if export.starts_with("sinew_two_bone_ik_solve_batch") => {
            all(&mut b.batch_effectors3)
        }
        "effector_positions" => all(&mut b.batch_effectors),
        "effector_rotations" => all(&mut b.batch_rotations),
        "joint_targets" | "up_targets" => all(&mut b.batch_poles),
        "target_positions" => all(&mut b.batch_effectors),
        "root_parent_rotations" => all(&mut b.batch_parents),
        "chain" => all(&mut b.chain[..N]),
        "effector_position" if export == "sinew_two_bone_ik_solve" => one(&mut b.effector),
        "effector_position" | "target_position" if export.ends_with("_solve_pose") => {
            one(&mut b.pose_effector)
        }
        "effector_position" | "target_position" => one(&mut b.chain_effector),
        "effector_rotation" => one(&mut b.effector_rotation),
        "joint_target" | "up_target" => one(&mut b.pole),
        "root_parent_rotation" => one(&mut b.root_parent),
        "settings" | "out_settings" | "out" => match (param, solver) {
            ("settings", "two") => one(&mut b.two),
            ("settings", "fabrik") => one(&mut b.fabrik),
            ("settings", "ccd") => one(&mut b.ccd),
            ("settings", "aim") => one(&mut b.aim),
            ("settings", "hand") => one(&mut b.hand),
            ("settings", "multi") => one(&mut b.multi),
            (_, "two") => one(&mut b.out_two),
            (_, "fabrik") => one(&mut b.out_fabrik),
            (_, "ccd") => one(&mut b.out_ccd),
            (_, "aim") => one(&mut b.out_aim),
            (_, "hand") => one(&mut b.out_hand),
            (_, "multi") => one(&mut b.out_multi),
            (_, "joint") => one(&mut b.out_constraint),
            _ => return None,
        },
        "constraint" => one(&mut b.constraint),
        "constraints" => all(&mut b.constraints),
        "model" => all(&mut b.model[..J]),
        "local" => all(&mut b.locals[..J]),
        "rest_pose" => all(&mut b.rest[..J]),
        "transform" => one(&mut b.transform),
        "times" => all(&mut b.times),
        "values" if rotation_track => all(&mut b.q_values),
        "values" if export == "sinew_clip_set_scale_track" => all(&mut b.s_values),
        "values" => all(&mut b.v3_values),
        "in_tangents" if rotation_track => all(&mut b.q_in),
        "in_tangents" => all(&mut b.v3_in),
        "out_tangents" if rotation_track => all(&mut b.q_out),
        "out_tangents" => all(&mut b.v3_out),
        "frames" => all(&mut b.frames[..2 * J]),
        "joint_mask" => all(&mut b.joint_mask),
        "weights" => all(&mut b.weights[..J]),
        "layers" => all(&mut b.layers),
        "additive" => all(&mut b.additive),
        "parents" => all(&mut b.parents[..J]),
        "joints" if export == "sinew_pose_apply_constraints" => all(&mut b.apply_joints),
        "joints" if export == "sinew_skin_create" => all(&mut b.skin_joints[..J]),
        "joints" => all(&mut b.joints),
        "effectors" => all(&mut b.effectors[..M]),
        "targets" => all(&mut b.targets[..M]),
        "hands" => one(&mut b.hands),
        "bones" => all(&mut b.bones),
        // Outputs.
        "out_result" => one(&mut b.out_result),
        "out_results" => all(&mut b.out_results),
        "out_local" | "out_model" | "out_rest_pose" => all(&mut b.out_transforms),
        "out_transform" => one(&mut b.out_transform),
        "out_offset" => one(&mut b.out_vec3),
        "out_weights" | "out_times" => all(&mut b.out_floats),
        "out_parents" => all(&mut b.out_parents),
        "out_count" | "out_index" | "out_queued" | "out_active" | "out_wrap" | "major" => {
            one(&mut b.out_u32[0])
        }
        "minor" => one(&mut b.out_u32[1]),
        "patch" => one(&mut b.out_u32[2]),
        "out_duration" | "out_remaining" => one(&mut b.out_f32),
        "buf" => all(&mut b.out_text),
        "out_len" => one(&mut b.out_len),
        "inverse_binds" => all(&mut b.inverse_binds[..J]),
        "out_matrices" | "out_palette" => all(&mut b.out_matrices),
        _ => return None,
    })
}

/// The elements of a buffer of `count` the generated float cases spoil, one per case: every
/// one, except in a batch's per-chain arrays, where only chain [`BAD`]'s (the chains before it
/// stay clean, so a write before every input was checked would show in them).
pub fn planted(export: &str, count: usize) -> std::ops::Range<usize> {
    if is_batch(export) {
        let per_chain = count / B;
        BAD * per_chain..(BAD + 1) * per_chain
    } else {
        0..count
    }
}

pub fn is_batch(export: &str) -> bool {
    export.ends_with("_solve_batch") || export.ends_with("_solve_batch_soa")
}

/// Handles of every kind, in a known state, plus the buffers.
pub struct World {
    pub skel: *mut SinewSkeleton,
    pub skel2: *mut SinewSkeleton,
    pub pose_a: *mut SinewPose,
    pub pose_b: *mut SinewPose,
    pub pose_out: *mut SinewPose,
    pub pose2: *mut SinewPose,
    /// Of `skel3`: as many joints as `skel`, other parents.
    pub skel3: *mut SinewSkeleton,
    pub pose3: *mut SinewPose,
    pub mask: *mut SinewJointMask,
    pub mask2: *mut SinewJointMask,
    pub two_bone: *mut SinewTwoBoneIk,
    pub fabrik: *mut SinewFabrik,
    pub ccd: *mut SinewCcd,
    pub aim: *mut SinewAimIk,
    pub hand: *mut SinewHandIkRetargeting,
    pub multi: *mut SinewMultiFabrik,
    /// Editable (no controller holds it).
    pub clip: *mut SinewClip,
    /// Held by the crossfade.
    pub clip_a: *mut SinewClip,
    pub clip_b: *mut SinewClip,
    /// Of `skel2`.
    pub clip2: *mut SinewClip,
    pub cursor: *mut SinewClipCursor,
    pub cursor2: *mut SinewClipCursor,
    pub crossfade: *mut SinewCrossfade,
    /// Of `skel`, every joint (shuffled); `skin2` of `skel2`.
    pub skin: *mut SinewSkin,
    pub skin2: *mut SinewSkin,
    pub b: Bufs,
    /// `sinew_skeleton_create`'s joint names and `sinew_skeleton_find_joint`'s name (static
    /// strings; a case's setup may point them elsewhere).
    pub names: [*const c_char; J],
    pub name: *const c_char,
    /// `sinew_pose_blend_layers(_additive)`'s layers and additive layers, filled from the
    /// world's handles for each call.
    pub layers: [SinewBlendLayer; 2],
    pub additive: [SinewBlendLayer; 2],
}

#[track_caller]
pub fn ok(status: St) {
    assert_eq!(status, St::Ok, "world setup: {}", message());
}

impl World {
    pub fn new() -> Box<Self> {
        let mut w = Box::new(World {
            skel: null_mut(),
            skel2: null_mut(),
            pose_a: null_mut(),
            pose_b: null_mut(),
            pose_out: null_mut(),
            pose2: null_mut(),
            skel3: null_mut(),
            pose3: null_mut(),
            mask: null_mut(),
            mask2: null_mut(),
            two_bone: null_mut(),
            fabrik: null_mut(),
            ccd: null_mut(),
            aim: null_mut(),
            hand: null_mut(),
            multi: null_mut(),
            clip: null_mut(),
            clip_a: null_mut(),
            clip_b: null_mut(),
            clip2: null_mut(),
            cursor: null_mut(),
            cursor2: null_mut(),
            crossfade: null_mut(),
            skin: null_mut(),
            skin2: null_mut(),
            b: Bufs::new(),
            names: NAMES.map(CStr::as_ptr),
            name: c"forearm".as_ptr(),
            layers: [SinewBlendLayer {
                pose: null(),
                weight: 0.0,
                mask: null(),
            }; 2],
            additive: [SinewBlendLayer {
                pose: null(),
                weight: 0.0,
                mask: null(),
            }; 2],
        });
        let b = Bufs::new();
        let names = NAMES.map(CStr::as_ptr);
        let rest2 = [
            tr([0.0, 0.0, 0.0], ID, 1.0),
            tr([0.3, 0.0, 0.0], q([0.0, 0.0, 1.0], 0.2), 1.0),
            tr([0.3, 0.0, 0.0], ID, 1.0),
        ];
        let rot = |angle: f32| [ID, q([0.0, 1.0, 0.0], angle), q([1.0, 0.0, 0.0], -angle)];
        // SAFETY: every pointer is to a live local or a handle created just before.
        unsafe {
            ok(sinew_skeleton_create(
                PARENTS.as_ptr(),
                b.rest.as_ptr(),
                names.as_ptr(),
                J as u32,
                &mut w.skel,
            ));
            ok(sinew_skeleton_create(
                [-1, 0, 1].as_ptr(),
                rest2.as_ptr(),
                null(),
                J2 as u32,
                &mut w.skel2,
            ));
            for pose in [&mut w.pose_a, &mut w.pose_b, &mut w.pose_out] {
                ok(sinew_pose_create(w.skel, pose));
            }
            ok(sinew_pose_create(w.skel2, &mut w.pose2));
            ok(sinew_skeleton_create(
                PARENTS3.as_ptr(),
                b.rest.as_ptr(),
                null(),
                J as u32,
                &mut w.skel3,
            ));
            ok(sinew_pose_create(w.skel3, &mut w.pose3));
            ok(sinew_pose_set_local(
                w.pose_a,
                posed(0.15).as_ptr(),
                J as u32,
            ));
            ok(sinew_pose_set_local(
                w.pose_b,
                posed(-0.25).as_ptr(),
                J as u32,
            ));
            ok(sinew_joint_mask_create(w.skel, 0.0, &mut w.mask));
            ok(sinew_joint_mask_set_weights(
                w.mask,
                b.weights.as_ptr(),
                J as u32,
            ));
            ok(sinew_joint_mask_create(w.skel2, 0.5, &mut w.mask2));
            ok(sinew_two_bone_ik_create(&b.two, &mut w.two_bone));
            ok(sinew_fabrik_create(&b.fabrik, N as u32, &mut w.fabrik));
            ok(sinew_fabrik_set_constraint(w.fabrik, 1, &cone()));
            ok(sinew_ccd_create(&b.ccd, N as u32, &mut w.ccd));
            ok(sinew_ccd_set_constraint(w.ccd, 2, &cone()));
            // Binding in the probe solves, so a change of per-joint tuning shows.
            ok(sinew_ccd_set_joint(w.ccd, 1, 8.0, 0.8));
            ok(sinew_aim_ik_create(&b.aim, N as u32, &mut w.aim));
            // Binding in the probe solves, so a change of per-joint tuning shows.
            ok(sinew_aim_ik_set_joint(w.aim, 1, 2.0, 20.0));
            let mut hand = b.hand;
            hand.hand_fk_weight = 0.3;
            ok(sinew_hand_ik_retargeting_create(&hand, &mut w.hand));
            ok(sinew_multi_fabrik_create(
                &b.multi,
                J as u32,
                M as u32,
                &mut w.multi,
            ));
            ok(sinew_multi_fabrik_set_constraint(w.multi, 2, &cone()));
            let times = b.times.as_ptr();
            ok(sinew_clip_create(w.skel, 1.0, &mut w.clip));
            ok(sinew_clip_set_translation_track(
                w.clip,
                1,
                SinewInterpolation::Linear as i32,
                times,
                b.v3_values.as_ptr(),
                null(),
                null(),
                3,
            ));
            rotation_track(w.clip, 3, SinewInterpolation::Slerp, &b.times, &b.q_values);
            ok(sinew_clip_set_scale_track(
                w.clip,
                4,
                SinewInterpolation::Cubic as i32,
                times,
                b.s_values.as_ptr(),
                b.v3_in.as_ptr(),
                b.v3_out.as_ptr(),
                3,
            ));
            ok(sinew_clip_create(w.skel, 1.0, &mut w.clip_a));
            rotation_track(w.clip_a, 2, SinewInterpolation::Linear, &b.times, &rot(0.6));
            ok(sinew_clip_create(w.skel, 0.5, &mut w.clip_b));
            let (fast, linear) = ([0.0, 0.2, 0.4], SinewInterpolation::Linear);
            rotation_track(w.clip_b, 3, linear, &fast, &rot(-0.8));
            ok(sinew_clip_set_translation_track(
                w.clip_b,
                0,
                SinewInterpolation::Step as i32,
                [0.0, 0.25].as_ptr(),
                [v(0.0, 1.0, 0.0), v(0.1, 1.0, 0.0)].as_ptr(),
                null(),
                null(),
                2,
            ));
            ok(sinew_clip_create(w.skel2, 1.0, &mut w.clip2));
            rotation_track(w.clip2, 1, SinewInterpolation::Linear, &b.times, &rot(0.4));
            ok(sinew_clip_cursor_create(w.clip, &mut w.cursor));
            ok(sinew_clip_cursor_create(w.clip2, &mut w.cursor2));
            ok(sinew_crossfade_create(w.skel, 2, &mut w.crossfade));
            ok(sinew_crossfade_play(w.crossfade, w.clip_a, 1));
            ok(sinew_crossfade_update(w.crossfade, 0.1));
            ok(sinew_crossfade_fade_to(
                w.crossfade,
                w.clip_b,
                0.4,
                SinewFadeCurve::Linear as i32,
                1,
                null_mut(),
            ));
            ok(sinew_crossfade_update(w.crossfade, 0.1));
            ok(sinew_skin_create(
                w.skel,
                b.skin_joints.as_ptr(),
                b.inverse_binds.as_ptr(),
                J as u32,
                &mut w.skin,
            ));
            ok(sinew_skin_create(
                w.skel2,
                null(),
                b.inverse_binds.as_ptr(),
                J2 as u32,
                &mut w.skin2,
            ));
        }
        w
    }
}

/// Sets a rotation track of three keys without tangents.
///
/// # Safety
///
/// `clip` is a live, editable clip of a skeleton with `joint`.
unsafe fn rotation_track(
    clip: *mut SinewClip,
    joint: u32,
    interpolation: SinewInterpolation,
    times: &[f32; 3],
    values: &[SinewQuat; 3],
) {
    let (t, v) = (times.as_ptr(), values.as_ptr());
    ok(sinew_clip_set_rotation_track(
        clip,
        joint,
        interpolation as i32,
        t,
        v,
        null(),
        null(),
        3,
    ));
}

impl Drop for World {
    fn drop(&mut self) {
        // SAFETY: every handle is live or NULL (destroying NULL is a no-op).
        unsafe {
            sinew_crossfade_destroy(self.crossfade);
            sinew_skin_destroy(self.skin);
            sinew_skin_destroy(self.skin2);
            for c in [self.cursor, self.cursor2] {
                sinew_clip_cursor_destroy(c);
            }
            for c in [self.clip, self.clip_a, self.clip_b, self.clip2] {
                sinew_clip_destroy(c);
            }
            sinew_hand_ik_retargeting_destroy(self.hand);
            sinew_multi_fabrik_destroy(self.multi);
            sinew_ccd_destroy(self.ccd);
            sinew_aim_ik_destroy(self.aim);
            sinew_fabrik_destroy(self.fabrik);
            sinew_two_bone_ik_destroy(self.two_bone);
            sinew_joint_mask_destroy(self.mask);
            sinew_joint_mask_destroy(self.mask2);
            for p in [
                self.pose_a,
                self.pose_b,
                self.pose_out,
                self.pose2,
                self.pose3,
            ] {
                sinew_pose_destroy(p);
            }
            sinew_skeleton_destroy(self.skel);
            sinew_skeleton_destroy(self.skel2);
            sinew_skeleton_destroy(self.skel3);
        }
    }
}

/// This thread's last error message, read through the C ABI.
pub fn message() -> String {
    let mut len = 0usize;
    // SAFETY: NULL with capacity 0 asks for the length only; then a buffer of len + 1 bytes.
    unsafe {
        assert_eq!(sinew_last_error_message(null_mut(), 0, &mut len), St::Ok);
        let mut buf = vec![0u8; len + 1];
        assert_eq!(
            sinew_last_error_message(buf.as_mut_ptr().cast(), buf.len(), null_mut()),
            St::Ok
        );
        CStr::from_bytes_until_nul(&buf)
            .unwrap()
            .to_string_lossy()
            .into_owned()
    }
}

/// Leaves a stale error message that no case's own failure can produce, and returns it.
pub fn plant_marker(w: &World) -> String {
    stale_marker(w.skel)
}

/// [`plant_marker`] through the world's skeleton handle.
pub fn stale_marker(skel: *mut SinewSkeleton) -> String {
    let mut index = 0u32;
    // SAFETY: a live skeleton, a NUL-terminated name and a local out-pointer.
    let s = unsafe { sinew_skeleton_find_joint(skel, c"\u{1}stale marker".as_ptr(), &mut index) };
    assert_eq!(s, St::NotFound);
    let m = message();
    assert!(!m.is_empty());
    m
}
