//! Calling any export from its header declaration. Every export is listed once with its arity
//! ([`exports`]); its arguments are built from its parameters as the header declares them:
//! handles of the world by type and role ([`handle`]), buffers of the world by name ([`slot`]),
//! integers and floats from [`DEFAULTS`], out-handles into one slot that [`after`] adopts. A
//! case's [`Args`] replaces one argument (or a few) with a bad value.

use std::ffi::c_void;
use std::ptr::null_mut;
use std::sync::atomic::{AtomicUsize, Ordering};

use sinew::ffi::SinewStatus as St;
use sinew::ffi::*;

use crate::batch;
use crate::header::{Decl, Func};
use crate::probe::Probe;
use crate::world::*;

/// What a call did.
pub enum Outcome {
    Status(St),
    /// A function returning nothing.
    Void,
    /// A function returning a number (`sinew_abi_version`), before [`after`] judges it.
    Value(u32),
    /// The case itself found a problem (e.g. a created handle is unusable).
    Fail(String),
}

pub fn st(s: St) -> Outcome {
    Outcome::Status(s)
}

// ------------------------------------------------------------------------------ erased exports

/// An argument as the C ABI passes it.
#[derive(Clone, Copy, Debug)]
pub enum Val {
    Ptr(*mut c_void),
    U32(u32),
    I32(i32),
    Size(usize),
    F32(f32),
}

impl Val {
    pub fn is_null(self) -> bool {
        matches!(self, Val::Ptr(p) if p.is_null())
    }

    pub fn count(self) -> usize {
        match self {
            Val::U32(n) => n as usize,
            v => panic!("{v:?} is not a count"),
        }
    }
}

/// An argument type of an export, taken out of a [`Val`].
pub trait FromVal {
    fn from_val(v: Val) -> Self;
}

impl<T> FromVal for *mut T {
    fn from_val(v: Val) -> Self {
        match v {
            Val::Ptr(p) => p.cast(),
            v => panic!("{v:?} passed as a pointer"),
        }
    }
}

impl<T> FromVal for *const T {
    fn from_val(v: Val) -> Self {
        <*mut T>::from_val(v).cast_const()
    }
}

macro_rules! scalar_val {
    ($($t:ty => $variant:ident),*) => {
        $(impl FromVal for $t {
            fn from_val(v: Val) -> Self {
                match v {
                    Val::$variant(x) => x,
                    v => panic!("{v:?} passed as {}", stringify!($t)),
                }
            }
        })*
    };
}
scalar_val!(u32 => U32, i32 => I32, usize => Size, f32 => F32);

/// A return type of an export.
pub trait Returns {
    fn outcome(self) -> Outcome;
}

impl Returns for St {
    fn outcome(self) -> Outcome {
        Outcome::Status(self)
    }
}

impl Returns for () {
    fn outcome(self) -> Outcome {
        Outcome::Void
    }
}

impl Returns for u32 {
    fn outcome(self) -> Outcome {
        Outcome::Value(self)
    }
}

/// An export with its argument types erased: called with one [`Val`] per parameter.
pub type Erased = Box<dyn Fn(&[Val]) -> Outcome + Send + Sync>;

/// An export's function pointer type, for [`Export::erase`].
pub trait Export {
    /// The number of parameters and the erased function.
    fn erase(self) -> (usize, Erased);
}

macro_rules! export_of_arity {
    ($n:literal; $($a:ident)*) => {
        impl<R: Returns + 'static, $($a: FromVal + 'static),*> Export
            for unsafe extern "C" fn($($a),*) -> R
        {
            fn erase(self) -> (usize, Erased) {
                let f = move |args: &[Val]| {
                    assert_eq!(args.len(), $n, "argument count");
                    #[allow(unused_mut, unused_variables)]
                    let mut it = args.iter().copied();
                    // SAFETY: the arguments are built from the header's declaration of this
                    // export (`args`): live handles and buffers of the world sized as the counts
                    // passed, or one bad value the export must reject before using it.
                    unsafe { self($(<$a>::from_val(it.next().unwrap())),*) }.outcome()
                };
                ($n, Box::new(f))
            }
        }
    };
}
export_of_arity!(0;);
export_of_arity!(1; A);
export_of_arity!(2; A B);
export_of_arity!(3; A B C);
export_of_arity!(4; A B C D);
export_of_arity!(5; A B C D E);
export_of_arity!(6; A B C D E F);
export_of_arity!(7; A B C D E F G);
export_of_arity!(8; A B C D E F G H);
export_of_arity!(9; A B C D E F G H I);

macro_rules! fn_type {
    (0) => (unsafe extern "C" fn() -> _);
    (1) => (unsafe extern "C" fn(_) -> _);
    (2) => (unsafe extern "C" fn(_, _) -> _);
    (3) => (unsafe extern "C" fn(_, _, _) -> _);
    (4) => (unsafe extern "C" fn(_, _, _, _) -> _);
    (5) => (unsafe extern "C" fn(_, _, _, _, _) -> _);
    (6) => (unsafe extern "C" fn(_, _, _, _, _, _) -> _);
    (7) => (unsafe extern "C" fn(_, _, _, _, _, _, _) -> _);
    (8) => (unsafe extern "C" fn(_, _, _, _, _, _, _, _) -> _);
    (9) => (unsafe extern "C" fn(_, _, _, _, _, _, _, _, _) -> _);
}

macro_rules! erased_exports {
    ($($f:ident / $n:tt),* $(,)?) => {
        vec![$((stringify!($f), Export::erase($f as fn_type!($n)))),*]
    };
}

/// Every export, by name, with its arity (checked against the header by the table).
pub fn exports() -> Vec<(&'static str, (usize, Erased))> {
    erased_exports![
        sinew_abi_version / 0,
        sinew_version / 3,
        sinew_last_error_message / 3,
        sinew_skeleton_create / 5,
        sinew_skeleton_destroy / 1,
        sinew_skeleton_joint_count / 2,
        sinew_skeleton_find_joint / 3,
        sinew_skeleton_get_parents / 3,
        sinew_skeleton_get_rest_pose / 3,
        sinew_pose_create / 2,
        sinew_pose_destroy / 1,
        sinew_pose_joint_count / 2,
        sinew_pose_reset / 1,
        sinew_pose_get_local / 3,
        sinew_pose_set_local / 3,
        sinew_pose_get_model / 3,
        sinew_pose_compute_model / 3,
        sinew_pose_set_model / 3,
        sinew_pose_get_model_transform / 3,
        sinew_pose_set_model_transform / 3,
        sinew_joint_mask_create / 3,
        sinew_joint_mask_create_subtree / 4,
        sinew_joint_mask_destroy / 1,
        sinew_joint_mask_set_weight / 3,
        sinew_joint_mask_set_weights / 3,
        sinew_joint_mask_get_weights / 3,
        sinew_pose_blend / 6,
        sinew_pose_blend_layers / 4,
        sinew_pose_blend_layers_additive / 6,
        sinew_pose_make_additive / 3,
        sinew_pose_apply_additive / 5,
        sinew_joint_constraint_default / 1,
        sinew_pose_apply_constraints / 4,
        sinew_two_bone_ik_settings_default / 1,
        sinew_two_bone_ik_create / 2,
        sinew_two_bone_ik_destroy / 1,
        sinew_two_bone_ik_get_settings / 2,
        sinew_two_bone_ik_set_settings / 2,
        sinew_two_bone_ik_solve / 6,
        sinew_two_bone_ik_solve_batch / 7,
        sinew_two_bone_ik_solve_batch_soa / 7,
        sinew_two_bone_ik_solve_pose / 9,
        sinew_fabrik_settings_default / 1,
        sinew_fabrik_create / 3,
        sinew_fabrik_destroy / 1,
        sinew_fabrik_get_settings / 2,
        sinew_fabrik_set_settings / 2,
        sinew_fabrik_set_constraint / 3,
        sinew_fabrik_solve / 7,
        sinew_fabrik_solve_batch / 8,
        sinew_fabrik_solve_pose / 7,
        sinew_ccd_settings_default / 1,
        sinew_ccd_create / 3,
        sinew_ccd_destroy / 1,
        sinew_ccd_get_settings / 2,
        sinew_ccd_set_settings / 2,
        sinew_ccd_set_constraint / 3,
        sinew_ccd_set_joint / 4,
        sinew_ccd_solve / 7,
        sinew_ccd_solve_batch / 8,
        sinew_ccd_solve_pose / 7,
        sinew_aim_ik_settings_default / 1,
        sinew_aim_ik_create / 3,
        sinew_aim_ik_destroy / 1,
        sinew_aim_ik_get_settings / 2,
        sinew_aim_ik_set_settings / 2,
        sinew_aim_ik_set_joint / 4,
        sinew_aim_ik_solve / 6,
        sinew_aim_ik_solve_batch / 7,
        sinew_aim_ik_solve_pose / 7,
        sinew_hand_ik_retargeting_settings_default / 1,
        sinew_hand_ik_retargeting_create / 2,
        sinew_hand_ik_retargeting_destroy / 1,
        sinew_hand_ik_retargeting_get_settings / 2,
        sinew_hand_ik_retargeting_set_settings / 2,
        sinew_hand_ik_retargeting_apply_model / 7,
        sinew_hand_ik_retargeting_apply_pose / 6,
        sinew_multi_fabrik_settings_default / 1,
        sinew_multi_fabrik_create / 4,
        sinew_multi_fabrik_destroy / 1,
        sinew_multi_fabrik_get_settings / 2,
        sinew_multi_fabrik_set_settings / 2,
        sinew_multi_fabrik_set_constraint / 3,
        sinew_multi_fabrik_solve / 9,
        sinew_multi_fabrik_solve_pose / 7,
        sinew_clip_create / 3,
        sinew_clip_destroy / 1,
        sinew_clip_duration / 2,
        sinew_clip_set_translation_track / 8,
        sinew_clip_set_rotation_track / 8,
        sinew_clip_set_scale_track / 8,
        sinew_clip_clear_track / 3,
        sinew_clip_cursor_create / 2,
        sinew_clip_cursor_destroy / 1,
        sinew_clip_sample / 5,
        sinew_clip_create_from_frames / 9,
        sinew_clip_set_wrap / 2,
        sinew_clip_get_wrap / 2,
        sinew_crossfade_create / 3,
        sinew_crossfade_destroy / 1,
        sinew_crossfade_play / 3,
        sinew_crossfade_fade_to / 6,
        sinew_crossfade_update / 2,
        sinew_crossfade_get_pose / 2,
        sinew_crossfade_fade_count / 2,
        sinew_crossfade_get_weights / 4,
        sinew_crossfade_get_times / 4,
        sinew_crossfade_is_inertializing / 3,
        sinew_pose_compute_model_matrices / 3,
        sinew_skin_create / 5,
        sinew_skin_destroy / 1,
        sinew_skin_joint_count / 2,
        sinew_pose_compute_skinning_palette / 4,
    ]
}

// ------------------------------------------------------------------------------ the valid call

/// Pointer arguments the documentation lets be NULL (their NULL case expects OK).
pub const OPTIONAL: &[(&str, &[&str])] = &[
    ("sinew_last_error_message", &["out_len"]),
    ("sinew_skeleton_create", &["names"]),
    ("sinew_pose_blend", &["mask"]),
    ("sinew_pose_blend_layers", &["layers.mask"]),
    (
        "sinew_pose_blend_layers_additive",
        &["layers.mask", "additive.mask"],
    ),
    ("sinew_pose_apply_additive", &["mask"]),
    (
        "sinew_two_bone_ik_solve",
        &["effector_rotation", "joint_target", "out_result"],
    ),
    (
        "sinew_two_bone_ik_solve_pose",
        &["effector_rotation", "joint_target", "out_result"],
    ),
    (
        "sinew_two_bone_ik_solve_batch",
        &["effector_rotations", "joint_targets", "out_results"],
    ),
    (
        "sinew_two_bone_ik_solve_batch_soa",
        &["effector_rotations", "joint_targets", "out_results"],
    ),
    ("sinew_fabrik_set_constraint", &["constraint"]),
    (
        "sinew_fabrik_solve",
        &["root_parent_rotation", "effector_rotation", "out_result"],
    ),
    (
        "sinew_fabrik_solve_pose",
        &["effector_rotation", "out_result"],
    ),
    (
        "sinew_fabrik_solve_batch",
        &["root_parent_rotations", "effector_rotations", "out_results"],
    ),
    ("sinew_ccd_set_constraint", &["constraint"]),
    (
        "sinew_ccd_solve",
        &["root_parent_rotation", "effector_rotation", "out_result"],
    ),
    ("sinew_ccd_solve_pose", &["effector_rotation", "out_result"]),
    (
        "sinew_ccd_solve_batch",
        &["root_parent_rotations", "effector_rotations", "out_results"],
    ),
    ("sinew_aim_ik_solve", &["up_target", "out_result"]),
    ("sinew_aim_ik_solve_pose", &["up_target", "out_result"]),
    ("sinew_aim_ik_solve_batch", &["up_targets", "out_results"]),
    ("sinew_hand_ik_retargeting_apply_model", &["out_offset"]),
    ("sinew_multi_fabrik_set_constraint", &["constraint"]),
    ("sinew_multi_fabrik_solve", &["out_results"]),
    ("sinew_multi_fabrik_solve_pose", &["out_results"]),
    ("sinew_hand_ik_retargeting_apply_pose", &["out_offset"]),
    ("sinew_clip_sample", &["cursor"]),
    ("sinew_clip_create_from_frames", &["joint_mask"]),
    ("sinew_crossfade_fade_to", &["out_queued"]),
    ("sinew_crossfade_is_inertializing", &["out_remaining"]),
    ("sinew_skin_create", &["joints"]),
];

/// The valid world's integer and float arguments: (export, or "" for any, parameter, value).
/// Counts match the world's buffers, indices its skeleton and chains, enums a valid member.
pub const DEFAULTS: &[(&str, &str, f64)] = &[
    ("", "count", J as f64),
    ("sinew_pose_blend_layers", "count", 2.0),
    ("sinew_pose_blend_layers_additive", "count", 2.0),
    ("", "additive_count", 2.0),
    ("sinew_pose_apply_constraints", "count", 2.0),
    ("", "joint_count", N as f64),
    ("sinew_skeleton_create", "joint_count", J as f64),
    ("", "chain_count", B as f64),
    ("", "max_joints", N as f64),
    ("sinew_multi_fabrik_create", "max_joints", J as f64),
    ("", "max_effectors", M as f64),
    ("", "effector_count", M as f64),
    ("", "max_fades", 2.0),
    ("", "bone_count", 2.0),
    ("", "key_count", 3.0),
    ("", "looping", 1.0),
    ("", "capacity", 4.0),
    ("sinew_last_error_message", "capacity", 64.0),
    ("", "joint", 2.0),
    ("sinew_pose_get_model_transform", "joint", 4.0),
    ("sinew_pose_set_model_transform", "joint", 4.0),
    ("sinew_ccd_set_constraint", "joint", 1.0),
    ("sinew_two_bone_ik_solve_pose", "joint", 3.0),
    ("sinew_clip_clear_track", "joint", 3.0),
    ("", "root", 2.0),
    ("sinew_multi_fabrik_solve", "root", 0.0),
    ("sinew_multi_fabrik_solve_pose", "root", 0.0),
    ("", "end", 4.0),
    ("", "blend_depth", 1.0),
    ("", "space", SinewBlendSpace::ModelRotation as i32 as f64),
    ("", "interpolation", SinewInterpolation::Cubic as i32 as f64),
    ("", "property", SinewTrackProperty::Rotation as i32 as f64),
    ("", "curve", SinewFadeCurve::Smooth as i32 as f64),
    ("", "value", 0.5),
    ("", "t", 0.4),
    ("", "threshold", 0.1),
    ("sinew_joint_mask_set_weight", "weight", 0.25),
    ("sinew_pose_apply_additive", "weight", 0.7),
    ("sinew_ccd_set_joint", "weight", 0.5),
    ("", "rotation_limit_degrees", 30.0),
    ("sinew_aim_ik_set_joint", "weight", 1.5),
    ("", "max_angle_degrees", 40.0),
    ("sinew_clip_create", "duration", 1.0),
    ("sinew_crossfade_fade_to", "duration", 0.3),
    ("", "time", 0.3),
    ("", "dt", 0.05),
    ("", "frame_count", 2.0),
    ("", "frame_rate", 30.0),
    ("", "wrap", 1.0),
    ("sinew_clip_create_from_frames", "joint_count", J as f64),
    (
        "sinew_clip_create_from_frames",
        "interpolation",
        SinewInterpolation::Slerp as i32 as f64,
    ),
];

/// The default of integer or float parameter `param` of `export`.
fn default(export: &str, param: &str) -> Result<f64, String> {
    let find = |e: &str| {
        DEFAULTS
            .iter()
            .find(|(x, p, _)| *x == e && *p == param)
            .map(|d| d.2)
    };
    find(export)
        .or_else(|| find(""))
        .ok_or_else(|| format!("{export}: no default for {param}"))
}

/// The opaque handle types of the header.
pub fn is_handle(ty: &str) -> bool {
    matches!(
        ty,
        "SinewSkeleton"
            | "SinewPose"
            | "SinewJointMask"
            | "SinewTwoBoneIk"
            | "SinewFabrik"
            | "SinewCcd"
            | "SinewAimIk"
            | "SinewHandIkRetargeting"
            | "SinewMultiFabrik"
            | "SinewClip"
            | "SinewClipCursor"
            | "SinewCrossfade"
            | "SinewSkin"
    )
}

/// The world's handle of type `ty` for parameter `param` (NULL for a destroy: the world's
/// handles stay live). Poses by role: the first input, the second input, the output.
fn handle(w: &World, export: &str, param: &str, ty: &str) -> *mut c_void {
    if export.ends_with("_destroy") {
        return null_mut();
    }
    let h: *mut c_void = match ty {
        "SinewSkeleton" => w.skel.cast(),
        "SinewPose" => match param {
            "b" | "reference" | "delta" => w.pose_b.cast(),
            "out" | "out_delta" => w.pose_out.cast(),
            _ => w.pose_a.cast(),
        },
        "SinewJointMask" => w.mask.cast(),
        "SinewTwoBoneIk" => w.two_bone.cast(),
        "SinewFabrik" => w.fabrik.cast(),
        "SinewCcd" => w.ccd.cast(),
        "SinewAimIk" => w.aim.cast(),
        "SinewHandIkRetargeting" => w.hand.cast(),
        "SinewMultiFabrik" => w.multi.cast(),
        "SinewClip" => w.clip.cast(),
        "SinewClipCursor" => w.cursor.cast(),
        "SinewCrossfade" => w.crossfade.cast(),
        "SinewSkin" => w.skin.cast(),
        ty => unreachable!("{ty} is not a handle type"),
    };
    h
}

pub fn out_handle<T>(b: &mut Bufs) -> *mut *mut T {
    (&mut b.out_handle as *mut usize).cast()
}

/// The argument for parameter `p` of `export`: the valid world's, unless `a` overrides it.
fn arg(w: &mut World, a: &Args, export: &str, p: &Decl) -> Result<Val, String> {
    let name = p.name.as_str();
    Ok(match (p.ptr, p.base.as_str()) {
        (0, "float") => Val::F32(a.f(name, default(export, name)? as f32)),
        (0, "uint32_t") => Val::U32(a.u(name, default(export, name)? as u32)),
        (0, "int32_t") => Val::I32(a.i(name, default(export, name)? as i32)),
        (0, "size_t") => Val::Size(a.u(name, default(export, name)? as u32) as usize),
        (1, ty) if is_handle(ty) => Val::Ptr(a.h(w, name, handle(w, export, name, ty)).cast_mut()),
        (2, ty) if is_handle(ty) => Val::Ptr(a.m(name, out_handle::<c_void>(&mut w.b).cast())),
        (0, ty) => return Err(format!("{export}: no rule for {ty} {name}")),
        _ => {
            let p = match name {
                "names" => w.names.as_mut_ptr().cast(),
                "name" => w.name.cast_mut().cast(),
                "layers" | "additive" => layers(w, a, name).cast(),
                _ => slot(&mut w.b, export, name)
                    .ok_or_else(|| format!("{export}: no buffer for {name}"))?
                    .ptr(),
            };
            Val::Ptr(a.m(name, p))
        }
    })
}

/// The two layers of array `param` (`layers`, or `additive` for the additive layers, which
/// take the same poses as deltas): pose A under the world's mask, pose B unmasked, weighted
/// from the world's buffers.
fn layers(w: &mut World, a: &Args, param: &str) -> *mut SinewBlendLayer {
    let additive = param == "additive";
    let weights = if additive { w.b.additive } else { w.b.layers };
    let array = [
        SinewBlendLayer {
            pose: a.h(w, &format!("{param}.pose"), w.pose_a),
            weight: weights[0].weight,
            mask: a.h(w, &format!("{param}.mask"), w.mask),
        },
        SinewBlendLayer {
            pose: a.h(w, &format!("{param}[1].pose"), w.pose_b),
            weight: weights[1].weight,
            mask: std::ptr::null(),
        },
    ];
    let slot = if additive {
        &mut w.additive
    } else {
        &mut w.layers
    };
    *slot = array;
    slot.as_mut_ptr()
}

/// An export as the table calls it: its header declaration and its erased function.
pub struct Callee {
    pub func: Func,
    pub erased: Erased,
}

impl Callee {
    /// The argument passed for parameter `name`.
    pub fn get(&self, args: &[Val], name: &str) -> Val {
        let i = self.func.params.iter().position(|p| p.name == name);
        args[i.unwrap_or_else(|| panic!("{} has no parameter {name}", self.func.name))]
    }

    /// Whether every parameter has a rule for its argument (built on `w`, not called).
    pub fn check(&self, w: &mut World) -> Result<(), String> {
        let none = Args::none();
        let params = &self.func.params;
        params
            .iter()
            .try_for_each(|p| arg(w, &none, &self.func.name, p).map(drop))
    }

    /// The valid call with `a`'s overrides; batches are judged against their single solves.
    pub fn call(&self, w: &mut World, a: &Args) -> Outcome {
        let params = &self.func.params;
        let args: Result<Vec<Val>, String> = params
            .iter()
            .map(|p| arg(w, a, &self.func.name, p))
            .collect();
        let args = match args {
            Ok(args) => args,
            Err(e) => return Outcome::Fail(e),
        };
        if is_batch(&self.func.name) {
            return batch::call(w, self, &args);
        }
        let out = (self.erased)(&args);
        self.after(w, &args, out)
    }

    /// After a successful create: the new handle is checked or replaces the world's (so
    /// probing checks it). `sinew_abi_version` must return `SINEW_ABI_VERSION`.
    fn after(&self, w: &mut World, args: &[Val], out: Outcome) -> Outcome {
        if let Outcome::Value(v) = out {
            return if v == SINEW_ABI_VERSION {
                Outcome::Void
            } else {
                Outcome::Fail(format!("{} returned {v}", self.func.name))
            };
        }
        let created = self
            .func
            .params
            .iter()
            .find(|p| p.ptr == 2 && is_handle(&p.base));
        let (Outcome::Status(St::Ok), Some(created)) = (&out, created) else {
            return out;
        };
        let h = w.b.out_handle;
        let max_joints = |args: &[Val]| self.get(args, "max_joints").count();
        // SAFETY: `h` is the handle of type `created.base` the call just created; the world's
        // handle it replaces is live and not used afterwards.
        unsafe {
            match created.base.as_str() {
                "SinewSkeleton" => return check_new_skeleton(h as _).map_or(out, Outcome::Fail),
                "SinewPose" => sinew_pose_destroy(h as _),
                "SinewJointMask" => adopt(&mut w.mask, h, sinew_joint_mask_destroy),
                "SinewTwoBoneIk" => adopt(&mut w.two_bone, h, sinew_two_bone_ik_destroy),
                "SinewFabrik" if max_joints(args) >= N => {
                    adopt(&mut w.fabrik, h, sinew_fabrik_destroy)
                }
                "SinewFabrik" => sinew_fabrik_destroy(h as _),
                "SinewCcd" if max_joints(args) >= N => adopt(&mut w.ccd, h, sinew_ccd_destroy),
                "SinewCcd" => sinew_ccd_destroy(h as _),
                "SinewAimIk" if max_joints(args) >= N => adopt(&mut w.aim, h, sinew_aim_ik_destroy),
                "SinewAimIk" => sinew_aim_ik_destroy(h as _),
                "SinewHandIkRetargeting" => {
                    adopt(&mut w.hand, h, sinew_hand_ik_retargeting_destroy)
                }
                "SinewMultiFabrik"
                    if max_joints(args) >= J && self.get(args, "max_effectors").count() >= M =>
                {
                    adopt(&mut w.multi, h, sinew_multi_fabrik_destroy)
                }
                "SinewMultiFabrik" => sinew_multi_fabrik_destroy(h as _),
                "SinewClip" => adopt(&mut w.clip, h, sinew_clip_destroy),
                "SinewClipCursor" => adopt(&mut w.cursor, h, sinew_clip_cursor_destroy),
                "SinewCrossfade" => adopt(&mut w.crossfade, h, sinew_crossfade_destroy),
                "SinewSkin" if self.get(args, "count").count() == J => {
                    adopt(&mut w.skin, h, sinew_skin_destroy)
                }
                "SinewSkin" => sinew_skin_destroy(h as _),
                ty => return Outcome::Fail(format!("no rule for a created {ty}")),
            }
        }
        out
    }
}

/// The new handle replaces the world's `slot`.
///
/// # Safety
///
/// `handle` is a live handle of `T`; the old one is live and not used afterwards.
unsafe fn adopt<T>(slot: &mut *mut T, handle: usize, destroy: unsafe extern "C" fn(*mut T)) {
    let old = std::mem::replace(slot, handle as *mut T);
    destroy(old);
}

/// A freshly created skeleton must report a finite rest pose with unit rotations.
pub fn check_new_skeleton(skeleton: *mut SinewSkeleton) -> Option<String> {
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

// ------------------------------------------------------------------------------ overrides

pub type Swap = fn(&World) -> *mut c_void;

/// The bad arguments of a call: NULL pointers, a misaligned pointer, integer or float values,
/// other handles, each by parameter name. The call consults it for every argument; a case
/// whose override is never consulted fails (a misspelt parameter).
#[derive(Default)]
pub struct Args {
    nulls: Vec<String>,
    /// A pointer argument moved this many bytes off its buffer (checked before it is read).
    misalign: Option<(String, usize)>,
    ints: Vec<(&'static str, i64)>,
    floats: Vec<(&'static str, f32)>,
    swaps: Vec<(&'static str, Swap)>,
    used: AtomicUsize,
}

impl Args {
    pub fn none() -> Self {
        Self::default()
    }

    pub fn null(mut self, name: &str) -> Self {
        self.nulls.push(name.to_string());
        self
    }

    /// `name` moved 2 bytes off its buffer.
    pub fn misaligned(name: &str) -> Self {
        Self::none().misaligned_by(name, 2)
    }

    pub fn misaligned_by(mut self, name: &str, bytes: usize) -> Self {
        self.misalign = Some((name.to_string(), bytes));
        self
    }

    pub fn int(mut self, name: &'static str, v: i64) -> Self {
        self.ints.push((name, v));
        self
    }

    pub fn float(mut self, name: &'static str, v: f32) -> Self {
        self.floats.push((name, v));
        self
    }

    pub fn swap(mut self, name: &'static str, f: Swap) -> Self {
        self.swaps.push((name, f));
        self
    }

    /// How many overrides there are, and how many the last call consulted (reset with it).
    pub fn consulted(&self) -> (usize, usize) {
        let all = self.nulls.len()
            + usize::from(self.misalign.is_some())
            + self.ints.len()
            + self.floats.len()
            + self.swaps.len();
        (all, self.used.swap(0, Ordering::Relaxed))
    }

    fn hit(&self) {
        self.used.fetch_add(1, Ordering::Relaxed);
    }

    pub fn p<T>(&self, name: &str, d: *const T) -> *const T {
        if self.nulls.iter().any(|n| n == name) {
            self.hit();
            std::ptr::null()
        } else if let Some((_, bytes)) = self.misalign.as_ref().filter(|(n, _)| n == name) {
            self.hit();
            d.cast::<u8>().wrapping_add(*bytes).cast()
        } else {
            d
        }
    }

    pub fn m<T>(&self, name: &str, d: *mut T) -> *mut T {
        self.p(name, d).cast_mut()
    }

    /// A handle argument: possibly swapped for another of the world's, possibly NULL.
    pub fn h<T>(&self, w: &World, name: &str, d: *mut T) -> *const T {
        let mut v = d;
        if let Some((_, f)) = self.swaps.iter().find(|(n, _)| *n == name) {
            self.hit();
            v = f(w).cast();
        }
        self.p(name, v)
    }

    pub fn u(&self, name: &str, d: u32) -> u32 {
        match self.ints.iter().find(|(n, _)| *n == name) {
            Some(&(_, x)) => {
                self.hit();
                x as u32
            }
            None => d,
        }
    }

    pub fn i(&self, name: &str, d: i32) -> i32 {
        self.u(name, d as u32) as i32
    }

    pub fn f(&self, name: &str, d: f32) -> f32 {
        match self.floats.iter().find(|(n, _)| *n == name) {
            Some(&(_, x)) => {
                self.hit();
                x
            }
            None => d,
        }
    }
}
