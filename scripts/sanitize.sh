#!/usr/bin/env bash
# Runs the whole XCTest suite (unit and end-to-end) under sanitizers, inside the private keyring session:
#
#   scripts/sanitize.sh [address|thread|all] [swift test args...]     default: all, one after the other
#   scripts/sanitize.sh thread --filter 'VaultEndToEndTests|SecretServiceKeyringTests'   some suites only
#
#   address  AddressSanitizer with UndefinedBehaviorSanitizer (UBSan instruments the C shim; Swift's own
#            overflow and bounds checks are always on) and LeakSanitizer at exit of every process the
#            tests start. Build in .build/asan.
#   thread   ThreadSanitizer. Build in .build/tsan.
#
# The arguments after the kind go to `swift test` as they are, so --filter (a regular expression over
# Suite or Suite.testName, as in `swift test --filter`) restricts the run; the build is always the whole
# package and its tests (incremental after the first).
#
# The end-to-end tests run the instrumented pwnvault binary, so it is checked too. A sanitizer report
# in any process fails the run: every report goes to a log under .build/<kind>/reports/ and the
# script exits 1 when one exists. Slow (a clean build per sanitizer and a slower suite): a script
# people run before a release, not part of CI.
set -euo pipefail
cd "$(dirname "$0")/.."
which=${1:-all}; [ $# -gt 0 ] && shift
case "$which" in address|thread) kinds=$which ;; all) kinds="address thread" ;;
  *) echo "usage: scripts/sanitize.sh [address|thread|all] [swift test args...]" >&2; exit 2 ;; esac

scripts/setup.sh >/dev/null
root=$PWD
# The instrumented pwnvault keeps the Swift runtime as shared libraries (Package.swift links it in
# otherwise): linked in, its `--exclude-libs ALL` hides the sanitizer's malloc/free from libc and
# libstdc++, and ThreadSanitizer aborted on the first free of their memory. StartupEndToEndTests reads
# the same variable and checks what a shared-runtime binary must not map.
export PWNVAULT_SHARED_SWIFT_RUNTIME=1
status=0
for kind in $kinds; do
  case $kind in
    address) dir=.build/asan; flags=(--sanitize address -Xcc -fsanitize=undefined -Xcc -fno-sanitize-recover=undefined) ;;
    thread)  dir=.build/tsan; flags=(--sanitize thread) ;;
  esac
  reports=$root/$dir/reports
  rm -rf "$reports"; mkdir -p "$reports"
  echo "== sanitize: $kind: build" >&2
  swift build --build-tests --build-path "$dir" "${flags[@]}" 2>&1 | grep -v -- '-pthread' | tail -n 3
  # log_path: one file per process (the tests run pwnvault many times); halt on the first UB report.
  # The Swift backtracer is off: it reads memory the sanitizers do not expect it to.
  export SWIFT_BACKTRACE=enable=no
  # Every process that inherits these (the test binary, its child probes, and the pwnvault binary the
  # end-to-end tests run: Tests/EndToEndTests/Support/Sandbox.swift passes them on) writes its reports
  # to $reports/report.PID instead of stderr, so a report fails this script, not an unrelated assertion
  # about stderr.
  # The toolchain's llvm-symbolizer: Debian's (first on PATH) links libxml2 and so ICU, and a test that
  # checks with LD_DEBUG that `list` never loads ICU would see the symbolizer's libraries.
  symbolizer=$(dirname "$(command -v swift)")/llvm-symbolizer
  common="external_symbolizer_path=$symbolizer"
  export ASAN_OPTIONS="$common:log_path=$reports/report:detect_leaks=1:abort_on_error=0"
  export LSAN_OPTIONS="suppressions=$root/scripts/sanitize-lsan.supp:print_suppressions=0"
  export UBSAN_OPTIONS="$common:log_path=$reports/report:print_stacktrace=1:halt_on_error=1"
  export TSAN_OPTIONS="$common:log_path=$reports/report:suppressions=$root/scripts/sanitize-tsan.supp:halt_on_error=0"
  echo "== sanitize: $kind: swift test" >&2
  log=$root/$dir/test.log
  set +e
  Tests/Support/keyring-session.sh -- swift test --skip-build --build-path "$dir" "${flags[@]}" --disable-swift-testing "$@" >"$log" 2>&1
  rc=$?
  set -e
  grep -E "^[[:space:]]*Executed [0-9]+ tests?, with" "$log" | tail -n 1 || true
  grep -E "error:|failed \(" "$log" | head -n 20 || true
  found=$(ls "$reports" | wc -l)
  echo "sanitize: $kind: swift test exit $rc; $found sanitizer report(s) in $reports" >&2
  if [ "$rc" -ne 0 ] || [ "$found" -ne 0 ]; then status=1; fi
done
exit $status
