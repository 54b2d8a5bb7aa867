#!/usr/bin/env bash
# Stages the Unity package in unity-sample/ (com.sinew.animation) from this repository:
#
#   1. copies the C# bindings, bindings/csharp/*.cs, into unity-sample/Runtime/Bindings/
#      (each gets a .meta with a GUID derived from its path when it has none yet);
#   2. builds the native library (cargo build --release, for the host and for every --target
#      given) and copies each build into the Plugins/ folder whose committed .meta carries the
#      import settings for that platform.
#
# The copies are build products: unity-sample/.gitignore keeps them out of git; only the .meta
# files (import settings, fixed GUIDs) are committed.
#
# Usage: scripts/stage_unity.sh [--no-build] [--debug] [--target TRIPLE]...
#   --no-build      copy what target/ already holds, build nothing
#   --debug         use the debug profile instead of release
#   --target T      also build (or, with --no-build, look for) target/T/<profile>; repeatable.
#                   Cross builds need the rustup target and a linker (Android: the NDK, e.g.
#                   through cargo-ndk; iOS and macOS: Xcode).
#
# Platform folders (triple -> file):
#   x86_64-unknown-linux-gnu    Plugins/Linux/x86_64/libsinew.so
#   aarch64-unknown-linux-gnu   Plugins/Linux/arm64/libsinew.so
#   x86_64-pc-windows-msvc      Plugins/Windows/x86_64/sinew.dll   (also *-windows-gnu)
#   aarch64-pc-windows-msvc     Plugins/Windows/arm64/sinew.dll
#   x86_64-apple-darwin         Plugins/macOS/x86_64/libsinew.dylib
#   aarch64-apple-darwin        Plugins/macOS/arm64/libsinew.dylib
#   aarch64-linux-android       Plugins/Android/arm64-v8a/libsinew.so
#   aarch64-apple-ios           Plugins/iOS/libsinew.a              (static, DllImport "__Internal")
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
pkg="$repo/unity-sample"
profile=release
build=1
targets=()

while [ $# -gt 0 ]; do
  case "$1" in
    --no-build) build=0 ;;
    --debug) profile=debug ;;
    --target)
      [ $# -ge 2 ] || { echo "stage_unity: --target needs a triple" >&2; exit 2; }
      targets+=("$2")
      shift
      ;;
    -h|--help) sed -n '2,30p' "$0"; exit 0 ;;
    *) echo "stage_unity: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done

# A stable 32-hex-digit GUID for a package path (the scheme the committed .meta files use).
guid_for() {
  printf 'com.sinew.animation/%s' "$1" | md5sum | cut -c1-32
}

# Writes a MonoImporter .meta for a staged C# file that has none.
ensure_cs_meta() {
  local rel="$1" meta="$pkg/$1.meta"
  [ -f "$meta" ] && return 0
  cat >"$meta" <<EOF
fileFormatVersion: 2
guid: $(guid_for "$rel")
MonoImporter:
  externalObjects: {}
  serializedVersion: 2
  defaultReferences: []
  executionOrder: 0
  icon: {instanceID: 0}
  userData: 
  assetBundleName: 
  assetBundleVariant: 
EOF
  echo "  wrote $rel.meta (new file: commit it)"
}

echo "== C# bindings -> unity-sample/Runtime/Bindings/"
shopt -s nullglob
sources=("$repo"/bindings/csharp/*.cs)
if [ ${#sources[@]} -eq 0 ]; then
  echo "stage_unity: no bindings/csharp/*.cs to copy" >&2
  exit 1
fi
mkdir -p "$pkg/Runtime/Bindings"
# Drop copies whose source is gone, so a renamed file does not compile twice, and their
# committed .meta (the removal is then for git to commit).
for staged in "$pkg"/Runtime/Bindings/*.cs "$pkg"/Runtime/Bindings/*.cs.meta; do
  name="$(basename "$staged" .meta)"
  [ -f "$repo/bindings/csharp/$name" ] || rm -v "$staged"
done
for src in "${sources[@]}"; do
  name="$(basename "$src")"
  cp "$src" "$pkg/Runtime/Bindings/$name"
  ensure_cs_meta "Runtime/Bindings/$name"
  echo "  $name"
done

# triple -> package-relative destination
dest_for() {
  case "$1" in
    x86_64-unknown-linux-gnu) echo "Plugins/Linux/x86_64/libsinew.so" ;;
    aarch64-unknown-linux-gnu) echo "Plugins/Linux/arm64/libsinew.so" ;;
    x86_64-pc-windows-msvc|x86_64-pc-windows-gnu) echo "Plugins/Windows/x86_64/sinew.dll" ;;
    aarch64-pc-windows-msvc) echo "Plugins/Windows/arm64/sinew.dll" ;;
    x86_64-apple-darwin) echo "Plugins/macOS/x86_64/libsinew.dylib" ;;
    aarch64-apple-darwin) echo "Plugins/macOS/arm64/libsinew.dylib" ;;
    aarch64-linux-android) echo "Plugins/Android/arm64-v8a/libsinew.so" ;;
    aarch64-apple-ios) echo "Plugins/iOS/libsinew.a" ;;
    *) return 1 ;;
  esac
}

# triple -> the artifact cargo writes
artifact_for() {
  case "$1" in
    *-windows-*) echo "sinew.dll" ;;
    *-apple-ios*) echo "libsinew.a" ;;
    *-apple-darwin) echo "libsinew.dylib" ;;
    *) echo "libsinew.so" ;;
  esac
}

host="$(rustc -vV | sed -n 's/^host: //p')"
cargo_flags=()
[ "$profile" = release ] && cargo_flags+=(--release)

stage_native() {
  local triple="$1" dir="$2" dest artifact
  if ! dest="$(dest_for "$triple")"; then
    echo "  $triple: no Plugins/ folder for this target (see the table in this script); skipped"
    return 0
  fi
  artifact="$(artifact_for "$triple")"
  if [ ! -f "$dir/$artifact" ]; then
    echo "  $triple: $dir/$artifact not found; skipped"
    return 0
  fi
  if [ ! -f "$pkg/$dest.meta" ]; then
    echo "stage_unity: $dest.meta is missing: the import settings must be committed first" >&2
    exit 1
  fi
  cp "$dir/$artifact" "$pkg/$dest"
  echo "  $triple -> $dest"
}

echo "== native library ($profile) -> unity-sample/Plugins/"
if [ "$build" = 1 ]; then
  (cd "$repo" && cargo build "${cargo_flags[@]}" -p sinew --lib)
  for t in "${targets[@]}"; do
    (cd "$repo" && cargo build "${cargo_flags[@]}" -p sinew --lib --target "$t")
  done
fi
target_dir="${CARGO_TARGET_DIR:-$repo/target}"
stage_native "$host" "$target_dir/$profile"
for t in "${targets[@]}"; do
  stage_native "$t" "$target_dir/$t/$profile"
done

echo "== done: add unity-sample/ to a project's Packages/manifest.json as"
echo "   \"com.sinew.animation\": \"file:$pkg\""
