//! The properties every target asserts after every call, and how a violation is reported.
//!
//! A violation panics; libFuzzer records the input under `fuzz/artifacts/<target>/`.
//! A violation with an id listed in `SINEW_FUZZ_ALLOW` (comma-separated) is counted instead,
//! so a long campaign can keep exploring past a known, reported bug (see docs/FUZZING.md).

use std::collections::HashSet;
use std::ptr::null_mut;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

use sinew::ffi::*;

/// Ids of the kinds of findings a campaign may tolerate (`SINEW_FUZZ_ALLOW=id,id`).
pub mod ids {
    /// An export returned `SINEW_STATUS_PANIC` (or panicked: libFuzzer's hook aborts first).
    pub const PANIC: &str = "panic";
    /// A failed call left no error message.
    pub const NO_MESSAGE: &str = "no-message";
    /// A successful call left the previous error message in place.
    pub const STALE_MESSAGE: &str = "stale-message";
    /// `sinew_last_error_message` truncated badly (no NUL, not a prefix, split a character).
    pub const MESSAGE_COPY: &str = "message-copy";
    /// A failed call changed an output, a pose, a mask, a handle's settings or state.
    pub const TOUCHED_ON_ERROR: &str = "touched-on-error";
    /// A successful call produced NaN or infinity somewhere.
    pub const NON_FINITE: &str = "non-finite";
    /// A pose's local rotation is not unit length after a successful call.
    pub const NON_UNIT: &str = "non-unit-rotation";
    /// A call accepted what its documentation says it rejects, or gave a documented-wrong answer.
    pub const CONTRACT: &str = "contract";
}

static TOLERATED: AtomicU64 = AtomicU64::new(0);

/// Whether findings of kind `id` are tolerated in this run (`SINEW_FUZZ_ALLOW`).
pub fn allowed(id: &str) -> bool {
    static ALLOW: OnceLock<HashSet<String>> = OnceLock::new();
    ALLOW
        .get_or_init(|| {
            std::env::var("SINEW_FUZZ_ALLOW")
                .unwrap_or_default()
                .split(',')
                .map(|s| s.trim().to_owned())
                .filter(|s| !s.is_empty())
                .collect()
        })
        .contains(id)
}

/// Counts a tolerated violation (for workarounds of known bugs).
pub fn tolerate() {
    TOLERATED.fetch_add(1, Ordering::Relaxed);
}

/// Reports a violated property: panics unless `id` is tolerated.
#[track_caller]
pub fn finding(id: &str, message: std::fmt::Arguments<'_>) {
    if allowed(id) {
        TOLERATED.fetch_add(1, Ordering::Relaxed);
        return;
    }
    panic!("sinew fuzz finding [{id}]: {message}");
}

/// Reports a violation unless `condition` holds.
#[macro_export]
macro_rules! require {
    ($id:expr, $cond:expr, $($fmt:tt)+) => {
        let holds: bool = $cond;
        if !holds {
            $crate::check::finding($id, format_args!($($fmt)+));
        }
    };
}

/// Whether `SINEW_FUZZ_TRACE` is set: the targets then print every call's arguments to stderr
/// (for reading a reproducer with the replay example; off while fuzzing).
pub fn tracing() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| std::env::var_os("SINEW_FUZZ_TRACE").is_some())
}

/// Prints a call and its arguments when `SINEW_FUZZ_TRACE` is set.
#[macro_export]
macro_rules! trace {
    ($($fmt:tt)+) => {
        if $crate::check::tracing() {
            eprintln!($($fmt)+);
        }
    };
}

/// This thread's last error message, as raw bytes.
pub fn last_error() -> Vec<u8> {
    let mut len = 0usize;
    // SAFETY: NULL buffer with capacity 0 asks for the length only.
    let s = unsafe { sinew_last_error_message(std::ptr::null_mut(), 0, &mut len) };
    assert_eq!(
        s,
        SinewStatus::Ok,
        "length query of the error message failed"
    );
    let mut buf = vec![0u8; len + 1];
    let mut len2 = 0usize;
    // SAFETY: `buf` holds `len + 1` bytes.
    let s = unsafe { sinew_last_error_message(buf.as_mut_ptr().cast(), buf.len(), &mut len2) };
    assert_eq!(s, SinewStatus::Ok, "reading the error message failed");
    require!(
        ids::MESSAGE_COPY,
        len2 == len && buf[len] == 0,
        "error message length changed between reads or no NUL ({len} then {len2})"
    );
    buf.truncate(len);
    buf
}

/// Checks truncated copies of the current error message: NUL-terminated, a prefix of the
/// message, cut at a character boundary, as long as fits.
fn check_truncation(full: &[u8]) {
    let len = full.len();
    let mut caps = vec![1usize, 2, 3, len / 2 + 1, len, len + 1];
    // Every capacity around a multi-byte character.
    for (i, &b) in full.iter().enumerate() {
        if b >= 0x80 && caps.len() < 64 {
            caps.push(i + 1);
            caps.push(i + 2);
        }
    }
    for cap in caps {
        if cap == 0 {
            continue;
        }
        let mut buf = vec![0xAAu8; cap + 1];
        let mut out_len = 0usize;
        // SAFETY: `buf` holds `cap + 1 >= cap` bytes.
        let s = unsafe { sinew_last_error_message(buf.as_mut_ptr().cast(), cap, &mut out_len) };
        require!(
            ids::MESSAGE_COPY,
            s == SinewStatus::Ok,
            "sinew_last_error_message(cap {cap}) returned {s:?}"
        );
        require!(
            ids::MESSAGE_COPY,
            out_len == len,
            "out_len {out_len} but the message has {len} bytes"
        );
        require!(
            ids::MESSAGE_COPY,
            buf[cap] == 0xAA,
            "sinew_last_error_message wrote past capacity {cap}"
        );
        let Some(n) = buf[..cap].iter().position(|&b| b == 0) else {
            finding(
                ids::MESSAGE_COPY,
                format_args!("no NUL within capacity {cap}"),
            );
            continue;
        };
        let mut expect = len.min(cap - 1);
        let text = String::from_utf8_lossy(full);
        if std::str::from_utf8(full).is_ok() {
            while !text.is_char_boundary(expect) {
                expect -= 1;
            }
        }
        require!(
            ids::MESSAGE_COPY,
            n == expect && buf[..n] == full[..n],
            "capacity {cap}: copied {n} bytes, expected the first {expect} of {text:?}"
        );
    }
}

/// Checks the conventions every status-returning export follows and returns whether the call
/// succeeded: PANIC is a finding; a failure leaves a non-empty UTF-8 message that copies out
/// correctly; a success clears the message.
#[track_caller]
pub fn status(s: SinewStatus, what: &str) -> bool {
    let message = last_error();
    count(what, s);
    if s == SinewStatus::Panic {
        finding(
            ids::PANIC,
            format_args!(
                "{what} returned SINEW_STATUS_PANIC: {}",
                String::from_utf8_lossy(&message)
            ),
        );
    }
    if s == SinewStatus::Ok {
        require!(
            ids::STALE_MESSAGE,
            message.is_empty(),
            "{what} succeeded but left the error message {:?}",
            String::from_utf8_lossy(&message)
        );
        return true;
    }
    require!(
        ids::NO_MESSAGE,
        !message.is_empty(),
        "{what} failed with {s:?} but left no error message"
    );
    require!(
        ids::MESSAGE_COPY,
        std::str::from_utf8(&message).is_ok(),
        "{what}: error message is not UTF-8: {message:?}"
    );
    check_truncation(&message);
    false
}

/// The bytes of a slice of padding-free `#[repr(C)]` values (every Sinew value type is).
pub fn bytes_of<T: Copy>(v: &[T]) -> Vec<u8> {
    // SAFETY: the Sinew value types are plain f32/u32/i32 fields with no padding.
    unsafe { std::slice::from_raw_parts(v.as_ptr().cast::<u8>(), std::mem::size_of_val(v)) }
        .to_vec()
}

/// Fails unless two snapshots are byte-for-byte equal.
#[track_caller]
pub fn untouched<T: Copy + std::fmt::Debug>(before: &[T], after: &[T], what: &str) {
    if bytes_of(before) != bytes_of(after) {
        let i = before
            .iter()
            .zip(after)
            .position(|(a, b)| {
                bytes_of(std::slice::from_ref(a)) != bytes_of(std::slice::from_ref(b))
            })
            .unwrap_or(0);
        finding(
            ids::TOUCHED_ON_ERROR,
            format_args!(
                "{what} changed although the call failed (item {i}: {:?} -> {:?})",
                before.get(i),
                after.get(i)
            ),
        );
    }
}

pub fn vec_finite(v: &SinewVec3) -> bool {
    v.x.is_finite() && v.y.is_finite() && v.z.is_finite()
}

pub fn quat_finite(q: &SinewQuat) -> bool {
    q.x.is_finite() && q.y.is_finite() && q.z.is_finite() && q.w.is_finite()
}

pub fn transform_finite(t: &SinewTransform) -> bool {
    vec_finite(&t.translation) && quat_finite(&t.rotation) && vec_finite(&t.scale)
}

/// Fails unless every transform is finite.
#[track_caller]
pub fn finite_transforms(ts: &[SinewTransform], what: &str) {
    if let Some(i) = ts.iter().position(|t| !transform_finite(t)) {
        finding(
            ids::NON_FINITE,
            format_args!("{what}[{i}] is not finite after success: {:?}", ts[i]),
        );
    }
}

/// Fails unless every rotation is unit length (to 1e-3).
#[track_caller]
pub fn unit_rotations(ts: &[SinewTransform], what: &str) {
    for (i, t) in ts.iter().enumerate() {
        let q = t.rotation;
        let len2 = q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w;
        require!(
            ids::NON_UNIT,
            (len2 - 1.0).abs() < 1e-3,
            "{what}[{i}] has a rotation of squared length {len2} after success: {q:?}"
        );
    }
}

#[track_caller]
pub fn finite_result(r: &SinewIkResult, max_iterations: Option<u32>, what: &str) {
    require!(
        ids::NON_FINITE,
        r.error.is_finite() && r.error >= 0.0,
        "{what}: result error {} is not a finite distance",
        r.error
    );
    require!(
        ids::CONTRACT,
        r.reached <= 1,
        "{what}: result reached is {}",
        r.reached
    );
    if let Some(max) = max_iterations {
        require!(
            ids::CONTRACT,
            r.iterations <= max,
            "{what}: {} iterations exceed max_iterations {max}",
            r.iterations
        );
    }
}

/// Per-export status counts, kept only when `SINEW_FUZZ_STATS` is set (the replay example
/// prints them), to see which calls a corpus gets to succeed and which it only gets rejected.
static STATS: std::sync::Mutex<Option<std::collections::BTreeMap<String, [u64; 2]>>> =
    std::sync::Mutex::new(None);

fn count(what: &str, s: SinewStatus) {
    static ON: OnceLock<bool> = OnceLock::new();
    if !*ON.get_or_init(|| std::env::var_os("SINEW_FUZZ_STATS").is_some()) {
        return;
    }
    let mut stats = STATS.lock().unwrap_or_else(|e| e.into_inner());
    let entry = stats
        .get_or_insert_with(Default::default)
        .entry(what.to_owned())
        .or_default();
    entry[usize::from(s != SinewStatus::Ok)] += 1;
}

/// The per-export counts `[ok, failed]` gathered so far (empty unless `SINEW_FUZZ_STATS`).
pub fn stats() -> Vec<(String, [u64; 2])> {
    let stats = STATS.lock().unwrap_or_else(|e| e.into_inner());
    stats
        .as_ref()
        .map(|m| m.iter().map(|(k, v)| (k.clone(), *v)).collect())
        .unwrap_or_default()
}

/// Number of violations tolerated through `SINEW_FUZZ_ALLOW` so far.
pub fn tolerated() -> u64 {
    TOLERATED.load(Ordering::Relaxed)
}

/// A pointer value no export may write through or hand back: out-parameters are primed with
/// it, so a failed create that wrote anything is caught.
pub fn sentinel<T>() -> *mut T {
    0x5EED_0000usize as *mut T
}

/// A null out-pointer of any handle type, for readability.
pub fn none<T>() -> *mut T {
    null_mut()
}
