#!/usr/bin/env bash
# The release build that `make deb` packages, compiled from one fixed path whatever folder the
# checkout is in, so two checkouts of one commit give byte-identical binaries (and packages).
#   scripts/build-release-fixed.sh        prints the binary's path (in this checkout)
#   scripts/build-release-fixed.sh --swiftc-flags   prints the flags it passes on to swiftc, one a line
# Why a fixed path: the Swift compiler writes two things that depend on where the sources are and
# that no flag of Swift 6.3 remaps (-file-prefix-map and -debug-prefix-map were tried): the module
# hash in .swift_modhash, and the length of a source path that it passes to
# swift_isEscapingClosureAtFileLocation. So the build runs in a private mount namespace
# (unshare --mount, or --map-root-user when not root) where this checkout is bind-mounted on
# $PWNVAULT_FIXED_SRC (default /tmp/pwnvault-src); nothing outside the namespace sees the mount,
# so two builds at once in two checkouts do not meet. Its scratch folder is .build/deb (seen as
# FIXED/.build/deb), apart from `make build`'s .build/release, which is built from the real path.
# SwiftPM's lock is a file in TMPDIR named after the scratch path, the same for every checkout, so
# TMPDIR is .build/deb-tmp under the fixed path: each checkout its own (two builds at once do not wait).
# Where unshare cannot work, the build runs in place and says that it is only reproducible from
# this folder. Also linked with -z now (full RELRO: lintian's hardening-no-bindnow).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
fixed=${PWNVAULT_FIXED_SRC:-/tmp/pwnvault-src}
swift=${SWIFT:-swift}
# -disable-incremental-llvm-codegen: the .swift_modhash section (a hash for skipping LLVM's codegen
# of an unchanged module) still differed between two checkouts built at the fixed path, the rest not.
# -fno-pch-timestamp (clang's, through swiftc's -Xcc): the last difference, the 20-byte build id. The
# linker hashes the unstripped binary, whose DWARF has a skeleton unit per clang module that a Swift
# module imports, with the module's signature as DW_AT_GNU_dwo_id. The signature is a hash of the
# module's .pcm, which records each input file (the C targets' headers and module maps) with its
# modification time: a clone's files carry the clone's time, and the module maps that SwiftPM writes
# into the scratch folder carry the build's. With the flag clang records 0 for every time (sizes
# stay), so the signatures depend on the files' contents only. The toolchain's own modules (Glibc,
# Dispatch...) agreed already: their headers have the same times everywhere. Giving the checkout's
# files SOURCE_DATE_EPOCH as their time would not reach the generated module maps.
flags=(-c release --disable-local-rpath --scratch-path .build/deb -Xlinker -z -Xlinker now
       -Xswiftc -Xfrontend -Xswiftc -disable-incremental-llvm-codegen
       -Xswiftc -Xcc -Xswiftc -Xclang -Xswiftc -Xcc -Xswiftc -fno-pch-timestamp)
# --swiftc-flags: only print the flags passed on to swiftc, one a line (scripts/check-module-times.sh).
if [ "${1:-}" = --swiftc-flags ]; then
  for ((i = 0; i < ${#flags[@]}; i++)); do
    [ "${flags[i]}" = -Xswiftc ] && { i=$((i + 1)); printf '%s\n' "${flags[i]}"; }
  done
  exit 0
fi

build_in() {  # $1: the folder that the sources are seen in
  (cd "$1" && "$swift" build "${flags[@]}" >&2)
}

ns=(unshare --mount --propagation private)
[ "$(id -u)" = 0 ] || ns=(unshare --mount --map-root-user --propagation private)
mkdir -p "$fixed"
# Without times clang checks a cached module against its headers by size only, so a header edited to
# the same size would leave a stale module in the cache. The cache is emptied before each build: the
# modules are rebuilt (seconds) only when a Swift module that imports them is compiled again, and
# SwiftPM's dependency files name the headers, never the .pcm files, so nothing else rebuilds.
rm -rf "$root"/.build/deb/*/release/ModuleCache
if "${ns[@]}" true 2>/dev/null; then
  "${ns[@]}" env SWIFT="$swift" bash -c '
    set -euo pipefail
    mount --bind "$1" "$2"
    cd "$2"
    shift 2
    mkdir -p .build/deb-tmp
    TMPDIR=$PWD/.build/deb-tmp "$SWIFT" build "$@" >&2' bash "$root" "$fixed" "${flags[@]}"
else
  echo "build-release-fixed: warning: no private mount namespace (unshare); building in $root: the package is reproducible only from this folder" >&2
  build_in "$root"
fi
echo "$root/.build/deb/release/pwnvault"
