#!/usr/bin/env bash
# Regenerates the manual pages from the built binary (`pwnvault help man`, built from the same specs as
# the help texts), so they cannot drift (a test compares them): Docs/pwnvault.1 in English, and
# Docs/LANG/pwnvault.1 for every catalog po/LANG.po, from the same specs through that catalog.
# Usage: scripts/gen-man.sh [path/to/pwnvault]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-$(swift build --show-bin-path)/pwnvault}
LC_ALL=C LANGUAGE= "$bin" help man > Docs/pwnvault.1.new
mv Docs/pwnvault.1.new Docs/pwnvault.1
catalogs=$(mktemp -d)
trap 'rm -rf "$catalogs"' EXIT
scripts/build-locale.sh "$catalogs"
for po in po/*.po; do
  lang=$(basename "$po" .po)
  mkdir -p "Docs/$lang"
  # LANGUAGE chooses the catalog; C.UTF-8 (built into glibc) is a locale gettext does not ignore it under.
  LC_ALL=C.UTF-8 LANGUAGE="$lang" TEXTDOMAINDIR="$catalogs" "$bin" help man > "Docs/$lang/pwnvault.1.new"
  mv "Docs/$lang/pwnvault.1.new" "Docs/$lang/pwnvault.1"
done
