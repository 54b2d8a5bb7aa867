#!/usr/bin/env bash
# Runs the native test programs that call the C ABI under valgrind memcheck, against the debug
# build of the library (target/debug/libsinew.so, refreshed here by `cargo build --lib`):
#
#   c_abi               tests/c/*.c, built as tests/c_abi.rs builds it (full run, parity
#                       section included: ~15-30 s under valgrind)
#   cpp_no_exceptions   tests/cpp/wrapper_*test.cpp, the two builds tests/cpp_wrapper.rs makes
#   cpp_exceptions
#   unreal_logic        tests/cpp/unreal_logic_test.cpp, built as tests/unreal_logic.rs builds it
#   csharp              tests/csharp/SinewTests.cs under `valgrind mono` (see below)
#
# Each runs under
#   valgrind --tool=memcheck --leak-check=full --errors-for-leak-kinds=definite,indirect
#            --error-exitcode=1
# and must report 0 errors (so no definitely or indirectly lost block), finish with its own
# "N passed, 0 failed", and leave no block allocated by libsinew in use at exit at all (not even
# "still reachable": a handle the program forgot to destroy is only reachable, not lost, while a
# pointer to it survives). The C and C++ programs run with no suppressions.
#
# Compiler flags are those of the cargo tests, plus -g for readable stacks. The C++ wrapper test
# replaces global operator new to count allocations; memcheck would replace it in turn and the
# program's count would stay 0, so those builds run with --soname-synonyms=somalloc=nouserintercepts
# (memcheck keeps intercepting malloc/free, which the program's operator new/delete call, so
# every allocation is still tracked).
#
# C#: the program needs the golden values tests/csharp.rs computes with the Rust core, so the
# script runs that test (`cargo test --test csharp csharp_tests_pass_under_mono`) with its MONO
# override pointing at a wrapper that copies the test's directory (SinewTests.exe, golden.txt,
# the libsinew.so it loads) before running the real mono; then it runs that copy under
# `valgrind mono --debug`. scripts/valgrind_mono.supp suppresses what the Mono runtime itself
# does (its own never-freed state, SGen's conservative stack scan); each entry is justified there.
# Two checks of the program cannot work under valgrind and are the only failures allowed:
# "Dispose frees native memory" and "finalizers free native memory" measure the native heap
# with glibc's mallinfo2, which reads 0 once memcheck has replaced malloc (they pass under plain
# `cargo test`; the leak check above covers the same ground). Without mono or mcs the C# run is
# skipped with a message, or fails when SINEW_REQUIRE_TOOLS=1 (as in CI).
#
# Usage: scripts/valgrind_native.sh [--no-build] [PROGRAM...]
#   --no-build   use target/debug/libsinew.so as it is (default: `cargo build --lib` first)
#   PROGRAM      run only these (c_abi, cpp_no_exceptions, cpp_exceptions, unreal_logic, csharp)
#
# Logs go to target/valgrind/<program>.{log,out,err}. CC, CXX, MONO and MCS are honoured; extra
# valgrind options can be given in VALGRIND_OPTS (read by valgrind itself), e.g.
# VALGRIND_OPTS=--track-origins=yes to find where an uninitialised value came from.
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
out="$repo/target/valgrind"
lib_dir="$repo/target/debug"
supp="$repo/scripts/valgrind_mono.supp"
build=1
selected=()
all=(c_abi cpp_no_exceptions cpp_exceptions unreal_logic csharp)

while [ $# -gt 0 ]; do
  case "$1" in
    --no-build) build=0 ;;
    -h|--help) sed -n '2,44p' "$0"; exit 0 ;;
    c_abi|cpp_no_exceptions|cpp_exceptions|unreal_logic|csharp) selected+=("$1") ;;
    *) echo "valgrind_native: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done
[ ${#selected[@]} -gt 0 ] || selected=("${all[@]}")

command -v valgrind >/dev/null 2>&1 || {
  echo "valgrind_native: valgrind is not installed (apt-get install valgrind)" >&2
  exit 2
}

memcheck=(valgrind --tool=memcheck --leak-check=full --errors-for-leak-kinds=definite,indirect
  --error-exitcode=1 --show-leak-kinds=all --num-callers=50)

cd "$repo"
mkdir -p "$out"
if [ "$build" = 1 ]; then
  echo "== cargo build --lib"
  cargo build --lib --quiet
fi
[ -f "$lib_dir/libsinew.so" ] || { echo "valgrind_native: $lib_dir/libsinew.so is missing" >&2; exit 2; }

failures=()
fail() {
  failures+=("$1")
  echo "   FAILED: $1: $2"
}

wanted() {
  local p
  for p in "${selected[@]}"; do [ "$p" = "$1" ] && return 0; done
  return 1
}

# Prints every loss record (any leak kind) whose allocation stack has a libsinew frame: a Rust
# source line (only libsinew is Rust here) or the library's file name.
libsinew_blocks() {
  awk '
    / in loss record [0-9]+ of [0-9]+$/ { rec = $0; inrec = 1; next }
    inrec && /^==[0-9]+== *$/ { if (rec ~ /\.rs:[0-9]+\)|libsinew/) print rec "\n"; inrec = 0; next }
    inrec { rec = rec "\n" $0 }
  ' "$1"
}

# check NAME LOG STDOUT RC ALLOWED_FAILS: judges one run. ALLOWED_FAILS is a regex of "FAIL ..."
# lines the program may print (empty: none), in which case its exit status may be 1.
check() {
  local name=$1 log=$2 stdout=$3 rc=$4 allowed=$5 summary errors blocks bad
  summary="$(tail -n 1 "$stdout")"
  errors="$(grep -Eo 'ERROR SUMMARY: [0-9]+ errors' "$log" | tail -n 1 || true)"
  if [ "$errors" != "ERROR SUMMARY: 0 errors" ]; then
    fail "$name" "valgrind reported ${errors:-no summary}; see $log"
    grep -E -A 24 '== (Invalid|Conditional|Use of uninit|Syscall param|Mismatched|Source and dest|Argument|.* (definitely|indirectly) lost in loss record)' \
      "$log" | head -n 80
    return
  fi
  blocks="$(libsinew_blocks "$log")"
  if [ -n "$blocks" ]; then
    fail "$name" "blocks allocated by libsinew are still in use at exit; see $log"
    printf '%s\n' "$blocks" | head -n 60
    return
  fi
  if ! [[ "$summary" =~ ^[0-9]+\ passed,\ [0-9]+\ failed$ ]]; then
    fail "$name" "the program did not finish (exit $rc, last line: $summary)"
    return
  fi
  if [ -z "$allowed" ]; then
    bad="$(cat "$stdout" "${stdout%.out}.err" | grep -E '^FAIL' || true)"
    if [ "$rc" != 0 ] || ! [[ "$summary" =~ \ 0\ failed$ ]]; then
      fail "$name" "$summary (exit $rc)"
      printf '%s\n' "$bad" | head -n 20
      return
    fi
  else
    bad="$(grep -E '^FAIL' "$stdout" | grep -Ev "$allowed" || true)"
    if [ -n "$bad" ] || { [ "$rc" != 0 ] && [ "$rc" != 1 ]; }; then
      fail "$name" "$summary (exit $rc)"
      printf '%s\n' "$bad" | head -n 20
      return
    fi
  fi
  echo "   ok: $summary; $errors; no libsinew block in use at exit"
}

# run NAME ALLOWED_FAILS [valgrind options --] COMMAND...
run() {
  local name=$1 allowed=$2 start rc=0 opts=()
  shift 2
  if [ "${1:-}" = "--opts" ]; then
    shift
    while [ "$1" != "--" ]; do opts+=("$1"); shift; done
    shift
  fi
  echo "== $name: valgrind $(basename "$1")"
  start=$SECONDS
  "${memcheck[@]}" ${opts[@]+"${opts[@]}"} --log-file="$out/$name.log" "$@" \
    >"$out/$name.out" 2>"$out/$name.err" || rc=$?
  echo "   $((SECONDS - start)) s"
  check "$name" "$out/$name.log" "$out/$name.out" "$rc" "$allowed"
}

cc="${CC:-cc}"
cxx="${CXX:-c++}"
link=(-L "$lib_dir" -lsinew "-Wl,-rpath,$lib_dir" -lm)

if wanted c_abi; then
  echo "== build c_abi"
  "$cc" -std=c99 -Wall -Wextra -Werror -O0 -g -I include tests/c/*.c \
    -o "$out/abi_test" "${link[@]}"
  run c_abi "" "$out/abi_test"
fi

cpp_flags=(-std=c++17 -Wall -Wextra -Werror -pedantic -O0 -g -I include -I bindings/cpp)
for variant in cpp_no_exceptions cpp_exceptions; do
  wanted "$variant" || continue
  case "$variant" in
    cpp_no_exceptions) extra=(-fno-exceptions) ;;
    cpp_exceptions) extra=(-fexceptions -DSINEW_CPP_EXCEPTIONS) ;;
  esac
  echo "== build $variant"
  "$cxx" "${cpp_flags[@]}" "${extra[@]}" tests/cpp/wrapper_test.cpp \
    tests/cpp/wrapper_blending_test.cpp -o "$out/$variant" "${link[@]}"
  run "$variant" "" --opts --soname-synonyms=somalloc=nouserintercepts -- "$out/$variant"
done

if wanted unreal_logic; then
  echo "== build unreal_logic"
  "$cxx" -std=c++17 -I include -I bindings/cpp -I bindings/cpp/unreal \
    -Wall -Wextra -Werror -Wshadow -O1 -g -fno-exceptions -fno-rtti \
    tests/cpp/unreal_logic_test.cpp -o "$out/unreal_logic" "${link[@]}"
  run unreal_logic "" "$out/unreal_logic"
fi

if wanted csharp; then
  mono="${MONO:-mono}"
  mcs="${MCS:-mcs}"
  if ! "$mono" --version >/dev/null 2>&1 || ! "$mcs" --version >/dev/null 2>&1; then
    if [ "${SINEW_REQUIRE_TOOLS:-}" = 1 ]; then
      fail csharp "SINEW_REQUIRE_TOOLS=1 but mono or mcs is missing"
    else
      echo "== csharp: SKIPPED, mono or mcs is not installed (apt-get install mono-mcs mono-runtime)"
    fi
  else
    capture="$out/csharp"
    rm -rf "$capture"
    mkdir -p "$capture"
    wrapper="$out/mono-capture.sh"
    cat >"$wrapper" <<'EOF'
#!/bin/sh
# Written by scripts/valgrind_native.sh: keeps a copy of the C# test's directory, then runs mono.
if [ "$1" = "--version" ]; then exec "$SINEW_REAL_MONO" --version; fi
for arg in "$@"; do
  case "$arg" in *.exe) cp -R "$(dirname "$arg")"/. "$SINEW_MONO_CAPTURE"/ ;; esac
done
exec "$SINEW_REAL_MONO" "$@"
EOF
    chmod +x "$wrapper"
    echo "== build csharp: cargo test --test csharp csharp_tests_pass_under_mono"
    if ! MONO="$wrapper" SINEW_REAL_MONO="$mono" SINEW_MONO_CAPTURE="$capture" \
      cargo test --quiet --test csharp csharp_tests_pass_under_mono >"$out/csharp_cargo.log" 2>&1; then
      fail csharp "the C# test failed without valgrind; see $out/csharp_cargo.log"
      tail -n 30 "$out/csharp_cargo.log"
    elif ! [ -f "$capture/SinewTests.exe" ] || ! [ -f "$capture/golden.txt" ]; then
      fail csharp "the C# test passed but nothing was captured from it (did tests/csharp.rs change?)"
    else
      allowed='^FAIL (Dispose frees native memory|finalizers free native memory)$'
      cd "$capture"
      run csharp "$allowed" --opts "--suppressions=$supp" -- "$mono" --debug SinewTests.exe golden.txt
      cd "$repo"
      if ! grep -qx "LIBRARY $capture/libsinew.so" "$out/csharp.out"; then
        fail csharp "mono did not load $capture/libsinew.so: $(grep '^LIBRARY' "$out/csharp.out" || true)"
      fi
    fi
  fi
fi

if [ ${#failures[@]} -gt 0 ]; then
  echo "valgrind_native: FAILED: ${failures[*]}"
  exit 1
fi
echo "valgrind_native: all clean (${selected[*]})"
