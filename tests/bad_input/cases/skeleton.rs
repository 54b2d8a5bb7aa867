//! Versions, the error message, skeletons.

use std::ffi::CStr;
use std::ptr::null;

use sinew::ffi::SinewStatus as St;
use sinew::ffi::*;

use crate::call::*;
use crate::header::Class::*;
use crate::table::*;
use crate::world::*;

pub fn cases(t: &mut Table) {
    let none = Args::none;
    t.at("sinew_abi_version", "", Valid)
        .args("returns SINEW_ABI_VERSION", none(), &[]);
    let em = "sinew_last_error_message";
    let query = none().null("buf").int("capacity", 0);
    t.at(em, "capacity", Count)
        .args("capacity 0 with a NULL buffer (length query)", query, OK);
    t.at(em, "capacity", Count).int(1, OK);

    let sk = "sinew_skeleton_create";
    t.at(sk, "joint_count", Count).int(0, RANGE);
    t.at(sk, "joint_count", Count).int(u32::MAX as i64, RANGE);
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
        // Buffers of `n` joints: more than the world's.
        let call = move |w: &mut World| {
            let parents = vec![-1i32; n as usize];
            let rest = vec![tr([0.0, 0.0, 0.0], ID, 1.0); n as usize];
            let out = out_handle(&mut w.b);
            // SAFETY: both buffers hold `n` items; the out-pointer is into the world's buffers.
            let s =
                unsafe { sinew_skeleton_create(parents.as_ptr(), rest.as_ptr(), null(), n, out) };
            match s {
                St::Ok => check_new_skeleton(w.b.out_handle as *mut _).map_or(st(s), Outcome::Fail),
                s => st(s),
            }
        };
        let call = std::sync::Arc::new(call);
        t.push(sk, "joint_count", Count, what, Setup::None, call, expect);
    }
    for (what, k, p) in [
        ("parents: a cycle (1 -> 2 -> 1)", 1, 2),
        ("parents: self-parented joint 3", 3, 3),
        ("parents: self-parented root", 0, 0),
        ("parents: forward reference (2 -> 5)", 2, 5),
        ("parents: parent -2", 4, -2),
        ("parents: parent beyond the joint count", 7, 100),
        ("parents: parent i32::MIN", 6, i32::MIN),
    ] {
        let edit = move |b: &mut Bufs| {
            b.parents[k] = p;
            if k == 1 {
                b.parents[2] = 1;
            }
        };
        t.at(sk, "parents", Parents).bufs(what, edit, SKELETON);
    }
    let zero_rotation = |b: &mut Bufs| b.rest[3].rotation = SinewQuat::default();
    t.at(sk, "rest_pose", Domain).bufs(
        "rest rotation is a zero quaternion",
        zero_rotation,
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
        t.at(sk, "names", Name)
            .world(what, move |w| w.names = names.map(CStr::as_ptr), expect);
    }
    t.at(sk, "names", Null)
        .world("names[5] = NULL", |w| w.names[5] = null(), NULLP);

    // Names are UTF-8 (as `sinew_skeleton_create` requires): one that is not is an invalid
    // argument, not a lossy lookup that could match a joint named U+FFFD.
    for (what, name, expect) in [
        ("unknown name", c"elbow", NOT_FOUND),
        ("a name in another case", c"Forearm", NOT_FOUND),
        ("empty name", c"", NOT_FOUND),
        ("name not UTF-8", c"\xff", INVALID),
    ] {
        let fj = "sinew_skeleton_find_joint";
        t.at(fj, "name", Name)
            .world(what, move |w| w.name = name.as_ptr(), expect);
    }
    let fj = "sinew_skeleton_find_joint";
    t.at(fj, "skeleton", Name)
        .swap("a skeleton without names", skel3, NOT_FOUND);
    count_cases(
        t,
        &["sinew_skeleton_get_parents", "sinew_skeleton_get_rest_pose"],
    );
}

/// `count` of each of `exports`, whose buffers must hold one item per joint: 0, one short, one
/// over.
pub fn count_cases(t: &mut Table, exports: &[&'static str]) {
    for &export in exports {
        for n in [0, J as i64 - 1, J as i64 + 1] {
            let what = format!("count {n} for {J} joints");
            t.at(export, "count", Size)
                .args(&what, Args::none().int("count", n), SIZE);
        }
    }
}
