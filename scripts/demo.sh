#!/usr/bin/env bash
# The README's demo command: the main job on a throw-away vault, against the fake HIBP server on
# loopback, inside a private keyring session. Leaves nothing behind.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --demo   # the build's and the demo's packages only (the tests' stay with scripts/test.sh)
# Silent for minutes on a first build (the compiler prints only at the end): say so before, and how long it took.
echo "demo: building pwnvault (swift build -c release: a few minutes the first time, seconds afterwards)" >&2
build_start=$SECONDS
swift build -c release 2>&1 | grep -v -- '-pthread' | tail -n 1 >&2
echo "demo: built in $((SECONDS - build_start)) s" >&2
scripts/build-locale.sh   # messages in the reader's language where a catalog exists (po/)
bin="$(swift build -c release --show-bin-path)/pwnvault"

demo_dir=$(mktemp -d)
chmod 700 "$demo_dir"
umask 077
server_pid=""
cleanup() { [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null; rm -rf "$demo_dir"; }
trap cleanup EXIT

# A fake HIBP on 127.0.0.1 that answers like the real one (tools/fake-hibp), with a 600-per-minute key.
key=11111111111111111111111111111111
python3 tools/fake-hibp/fake_hibp.py --port 0 --port-file "$demo_dir/port" --quiet --key "$key:600" &
server_pid=$!
for _ in $(seq 100); do [ -s "$demo_dir/port" ] && break; sleep 0.05; done
# The demo's passphrase: random, in a 0600 file, never on a command line.
head -c 24 /dev/urandom | base64 > "$demo_dir/passphrase"

export PWNVAULT_BIN="$bin" DEMO_DIR="$demo_dir" DEMO_KEY="$key"
export PWNVAULT_API_URL="http://127.0.0.1:$(cat "$demo_dir/port")/api/v3"
# init checks the new passphrase against Pwned Passwords: the fake's /range answers, nothing leaves.
export PWNVAULT_PASSWORDS_URL="http://127.0.0.1:$(cat "$demo_dir/port")"
# Not exec: the trap above must still stop the server and remove the folder afterwards.
Tests/Support/keyring-session.sh -- bash -c '
  set -uo pipefail
  export PWNVAULT_VAULT="$DEMO_DIR/vault" PWNVAULT_PASSPHRASE_FILE="$DEMO_DIR/passphrase"
  # One flow, no stop: on a terminal of 24 rows show would open less mid-demo and wait for q unannounced.
  export PAGER=cat
  say() { echo; printf "\033[1m$ %s\033[0m\n" "$*"; }
  pv() { say "pwnvault $*"; "$PWNVAULT_BIN" "$@"; }
  pv init
  unset PWNVAULT_PASSPHRASE_FILE          # from now on the keyring opens the vault
  printf "%s\n" "$DEMO_KEY" | { say "printf KEY | pwnvault config api-key"; "$PWNVAULT_BIN" config api-key; }
  pv add alice@example.com --label "Me"   # not the first part of the address: add would warn that it gives it away
  pv add pwned.bob@example.org --label "Dad"
  printf "%s\n" "clean.carol@example.net" "pwned_dave" "+44 7700 900123" | { say "printf ... | pwnvault add -"; "$PWNVAULT_BIN" add -; }
  pv check --all;  echo "(exit status $?: 1 means something is new or not yet acknowledged)"
  pv list
  say "pwnvault list | cat      # piped: not one character of any account"
  "$PWNVAULT_BIN" list | cat
  pv show "#2"
  pv breach Adobe
  pv ack --all --yes   # on a terminal, --all asks first
  pv watch;        echo "(exit status $?: nothing new, so nothing printed: what a daily timer wants)"
  pv status
'
