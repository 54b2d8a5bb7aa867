//! One table-driven test over every `sinew_*` export and every class of bad input that applies to
//! it. The table is data: each [`Case`] names an export, the argument or field it spoils, the
//! class of bad input, a setup (planting the bad value in the world's buffers or handles) and a
//! call of the export, and the statuses the documentation allows.
//!
//! Completeness is checked against `include/sinew.h`, parsed here: every export must have cases,
//! every pointer argument (and pointer field of an input struct) a NULL case, every float
//! argument and every float field of an input struct or array (`SinewTransform`, settings,
//! constraints, keys, weights, layers) a case for each of NaN, +Inf, -Inf, 1e30 and 1e-40 (in
//! every element of the array; in a batch's per-chain arrays, every element of chain [`BAD`] of
//! [`B`]), every integer argument or input field at least one case (out of range, count, enum or
//! flag value). NULL and float cases are generated from the header, so a new
//! argument or field without a rule here fails the test.
//!
//! Each case runs against a fresh [`World`] (handles of every kind plus every buffer the exports
//! read or write) and checks:
//!
//! - the status is one the documentation gives (never `SINEW_STATUS_PANIC`);
//! - on failure, `sinew_last_error_message` is non-empty (and not the stale message planted
//!   before the call), and mentions the argument or chain at fault where the case names it; on
//!   success it is empty (functions returning nothing, and reading the message itself, leave it
//!   alone);
//! - on failure, nothing changed, byte for byte: every caller buffer (in/out chains, out
//!   pointers, out handles), every pose (`sinew_pose_get_local`), mask (`get_weights`), skeleton,
//!   clip (sampling), crossfade (weights, times, inertialization, pose, and its future updates)
//!   and solver (settings and re-solving fixed chains, which sees constraints and per-joint
//!   tuning) is compared with a twin world that got the same setup but not the call;
//! - on success (1e30 and denormals may be accepted), every float any export then reports is
//!   finite, every pose rotation is unit length, and re-solving, sampling and updating all
//!   succeed (`SINEW_STATUS_NUMERIC_OVERFLOW` is tolerated there only after a huge value in an
//!   unbounded field was accepted);
//! - for the batch exports (`*_solve_batch`), whose NUMERIC_OVERFLOW is a partial success, the
//!   base call first replays every chain through the single solve on copies and judges the
//!   batch against that ([`check_batch`]): a chain the single solve rejects must fail the whole
//!   batch with the same status and a message starting `chain <i>: `; otherwise every chain
//!   must hold the single solve's result exactly (two-bone, FABRIK and CCD alike), an
//!   overflowing chain and everything past the count stay untouched, and the status names the
//!   first overflowing chain.
//!
//! Where the documentation names a status it is the expectation; where it only says "rejected",
//! the expectation is the status whose `SinewStatus` description fits, as the library reports it
//! today (noted at the case).

use std::collections::{BTreeMap, BTreeSet};
use std::ffi::{c_char, c_void, CStr};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::ptr::{null, null_mut};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Instant;

use sinew::ffi::SinewStatus as St;
use sinew::ffi::*;
use sinew::{Quat, Vec3};

// ------------------------------------------------------------------------------ the header

const HEADER: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/include/sinew.h");

/// A declaration `type name` from the header: base type, pointer depth, const pointee.
#[derive(Clone, Debug)]
struct Decl {
    name: String,
    base: String,
    ptr: usize,
    konst: bool,
}

#[derive(Debug)]
struct Func {
    name: String,
    void: bool,
    params: Vec<Decl>,
}

fn strip_comments(src: &str) -> String {
    let b = src.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    let find = |from: usize, pat: &[u8]| b[from..].windows(pat.len()).position(|w| w == pat);
    while i < b.len() {
        if b[i..].starts_with(b"/*") {
            match find(i + 2, b"*/") {
                Some(e) => i += 2 + e + 2,
                None => break,
            }
        } else if b[i..].starts_with(b"//") {
            match find(i, b"\n") {
                Some(e) => i += e,
                None => break,
            }
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out)
        .lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .collect::<Vec<_>>()
        .join("\n")
}

fn parse_decl(s: &str) -> Decl {
    let words: Vec<&str> = s
        .split(|c: char| c.is_whitespace() || c == '*')
        .filter(|w| !w.is_empty())
        .collect();
    Decl {
        name: words.last().expect("a declaration has a name").to_string(),
        base: words
            .iter()
            .find(|w| **w != "const")
            .expect("a declaration has a type")
            .to_string(),
        ptr: s.matches('*').count(),
        konst: words[0] == "const",
    }
}

/// The exports and the `typedef struct { ... } Name;` definitions of the header.
fn parse_header() -> (Vec<Func>, BTreeMap<String, Vec<Decl>>) {
    let text = strip_comments(&std::fs::read_to_string(HEADER).expect("read include/sinew.h"));
    let mut structs = BTreeMap::new();
    let mut rest = text.as_str();
    while let Some(start) = rest.find("typedef struct {") {
        let body_start = start + "typedef struct {".len();
        let close = body_start + rest[body_start..].find('}').expect("struct end");
        let semi = close + rest[close..].find(';').expect("struct name");
        let name = rest[close + 1..semi].trim().to_string();
        let fields = rest[body_start..close]
            .split(';')
            .filter(|f| !f.trim().is_empty())
            .map(parse_decl)
            .collect();
        structs.insert(name, fields);
        rest = &rest[semi..];
    }
    let mut funcs = Vec::new();
    for chunk in text.split(';') {
        let Some(open) = chunk.find('(') else {
            continue;
        };
        let head: Vec<&str> = chunk[..open]
            .split(|c: char| c.is_whitespace() || c == '*')
            .filter(|w| !w.is_empty())
            .collect();
        let name = head.last().copied().unwrap_or_default();
        if !name.starts_with("sinew_") {
            continue;
        }
        let ret = head[head.len() - 2];
        let close = chunk.rfind(')').expect("parameter list end");
        let list = chunk[open + 1..close].trim();
        let params = if list.is_empty() || list == "void" {
            Vec::new()
        } else {
            list.split(',').map(parse_decl).collect()
        };
        funcs.push(Func {
            name: name.to_string(),
            void: ret == "void" && !chunk[..open].contains('*'),
            params,
        });
    }
    (funcs, structs)
}

/// What the header requires of the table for one argument or field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Need {
    Null,
    Float(Class),
    /// Any non-NULL case (integers: out of range, counts, enum and flag values).
    Other,
}

type Key = (String, String, Need);

/// Every (export, argument or field path, need) the header implies. Inputs are arguments passed
/// by value, pointers to const, and non-const pointers to structs not named `out*` (in/out
/// arrays such as `chain` and `model`); their struct fields are followed recursively.
fn requirements(funcs: &[Func], structs: &BTreeMap<String, Vec<Decl>>) -> BTreeSet<Key> {
    fn walk(
        export: &str,
        path: &str,
        ty: &str,
        structs: &BTreeMap<String, Vec<Decl>>,
        out: &mut BTreeSet<Key>,
    ) {
        let Some(fields) = structs.get(ty) else {
            return;
        };
        for f in fields {
            let p = format!("{path}.{}", f.name);
            if f.ptr > 0 {
                out.insert((export.into(), p, Need::Null));
            } else if f.base == "float" {
                floats(export, &p, out);
            } else if structs.contains_key(&f.base) {
                walk(export, &p, &f.base, structs, out);
            } else {
                out.insert((export.into(), p, Need::Other));
            }
        }
    }
    fn floats(export: &str, path: &str, out: &mut BTreeSet<Key>) {
        for (class, _) in FLOAT_CLASSES {
            out.insert((export.into(), path.into(), Need::Float(class)));
        }
    }
    let mut out = BTreeSet::new();
    for f in funcs {
        for p in &f.params {
            if p.ptr == 0 {
                if p.base == "float" {
                    floats(&f.name, &p.name, &mut out);
                } else {
                    out.insert((f.name.clone(), p.name.clone(), Need::Other));
                }
                continue;
            }
            out.insert((f.name.clone(), p.name.clone(), Need::Null));
            let input = p.konst || (structs.contains_key(&p.base) && !p.name.starts_with("out"));
            if p.ptr != 1 || !input {
                continue;
            }
            match p.base.as_str() {
                "float" => floats(&f.name, &p.name, &mut out),
                "int32_t" | "uint32_t" => {
                    out.insert((f.name.clone(), p.name.clone(), Need::Other));
                }
                ty => walk(&f.name, &p.name, ty, structs, &mut out),
            }
        }
    }
    out
}

// ------------------------------------------------------------------------------ classes

/// The class of bad input a case feeds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Class {
    Null,
    Nan,
    PosInf,
    NegInf,
    Huge,
    Denormal,
    /// An index outside its range (joint indices, chain joints, hand joints, bones).
    Range,
    /// A count of 0, below a minimum or above a limit.
    Count,
    /// Sizes that must agree do not (pose vs skeleton, mask, clip, cursor, buffer).
    Size,
    /// Zero-length bones, coincident points and other degenerate geometry (solved, not rejected).
    Degenerate,
    /// Cyclic, self-parented, forward-referencing or otherwise invalid parent arrays.
    Parents,
    /// Unsorted, duplicate or out-of-clip key times.
    Keys,
    /// An enum or flag value outside its set.
    Enum,
    /// A value outside its documented domain (negative weight, zero axis, ...).
    Domain,
    /// The output is also an input where that is not allowed.
    Alias,
    /// The handle is in a state that forbids the call (clip held, queue full).
    State,
    /// Finite inputs whose results overflow f32 (poses of huge magnitude).
    Overflow,
    /// Misaligned pointers.
    Align,
    /// Names: unknown, empty, duplicate, not UTF-8.
    Name,
    /// A boundary value that must be accepted.
    Valid,
}

const FLOAT_CLASSES: [(Class, f32); 5] = [
    (Class::Nan, f32::NAN),
    (Class::PosInf, f32::INFINITY),
    (Class::NegInf, f32::NEG_INFINITY),
    (Class::Huge, 1e30),
    (Class::Denormal, 1e-40),
];

/// The documented domain of a float argument or field.
#[derive(Clone, Copy, Debug)]
enum Dom {
    /// Any finite value (positions, translations, scales, tangents, additive weights): huge
    /// values may overflow the result.
    Free,
    /// Quaternion components and directions: renormalized, so any finite non-zero value is fine.
    Rot,
    /// In [0, 1] (or (0, 1]).
    Unit,
    /// Positive or non-negative, unbounded (durations, times, precisions, thresholds).
    Pos,
    /// At least 1 (`max_stretch_scale`).
    AtLeast1,
    /// A bounded angle ([0, pi], [-pi, pi], [0, 180] degrees).
    Angle,
    /// Key time `k` of [0, 0.4, 0.8] in a clip of 1 s: strictly increasing, within [0, 1].
    KeyTime(usize),
}

impl Dom {
    fn expect(self, class: Class) -> Vec<St> {
        use Dom::*;
        match class {
            Class::Nan | Class::PosInf | Class::NegInf => vec![St::NonFinite],
            Class::Huge => match self {
                Free => vec![St::Ok, St::NumericOverflow],
                Rot | Pos | AtLeast1 => vec![St::Ok],
                Unit | Angle => vec![St::InvalidArgument],
                // Outside [0, duration]: the library reports OUT_OF_RANGE.
                KeyTime(_) => vec![St::OutOfRange],
            },
            Class::Denormal => match self {
                AtLeast1 => vec![St::InvalidArgument],
                // [0, 0.4, 1e-40] is not increasing.
                KeyTime(2) => vec![St::InvalidArgument],
                _ => vec![St::Ok],
            },
            c => unreachable!("{c:?} is not a float class"),
        }
    }
}

/// The domain of float argument or field `path` of `export`.
fn domain(export: &str, path: &str) -> Option<Dom> {
    use Dom::*;
    let last = path.rsplit('.').next().unwrap_or(path);
    let parts: Vec<&str> = path.split('.').collect();
    let has = |s: &str| parts.contains(&s);
    Some(match path {
        "t" | "value" => Unit,
        "weight" if export == "sinew_pose_apply_additive" => Free,
        "weight" => Unit,
        "rotation_limit_degrees" => Angle,
        "threshold" | "duration" | "time" | "dt" => Pos,
        "times" => KeyTime(0),
        "weights" => Unit,
        "layers.weight" => Pos,
        _ if has("settings") => match last {
            "weight" | "soften" | "pole_weight" | "hand_fk_weight" => Unit,
            "x" | "y" | "z" if has("per_axis_alpha") => Unit,
            "start_stretch_ratio" | "precision" => Pos,
            "max_stretch_scale" => AtLeast1,
            _ => return None,
        },
        _ if has("reference") || has("axis") => Rot,
        _ if matches!(
            last,
            "swing_half_angle_1" | "swing_half_angle_2" | "min_angle" | "max_angle"
        ) =>
        {
            Angle
        }
        _ if has("rotation")
            || has("effector_rotation")
            || has("root_parent_rotation")
            || has("effector_rotations")
            || has("root_parent_rotations") =>
        {
            Rot
        }
        _ if has("values") && export == "sinew_clip_set_rotation_track" => Rot,
        _ if has("translation")
            || has("scale")
            || has("effector_position")
            || has("joint_target")
            || has("effector_positions")
            || has("joint_targets")
            || has("values")
            || has("in_tangents")
            || has("out_tangents") =>
        {
            Free
        }
        _ => return None,
    })
}

// ------------------------------------------------------------------------------ values

const J: usize = 8;
const J2: usize = 3;
/// Chain length of the world's FABRIK and CCD solvers (their `max_joints`).
const N: usize = 4;
/// Chains in the batch buffers: one four-wide SIMD group of the two-bone batch and a scalar
/// tail.
const B: usize = 5;
/// The chain a batch's generated bad values go into: not the first, so a chain solved (or
/// written) before every input was checked shows; in the two-bone batch's SIMD group.
const BAD: usize = 2;

const PARENTS: [i32; J] = [-1, 0, 1, 2, 3, 0, 5, 5];
/// `PARENTS` with the last joint under the one before it: the same count, another hierarchy.
const PARENTS3: [i32; J] = [-1, 0, 1, 2, 3, 0, 5, 6];
const NAMES: [&CStr; J] = [
    c"root",
    c"spine",
    c"upper_arm",
    c"forearm",
    c"hand",
    c"ik_hand_root",
    c"ik_hand_r",
    c"ik_hand_l",
];
const ID: SinewQuat = SinewQuat {
    x: 0.0,
    y: 0.0,
    z: 0.0,
    w: 1.0,
};

fn v(x: f32, y: f32, z: f32) -> SinewVec3 {
    SinewVec3 { x, y, z }
}

fn q(axis: [f32; 3], angle: f32) -> SinewQuat {
    Quat::from_axis_angle(Vec3::from(axis).normalize(), angle).into()
}

fn qmul(a: SinewQuat, b: SinewQuat) -> SinewQuat {
    (Quat::from(a) * Quat::from(b)).normalize().into()
}

fn tr(t: [f32; 3], rotation: SinewQuat, s: f32) -> SinewTransform {
    SinewTransform {
        translation: v(t[0], t[1], t[2]),
        rotation,
        scale: v(s, s, s),
    }
}

/// Rest pose of the world's skeleton (and a guard element).
fn rest() -> [SinewTransform; J + 1] {
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
fn posed(angle: f32) -> [SinewTransform; J + 1] {
    let mut r = rest();
    for (k, t) in r.iter_mut().enumerate() {
        t.rotation = qmul(t.rotation, q([0.3, 1.0, 0.2], angle * (k as f32 + 1.0)));
    }
    r
}

fn cone() -> SinewJointConstraint {
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

/// Finite, recognisable contents for output buffers (a valid transform, so that finiteness and
/// unit-rotation checks pass on buffers an export did not write).
const SENT_F: f32 = -7.25;
const SENT_U: u32 = 0xA5A5_A5A5;
const SENT_T: SinewTransform = SinewTransform {
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

/// One layer weight of `sinew_pose_blend_layers` (the layers themselves hold handles).
#[derive(Clone, Copy)]
struct LayerWeight {
    weight: f32,
}

/// Every buffer an export reads or writes. Arrays passed with a count hold one guard element
/// more than the count, so a write past the count is caught too. All types here are
/// padding-free (4-byte fields only, or a lone `usize`), so they compare byte for byte.
#[derive(Clone, Copy)]
struct Bufs {
    // In/out.
    chain3: [SinewTransform; 3],
    chain: [SinewTransform; N + 1],
    /// `sinew_two_bone_ik_solve_batch`: B chains of three, back to back, and a guard.
    batch3: [SinewTransform; 3 * B + 1],
    /// FABRIK and CCD batches: B chains of N back to back, then guards up to room for B chains
    /// of N + 1 (so even a `joint_count` read before it is rejected stays in bounds).
    batch: [SinewTransform; (N + 1) * B],
    model: [SinewTransform; J + 1],
    // Inputs.
    locals: [SinewTransform; J + 1],
    rest: [SinewTransform; J + 1],
    transform: SinewTransform,
    effector: SinewVec3,
    chain_effector: SinewVec3,
    pose_effector: SinewVec3,
    effector_rotation: SinewQuat,
    pole: SinewVec3,
    root_parent: SinewQuat,
    /// Per-chain inputs of the batches (two-bone effectors, FABRIK/CCD effectors, effector
    /// rotations, poles, root parent rotations).
    batch_effectors3: [SinewVec3; B],
    batch_effectors: [SinewVec3; B],
    batch_rotations: [SinewQuat; B],
    batch_poles: [SinewVec3; B],
    batch_parents: [SinewQuat; B],
    joints: [u32; N + 2],
    apply_joints: [u32; 2],
    constraints: [SinewJointConstraint; 2],
    constraint: SinewJointConstraint,
    hands: SinewHandJoints,
    bones: [u32; 2],
    parents: [i32; J + 1],
    weights: [f32; J + 1],
    layers: [LayerWeight; 2],
    times: [f32; 3],
    v3_values: [SinewVec3; 3],
    s_values: [SinewVec3; 3],
    v3_in: [SinewVec3; 3],
    v3_out: [SinewVec3; 3],
    q_values: [SinewQuat; 3],
    q_in: [SinewQuat; 3],
    q_out: [SinewQuat; 3],
    two: SinewTwoBoneIkSettings,
    fabrik: SinewFabrikSettings,
    ccd: SinewCcdSettings,
    hand: SinewHandIkRetargetingSettings,
    // Outputs, filled with sentinels.
    out_transforms: [SinewTransform; J + 1],
    out_transform: SinewTransform,
    out_result: SinewIkResult,
    /// A batch's results, and a guard.
    out_results: [SinewIkResult; B + 1],
    out_vec3: SinewVec3,
    out_floats: [f32; J + 1],
    out_parents: [i32; J + 1],
    out_u32: [u32; 3],
    out_f32: f32,
    out_two: SinewTwoBoneIkSettings,
    out_fabrik: SinewFabrikSettings,
    out_ccd: SinewCcdSettings,
    out_hand: SinewHandIkRetargetingSettings,
    out_constraint: SinewJointConstraint,
    out_text: [u8; 64],
    out_len: usize,
    out_handle: usize,
}

const SENT_HANDLE: usize = 0xA5A5_A5A5_A5A5_A5A0;

impl Bufs {
    fn new() -> Self {
        let z = [0.0, 0.0, 1.0];
        let mut two = std::mem::MaybeUninit::uninit();
        let mut fabrik = std::mem::MaybeUninit::uninit();
        let mut ccd = std::mem::MaybeUninit::uninit();
        let mut hand = std::mem::MaybeUninit::uninit();
        // SAFETY: each default function fills its struct completely.
        let (mut two, mut fabrik, mut ccd, hand) = unsafe {
            sinew_two_bone_ik_settings_default(two.as_mut_ptr());
            sinew_fabrik_settings_default(fabrik.as_mut_ptr());
            sinew_ccd_settings_default(ccd.as_mut_ptr());
            sinew_hand_ik_retargeting_settings_default(hand.as_mut_ptr());
            (
                two.assume_init(),
                fabrik.assume_init(),
                ccd.assume_init(),
                hand.assume_init(),
            )
        };
        two.allow_stretching = 1;
        two.pole_weight = 0.8;
        // A small budget keeps re-solving (probing) cheap in debug builds.
        fabrik.max_iterations = 4;
        ccd.max_iterations = 4;
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
            two,
            fabrik,
            ccd,
            hand,
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
            out_hand: SinewHandIkRetargetingSettings {
                hand_fk_weight: SENT_F,
                per_axis_alpha: SENT_T.translation,
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
        }
    }

    /// Every field, as labelled segments.
    fn segments(&self, p: &mut Probe) {
        use Kind::*;
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
        p.push("ccd", Raw, words(&self.ccd));
        p.push("hand", Raw, words(&self.hand));
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
        p.push("out_ccd", Raw, words(&self.out_ccd));
        p.push("out_hand", Raw, words(&self.out_hand));
        p.push("out_constraint", Raw, words(&self.out_constraint));
        p.push("out_text", Raw, words(&self.out_text));
        p.push("out_len", Raw, words(&self.out_len));
        p.push("out_handle", Raw, words(&self.out_handle));
    }
}

/// The bytes of a padding-free value, as 32-bit words.
fn words<T: Copy>(value: &T) -> Vec<u32> {
    words_of(std::slice::from_ref(value))
}

/// The bytes of a slice of padding-free values, as 32-bit words.
fn words_of<T: Copy>(values: &[T]) -> Vec<u32> {
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
trait Floats {
    fn float_mut(&mut self, path: &str) -> Option<&mut f32>;
}

impl Floats for f32 {
    fn float_mut(&mut self, path: &str) -> Option<&mut f32> {
        path.is_empty().then_some(self)
    }
}

impl Floats for LayerWeight {
    fn float_mut(&mut self, path: &str) -> Option<&mut f32> {
        (path == "weight").then_some(&mut self.weight)
    }
}

impl Floats for SinewVec3 {
    fn float_mut(&mut self, path: &str) -> Option<&mut f32> {
        match path {
            "x" => Some(&mut self.x),
            "y" => Some(&mut self.y),
            "z" => Some(&mut self.z),
            _ => None,
        }
    }
}

impl Floats for SinewQuat {
    fn float_mut(&mut self, path: &str) -> Option<&mut f32> {
        match path {
            "x" => Some(&mut self.x),
            "y" => Some(&mut self.y),
            "z" => Some(&mut self.z),
            "w" => Some(&mut self.w),
            _ => None,
        }
    }
}

fn split(path: &str) -> (&str, &str) {
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
            ("swing_half_angle_1", "") => Some(&mut self.swing_half_angle_1),
            ("swing_half_angle_2", "") => Some(&mut self.swing_half_angle_2),
            ("min_angle", "") => Some(&mut self.min_angle),
            ("max_angle", "") => Some(&mut self.max_angle),
            _ => None,
        }
    }
}

impl Floats for SinewTwoBoneIkSettings {
    fn float_mut(&mut self, path: &str) -> Option<&mut f32> {
        match path {
            "weight" => Some(&mut self.weight),
            "start_stretch_ratio" => Some(&mut self.start_stretch_ratio),
            "max_stretch_scale" => Some(&mut self.max_stretch_scale),
            "soften" => Some(&mut self.soften),
            "pole_weight" => Some(&mut self.pole_weight),
            _ => None,
        }
    }
}

impl Floats for SinewFabrikSettings {
    fn float_mut(&mut self, path: &str) -> Option<&mut f32> {
        (path == "precision").then_some(&mut self.precision)
    }
}

impl Floats for SinewCcdSettings {
    fn float_mut(&mut self, path: &str) -> Option<&mut f32> {
        (path == "precision").then_some(&mut self.precision)
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

/// The elements of the buffer an export reads for pointer argument `param` (only as many as
/// the base call passes).
fn slot<'a>(b: &'a mut Bufs, export: &str, param: &str) -> Option<Vec<&'a mut dyn Floats>> {
    fn all<T: Floats>(s: &mut [T]) -> Vec<&mut dyn Floats> {
        s.iter_mut().map(|x| x as &mut dyn Floats).collect()
    }
    fn one<T: Floats>(x: &mut T) -> Vec<&mut dyn Floats> {
        vec![x as &mut dyn Floats]
    }
    let rotation_track = export == "sinew_clip_set_rotation_track";
    Some(match param {
        "chain" if export == "sinew_two_bone_ik_solve" => all(&mut b.chain3),
        "chains" if export == "sinew_two_bone_ik_solve_batch" => all(&mut b.batch3[..3 * B]),
        "chains" => all(&mut b.batch[..N * B]),
        "effector_positions" if export == "sinew_two_bone_ik_solve_batch" => {
            all(&mut b.batch_effectors3)
        }
        "effector_positions" => all(&mut b.batch_effectors),
        "effector_rotations" => all(&mut b.batch_rotations),
        "joint_targets" => all(&mut b.batch_poles),
        "root_parent_rotations" => all(&mut b.batch_parents),
        "chain" => all(&mut b.chain[..N]),
        "effector_position" if export == "sinew_two_bone_ik_solve" => one(&mut b.effector),
        "effector_position" if export.ends_with("_solve_pose") => one(&mut b.pose_effector),
        "effector_position" => one(&mut b.chain_effector),
        "effector_rotation" => one(&mut b.effector_rotation),
        "joint_target" => one(&mut b.pole),
        "root_parent_rotation" => one(&mut b.root_parent),
        "settings" if export.starts_with("sinew_two_bone") => one(&mut b.two),
        "settings" if export.starts_with("sinew_fabrik") => one(&mut b.fabrik),
        "settings" if export.starts_with("sinew_ccd") => one(&mut b.ccd),
        "settings" if export.starts_with("sinew_hand") => one(&mut b.hand),
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
        "weights" => all(&mut b.weights[..J]),
        "layers" => all(&mut b.layers),
        _ => return None,
    })
}

/// The elements of a buffer of `count` the generated float cases spoil, one per case: every
/// one, except in a batch's per-chain arrays, where only chain [`BAD`]'s (the chains before it
/// stay clean, so a write before every input was checked would show in them).
fn planted(export: &str, count: usize) -> std::ops::Range<usize> {
    if is_batch(export) {
        let per_chain = count / B;
        BAD * per_chain..(BAD + 1) * per_chain
    } else {
        0..count
    }
}

fn is_batch(export: &str) -> bool {
    export.ends_with("_solve_batch")
}

// ------------------------------------------------------------------------------ the world

/// Handles of every kind, in a known state, plus the buffers.
struct World {
    skel: *mut SinewSkeleton,
    skel2: *mut SinewSkeleton,
    pose_a: *mut SinewPose,
    pose_b: *mut SinewPose,
    pose_out: *mut SinewPose,
    pose2: *mut SinewPose,
    /// Of `skel3`: as many joints as `skel`, other parents.
    skel3: *mut SinewSkeleton,
    pose3: *mut SinewPose,
    mask: *mut SinewJointMask,
    mask2: *mut SinewJointMask,
    two_bone: *mut SinewTwoBoneIk,
    fabrik: *mut SinewFabrik,
    ccd: *mut SinewCcd,
    hand: *mut SinewHandIkRetargeting,
    /// Editable (no controller holds it).
    clip: *mut SinewClip,
    /// Held by the crossfade.
    clip_a: *mut SinewClip,
    clip_b: *mut SinewClip,
    /// Of `skel2`.
    clip2: *mut SinewClip,
    cursor: *mut SinewClipCursor,
    cursor2: *mut SinewClipCursor,
    crossfade: *mut SinewCrossfade,
    b: Bufs,
}

#[track_caller]
fn ok(status: St) {
    assert_eq!(status, St::Ok, "world setup: {}", message());
}

impl World {
    fn new() -> Box<Self> {
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
            hand: null_mut(),
            clip: null_mut(),
            clip_a: null_mut(),
            clip_b: null_mut(),
            clip2: null_mut(),
            cursor: null_mut(),
            cursor2: null_mut(),
            crossfade: null_mut(),
            b: Bufs::new(),
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
            let mut hand = b.hand;
            hand.hand_fk_weight = 0.3;
            ok(sinew_hand_ik_retargeting_create(&hand, &mut w.hand));
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
            ok(sinew_clip_set_rotation_track(
                w.clip,
                3,
                SinewInterpolation::Slerp as i32,
                times,
                b.q_values.as_ptr(),
                null(),
                null(),
                3,
            ));
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
            ok(sinew_clip_set_rotation_track(
                w.clip_a,
                2,
                SinewInterpolation::Linear as i32,
                times,
                rot(0.6).as_ptr(),
                null(),
                null(),
                3,
            ));
            ok(sinew_clip_create(w.skel, 0.5, &mut w.clip_b));
            ok(sinew_clip_set_rotation_track(
                w.clip_b,
                3,
                SinewInterpolation::Linear as i32,
                [0.0, 0.2, 0.4].as_ptr(),
                rot(-0.8).as_ptr(),
                null(),
                null(),
                3,
            ));
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
            ok(sinew_clip_set_rotation_track(
                w.clip2,
                1,
                SinewInterpolation::Linear as i32,
                times,
                rot(0.4).as_ptr(),
                null(),
                null(),
                3,
            ));
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
        }
        w
    }
}

impl Drop for World {
    fn drop(&mut self) {
        // SAFETY: every handle is live or NULL (destroying NULL is a no-op).
        unsafe {
            sinew_crossfade_destroy(self.crossfade);
            sinew_clip_cursor_destroy(self.cursor);
            sinew_clip_cursor_destroy(self.cursor2);
            for c in [self.clip, self.clip_a, self.clip_b, self.clip2] {
                sinew_clip_destroy(c);
            }
            sinew_hand_ik_retargeting_destroy(self.hand);
            sinew_ccd_destroy(self.ccd);
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
fn message() -> String {
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
fn plant_marker(w: &World) -> String {
    stale_marker(w.skel)
}

/// [`plant_marker`] through the world's skeleton handle.
fn stale_marker(skel: *mut SinewSkeleton) -> String {
    let mut index = 0u32;
    // SAFETY: a live skeleton, a NUL-terminated name and a local out-pointer.
    let s = unsafe { sinew_skeleton_find_joint(skel, c"\u{1}stale marker".as_ptr(), &mut index) };
    assert_eq!(s, St::NotFound);
    let m = message();
    assert!(!m.is_empty());
    m
}

// ------------------------------------------------------------------------------ probing

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// Compared, not otherwise checked.
    Raw,
    Status,
    /// Floats that must be finite after a success.
    Floats,
    /// Transforms that must be finite.
    Transforms,
    /// Transforms that must be finite with unit rotations.
    UnitTransforms,
}

#[derive(Clone, Debug, PartialEq)]
struct Seg {
    label: String,
    kind: Kind,
    words: Vec<u32>,
}

/// Everything observable about a world, in order.
#[derive(Clone, Debug, Default, PartialEq)]
struct Probe(Vec<Seg>);

impl Probe {
    fn push(&mut self, label: impl Into<String>, kind: Kind, words: Vec<u32>) {
        self.0.push(Seg {
            label: label.into(),
            kind,
            words,
        });
    }

    fn status(&mut self, label: impl Into<String>, s: St) {
        self.push(label, Kind::Status, vec![s as i32 as u32]);
    }

    fn transforms(&mut self, label: impl Into<String>, t: &[SinewTransform], unit: bool) {
        let kind = if unit {
            Kind::UnitTransforms
        } else {
            Kind::Transforms
        };
        self.push(label, kind, words_of(t));
    }

    fn floats(&mut self, label: impl Into<String>, f: &[f32]) {
        self.push(label, Kind::Floats, f.iter().map(|x| x.to_bits()).collect());
    }

    /// The first segment that differs from `other`.
    fn diff(&self, other: &Probe) -> Option<String> {
        if self.0.len() != other.0.len() {
            return Some(format!("{} segments vs {}", self.0.len(), other.0.len()));
        }
        self.0
            .iter()
            .zip(&other.0)
            .find(|(a, b)| a != b)
            .map(|(a, b)| format!("{} changed, {}", a.label, show(a, b)))
    }

    /// After a success: statuses OK (or NUMERIC_OVERFLOW when `lenient`), floats finite,
    /// rotations unit.
    fn sane(&self, lenient: bool) -> Result<(), String> {
        for s in &self.0 {
            match s.kind {
                Kind::Raw => {}
                Kind::Status => {
                    let st = s.words[0] as i32;
                    let fine = st == St::Ok as i32 || (lenient && st == St::NumericOverflow as i32);
                    if !fine {
                        return Err(format!("then {} returned status {st}", s.label));
                    }
                }
                Kind::Floats | Kind::Transforms | Kind::UnitTransforms => {
                    let f: Vec<f32> = s.words.iter().map(|&w| f32::from_bits(w)).collect();
                    if let Some(bad) = f.iter().find(|x| !x.is_finite()) {
                        return Err(format!("{} holds {bad} after success", s.label));
                    }
                    if s.kind == Kind::UnitTransforms {
                        for (k, t) in f.chunks_exact(10).enumerate() {
                            let len = Quat::from_slice(&t[3..7]).length();
                            if (len - 1.0).abs() > 1e-3 {
                                return Err(format!(
                                    "{} [{k}] has a rotation of length {len} ({:?}) after success",
                                    s.label,
                                    &t[3..7]
                                ));
                            }
                        }
                    }
                }
            }
        }
        Ok(())
    }
}

fn show(s: &Seg, other: &Seg) -> String {
    let at = s
        .words
        .iter()
        .zip(&other.words)
        .position(|(a, b)| a != b)
        .unwrap_or(0);
    let word = |seg: &Seg| match seg.words.get(at) {
        None => "nothing".to_string(),
        Some(&w) if matches!(seg.kind, Kind::Raw | Kind::Status) => format!("{w:#x}"),
        Some(&w) => format!("{:e}", f32::from_bits(w)),
    };
    format!(
        "word {at} of {}: {} (expected {})",
        s.words.len().max(other.words.len()),
        word(s),
        word(other)
    )
}

const PROBE_TARGETS: [SinewVec3; 2] = [
    SinewVec3 {
        x: 0.3,
        y: 1.3,
        z: 0.25,
    },
    SinewVec3 {
        x: 2.0,
        y: 0.5,
        z: -1.0,
    },
];

/// The handles' observable state: poses, masks, skeletons, solvers (settings and fixed
/// re-solves), hand node, clips (samples), crossfade (weights, pose, then further updates).
/// Mutates what probing must (solver scratch, cursors, crossfade time) the same way in any world.
fn probe_world(w: &mut World, p: &mut Probe) {
    let fresh = Bufs::new();
    // SAFETY: every handle is live; every pointer is to a local buffer of the stated size.
    unsafe {
        for (label, pose, n) in [
            ("pose_a", w.pose_a, J),
            ("pose_b", w.pose_b, J),
            ("pose_out", w.pose_out, J),
            ("pose2", w.pose2, J2),
            ("pose3", w.pose3, J),
        ] {
            let mut buf = vec![SENT_T; n];
            p.status(
                label,
                sinew_pose_get_local(pose, buf.as_mut_ptr(), n as u32),
            );
            p.transforms(format!("{label} local"), &buf, true);
        }
        for (label, mask, n) in [("mask", w.mask, J), ("mask2", w.mask2, J2)] {
            let mut buf = vec![SENT_F; n];
            p.status(
                label,
                sinew_joint_mask_get_weights(mask, buf.as_mut_ptr(), n as u32),
            );
            p.floats(format!("{label} weights"), &buf);
        }
        for (label, skel, n) in [("skel", w.skel, J), ("skel2", w.skel2, J2)] {
            let mut count = 0u32;
            p.status(label, sinew_skeleton_joint_count(skel, &mut count));
            p.push(format!("{label} count"), Kind::Raw, vec![count]);
            let mut parents = vec![0i32; n];
            p.status(
                label,
                sinew_skeleton_get_parents(skel, parents.as_mut_ptr(), n as u32),
            );
            p.push(
                format!("{label} parents"),
                Kind::Raw,
                parents.iter().map(|&x| x as u32).collect(),
            );
            let mut rest = vec![SENT_T; n];
            p.status(
                label,
                sinew_skeleton_get_rest_pose(skel, rest.as_mut_ptr(), n as u32),
            );
            p.transforms(format!("{label} rest"), &rest, true);
        }
        for name in NAMES {
            let mut index = SENT_U;
            let s = sinew_skeleton_find_joint(w.skel, name.as_ptr(), &mut index);
            p.status(format!("find {name:?}"), s);
            p.push(format!("find {name:?} index"), Kind::Raw, vec![index]);
        }

        let mut settings = fresh.out_two;
        p.status(
            "two_bone settings",
            sinew_two_bone_ik_get_settings(w.two_bone, &mut settings),
        );
        p.push("two_bone settings", Kind::Raw, words(&settings));
        for (k, target) in PROBE_TARGETS.iter().enumerate() {
            let mut chain = fresh.chain3;
            let mut result = fresh.out_result;
            let s = sinew_two_bone_ik_solve(
                w.two_bone,
                chain.as_mut_ptr(),
                target,
                &fresh.effector_rotation,
                &fresh.pole,
                &mut result,
            );
            p.status(format!("two_bone solve {k}"), s);
            p.transforms(format!("two_bone chain {k}"), &chain, true);
            p.push(format!("two_bone result {k}"), Kind::Raw, words(&result));
            p.floats(format!("two_bone error {k}"), &[result.error]);
        }

        let mut fabrik_settings = fresh.out_fabrik;
        p.status(
            "fabrik settings",
            sinew_fabrik_get_settings(w.fabrik, &mut fabrik_settings),
        );
        p.push("fabrik settings", Kind::Raw, words(&fabrik_settings));
        let mut ccd_settings = fresh.out_ccd;
        p.status(
            "ccd settings",
            sinew_ccd_get_settings(w.ccd, &mut ccd_settings),
        );
        p.push("ccd settings", Kind::Raw, words(&ccd_settings));
        for (k, target) in [fresh.chain_effector, v(5.0, 0.0, 0.0)].iter().enumerate() {
            for (label, is_fabrik) in [("fabrik", true), ("ccd", false)] {
                let mut chain = fresh.chain;
                let mut result = fresh.out_result;
                let s = if is_fabrik {
                    sinew_fabrik_solve(
                        w.fabrik,
                        chain.as_mut_ptr(),
                        N as u32,
                        &fresh.root_parent,
                        target,
                        null(),
                        &mut result,
                    )
                } else {
                    sinew_ccd_solve(
                        w.ccd,
                        chain.as_mut_ptr(),
                        N as u32,
                        &fresh.root_parent,
                        target,
                        null(),
                        &mut result,
                    )
                };
                p.status(format!("{label} solve {k}"), s);
                p.transforms(format!("{label} chain {k}"), &chain, true);
                p.push(format!("{label} result {k}"), Kind::Raw, words(&result));
                p.floats(format!("{label} error {k}"), &[result.error]);
            }
        }

        let mut hand_settings = fresh.out_hand;
        p.status(
            "hand settings",
            sinew_hand_ik_retargeting_get_settings(w.hand, &mut hand_settings),
        );
        p.push("hand settings", Kind::Raw, words(&hand_settings));
        let mut model = fresh.model;
        let mut offset = fresh.out_vec3;
        let s = sinew_hand_ik_retargeting_apply_model(
            w.hand,
            model.as_mut_ptr(),
            J as u32,
            &fresh.hands,
            fresh.bones.as_ptr(),
            2,
            &mut offset,
        );
        p.status("hand apply", s);
        p.transforms("hand model", &model, true);
        p.floats("hand offset", &[offset.x, offset.y, offset.z]);

        let (mut pose, mut pose2) = (null_mut(), null_mut());
        ok(sinew_pose_create(w.skel, &mut pose));
        ok(sinew_pose_create(w.skel2, &mut pose2));
        let mut local = vec![SENT_T; J];
        let mut local2 = vec![SENT_T; J2];
        for (label, clip) in [("clip", w.clip), ("clip_a", w.clip_a), ("clip_b", w.clip_b)] {
            let mut duration = SENT_F;
            p.status(label, sinew_clip_duration(clip, &mut duration));
            p.floats(format!("{label} duration"), &[duration]);
            for (k, (time, looping, cursor)) in [
                (0.0, 1, w.cursor),
                (0.3, 1, w.cursor),
                (0.77, 1, w.cursor),
                (1.6, 1, w.cursor),
                (0.5, 0, null_mut()),
                (2.0, 0, null_mut()),
            ]
            .into_iter()
            .enumerate()
            {
                p.status(
                    format!("{label} sample {k}"),
                    sinew_clip_sample(clip, cursor, time, looping, pose),
                );
                p.status(
                    format!("{label} local {k}"),
                    sinew_pose_get_local(pose, local.as_mut_ptr(), J as u32),
                );
                p.transforms(format!("{label} sampled {k}"), &local, true);
            }
        }
        for (k, time) in [0.1, 0.45, 0.9].into_iter().enumerate() {
            p.status(
                format!("clip2 sample {k}"),
                sinew_clip_sample(w.clip2, w.cursor2, time, 1, pose2),
            );
            p.status(
                format!("clip2 local {k}"),
                sinew_pose_get_local(pose2, local2.as_mut_ptr(), J2 as u32),
            );
            p.transforms(format!("clip2 sampled {k}"), &local2, true);
        }

        for step in 0..5 {
            if step > 0 {
                p.status(
                    format!("crossfade update {step}"),
                    sinew_crossfade_update(w.crossfade, 0.15),
                );
            }
            let mut count = SENT_U;
            p.status(
                format!("crossfade fade_count {step}"),
                sinew_crossfade_fade_count(w.crossfade, &mut count),
            );
            p.push(format!("crossfade fades {step}"), Kind::Raw, vec![count]);
            let mut weights = [SENT_F; 4];
            let mut n = SENT_U;
            p.status(
                format!("crossfade weights {step}"),
                sinew_crossfade_get_weights(w.crossfade, weights.as_mut_ptr(), 4, &mut n),
            );
            p.push(format!("crossfade weight count {step}"), Kind::Raw, vec![n]);
            p.floats(format!("crossfade weights {step}"), &weights);
            let mut times = [SENT_F; 4];
            let mut n = SENT_U;
            p.status(
                format!("crossfade times {step}"),
                sinew_crossfade_get_times(w.crossfade, times.as_mut_ptr(), 4, &mut n),
            );
            p.push(format!("crossfade time count {step}"), Kind::Raw, vec![n]);
            p.floats(format!("crossfade times {step}"), &times);
            let (mut active, mut remaining) = (SENT_U, SENT_F);
            p.status(
                format!("crossfade inertializing {step}"),
                sinew_crossfade_is_inertializing(w.crossfade, &mut active, &mut remaining),
            );
            p.push(
                format!("crossfade inertializing {step}"),
                Kind::Raw,
                vec![active],
            );
            p.floats(
                format!("crossfade inertialization left {step}"),
                &[remaining],
            );
            p.status(
                format!("crossfade get_pose {step}"),
                sinew_crossfade_get_pose(w.crossfade, pose),
            );
            p.status(
                format!("crossfade local {step}"),
                sinew_pose_get_local(pose, local.as_mut_ptr(), J as u32),
            );
            p.transforms(format!("crossfade pose {step}"), &local, true);
        }
        sinew_pose_destroy(pose);
        sinew_pose_destroy(pose2);
    }
}

fn probe(w: &mut World) -> Probe {
    let mut p = Probe::default();
    w.b.segments(&mut p);
    probe_world(w, &mut p);
    p
}

// ------------------------------------------------------------------------------ calls

/// What a call did.
enum Outcome {
    Status(St),
    /// A function returning nothing.
    Void,
    /// The case itself found a problem (e.g. a created handle is unusable).
    Fail(String),
}

fn st(s: St) -> Outcome {
    Outcome::Status(s)
}

type Swap = fn(&World) -> *mut c_void;

/// The one bad argument of a call: a NULL pointer, an integer or float value, or another
/// handle, each by parameter name. A base call consults it for every argument; a case whose
/// override is never consulted fails (a misspelt parameter).
#[derive(Default)]
struct Args {
    null: Option<String>,
    /// A pointer argument moved 2 bytes off its buffer (checked before it is read).
    misalign: Option<String>,
    ints: Vec<(&'static str, i64)>,
    floats: Vec<(&'static str, f32)>,
    swaps: Vec<(&'static str, Swap)>,
    used: AtomicUsize,
}

impl Args {
    fn none() -> Self {
        Self::default()
    }

    fn null(name: &str) -> Self {
        Self {
            null: Some(name.to_string()),
            ..Self::default()
        }
    }

    fn misaligned(name: &str) -> Self {
        Self {
            misalign: Some(name.to_string()),
            ..Self::default()
        }
    }

    fn int(mut self, name: &'static str, v: i64) -> Self {
        self.ints.push((name, v));
        self
    }

    fn float(mut self, name: &'static str, v: f32) -> Self {
        self.floats.push((name, v));
        self
    }

    fn swap(mut self, name: &'static str, f: Swap) -> Self {
        self.swaps.push((name, f));
        self
    }

    fn overrides(&self) -> usize {
        usize::from(self.null.is_some())
            + usize::from(self.misalign.is_some())
            + self.ints.len()
            + self.floats.len()
            + self.swaps.len()
    }

    fn hit(&self) {
        self.used.fetch_add(1, Ordering::Relaxed);
    }

    fn p<T>(&self, name: &str, d: *const T) -> *const T {
        if self.null.as_deref() == Some(name) {
            self.hit();
            null()
        } else if self.misalign.as_deref() == Some(name) {
            self.hit();
            d.cast::<u8>().wrapping_add(2).cast()
        } else {
            d
        }
    }

    fn m<T>(&self, name: &str, d: *mut T) -> *mut T {
        self.p(name, d).cast_mut()
    }

    /// A handle argument: possibly swapped for another of the world's, possibly NULL.
    fn h<T>(&self, w: &World, name: &str, d: *mut T) -> *mut T {
        let mut v = d;
        if let Some((_, f)) = self.swaps.iter().find(|(n, _)| *n == name) {
            self.hit();
            v = f(w).cast();
        }
        self.m(name, v)
    }

    fn u(&self, name: &str, d: u32) -> u32 {
        match self.ints.iter().find(|(n, _)| *n == name) {
            Some(&(_, x)) => {
                self.hit();
                x as u32
            }
            None => d,
        }
    }

    fn i(&self, name: &str, d: i32) -> i32 {
        self.u(name, d as u32) as i32
    }

    fn f(&self, name: &str, d: f32) -> f32 {
        match self.floats.iter().find(|(n, _)| *n == name) {
            Some(&(_, x)) => {
                self.hit();
                x
            }
            None => d,
        }
    }
}

type Base = fn(&mut World, &Args) -> Outcome;

fn base(f: Base) -> Base {
    f
}

fn out_handle<T>(b: &mut Bufs) -> *mut *mut T {
    (&mut b.out_handle as *mut usize).cast()
}

/// After a successful create: the new handle replaces the world's (so probing checks it).
fn adopt<T>(slot: &mut *mut T, handle: usize, destroy: unsafe extern "C" fn(*mut T)) {
    let old = std::mem::replace(slot, handle as *mut T);
    // SAFETY: `old` is a live handle of the world, not used afterwards.
    unsafe { destroy(old) };
}

/// A freshly created skeleton must report a finite rest pose with unit rotations.
fn check_new_skeleton(skeleton: *mut SinewSkeleton) -> Option<String> {
    // SAFETY: a live handle; buffers sized by its joint count.
    unsafe {
        let mut n = 0u32;
        assert_eq!(sinew_skeleton_joint_count(skeleton, &mut n), St::Ok);
        let mut rest = vec![SENT_T; n as usize];
        assert_eq!(
            sinew_skeleton_get_rest_pose(skeleton, rest.as_mut_ptr(), n),
            St::Ok
        );
        sinew_skeleton_destroy(skeleton);
        let mut p = Probe::default();
        p.transforms("new skeleton rest", &rest, true);
        p.sane(false).err()
    }
}

/// What each chain of a batch should hold after the call, from replaying it chain by chain
/// through the single solve on copies: the single solve's chain and result, or `None` where
/// the single solve overflows (the batch leaves that chain and its result untouched). `Err`
/// names the first chain whose single solve fails otherwise, and its status: the batch must
/// then fail as a whole with that status and a message starting `chain <i>: `.
type Replay = Result<Vec<Option<(Vec<SinewTransform>, SinewIkResult)>>, (usize, St)>;

/// The optional arrays a batch call passed (NULL ones are NULL single arguments in the replay).
#[derive(Clone, Copy)]
struct Given {
    rotations: bool,
    /// Poles (two-bone) or root parent rotations (FABRIK, CCD).
    per_chain: bool,
    results: bool,
}

/// Replays `count` two-bone chains of `b` through `sinew_two_bone_ik_solve`.
fn two_bone_replay(solver: *mut SinewTwoBoneIk, b: &Bufs, count: usize, given: Given) -> Replay {
    let mut out = Vec::new();
    for i in 0..count {
        let mut chain = b.batch3[3 * i..3 * i + 3].to_vec();
        let mut result = b.out_results[i];
        // SAFETY: a live solver; copies of the world's arrays, one item per pointer.
        let s = unsafe {
            sinew_two_bone_ik_solve(
                solver,
                chain.as_mut_ptr(),
                &b.batch_effectors3[i],
                opt(given.rotations, &b.batch_rotations[i]),
                opt(given.per_chain, &b.batch_poles[i]),
                &mut result,
            )
        };
        match s {
            St::Ok => out.push(Some((chain, result))),
            St::NumericOverflow => out.push(None),
            s => return Err((i, s)),
        }
    }
    Ok(out)
}

/// Replays `count` FABRIK or CCD chains of `joints` joints of `b` through the single solve
/// (`solver`: whether FABRIK, and the two handles).
fn chain_replay(
    solver: (bool, *mut SinewFabrik, *mut SinewCcd),
    b: &Bufs,
    count: usize,
    joints: usize,
    given: Given,
) -> Replay {
    let mut out = Vec::new();
    for i in 0..count {
        let mut chain = b.batch[joints * i..joints * (i + 1)].to_vec();
        let mut result = b.out_results[i];
        let (parent, rotation) = (
            opt(given.per_chain, &b.batch_parents[i]),
            opt(given.rotations, &b.batch_rotations[i]),
        );
        // SAFETY: live solvers; copies of the world's arrays, `joints` transforms in `chain`.
        let s = unsafe {
            if solver.0 {
                sinew_fabrik_solve(
                    solver.1,
                    chain.as_mut_ptr(),
                    joints as u32,
                    parent,
                    &b.batch_effectors[i],
                    rotation,
                    &mut result,
                )
            } else {
                sinew_ccd_solve(
                    solver.2,
                    chain.as_mut_ptr(),
                    joints as u32,
                    parent,
                    &b.batch_effectors[i],
                    rotation,
                    &mut result,
                )
            }
        };
        match s {
            St::Ok => out.push(Some((chain, result))),
            St::NumericOverflow => out.push(None),
            s => return Err((i, s)),
        }
    }
    Ok(out)
}

/// `p` when the batch call passed its array, else NULL.
fn opt<T>(on: bool, p: *const T) -> *const T {
    if on {
        p
    } else {
        null()
    }
}

/// Whether two floats agree within `tol` relative to their size (0: the same value).
fn near(a: f32, b: f32, tol: f32) -> bool {
    a == b || (a - b).abs() <= tol * a.abs().max(b.abs()).max(1.0)
}

fn near_transform(a: &SinewTransform, b: &SinewTransform, tol: f32) -> bool {
    let v3 = |x: SinewVec3, y: SinewVec3| {
        near(x.x, y.x, tol) && near(x.y, y.y, tol) && near(x.z, y.z, tol)
    };
    let (p, r) = (a.rotation, b.rotation);
    let q4 = |s: f32| {
        near(p.x, s * r.x, tol)
            && near(p.y, s * r.y, tol)
            && near(p.z, s * r.z, tol)
            && near(p.w, s * r.w, tol)
    };
    v3(a.translation, b.translation) && v3(a.scale, b.scale) && (q4(1.0) || q4(-1.0))
}

/// How a batch base call's outcome is judged against its replay.
struct BatchCheck {
    /// The batch's chains array in a `Bufs`.
    chains: fn(&mut Bufs) -> &mut [SinewTransform],
    /// Transforms per chain.
    joints: usize,
    given: Given,
    /// How far a solved chain may stray from the single solve's, relative to its size: 0 for
    /// every batch export (the header: each chain equals its single solve bit for bit).
    tolerance: f32,
}

/// Judges a batch call that returned `status`, given the state `before` it and the replay of
/// its chains (none when the call's counts make a replay meaningless):
///
/// - a chain whose single solve fails (not by overflow): the batch fails with the same status
///   and a message starting `chain <i>: ` (the harness then checks every byte is untouched);
/// - otherwise, when it succeeds or reports an overflow: every chain the single solve solves
///   holds the single solve's chain and result (within the tolerance), every chain it
///   overflows and every chain past the count is untouched with its result, guards and all
///   other buffers are untouched, and the status is NUMERIC_OVERFLOW naming the first
///   overflowing chain exactly when there is one. After an overflow the batch arrays are put
///   back as they were, so the harness's byte-for-byte check covers everything else (the
///   handles too).
fn check_batch(
    w: &mut World,
    before: &Bufs,
    status: St,
    replay: Option<Replay>,
    c: BatchCheck,
) -> Outcome {
    let Some(replay) = replay else {
        return st(status);
    };
    let message = message();
    let expected = match replay {
        Err((i, single)) => {
            let prefix = format!("chain {i}: ");
            if status != single || !message.starts_with(&prefix) {
                return Outcome::Fail(format!(
                    "the single solve of chain {i} returns {single:?}; the batch returned \
                     {status:?} with message {message:?} (expected the same status and a \
                     message starting {prefix:?})"
                ));
            }
            return st(status);
        }
        Ok(expected) => expected,
    };
    if !matches!(status, St::Ok | St::NumericOverflow) {
        // An argument the replay did not use (a NULL or misaligned pointer, a bad count):
        // the harness judges the status and checks nothing changed.
        return st(status);
    }
    let first_overflow = expected.iter().position(Option::is_none);
    match first_overflow {
        None if status != St::Ok => {
            return Outcome::Fail(format!(
                "{status:?} ({message:?}) although every chain solves singly"
            ))
        }
        Some(i)
            if status != St::NumericOverflow || !message.starts_with(&format!("chain {i} ")) =>
        {
            return Outcome::Fail(format!(
                "chain {i} overflows singly; the batch returned {status:?} with {message:?} \
                 (expected NUMERIC_OVERFLOW naming chain {i})"
            ))
        }
        _ => {}
    }
    let (mut now, mut old) = (w.b, *before);
    {
        let (got, was) = ((c.chains)(&mut now), (c.chains)(&mut old));
        for (i, want) in expected.iter().enumerate() {
            let range = c.joints * i..c.joints * (i + 1);
            let (got, was) = (&got[range.clone()], &was[range]);
            let fine = match want {
                Some((chain, _)) => got
                    .iter()
                    .zip(chain)
                    .all(|(a, b)| near_transform(a, b, c.tolerance)),
                None => words_of(got) == words_of(was),
            };
            if !fine {
                let want = want.as_ref().map_or(was, |(chain, _)| chain.as_slice());
                return Outcome::Fail(format!("chain {i} holds {got:?}, expected {want:?}"));
            }
        }
        let rest = c.joints * expected.len();
        if words_of(&got[rest..]) != words_of(&was[rest..]) {
            return Outcome::Fail(format!(
                "the chains array changed past the {} chains solved",
                expected.len()
            ));
        }
    }
    for (i, (got, was)) in now.out_results.iter().zip(&old.out_results).enumerate() {
        let want = match expected.get(i) {
            Some(Some((_, result))) if c.given.results => *result,
            _ => *was,
        };
        let fine = got.reached == want.reached
            && got.iterations == want.iterations
            && near(got.error, want.error, c.tolerance);
        if !fine {
            return Outcome::Fail(format!("out_results[{i}] is {got:?}, expected {want:?}"));
        }
    }
    (c.chains)(&mut now).copy_from_slice((c.chains)(&mut old));
    now.out_results = old.out_results;
    let (mut a, mut b) = (Probe::default(), Probe::default());
    now.segments(&mut a);
    old.segments(&mut b);
    if let Some(d) = a.diff(&b) {
        return Outcome::Fail(format!("the batch wrote outside its outputs: {d}"));
    }
    if status == St::NumericOverflow {
        w.b = now;
    }
    st(status)
}

/// The chain batch base call (FABRIK or CCD): replays the chains on copies, plants the stale
/// message again (so the batch call alone decides the message the harness reads), calls the
/// batch and judges it.
fn chain_batch(w: &mut World, a: &Args, fabrik: bool) -> Outcome {
    let (fabrik_solver, ccd_solver) = if fabrik {
        (a.h(w, "solver", w.fabrik), w.ccd)
    } else {
        (w.fabrik, a.h(w, "solver", w.ccd))
    };
    let handles = (w.fabrik, w.ccd, w.skel);
    let before = w.b;
    let b = &mut w.b;
    let count = a.u("chain_count", B as u32);
    let joints = a.u("joint_count", N as u32);
    let chains = a.m("chains", b.batch.as_mut_ptr());
    let parents = a.p("root_parent_rotations", b.batch_parents.as_ptr());
    let positions = a.p("effector_positions", b.batch_effectors.as_ptr());
    let rotations = a.p("effector_rotations", b.batch_rotations.as_ptr());
    let results = a.m("out_results", b.out_results.as_mut_ptr());
    let given = Given {
        rotations: !rotations.is_null(),
        per_chain: !parents.is_null(),
        results: !results.is_null(),
    };
    // Chain lengths outside 2..=max_joints are the call's error, not a chain's.
    let replay = (count as usize <= B && (2..=N).contains(&(joints as usize))).then(|| {
        let solver = (fabrik, handles.0, handles.1);
        chain_replay(solver, &before, count as usize, joints as usize, given)
    });
    stale_marker(handles.2);
    // SAFETY: the world's live solvers and buffers, sized for B chains of N + 1 joints; an
    // override replaces one argument with a bad value, never a dangling pointer.
    let status = unsafe {
        if fabrik {
            sinew_fabrik_solve_batch(
                fabrik_solver,
                chains,
                joints,
                count,
                parents,
                positions,
                rotations,
                results,
            )
        } else {
            sinew_ccd_solve_batch(
                ccd_solver, chains, joints, count, parents, positions, rotations, results,
            )
        }
    };
    let check = BatchCheck {
        chains: |b| &mut b.batch[..],
        joints: joints as usize,
        given,
        tolerance: 0.0,
    };
    check_batch(w, &before, status, replay, check)
}

/// The two-bone batch base call, like [`chain_batch`].
fn two_bone_batch(w: &mut World, a: &Args) -> Outcome {
    let solver = a.h(w, "solver", w.two_bone);
    let handles = (w.two_bone, w.skel);
    let before = w.b;
    let b = &mut w.b;
    let count = a.u("chain_count", B as u32);
    let chains = a.m("chains", b.batch3.as_mut_ptr());
    let positions = a.p("effector_positions", b.batch_effectors3.as_ptr());
    let rotations = a.p("effector_rotations", b.batch_rotations.as_ptr());
    let poles = a.p("joint_targets", b.batch_poles.as_ptr());
    let results = a.m("out_results", b.out_results.as_mut_ptr());
    let given = Given {
        rotations: !rotations.is_null(),
        per_chain: !poles.is_null(),
        results: !results.is_null(),
    };
    let replay =
        (count as usize <= B).then(|| two_bone_replay(handles.0, &before, count as usize, given));
    stale_marker(handles.1);
    // SAFETY: as in `chain_batch`.
    let status = unsafe {
        sinew_two_bone_ik_solve_batch(solver, chains, count, positions, rotations, poles, results)
    };
    let check = BatchCheck {
        chains: |b| &mut b.batch3[..],
        joints: 3,
        given,
        tolerance: 0.0,
    };
    check_batch(w, &before, status, replay, check)
}

/// A batch's chains (as many as the base call passes) and effectors.
fn batch_of<'a>(
    b: &'a mut Bufs,
    export: &str,
) -> (&'a mut [SinewTransform], &'a mut [SinewVec3; B]) {
    if export == "sinew_two_bone_ik_solve_batch" {
        (&mut b.batch3[..3 * B], &mut b.batch_effectors3)
    } else {
        (&mut b.batch[..N * B], &mut b.batch_effectors)
    }
}

/// A batch of no chains with every array NULL (nothing is read or written).
fn batch_without_arrays(w: &mut World, export: &str) -> Outcome {
    // SAFETY: live solvers; for zero chains no array is read.
    st(unsafe {
        match export {
            "sinew_two_bone_ik_solve_batch" => sinew_two_bone_ik_solve_batch(
                w.two_bone,
                null_mut(),
                0,
                null(),
                null(),
                null(),
                null_mut(),
            ),
            "sinew_fabrik_solve_batch" => sinew_fabrik_solve_batch(
                w.fabrik,
                null_mut(),
                N as u32,
                0,
                null(),
                null(),
                null(),
                null_mut(),
            ),
            _ => sinew_ccd_solve_batch(
                w.ccd,
                null_mut(),
                N as u32,
                0,
                null(),
                null(),
                null(),
                null_mut(),
            ),
        }
    })
}

/// The base call of every export (valid arguments, overridable one at a time) and its
/// optional pointer arguments (NULL is documented as accepted).
fn bases() -> Vec<(&'static str, Base, &'static [&'static str])> {
    use SinewInterpolation::Cubic;
    // SAFETY (all closures): pointers are to the world's live handles and buffers, sized as
    // the counts passed; overrides replace one argument with a bad value, never with a
    // dangling pointer.
    vec![
        (
            "sinew_abi_version",
            base(|_, _| {
                if sinew_abi_version() == SINEW_ABI_VERSION {
                    Outcome::Void
                } else {
                    Outcome::Fail(format!("sinew_abi_version() = {}", sinew_abi_version()))
                }
            }),
            &[],
        ),
        (
            "sinew_version",
            base(|w, a| unsafe {
                let [x, y, z] = &mut w.b.out_u32;
                st(sinew_version(
                    a.m("major", x),
                    a.m("minor", y),
                    a.m("patch", z),
                ))
            }),
            &[],
        ),
        (
            "sinew_last_error_message",
            base(|w, a| unsafe {
                let cap = a.u("capacity", 64) as usize;
                st(sinew_last_error_message(
                    a.m("buf", w.b.out_text.as_mut_ptr().cast::<c_char>()),
                    cap,
                    a.m("out_len", &mut w.b.out_len),
                ))
            }),
            &["out_len"],
        ),
        // Skeletons.
        (
            "sinew_skeleton_create",
            base(|w, a| unsafe {
                let names = NAMES.map(CStr::as_ptr);
                let s = sinew_skeleton_create(
                    a.p("parents", w.b.parents.as_ptr()),
                    a.p("rest_pose", w.b.rest.as_ptr()),
                    a.p("names", names.as_ptr()),
                    a.u("joint_count", J as u32),
                    a.m("out_skeleton", out_handle(&mut w.b)),
                );
                match s {
                    St::Ok => {
                        check_new_skeleton(w.b.out_handle as *mut _).map_or(st(s), Outcome::Fail)
                    }
                    _ => st(s),
                }
            }),
            &["names"],
        ),
        (
            "sinew_skeleton_destroy",
            base(|_, a| unsafe {
                sinew_skeleton_destroy(a.m("skeleton", null_mut()));
                Outcome::Void
            }),
            &[],
        ),
        (
            "sinew_skeleton_joint_count",
            base(|w, a| unsafe {
                st(sinew_skeleton_joint_count(
                    a.h(w, "skeleton", w.skel),
                    a.m("out_count", &mut w.b.out_u32[0]),
                ))
            }),
            &[],
        ),
        (
            "sinew_skeleton_find_joint",
            base(|w, a| unsafe {
                st(sinew_skeleton_find_joint(
                    a.h(w, "skeleton", w.skel),
                    a.p("name", c"forearm".as_ptr()),
                    a.m("out_index", &mut w.b.out_u32[0]),
                ))
            }),
            &[],
        ),
        (
            "sinew_skeleton_get_parents",
            base(|w, a| unsafe {
                st(sinew_skeleton_get_parents(
                    a.h(w, "skeleton", w.skel),
                    a.m("out_parents", w.b.out_parents.as_mut_ptr()),
                    a.u("count", J as u32),
                ))
            }),
            &[],
        ),
        (
            "sinew_skeleton_get_rest_pose",
            base(|w, a| unsafe {
                st(sinew_skeleton_get_rest_pose(
                    a.h(w, "skeleton", w.skel),
                    a.m("out_rest_pose", w.b.out_transforms.as_mut_ptr()),
                    a.u("count", J as u32),
                ))
            }),
            &[],
        ),
        // Poses.
        (
            "sinew_pose_create",
            base(|w, a| unsafe {
                let s = sinew_pose_create(
                    a.h(w, "skeleton", w.skel),
                    a.m("out_pose", out_handle(&mut w.b)),
                );
                if s == St::Ok {
                    sinew_pose_destroy(w.b.out_handle as *mut SinewPose);
                }
                st(s)
            }),
            &[],
        ),
        (
            "sinew_pose_destroy",
            base(|_, a| unsafe {
                sinew_pose_destroy(a.m("pose", null_mut()));
                Outcome::Void
            }),
            &[],
        ),
        (
            "sinew_pose_joint_count",
            base(|w, a| unsafe {
                st(sinew_pose_joint_count(
                    a.h(w, "pose", w.pose_a),
                    a.m("out_count", &mut w.b.out_u32[0]),
                ))
            }),
            &[],
        ),
        (
            "sinew_pose_reset",
            base(|w, a| unsafe { st(sinew_pose_reset(a.h(w, "pose", w.pose_a))) }),
            &[],
        ),
        (
            "sinew_pose_get_local",
            base(|w, a| unsafe {
                st(sinew_pose_get_local(
                    a.h(w, "pose", w.pose_a),
                    a.m("out_local", w.b.out_transforms.as_mut_ptr()),
                    a.u("count", J as u32),
                ))
            }),
            &[],
        ),
        (
            "sinew_pose_set_local",
            base(|w, a| unsafe {
                st(sinew_pose_set_local(
                    a.h(w, "pose", w.pose_a),
                    a.p("local", w.b.locals.as_ptr()),
                    a.u("count", J as u32),
                ))
            }),
            &[],
        ),
        (
            "sinew_pose_get_model",
            base(|w, a| unsafe {
                st(sinew_pose_get_model(
                    a.h(w, "pose", w.pose_a),
                    a.m("out_model", w.b.out_transforms.as_mut_ptr()),
                    a.u("count", J as u32),
                ))
            }),
            &[],
        ),
        (
            "sinew_pose_compute_model",
            base(|w, a| unsafe {
                st(sinew_pose_compute_model(
                    a.h(w, "pose", w.pose_a),
                    a.m("out_model", w.b.out_transforms.as_mut_ptr()),
                    a.u("count", J as u32),
                ))
            }),
            &[],
        ),
        (
            "sinew_pose_set_model",
            base(|w, a| unsafe {
                st(sinew_pose_set_model(
                    a.h(w, "pose", w.pose_a),
                    a.p("model", w.b.model.as_ptr()),
                    a.u("count", J as u32),
                ))
            }),
            &[],
        ),
        (
            "sinew_pose_get_model_transform",
            base(|w, a| unsafe {
                st(sinew_pose_get_model_transform(
                    a.h(w, "pose", w.pose_a),
                    a.u("joint", 4),
                    a.m("out_transform", &mut w.b.out_transform),
                ))
            }),
            &[],
        ),
        (
            "sinew_pose_set_model_transform",
            base(|w, a| unsafe {
                st(sinew_pose_set_model_transform(
                    a.h(w, "pose", w.pose_a),
                    a.u("joint", 4),
                    a.p("transform", &w.b.transform),
                ))
            }),
            &[],
        ),
        // Masks.
        (
            "sinew_joint_mask_create",
            base(|w, a| unsafe {
                let s = sinew_joint_mask_create(
                    a.h(w, "skeleton", w.skel),
                    a.f("value", 0.5),
                    a.m("out_mask", out_handle(&mut w.b)),
                );
                if s == St::Ok {
                    adopt(&mut w.mask, w.b.out_handle, sinew_joint_mask_destroy);
                }
                st(s)
            }),
            &[],
        ),
        (
            "sinew_joint_mask_create_subtree",
            base(|w, a| unsafe {
                let s = sinew_joint_mask_create_subtree(
                    a.h(w, "skeleton", w.skel),
                    a.u("root", 2),
                    a.u("blend_depth", 1),
                    a.m("out_mask", out_handle(&mut w.b)),
                );
                if s == St::Ok {
                    adopt(&mut w.mask, w.b.out_handle, sinew_joint_mask_destroy);
                }
                st(s)
            }),
            &[],
        ),
        (
            "sinew_joint_mask_destroy",
            base(|_, a| unsafe {
                sinew_joint_mask_destroy(a.m("mask", null_mut()));
                Outcome::Void
            }),
            &[],
        ),
        (
            "sinew_joint_mask_set_weight",
            base(|w, a| unsafe {
                st(sinew_joint_mask_set_weight(
                    a.h(w, "mask", w.mask),
                    a.u("joint", 2),
                    a.f("weight", 0.25),
                ))
            }),
            &[],
        ),
        (
            "sinew_joint_mask_set_weights",
            base(|w, a| unsafe {
                st(sinew_joint_mask_set_weights(
                    a.h(w, "mask", w.mask),
                    a.p("weights", w.b.weights.as_ptr()),
                    a.u("count", J as u32),
                ))
            }),
            &[],
        ),
        (
            "sinew_joint_mask_get_weights",
            base(|w, a| unsafe {
                st(sinew_joint_mask_get_weights(
                    a.h(w, "mask", w.mask),
                    a.m("out_weights", w.b.out_floats.as_mut_ptr()),
                    a.u("count", J as u32),
                ))
            }),
            &[],
        ),
        // Blending.
        (
            "sinew_pose_blend",
            base(|w, a| unsafe {
                st(sinew_pose_blend(
                    a.h(w, "a", w.pose_a),
                    a.h(w, "b", w.pose_b),
                    a.f("t", 0.4),
                    a.h(w, "mask", w.mask),
                    a.i("space", SinewBlendSpace::ModelRotation as i32),
                    a.h(w, "out", w.pose_out),
                ))
            }),
            &["mask"],
        ),
        (
            "sinew_pose_blend_layers",
            base(|w, a| unsafe {
                let layers = [
                    SinewBlendLayer {
                        pose: a.h(w, "layers.pose", w.pose_a),
                        weight: w.b.layers[0].weight,
                        mask: a.h(w, "layers.mask", w.mask),
                    },
                    SinewBlendLayer {
                        pose: a.h(w, "layers[1].pose", w.pose_b),
                        weight: w.b.layers[1].weight,
                        mask: null(),
                    },
                ];
                st(sinew_pose_blend_layers(
                    a.p("layers", layers.as_ptr()),
                    a.u("count", 2),
                    a.f("threshold", 0.1),
                    a.h(w, "out", w.pose_out),
                ))
            }),
            &["layers.mask"],
        ),
        (
            "sinew_pose_make_additive",
            base(|w, a| unsafe {
                st(sinew_pose_make_additive(
                    a.h(w, "pose", w.pose_a),
                    a.h(w, "reference", w.pose_b),
                    a.h(w, "out_delta", w.pose_out),
                ))
            }),
            &[],
        ),
        (
            "sinew_pose_apply_additive",
            base(|w, a| unsafe {
                st(sinew_pose_apply_additive(
                    a.h(w, "base", w.pose_a),
                    a.h(w, "delta", w.pose_b),
                    a.f("weight", 0.7),
                    a.h(w, "mask", w.mask),
                    a.h(w, "out", w.pose_out),
                ))
            }),
            &["mask"],
        ),
        // Constraints.
        (
            "sinew_joint_constraint_default",
            base(|w, a| unsafe {
                sinew_joint_constraint_default(a.m("out", &mut w.b.out_constraint));
                Outcome::Void
            }),
            &[],
        ),
        (
            "sinew_pose_apply_constraints",
            base(|w, a| unsafe {
                st(sinew_pose_apply_constraints(
                    a.h(w, "pose", w.pose_a),
                    a.p("joints", w.b.apply_joints.as_ptr()),
                    a.p("constraints", w.b.constraints.as_ptr()),
                    a.u("count", 2),
                ))
            }),
            &[],
        ),
        // Two-bone IK.
        (
            "sinew_two_bone_ik_settings_default",
            base(|w, a| unsafe {
                sinew_two_bone_ik_settings_default(a.m("out", &mut w.b.out_two));
                Outcome::Void
            }),
            &[],
        ),
        (
            "sinew_two_bone_ik_create",
            base(|w, a| unsafe {
                let s = sinew_two_bone_ik_create(
                    a.p("settings", &w.b.two),
                    a.m("out_solver", out_handle(&mut w.b)),
                );
                if s == St::Ok {
                    adopt(&mut w.two_bone, w.b.out_handle, sinew_two_bone_ik_destroy);
                }
                st(s)
            }),
            &[],
        ),
        (
            "sinew_two_bone_ik_destroy",
            base(|_, a| unsafe {
                sinew_two_bone_ik_destroy(a.m("solver", null_mut()));
                Outcome::Void
            }),
            &[],
        ),
        (
            "sinew_two_bone_ik_get_settings",
            base(|w, a| unsafe {
                st(sinew_two_bone_ik_get_settings(
                    a.h(w, "solver", w.two_bone),
                    a.m("out_settings", &mut w.b.out_two),
                ))
            }),
            &[],
        ),
        (
            "sinew_two_bone_ik_set_settings",
            base(|w, a| unsafe {
                st(sinew_two_bone_ik_set_settings(
                    a.h(w, "solver", w.two_bone),
                    a.p("settings", &w.b.two),
                ))
            }),
            &[],
        ),
        (
            "sinew_two_bone_ik_solve",
            base(|w, a| unsafe {
                st(sinew_two_bone_ik_solve(
                    a.h(w, "solver", w.two_bone),
                    a.m("chain", w.b.chain3.as_mut_ptr()),
                    a.p("effector_position", &w.b.effector),
                    a.p("effector_rotation", &w.b.effector_rotation),
                    a.p("joint_target", &w.b.pole),
                    a.m("out_result", &mut w.b.out_result),
                ))
            }),
            &["effector_rotation", "joint_target", "out_result"],
        ),
        (
            "sinew_two_bone_ik_solve_batch",
            base(two_bone_batch),
            &["effector_rotations", "joint_targets", "out_results"],
        ),
        (
            "sinew_two_bone_ik_solve_pose",
            base(|w, a| unsafe {
                st(sinew_two_bone_ik_solve_pose(
                    a.h(w, "solver", w.two_bone),
                    a.h(w, "pose", w.pose_a),
                    a.u("root", 2),
                    a.u("joint", 3),
                    a.u("end", 4),
                    a.p("effector_position", &w.b.pose_effector),
                    a.p("effector_rotation", &w.b.effector_rotation),
                    a.p("joint_target", &w.b.pole),
                    a.m("out_result", &mut w.b.out_result),
                ))
            }),
            &["effector_rotation", "joint_target", "out_result"],
        ),
        // FABRIK.
        (
            "sinew_fabrik_settings_default",
            base(|w, a| unsafe {
                sinew_fabrik_settings_default(a.m("out", &mut w.b.out_fabrik));
                Outcome::Void
            }),
            &[],
        ),
        (
            "sinew_fabrik_create",
            base(|w, a| unsafe {
                let max = a.u("max_joints", N as u32);
                let s = sinew_fabrik_create(
                    a.p("settings", &w.b.fabrik),
                    max,
                    a.m("out_solver", out_handle(&mut w.b)),
                );
                if s == St::Ok {
                    if max as usize >= N {
                        adopt(&mut w.fabrik, w.b.out_handle, sinew_fabrik_destroy);
                    } else {
                        sinew_fabrik_destroy(w.b.out_handle as *mut SinewFabrik);
                    }
                }
                st(s)
            }),
            &[],
        ),
        (
            "sinew_fabrik_destroy",
            base(|_, a| unsafe {
                sinew_fabrik_destroy(a.m("solver", null_mut()));
                Outcome::Void
            }),
            &[],
        ),
        (
            "sinew_fabrik_get_settings",
            base(|w, a| unsafe {
                st(sinew_fabrik_get_settings(
                    a.h(w, "solver", w.fabrik),
                    a.m("out_settings", &mut w.b.out_fabrik),
                ))
            }),
            &[],
        ),
        (
            "sinew_fabrik_set_settings",
            base(|w, a| unsafe {
                st(sinew_fabrik_set_settings(
                    a.h(w, "solver", w.fabrik),
                    a.p("settings", &w.b.fabrik),
                ))
            }),
            &[],
        ),
        (
            "sinew_fabrik_set_constraint",
            base(|w, a| unsafe {
                st(sinew_fabrik_set_constraint(
                    a.h(w, "solver", w.fabrik),
                    a.u("joint", 2),
                    a.p("constraint", &w.b.constraint),
                ))
            }),
            &["constraint"],
        ),
        (
            "sinew_fabrik_solve",
            base(|w, a| unsafe {
                st(sinew_fabrik_solve(
                    a.h(w, "solver", w.fabrik),
                    a.m("chain", w.b.chain.as_mut_ptr()),
                    a.u("joint_count", N as u32),
                    a.p("root_parent_rotation", &w.b.root_parent),
                    a.p("effector_position", &w.b.chain_effector),
                    a.p("effector_rotation", &w.b.effector_rotation),
                    a.m("out_result", &mut w.b.out_result),
                ))
            }),
            &["root_parent_rotation", "effector_rotation", "out_result"],
        ),
        (
            "sinew_fabrik_solve_batch",
            base(|w, a| chain_batch(w, a, true)),
            &["root_parent_rotations", "effector_rotations", "out_results"],
        ),
        (
            "sinew_fabrik_solve_pose",
            base(|w, a| unsafe {
                st(sinew_fabrik_solve_pose(
                    a.h(w, "solver", w.fabrik),
                    a.h(w, "pose", w.pose_a),
                    a.p("joints", w.b.joints.as_ptr()),
                    a.u("joint_count", N as u32),
                    a.p("effector_position", &w.b.pose_effector),
                    a.p("effector_rotation", &w.b.effector_rotation),
                    a.m("out_result", &mut w.b.out_result),
                ))
            }),
            &["effector_rotation", "out_result"],
        ),
        // CCD.
        (
            "sinew_ccd_settings_default",
            base(|w, a| unsafe {
                sinew_ccd_settings_default(a.m("out", &mut w.b.out_ccd));
                Outcome::Void
            }),
            &[],
        ),
        (
            "sinew_ccd_create",
            base(|w, a| unsafe {
                let max = a.u("max_joints", N as u32);
                let s = sinew_ccd_create(
                    a.p("settings", &w.b.ccd),
                    max,
                    a.m("out_solver", out_handle(&mut w.b)),
                );
                if s == St::Ok {
                    if max as usize >= N {
                        adopt(&mut w.ccd, w.b.out_handle, sinew_ccd_destroy);
                    } else {
                        sinew_ccd_destroy(w.b.out_handle as *mut SinewCcd);
                    }
                }
                st(s)
            }),
            &[],
        ),
        (
            "sinew_ccd_destroy",
            base(|_, a| unsafe {
                sinew_ccd_destroy(a.m("solver", null_mut()));
                Outcome::Void
            }),
            &[],
        ),
        (
            "sinew_ccd_get_settings",
            base(|w, a| unsafe {
                st(sinew_ccd_get_settings(
                    a.h(w, "solver", w.ccd),
                    a.m("out_settings", &mut w.b.out_ccd),
                ))
            }),
            &[],
        ),
        (
            "sinew_ccd_set_settings",
            base(|w, a| unsafe {
                st(sinew_ccd_set_settings(
                    a.h(w, "solver", w.ccd),
                    a.p("settings", &w.b.ccd),
                ))
            }),
            &[],
        ),
        (
            "sinew_ccd_set_constraint",
            base(|w, a| unsafe {
                st(sinew_ccd_set_constraint(
                    a.h(w, "solver", w.ccd),
                    a.u("joint", 1),
                    a.p("constraint", &w.b.constraint),
                ))
            }),
            &["constraint"],
        ),
        (
            "sinew_ccd_set_joint",
            base(|w, a| unsafe {
                st(sinew_ccd_set_joint(
                    a.h(w, "solver", w.ccd),
                    a.u("joint", 2),
                    a.f("rotation_limit_degrees", 30.0),
                    a.f("weight", 0.5),
                ))
            }),
            &[],
        ),
        (
            "sinew_ccd_solve",
            base(|w, a| unsafe {
                st(sinew_ccd_solve(
                    a.h(w, "solver", w.ccd),
                    a.m("chain", w.b.chain.as_mut_ptr()),
                    a.u("joint_count", N as u32),
                    a.p("root_parent_rotation", &w.b.root_parent),
                    a.p("effector_position", &w.b.chain_effector),
                    a.p("effector_rotation", &w.b.effector_rotation),
                    a.m("out_result", &mut w.b.out_result),
                ))
            }),
            &["root_parent_rotation", "effector_rotation", "out_result"],
        ),
        (
            "sinew_ccd_solve_batch",
            base(|w, a| chain_batch(w, a, false)),
            &["root_parent_rotations", "effector_rotations", "out_results"],
        ),
        (
            "sinew_ccd_solve_pose",
            base(|w, a| unsafe {
                st(sinew_ccd_solve_pose(
                    a.h(w, "solver", w.ccd),
                    a.h(w, "pose", w.pose_a),
                    a.p("joints", w.b.joints.as_ptr()),
                    a.u("joint_count", N as u32),
                    a.p("effector_position", &w.b.pose_effector),
                    a.p("effector_rotation", &w.b.effector_rotation),
                    a.m("out_result", &mut w.b.out_result),
                ))
            }),
            &["effector_rotation", "out_result"],
        ),
        // Hand IK retargeting.
        (
            "sinew_hand_ik_retargeting_settings_default",
            base(|w, a| unsafe {
                sinew_hand_ik_retargeting_settings_default(a.m("out", &mut w.b.out_hand));
                Outcome::Void
            }),
            &[],
        ),
        (
            "sinew_hand_ik_retargeting_create",
            base(|w, a| unsafe {
                let s = sinew_hand_ik_retargeting_create(
                    a.p("settings", &w.b.hand),
                    a.m("out_node", out_handle(&mut w.b)),
                );
                if s == St::Ok {
                    adopt(
                        &mut w.hand,
                        w.b.out_handle,
                        sinew_hand_ik_retargeting_destroy,
                    );
                }
                st(s)
            }),
            &[],
        ),
        (
            "sinew_hand_ik_retargeting_destroy",
            base(|_, a| unsafe {
                sinew_hand_ik_retargeting_destroy(a.m("node", null_mut()));
                Outcome::Void
            }),
            &[],
        ),
        (
            "sinew_hand_ik_retargeting_get_settings",
            base(|w, a| unsafe {
                st(sinew_hand_ik_retargeting_get_settings(
                    a.h(w, "node", w.hand),
                    a.m("out_settings", &mut w.b.out_hand),
                ))
            }),
            &[],
        ),
        (
            "sinew_hand_ik_retargeting_set_settings",
            base(|w, a| unsafe {
                st(sinew_hand_ik_retargeting_set_settings(
                    a.h(w, "node", w.hand),
                    a.p("settings", &w.b.hand),
                ))
            }),
            &[],
        ),
        (
            "sinew_hand_ik_retargeting_apply_model",
            base(|w, a| unsafe {
                st(sinew_hand_ik_retargeting_apply_model(
                    a.h(w, "node", w.hand),
                    a.m("model", w.b.model.as_mut_ptr()),
                    a.u("count", J as u32),
                    a.p("hands", &w.b.hands),
                    a.p("bones", w.b.bones.as_ptr()),
                    a.u("bone_count", 2),
                    a.m("out_offset", &mut w.b.out_vec3),
                ))
            }),
            &["out_offset"],
        ),
        (
            "sinew_hand_ik_retargeting_apply_pose",
            base(|w, a| unsafe {
                st(sinew_hand_ik_retargeting_apply_pose(
                    a.h(w, "node", w.hand),
                    a.h(w, "pose", w.pose_a),
                    a.p("hands", &w.b.hands),
                    a.p("bones", w.b.bones.as_ptr()),
                    a.u("bone_count", 2),
                    a.m("out_offset", &mut w.b.out_vec3),
                ))
            }),
            &["out_offset"],
        ),
        // Clips.
        (
            "sinew_clip_create",
            base(|w, a| unsafe {
                let s = sinew_clip_create(
                    a.h(w, "skeleton", w.skel),
                    a.f("duration", 1.0),
                    a.m("out_clip", out_handle(&mut w.b)),
                );
                if s == St::Ok {
                    adopt(&mut w.clip, w.b.out_handle, sinew_clip_destroy);
                }
                st(s)
            }),
            &[],
        ),
        (
            "sinew_clip_destroy",
            base(|_, a| unsafe {
                sinew_clip_destroy(a.m("clip", null_mut()));
                Outcome::Void
            }),
            &[],
        ),
        (
            "sinew_clip_duration",
            base(|w, a| unsafe {
                st(sinew_clip_duration(
                    a.h(w, "clip", w.clip),
                    a.m("out_duration", &mut w.b.out_f32),
                ))
            }),
            &[],
        ),
        (
            "sinew_clip_set_translation_track",
            base(|w, a| unsafe {
                st(sinew_clip_set_translation_track(
                    a.h(w, "clip", w.clip),
                    a.u("joint", 2),
                    a.i("interpolation", Cubic as i32),
                    a.p("times", w.b.times.as_ptr()),
                    a.p("values", w.b.v3_values.as_ptr()),
                    a.p("in_tangents", w.b.v3_in.as_ptr()),
                    a.p("out_tangents", w.b.v3_out.as_ptr()),
                    a.u("key_count", 3),
                ))
            }),
            &[],
        ),
        (
            "sinew_clip_set_rotation_track",
            base(|w, a| unsafe {
                st(sinew_clip_set_rotation_track(
                    a.h(w, "clip", w.clip),
                    a.u("joint", 2),
                    a.i("interpolation", Cubic as i32),
                    a.p("times", w.b.times.as_ptr()),
                    a.p("values", w.b.q_values.as_ptr()),
                    a.p("in_tangents", w.b.q_in.as_ptr()),
                    a.p("out_tangents", w.b.q_out.as_ptr()),
                    a.u("key_count", 3),
                ))
            }),
            &[],
        ),
        (
            "sinew_clip_set_scale_track",
            base(|w, a| unsafe {
                st(sinew_clip_set_scale_track(
                    a.h(w, "clip", w.clip),
                    a.u("joint", 2),
                    a.i("interpolation", Cubic as i32),
                    a.p("times", w.b.times.as_ptr()),
                    a.p("values", w.b.s_values.as_ptr()),
                    a.p("in_tangents", w.b.v3_in.as_ptr()),
                    a.p("out_tangents", w.b.v3_out.as_ptr()),
                    a.u("key_count", 3),
                ))
            }),
            &[],
        ),
        (
            "sinew_clip_clear_track",
            base(|w, a| unsafe {
                st(sinew_clip_clear_track(
                    a.h(w, "clip", w.clip),
                    a.u("joint", 3),
                    a.i("property", SinewTrackProperty::Rotation as i32),
                ))
            }),
            &[],
        ),
        (
            "sinew_clip_cursor_create",
            base(|w, a| unsafe {
                let s = sinew_clip_cursor_create(
                    a.h(w, "clip", w.clip),
                    a.m("out_cursor", out_handle(&mut w.b)),
                );
                if s == St::Ok {
                    adopt(&mut w.cursor, w.b.out_handle, sinew_clip_cursor_destroy);
                }
                st(s)
            }),
            &[],
        ),
        (
            "sinew_clip_cursor_destroy",
            base(|_, a| unsafe {
                sinew_clip_cursor_destroy(a.m("cursor", null_mut()));
                Outcome::Void
            }),
            &[],
        ),
        (
            "sinew_clip_sample",
            base(|w, a| unsafe {
                st(sinew_clip_sample(
                    a.h(w, "clip", w.clip),
                    a.h(w, "cursor", w.cursor),
                    a.f("time", 0.3),
                    a.u("looping", 1),
                    a.h(w, "out", w.pose_out),
                ))
            }),
            &["cursor"],
        ),
        // Crossfades.
        (
            "sinew_crossfade_create",
            base(|w, a| unsafe {
                let s = sinew_crossfade_create(
                    a.h(w, "skeleton", w.skel),
                    a.u("max_fades", 2),
                    a.m("out_crossfade", out_handle(&mut w.b)),
                );
                if s == St::Ok {
                    adopt(&mut w.crossfade, w.b.out_handle, sinew_crossfade_destroy);
                }
                st(s)
            }),
            &[],
        ),
        (
            "sinew_crossfade_destroy",
            base(|_, a| unsafe {
                sinew_crossfade_destroy(a.m("crossfade", null_mut()));
                Outcome::Void
            }),
            &[],
        ),
        (
            "sinew_crossfade_play",
            base(|w, a| unsafe {
                st(sinew_crossfade_play(
                    a.h(w, "crossfade", w.crossfade),
                    a.h(w, "clip", w.clip),
                    a.u("looping", 1),
                ))
            }),
            &[],
        ),
        (
            "sinew_crossfade_fade_to",
            base(|w, a| unsafe {
                st(sinew_crossfade_fade_to(
                    a.h(w, "crossfade", w.crossfade),
                    a.h(w, "clip", w.clip),
                    a.f("duration", 0.3),
                    a.i("curve", SinewFadeCurve::Smooth as i32),
                    a.u("looping", 1),
                    a.m("out_queued", &mut w.b.out_u32[0]),
                ))
            }),
            &["out_queued"],
        ),
        (
            "sinew_crossfade_update",
            base(|w, a| unsafe {
                st(sinew_crossfade_update(
                    a.h(w, "crossfade", w.crossfade),
                    a.f("dt", 0.05),
                ))
            }),
            &[],
        ),
        (
            "sinew_crossfade_get_pose",
            base(|w, a| unsafe {
                st(sinew_crossfade_get_pose(
                    a.h(w, "crossfade", w.crossfade),
                    a.h(w, "out", w.pose_out),
                ))
            }),
            &[],
        ),
        (
            "sinew_crossfade_fade_count",
            base(|w, a| unsafe {
                st(sinew_crossfade_fade_count(
                    a.h(w, "crossfade", w.crossfade),
                    a.m("out_count", &mut w.b.out_u32[0]),
                ))
            }),
            &[],
        ),
        (
            "sinew_crossfade_get_weights",
            base(|w, a| unsafe {
                st(sinew_crossfade_get_weights(
                    a.h(w, "crossfade", w.crossfade),
                    a.m("out_weights", w.b.out_floats.as_mut_ptr()),
                    a.u("capacity", 4),
                    a.m("out_count", &mut w.b.out_u32[1]),
                ))
            }),
            &[],
        ),
        (
            "sinew_crossfade_get_times",
            base(|w, a| unsafe {
                st(sinew_crossfade_get_times(
                    a.h(w, "crossfade", w.crossfade),
                    a.m("out_times", w.b.out_floats.as_mut_ptr()),
                    a.u("capacity", 4),
                    a.m("out_count", &mut w.b.out_u32[1]),
                ))
            }),
            &[],
        ),
        (
            "sinew_crossfade_is_inertializing",
            base(|w, a| unsafe {
                st(sinew_crossfade_is_inertializing(
                    a.h(w, "crossfade", w.crossfade),
                    a.m("out_active", &mut w.b.out_u32[0]),
                    a.m("out_remaining", &mut w.b.out_f32),
                ))
            }),
            &["out_remaining"],
        ),
    ]
}

// ------------------------------------------------------------------------------ the table

type Call = Arc<dyn Fn(&mut World) -> Outcome + Send + Sync>;

enum Setup {
    None,
    Bufs(Box<dyn Fn(&mut Bufs) + Send + Sync>),
    World(Box<dyn Fn(&mut World) + Send + Sync>),
}

type BufsEdit = fn(&mut Bufs);
type WorldEdit = fn(&mut World);
type ConstraintEdit = fn(&mut SinewJointConstraint);
type SettingsEdit = fn(&mut SinewTwoBoneIkSettings);

fn bufs(f: impl Fn(&mut Bufs) + Send + Sync + 'static) -> Setup {
    Setup::Bufs(Box::new(f))
}

fn world(f: impl Fn(&mut World) + Send + Sync + 'static) -> Setup {
    Setup::World(Box::new(f))
}

struct Case {
    export: &'static str,
    param: String,
    class: Class,
    name: String,
    setup: Setup,
    call: Call,
    /// Allowed statuses; empty for a function that returns nothing.
    expect: Vec<St>,
    /// After a success, probing may meet NUMERIC_OVERFLOW (a huge value was accepted into state).
    lenient: bool,
    /// On failure, text the error message must contain (the argument or chain at fault).
    needle: Option<String>,
}

struct Table {
    cases: Vec<Case>,
    bases: BTreeMap<&'static str, (Base, &'static [&'static str])>,
    /// Problems building the table (unknown export, no domain for a float field, ...).
    gaps: Vec<String>,
}

impl Table {
    fn call(&self, export: &'static str, args: Args) -> Call {
        let f = self.bases[export].0;
        // Each case runs once, on one thread, so the counter needs no more than a reset.
        Arc::new(move |w| {
            args.used.store(0, Ordering::Relaxed);
            let out = f(w, &args);
            if args.used.load(Ordering::Relaxed) != args.overrides() {
                return Outcome::Fail(format!(
                    "the base call consulted {} of {} overrides (misspelt parameter?)",
                    args.used.load(Ordering::Relaxed),
                    args.overrides()
                ));
            }
            out
        })
    }

    #[allow(clippy::too_many_arguments)]
    fn add(
        &mut self,
        export: &'static str,
        param: &str,
        class: Class,
        what: &str,
        args: Args,
        setup: Setup,
        expect: &[St],
    ) {
        let call = self.call(export, args);
        self.push(export, param, class, what, setup, call, expect);
    }

    #[allow(clippy::too_many_arguments)]
    fn custom(
        &mut self,
        export: &'static str,
        param: &str,
        class: Class,
        what: &str,
        setup: Setup,
        call: impl Fn(&mut World) -> Outcome + Send + Sync + 'static,
        expect: &[St],
    ) {
        self.push(export, param, class, what, setup, Arc::new(call), expect);
    }

    #[allow(clippy::too_many_arguments)]
    fn push(
        &mut self,
        export: &'static str,
        param: &str,
        class: Class,
        what: &str,
        setup: Setup,
        call: Call,
        expect: &[St],
    ) {
        self.cases.push(Case {
            export,
            param: param.to_string(),
            class,
            name: format!("{export}: {what}"),
            setup,
            call,
            expect: expect.to_vec(),
            lenient: class == Class::Overflow,
            needle: None,
        });
    }

    /// The last case's failure message must contain `needle`.
    fn needle(&mut self, needle: impl Into<String>) {
        self.cases.last_mut().expect("a case").needle = Some(needle.into());
    }
}

const OK: &[St] = &[St::Ok];
const NULLP: &[St] = &[St::NullPointer];
const INVALID: &[St] = &[St::InvalidArgument];
const RANGE: &[St] = &[St::OutOfRange];
const SIZE: &[St] = &[St::SizeMismatch];
const SKELETON: &[St] = &[St::InvalidSkeleton];
const OVERFLOW: &[St] = &[St::NumericOverflow];
const NOT_FOUND: &[St] = &[St::NotFound];

fn pose2(w: &World) -> *mut c_void {
    w.pose2.cast()
}
fn pose3(w: &World) -> *mut c_void {
    w.pose3.cast()
}
fn pose_a(w: &World) -> *mut c_void {
    w.pose_a.cast()
}
fn pose_b(w: &World) -> *mut c_void {
    w.pose_b.cast()
}
fn pose_out(w: &World) -> *mut c_void {
    w.pose_out.cast()
}
fn mask2(w: &World) -> *mut c_void {
    w.mask2.cast()
}
fn skel2(w: &World) -> *mut c_void {
    w.skel2.cast()
}
fn clip_a(w: &World) -> *mut c_void {
    w.clip_a.cast()
}
fn clip_b(w: &World) -> *mut c_void {
    w.clip_b.cast()
}
fn clip2(w: &World) -> *mut c_void {
    w.clip2.cast()
}
fn cursor2(w: &World) -> *mut c_void {
    w.cursor2.cast()
}

/// Sets pose A's local transforms (accepted: finite) so that its model space overflows f32.
fn overflow_pose(w: &mut World) {
    let mut local = posed(0.15);
    local[0].scale = v(1e30, 1e30, 1e30);
    local[1].translation = v(1e30, 1e30, 0.0);
    // SAFETY: a live pose and a buffer of J transforms.
    ok(unsafe { sinew_pose_set_local(w.pose_a, local.as_ptr(), J as u32) });
}

/// Sets pose A's joint `joint` local translation (a zero-length bone for 0).
fn pose_translation(w: &mut World, joint: usize, t: SinewVec3) {
    let mut local = posed(0.15);
    local[joint].translation = t;
    // SAFETY: a live pose and a buffer of J transforms.
    ok(unsafe { sinew_pose_set_local(w.pose_a, local.as_ptr(), J as u32) });
}

/// Model-space position of pose A's joint.
fn pose_position(w: &World, joint: u32) -> SinewVec3 {
    let mut t = SENT_T;
    // SAFETY: a live pose and a local out-pointer.
    ok(unsafe { sinew_pose_get_model_transform(w.pose_a, joint, &mut t) });
    t.translation
}

fn build_table(funcs: &[Func], need: &BTreeSet<Key>) -> Table {
    let mut t = Table {
        cases: Vec::new(),
        bases: BTreeMap::new(),
        gaps: Vec::new(),
    };
    for (name, f, optional) in bases() {
        t.bases.insert(name, (f, optional));
    }
    for f in funcs {
        if !t.bases.contains_key(f.name.as_str()) {
            t.gaps
                .push(format!("{} has no base call in the table", f.name));
        }
    }
    let void: BTreeSet<&str> = funcs
        .iter()
        .filter(|f| f.void)
        .map(|f| f.name.as_str())
        .collect();
    let exports: Vec<&'static str> = t.bases.keys().copied().collect();
    let export_of = |name: &str| exports.iter().copied().find(|e| *e == name);

    // NULL for every pointer argument and pointer field, from the header.
    for (export, path, n) in need {
        let Some(export) = export_of(export) else {
            continue;
        };
        match n {
            Need::Null => {
                let expect = if void.contains(export) {
                    &[][..]
                } else if t.bases[export].1.contains(&path.as_str()) {
                    OK
                } else {
                    NULLP
                };
                t.add(
                    export,
                    path,
                    Class::Null,
                    &format!("{path} = NULL"),
                    Args::null(path),
                    Setup::None,
                    expect,
                );
                if is_batch(export) && expect == NULLP {
                    t.needle(format!("`{path}`"));
                }
            }
            Need::Float(class) => {
                let value = FLOAT_CLASSES.iter().find(|(c, _)| c == class).unwrap().1;
                let Some(dom) = domain(export, path) else {
                    t.gaps.push(format!("{export}: no domain for float {path}"));
                    continue;
                };
                let by_value = funcs
                    .iter()
                    .find(|f| f.name == export)
                    .and_then(|f| f.params.iter().find(|p| p.name == *path))
                    .is_some_and(|p| p.ptr == 0);
                let lenient = *class == Class::Huge && matches!(dom, Dom::Free);
                if by_value {
                    let name: &'static str = Box::leak(path.clone().into_boxed_str());
                    t.add(
                        export,
                        path,
                        *class,
                        &format!("{path} = {value:e}"),
                        Args::none().float(name, value),
                        Setup::None,
                        &dom.expect(*class),
                    );
                    t.cases.last_mut().unwrap().lenient = lenient;
                    continue;
                }
                let (param, field) = split(path);
                let (param, field) = (param.to_string(), field.to_string());
                let mut scratch = Bufs::new();
                let Some(elements) = slot(&mut scratch, export, &param) else {
                    t.gaps.push(format!("{export}: no buffer for {param}"));
                    continue;
                };
                let count = elements.len();
                drop(elements);
                for k in planted(export, count) {
                    let dom = if let Dom::KeyTime(_) = dom {
                        Dom::KeyTime(k)
                    } else {
                        dom
                    };
                    let mut probe_bufs = Bufs::new();
                    if slot(&mut probe_bufs, export, &param).unwrap()[k]
                        .float_mut(&field)
                        .is_none()
                    {
                        t.gaps
                            .push(format!("{export}: {param} has no float field {field:?}"));
                        break;
                    }
                    let (p, f) = (param.clone(), field.clone());
                    let setup = bufs(move |b| {
                        *slot(b, export, &p).unwrap()[k].float_mut(&f).unwrap() = value;
                    });
                    let shown = if field.is_empty() {
                        String::new()
                    } else {
                        format!(".{field}")
                    };
                    t.add(
                        export,
                        path,
                        *class,
                        &format!("{param}[{k}]{shown} = {value:e}"),
                        Args::none(),
                        setup,
                        &dom.expect(*class),
                    );
                    t.cases.last_mut().unwrap().lenient = lenient;
                    if is_batch(export) {
                        // Huge values may overflow that chain: the base call checks that case.
                        t.needle(format!("chain {BAD}"));
                    }
                }
            }
            Need::Other => {}
        }
    }

    manual_cases(&mut t);
    t
}

/// Integer arguments and fields, counts, sizes, parents, keys, degenerate geometry, aliasing,
/// state: written out one by one.
fn manual_cases(t: &mut Table) {
    use Class::*;
    let none = Args::none;

    t.add(
        "sinew_abi_version",
        "",
        Valid,
        "returns SINEW_ABI_VERSION",
        none(),
        Setup::None,
        &[],
    );
    t.add(
        "sinew_last_error_message",
        "capacity",
        Count,
        "capacity 0 with a NULL buffer (length query)",
        Args::null("buf").int("capacity", 0),
        Setup::None,
        OK,
    );
    t.add(
        "sinew_last_error_message",
        "capacity",
        Count,
        "capacity 1 (only the NUL)",
        none().int("capacity", 1),
        Setup::None,
        OK,
    );

    // ---- skeletons
    let sk = "sinew_skeleton_create";
    t.add(
        sk,
        "joint_count",
        Count,
        "joint_count 0",
        none().int("joint_count", 0),
        Setup::None,
        RANGE,
    );
    for (what, n, expect) in [
        (
            "joint_count SINEW_MAX_JOINTS + 1",
            SINEW_MAX_JOINTS + 1,
            RANGE,
        ),
        (
            "joint_count SINEW_MAX_JOINTS (a flat skeleton)",
            SINEW_MAX_JOINTS,
            OK,
        ),
    ] {
        t.custom(
            sk,
            "joint_count",
            Count,
            what,
            Setup::None,
            move |w| {
                let parents = vec![-1i32; n as usize];
                let rest = vec![tr([0.0, 0.0, 0.0], ID, 1.0); n as usize];
                // SAFETY: both buffers hold `n` items.
                let s = unsafe {
                    sinew_skeleton_create(
                        parents.as_ptr(),
                        rest.as_ptr(),
                        null(),
                        n,
                        out_handle(&mut w.b),
                    )
                };
                if s == St::Ok {
                    if let Some(e) = check_new_skeleton(w.b.out_handle as *mut _) {
                        return Outcome::Fail(e);
                    }
                }
                st(s)
            },
            expect,
        );
    }
    for (what, k, p) in [
        ("parents: a cycle (1 -> 2 -> 1)", 1, 2),
        ("parents: self-parented joint 3", 3, 3),
        ("parents: self-parented root", 0, 0),
        ("parents: forward reference (2 -> 5)", 2, 5),
        ("parents: parent -2", 4, -2),
        ("parents: parent beyond the joint count", 7, 100),
    ] {
        t.add(
            sk,
            "parents",
            Parents,
            what,
            none(),
            bufs(move |b| {
                b.parents[k] = p;
                if k == 1 {
                    b.parents[2] = 1;
                }
            }),
            SKELETON,
        );
    }
    t.add(
        sk,
        "rest_pose",
        Domain,
        "rest rotation is a zero quaternion",
        none(),
        bufs(|b| b.rest[3].rotation = SinewQuat::default()),
        INVALID,
    );
    for (what, names, expect) in [
        (
            "names: duplicate",
            [c"a", c"b", c"c", c"d", c"e", c"f", c"g", c"a"],
            SKELETON,
        ),
        (
            "names: empty",
            [c"a", c"b", c"", c"d", c"e", c"f", c"g", c"h"],
            SKELETON,
        ),
        (
            "names: not UTF-8",
            [c"a", c"b", c"c", c"\xff\xfe", c"e", c"f", c"g", c"h"],
            INVALID,
        ),
    ] {
        t.custom(
            sk,
            "names",
            Name,
            what,
            Setup::None,
            move |w| {
                let names = names.map(CStr::as_ptr);
                // SAFETY: J parents, J rest transforms, J NUL-terminated names.
                st(unsafe {
                    sinew_skeleton_create(
                        w.b.parents.as_ptr(),
                        w.b.rest.as_ptr(),
                        names.as_ptr(),
                        J as u32,
                        out_handle(&mut w.b),
                    )
                })
            },
            expect,
        );
    }
    t.custom(
        sk,
        "names",
        Null,
        "names[5] = NULL",
        Setup::None,
        |w| {
            let mut names = NAMES.map(CStr::as_ptr);
            names[5] = null();
            // SAFETY: as above, with one NULL entry (documented to be rejected).
            st(unsafe {
                sinew_skeleton_create(
                    w.b.parents.as_ptr(),
                    w.b.rest.as_ptr(),
                    names.as_ptr(),
                    J as u32,
                    out_handle(&mut w.b),
                )
            })
        },
        NULLP,
    );
    let fj = "sinew_skeleton_find_joint";
    // Names are UTF-8 (as `sinew_skeleton_create` requires): one that is not is an invalid
    // argument, not a lossy lookup that could match a joint named U+FFFD.
    for (what, name, expect) in [
        ("unknown name", c"elbow", NOT_FOUND),
        ("empty name", c"", NOT_FOUND),
        ("name not UTF-8", c"\xff", INVALID),
    ] {
        t.custom(
            fj,
            "name",
            Name,
            what,
            Setup::None,
            move |w| {
                // SAFETY: a live skeleton, a NUL-terminated name, an out-pointer into the buffers.
                st(
                    unsafe {
                        sinew_skeleton_find_joint(w.skel, name.as_ptr(), &mut w.b.out_u32[0])
                    },
                )
            },
            expect,
        );
    }
    for export in [
        "sinew_skeleton_get_parents",
        "sinew_skeleton_get_rest_pose",
        "sinew_pose_get_local",
        "sinew_pose_set_local",
        "sinew_pose_get_model",
        "sinew_pose_compute_model",
        "sinew_pose_set_model",
        "sinew_joint_mask_set_weights",
        "sinew_joint_mask_get_weights",
    ] {
        for n in [0, J as i64 - 1, J as i64 + 1] {
            t.add(
                export,
                "count",
                Size,
                &format!("count {n} for {J} joints"),
                none().int("count", n),
                Setup::None,
                SIZE,
            );
        }
    }
    t.add(
        "sinew_pose_get_local",
        "count",
        Size,
        "pose of another skeleton, its count",
        none().swap("pose", pose2).int("count", J2 as i64),
        Setup::None,
        OK,
    );
    t.custom(
        "sinew_pose_get_local",
        "out_local",
        Align,
        "misaligned out_local",
        Setup::None,
        |w| {
            // SAFETY: the pointer is misaligned on purpose; the export checks alignment first.
            st(unsafe {
                sinew_pose_get_local(
                    w.pose_a,
                    w.b.out_transforms.as_mut_ptr().cast::<u8>().add(1).cast(),
                    J as u32,
                )
            })
        },
        INVALID,
    );

    // ---- poses
    for export in [
        "sinew_pose_get_model_transform",
        "sinew_pose_set_model_transform",
    ] {
        t.add(
            export,
            "joint",
            Range,
            "joint = joint count",
            none().int("joint", J as i64),
            Setup::None,
            RANGE,
        );
        t.add(
            export,
            "joint",
            Range,
            "joint = u32::MAX",
            none().int("joint", u32::MAX as i64),
            Setup::None,
            RANGE,
        );
    }
    t.add(
        "sinew_pose_get_model",
        "pose",
        Overflow,
        "model space overflows",
        none(),
        world(overflow_pose),
        OVERFLOW,
    );
    t.add(
        "sinew_pose_compute_model",
        "pose",
        Overflow,
        "model space overflows",
        none(),
        world(overflow_pose),
        OVERFLOW,
    );
    t.add(
        "sinew_pose_get_model_transform",
        "pose",
        Overflow,
        "model space overflows",
        none(),
        world(overflow_pose),
        OVERFLOW,
    );
    t.add(
        "sinew_pose_set_model_transform",
        "pose",
        Overflow,
        "parent model space overflows",
        none(),
        world(overflow_pose),
        OVERFLOW,
    );
    t.add(
        "sinew_pose_set_local",
        "local",
        Domain,
        "zero quaternion",
        none(),
        bufs(|b| b.locals[2].rotation = SinewQuat::default()),
        INVALID,
    );
    t.add(
        "sinew_pose_set_local",
        "local",
        Denormal,
        "every rotation component denormal (no usable direction)",
        none(),
        bufs(|b| {
            b.locals[2].rotation = SinewQuat {
                x: 1e-40,
                y: 1e-40,
                z: 1e-40,
                w: 1e-40,
            }
        }),
        INVALID,
    );
    t.add(
        "sinew_pose_set_model",
        "model",
        Domain,
        "zero quaternion",
        none(),
        bufs(|b| b.model[6].rotation = SinewQuat::default()),
        INVALID,
    );
    t.add(
        "sinew_pose_set_model",
        "model",
        Degenerate,
        "zero scale (safe reciprocal)",
        none(),
        bufs(|b| b.model[2].scale = v(0.0, 0.0, 0.0)),
        OK,
    );
    t.add(
        "sinew_pose_set_model",
        "model",
        Degenerate,
        "coincident joints",
        none(),
        bufs(|b| b.model[3].translation = b.model[2].translation),
        OK,
    );
    t.add(
        "sinew_pose_set_model_transform",
        "transform",
        Domain,
        "zero quaternion",
        none(),
        bufs(|b| b.transform.rotation = SinewQuat::default()),
        INVALID,
    );
    t.add(
        "sinew_pose_create",
        "skeleton",
        Valid,
        "a pose of the other skeleton",
        none().swap("skeleton", skel2),
        Setup::None,
        OK,
    );

    // ---- masks
    t.add(
        "sinew_joint_mask_create",
        "value",
        Domain,
        "value -0.5",
        none().float("value", -0.5),
        Setup::None,
        INVALID,
    );
    t.add(
        "sinew_joint_mask_create",
        "value",
        Domain,
        "value 1.5",
        none().float("value", 1.5),
        Setup::None,
        INVALID,
    );
    t.add(
        "sinew_joint_mask_create_subtree",
        "root",
        Range,
        "root = joint count",
        none().int("root", J as i64),
        Setup::None,
        RANGE,
    );
    t.add(
        "sinew_joint_mask_create_subtree",
        "blend_depth",
        Valid,
        "blend_depth u32::MAX",
        none().int("blend_depth", u32::MAX as i64),
        Setup::None,
        OK,
    );
    t.add(
        "sinew_joint_mask_set_weight",
        "joint",
        Range,
        "joint = joint count",
        none().int("joint", J as i64),
        Setup::None,
        RANGE,
    );
    t.add(
        "sinew_joint_mask_set_weight",
        "weight",
        Domain,
        "weight -0.1",
        none().float("weight", -0.1),
        Setup::None,
        INVALID,
    );
    t.add(
        "sinew_joint_mask_set_weights",
        "weights",
        Domain,
        "last weight 1.5 (validated before any is written)",
        none(),
        bufs(|b| b.weights[J - 1] = 1.5),
        INVALID,
    );

    // ---- blending
    let bl = "sinew_pose_blend";
    t.add(
        bl,
        "t",
        Domain,
        "t -0.5",
        none().float("t", -0.5),
        Setup::None,
        INVALID,
    );
    t.add(
        bl,
        "t",
        Domain,
        "t 1.5",
        none().float("t", 1.5),
        Setup::None,
        INVALID,
    );
    t.add(
        bl,
        "space",
        Enum,
        "space 2",
        none().int("space", 2),
        Setup::None,
        INVALID,
    );
    t.add(
        bl,
        "space",
        Enum,
        "space -1",
        none().int("space", -1),
        Setup::None,
        INVALID,
    );
    for p in ["a", "b", "out"] {
        t.add(
            bl,
            p,
            Size,
            &format!("{p} of another skeleton"),
            none().swap(p, pose2),
            Setup::None,
            SIZE,
        );
        t.add(
            bl,
            p,
            Size,
            &format!("{p} of a skeleton with other parents"),
            none().swap(p, pose3),
            Setup::None,
            INVALID,
        );
    }
    t.add(
        bl,
        "mask",
        Size,
        "mask of another skeleton",
        none().swap("mask", mask2),
        Setup::None,
        SIZE,
    );
    t.add(
        bl,
        "mask",
        Size,
        "mask of another skeleton, out == a",
        none().swap("mask", mask2).swap("out", pose_a),
        Setup::None,
        SIZE,
    );
    t.add(
        bl,
        "out",
        Alias,
        "out == a (allowed)",
        none().swap("out", pose_a),
        Setup::None,
        OK,
    );
    t.add(
        bl,
        "out",
        Alias,
        "out == b (allowed)",
        none().swap("out", pose_b),
        Setup::None,
        OK,
    );
    t.add(
        bl,
        "out",
        Alias,
        "a == b == out (allowed)",
        none().swap("a", pose_out).swap("b", pose_out),
        Setup::None,
        OK,
    );
    t.add(
        bl,
        "t",
        Domain,
        "t NaN with out == a == b",
        none()
            .swap("a", pose_out)
            .swap("b", pose_out)
            .float("t", f32::NAN),
        Setup::None,
        &[St::NonFinite],
    );
    let ly = "sinew_pose_blend_layers";
    t.add(
        ly,
        "count",
        Count,
        "count 0 (the rest pose)",
        none().int("count", 0),
        Setup::None,
        OK,
    );
    t.add(
        ly,
        "threshold",
        Domain,
        "threshold 0",
        none().float("threshold", 0.0),
        Setup::None,
        INVALID,
    );
    t.add(
        ly,
        "threshold",
        Domain,
        "threshold -1",
        none().float("threshold", -1.0),
        Setup::None,
        INVALID,
    );
    t.add(
        ly,
        "layers.weight",
        Domain,
        "layer weight -1",
        none(),
        bufs(|b| b.layers[1].weight = -1.0),
        INVALID,
    );
    t.add(
        ly,
        "layers.weight",
        Valid,
        "all layer weights 0 (the rest pose)",
        none(),
        bufs(|b| b.layers = [LayerWeight { weight: 0.0 }; 2]),
        OK,
    );
    t.add(
        ly,
        "layers.pose",
        Null,
        "layers[1].pose = NULL",
        Args::null("layers[1].pose"),
        Setup::None,
        NULLP,
    );
    t.add(
        ly,
        "layers.pose",
        Size,
        "layer pose of another skeleton",
        none().swap("layers[1].pose", pose2),
        Setup::None,
        SIZE,
    );
    t.add(
        ly,
        "layers.pose",
        Size,
        "layer pose of a skeleton with other parents",
        none().swap("layers[1].pose", pose3),
        Setup::None,
        INVALID,
    );
    t.add(
        ly,
        "layers.mask",
        Size,
        "layer mask of another skeleton",
        none().swap("layers.mask", mask2),
        Setup::None,
        SIZE,
    );
    t.add(
        ly,
        "out",
        Size,
        "out of another skeleton",
        none().swap("out", pose2),
        Setup::None,
        SIZE,
    );
    t.add(
        ly,
        "out",
        Size,
        "out of a skeleton with other parents",
        none().swap("out", pose3),
        Setup::None,
        INVALID,
    );
    t.add(
        ly,
        "out",
        Alias,
        "out is a layer's pose",
        none().swap("out", pose_b),
        Setup::None,
        INVALID,
    );
    let mk = "sinew_pose_make_additive";
    for p in ["pose", "reference", "out_delta"] {
        t.add(
            mk,
            p,
            Size,
            &format!("{p} of another skeleton"),
            none().swap(p, pose2),
            Setup::None,
            SIZE,
        );
        t.add(
            mk,
            p,
            Size,
            &format!("{p} of a skeleton with other parents"),
            none().swap(p, pose3),
            Setup::None,
            INVALID,
        );
    }
    t.add(
        mk,
        "out_delta",
        Alias,
        "out_delta == pose",
        none().swap("out_delta", pose_a),
        Setup::None,
        INVALID,
    );
    t.add(
        mk,
        "out_delta",
        Alias,
        "out_delta == reference",
        none().swap("out_delta", pose_b),
        Setup::None,
        INVALID,
    );
    let ad = "sinew_pose_apply_additive";
    for p in ["base", "delta", "out"] {
        t.add(
            ad,
            p,
            Size,
            &format!("{p} of another skeleton"),
            none().swap(p, pose2),
            Setup::None,
            SIZE,
        );
        t.add(
            ad,
            p,
            Size,
            &format!("{p} of a skeleton with other parents"),
            none().swap(p, pose3),
            Setup::None,
            INVALID,
        );
    }
    t.add(
        ad,
        "mask",
        Size,
        "mask of another skeleton",
        none().swap("mask", mask2),
        Setup::None,
        SIZE,
    );
    t.add(
        ad,
        "out",
        Alias,
        "out == delta",
        none().swap("out", pose_b),
        Setup::None,
        INVALID,
    );
    t.add(
        ad,
        "out",
        Alias,
        "out == base (allowed)",
        none().swap("out", pose_a),
        Setup::None,
        OK,
    );
    t.add(
        ad,
        "weight",
        Valid,
        "weight -1 (subtracts)",
        none().float("weight", -1.0),
        Setup::None,
        OK,
    );

    // ---- constraints
    let ac = "sinew_pose_apply_constraints";
    t.add(
        ac,
        "count",
        Count,
        "count 0",
        none().int("count", 0),
        Setup::None,
        OK,
    );
    t.add(
        ac,
        "joints",
        Range,
        "joints[1] = joint count (validated before any is applied)",
        none(),
        bufs(|b| b.apply_joints[1] = J as u32),
        RANGE,
    );
    t.add(
        ac,
        "pose",
        Size,
        "pose of another skeleton (joints out of its range)",
        none().swap("pose", pose2),
        Setup::None,
        RANGE,
    );
    constraint_cases(t, ac, "constraints", |b| &mut b.constraints[1]);
    for export in ["sinew_fabrik_set_constraint", "sinew_ccd_set_constraint"] {
        t.add(
            export,
            "joint",
            Range,
            "joint = max_joints",
            none().int("joint", N as i64),
            Setup::None,
            RANGE,
        );
        t.add(
            export,
            "joint",
            Range,
            "joint = u32::MAX",
            none().int("joint", u32::MAX as i64),
            Setup::None,
            RANGE,
        );
        constraint_cases(t, export, "constraint", |b| &mut b.constraint);
    }

    // ---- solver settings
    for export in ["sinew_two_bone_ik_create", "sinew_two_bone_ik_set_settings"] {
        for (what, f) in [
            ("weight -0.1", (|b| b.two.weight = -0.1) as BufsEdit),
            ("soften 0", |b| b.two.soften = 0.0),
            ("start_stretch_ratio 0", |b| b.two.start_stretch_ratio = 0.0),
            ("max_stretch_scale 0.9", |b| b.two.max_stretch_scale = 0.9),
            ("pole_weight 1.5", |b| b.two.pole_weight = 1.5),
        ] {
            t.add(export, "settings", Domain, what, none(), bufs(f), INVALID);
        }
        for (path, f) in [
            (
                "settings.allow_stretching",
                (|b| b.two.allow_stretching = 2) as BufsEdit,
            ),
            ("settings.keep_twist", |b| b.two.keep_twist = 2),
            ("settings.end_rotation", |b| b.two.end_rotation = 3),
        ] {
            t.add(
                export,
                path,
                Enum,
                &format!("{path} out of its set"),
                none(),
                bufs(f),
                INVALID,
            );
        }
    }
    for export in ["sinew_fabrik_create", "sinew_fabrik_set_settings"] {
        for (path, class, f) in [
            (
                "settings.relative_precision",
                Enum,
                (|b| b.fabrik.relative_precision = 2) as BufsEdit,
            ),
            ("settings.stop_when_stalled", Enum, |b| {
                b.fabrik.stop_when_stalled = 2
            }),
            ("settings.end_rotation", Enum, |b| {
                b.fabrik.end_rotation = -1
            }),
            ("settings.max_iterations", Count, |b| {
                b.fabrik.max_iterations = 0
            }),
            ("settings.precision", Domain, |b| b.fabrik.precision = 0.0),
        ] {
            t.add(
                export,
                path,
                class,
                &format!("{path} invalid"),
                none(),
                bufs(f),
                INVALID,
            );
        }
    }
    for export in ["sinew_ccd_create", "sinew_ccd_set_settings"] {
        for (path, class, f) in [
            (
                "settings.relative_precision",
                Enum,
                (|b| b.ccd.relative_precision = 2) as BufsEdit,
            ),
            ("settings.start_from_tail", Enum, |b| {
                b.ccd.start_from_tail = 2
            }),
            ("settings.fix_root", Enum, |b| b.ccd.fix_root = 7),
            ("settings.stop_when_stalled", Enum, |b| {
                b.ccd.stop_when_stalled = 2
            }),
            ("settings.end_rotation", Enum, |b| b.ccd.end_rotation = 3),
            ("settings.max_iterations", Count, |b| {
                b.ccd.max_iterations = 0
            }),
            ("settings.precision", Domain, |b| b.ccd.precision = -1.0),
        ] {
            t.add(
                export,
                path,
                class,
                &format!("{path} invalid"),
                none(),
                bufs(f),
                INVALID,
            );
        }
    }
    for export in ["sinew_fabrik_create", "sinew_ccd_create"] {
        for (n, expect) in [
            (0, RANGE),
            (1, RANGE),
            (SINEW_MAX_JOINTS as i64 + 1, RANGE),
            (u32::MAX as i64, RANGE),
            (2, OK),
        ] {
            t.add(
                export,
                "max_joints",
                Count,
                &format!("max_joints {n}"),
                none().int("max_joints", n),
                Setup::None,
                expect,
            );
        }
    }
    for export in [
        "sinew_hand_ik_retargeting_create",
        "sinew_hand_ik_retargeting_set_settings",
    ] {
        t.add(
            export,
            "settings",
            Domain,
            "hand_fk_weight -0.1",
            none(),
            bufs(|b| b.hand.hand_fk_weight = -0.1),
            INVALID,
        );
        t.add(
            export,
            "settings",
            Domain,
            "per_axis_alpha.y 2",
            none(),
            bufs(|b| b.hand.per_axis_alpha.y = 2.0),
            INVALID,
        );
    }
    let cj = "sinew_ccd_set_joint";
    t.add(
        cj,
        "joint",
        Range,
        "joint = max_joints",
        none().int("joint", N as i64),
        Setup::None,
        RANGE,
    );
    for (what, p, x) in [
        ("rotation limit -1", "rotation_limit_degrees", -1.0),
        ("rotation limit 181", "rotation_limit_degrees", 181.0),
        ("weight -0.1", "weight", -0.1),
        ("weight 1.1", "weight", 1.1),
    ] {
        t.add(
            cj,
            p,
            Domain,
            what,
            none().float(p, x),
            Setup::None,
            INVALID,
        );
    }

    // ---- two-bone IK
    let ts = "sinew_two_bone_ik_solve";
    let degenerate: [(&str, BufsEdit); 11] = [
        ("upper bone of zero length", |b| {
            b.chain3[1].translation = b.chain3[0].translation
        }),
        ("lower bone of zero length", |b| {
            b.chain3[2].translation = b.chain3[1].translation
        }),
        ("both bones of zero length", |b| {
            b.chain3[1].translation = b.chain3[0].translation;
            b.chain3[2].translation = b.chain3[0].translation;
        }),
        ("effector at the root", |b| {
            b.effector = b.chain3[0].translation
        }),
        ("effector at the joint", |b| {
            b.effector = b.chain3[1].translation
        }),
        ("effector at the end", |b| {
            b.effector = b.chain3[2].translation
        }),
        ("pole at the root", |b| b.pole = b.chain3[0].translation),
        ("pole on the root-effector line", |b| {
            let (r, e) = (Vec3::from(b.chain3[0].translation), Vec3::from(b.effector));
            b.pole = (r + (e - r) * 2.5).into();
        }),
        ("straight chain toward the pole", |b| {
            b.chain3[1].translation = v(0.44, 1.5, 0.0);
            b.chain3[2].translation = v(0.70, 1.5, 0.0);
            b.pole = v(1.0, 1.5, 0.0);
        }),
        ("effector far beyond reach", |b| {
            b.effector = v(40.0, -30.0, 20.0)
        }),
        ("effector nearer than |l1 - l2|", |b| {
            let r = Vec3::from(b.chain3[0].translation);
            b.effector = (r + Vec3::new(0.001, 0.0, 0.0)).into();
        }),
    ];
    for (what, f) in degenerate {
        t.add(ts, "chain", Degenerate, what, none(), bufs(f), OK);
    }
    t.add(
        ts,
        "joint_target",
        Degenerate,
        "straight chain, no pole",
        Args::null("joint_target"),
        bufs(|b| {
            b.chain3[1].translation = v(0.44, 1.5, 0.0);
            b.chain3[2].translation = v(0.70, 1.5, 0.0);
        }),
        OK,
    );
    t.add(
        ts,
        "chain",
        Domain,
        "zero quaternion in the chain",
        none(),
        bufs(|b| b.chain3[1].rotation = SinewQuat::default()),
        INVALID,
    );
    t.add(
        ts,
        "effector_rotation",
        Domain,
        "zero effector rotation",
        none(),
        bufs(|b| b.effector_rotation = SinewQuat::default()),
        INVALID,
    );
    t.custom(
        ts,
        "chain",
        Align,
        "misaligned chain",
        Setup::None,
        |w| {
            // SAFETY: misaligned on purpose; the export checks alignment before reading.
            st(unsafe {
                sinew_two_bone_ik_solve(
                    w.two_bone,
                    w.b.chain3.as_mut_ptr().cast::<u8>().add(2).cast(),
                    &w.b.effector,
                    null(),
                    null(),
                    &mut w.b.out_result,
                )
            })
        },
        INVALID,
    );
    let tp = "sinew_two_bone_ik_solve_pose";
    for (p, x) in [
        ("root", J as i64),
        ("joint", J as i64),
        ("end", u32::MAX as i64),
    ] {
        t.add(
            tp,
            p,
            Range,
            &format!("{p} = {x}"),
            none().int(p, x),
            Setup::None,
            RANGE,
        );
    }
    t.add(
        tp,
        "end",
        Range,
        "joints not a chain (2, 3, 5)",
        none().int("end", 5),
        Setup::None,
        INVALID,
    );
    t.add(
        tp,
        "joint",
        Range,
        "joints not a chain (2, 2, 3)",
        none().int("joint", 2).int("end", 3),
        Setup::None,
        INVALID,
    );
    t.add(
        tp,
        "pose",
        Size,
        "pose of another skeleton (joints out of its range)",
        none().swap("pose", pose2),
        Setup::None,
        RANGE,
    );
    t.add(
        tp,
        "pose",
        Degenerate,
        "zero-length bone in the pose",
        none(),
        world(|w| pose_translation(w, 3, v(0.0, 0.0, 0.0))),
        OK,
    );
    t.add(
        tp,
        "effector_position",
        Degenerate,
        "effector at the root joint",
        none(),
        world(|w| w.b.pose_effector = pose_position(w, 2)),
        OK,
    );
    t.add(
        tp,
        "joint_target",
        Degenerate,
        "pole at the root joint",
        none(),
        world(|w| w.b.pole = pose_position(w, 2)),
        OK,
    );
    t.add(
        tp,
        "pose",
        Overflow,
        "pose whose model space overflows",
        none(),
        world(overflow_pose),
        OVERFLOW,
    );

    // ---- FABRIK and CCD
    for (solve, pose) in [
        ("sinew_fabrik_solve", "sinew_fabrik_solve_pose"),
        ("sinew_ccd_solve", "sinew_ccd_solve_pose"),
    ] {
        for (n, expect) in [(0, INVALID), (1, INVALID), (N as i64 + 1, RANGE)] {
            // Counts below 2 are reported as INVALID_ARGUMENT (a chain needs 2 joints), above
            // max_joints as OUT_OF_RANGE.
            t.add(
                solve,
                "joint_count",
                Count,
                &format!("joint_count {n}"),
                none().int("joint_count", n),
                Setup::None,
                expect,
            );
        }
        t.add(
            solve,
            "joint_count",
            Valid,
            "joint_count 2",
            none().int("joint_count", 2),
            Setup::None,
            OK,
        );
        let degenerate: [(&str, BufsEdit); 6] = [
            ("zero-length bone", |b| {
                b.chain[2].translation = b.chain[1].translation
            }),
            ("all joints coincident", |b| {
                for k in 1..N {
                    b.chain[k].translation = b.chain[0].translation;
                }
            }),
            ("effector at the root", |b| {
                b.chain_effector = b.chain[0].translation
            }),
            ("effector at the tip", |b| {
                b.chain_effector = b.chain[N - 1].translation
            }),
            ("effector far beyond reach", |b| {
                b.chain_effector = v(-30.0, 40.0, 5.0)
            }),
            ("zero scale", |b| b.chain[1].scale = v(0.0, 0.0, 0.0)),
        ];
        for (what, f) in degenerate {
            t.add(solve, "chain", Degenerate, what, none(), bufs(f), OK);
        }
        t.add(
            solve,
            "chain",
            Domain,
            "zero quaternion in the chain",
            none(),
            bufs(|b| b.chain[2].rotation = SinewQuat::default()),
            INVALID,
        );
        t.add(
            solve,
            "root_parent_rotation",
            Domain,
            "zero root parent rotation",
            none(),
            bufs(|b| b.root_parent = SinewQuat::default()),
            INVALID,
        );
        t.add(
            solve,
            "effector_rotation",
            Domain,
            "zero effector rotation",
            none(),
            bufs(|b| b.effector_rotation = SinewQuat::default()),
            INVALID,
        );

        for (n, expect) in [(0, INVALID), (1, INVALID), (N as i64 + 1, RANGE)] {
            t.add(
                pose,
                "joint_count",
                Count,
                &format!("joint_count {n}"),
                none().int("joint_count", n),
                bufs(|b| b.joints = [0, 1, 2, 3, 4, 5]),
                expect,
            );
        }
        for (what, joints, expect) in [
            ("joints[3] = joint count", [1, 2, 3, J as u32], RANGE),
            ("joints[0] = u32::MAX", [u32::MAX, 2, 3, 4], RANGE),
            ("joints not a chain (1, 2, 4, 3)", [1, 2, 4, 3], INVALID),
            ("joints repeat (1, 1, 2, 3)", [1, 1, 2, 3], INVALID),
        ] {
            t.add(
                pose,
                "joints",
                Range,
                what,
                none(),
                bufs(move |b| b.joints[..N].copy_from_slice(&joints)),
                expect,
            );
        }
        t.add(
            pose,
            "pose",
            Size,
            "pose of another skeleton (joints out of its range)",
            none().swap("pose", pose2),
            Setup::None,
            RANGE,
        );
        t.add(
            pose,
            "pose",
            Degenerate,
            "zero-length bone in the pose",
            none(),
            world(|w| pose_translation(w, 3, v(0.0, 0.0, 0.0))),
            OK,
        );
        t.add(
            pose,
            "effector_position",
            Degenerate,
            "effector at the chain root",
            none(),
            world(|w| w.b.pose_effector = pose_position(w, 1)),
            OK,
        );
        t.add(
            pose,
            "pose",
            Overflow,
            "pose whose model space overflows",
            none(),
            world(overflow_pose),
            OVERFLOW,
        );
    }
    t.custom(
        "sinew_fabrik_solve",
        "out_result",
        Align,
        "misaligned out_result",
        Setup::None,
        |w| {
            // SAFETY: misaligned on purpose; the export checks alignment before solving.
            st(unsafe {
                sinew_fabrik_solve(
                    w.fabrik,
                    w.b.chain.as_mut_ptr(),
                    N as u32,
                    null(),
                    &w.b.chain_effector,
                    null(),
                    (&mut w.b.out_result as *mut SinewIkResult)
                        .cast::<u8>()
                        .add(1)
                        .cast(),
                )
            })
        },
        INVALID,
    );

    // ---- batches. Each base call replays its chains through the single solve first and
    // judges the batch against that (`check_batch`): a per-chain failure must be the single
    // solve's status with the chain named, a success or overflow must match the single solves
    // chain by chain. Generated float cases spoil chain BAD of B.
    let tb = "sinew_two_bone_ik_solve_batch";
    let fb = "sinew_fabrik_solve_batch";
    let cb = "sinew_ccd_solve_batch";
    let huge = v(3e38, 3e38, 3e38);
    for export in [tb, fb, cb] {
        let per_chain = if export == tb {
            "joint_targets"
        } else {
            "root_parent_rotations"
        };
        t.add(
            export,
            "chains",
            Valid,
            "five chains, each as its single solve",
            none(),
            Setup::None,
            OK,
        );
        // (In the two-bone batch, 1 is a scalar tail only and 4 one SIMD group with no tail.)
        for (n, what) in [
            (0, "chain_count 0 touches nothing"),
            (1, "chain_count 1"),
            (4, "chain_count 4"),
        ] {
            t.add(
                export,
                "chain_count",
                Count,
                what,
                none().int("chain_count", n),
                Setup::None,
                OK,
            );
        }
        t.custom(
            export,
            "chain_count",
            Count,
            "chain_count 0 with every array NULL",
            Setup::None,
            move |w| batch_without_arrays(w, export),
            OK,
        );
        for p in [
            "chains",
            "effector_positions",
            "effector_rotations",
            per_chain,
            "out_results",
        ] {
            t.add(
                export,
                p,
                Align,
                &format!("misaligned {p}"),
                Args::misaligned(p),
                Setup::None,
                INVALID,
            );
            t.needle(format!("`{p}`"));
        }
        // Finite input whose result overflows f32: that chain and its result stay untouched,
        // the others are solved (checked by the base call), the first one is named.
        for (what, chains) in [
            ("chain 1 overflows (SIMD group)", &[1][..]),
            ("chain 4 overflows (scalar tail)", &[4]),
            ("chains 3 and 1 overflow", &[3, 1]),
            ("every chain overflows", &[0, 1, 2, 3, 4]),
        ] {
            t.add(
                export,
                "effector_positions",
                Overflow,
                what,
                none(),
                bufs(move |b| {
                    for &i in chains {
                        batch_of(b, export).1[i] = huge;
                    }
                }),
                OVERFLOW,
            );
            t.needle(format!("chain {}", chains.iter().min().unwrap()));
        }
        t.add(
            export,
            "chains",
            Domain,
            "zero quaternion in chain 2",
            none(),
            bufs(move |b| {
                let (chains, _) = batch_of(b, export);
                let joints = chains.len() / B;
                chains[joints * BAD + 1].rotation = SinewQuat::default();
            }),
            INVALID,
        );
        t.needle(format!("chain {BAD}: "));
        t.add(
            export,
            "effector_rotations",
            Domain,
            "zero effector rotation of chain 2",
            none(),
            bufs(|b| b.batch_rotations[BAD] = SinewQuat::default()),
            INVALID,
        );
        t.needle(format!("chain {BAD}: "));
        // The last chain: a bad value after every other chain, the SIMD group included.
        t.add(
            export,
            "chains",
            Nan,
            "NaN in the last chain's end",
            none(),
            bufs(move |b| {
                let (chains, _) = batch_of(b, export);
                chains[chains.len() - 1].translation.y = f32::NAN;
            }),
            &[St::NonFinite],
        );
        t.needle(format!("chain {}: ", B - 1));
        t.add(
            export,
            "effector_positions",
            PosInf,
            "infinite effector of the last chain",
            none(),
            bufs(move |b| batch_of(b, export).1[B - 1].z = f32::INFINITY),
            &[St::NonFinite],
        );
        t.needle(format!("chain {}: ", B - 1));
    }

    // Two-bone: lanes of the SIMD kernel (with poles at pole_weight 1, or without poles) that
    // are degenerate take the single path; settings the kernel does and does not cover.
    let full_pole = |w: &mut World| {
        let mut s = w.b.two;
        s.pole_weight = 1.0;
        // SAFETY: a live solver and valid settings.
        ok(unsafe { sinew_two_bone_ik_set_settings(w.two_bone, &s) });
    };
    let degenerate: [(&str, BufsEdit); 7] = [
        ("upper bone of zero length in chain 1", |b| {
            b.batch3[4].translation = b.batch3[3].translation
        }),
        ("lower bone of zero length in chain 0", |b| {
            b.batch3[2].translation = b.batch3[1].translation
        }),
        ("effector at the root of chain 3", |b| {
            b.batch_effectors3[3] = b.batch3[9].translation
        }),
        ("effector at the end of chain 2", |b| {
            b.batch_effectors3[2] = b.batch3[8].translation
        }),
        ("pole at the root of chain 1", |b| {
            b.batch_poles[1] = b.batch3[3].translation
        }),
        ("straight chain 2 toward its pole", |b| {
            let r = b.batch3[6].translation;
            b.batch3[7].translation = v(r.x + 0.3, r.y, r.z);
            b.batch3[8].translation = v(r.x + 0.55, r.y, r.z);
            b.batch_poles[2] = v(r.x + 1.0, r.y, r.z);
        }),
        ("effectors far beyond reach and at distance 0.001", |b| {
            b.batch_effectors3[0] = v(40.0, -30.0, 20.0);
            let r = b.batch3[3].translation;
            b.batch_effectors3[1] = v(r.x + 0.001, r.y, r.z);
        }),
    ];
    for (what, f) in degenerate {
        t.add(
            tb,
            "chains",
            Degenerate,
            &format!("{what}, poles at pole_weight 1"),
            none(),
            world(move |w| {
                full_pole(w);
                f(&mut w.b);
            }),
            OK,
        );
        t.add(
            tb,
            "chains",
            Degenerate,
            &format!("{what}, no poles"),
            Args::null("joint_targets"),
            bufs(f),
            OK,
        );
    }
    let settings: [(&str, SettingsEdit); 4] = [
        ("pole_weight 1 (the SIMD kernel with poles)", |s| {
            s.pole_weight = 1.0
        }),
        ("Unreal's defaults (no stretching)", |s| {
            *s = Bufs::new().two;
            s.allow_stretching = 0;
            s.pole_weight = 1.0;
        }),
        ("weight 0.6, soften 0.9, keep_twist", |s| {
            (s.weight, s.soften, s.keep_twist) = (0.6, 0.9, 1);
            s.pole_weight = 1.0;
        }),
        ("end rotation COPY_EFFECTOR, weight 0", |s| {
            s.end_rotation = SinewEndRotation::CopyEffector as i32;
            s.weight = 0.0;
        }),
    ];
    for (what, f) in settings {
        t.add(
            tb,
            "solver",
            Valid,
            what,
            none(),
            world(move |w| {
                let mut s = w.b.two;
                f(&mut s);
                // SAFETY: a live solver and valid settings.
                ok(unsafe { sinew_two_bone_ik_set_settings(w.two_bone, &s) });
            }),
            OK,
        );
    }
    t.add(
        tb,
        "joint_targets",
        Nan,
        "NaN pole of the last chain",
        none(),
        bufs(|b| b.batch_poles[B - 1].x = f32::NAN),
        &[St::NonFinite],
    );
    t.needle(format!("chain {}: ", B - 1));

    // FABRIK and CCD: joint counts, root parent rotations, degenerate chains.
    for export in [fb, cb] {
        for (n, expect) in [
            (0, INVALID),
            (1, INVALID),
            (N as i64 + 1, RANGE),
            (u32::MAX as i64, RANGE),
        ] {
            t.add(
                export,
                "joint_count",
                Count,
                &format!("joint_count {n}"),
                none().int("joint_count", n),
                Setup::None,
                expect,
            );
            // The count, whether the message names a chain or not.
            t.needle(if n < 2 {
                "joints".into()
            } else {
                format!("{n} joints")
            });
        }
        for n in [2, 3] {
            t.add(
                export,
                "joint_count",
                Valid,
                &format!("joint_count {n} (chains of {n} back to back)"),
                none().int("joint_count", n),
                Setup::None,
                OK,
            );
        }
        t.add(
            export,
            "root_parent_rotations",
            Domain,
            "zero root parent rotation of chain 2",
            none(),
            bufs(|b| b.batch_parents[BAD] = SinewQuat::default()),
            INVALID,
        );
        t.needle(format!("chain {BAD}: "));
        t.add(
            export,
            "root_parent_rotations",
            NegInf,
            "infinite root parent rotation of the last chain",
            none(),
            bufs(|b| b.batch_parents[B - 1].w = f32::NEG_INFINITY),
            &[St::NonFinite],
        );
        t.needle(format!("chain {}: ", B - 1));
        let degenerate: [(&str, BufsEdit); 5] = [
            ("zero-length bone in chain 1", |b| {
                b.batch[N + 2].translation = b.batch[N + 1].translation
            }),
            ("all joints of chain 3 coincident", |b| {
                for k in 1..N {
                    b.batch[3 * N + k].translation = b.batch[3 * N].translation;
                }
            }),
            ("effector at the root of chain 0", |b| {
                b.batch_effectors[0] = b.batch[0].translation
            }),
            ("effector far beyond reach of chain 4", |b| {
                b.batch_effectors[4] = v(-30.0, 40.0, 5.0)
            }),
            ("zero scale in chain 2", |b| {
                b.batch[2 * N + 1].scale = v(0.0, 0.0, 0.0)
            }),
        ];
        for (what, f) in degenerate {
            t.add(export, "chains", Degenerate, what, none(), bufs(f), OK);
        }
    }

    // ---- hand IK retargeting
    let hm = "sinew_hand_ik_retargeting_apply_model";
    let hp = "sinew_hand_ik_retargeting_apply_pose";
    for export in [hm, hp] {
        for (path, f) in [
            (
                "hands.right_fk",
                (|b| b.hands.right_fk = J as u32) as BufsEdit,
            ),
            ("hands.left_fk", |b| b.hands.left_fk = u32::MAX),
            ("hands.right_ik", |b| b.hands.right_ik = J as u32),
            ("hands.left_ik", |b| b.hands.left_ik = J as u32 + 7),
        ] {
            t.add(
                export,
                path,
                Range,
                &format!("{path} out of range"),
                none(),
                bufs(f),
                RANGE,
            );
        }
        t.add(
            export,
            "bones",
            Range,
            "bones[1] = joint count",
            none(),
            bufs(|b| b.bones[1] = J as u32),
            RANGE,
        );
        t.add(
            export,
            "bone_count",
            Count,
            "bone_count 0",
            none().int("bone_count", 0),
            Setup::None,
            OK,
        );
        t.add(
            export,
            "bones",
            Valid,
            "duplicate bones",
            none(),
            bufs(|b| b.bones = [5, 5]),
            OK,
        );
    }
    t.add(
        hm,
        "count",
        Count,
        "count 0",
        none().int("count", 0),
        Setup::None,
        RANGE,
    );
    t.add(
        hm,
        "count",
        Count,
        "count below the hand indices",
        none().int("count", 4),
        Setup::None,
        RANGE,
    );
    t.add(
        hm,
        "count",
        Valid,
        "count including the guard element",
        none().int("count", J as i64 + 1),
        Setup::None,
        OK,
    );
    t.add(
        hm,
        "model",
        Degenerate,
        "FK and IK hands coincide",
        none(),
        bufs(|b| {
            b.model[6].translation = b.model[4].translation;
            b.model[7].translation = b.model[3].translation;
        }),
        OK,
    );
    t.add(
        hm,
        "model",
        Overflow,
        "offset overflows",
        none(),
        bufs(|b| {
            b.model[4].translation = v(3e38, 0.0, 0.0);
            b.model[3].translation = v(3e38, 0.0, 0.0);
            b.model[6].translation = v(-3e38, 0.0, 0.0);
            b.model[7].translation = v(-3e38, 0.0, 0.0);
        }),
        OVERFLOW,
    );
    t.add(
        hp,
        "pose",
        Size,
        "pose of another skeleton (joints out of its range)",
        none().swap("pose", pose2),
        Setup::None,
        RANGE,
    );
    t.add(
        hp,
        "pose",
        Overflow,
        "pose whose model space overflows",
        none(),
        world(overflow_pose),
        OVERFLOW,
    );

    // ---- clips
    for export in [
        "sinew_clip_set_translation_track",
        "sinew_clip_set_rotation_track",
        "sinew_clip_set_scale_track",
    ] {
        t.add(
            export,
            "joint",
            Range,
            "joint = joint count",
            none().int("joint", J as i64),
            Setup::None,
            RANGE,
        );
        t.add(
            export,
            "interpolation",
            Enum,
            "interpolation 4",
            none().int("interpolation", 4),
            Setup::None,
            INVALID,
        );
        t.add(
            export,
            "interpolation",
            Enum,
            "interpolation -1",
            none().int("interpolation", -1),
            Setup::None,
            INVALID,
        );
        t.add(
            export,
            "interpolation",
            Domain,
            "linear with tangents",
            none().int("interpolation", SinewInterpolation::Linear as i64),
            Setup::None,
            INVALID,
        );
        t.custom(
            export,
            "in_tangents",
            Domain,
            "cubic without tangents",
            Setup::None,
            move |w| track(w, export, SinewInterpolation::Cubic, false),
            INVALID,
        );
        t.custom(
            export,
            "in_tangents",
            Valid,
            "linear without tangents",
            Setup::None,
            move |w| track(w, export, SinewInterpolation::Linear, false),
            OK,
        );
        t.add(
            export,
            "key_count",
            Count,
            "key_count 0",
            none().int("key_count", 0),
            Setup::None,
            INVALID,
        );
        t.add(
            export,
            "key_count",
            Valid,
            "key_count 1",
            none().int("key_count", 1),
            Setup::None,
            OK,
        );
        for (what, times, expect) in [
            ("keys unsorted", [0.0, 0.8, 0.4], INVALID),
            ("keys duplicate", [0.0, 0.4, 0.4], INVALID),
            ("key before 0", [-0.1, 0.4, 0.8], RANGE),
            ("key after the duration", [0.0, 0.4, 1.5], RANGE),
        ] {
            t.add(
                export,
                "times",
                Keys,
                what,
                none(),
                bufs(move |b| b.times = times),
                expect,
            );
        }
        t.add(
            export,
            "clip",
            State,
            "clip held by a crossfade",
            none().swap("clip", clip_a),
            Setup::None,
            INVALID,
        );
        t.add(
            export,
            "clip",
            Size,
            "clip of another skeleton, joint beyond it",
            none().swap("clip", clip2).int("joint", J2 as i64),
            Setup::None,
            RANGE,
        );
    }
    t.add(
        "sinew_clip_set_rotation_track",
        "values",
        Domain,
        "zero quaternion key",
        none(),
        bufs(|b| b.q_values[1] = SinewQuat::default()),
        INVALID,
    );
    let ct = "sinew_clip_clear_track";
    t.add(
        ct,
        "joint",
        Range,
        "joint = joint count",
        none().int("joint", J as i64),
        Setup::None,
        RANGE,
    );
    t.add(
        ct,
        "property",
        Enum,
        "property 3",
        none().int("property", 3),
        Setup::None,
        INVALID,
    );
    t.add(
        ct,
        "property",
        Enum,
        "property -1",
        none().int("property", -1),
        Setup::None,
        INVALID,
    );
    t.add(
        ct,
        "clip",
        State,
        "clip held by a crossfade",
        none().swap("clip", clip_a),
        Setup::None,
        INVALID,
    );
    t.add(
        "sinew_clip_create",
        "duration",
        Domain,
        "duration -1",
        none().float("duration", -1.0),
        Setup::None,
        INVALID,
    );
    t.add(
        "sinew_clip_create",
        "duration",
        Valid,
        "duration 0",
        none().float("duration", 0.0),
        Setup::None,
        OK,
    );
    let cs = "sinew_clip_sample";
    t.add(
        cs,
        "looping",
        Enum,
        "looping 2",
        none().int("looping", 2),
        Setup::None,
        INVALID,
    );
    t.add(
        cs,
        "clip",
        Size,
        "clip of another skeleton",
        none().swap("clip", clip2).swap("cursor", cursor2),
        Setup::None,
        SIZE,
    );
    t.add(
        cs,
        "out",
        Size,
        "out of another skeleton",
        none().swap("out", pose2).swap("cursor", cursor2),
        Setup::None,
        SIZE,
    );
    t.add(
        cs,
        "cursor",
        Size,
        "cursor for another joint count",
        none().swap("cursor", cursor2),
        Setup::None,
        SIZE,
    );
    t.add(
        cs,
        "time",
        Valid,
        "negative time (wraps)",
        none().float("time", -3.7),
        Setup::None,
        OK,
    );
    t.add(
        cs,
        "clip",
        Overflow,
        "huge cubic tangents overflow the sample",
        none(),
        world(|w| {
            // Values at f32::MAX with tangents pulling further out: the Hermite sum passes MAX.
            let (m, big) = (f32::MAX, [v(f32::MAX, 0.0, 0.0); 3]);
            let (ins, outs) = ([v(-m, 0.0, 0.0); 3], [v(m, 0.0, 0.0); 3]);
            // SAFETY: a live editable clip; arrays of 3 keys.
            ok(unsafe {
                sinew_clip_set_translation_track(
                    w.clip,
                    2,
                    SinewInterpolation::Cubic as i32,
                    w.b.times.as_ptr(),
                    big.as_ptr(),
                    ins.as_ptr(),
                    outs.as_ptr(),
                    3,
                )
            });
        }),
        OVERFLOW,
    );

    // ---- crossfades
    let cc = "sinew_crossfade_create";
    for (n, expect) in [
        (0, RANGE),
        (257, RANGE),
        (u32::MAX as i64, RANGE),
        (1, OK),
        (256, OK),
    ] {
        t.add(
            cc,
            "max_fades",
            Count,
            &format!("max_fades {n}"),
            none().int("max_fades", n),
            Setup::None,
            expect,
        );
    }
    let cf = "sinew_crossfade_fade_to";
    t.add(
        cf,
        "duration",
        Domain,
        "duration -1",
        none().float("duration", -1.0),
        Setup::None,
        INVALID,
    );
    t.add(
        cf,
        "curve",
        Enum,
        "curve 3",
        none().int("curve", 3),
        Setup::None,
        INVALID,
    );
    t.add(
        cf,
        "looping",
        Enum,
        "looping 2",
        none().int("looping", 2),
        Setup::None,
        INVALID,
    );
    t.add(
        cf,
        "clip",
        Size,
        "clip of another skeleton",
        none().swap("clip", clip2),
        Setup::None,
        SIZE,
    );
    t.add(
        cf,
        "clip",
        State,
        "queue full (max_fades 2)",
        none(),
        world(|w| {
            // SAFETY: live handles.
            ok(unsafe {
                sinew_crossfade_fade_to(
                    w.crossfade,
                    w.clip_a,
                    0.5,
                    SinewFadeCurve::Linear as i32,
                    1,
                    null_mut(),
                )
            });
        }),
        RANGE,
    );
    t.add(
        cf,
        "clip",
        Valid,
        "the clip already last in the queue (ignored)",
        none().swap("clip", clip_b),
        Setup::None,
        OK,
    );
    for (what, x, class) in [
        ("inertialized over 1e30 s", 1e30, Huge),
        ("inertialized over 1e-40 s", 1e-40, Denormal),
        ("inertialized over 0.3 s", 0.3, Valid),
    ] {
        t.add(
            cf,
            "duration",
            class,
            what,
            none()
                .int("curve", SinewFadeCurve::Inertialize as i64)
                .float("duration", x),
            Setup::None,
            OK,
        );
    }
    t.add(
        "sinew_crossfade_play",
        "looping",
        Enum,
        "looping 2",
        none().int("looping", 2),
        Setup::None,
        INVALID,
    );
    t.add(
        "sinew_crossfade_play",
        "clip",
        Size,
        "clip of another skeleton",
        none().swap("clip", clip2),
        Setup::None,
        SIZE,
    );
    t.add(
        "sinew_crossfade_update",
        "dt",
        Domain,
        "dt -0.1",
        none().float("dt", -0.1),
        Setup::None,
        INVALID,
    );
    t.add(
        "sinew_crossfade_update",
        "dt",
        Valid,
        "dt 0",
        none().float("dt", 0.0),
        Setup::None,
        OK,
    );
    t.add(
        "sinew_crossfade_get_pose",
        "out",
        Size,
        "out of another skeleton",
        none().swap("out", pose2),
        Setup::None,
        SIZE,
    );
    t.add(
        "sinew_crossfade_get_pose",
        "out",
        Size,
        "out of a skeleton with other parents",
        none().swap("out", pose3),
        Setup::None,
        INVALID,
    );
    let gw = "sinew_crossfade_get_weights";
    t.add(
        gw,
        "capacity",
        Count,
        "capacity 0 with NULL out_weights (count only)",
        Args::null("out_weights").int("capacity", 0),
        Setup::None,
        OK,
    );
    t.add(
        gw,
        "capacity",
        Count,
        "capacity 1 (fewer than the clips)",
        none().int("capacity", 1),
        Setup::None,
        OK,
    );
    let gt = "sinew_crossfade_get_times";
    t.add(
        gt,
        "capacity",
        Count,
        "capacity 0 with NULL out_times (count only)",
        Args::null("out_times").int("capacity", 0),
        Setup::None,
        OK,
    );
    t.add(
        gt,
        "capacity",
        Count,
        "capacity 1 (fewer than the clips)",
        none().int("capacity", 1),
        Setup::None,
        OK,
    );
}

/// A track setter with the given interpolation, with or without tangents.
fn track(
    w: &mut World,
    export: &str,
    interpolation: SinewInterpolation,
    tangents: bool,
) -> Outcome {
    let b = &w.b;
    let i = interpolation as i32;
    let (v_in, v_out, q_in, q_out) = if tangents {
        (
            b.v3_in.as_ptr(),
            b.v3_out.as_ptr(),
            b.q_in.as_ptr(),
            b.q_out.as_ptr(),
        )
    } else {
        (null(), null(), null(), null())
    };
    // SAFETY: a live editable clip; arrays of 3 keys or NULL.
    st(unsafe {
        match export {
            "sinew_clip_set_translation_track" => sinew_clip_set_translation_track(
                w.clip,
                2,
                i,
                b.times.as_ptr(),
                b.v3_values.as_ptr(),
                v_in,
                v_out,
                3,
            ),
            "sinew_clip_set_rotation_track" => sinew_clip_set_rotation_track(
                w.clip,
                2,
                i,
                b.times.as_ptr(),
                b.q_values.as_ptr(),
                q_in,
                q_out,
                3,
            ),
            _ => sinew_clip_set_scale_track(
                w.clip,
                2,
                i,
                b.times.as_ptr(),
                b.s_values.as_ptr(),
                v_in,
                v_out,
                3,
            ),
        }
    })
}

/// Integer fields and domain errors of a constraint argument.
fn constraint_cases(
    t: &mut Table,
    export: &'static str,
    param: &str,
    at: fn(&mut Bufs) -> &mut SinewJointConstraint,
) {
    use Class::*;
    let cases: [(&str, &str, Class, ConstraintEdit); 9] = [
        ("type", "type 0", Enum, |c| c.r#type = 0),
        ("type", "type 4", Enum, |c| c.r#type = 4),
        ("limit_twist", "limit_twist 2", Enum, |c| c.limit_twist = 2),
        ("axis", "zero axis", Domain, |c| c.axis = v(0.0, 0.0, 0.0)),
        ("reference", "zero reference quaternion", Domain, |c| {
            c.reference = SinewQuat::default()
        }),
        ("min_angle", "min_angle above max_angle", Domain, |c| {
            (c.min_angle, c.max_angle) = (0.4, -0.4)
        }),
        (
            "swing_half_angle_1",
            "swing_half_angle_1 above pi",
            Domain,
            |c| c.swing_half_angle_1 = 3.5,
        ),
        (
            "swing_half_angle_2",
            "negative swing_half_angle_2",
            Domain,
            |c| c.swing_half_angle_2 = -0.1,
        ),
        ("max_angle", "max_angle above pi", Domain, |c| {
            c.max_angle = 3.5
        }),
    ];
    for (field, what, class, f) in cases {
        let path = format!("{param}.{field}");
        t.add(
            export,
            &path,
            class,
            &format!("{param}: {what}"),
            Args::none(),
            bufs(move |b| f(at(b))),
            INVALID,
        );
    }
    // A hinge ignores the swing angles, but by the ABI's convention NaN is still NON_FINITE.
    t.add(
        export,
        &format!("{param}.swing_half_angle_1"),
        Nan,
        "hinge with NaN swing angle",
        Args::none(),
        bufs(move |b| {
            let c = at(b);
            c.r#type = SinewConstraintType::Hinge as i32;
            c.swing_half_angle_1 = f32::NAN;
        }),
        &[St::NonFinite],
    );
}

// ------------------------------------------------------------------------------ running

/// Runs one case; `Err` describes how it failed.
fn run_case(case: &Case, reference: &Probe) -> Result<(), String> {
    let mut w = World::new();
    match &case.setup {
        Setup::None => {}
        Setup::Bufs(f) => f(&mut w.b),
        Setup::World(f) => f(&mut w),
    }
    let marker = plant_marker(&w);
    let outcome = (case.call)(&mut w);
    let after = message();
    let keeps_message = case.export == "sinew_last_error_message";
    let status = match outcome {
        Outcome::Fail(e) => return Err(e),
        Outcome::Void if case.expect.is_empty() => None,
        Outcome::Status(s) if !case.expect.is_empty() => Some(s),
        Outcome::Void => return Err("returned nothing but a status was expected".into()),
        Outcome::Status(s) => return Err(format!("returned {s:?} from a void call?")),
    };
    let unchanged = |w: &mut World| -> Result<(), String> {
        let twin = match &case.setup {
            Setup::World(f) => {
                let mut t = World::new();
                f(&mut t);
                probe(&mut t)
            }
            setup => {
                let mut b = Bufs::new();
                if let Setup::Bufs(f) = setup {
                    f(&mut b);
                }
                let mut p = Probe::default();
                b.segments(&mut p);
                p.0.extend(reference.0.iter().cloned());
                p
            }
        };
        match probe(w).diff(&twin) {
            Some(d) => Err(format!("not untouched: {d}")),
            None => Ok(()),
        }
    };
    match status {
        None => {
            if after != marker {
                return Err(format!(
                    "a void call changed the error message to {after:?}"
                ));
            }
            unchanged(&mut w)
        }
        Some(St::Panic) => Err(format!("PANIC: {after}")),
        Some(s) if !case.expect.contains(&s) => Err(format!(
            "status {s:?}, expected {:?} (message {after:?})",
            case.expect
        )),
        Some(St::Ok) => {
            if keeps_message {
                if after != marker {
                    return Err(format!("reading the message changed it to {after:?}"));
                }
            } else if !after.is_empty() {
                return Err(format!("success left the error message {after:?}"));
            }
            probe(&mut w).sane(case.lenient)
        }
        Some(s) => {
            if after.is_empty() || after == marker {
                return Err(format!("{s:?} without a fresh error message ({after:?})"));
            }
            if let Some(needle) = case.needle.as_deref().filter(|n| !after.contains(n)) {
                return Err(format!(
                    "{s:?} with message {after:?}, which does not mention {needle:?}"
                ));
            }
            unchanged(&mut w)
        }
    }
}

#[test]
fn every_export_rejects_bad_input_and_leaves_outputs_untouched() {
    let start = Instant::now();
    let (funcs, structs) = parse_header();
    assert!(
        funcs.len() >= 80,
        "parsed only {} exports from the header",
        funcs.len()
    );
    let need = requirements(&funcs, &structs);
    let table = build_table(&funcs, &need);

    // Coverage: every export, every requirement of the header, no stale or duplicate entries.
    let mut problems = table.gaps.clone();
    let header: BTreeSet<&str> = funcs.iter().map(|f| f.name.as_str()).collect();
    for e in table.bases.keys() {
        if !header.contains(e) {
            problems.push(format!("{e} is in the table but not in the header"));
        }
    }
    for f in &header {
        if !table.cases.iter().any(|c| c.export == *f) {
            problems.push(format!("{f} has no case"));
        }
    }
    let covered = |(export, path, n): &Key| {
        table.cases.iter().any(|c| {
            c.export == export
                && c.param == *path
                && match n {
                    Need::Null => c.class == Class::Null,
                    Need::Float(class) => c.class == *class,
                    Need::Other => c.class != Class::Null,
                }
        })
    };
    let missing: Vec<String> = need
        .iter()
        .filter(|k| !covered(k))
        .map(|(e, p, n)| format!("{e} {p} {n:?}"))
        .collect();
    if !missing.is_empty() {
        problems.push(format!(
            "uncovered requirements:\n  {}",
            missing.join("\n  ")
        ));
    }
    // The classes the issue lists, where they apply.
    use Class::*;
    let required: &[(&str, Class)] = &[
        ("sinew_two_bone_ik_solve", Degenerate),
        ("sinew_two_bone_ik_solve_pose", Degenerate),
        ("sinew_fabrik_solve", Degenerate),
        ("sinew_fabrik_solve_pose", Degenerate),
        ("sinew_ccd_solve", Degenerate),
        ("sinew_ccd_solve_pose", Degenerate),
        ("sinew_hand_ik_retargeting_apply_model", Degenerate),
        ("sinew_two_bone_ik_solve_pose", Range),
        ("sinew_fabrik_solve_pose", Range),
        ("sinew_ccd_solve_pose", Range),
        ("sinew_fabrik_set_constraint", Range),
        ("sinew_ccd_set_constraint", Range),
        ("sinew_ccd_set_joint", Range),
        ("sinew_joint_mask_set_weight", Range),
        ("sinew_joint_mask_create_subtree", Range),
        ("sinew_pose_get_model_transform", Range),
        ("sinew_pose_set_model_transform", Range),
        ("sinew_pose_apply_constraints", Range),
        ("sinew_clip_set_translation_track", Range),
        ("sinew_clip_set_rotation_track", Range),
        ("sinew_clip_set_scale_track", Range),
        ("sinew_clip_clear_track", Range),
        ("sinew_hand_ik_retargeting_apply_model", Range),
        ("sinew_hand_ik_retargeting_apply_pose", Range),
        ("sinew_skeleton_create", Count),
        ("sinew_fabrik_create", Count),
        ("sinew_ccd_create", Count),
        ("sinew_fabrik_solve", Count),
        ("sinew_ccd_solve", Count),
        ("sinew_fabrik_solve_pose", Count),
        ("sinew_ccd_solve_pose", Count),
        ("sinew_crossfade_create", Count),
        ("sinew_clip_set_translation_track", Count),
        ("sinew_pose_blend", Size),
        ("sinew_pose_blend_layers", Size),
        ("sinew_pose_make_additive", Size),
        ("sinew_pose_apply_additive", Size),
        ("sinew_clip_sample", Size),
        ("sinew_crossfade_play", Size),
        ("sinew_crossfade_fade_to", Size),
        ("sinew_crossfade_get_pose", Size),
        ("sinew_pose_get_local", Size),
        ("sinew_pose_set_local", Size),
        ("sinew_joint_mask_get_weights", Size),
        ("sinew_joint_mask_set_weights", Size),
        ("sinew_skeleton_create", Parents),
        ("sinew_clip_set_translation_track", Keys),
        ("sinew_clip_set_rotation_track", Keys),
        ("sinew_clip_set_scale_track", Keys),
        ("sinew_two_bone_ik_solve_batch", Degenerate),
        ("sinew_fabrik_solve_batch", Degenerate),
        ("sinew_ccd_solve_batch", Degenerate),
        ("sinew_two_bone_ik_solve_batch", Count),
        ("sinew_fabrik_solve_batch", Count),
        ("sinew_ccd_solve_batch", Count),
        ("sinew_two_bone_ik_solve_batch", Overflow),
        ("sinew_fabrik_solve_batch", Overflow),
        ("sinew_ccd_solve_batch", Overflow),
        ("sinew_two_bone_ik_solve_batch", Align),
        ("sinew_fabrik_solve_batch", Align),
        ("sinew_ccd_solve_batch", Align),
    ];
    for (export, class) in required {
        if !table
            .cases
            .iter()
            .any(|c| c.export == *export && c.class == *class)
        {
            problems.push(format!("{export} has no {class:?} case"));
        }
    }
    let mut names = BTreeSet::new();
    for c in &table.cases {
        if !names.insert(c.name.as_str()) {
            problems.push(format!("duplicate case name {:?}", c.name));
        }
    }
    assert!(
        problems.is_empty(),
        "the table is incomplete:\n{}",
        problems.join("\n")
    );

    // The world is deterministic: two fresh worlds probe identically.
    let mut reference = Probe::default();
    probe_world(&mut World::new(), &mut reference);
    let mut again = Probe::default();
    probe_world(&mut World::new(), &mut again);
    assert_eq!(reference.diff(&again), None, "two fresh worlds differ");
    reference.sane(false).expect("a fresh world is sane");

    let mut per_class: BTreeMap<Class, usize> = BTreeMap::new();
    for case in &table.cases {
        *per_class.entry(case.class).or_default() += 1;
    }
    // Cases are independent (each builds its own world; the error slot is per thread), so they
    // run on every core; results are reported in table order.
    let threads = std::thread::available_parallelism()
        .map_or(2, |n| n.get())
        .min(8);
    let next = AtomicUsize::new(0);
    let mut results: Vec<(usize, String)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut failed = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(case) = table.cases.get(i) else {
                            break failed;
                        };
                        let r = catch_unwind(AssertUnwindSafe(|| run_case(case, &reference)))
                            .unwrap_or_else(|p| {
                                Err(format!(
                                    "the case panicked: {:?}",
                                    p.downcast_ref::<String>()
                                ))
                            });
                        if let Err(e) = r {
                            failed.push((i, format!("{} [{:?}]: {e}", case.name, case.class)));
                        }
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    });
    results.sort();
    let failures: Vec<String> = results.into_iter().map(|(_, f)| f).collect();
    let elapsed = start.elapsed();
    println!(
        "{} exports, {} header requirements, {} cases in {elapsed:?} on {threads} threads",
        header.len(),
        need.len(),
        table.cases.len()
    );
    for (class, n) in &per_class {
        println!("  {class:?}: {n}");
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n{}",
        failures.len(),
        table.cases.len(),
        failures.join("\n")
    );
}

/// The harness itself: a failing call that changed anything observable is caught, wherever the
/// change is (a pose, a caller buffer, solver settings, per-joint tuning or constraints, a
/// crossfade's time, a clip's tracks), and so is a success that leaves an error message.
#[test]
fn the_checks_catch_every_kind_of_change() {
    let mut reference = Probe::default();
    probe_world(&mut World::new(), &mut reference);
    let sabotage: [(&str, WorldEdit); 8] = [
        ("a pose", |w| unsafe {
            sinew_pose_reset(w.pose_a);
        }),
        ("a caller buffer", |w| w.b.out_transforms[J].scale.x = 1.0),
        ("solver settings", |w| unsafe {
            let mut s = w.b.fabrik;
            s.max_iterations += 1;
            sinew_fabrik_set_settings(w.fabrik, &s);
        }),
        ("CCD per-joint tuning", |w| unsafe {
            sinew_ccd_set_joint(w.ccd, 1, 9.0, 0.8);
        }),
        ("a FABRIK constraint", |w| unsafe {
            sinew_fabrik_set_constraint(w.fabrik, 1, null());
        }),
        ("a CCD constraint", |w| unsafe {
            sinew_ccd_set_constraint(w.ccd, 2, null());
        }),
        ("crossfade time", |w| unsafe {
            sinew_crossfade_update(w.crossfade, 0.001);
        }),
        ("a clip track", |w| unsafe {
            sinew_clip_clear_track(w.clip, 4, SinewTrackProperty::Scale as i32);
        }),
    ];
    for (what, f) in sabotage {
        let case = Case {
            export: "sinew_pose_reset",
            param: "pose".into(),
            class: Class::Null,
            name: format!("a failure that changed {what}"),
            setup: Setup::None,
            // SAFETY: NULL is rejected before use.
            call: Arc::new(move |w| {
                f(w);
                st(unsafe { sinew_pose_reset(null_mut()) })
            }),
            expect: NULLP.to_vec(),
            lenient: false,
            needle: None,
        };
        let r = run_case(&case, &reference);
        assert!(
            r.as_ref().is_err_and(|e| e.starts_with("not untouched")),
            "{}: {r:?}",
            case.name
        );
    }
    let quiet = Case {
        export: "sinew_pose_reset",
        param: "pose".into(),
        class: Class::Valid,
        name: "a success that leaves the stale message".into(),
        setup: Setup::None,
        call: Arc::new(|_| st(St::Ok)),
        expect: OK.to_vec(),
        lenient: false,
        needle: None,
    };
    assert!(run_case(&quiet, &reference).is_err());
}

/// The batch judge itself: a batch whose chains, results, guards or other buffers differ from
/// what the single solves give, or whose status or message does not fit them, is caught.
#[test]
fn the_batch_checks_catch_a_batch_unlike_its_single_solves() {
    let given = Given {
        rotations: true,
        per_chain: true,
        results: true,
    };
    let check = || BatchCheck {
        chains: |b| &mut b.batch3[..],
        joints: 3,
        given,
        tolerance: 1e-6,
    };
    let sabotage: [(&str, BufsEdit, St); 7] = [
        ("nothing", |_| {}, St::Ok),
        (
            "a chain off by 1e-4",
            |b| b.batch3[10].translation.y += 1e-4,
            St::Ok,
        ),
        (
            "a result off by 1e-4",
            |b| b.out_results[3].error += 1e-4,
            St::Ok,
        ),
        (
            "the chains' guard",
            |b| b.batch3[3 * B].scale.x = 1.0,
            St::Ok,
        ),
        (
            "the results' guard",
            |b| b.out_results[B].iterations = 1,
            St::Ok,
        ),
        ("an input", |b| b.batch_poles[0].z = 0.0, St::Ok),
        ("nothing, but NUMERIC_OVERFLOW", |_| {}, St::NumericOverflow),
    ];
    for (what, f, status) in sabotage {
        let mut w = World::new();
        let before = w.b;
        let replay = two_bone_replay(w.two_bone, &before, B, given);
        // SAFETY: the world's live solver and buffers of B chains.
        let s = unsafe {
            sinew_two_bone_ik_solve_batch(
                w.two_bone,
                w.b.batch3.as_mut_ptr(),
                B as u32,
                w.b.batch_effectors3.as_ptr(),
                w.b.batch_rotations.as_ptr(),
                w.b.batch_poles.as_ptr(),
                w.b.out_results.as_mut_ptr(),
            )
        };
        assert_eq!(s, St::Ok, "{}", message());
        f(&mut w.b);
        let outcome = check_batch(&mut w, &before, status, Some(replay), check());
        let caught = matches!(outcome, Outcome::Fail(_));
        assert_eq!(caught, what != "nothing", "{what}");
    }
    // A per-chain failure must carry the single solve's status and name the chain first.
    let mut w = World::new();
    w.b.batch_effectors3[BAD].x = f32::NAN;
    let before = w.b;
    let (batch, single) = (true, false);
    for (call, status, failing, fine) in [
        (batch, St::NonFinite, BAD, true),
        (batch, St::InvalidArgument, BAD, false),
        (batch, St::NonFinite, BAD + 1, false),
        (single, St::NonFinite, BAD, false),
    ] {
        // SAFETY: the world's live solver and buffers of B chains (of one for the single).
        let s = unsafe {
            if call == batch {
                sinew_two_bone_ik_solve_batch(
                    w.two_bone,
                    w.b.batch3.as_mut_ptr(),
                    B as u32,
                    w.b.batch_effectors3.as_ptr(),
                    null(),
                    null(),
                    null_mut(),
                )
            } else {
                sinew_two_bone_ik_solve(
                    w.two_bone,
                    w.b.batch3.as_mut_ptr(),
                    &w.b.batch_effectors3[BAD],
                    null(),
                    null(),
                    null_mut(),
                )
            }
        };
        assert_eq!(s, St::NonFinite, "{}", message());
        let replay = Some(Err((failing, St::NonFinite)));
        let outcome = check_batch(&mut w, &before, status, replay, check());
        let judged = !matches!(outcome, Outcome::Fail(_));
        assert_eq!(judged, fine, "{status:?}, chain {failing}, {:?}", message());
    }
}
