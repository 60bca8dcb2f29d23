#!/usr/bin/env bash
# Seconds, in CI (scripts/test-deb.sh runs it): the release build's flags make the C targets' clang
# modules independent of their files' modification times, so that two checkouts of one commit give the
# same build id (Docs/TESTING.md, "The Debian package"). scripts/reprotest-deb.sh checks the whole
# package by hand; this checks the one thing that made it differ, on the smallest unit that shows it:
# a Swift file importing the project's C modules (CSodium and the shims that need no GLib headers),
# compiled with -O -g as SwiftPM's release configuration does, plus the swiftc flags of
# scripts/build-release-fixed.sh, twice at one path with the sources' times set to two different dates
# (and the module cache emptied between, as a fresh checkout has it). The object files must be
# byte-identical. Without the flags the same two compilations must differ: otherwise the check could
# not fail, and it says so (exit 2).
#   scripts/check-module-times.sh        exit 0: identical; 1: they differ; 2: cannot tell
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
swiftc=${SWIFTC:-swiftc}
mapfile -t release_flags < <(scripts/build-release-fixed.sh --swiftc-flags)

work=$(mktemp -d "${TMPDIR:-/tmp}/pwnvault-module-times.XXXXXX")
trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
src=$work/src
mkdir -p "$src"
imports=(CSodium)
cp -R Sources/CSodium "$src/"
for shim in CHTTPShim CSpawnShim CIconvShim CIntlShim; do
  mkdir -p "$src/$shim"
  cp -R "Sources/$shim/include" "$src/$shim/"
  # The module map that SwiftPM writes for a C target with an include folder.
  printf 'module %s {\n    umbrella "%s"\n    export *\n}\n' "$shim" "$src/$shim/include" > "$src/$shim/module.modulemap"
  imports+=("$shim")
done
for m in "${imports[@]}"; do echo "import $m"; done > "$src/main.swift"
echo 'public func sodiumReady() -> Bool { sodium_init() >= 0 }' >> "$src/main.swift"

# $1: output; $2: the files' time (seconds since 1970); the rest: swiftc flags
compile() {
  local out=$1 time=$2 maps=()
  shift 2
  find "$src" -exec touch --no-dereference --date="@$time" {} +
  rm -rf "$work/ModuleCache"
  for m in "${imports[@]}"; do maps+=(-Xcc "-fmodule-map-file=$src/$m/module.modulemap"); done
  (cd "$src" && "$swiftc" -c -O -g -parse-as-library -module-name ModuleTimes "${maps[@]}" \
     -module-cache-path "$work/ModuleCache" "$@" main.swift -o "$work/unit.o")
  mv "$work/unit.o" "$out"   # (one output name: the object's symbol table names it)
}

compile "$work/with-1.o" 1000000000 "${release_flags[@]}"
compile "$work/with-2.o" 1700000000 "${release_flags[@]}"
compile "$work/without-1.o" 1000000000
compile "$work/without-2.o" 1700000000

dwo_ids() { llvm-dwarfdump --debug-info "$1" 2>/dev/null | grep -c DW_AT_GNU_dwo_id || true; }
if ! cmp -s "$work/with-1.o" "$work/with-2.o"; then
  echo "check-module-times: the release flags (${release_flags[*]}) do not hide the files' times: the object files differ" >&2
  command -v llvm-dwarfdump >/dev/null && diff <(llvm-dwarfdump --debug-info "$work/with-1.o" | grep dwo_id) \
    <(llvm-dwarfdump --debug-info "$work/with-2.o" | grep dwo_id) >&2 || true
  exit 1
fi
if cmp -s "$work/without-1.o" "$work/without-2.o"; then
  echo "check-module-times: cannot tell: without the release flags the files' times change nothing either" >&2
  exit 2
fi
echo "check-module-times: identical with the release flags ($(stat -c %s "$work/with-1.o") bytes, $(dwo_ids "$work/with-1.o") clang module units); without them the times change the object file" >&2
