#!/usr/bin/env bash
# The README's test command: installs what is missing, then runs every test inside a private,
# headless keyring session (a real gnome-keyring-daemon on a private D-Bus bus).
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup.sh

# The clean Debian systems for the package's test (mmdebstrap: mostly downloading and unpacking) are made
# while Swift builds, once; they are cached in .build/deb-test.
deb_test=false
if [ $# -eq 0 ] && [ "${PWNVAULT_TEST_DEB:-1}" != 0 ]; then
  deb_test=true
  mkdir -p .build
  scripts/test-deb.sh --prepare > .build/deb-prepare.log 2>&1 &
  deb_prepare=$!
fi

echo "== fake HIBP server tests" >&2
if [ -d tools/fake-hibp ]; then
  python3 -m unittest discover -s tools/fake-hibp -p 'test_*.py'
fi

echo "== swift build" >&2
swift build --build-tests 2>&1 | grep -v -- '-pthread' | tail -n 3
scripts/build-locale.sh   # the message catalogs, where the built binary finds them (.build/locale)

# The libFuzzer targets (Fuzz/Targets), built instrumented (-Onone: minutes less than a campaign's -O
# build, the same coverage and AddressSanitizer), replay every committed corpus input (Fuzz/corpus):
# a target that no longer builds, or an input that crashes or breaks an invariant, fails the run.
# Without arguments (the whole suite) or with PWNVAULT_TEST_FUZZ=1; PWNVAULT_TEST_FUZZ=0 skips it.
if [ "${PWNVAULT_TEST_FUZZ:-$([ $# -eq 0 ] && echo 1 || echo 0)}" = 1 ]; then
  echo "== fuzz targets: build and replay the committed corpora (scripts/fuzz.sh --replay all)" >&2
  scripts/fuzz.sh --replay all
fi

# The Debian package (make deb), installed and used in clean Debian 12 and 13 systems
# (scripts/test-deb.sh, Docs/TESTING.md). Not with arguments (a part of the XCTest suite), nor with
# PWNVAULT_TEST_DEB=0.
# A failure there fails the run, after XCTest has run too.
deb_status=0
if $deb_test; then
  echo "== the Debian package (scripts/test-deb.sh)" >&2
  deb_start=$(date +%s)
  wait "$deb_prepare" || { cat .build/deb-prepare.log >&2; deb_status=1; }
  [ $deb_status -ne 0 ] || scripts/test-deb.sh || deb_status=$?
  echo "== the Debian package: $(( $(date +%s) - deb_start )) s" >&2
fi

# With arguments (swift test's own, e.g. --filter 'CheckEndToEndTests'), or PWNVAULT_TEST_WORKERS=1:
# one `swift test` inside one private keyring session, serially, as before. Otherwise the tests run
# in parallel, each worker inside a private keyring session of its own (Tests/Support/run-tests.py).
# Either way the last line is "xctest: N passed, M failed, K skipped".
if [ $# -eq 0 ] && [ "${PWNVAULT_TEST_WORKERS:-4}" != 1 ]; then
  echo "== XCTest in parallel (${PWNVAULT_TEST_WORKERS:-4} workers, each in a private keyring session)" >&2
  bin=$(swift build --show-bin-path)
  if [ $deb_status -eq 0 ]; then exec python3 Tests/Support/run-tests.py "$bin/pwnvaultPackageTests.xctest"; fi
  python3 Tests/Support/run-tests.py "$bin/pwnvaultPackageTests.xctest" || true
  echo "test: the Debian package's test failed (above)" >&2
  exit 1
fi

echo "== swift test (inside a private keyring session)" >&2
# The suite is XCTest only; --disable-swift-testing keeps Swift Testing's empty run from having the
# last word. The closing line sums up what XCTest reported.
log=$(mktemp)
trap 'rm -f "$log"' EXIT
set +e
Tests/Support/keyring-session.sh -- swift test --skip-build --disable-swift-testing "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
set -e
summary=$(grep -E "^[[:space:]]*Executed [0-9]+ tests?, with" "$log" | tail -n 1)
if [[ $summary =~ Executed\ ([0-9]+)\ tests?,\ with\ (([0-9]+)\ tests?\ skipped\ and\ )?([0-9]+)\ failures? ]]; then
  total=${BASH_REMATCH[1]} skipped=${BASH_REMATCH[3]:-0} failed=${BASH_REMATCH[4]}
  echo "xctest: $((total - skipped - failed)) passed, $failed failed, $skipped skipped"
fi
[ $deb_status -eq 0 ] || { echo "test: the Debian package's test failed (above)" >&2; status=1; }
exit "$status"
