#!/usr/bin/env bash
# Builds pwnvault_VERSION_ARCH.deb from a release build (`make deb` runs it after `make build`).
#   scripts/build-deb.sh [OUTDIR]        (default: the repository's root)
# PWNVAULT_BIN=path/to/pwnvault packages that binary (libPwnVaultPhone.so beside it); otherwise the
# release build's (`swift build -c release --show-bin-path`), which must exist.
#
# Reproducible: the same commit and binary give the same bytes, whoever builds, wherever, under any
# umask. Every time stamp is SOURCE_DATE_EPOCH (default: the commit's time), file modes are set
# explicitly, dpkg-deb makes every file root:root (--root-owner-group) and sorts its tar members, and
# gzip -n leaves the name and time out of the compressed changelog and man pages.
# Layout (Debian's): /usr/bin/pwnvault, /usr/lib/pwnvault/libPwnVaultPhone.so (found relative to the
# binary: PREFIX/lib/pwnvault), /usr/share/locale (PREFIX/share/locale), man pages gzipped, the zsh
# completion in /usr/share/zsh/vendor-completions (Debian's zsh looks there; site-functions is for
# /usr/local), docs, copyright and changelog.Debian.gz in /usr/share/doc/pwnvault.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
out=${1:-$root}
mkdir -p "$out"
out=$(cd "$out" && pwd)

export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct)}
export LC_ALL=C TZ=UTC
umask 022

bin=${PWNVAULT_BIN:-$(swift build -c release --show-bin-path)/pwnvault}
[ -x "$bin" ] || { echo "build-deb: error: no binary at $bin (run 'make build' first)" >&2; exit 1; }
bindir=$(dirname "$bin")

# The package's version: the top entry of packaging/deb/changelog, whose upstream part must be the
# version the binary reports (a new version needs a changelog entry).
version=$(dpkg-parsechangelog -l packaging/deb/changelog -S Version)
reported=$("$bin" --version | grep -Eo '[0-9]+\.[0-9]+\.[0-9]+' | head -n 1)
if [ "${version%-*}" != "$reported" ]; then
  echo "build-deb: error: packaging/deb/changelog is at $version, the binary says $reported: add a changelog entry" >&2
  exit 1
fi
arch=$(dpkg --print-architecture)

work=$(mktemp -d "${TMPDIR:-/tmp}/pwnvault-deb.XXXXXX")
trap 'rm -rf "$work"' EXIT
stage=$work/root
mkdir -p "$stage"

# What `make install` installs, with PREFIX=/usr, then moved to where Debian wants it.
make --no-print-directory -s install PREFIX=/usr DESTDIR="$stage" PWNVAULT_BIN="$bin" >/dev/null
mkdir -p "$stage/usr/share/zsh/vendor-completions"
mv "$stage/usr/share/zsh/site-functions/_pwnvault" "$stage/usr/share/zsh/vendor-completions/_pwnvault"
rmdir "$stage/usr/share/zsh/site-functions"
find "$stage/usr/share/man" -type f -name '*.1' -exec gzip -9n {} +

# Stripped as dh_strip does (.comment holds the compilers' versions); the shared object also loses
# its local symbols. The build id stays: it is a hash of the contents.
strip --remove-section=.comment --remove-section=.note "$stage/usr/bin/pwnvault"
strip --remove-section=.comment --remove-section=.note --strip-unneeded "$stage/usr/lib/pwnvault/libPwnVaultPhone.so"

doc=$stage/usr/share/doc/pwnvault
mkdir -p "$doc"
cp README.md Docs/THREAT_MODEL.md Docs/VAULT_FORMAT.md packaging/deb/copyright "$doc/"
gzip -9n -c packaging/deb/changelog > "$doc/changelog.Debian.gz"
# Lintian's overrides, each with its reason in the comment above it (shipped only when there are some).
if grep -qv '^\s*\(#\|$\)' packaging/deb/lintian-overrides 2>/dev/null; then
  install -D -m 0644 packaging/deb/lintian-overrides "$stage/usr/share/lintian/overrides/pwnvault"
fi

# Depends: what the binary and the shim link (dpkg-shlibdeps, from a throw-away debian/ tree), and
# what pwnvault dlopens (packaging/deb/dlopen-depends: dpkg-shlibdeps cannot see those).
mkdir -p "$work/src/debian"
printf 'Source: pwnvault\n\nPackage: pwnvault\nArchitecture: any\n' > "$work/src/debian/control"
linked=$(cd "$work/src" && dpkg-shlibdeps -O -xpwnvault \
  "$stage/usr/bin/pwnvault" "$stage/usr/lib/pwnvault/libPwnVaultPhone.so" 2>"$work/shlibdeps.err" \
  | sed -n 's/^shlibs:Depends=//p') \
  || { cat "$work/shlibdeps.err" >&2; exit 1; }
loaded=$(grep -v '^\s*#' packaging/deb/dlopen-depends | grep -v '^\s*$' | paste -sd, | sed 's/,/, /g')
depends="$linked, $loaded"

# Installed-Size as dpkg-gencontrol counts it: KiB per file, rounded up, plus one per folder or link.
installed_size=$(find "$stage" -mindepth 1 \( -type f -printf '%s\n' -o -printf '1024\n' \) \
  | awk '{ kib += int(($1 + 1023) / 1024) } END { print kib }')

mkdir -p "$stage/DEBIAN"
sed -e "s/@VERSION@/$version/" -e "s/@ARCH@/$arch/" -e "s/@INSTALLED_SIZE@/$installed_size/" \
    -e "s/@DEPENDS@/$depends/" packaging/deb/control.in > "$stage/DEBIAN/control"
(cd "$stage" && find usr -type f | sort | xargs md5sum) > "$stage/DEBIAN/md5sums"

# Modes and times, whatever umask and clock the files came with.
find "$stage" -type d -exec chmod 0755 {} +
find "$stage" -type f -exec chmod 0644 {} +
chmod 0755 "$stage/usr/bin/pwnvault"
find "$stage" -exec touch --no-dereference --date="@$SOURCE_DATE_EPOCH" {} +

deb="$out/pwnvault_${version}_${arch}.deb"
dpkg-deb --root-owner-group -Zxz --build "$stage" "$deb.tmp" >/dev/null
mv "$deb.tmp" "$deb"
echo "$deb"
