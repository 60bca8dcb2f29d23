#!/usr/bin/env bash
# The README's demo command: a throw-away vault in a private keyring session; init, add, list
# (masked on this terminal, redacted through a pipe), status. Leaves nothing behind.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
swift build -c release 2>&1 | grep -v -- '-pthread' | tail -n 1 >&2
bin="$(swift build -c release --show-bin-path)/pwnvault"

demo_dir=$(mktemp -d)
trap 'rm -rf "$demo_dir"' EXIT
chmod 700 "$demo_dir"
umask 077
# The demo's passphrase: random, in a 0600 file, never on a command line.
head -c 24 /dev/urandom | base64 > "$demo_dir/passphrase"

export PWNVAULT_BIN="$bin" DEMO_DIR="$demo_dir"
exec Tests/Support/keyring-session.sh -- bash -c '
  set -euo pipefail
  export PWNVAULT_VAULT="$DEMO_DIR/vault" PWNVAULT_PASSPHRASE_FILE="$DEMO_DIR/passphrase"
  pv() { echo; printf "\033[1m$ pwnvault %s\033[0m\n" "$*"; "$PWNVAULT_BIN" "$@"; }
  pv init
  unset PWNVAULT_PASSPHRASE_FILE   # from now on the keyring opens the vault
  pv add alice@example.com bob.smith@mail.example.co.uk --label "Bob (work)"
  printf "%s\n" "carol_1987" "+44 7700 900123" | { echo; printf "\033[1m$ printf ... | pwnvault add -\033[0m\n"; "$PWNVAULT_BIN" add -; }
  pv list
  echo; printf "\033[1m$ pwnvault list | cat      # piped: no character of any account\033[0m\n"
  "$PWNVAULT_BIN" list | cat
  pv status
'
