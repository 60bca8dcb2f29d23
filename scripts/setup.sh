#!/usr/bin/env bash
# Installs what pwnvault needs on Debian/Ubuntu, once. Safe to run again.
#   scripts/setup.sh --demo    what building pwnvault and running scripts/demo.sh need, nothing more
#   scripts/setup.sh           that and what the tests run (scripts/test.sh)
set -euo pipefail

# The build, the message catalogs, the demo's private keyring session (gnome-keyring on dbus, gdbus,
# secret-tool) and its fake HIBP server (python3).
demo_packages=(libsodium-dev libsecret-1-dev libicu-dev libphonenumber-dev libzxcvbn-dev libcurl4 libpsl-dev publicsuffix libglib2.0-dev pkg-config
               gnome-keyring libsecret-tools dbus libglib2.0-bin python3 gettext)
test_packages=(tmux screen python3-gi systemd bsdextrautils strace   # screen: the altscreen tests; strace: a kill mid-save
          groff-base man-db zsh fish make   # the man page and completion tests, make install
          locales   # localedef makes zh_CN.UTF-8 for the tests (msgfmt, in gettext, compiles the message catalogs)
          keepassxc libkf5wallet-bin libqca-qt5-2-plugins xvfb xdotool x11-utils
          dpkg-dev binutils mmdebstrap lintian diffoscope-minimal)   # make deb and scripts/test-deb.sh
# dpkg-dev: dpkg-shlibdeps and dpkg-parsechangelog for the package's Depends and Version; binutils: strip,
# and strings for the no-build-path check; mmdebstrap: the clean Debian 12 and 13 systems the package is
# installed in; lintian: the package's checks; diffoscope-minimal: says why two builds differ, if they do.
packages=("${demo_packages[@]}")
[ "${1:-}" = "--demo" ] || packages+=("${test_packages[@]}")
# keepassxc, libkf5wallet-bin (kwalletd5), libqca-qt5-2-plugins (without it every KWallet call fails with
# "createDLGroup failed"): the other Secret Service providers the keyring tests run for real, each on a
# private bus (Tests/Support/provider-session.py); xvfb gives them a display, xdotool answers KeePassXC's
# dialogs as a person would, x11-utils' xprop counts the dialogs left on screen.
# libglib2.0-dev: GIO's GDBus, for desktop notifications (libsecret pulls it in too; named because it is used directly).
# libglib2.0-bin: gdbus, which the keyring session and the notification tests call.
# python3-gi: the recording notification server of the tests (Tests/Support/notification-server.py, run by /usr/bin/python3).
# systemd: systemd-analyze, which checks the units `schedule enable` writes (no running systemd is needed).
# strace: kills a save with SIGKILL at an exact system call (its -e inject), to test what the next save cleans up.
# libcurl4: HTTP, loaded (dlopen libcurl.so.4) at the first request; no -dev package is needed.
# No package for character sets: import decodes vCard CHARSETs (Windows-125x, ISO-8859-x, KOI8, Shift_JIS,
# EUC-JP, ISO-2022-JP, GB*, Big5, EUC-KR, UTF-16/32) through glibc's iconv, whose gconv modules
# (/usr/lib/<arch>/gconv) Debian ships in libc6 itself (checked with `iconv -l` and `dpkg -S`).
# libphonenumber-dev: headers and link for the shim libPwnVaultPhone.so (phone numbers to E.164), which pwnvault
#   dlopens at the first phone number; a machine that only runs pwnvault needs libphonenumber8.
# libzxcvbn-dev: zxcvbn's C port (what KeePassXC uses), which init and passwd load (dlopen libzxcvbn.so.0) to
#   estimate a new passphrase's strength; its header documents ZxcvbnMatch. Running pwnvault needs libzxcvbn0.
# libicu-dev: its libicui18n.so link names the libicuNN that `add` loads (dlopen) for look-alike checks.
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}" >&2
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if ! command -v swift >/dev/null 2>&1; then
  echo "setup: error: the Swift toolchain (6.0 or later) is not on PATH" >&2
  echo "setup: hint: install it from swift.org (Debian 12 and Ubuntu have no swift package), then run this again" >&2
  exit 1
fi
