#!/usr/bin/env bash
# Fuzz smoke test: builds every cargo-fuzz target in fuzz/ and runs each for a fixed short time
# (default 12 s, about 60 s for the five targets), one job each. Prints the executions per
# target and exits non-zero on any finding (crash, panic, sanitizer report, failed property,
# leak, timeout or out-of-memory), naming the reproducer under fuzz/artifacts/<target>/.
#
#   scripts/fuzz_smoke.sh                  # all targets, 12 s each
#   FUZZ_SECONDS=60 scripts/fuzz_smoke.sh  # longer
#   scripts/fuzz_smoke.sh blend clip       # some targets
#   FUZZ_SEED=1234 scripts/fuzz_smoke.sh   # replay a run's random choices (seed is printed)
#
# Needs cargo-fuzz (`cargo install cargo-fuzz --locked`) and a compiler that accepts -Z flags:
# a nightly toolchain if rustup has one (`cargo +nightly`), else the default toolchain with
# RUSTC_BOOTSTRAP=1 (set FUZZ_TOOLCHAIN to force one, e.g. FUZZ_TOOLCHAIN=stable; an absolute
# CARGO_TARGET_DIR keeps that build apart from fuzz/target). g++ builds libFuzzer. Corpora
# grow in fuzz/corpus/<target>/ (ignored by git) and are reused by later runs; inputs in
# fuzz/seeds/<target>/, if present, are run first and never modified.
# See docs/FUZZING.md for long campaigns and for turning a finding into a regression test.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

seconds="${FUZZ_SECONDS:-12}"
all_targets=(skeleton two_bone chain blend clip)
if [ $# -gt 0 ]; then targets=("$@"); else targets=("${all_targets[@]}"); fi

if ! cargo fuzz --version >/dev/null 2>&1; then
  echo "fuzz_smoke: cargo-fuzz is not installed; run: cargo install cargo-fuzz --locked" >&2
  exit 2
fi

# Pick the toolchain: nightly when rustup has it, else the default one in bootstrap mode.
toolchain="${FUZZ_TOOLCHAIN:-}"
if [ -z "$toolchain" ] && command -v rustup >/dev/null 2>&1 \
  && rustup toolchain list 2>/dev/null | grep -q '^nightly'; then
  toolchain=nightly
fi
cargo_cmd=(cargo)
if [ -n "$toolchain" ]; then cargo_cmd=(cargo "+$toolchain"); fi
if ! "${cargo_cmd[@]}" --version 2>/dev/null | grep -q nightly; then
  export RUSTC_BOOTSTRAP=1
fi
echo "== fuzz_smoke: $("${cargo_cmd[@]}" --version)${RUSTC_BOOTSTRAP:+ (RUSTC_BOOTSTRAP=1)}, ${seconds}s per target"

# Scratch space: the build log, and libFuzzer's fuzz-<job>.log files (written into its working
# directory when -jobs is given), kept out of the tree.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "== cargo fuzz build (address sanitizer, debug assertions)"
if ! "${cargo_cmd[@]}" fuzz build >"$work/build.log" 2>&1; then
  cat "$work/build.log"
  echo "fuzz_smoke: building the fuzz targets failed" >&2
  exit 2
fi
tail -n 1 "$work/build.log"
host=$(rustc ${toolchain:++$toolchain} -vV | sed -n 's/^host: //p')
bin_dir="${CARGO_TARGET_DIR:-$root/fuzz/target}/$host/release"
rerun="${RUSTC_BOOTSTRAP:+RUSTC_BOOTSTRAP=1 }${cargo_cmd[*]} fuzz run"

failed=()
printf '%-10s %12s %10s %12s  %s\n' target executions exec/s seed result
for t in "${targets[@]}"; do
  bin="$bin_dir/$t"
  if [ ! -x "$bin" ]; then
    echo "fuzz_smoke: no fuzz target binary $bin" >&2
    exit 2
  fi
  mkdir -p "$root/fuzz/corpus/$t" "$root/fuzz/artifacts/$t"
  dirs=("$root/fuzz/corpus/$t")
  [ -d "$root/fuzz/seeds/$t" ] && dirs+=("$root/fuzz/seeds/$t")
  seed_flag=()
  [ -n "${FUZZ_SEED:-}" ] && seed_flag=(-seed="$FUZZ_SEED")
  status=0
  (
    cd "$work"
    "$bin" -max_total_time="$seconds" -jobs=1 -workers=1 -print_final_stats=1 \
      -timeout=10 -rss_limit_mb=2048 -max_len=4096 \
      "${seed_flag[@]}" -artifact_prefix="$root/fuzz/artifacts/$t/" "${dirs[@]}" \
      >"$work/driver.log" 2>&1
  ) || status=$?
  log="$work/fuzz-0.log"
  [ -f "$log" ] || log="$work/driver.log"
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
  seed=$(sed -n 's/^INFO: Seed: *//p' "$log" | head -n 1)
  artifact=$(grep -ho "Test unit written to [^ ]*" "$log" | tail -n 1 | sed 's/Test unit written to //' || true)
  if [ "$status" -ne 0 ] || [ -n "$artifact" ]; then
    printf '%-10s %12s %10s %12s  %s\n' "$t" "${execs:-?}" "${rate:-?}" "${seed:-?}" "FINDING"
    echo "---- $t: what was found ----"
    grep -E "sinew fuzz finding|panicked at|ERROR: |SUMMARY: |^Base64: " "$log" | head -n 12 || true
    echo "---- (full log: rerun the reproducer below)"
    echo "---- reproduce: $rerun $t ${artifact:-<artifact>}"
    failed+=("$t")
  else
    printf '%-10s %12s %10s %12s  %s\n' "$t" "${execs:-?}" "${rate:-?}" "${seed:-?}" "ok"
  fi
  rm -f "$work"/fuzz-*.log "$work/driver.log"
done

if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz_smoke: findings in: ${failed[*]}"
  exit 1
fi
echo "fuzz_smoke: no findings"
