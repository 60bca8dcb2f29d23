#!/usr/bin/env bash
# The README's test command: installs what is missing, then runs every test inside a private,
# headless keyring session (a real gnome-keyring-daemon on a private D-Bus bus).
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup.sh

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

# With arguments (swift test's own, e.g. --filter 'CheckEndToEndTests'), or PWNVAULT_TEST_WORKERS=1:
# one `swift test` inside one private keyring session, serially, as before. Otherwise the tests run
# in parallel, each worker inside a private keyring session of its own (Tests/Support/run-tests.py).
# Either way the last line is "xctest: N passed, M failed, K skipped".
if [ $# -eq 0 ] && [ "${PWNVAULT_TEST_WORKERS:-4}" != 1 ]; then
  echo "== XCTest in parallel (${PWNVAULT_TEST_WORKERS:-4} workers, each in a private keyring session)" >&2
  bin=$(swift build --show-bin-path)
  exec python3 Tests/Support/run-tests.py "$bin/pwnvaultPackageTests.xctest"
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
exit "$status"
