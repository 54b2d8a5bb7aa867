//! The table of cases: NULL and float cases generated from the header's requirements, then the
//! cases each job writes out ([`crate::cases`]), each a valid call with one bad argument.

use std::collections::{BTreeMap, BTreeSet};
use std::ffi::c_void;
use std::sync::Arc;

use sinew::ffi::SinewStatus as St;
use sinew::ffi::*;

use crate::call::*;
use crate::header::*;
use crate::world::*;

pub type Call = Arc<dyn Fn(&mut World) -> Outcome + Send + Sync>;

pub enum Setup {
    None,
    Bufs(Box<dyn Fn(&mut Bufs) + Send + Sync>),
    World(Box<dyn Fn(&mut World) + Send + Sync>),
}

pub type BufsEdit = fn(&mut Bufs);
pub type WorldEdit = fn(&mut World);
pub type ConstraintEdit = fn(&mut SinewJointConstraint);
pub type SettingsEdit = fn(&mut SinewTwoBoneIkSettings);

pub fn bufs(f: impl Fn(&mut Bufs) + Send + Sync + 'static) -> Setup {
    Setup::Bufs(Box::new(f))
}

pub fn world(f: impl Fn(&mut World) + Send + Sync + 'static) -> Setup {
    Setup::World(Box::new(f))
}

pub struct Case {
    pub export: &'static str,
    pub param: String,
    pub class: Class,
    pub name: String,
    pub setup: Setup,
    pub call: Call,
    /// Allowed statuses; empty for a function that returns nothing.
    pub expect: Vec<St>,
    /// After a success, probing may meet NUMERIC_OVERFLOW (a huge value was accepted into state).
    pub lenient: bool,
    /// On failure, text the error message must contain (the argument or chain at fault).
    pub needle: Option<String>,
}

pub struct Table {
    pub cases: Vec<Case>,
    pub callees: BTreeMap<&'static str, Arc<Callee>>,
    /// Problems building the table (unknown export, no domain for a float field, ...).
    pub gaps: Vec<String>,
}

impl Table {
    /// The valid call of `export` with `args`' overrides, failing when one is never consulted.
    pub fn call(&self, export: &'static str, args: Args) -> Call {
        // An export missing from `exports()` is a gap the coverage check reports.
        let callee = self.callees.get(export).cloned();
        Arc::new(move |w| {
            let Some(callee) = &callee else {
                return Outcome::Fail(format!("{export} has no callee"));
            };
            let out = callee.call(w, &args);
            match args.consulted() {
                (all, used) if used != all => Outcome::Fail(format!(
                    "the call consulted {used} of {all} overrides (misspelt parameter?)"
                )),
                _ => out,
            }
        })
    }

    #[allow(clippy::too_many_arguments)]
    pub fn add(
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
    pub fn push(
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
    pub fn needle(&mut self, needle: impl Into<String>) {
        self.cases.last_mut().expect("a case").needle = Some(needle.into());
    }

    /// The cases of `param` of `export`, of `class`.
    pub fn at(&mut self, export: &'static str, param: &str, class: Class) -> At<'_> {
        At {
            table: self,
            export,
            param: param.to_string(),
            class,
        }
    }
}

/// Cases of one argument or field of one export, of one class ([`Table::at`]).
pub struct At<'t> {
    table: &'t mut Table,
    export: &'static str,
    param: String,
    class: Class,
}

impl At<'_> {
    /// The valid call with `args`' bad values after `setup`.
    pub fn add(self, what: &str, args: Args, setup: Setup, expect: &[St]) {
        let (export, param, class) = (self.export, &self.param, self.class);
        self.table
            .add(export, param, class, what, args, setup, expect);
    }

    /// The valid call with `args`' bad values.
    pub fn args(self, what: &str, args: Args, expect: &[St]) {
        self.add(what, args, Setup::None, expect);
    }

    /// The integer argument set to `value`.
    pub fn int(self, value: i64, expect: &[St]) {
        let (what, name) = (format!("{} {value}", self.param), leak(&self.param));
        self.args(&what, Args::none().int(name, value), expect);
    }

    /// The float argument set to `value`.
    pub fn float(self, value: f32, expect: &[St]) {
        let (what, name) = (format!("{} {value}", self.param), leak(&self.param));
        self.args(&what, Args::none().float(name, value), expect);
    }

    /// [`At::int`] once per value.
    pub fn ints(self, values: &[i64], expect: &[St]) {
        self.each(values, expect, |at, value, expect| at.int(value, expect));
    }

    /// [`At::float`] once per value.
    pub fn floats(self, values: &[f32], expect: &[St]) {
        self.each(values, expect, |at, value, expect| at.float(value, expect));
    }

    /// `one` case of this argument per value.
    fn each<V: Copy>(self, values: &[V], expect: &[St], one: fn(At<'_>, V, &[St])) {
        let At {
            table,
            export,
            param,
            class,
        } = self;
        for &value in values {
            one(table.at(export, &param, class), value, expect);
        }
    }

    /// The handle argument swapped for another of the world's.
    pub fn swap(self, what: &str, handle: Swap, expect: &[St]) {
        let name = leak(&self.param);
        self.args(what, Args::none().swap(name, handle), expect);
    }

    /// The valid call after `f` edits the buffers.
    pub fn bufs(self, what: &str, f: impl Fn(&mut Bufs) + Send + Sync + 'static, expect: &[St]) {
        self.add(what, Args::none(), bufs(f), expect);
    }

    /// The valid call after `f` edits the world.
    pub fn world(self, what: &str, f: impl Fn(&mut World) + Send + Sync + 'static, expect: &[St]) {
        self.add(what, Args::none(), world(f), expect);
    }
}

/// A parameter name for [`Args`], which keeps them for the life of the table.
fn leak(name: &str) -> &'static str {
    Box::leak(name.to_string().into_boxed_str())
}

pub const OK: &[St] = &[St::Ok];
pub const NULLP: &[St] = &[St::NullPointer];
pub const INVALID: &[St] = &[St::InvalidArgument];
pub const RANGE: &[St] = &[St::OutOfRange];
pub const SIZE: &[St] = &[St::SizeMismatch];
pub const SKELETON: &[St] = &[St::InvalidSkeleton];
pub const OVERFLOW: &[St] = &[St::NumericOverflow];
pub const NOT_FOUND: &[St] = &[St::NotFound];

pub fn pose2(w: &World) -> *mut c_void {
    w.pose2.cast()
}
pub fn pose3(w: &World) -> *mut c_void {
    w.pose3.cast()
}
pub fn pose_a(w: &World) -> *mut c_void {
    w.pose_a.cast()
}
pub fn pose_b(w: &World) -> *mut c_void {
    w.pose_b.cast()
}
pub fn pose_out(w: &World) -> *mut c_void {
    w.pose_out.cast()
}
pub fn mask2(w: &World) -> *mut c_void {
    w.mask2.cast()
}
pub fn skin2(w: &World) -> *mut c_void {
    w.skin2.cast()
}
pub fn skel2(w: &World) -> *mut c_void {
    w.skel2.cast()
}
/// Of as many joints as the world's skeleton, without names.
pub fn skel3(w: &World) -> *mut c_void {
    w.skel3.cast()
}
pub fn clip_a(w: &World) -> *mut c_void {
    w.clip_a.cast()
}
pub fn clip_b(w: &World) -> *mut c_void {
    w.clip_b.cast()
}
pub fn clip2(w: &World) -> *mut c_void {
    w.clip2.cast()
}
pub fn cursor2(w: &World) -> *mut c_void {
    w.cursor2.cast()
}

/// Sets pose A's local transforms (accepted: finite) so that its model space overflows f32.
pub fn overflow_pose(w: &mut World) {
    let mut local = posed(0.15);
    local[0].scale = v(1e30, 1e30, 1e30);
    local[1].translation = v(1e30, 1e30, 0.0);
    // SAFETY: a live pose and a buffer of J transforms.
    ok(unsafe { sinew_pose_set_local(w.pose_a, local.as_ptr(), J as u32) });
}

/// Sets pose A's joint `joint` local translation (a zero-length bone for 0).
pub fn pose_translation(w: &mut World, joint: usize, t: SinewVec3) {
    let mut local = posed(0.15);
    local[joint].translation = t;
    // SAFETY: a live pose and a buffer of J transforms.
    ok(unsafe { sinew_pose_set_local(w.pose_a, local.as_ptr(), J as u32) });
}

/// Model-space position of pose A's joint.
pub fn pose_position(w: &World, joint: u32) -> SinewVec3 {
    let mut t = SENT_T;
    // SAFETY: a live pose and a local out-pointer.
    ok(unsafe { sinew_pose_get_model_transform(w.pose_a, joint, &mut t) });
    t.translation
}

pub fn build_table(funcs: &[Func], need: &BTreeSet<Key>) -> Table {
    let mut t = Table {
        cases: Vec::new(),
        callees: BTreeMap::new(),
        gaps: Vec::new(),
    };
    let mut erased: BTreeMap<&'static str, (usize, Erased)> = exports().into_iter().collect();
    let mut scratch = World::new();
    for f in funcs {
        let Some((name, (arity, erased))) = erased.remove_entry(f.name.as_str()) else {
            t.gaps.push(format!("{} is not in `exports()`", f.name));
            continue;
        };
        if arity != f.params.len() {
            t.gaps.push(format!(
                "{name}: arity {arity} in `exports()`, {} in the header",
                f.params.len()
            ));
        }
        let callee = Callee {
            func: f.clone(),
            erased,
        };
        if let Err(e) = callee.check(&mut scratch) {
            t.gaps.push(e);
        }
        t.callees.insert(name, Arc::new(callee));
    }
    for name in erased.keys() {
        t.gaps
            .push(format!("{name} is in `exports()` but not in the header"));
    }
    let void: BTreeSet<&str> = funcs
        .iter()
        .filter(|f| f.void)
        .map(|f| f.name.as_str())
        .collect();
    let exports: Vec<&'static str> = t.callees.keys().copied().collect();
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
                } else if OPTIONAL
                    .iter()
                    .any(|(e, ps)| *e == export && ps.contains(&path.as_str()))
                {
                    OK
                } else {
                    NULLP
                };
                t.add(
                    export,
                    path,
                    Class::Null,
                    &format!("{path} = NULL"),
                    Args::none().null(path),
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
                let Some(buffer) = slot(&mut scratch, export, &param) else {
                    t.gaps.push(format!("{export}: no buffer for {param}"));
                    continue;
                };
                let count = buffer.elements().len();
                for k in planted(export, count) {
                    let dom = if let Dom::KeyTime(_) = dom {
                        Dom::KeyTime(k)
                    } else {
                        dom
                    };
                    let mut probe_bufs = Bufs::new();
                    if slot(&mut probe_bufs, export, &param).unwrap().elements()[k]
                        .float_mut(&field)
                        .is_none()
                    {
                        t.gaps
                            .push(format!("{export}: {param} has no float field {field:?}"));
                        break;
                    }
                    let (p, f) = (param.clone(), field.clone());
                    let setup = bufs(move |b| {
                        let mut elements = slot(b, export, &p).unwrap().elements();
                        *elements[k].float_mut(&f).unwrap() = value;
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

    crate::cases::all(&mut t);
    t
}
