//! What the header declares and what it requires of the table: the exports with their
//! parameters, the input structs, one requirement per pointer (a NULL case), float (a case per
//! float class) and integer (any other case) argument or input field, and the documented domain
//! of each float.

use std::collections::{BTreeMap, BTreeSet};

use sinew::ffi::SinewStatus as St;

pub const HEADER: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/include/sinew.h");

/// A declaration `type name` from the header: base type, pointer depth, const pointee.
#[derive(Clone, Debug)]
pub struct Decl {
    pub name: String,
    pub base: String,
    pub ptr: usize,
    pub konst: bool,
}

#[derive(Clone, Debug)]
pub struct Func {
    pub name: String,
    pub void: bool,
    pub params: Vec<Decl>,
}

pub fn strip_comments(src: &str) -> String {
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

pub fn parse_decl(s: &str) -> Decl {
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
pub fn parse_header() -> (Vec<Func>, BTreeMap<String, Vec<Decl>>) {
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
pub enum Need {
    Null,
    Float(Class),
    /// Any non-NULL case (integers: out of range, counts, enum and flag values).
    Other,
}

pub type Key = (String, String, Need);

/// Every (export, argument or field path, need) the header implies. Inputs are arguments passed
/// by value, pointers to const, and non-const pointers to structs not named `out*` (in/out
/// arrays such as `chain` and `model`); their struct fields are followed recursively.
pub fn requirements(funcs: &[Func], structs: &BTreeMap<String, Vec<Decl>>) -> BTreeSet<Key> {
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

/// The class of bad input a case feeds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Class {
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

pub const FLOAT_CLASSES: [(Class, f32); 5] = [
    (Class::Nan, f32::NAN),
    (Class::PosInf, f32::INFINITY),
    (Class::NegInf, f32::NEG_INFINITY),
    (Class::Huge, 1e30),
    (Class::Denormal, 1e-40),
];

/// The documented domain of a float argument or field.
#[derive(Clone, Copy, Debug)]
pub enum Dom {
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
    /// Frames per second (of 2 frames): positive; a denormal rate lasts past f32 seconds.
    FrameRate,
    /// A component of an aim setting's axis that, huge, turns it onto the other axis (`aim_axis.y`
    /// onto up +Y, `up_axis.x` onto aim +X): rejected as parallel axes.
    Parallel,
}

impl Dom {
    pub fn expect(self, class: Class) -> Vec<St> {
        use Dom::*;
        match class {
            Class::Nan | Class::PosInf | Class::NegInf => vec![St::NonFinite],
            Class::Huge => match self {
                Free => vec![St::Ok, St::NumericOverflow],
                Rot | Pos | AtLeast1 | FrameRate => vec![St::Ok],
                Unit | Angle | Parallel => vec![St::InvalidArgument],
                // Outside [0, duration]: the library reports OUT_OF_RANGE.
                KeyTime(_) => vec![St::OutOfRange],
            },
            Class::Denormal => match self {
                AtLeast1 => vec![St::InvalidArgument],
                // [0, 0.4, 1e-40] is not increasing.
                KeyTime(2) => vec![St::InvalidArgument],
                FrameRate => vec![St::NumericOverflow],
                _ => vec![St::Ok],
            },
            c => unreachable!("{c:?} is not a float class"),
        }
    }
}

/// The domain of float argument or field `path` of `export`.
pub fn domain(export: &str, path: &str) -> Option<Dom> {
    use Dom::*;
    let last = path.rsplit('.').next().unwrap_or(path);
    let parts: Vec<&str> = path.split('.').collect();
    let has = |s: &str| parts.contains(&s);
    Some(match path {
        "t" | "value" => Unit,
        "weight" if export == "sinew_pose_apply_additive" => Free,
        "weight" if export == "sinew_aim_ik_set_joint" => Pos,
        "weight" => Unit,
        "rotation_limit_degrees" | "max_angle_degrees" => Angle,
        "threshold" | "duration" | "time" | "dt" => Pos,
        "times" => KeyTime(0),
        "frame_rate" => FrameRate,
        "weights" => Unit,
        "layers.weight" => Pos,
        "targets.weight" => Pos,
        "additive.weight" => Free,
        _ if has("settings") => match last {
            "weight" | "soften" | "pole_weight" | "hand_fk_weight" => Unit,
            "x" | "y" | "z" if has("per_axis_alpha") => Unit,
            "start_stretch_ratio" | "precision" | "tolerance" => Pos,
            "max_angle_degrees" => Angle,
            "y" if has("aim_axis") => Parallel,
            "x" if has("up_axis") => Parallel,
            "x" | "y" | "z" if has("aim_axis") || has("up_axis") => Rot,
            "x" | "y" | "z" if has("aim_offset") => Free,
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
        _ if has("inverse_binds") => Free,
        _ if has("translation")
            || has("scale")
            || has("effector_position")
            || has("position")
            || has("joint_target")
            || has("effector_positions")
            || has("joint_targets")
            || has("target_position")
            || has("up_target")
            || has("target_positions")
            || has("up_targets")
            || has("values")
            || has("in_tangents")
            || has("out_tangents") =>
        {
            Free
        }
        _ => return None,
    })
}
