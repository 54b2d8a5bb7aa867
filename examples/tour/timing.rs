//! Quick in-process timing for the tour's tables. Indicative only: the Criterion benches under
//! `benches/` are the reference figures.

use std::time::Instant;

/// Batches timed per measurement; the median of their means is reported.
pub const BATCHES: usize = 9;

/// Calls per batch: enough for a batch to last far longer than the clock's resolution.
pub const CALLS_PER_BATCH: u32 = 20_000;

/// Median, over [`BATCHES`] batches of [`CALLS_PER_BATCH`] calls, of the mean time of one call
/// of `f`, in nanoseconds. One untimed batch first warms caches and branch predictors.
/// The median shrugs off batches disturbed by the OS or other processes.
pub fn median_ns_per_call(f: impl FnMut()) -> f64 {
    median_ns_per_call_batched(CALLS_PER_BATCH, f)
}

/// [`median_ns_per_call`] with `calls_per_batch` calls per batch, for calls slow enough
/// (microseconds) that fewer of them still make a batch last far longer than the clock's
/// resolution.
pub fn median_ns_per_call_batched(calls_per_batch: u32, mut f: impl FnMut()) -> f64 {
    let mut run_batch = || {
        let start = Instant::now();
        for _ in 0..calls_per_batch {
            f();
        }
        start.elapsed().as_nanos() as f64 / f64::from(calls_per_batch)
    };
    run_batch();
    let mut means: Vec<f64> = (0..BATCHES).map(|_| run_batch()).collect();
    means.sort_by(f64::total_cmp);
    means[BATCHES / 2]
}
