#!/usr/bin/env bash
# By hand (not in CI: two full release builds, 15-30 min each on a loaded 2-core machine): checks that
# `make deb` gives byte-identical packages from two checkouts of one commit in two different folders
# (different path lengths), with SOURCE_DATE_EPOCH from the commit. Runs diffoscope where they differ.
#   scripts/reprotest-deb.sh [COMMIT]     (default HEAD; committed work only: the checkouts are clones)
# WORK=dir keeps the checkouts there (default: a new folder under /var/tmp, removed on success).
# SEQUENTIAL=1 builds one after the other (default: both at once, each under nice).
# Exit status 0: identical; 1: they differ (diffoscope's report in WORK/diffoscope.txt).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
commit=$(git rev-parse "${1:-HEAD}")
work=${WORK:-$(mktemp -d /var/tmp/pwnvault-reprotest.XXXXXX)}
mkdir -p "$work"
a=$work/a
b=$work/second-checkout-in-a-longer-folder
for d in "$a" "$b"; do
  if [ -d "$d/.git" ]; then git -C "$d" fetch --quiet "$root" '+refs/heads/*:refs/remotes/checkout/*'
  else git clone --quiet --no-checkout "$root" "$d"; fi
  git -C "$d" checkout --quiet --detach "$commit"
done
# The second checkout's files get another modification time (2001-09-09), as reprotest varies the
# time: two clones made within one second would otherwise hide a dependence on the files' times
# (the clang modules' signatures had one, through the build id).
git -C "$b" ls-files -z | (cd "$b" && xargs -0 touch --no-dereference --date=@1000000000)

build() {  # $1: checkout; log in $1.log, seconds in $1.time
  local s=$(date +%s)
  (cd "$1" && nice make --no-print-directory deb) >"$1.log" 2>&1 || { echo "reprotest: make deb failed in $1 (see $1.log)" >&2; return 1; }
  echo $(( $(date +%s) - s )) > "$1.time"
}
if [ -n "${SEQUENTIAL:-}" ]; then build "$a"; build "$b"
else
  build "$a" & pa=$!
  build "$b" & pb=$!
  wait "$pa"; wait "$pb"
fi

version=$(dpkg-parsechangelog -l packaging/deb/changelog -S Version)
name=pwnvault_${version}_$(dpkg --print-architecture).deb
sa=$(sha256sum < "$a/$name" | cut -d' ' -f1)
sb=$(sha256sum < "$b/$name" | cut -d' ' -f1)
echo "reprotest: commit $commit, SOURCE_DATE_EPOCH $(git log -1 --format=%ct "$commit")"
echo "reprotest: $a: make deb $(cat "$a.time") s, sha256 $sa"
echo "reprotest: $b: make deb $(cat "$b.time") s, sha256 $sb"
if [ "$sa" = "$sb" ]; then
  echo "reprotest: identical ($(stat -c %s "$a/$name") bytes)"
  [ -n "${WORK:-}" ] || rm -rf "$work"
  exit 0
fi
echo "reprotest: DIFFERENT" >&2
if command -v diffoscope >/dev/null; then
  diffoscope "$a/$name" "$b/$name" > "$work/diffoscope.txt" 2>&1 || true
  head -n 60 "$work/diffoscope.txt" >&2
  echo "reprotest: full report: $work/diffoscope.txt" >&2
else
  echo "reprotest: install diffoscope to see where" >&2
fi
exit 1
