#!/usr/bin/env bash
# Stages the Sinew library and headers into the SinewIK Unreal plugin
# (unreal-sample/Plugins/SinewIK/Source/ThirdParty/SinewLibrary/), where SinewLibrary.Build.cs
# expects them:
#
#   include/sinew.h, sinew.hpp, sinew_handle.hpp,   the C ABI, the C++ wrapper and the handle
#     sinew_unreal.hpp                                ownership it shares with the plugin helpers
#   lib/Linux/x86_64-unknown-linux-gnu/libsinew.so    built here on a Linux host (with a SONAME)
#   lib/Win64/sinew.dll + sinew.dll.lib               from an MSVC build (target/x86_64-pc-windows-msvc)
#   lib/Win64/sinew.dll + sinew.lib                   or cross-built with MinGW (x86_64-pc-windows-gnu),
#                                                     with the MSVC import library scripts/package.sh
#                                                     makes (else MinGW's libsinew.dll.a)
#   lib/LinuxArm64/aarch64-unknown-linux-gnu/libsinew.so   cross-built (aarch64-unknown-linux-gnu)
#   lib/Mac/libsinew.dylib                            built on a macOS host (or found in target/)
#   lib/IOS/libsinew.a, lib/Android/<abi>/libsinew.a  static libraries found in target/
#
# The copies are build products, ignored by unreal-sample/Plugins/SinewIK/.gitignore. Builds are
# looked for in $CARGO_TARGET_DIR (default target/).
#
# Usage: scripts/stage_unreal.sh [--no-build] [--debug]
#   --no-build   copy what target/ already holds, build nothing
#   --debug      use the debug profile instead of release
#
# Platforms whose library is neither built here nor found in target/ are reported as skipped;
# the plugin still builds for the platforms that were staged.
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
dest="$repo/unreal-sample/Plugins/SinewIK/Source/ThirdParty/SinewLibrary"
profile=release
build=1

while [ $# -gt 0 ]; do
  case "$1" in
    --no-build) build=0 ;;
    --debug) profile=debug ;;
    -h|--help) sed -n '2,22p' "$0"; exit 0 ;;
    *) echo "stage_unreal: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done

target_dir="${CARGO_TARGET_DIR:-$repo/target}"
cargo_profile=()
[ "$profile" = release ] && cargo_profile=(--release)

staged=()
skipped=()

copy() { # src dst
  mkdir -p "$(dirname "$2")"
  cp -f "$1" "$2"
  echo "  ${2#"$repo"/}"
}

echo "== headers -> ${dest#"$repo"/}/include/"
copy "$repo/include/sinew.h" "$dest/include/sinew.h"
copy "$repo/bindings/cpp/unreal/sinew_unreal.hpp" "$dest/include/sinew_unreal.hpp"
for header in sinew.hpp sinew_handle.hpp; do
  if [ -f "$repo/bindings/cpp/$header" ]; then
    copy "$repo/bindings/cpp/$header" "$dest/include/$header"
  else
    echo "stage_unreal: bindings/cpp/$header is missing; the plugin includes it" >&2
    exit 1
  fi
done

# ------------------------------------------------------------------------------------ Linux
# build.rs links the Linux library with SONAME libsinew.so, so a program linked against it by
# path (as UnrealBuildTool links PublicAdditionalLibraries) finds it by name on a player's machine.
if [ "$(uname -s)" = Linux ] && [ "$(uname -m)" = x86_64 ]; then
  echo "== Linux x86_64"
  so="$target_dir/$profile/libsinew.so"
  if [ "$build" = 1 ]; then
    (cd "$repo" && cargo build "${cargo_profile[@]}" -p sinew --lib)
  fi
  if [ -f "$so" ]; then
    if command -v readelf >/dev/null 2>&1 && ! readelf -d "$so" | grep -q 'SONAME.*\[libsinew.so\]'; then
      echo "stage_unreal: $so has no SONAME libsinew.so" >&2
      exit 1
    fi
    copy "$so" "$dest/lib/Linux/x86_64-unknown-linux-gnu/libsinew.so"
    staged+=("Linux")
  else
    skipped+=("Linux (no $so; run without --no-build)")
  fi
else
  skipped+=("Linux (not a Linux x86_64 host)")
fi

# ------------------------------------------------------------------------------ Linux aarch64
echo "== LinuxArm64"
arm_so="$target_dir/aarch64-unknown-linux-gnu/$profile/libsinew.so"
if [ -f "$arm_so" ]; then
  copy "$arm_so" "$dest/lib/LinuxArm64/aarch64-unknown-linux-gnu/libsinew.so"
  staged+=("LinuxArm64")
else
  skipped+=("LinuxArm64 (no $arm_so: cargo build --release --target aarch64-unknown-linux-gnu)")
fi

# ------------------------------------------------------------------------------------ Windows
echo "== Win64"
msvc="$target_dir/x86_64-pc-windows-msvc/$profile"
native_msvc="$target_dir/$profile"
gnu_target=x86_64-pc-windows-gnu
gnu="$target_dir/$gnu_target/$profile"
if [ -f "$msvc/sinew.dll" ] && [ -f "$msvc/sinew.dll.lib" ]; then
  copy "$msvc/sinew.dll" "$dest/lib/Win64/sinew.dll"
  copy "$msvc/sinew.dll.lib" "$dest/lib/Win64/sinew.dll.lib"
  staged+=("Win64 (MSVC)")
elif [ -f "$native_msvc/sinew.dll" ] && [ -f "$native_msvc/sinew.dll.lib" ]; then
  # Run on Windows (Git Bash) after a plain `cargo build --release` with the MSVC toolchain.
  copy "$native_msvc/sinew.dll" "$dest/lib/Win64/sinew.dll"
  copy "$native_msvc/sinew.dll.lib" "$dest/lib/Win64/sinew.dll.lib"
  staged+=("Win64 (MSVC)")
else
  have_target=0
  if command -v rustup >/dev/null 2>&1 && rustup target list --installed 2>/dev/null | grep -qx "$gnu_target"; then
    have_target=1
  fi
  have_mingw=0
  command -v x86_64-w64-mingw32-gcc >/dev/null 2>&1 && have_mingw=1
  if [ "$build" = 1 ] && [ "$have_target" = 1 ] && [ "$have_mingw" = 1 ]; then
    (cd "$repo" && CARGO_TARGET_X86_64_PC_WINDOWS_GNU_LINKER="${CARGO_TARGET_X86_64_PC_WINDOWS_GNU_LINKER:-x86_64-w64-mingw32-gcc}" \
      cargo build "${cargo_profile[@]}" -p sinew --lib --target "$gnu_target")
  fi
  if [ -f "$gnu/sinew.dll" ] && [ -f "$gnu/sinew.lib" ]; then
    copy "$gnu/sinew.dll" "$dest/lib/Win64/sinew.dll"
    copy "$gnu/sinew.lib" "$dest/lib/Win64/sinew.lib"
    staged+=("Win64 (MinGW, MSVC import library)")
  elif [ -f "$gnu/sinew.dll" ] && [ -f "$gnu/libsinew.dll.a" ]; then
    copy "$gnu/sinew.dll" "$dest/lib/Win64/sinew.dll"
    copy "$gnu/libsinew.dll.a" "$dest/lib/Win64/libsinew.dll.a"
    staged+=("Win64 (MinGW)")
  else
    why=()
    [ "$have_target" = 1 ] || why+=("rustup target $gnu_target not installed")
    [ "$have_mingw" = 1 ] || why+=("x86_64-w64-mingw32-gcc not found")
    [ "$build" = 1 ] || why+=("--no-build")
    reasons=""
    for w in "${why[@]}"; do reasons="${reasons:+$reasons; }$w"; done
    skipped+=("Win64 (${reasons:-no build output}; or build with MSVC on Windows and copy target/x86_64-pc-windows-msvc/)")
  fi
fi

# ------------------------------------------------------------------------------------ macOS
echo "== Mac"
if [ "$(uname -s)" = Darwin ]; then
  [ "$build" = 1 ] && (cd "$repo" && cargo build "${cargo_profile[@]}" -p sinew --lib)
  copy "$target_dir/$profile/libsinew.dylib" "$dest/lib/Mac/libsinew.dylib"
  staged+=("Mac")
else
  arm="$target_dir/aarch64-apple-darwin/$profile/libsinew.dylib"
  x64="$target_dir/x86_64-apple-darwin/$profile/libsinew.dylib"
  if [ -f "$arm" ] && [ -f "$x64" ] && command -v lipo >/dev/null 2>&1; then
    mkdir -p "$dest/lib/Mac"
    lipo -create "$arm" "$x64" -output "$dest/lib/Mac/libsinew.dylib"
    echo "  ${dest#"$repo"/}/lib/Mac/libsinew.dylib (universal)"
    staged+=("Mac")
  elif [ -f "$arm" ] || [ -f "$x64" ]; then
    copy "$([ -f "$arm" ] && echo "$arm" || echo "$x64")" "$dest/lib/Mac/libsinew.dylib"
    staged+=("Mac (one architecture)")
  else
    skipped+=("Mac (not a macOS host and no target/*-apple-darwin build)")
  fi
fi

# ------------------------------------------------------------------------------------ iOS, Android
echo "== IOS, Android"
ios="$target_dir/aarch64-apple-ios/$profile/libsinew.a"
if [ -f "$ios" ]; then
  copy "$ios" "$dest/lib/IOS/libsinew.a"
  staged+=("IOS")
else
  skipped+=("IOS (no target/aarch64-apple-ios build: cargo build --release --target aarch64-apple-ios on macOS)")
fi
android_found=0
for pair in aarch64-linux-android:arm64-v8a x86_64-linux-android:x86_64; do
  triple="${pair%%:*}"
  abi="${pair##*:}"
  lib="$target_dir/$triple/$profile/libsinew.a"
  if [ -f "$lib" ]; then
    copy "$lib" "$dest/lib/Android/$abi/libsinew.a"
    android_found=1
  fi
done
if [ "$android_found" = 1 ]; then
  staged+=("Android")
else
  skipped+=("Android (no target/*-linux-android build: e.g. cargo ndk -t arm64-v8a build --release)")
fi

echo
echo "staged: ${staged[*]:-nothing}"
for s in "${skipped[@]}"; do
  echo "skipped: $s"
done
