#!/usr/bin/env bash
# The README's demo command on a fresh Debian 12, as a new user runs it (issue 32), by hand, not in CI:
#   scripts/test-demo-fresh.sh            (as root: chroot, mounts in a private mount namespace)
# 1. A clean bookworm made by mmdebstrap from the host's Debian mirror (a tarball cached in
#    .build/demo-test, keyed by its package list): Debian's "important" packages (what every installed
#    Debian has: systemd, apt-utils, procps…), plus what swift.org's Debian 12 image installs for the
#    toolchain (a user has those once `swift` runs), plus sudo. Nothing of pwnvault's.
# 2. The host's Swift toolchain bind-mounted read-only at its own path; a clean clone of this checkout's
#    HEAD (committed work only) in the new user's home.
# 3. As that user (uid 1000, sudo without a password, like a desktop's first account): `scripts/demo.sh`,
#    nothing else. It must succeed and install only the demo's packages: none of the tests' (setup.sh's
#    test_packages: KeePassXC, KWallet, Xvfb, zsh, fish, tmux…).
# Prints the demo's wall time, the packages it installed (count, download and installed size) and the
# load average before and after (the machine may be shared), and "demo-fresh: N passed, M failed" last.
# The demo's whole output: .build/demo-test/demo.out; the packages: .build/demo-test/packages.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
[ "$(id -u)" -eq 0 ] || { echo "demo-fresh: error: run as root (chroot and mounts)" >&2; exit 2; }
command -v mmdebstrap >/dev/null || { echo "demo-fresh: error: mmdebstrap is not installed (scripts/setup.sh)" >&2; exit 2; }
swift_bin=$(readlink -f "$(command -v swift)")          # /opt/swift/usr/bin/swift-driver
toolchain=${swift_bin%/usr/bin/*}                          # /opt/swift
[ -d "$toolchain/usr/bin" ] || { echo "demo-fresh: error: no Swift toolchain found from $swift_bin" >&2; exit 2; }
commit=$(git rev-parse HEAD)
git diff --quiet HEAD || echo "demo-fresh: note: uncommitted changes are not in the clone; it is $commit" >&2

host_mirror=$({ cat /etc/apt/sources.list.d/*.sources /etc/apt/sources.list 2>/dev/null || true; } \
  | sed -n -e 's|^URIs: *\(http[^ ]*/debian\)/*$|\1|p' -e 's|^deb  *\(http[^ ]*/debian\)/* .*|\1|p' | head -n 1)
mirror=${PWNVAULT_DEB_MIRROR:-${host_mirror:-http://deb.debian.org/debian}}
cache=$root/.build/demo-test
mkdir -p "$cache"
work=$(mktemp -d "${TMPDIR:-/tmp}/pwnvault-demo-fresh.XXXXXX")
chmod 755 "$work"
trap 'rm -rf "$work"' EXIT

passed=0 failed=0
ok() { passed=$((passed + 1)); echo "demo-fresh: ok: $*" >&2; }
fail() { failed=$((failed + 1)); echo "demo-fresh: FAIL: $*" >&2; }
seconds() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(seconds)" 'BEGIN { printf "%.0f", b - a }'; }
load() { cut -d' ' -f1-3 /proc/loadavg; }

# --- 1. the clean system ----------------------------------------------------------------------------
# swift.org's Debian 12 image (swift-docker, swift:debian12) installs these for the toolchain; sudo and
# ca-certificates: a person's machine has them. Not one package pwnvault's setup.sh names is added here
# on purpose (libicu-dev and pkg-config are in both lists: the toolchain needs them anyway).
toolchain_deps=binutils-gold,curl,gpg,libicu-dev,libcurl4-openssl-dev,libedit-dev,libsqlite3-dev,libncurses-dev,libpython3-dev,libxml2-dev,pkg-config,uuid-dev,tzdata,git,gcc,libstdc++-12-dev
include=$toolchain_deps,sudo,ca-certificates
sources=("deb $mirror bookworm main" "deb $mirror bookworm-updates main" "deb ${mirror%/debian}/debian-security bookworm-security main")
variant=important
tarball=$cache/bookworm-$(sha256sum <<< "${sources[*]} $variant $include" | cut -c1-12).tar
if [ ! -s "$tarball" ]; then
  t0=$(seconds)
  if ! unshare --mount --propagation private -- mmdebstrap --quiet --variant=$variant --format=tar --include="$include" \
       bookworm "$tarball.$$.tmp" "${sources[@]}" > "$cache/mmdebstrap.log" 2>&1; then
    cat "$cache/mmdebstrap.log" >&2; rm -f "$tarball.$$.tmp"; exit 1
  fi
  rm -f "$cache"/bookworm-*.tar
  mv "$tarball.$$.tmp" "$tarball"
  echo "demo-fresh: mmdebstrap made $(basename "$tarball") ($(du -m "$tarball" | cut -f1) MiB) in $(elapsed "$t0") s" >&2
fi
sysroot=$work/root
mkdir "$sysroot"
tar -C "$sysroot" -xf "$tarball"
cp /etc/resolv.conf "$sysroot/etc/resolv.conf" 2>/dev/null || true
# A machine knows its own name (sudo looks it up; without it, "unable to resolve host" on every call).
echo "127.0.1.1 $(hostname)" >> "$sysroot/etc/hosts"
chroot "$sysroot" useradd --create-home --uid 1000 --shell /bin/bash demo
echo 'demo ALL=(ALL) NOPASSWD: ALL' > "$sysroot/etc/sudoers.d/demo"
chmod 440 "$sysroot/etc/sudoers.d/demo"
mkdir -p "$sysroot$toolchain"

# --- 2. a clean clone -------------------------------------------------------------------------------
git clone --quiet --no-hardlinks "$root" "$sysroot/home/demo/pwnvault"
git -C "$sysroot/home/demo/pwnvault" checkout --quiet --detach "$commit"
chown -R 1000:1000 "$sysroot/home/demo"

# --- 3. the demo, as the user -----------------------------------------------------------------------
cat > "$sysroot/tmp/run-demo.sh" <<'INSIDE'
# As root in the chroot: the package list before, the demo as the user (timed), the list after.
set -uo pipefail
export LC_ALL=C.UTF-8
dpkg-query -W -f '${Package}\n' | sort > /tmp/before.txt
start=$(date +%s.%N)
# On a terminal, as a person runs it: script(1) gives it a pseudo-terminal (80 columns by default).
runuser -u demo -- env -i HOME=/home/demo USER=demo LOGNAME=demo SHELL=/bin/bash TERM=xterm-256color LANG=C.UTF-8 \
  PATH="$TOOLCHAIN/usr/bin:/usr/local/bin:/usr/bin:/bin" \
  timeout 3600 script --quiet --return --command 'cd ~/pwnvault && scripts/demo.sh' /dev/null < /dev/null > /tmp/demo.out 2>&1
status=$?
echo "$status $(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.0f", b - a }')" > /tmp/demo.status
dpkg-query -W -f '${Package}\n' | sort > /tmp/after.txt
comm -13 /tmp/before.txt /tmp/after.txt > /tmp/new.txt
kib=0
while read -r p; do kib=$((kib + $(dpkg-query -W -f '${Installed-Size}' "$p"))); done < /tmp/new.txt
echo "$kib" > /tmp/installed-kib
du -sk /var/cache/apt/archives | cut -f1 > /tmp/download-kib
# apt's own record of its runs (the demo's only): seconds from the first Start-Date to the last End-Date.
sed -n -e 's/^Start-Date: //p' -e 's/^End-Date: //p' /var/log/apt/history.log 2>/dev/null \
  | sed -e 's/  */ /g' | { read -r first || true; last=$first; while read -r l; do last=$l; done
      [ -n "$first" ] && echo $(( $(date -d "$last" +%s) - $(date -d "$first" +%s) )) || echo 0; } > /tmp/apt-seconds
INSIDE

load_before=$(load)
t0=$(seconds)
unshare --mount --propagation private -- sh -c '
  set -e
  mount -t proc proc "$1/proc"
  mount --bind /dev "$1/dev"
  mount -t tmpfs -o mode=1777 tmpfs "$1/dev/shm"
  mount -t devpts -o newinstance,ptmxmode=0666 devpts "$1/dev/pts"
  mount --bind "$2" "$1$2" && mount -o remount,bind,ro "$1$2"
  exec chroot "$1" /usr/bin/env -i TOOLCHAIN="$2" PATH=/usr/sbin:/usr/bin:/sbin:/bin /bin/bash /tmp/run-demo.sh' _ \
  "$sysroot" "$toolchain" || true
outer=$(elapsed "$t0")
load_after=$(load)
cp "$sysroot/tmp/demo.out" "$cache/demo.out" 2>/dev/null || true
read -r status wall < "$sysroot/tmp/demo.status" || { status=none wall=$outer; }
mapfile -t new < "$sysroot/tmp/new.txt"
printf '%s\n' "${new[@]}" > "$cache/packages.txt"
installed_mib=$(( $(cat "$sysroot/tmp/installed-kib") / 1024 ))
apt_seconds=$(cat "$sysroot/tmp/apt-seconds" 2>/dev/null || echo "?")
build_seconds=$(tr -d '\r' < "$cache/demo.out" | sed -n 's/^demo: built in \([0-9]*\) s$/\1/p' | tail -n 1)   # a terminal's CR LF
download_mib=$(( $(cat "$sysroot/tmp/download-kib") / 1024 ))

if [ "$status" = 0 ]; then ok "scripts/demo.sh exited 0 in $wall s"
else fail "scripts/demo.sh exited $status after $wall s; its last lines:"; tail -n 30 "$cache/demo.out" >&2; fi
# What the demo shows: every account checked, breaches found, acknowledged, a silent watch; no error or
# warning on the way (a warning in the demo's own example is the first thing a new user reads).
if grep -q 'checked 5 of 5: 3 breached' "$cache/demo.out" && grep -q 'exit status 1: 1 means something is new' "$cache/demo.out" \
   && grep -q 'acknowledged 6 findings' "$cache/demo.out" && grep -q 'exit status 0: nothing new' "$cache/demo.out" \
   && ! grep -Eq 'pwnvault: (error|warning)|syntax error' "$cache/demo.out"; then
  ok "the demo's commands ran (check found breaches, ack, a silent watch; no error or warning)"
else fail "the demo's output lacks its steps or has an error or warning (see $cache/demo.out)"; fi
# The tests' packages (setup.sh's test_packages) must not come with the demo.
test_packages=$(sed -n '/^test_packages=(/,/)/p' scripts/setup.sh | sed -e 's/#.*//' -e 's/test_packages=(//' -e 's/)//' | tr -s ' \n' '\n' | sed '/^$/d')
unwanted=()
for p in $test_packages; do printf '%s\n' "${new[@]}" | grep -qx -- "$p" && unwanted+=("$p"); done
for p in keepassxc libkf5wallet-bin xvfb zsh fish tmux; do   # named by the issue, whatever setup.sh says
  printf '%s\n' "${new[@]}" | grep -qx -- "$p" && [[ " ${unwanted[*]} " != *" $p "* ]] && unwanted+=("$p")
done
if [ ${#unwanted[@]} -eq 0 ]; then ok "none of the tests' packages installed (KeePassXC, KWallet, Xvfb, zsh, fish, tmux…)"
else fail "the demo installed the tests' packages: ${unwanted[*]}"; fi

echo "demo-fresh: Debian 12 (mmdebstrap $variant variant + swift.org's toolchain dependencies), commit ${commit:0:10}:" \
     "scripts/demo.sh took $wall s wall ($outer s with the chroot; apt ${apt_seconds} s, swift build ${build_seconds:-?} s), installed ${#new[@]} packages" \
     "($download_mib MiB downloaded, $installed_mib MiB installed); load average $load_before before, $load_after after, $(nproc) cores" >&2
echo "demo-fresh: packages: ${new[*]}" >&2
echo "demo-fresh: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
