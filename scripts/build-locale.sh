#!/usr/bin/env bash
# Compiles the message catalogs po/LANG.po into DEST/LANG/LC_MESSAGES/pwnvault.mo (default DEST: .build/locale,
# where a binary in .build/debug or .build/release finds them). `make install` compiles them into PREFIX/share/locale itself, readable by all.
set -euo pipefail
cd "$(dirname "$0")/.."
dest=${1:-.build/locale}
for po in po/*.po; do
  lang=$(basename "$po" .po)
  mkdir -p "$dest/$lang/LC_MESSAGES"
  msgfmt --check -o "$dest/$lang/LC_MESSAGES/pwnvault.mo" "$po"
done
