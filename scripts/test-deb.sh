#!/usr/bin/env bash
# The Debian package, tested as a person installs it (scripts/test.sh runs it; Docs/TESTING.md):
#   scripts/test-deb.sh [SUITE...]     (default: bookworm trixie; PWNVAULT_DEB_SUITES overrides too)
# 1. `make deb`, then the packaging again from the same binary in another folder under another umask:
#    the two .deb files must be byte-identical (diffoscope says why where it is installed); and the
#    release build's clang modules must not depend on the files' times (scripts/check-module-times.sh).
# 2. lintian --fail-on error,warning; root:root and no world-writable file; no build path, home or
#    user name of the build machine in any file (strings).
# 3. For each suite, a clean Debian made by mmdebstrap from the host's Debian mirror (a tarball cached in
#    .build/deb-test, keyed by suite, mirror and package list): `apt-get install ./pwnvault_*.deb` pulls
#    every dependency from Debian; then, with no Swift toolchain, --version, init (passphrase file, no
#    keyring), add an e-mail and a phone number (libPwnVaultPhone.so from /usr/lib/pwnvault), check
#    --all against the fake HIBP on the host's 127.0.0.1 (chroot shares the network namespace), man,
#    Chinese help, bash completion; then `apt-get purge pwnvault` must leave none of its files.
# Needs root (chroot, mounts in a private mount namespace) and mmdebstrap, lintian (scripts/setup.sh).
# Prints "deb: N passed, M failed" last.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

prepare_only=false
if [ "${1:-}" = --prepare ]; then prepare_only=true; shift; fi
read -r -a suites <<< "${*:-${PWNVAULT_DEB_SUITES:-bookworm trixie}}"
# The Debian mirror the host's apt uses (the clean systems come from the same place).
host_mirror=$({ cat /etc/apt/sources.list.d/*.sources /etc/apt/sources.list 2>/dev/null || true; } \
  | sed -n -e 's|^URIs: *\(http[^ ]*/debian\)/*$|\1|p' -e 's|^deb  *\(http[^ ]*/debian\)/* .*|\1|p' | head -n 1)
mirror=${PWNVAULT_DEB_MIRROR:-${host_mirror:-http://deb.debian.org/debian}}
cache=$root/.build/deb-test
mkdir -p "$cache"
work=$(mktemp -d "${TMPDIR:-/tmp}/pwnvault-deb-test.XXXXXX")
chmod 755 "$work"
server_pid=""
cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

passed=0 failed=0
ok() { passed=$((passed + 1)); echo "deb: ok: $*" >&2; }
fail() { failed=$((failed + 1)); echo "deb: FAIL: $*" >&2; }
seconds() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(seconds)" 'BEGIN { printf "%.1f", b - a }'; }

# A clean Debian SUITE, as a tarball in the cache (made once by mmdebstrap: the file's name holds the
# suite, its sources and the package list, so changing any makes a new one). Prints the tarball's path.
# What the test needs in it beside Debian's apt variant (no more: the package must pull its own
# dependencies): man-db for `man`, locales with zh_CN.UTF-8, bash-completion.
include=man-db,locales,bash-completion
clean_system() {
  local suite=$1 sources key_text tarball t0 log
  case $suite in
    bookworm) sources=("deb $mirror bookworm main" "deb $mirror bookworm-updates main"
                       "deb ${mirror%/debian}/debian-security bookworm-security main") ;;
    *) sources=("deb $mirror $suite main") ;;
  esac
  key_text="$suite ${sources[*]} $include locale:zh_CN.UTF-8"
  tarball=$cache/$suite-$(sha256sum <<< "$key_text" | cut -c1-12).tar
  if [ ! -s "$tarball" ]; then
    t0=$(seconds) log=$(mktemp "$cache/mmdebstrap-$suite.XXXXXX.log")
    # In a mount namespace of its own: the mounts it makes in the new system go with it, even if it is killed.
    if ! unshare --mount --propagation private -- mmdebstrap --quiet --variant=apt --format=tar --include="$include" \
         --customize-hook='chroot "$1" localedef -i zh_CN -f UTF-8 zh_CN.UTF-8' \
         "$suite" "$tarball.$$.tmp" "${sources[@]}" >"$log" 2>&1; then
      cat "$log" >&2; rm -f "$log" "$tarball.$$.tmp"
      return 1
    fi
    rm -f "$log" "$cache/$suite"-*.tar
    mv "$tarball.$$.tmp" "$tarball"
    echo "deb: $suite: mmdebstrap made $(basename "$tarball") ($(du -m "$tarball" | cut -f1) MiB) in $(elapsed "$t0") s" >&2
  fi
  echo "$tarball"
}

if $prepare_only; then   # only the clean systems (scripts/test.sh makes them while Swift builds)
  for suite in "${suites[@]}"; do clean_system "$suite" >/dev/null || exit 1; done
  exit 0
fi

# --- 1. build, twice --------------------------------------------------------------------------------
t0=$(seconds)
make --no-print-directory deb 2>&1 | grep -v -- '-pthread' | tail -n 2 >&2
echo "deb: make deb took $(elapsed "$t0") s" >&2
version=$(dpkg-parsechangelog -l packaging/deb/changelog -S Version)
deb=$root/pwnvault_${version}_$(dpkg --print-architecture).deb
[ -f "$deb" ] || { echo "deb: error: make deb made no $deb" >&2; exit 1; }
mkdir -p "$work/second" "$work/tmp2"
bin=$root/.build/deb/release/pwnvault   # what make deb packaged (scripts/build-release-fixed.sh's scratch)
(umask 077 && TMPDIR="$work/tmp2" PWNVAULT_BIN="$bin" scripts/build-deb.sh "$work/second" >/dev/null)
sum1=$(sha256sum < "$deb" | cut -d' ' -f1)
sum2=$(sha256sum < "$work/second/$(basename "$deb")" | cut -d' ' -f1)
echo "deb: $(basename "$deb"): $(stat -c %s "$deb") bytes; sha256 $sum1 (first), $sum2 (second)" >&2
if [ "$sum1" = "$sum2" ]; then ok "two builds are byte-identical"
else
  fail "two builds differ"
  command -v diffoscope >/dev/null && diffoscope "$deb" "$work/second/$(basename "$deb")" | head -n 80 >&2 || true
fi
# Two checkouts (two release builds) are compared by hand (scripts/reprotest-deb.sh); here, in seconds,
# the one cause they differed by: the C modules' signatures followed the files' times (the build id).
if scripts/check-module-times.sh; then ok "the release build's clang modules do not depend on the files' times"
else fail "scripts/check-module-times.sh (its reason above)"; fi

# --- 2. lintian, owners and modes, no build machine in the files -------------------------------------
if lintian_out=$(lintian --fail-on error,warning "$deb" 2>&1 | grep -v 'running with root privileges'; exit "${PIPESTATUS[0]}")
then ok "lintian: ${lintian_out:-no tag}"
else fail "lintian: $lintian_out"; fi
listing=$(dpkg-deb --fsys-tarfile "$deb" | tar -tvf -)
if awk '$2 != "root/root" { bad = 1; print } END { exit bad }' <<< "$listing" >&2 \
   && ! awk '{ print $1 }' <<< "$listing" | grep -q '^.\{8\}w'; then ok "every file root:root, none world-writable"
else fail "owners or modes"; fi
mkdir "$work/unpacked"
dpkg-deb --extract "$deb" "$work/unpacked"
leaks=()
# (The Swift runtime's archives bring swift.org's own build paths, /home/build-user/…: not this machine's.)
# Also the fixed path that make deb compiles from (scripts/build-release-fixed.sh). Not the checkout's
# parent folder: for a clone in /tmp (as CI makes one) that is "/tmp", which the documents name on purpose.
for needle in "$root" "${HOME:-/root}/" "${PWNVAULT_FIXED_SRC:-/tmp/pwnvault-src}"; do
  [ "$needle" = "/" ] && continue
  hits=$(find "$work/unpacked" -type f -exec sh -c 'strings -a "$1" | grep -F -q -- "$2" && echo "$1"' _ {} "$needle" \;)
  [ -z "$hits" ] || leaks+=("$needle in: $hits")
done
user=${SUDO_USER:-$(id -un)}
if [ "$user" != root ]; then   # "root" is a word the manual and the code use
  hits=$(grep -rlw -- "$user" "$work/unpacked" || true)
  [ -z "$hits" ] || leaks+=("user $user in: $hits")
fi
if [ ${#leaks[@]} -eq 0 ]; then ok "no build path, home or user name in the package"
else fail "the build machine shows: ${leaks[*]}"; fi

# --- 3. installed in clean Debian systems ------------------------------------------------------------
# The fake HIBP server on the host's loopback, which the chroot shares.
key=11111111111111111111111111111111
python3 tools/fake-hibp/fake_hibp.py --port 0 --port-file "$work/port" --quiet --key "$key:600" &
server_pid=$!
for _ in $(seq 200); do [ -s "$work/port" ] && break; sleep 0.05; done
port=$(cat "$work/port")

# The test inside the chroot (bash, as root; HOME and the vault under /tmp, which the purge check skips).
cat > "$work/inside.sh" <<'INSIDE'
set -uo pipefail
export DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8 PATH=/usr/sbin:/usr/bin:/sbin:/bin
passed=0 failed=0
ok() { passed=$((passed + 1)); echo "deb[$SUITE]: ok: $*" >&2; }
fail() { failed=$((failed + 1)); echo "deb[$SUITE]: FAIL: $*" >&2; }
snapshot() {   # every file and link of the system, less state that apt and dpkg keep by themselves
  find / -xdev \( -path /proc -o -path /sys -o -path /dev -o -path /tmp -o -path /run -o -path /var/lib/apt \
    -o -path /var/cache -o -path /var/log -o -path /var/lib/dpkg \) -prune -o ! -type d -print | sort
}
apt-get update -qq >/dev/null 2>&1 || apt-get update
if command -v swift swiftc >/dev/null; then fail "a Swift toolchain is in the clean system"; fi
start=$(date +%s.%N)
if apt-get install -y -qq --no-install-recommends "/tmp/$DEB" > /tmp/apt.log 2>&1; then
  ok "apt-get install ./$DEB in $(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s ($(grep -c '^Setting up' /tmp/apt.log) packages set up)"
else
  cat /tmp/apt.log >&2; fail "apt-get install ./$DEB"; echo "deb[$SUITE]: $passed passed, $failed failed"; exit 1
fi
before_purge=$(snapshot)

out=$(pwnvault --version 2>&1) && [[ $out == *"$VERSION"* ]] && ok "pwnvault --version: $out" || fail "--version: $out"

export HOME=/tmp/home PWNVAULT_KEYRING=none PWNVAULT_VAULT=/tmp/home/vault
export PWNVAULT_API_URL="http://127.0.0.1:$PORT/api/v3" PWNVAULT_PASSWORDS_URL="http://127.0.0.1:$PORT"
mkdir -m 700 -p "$HOME"
head -c 24 /dev/urandom | base64 > "$HOME/passphrase"; chmod 600 "$HOME/passphrase"
out=$(PWNVAULT_PASSPHRASE_FILE=$HOME/passphrase pwnvault init 2>&1) && [ -f "$PWNVAULT_VAULT" ] \
  && ok "init with a passphrase file, no keyring" || fail "init: $out"
export PWNVAULT_PASSPHRASE_FILE=$HOME/passphrase HIBP_API_KEY=$KEY   # no keyring to keep the API key in
out=$(pwnvault add pwned.alice@example.com 2>&1) && ok "add an e-mail" || fail "add an e-mail: $out"
out=$(pwnvault add "+44 7700 900123" 2>&1) && ok "add a phone number (libPwnVaultPhone.so from /usr/lib/pwnvault)" \
  || fail "add a phone number: $out"
json=$(pwnvault list --json 2>&1)
grep -Eq '"kind" *: *"phone"' <<< "$json" && ok "list --json has the phone number" || fail "list --json: $json"
out=$(pwnvault check --all 2>&1); status=$?
[ $status -eq 1 ] && ok "check --all against the fake HIBP on 127.0.0.1:$PORT (exit 1: new findings)" \
  || fail "check --all exited $status: $out"

page=$(MANPAGER=cat MANWIDTH=80 man pwnvault 2>&1)
grep -q 'pwnvault' <<< "$page" && grep -q '^NAME' <<< "$page" && ok "man pwnvault renders" || fail "man pwnvault: ${page:0:300}"
page=$(LANG=zh_CN.UTF-8 LC_ALL= MANPAGER=cat MANWIDTH=80 man pwnvault 2>&1)
grep -q '名称' <<< "$page" && ok "man pwnvault in Chinese under zh_CN" || fail "zh_CN man page: ${page:0:300}"
help=$(LANG=zh_CN.UTF-8 LC_ALL= pwnvault --help 2>&1)
grep -q '用法' <<< "$help" && ok "LANG=zh_CN.UTF-8 pwnvault --help is Chinese" || fail "Chinese help: ${help:0:300}"
comp=$(bash -c '. /usr/share/bash-completion/bash_completion; _completion_loader pwnvault; complete -p pwnvault' 2>&1)
[[ $comp == complete* ]] && ok "bash-completion loads the completion: $comp" || fail "bash completion: $comp"

files=$(dpkg -L pwnvault | while read -r f; do [ -d "$f" ] || echo "$f"; done | sort)
apt-get purge -y -qq pwnvault > /tmp/purge.log 2>&1 || { cat /tmp/purge.log >&2; fail "apt-get purge pwnvault"; }
after_purge=$(snapshot)
gone=$(comm -23 <(echo "$before_purge") <(echo "$after_purge"))
came=$(comm -13 <(echo "$before_purge") <(echo "$after_purge"))
left=$(while read -r f; do [ -e "$f" ] || [ -L "$f" ] && echo "$f"; done <<< "$files")
# /var/cache/man: man-db's formatted copies of the page the test read (its cache, not the package's files).
named=$(find / -xdev \( -path /proc -o -path /sys -o -path /dev -o -path /tmp -o -path /var/log -o -path /var/cache/man \) -prune \
  -o -name '*pwnvault*' -print)
if [ "$gone" = "$files" ] && [ -z "$came" ] && [ -z "$left" ] && [ -z "$named" ] \
   && ! dpkg -S pwnvault >/dev/null 2>&1; then
  ok "apt-get purge pwnvault leaves none of its $(wc -l <<< "$files") files"
else
  fail "after purge: removed other than the package's files: $(diff <(echo "$files") <(echo "$gone") | head -n 20); new: $came; left: $left; named: $named"
fi
echo "deb[$SUITE]: $passed passed, $failed failed"
[ $failed -eq 0 ]
INSIDE

for suite in "${suites[@]}"; do
  tarball=$(clean_system "$suite") || { fail "$suite: mmdebstrap could not make a clean system"; continue; }
  t0=$(seconds)
  sysroot=$work/root-$suite
  mkdir "$sysroot"
  tar -C "$sysroot" -xf "$tarball"
  cp "$deb" "$sysroot/tmp/"
  cp /etc/resolv.conf "$sysroot/etc/resolv.conf" 2>/dev/null || true
  t1=$(seconds)
  # A private mount namespace: /proc and /dev vanish with it, whatever happens inside.
  if unshare --mount --propagation private -- sh -c '
       mount -t proc proc "$1/proc" && mount --bind /dev "$1/dev" && exec chroot "$1" /usr/bin/env -i \
         SUITE="$2" DEB="$3" VERSION="$4" PORT="$5" KEY="$6" /bin/bash /dev/stdin' _ \
       "$sysroot" "$suite" "$(basename "$deb")" "${version%-*}" "$port" "$key" < "$work/inside.sh" > "$work/inside-$suite.out"; then
    ok "$suite: $(tail -n 1 "$work/inside-$suite.out") ($(elapsed "$t1") s in the clean system)"
  else
    fail "$suite: $(tail -n 1 "$work/inside-$suite.out") ($(elapsed "$t1") s in the clean system)"
  fi
  rm -rf "$sysroot"
done

echo "deb: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
