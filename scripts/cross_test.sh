#!/usr/bin/env bash
# Cross-platform build and test (docs/PLATFORMS.md), on a Debian x86-64 host.
#
#   linux    x86-64 reference: the release cdylib, the C ABI test program (tests/c/*.c) and
#            the C++ wrapper test (tests/cpp, both builds) run natively.
#   windows  x86_64-pc-windows-gnu: sinew.dll (mingw), sinew.def from the DLL's export table
#            (checked against include/sinew.h), sinew.lib (MSVC import library, dlltool,
#            checked to list every export); the same C and C++ programs built with mingw,
#            linked through sinew.lib, run under Wine (wine64).
#   aarch64  aarch64-unknown-linux-gnu: libsinew.so and the same programs built with Debian's
#            aarch64 gcc, run under qemu-aarch64.
#   check    `cargo check --lib` for aarch64-apple-darwin, aarch64-apple-ios and
#            aarch64-linux-android (binaries for those are built on their own hosts).
#
# Every program must pass its own checks, and its stdout must be byte-identical to the x86-64
# Linux run (Windows line ends normalized): the C program prints every input and output float
# of its parity lines in %.9g, so this is the determinism promise across platforms. No line is
# filtered out: the programs print no timings, pointers or paths.
#
# Usage: scripts/cross_test.sh [linux] [windows] [aarch64] [check]   (default: all four;
# windows and aarch64 need linux's reference). Output and artifacts go to target/cross/
# (under CARGO_TARGET_DIR when set): target/cross/windows/{sinew.dll,sinew.def,sinew.lib} are
# what ships for Windows.
# Needs: the rustup targets, gcc-mingw-w64-x86-64-win32, g++-mingw-w64-x86-64-win32, wine64,
# gcc-aarch64-linux-gnu, g++-aarch64-linux-gnu, qemu-user (.ci/run installs them).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}
OUT=$TARGET_DIR/cross
mkdir -p "$OUT"

steps=("$@")
[ ${#steps[@]} -gt 0 ] || steps=(linux windows aarch64 check)

C_FLAGS=(-std=c99 -Wall -Wextra -Werror -O0 -g -ffp-contract=off -I "$ROOT/include")
CXX_FLAGS=(-std=c++17 -Wall -Wextra -Werror -pedantic -ffp-contract=off
  -I "$ROOT/include" -I "$ROOT/bindings/cpp")
C_SOURCES=()
while IFS= read -r f; do C_SOURCES+=("$f"); done < <(ls "$ROOT"/tests/c/*.c | LC_ALL=C sort)
CXX_SOURCES=("$ROOT/tests/cpp/wrapper_test.cpp" "$ROOT/tests/cpp/wrapper_blending_test.cpp")
# The C++ wrapper test's two builds (as tests/cpp_wrapper.rs builds them).
VARIANTS=(no_exceptions exceptions)
variant_flags() {
  case $1 in
    no_exceptions) echo -fno-exceptions ;;
    exceptions) echo -fexceptions -DSINEW_CPP_EXCEPTIONS ;;
  esac
}

failures=()
fail() {
  echo "FAIL: $*" >&2
  failures+=("$*")
}
step_start() {
  echo "== $1"
  SECONDS_AT=$SECONDS
}
step_end() { echo "   ($1: $((SECONDS - SECONDS_AT)) s)"; }

# run_program NAME OUTFILE CMD...: runs a test program, keeps its stdout (LF line ends) and
# stderr, and checks it ended with "N passed, 0 failed" and exit status 0.
run_program() {
  local name=$1 out=$2
  shift 2
  local rc=0
  "$@" >"$out.raw" 2>"$out.err" || rc=$?
  tr -d '\r' <"$out.raw" >"$out"
  rm -f "$out.raw"
  local last
  last=$(tail -n 1 "$out")
  if [ $rc -ne 0 ] || ! [[ $last =~ ^[0-9]+\ passed,\ 0\ failed$ ]]; then
    fail "$name: exit status $rc, last line '$last' (stderr: $out.err)"
    head -n 20 "$out.err" >&2
  else
    echo "   $name: $last"
  fi
}

# same_output NAME REFERENCE OUTPUT: the two stdouts must be byte-identical; on a difference,
# says how many lines differ, by first word (the parity line's keyword), and shows the first.
same_output() {
  local name=$1 ref=$2 out=$3
  if cmp -s "$ref" "$out"; then
    echo "   $name: stdout identical to x86-64 Linux ($(wc -l <"$ref") lines)"
    return
  fi
  fail "$name: stdout differs from x86-64 Linux ($ref vs $out)"
  paste -d '\n' "$ref" "$out" | awk 'NR % 2 == 1 { a = $0; next }
    a != $0 { split(a, w, " "); n[w[1]]++; d++; if (!first) first = a "\n   vs\n" $0 }
    END { printf "   %d of %d lines differ:", d, NR / 2; for (k in n) printf " %s %d", k, n[k];
          printf "\n   first:\n%s\n", substr(first, 1, 2000) }' >&2
  [ "$(wc -l <"$ref")" = "$(wc -l <"$out")" ] ||
    echo "   line counts differ: $(wc -l <"$ref") vs $(wc -l <"$out")" >&2
}

# ------------------------------------------------------------------------------ x86-64 Linux
linux() {
  step_start "x86-64 Linux reference (release cdylib, native C and C++ programs)"
  local dir=$OUT/linux lib=$TARGET_DIR/release
  mkdir -p "$dir"
  cargo build --release --lib --quiet
  cc "${C_FLAGS[@]}" "${C_SOURCES[@]}" -o "$dir/abi_test" \
    -L "$lib" -lsinew -Wl,-rpath,"$lib" -Wl,--disable-new-dtags -lm
  run_program "C ABI test" "$dir/abi_test.out" "$dir/abi_test"
  local v
  for v in "${VARIANTS[@]}"; do
    # shellcheck disable=SC2046
    c++ "${CXX_FLAGS[@]}" $(variant_flags "$v") "${CXX_SOURCES[@]}" -o "$dir/wrapper_test_$v" \
      -L "$lib" -lsinew -Wl,-rpath,"$lib" -Wl,--disable-new-dtags -lm
    run_program "C++ wrapper test ($v)" "$dir/wrapper_test_$v.out" "$dir/wrapper_test_$v"
  done
  step_end linux
}

need_reference() {
  [ -f "$OUT/linux/abi_test.out" ] || {
    echo "run the linux step first (scripts/cross_test.sh linux $1)" >&2
    exit 2
  }
}

# --------------------------------------------------------------------------- Windows x86-64
# Wine's loader: Debian installs it as /usr/lib/wine/wine64 (package wine64), other
# distributions as wine64 or wine on the PATH.
wine_command() {
  local w
  for w in wine64 /usr/lib/wine/wine64 wine; do
    if command -v "$w" >/dev/null 2>&1; then
      echo "$w"
      return
    fi
  done
  echo "no Wine found (Debian: apt-get install wine64)" >&2
  exit 2
}

windows() {
  need_reference windows
  step_start "Windows x86-64 (mingw DLL, MSVC import library, C and C++ programs under Wine)"
  local dir=$OUT/windows test=$OUT/windows/test target=x86_64-pc-windows-gnu
  local tool=x86_64-w64-mingw32 built=$TARGET_DIR/x86_64-pc-windows-gnu/release
  mkdir -p "$dir" "$test"
  cargo build --release --lib --quiet --target $target
  cp "$built/sinew.dll" "$dir/"

  # The exports: the DLL's export table must name exactly the functions include/sinew.h
  # declares; sinew.def lists them, and dlltool makes the import library from it.
  "$tool-objdump" -p "$dir/sinew.dll" |
    sed -n '/^\[Ordinal\/Name Pointer\] Table/,/^$/p' |
    sed -n 's/^[[:space:]]*\[ *[0-9]*\] //p' | LC_ALL=C sort >"$dir/exports.txt"
  grep -oE '\bsinew_[A-Za-z0-9_]+[[:space:]]*\(' "$ROOT/include/sinew.h" |
    sed 's/[[:space:]]*($//' | LC_ALL=C sort -u >"$dir/declared.txt"
  if ! cmp -s "$dir/exports.txt" "$dir/declared.txt"; then
    fail "sinew.dll exports differ from include/sinew.h's functions (< DLL, > header):"
    diff "$dir/exports.txt" "$dir/declared.txt" >&2 || true
  fi
  {
    echo "LIBRARY sinew.dll"
    echo "EXPORTS"
    sed 's/^/    /' "$dir/exports.txt"
  } >"$dir/sinew.def"
  "$tool-dlltool" --machine i386:x86-64 --input-def "$dir/sinew.def" --dllname sinew.dll \
    --output-lib "$dir/sinew.lib"
  # Every export must be in sinew.lib twice: the function thunk and its __imp_ pointer.
  local in_lib
  in_lib=$("$tool-nm" "$dir/sinew.lib" 2>/dev/null | awk '$2 == "T" && $3 ~ /^sinew_/ { print $3 }
    $2 == "I" && $3 ~ /^__imp_sinew_/ { print $3 }' | LC_ALL=C sort)
  if [ "$in_lib" != "$(sed 's/^\(.*\)$/__imp_\1\n\1/' "$dir/exports.txt" | LC_ALL=C sort)" ]; then
    fail "sinew.lib does not list every export of sinew.dll (thunk and __imp_ symbol each)"
  else
    echo "   sinew.dll exports $(wc -l <"$dir/exports.txt") functions, the header declares" \
      "$(wc -l <"$dir/declared.txt"); sinew.def and sinew.lib list all of them"
  fi

  # The test programs link through sinew.lib, as an MSVC user would, and load sinew.dll.
  cp "$dir/sinew.dll" "$test/"
  "$tool-gcc" -std=c99 -Wall -Wextra -Werror -O2 -shared -o "$test/bcryptprimitives.dll" \
    "$ROOT/scripts/wine/bcryptprimitives.c"
  "$tool-gcc" "${C_FLAGS[@]}" -D__USE_MINGW_ANSI_STDIO=1 "${C_SOURCES[@]}" "$dir/sinew.lib" \
    -o "$test/abi_test.exe"
  local v
  for v in "${VARIANTS[@]}"; do
    # shellcheck disable=SC2046
    "$tool-g++" "${CXX_FLAGS[@]}" $(variant_flags "$v") -D__USE_MINGW_ANSI_STDIO=1 \
      "${CXX_SOURCES[@]}" "$dir/sinew.lib" -static-libgcc -static-libstdc++ \
      -o "$test/wrapper_test_$v.exe"
  done

  local wine
  wine=$(wine_command)
  # A private, quiet Wine prefix; no Mono or Gecko installers.
  export WINEPREFIX=$OUT/wineprefix WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
  "$wine" cmd /c exit >/dev/null 2>&1 || true
  run_program "C ABI test" "$test/abi_test.out" "$wine" "$test/abi_test.exe"
  same_output "C ABI test" "$OUT/linux/abi_test.out" "$test/abi_test.out"
  for v in "${VARIANTS[@]}"; do
    run_program "C++ wrapper test ($v)" "$test/wrapper_test_$v.out" \
      "$wine" "$test/wrapper_test_$v.exe"
    same_output "C++ wrapper test ($v)" "$OUT/linux/wrapper_test_$v.out" \
      "$test/wrapper_test_$v.out"
  done
  step_end windows
}

# ---------------------------------------------------------------------------- Linux aarch64
aarch64() {
  need_reference aarch64
  step_start "Linux aarch64 (Debian's aarch64 gcc, C and C++ programs under qemu-aarch64)"
  local dir=$OUT/aarch64 target=aarch64-unknown-linux-gnu
  local built=$TARGET_DIR/aarch64-unknown-linux-gnu/release
  mkdir -p "$dir"
  # The linker comes from .cargo/config.toml.
  cargo build --release --lib --quiet --target $target
  local link=(-L "$built" -lsinew -Wl,-rpath,"$built" -Wl,--disable-new-dtags -lm)
  aarch64-linux-gnu-gcc "${C_FLAGS[@]}" "${C_SOURCES[@]}" -o "$dir/abi_test" "${link[@]}"
  local v
  for v in "${VARIANTS[@]}"; do
    # shellcheck disable=SC2046
    aarch64-linux-gnu-g++ "${CXX_FLAGS[@]}" $(variant_flags "$v") "${CXX_SOURCES[@]}" \
      -o "$dir/wrapper_test_$v" "${link[@]}"
  done
  local qemu=(qemu-aarch64 -L /usr/aarch64-linux-gnu)
  run_program "C ABI test" "$dir/abi_test.out" "${qemu[@]}" "$dir/abi_test"
  same_output "C ABI test" "$OUT/linux/abi_test.out" "$dir/abi_test.out"
  for v in "${VARIANTS[@]}"; do
    run_program "C++ wrapper test ($v)" "$dir/wrapper_test_$v.out" \
      "${qemu[@]}" "$dir/wrapper_test_$v"
    same_output "C++ wrapper test ($v)" "$OUT/linux/wrapper_test_$v.out" \
      "$dir/wrapper_test_$v.out"
  done
  step_end aarch64
}

# ----------------------------------------------------------------- Apple and Android: check
check() {
  step_start "cargo check for Apple and Android (their binaries are built on their own hosts)"
  local targets=(aarch64-apple-darwin aarch64-apple-ios aarch64-linux-android)
  # One cargo run for the three: their crates build side by side.
  if cargo check --lib --quiet "${targets[@]/#/--target=}"; then
    echo "   cargo check passed: ${targets[*]}"
  else
    fail "cargo check --lib for ${targets[*]}"
  fi
  step_end check
}

start=$SECONDS
for s in "${steps[@]}"; do
  case $s in
    linux | windows | aarch64 | check) "$s" ;;
    *)
      echo "unknown step $s (linux, windows, aarch64, check)" >&2
      exit 2
      ;;
  esac
done
echo "== cross test: $((SECONDS - start)) s"
if [ ${#failures[@]} -gt 0 ]; then
  printf 'cross test FAILED:\n' >&2
  printf '  %s\n' "${failures[@]}" >&2
  exit 1
fi
echo "cross test passed: ${steps[*]}"
