#!/usr/bin/env bash
# Regenerates the manual page Docs/pwnvault.1 from the built binary (`pwnvault help man`, built from
# the same specs as the help texts), so the two cannot drift (a test compares them).
# Usage: scripts/gen-man.sh [path/to/pwnvault]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-$(swift build --show-bin-path)/pwnvault}
"$bin" help man > Docs/pwnvault.1.new
mv Docs/pwnvault.1.new Docs/pwnvault.1
