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

echo "== swift test (inside a private keyring session)" >&2
exec Tests/Support/keyring-session.sh -- swift test --skip-build "$@"
