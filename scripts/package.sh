#!/usr/bin/env bash
# Builds Sinew's release packages into target/dist/, for users without a Rust toolchain:
#
#   com.sinew.animation-<version>.tgz   Unity package (Package Manager > + > Add package from
#                                       tarball): package/package.json, Runtime/ with the C#
#                                       bindings, samples, docs, native plug-ins with their import
#                                       settings, LICENSE.md and "Third Party Notices.md"
#   SinewIK-<version>.zip               Unreal plugin (unzip into a project's Plugins/): the
#                                       modules' sources, the headers, sinew.dll + sinew.lib for
#                                       Win64, libsinew.so for Linux and LinuxArm64
#   sinew-<version>-symbols.tar.gz      the debug symbols stripped from those binaries, one
#                                       .debug file per binary (linked by .gnu_debuglink)
#
# Binaries: Linux x86_64 (this host), Windows x86_64 (MinGW cross build) and Linux aarch64
# (cross build with Debian's aarch64 gcc), built and tested by scripts/cross_test.sh, which
# also makes sinew.lib (the MSVC import library) from the DLL's export table. Each must be
# there: a package missing a platform is not a release. Needs what cross_test.sh needs, plus
# zip (.ci/run installs them).
# macOS, iOS and Android binaries are built on their own hosts (docs/PLATFORMS.md) and staged by
# scripts/stage_unity.sh / stage_unreal.sh before running this with --no-build.
#
# The packages are assembled from the staging scripts' output (scripts/stage_unity.sh,
# scripts/stage_unreal.sh), so a release and a developer's staged checkout hold the same files;
# build products staged earlier are removed first (git clean -X on the two sample folders).
#
# At the end, the README's C example is built against the binaries inside the archives and run
# (Windows under Wine, aarch64 under qemu-aarch64, when those are installed).
#
# Usage: scripts/package.sh [--no-build]
#   --no-build   package what an earlier scripts/cross_test.sh run built, run nothing first
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
dist="${CARGO_TARGET_DIR:-$repo/target}/dist"
build=1
case "${1:-}" in
  "") ;;
  --no-build) build=0 ;;
  -h|--help) sed -n '2,26p' "$0"; exit 0 ;;
  *) echo "package: unknown argument $1 (see --help)" >&2; exit 2 ;;
esac

version="$(sed -n 's/^version = "\(.*\)"/\1/p' "$repo/Cargo.toml" | head -1)"
target_dir="${CARGO_TARGET_DIR:-$repo/target}"
windows=x86_64-pc-windows-gnu
arm64=aarch64-unknown-linux-gnu

for tool in x86_64-w64-mingw32-objcopy x86_64-w64-mingw32-gcc aarch64-linux-gnu-objcopy \
            aarch64-linux-gnu-gcc objcopy nm zip unzip tar; do
  command -v "$tool" >/dev/null 2>&1 || {
    echo "package: $tool not found (apt-get install gcc-mingw-w64-x86-64-win32 gcc-aarch64-linux-gnu binutils zip unzip)" >&2
    exit 1
  }
done

if [ "$build" = 1 ]; then
  "$repo/scripts/cross_test.sh"
fi
linux_so="$target_dir/release/libsinew.so"
win_dll="$target_dir/$windows/release/sinew.dll"
win_lib="$target_dir/cross/windows/sinew.lib"
arm_so="$target_dir/$arm64/release/libsinew.so"
for f in "$linux_so" "$win_dll" "$win_lib" "$arm_so"; do
  [ -f "$f" ] || { echo "package: $f is missing (run scripts/cross_test.sh, or this without --no-build)" >&2; exit 1; }
done

# The exports every binary must carry: the header's function declarations.
mapfile -t exports < <(grep -o '\bsinew_[a-z0-9_]*(' "$repo/include/sinew.h" | tr -d '(' | sort -u)
echo "== ${#exports[@]} exports in include/sinew.h"

rm -rf "$dist"
mkdir -p "$dist/symbols"
work="$dist/work"

# Splits `file`'s debug info into symbols/<name>.debug and strips it, keeping the dynamic
# symbols a shared library exports. $1: objcopy of the binary's architecture.
strip_binary() {
  local objcopy="$1" file="$2" name="$3" before
  before=$(stat -c %s "$file")
  "$objcopy" --only-keep-debug "$file" "$dist/symbols/$name.debug"
  "$objcopy" --strip-debug --strip-unneeded "$file"
  (cd "$dist/symbols" && "$objcopy" --add-gnu-debuglink="$name.debug" "$file")
  echo "  $name: $before -> $(stat -c %s "$file") bytes (symbols/$name.debug)"
}

# Fails unless `listed` (one name per line) holds every header export.
require_exports() {
  local what="$1" listed="$2" missing
  missing=$(comm -23 <(printf '%s\n' "${exports[@]}") <(sort -u <<<"$listed"))
  if [ -n "$missing" ]; then
    echo "package: $what lacks exports:" $missing >&2
    exit 1
  fi
  echo "  $what: all ${#exports[@]} exports"
}

# -------------------------------------------------------------------------- stripped binaries
echo "== strip (debug info to target/dist/symbols/)"
mkdir -p "$work/linux-x86_64" "$work/linux-arm64" "$work/win64"
cp "$linux_so" "$work/linux-x86_64/libsinew.so"
cp "$arm_so" "$work/linux-arm64/libsinew.so"
cp "$win_dll" "$work/win64/sinew.dll"
strip_binary objcopy "$work/linux-x86_64/libsinew.so" libsinew.so.linux-x86_64
strip_binary aarch64-linux-gnu-objcopy "$work/linux-arm64/libsinew.so" libsinew.so.linux-arm64
strip_binary x86_64-w64-mingw32-objcopy "$work/win64/sinew.dll" sinew.dll.win64
require_exports "libsinew.so (x86_64)" "$(nm -D --defined-only "$work/linux-x86_64/libsinew.so" | awk '{print $3}')"
require_exports "libsinew.so (arm64)" "$(nm -D --defined-only "$work/linux-arm64/libsinew.so" | awk '{print $3}')"

require_exports "sinew.dll" "$(x86_64-w64-mingw32-objdump -p "$work/win64/sinew.dll" \
  | sed -n '/\[Ordinal\/Name Pointer\] Table/,/^$/p' | grep -o 'sinew_[a-z0-9_]*')"
cp "$win_lib" "$work/win64/sinew.lib"

# Puts the stripped binaries where the staging scripts look for builds.
stage_tree="$work/target"
mkdir -p "$stage_tree/release" "$stage_tree/$windows/release" "$stage_tree/$arm64/release"
cp "$work/linux-x86_64/libsinew.so" "$stage_tree/release/"
cp "$work/linux-arm64/libsinew.so" "$stage_tree/$arm64/release/"
cp "$work/win64/sinew.dll" "$work/win64/sinew.lib" "$stage_tree/$windows/release/"

# ------------------------------------------------------------------------------------- Unity
echo "== Unity package"
git -C "$repo" clean -fdqX -- unity-sample
CARGO_TARGET_DIR="$stage_tree" "$repo/scripts/stage_unity.sh" --no-build --target "$windows" --target "$arm64"
upm="$work/unity/package"
mkdir -p "$upm"
cp -a "$repo/unity-sample/." "$upm/"
rm -f "$upm/.gitignore"
# No .meta without its asset: drop the import settings of platforms not built here, then the
# folders left empty, with their own .meta.
find "$upm" -name '*.meta' -print0 | while IFS= read -r -d '' meta; do
  [ -e "${meta%.meta}" ] || rm "$meta"
done
while find "$upm/Plugins" -mindepth 1 -type d -empty | grep -q .; do
  find "$upm/Plugins" -mindepth 1 -type d -empty -print0 | while IFS= read -r -d '' d; do
    rmdir "$d"; rm -f "$d.meta"
  done
done
cp "$repo/LICENSE-MIT" "$upm/LICENSE.md"
printf '\n---\n\nOr, at your option, the Apache License 2.0:\n\n```text\n%s\n```\n' \
  "$(cat "$repo/LICENSE-APACHE")" >>"$upm/LICENSE.md"
cp "$repo/THIRD-PARTY-NOTICES.md" "$upm/Third Party Notices.md"
for doc in "LICENSE.md" "Third Party Notices.md"; do
  cat >"$upm/$doc.meta" <<EOF
fileFormatVersion: 2
guid: $(printf 'com.sinew.animation/%s' "$doc" | md5sum | cut -c1-32)
TextScriptImporter:
  externalObjects: {}
  userData: 
  assetBundleName: 
  assetBundleVariant: 
EOF
done
# Every asset has its .meta, every .meta its asset (~ folders are not imported).
(cd "$upm" && find . -mindepth 1 -path './*~' -prune -o ! -name '*.meta' -print) | while read -r asset; do
  [ -f "$upm/$asset.meta" ] || { echo "package: Unity asset $asset has no .meta" >&2; exit 1; }
done
unity_tgz="$dist/com.sinew.animation-$version.tgz"
tar -C "$work/unity" --owner=0 --group=0 --sort=name -czf "$unity_tgz" package
echo "  $(basename "$unity_tgz"): $(tar -tzf "$unity_tgz" | grep -c '') entries"

# ------------------------------------------------------------------------------------ Unreal
echo "== Unreal plugin"
git -C "$repo" clean -fdqX -- unreal-sample
CARGO_TARGET_DIR="$stage_tree" "$repo/scripts/stage_unreal.sh" --no-build
plugin="$work/unreal/SinewIK"
mkdir -p "$plugin"
cp -a "$repo/unreal-sample/Plugins/SinewIK/." "$plugin/"
rm -f "$plugin/.gitignore"
cp "$repo/LICENSE-MIT" "$repo/LICENSE-APACHE" "$repo/THIRD-PARTY-NOTICES.md" "$plugin/"
cp "$repo/unreal-sample/README.md" "$plugin/README.md"
lib="$plugin/Source/ThirdParty/SinewLibrary/lib"
for f in "$lib/Win64/sinew.dll" "$lib/Win64/sinew.lib" "$lib/Linux/x86_64-unknown-linux-gnu/libsinew.so" \
         "$lib/LinuxArm64/aarch64-unknown-linux-gnu/libsinew.so"; do
  [ -f "$f" ] || { echo "package: the Unreal plugin lacks ${f#"$plugin"/}" >&2; exit 1; }
done
unreal_zip="$dist/SinewIK-$version.zip"
(cd "$work/unreal" && find SinewIK -print | sort | zip -qX "$unreal_zip" -@)
echo "  $(basename "$unreal_zip"): $(unzip -Z1 "$unreal_zip" | grep -c '') entries"

# Leave the sample folders as git has them.
git -C "$repo" clean -fdqX -- unity-sample unreal-sample

# ------------------------------------------------------------------- the packages, as shipped
# The README's C example, built against each packaged binary as a user would (the Windows one
# linked through sinew.lib) and run: on this host, under Wine and under qemu-aarch64.
echo "== smoke test of the packaged binaries (README's C example)"
check="$work/check"
mkdir -p "$check/unity" "$check/unreal"
tar -C "$check/unity" -xzf "$unity_tgz"
(cd "$check/unreal" && unzip -q "$unreal_zip")
awk '/^## Using it from C/ { section = 1 } section && /^```$/ && code { exit }
     code { print } section && /^```c$/ { code = 1 }' "$repo/README.md" >"$check/arm.c"
flags=(-std=c99 -pedantic -Wall -Werror -I "$repo/include")
expect="hand at (0.350, 1.200, 0.200), reached 1"
run_check() { # name, command...
  local name="$1" out
  shift
  out=$("$@" 2>/dev/null | tr -d '\r')
  case "$out" in
    "$expect"*) echo "  $name: $out" ;;
    *) echo "package: the README example against the $name binary printed: $out" >&2; exit 1 ;;
  esac
}
upl="$check/unity/package/Plugins"
cc "${flags[@]}" "$check/arm.c" -L"$upl/Linux/x86_64" -lsinew -Wl,-rpath,"$upl/Linux/x86_64" -o "$check/arm-linux"
run_check "Unity Linux x86_64" "$check/arm-linux"
if command -v qemu-aarch64 >/dev/null 2>&1; then
  aarch64-linux-gnu-gcc "${flags[@]}" "$check/arm.c" -L"$upl/Linux/arm64" -lsinew -o "$check/arm-arm64"
  run_check "Unity Linux arm64 (qemu)" env LD_LIBRARY_PATH="$upl/Linux/arm64" qemu-aarch64 -L /usr/aarch64-linux-gnu "$check/arm-arm64"
fi
wine_test="$target_dir/cross/windows/test"
if [ -f "$wine_test/bcryptprimitives.dll" ] && [ -d "$target_dir/cross/wineprefix" ]; then
  # With cross_test.sh's Wine prefix and its test-only bcryptprimitives.dll (Wine 8 lacks it).
  win="$check/unreal/SinewIK/Source/ThirdParty/SinewLibrary/lib/Win64"
  x86_64-w64-mingw32-gcc "${flags[@]}" -D__USE_MINGW_ANSI_STDIO=1 "$check/arm.c" "$win/sinew.lib" -o "$win/arm.exe"
  cp "$wine_test/bcryptprimitives.dll" "$win/"
  wine=wine64
  command -v wine64 >/dev/null 2>&1 || wine=/usr/lib/wine/wine64
  run_check "Unreal Win64 through sinew.lib (Wine)" env WINEPREFIX="$target_dir/cross/wineprefix" \
    WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml=" "$wine" "$win/arm.exe"
else
  echo "  Win64: not run (no Wine prefix from scripts/cross_test.sh windows)"
fi

tar -C "$dist" --owner=0 --group=0 --sort=name -czf "$dist/sinew-$version-symbols.tar.gz" symbols
rm -rf "$work" "$dist/symbols"
echo "== target/dist/"
ls -l "$dist"
