#!/usr/bin/env bash
# Runs the benchmarks against a release build, inside a private keyring session.
#   bench/run.sh vault     list/add timings and memory on 10 to 10,000 accounts
#   bench/run.sh check     check --all against the fake HIBP server: wall time, requests, 429s, efficiency
#   bench/run.sh pacing    check --all against a strict limiter, 10 runs each (429s, efficiency); one account --pastes next to curl
#   bench/run.sh startup   start-up wall time and memory next to the floors (hello-worlds, secret-tool lookup)
#   bench/run.sh passwords offline Pwned Passwords lookups per second on a generated 1 GiB file, next to look
#   bench/run.sh ui        ui key-to-redraw latency on 10,000 accounts and an 834-breach catalog
#   bench/run.sh monitor   a month of daily watch on 1,000 accounts: API requests against a naive daily check
#   bench/run.sh keyring   list through GNOME Keyring, KeePassXC, KWallet and a hung provider, next to secret-tool lookup
#   bench/run.sh import    import of 10,000 named contacts (labels screened), without names, and Python's vobject parsing them
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
swift build -c release 2>&1 | grep -v -- '-pthread' | tail -n 1 >&2
export PWNVAULT_BIN="$(swift build -c release --show-bin-path)/pwnvault"
what=${1:-vault}
case "$what" in
  vault) exec Tests/Support/keyring-session.sh -- python3 bench/vault_bench.py ;;
  startup) exec Tests/Support/keyring-session.sh -- python3 bench/startup_bench.py ;;
  check) exec Tests/Support/keyring-session.sh -- python3 bench/check_bench.py ;;
  pacing) exec Tests/Support/keyring-session.sh -- python3 bench/pacing_bench.py ;;
  passwords) PWNVAULT_KEYRING=none exec python3 bench/passwords_bench.py ;;
  ui) exec python3 bench/ui_bench.py ;;
  keyring) exec python3 bench/keyring_bench.py ;;
  import)
    /usr/bin/python3 -c 'import vobject' 2>/dev/null || echo "bench/run.sh: python3-vobject is not installed; the vobject floor is left out" >&2
    exec Tests/Support/keyring-session.sh -- python3 bench/import_bench.py ;;
  monitor)
    # The same release build with a calendar clock the benchmark can move by whole days (main.swift).
    swift build -c release --build-path .build/bench -Xswiftc -DPWNVAULT_BENCH_CLOCK 2>&1 | grep -v -- '-pthread' | tail -n 1 >&2
    PWNVAULT_BIN="$(swift build -c release --build-path .build/bench --show-bin-path)/pwnvault" \
      exec Tests/Support/keyring-session.sh -- python3 bench/monitor_bench.py ;;
  *) echo "bench/run.sh: unknown benchmark '$what' (vault, startup, check, pacing, passwords, ui, monitor, keyring, import)" >&2; exit 2 ;;
esac
