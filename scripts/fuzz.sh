#!/usr/bin/env bash
# Builds the libFuzzer targets in Fuzz/Targets and runs one or all of them.
#
#   scripts/fuzz.sh [TARGET|all] [SECONDS]     run TARGET (default: all, one after another) for SECONDS
#                                              each (default 60), from Fuzz/corpus/TARGET and
#                                              Fuzz/dict/TARGET.dict
#   scripts/fuzz.sh --replay [TARGET|all]      run every committed corpus input once (regressions;
#                                              scripts/test.sh runs it: a target that stops building
#                                              or an input that crashes fails the test run)
#   scripts/fuzz.sh --build [TARGET|all]       build only
#   scripts/fuzz.sh --list                     the targets
#
# The product build is untouched: the sources are compiled here by swiftc, with coverage and
# AddressSanitizer (`-sanitize=fuzzer,address`), into Fuzz/.build (git-ignored). PwnVaultCore (and
# PwnVaultCLI, for the argument reader) become instrumented static libraries built with
# -enable-testing, so each target is one small file that `@testable import`s them.
#
# Campaigns run at `nice -n 19`, one job: the machine is shared. New inputs go to
# Fuzz/.build/corpus/TARGET; crashes, hangs, leaks and broken invariants to
# Fuzz/.build/artifacts/TARGET-*. Environment: FUZZ_ARGS adds libFuzzer flags (e.g. -runs=1000000);
# FUZZ_OPT is the optimisation of the instrumented build: -O for campaigns (the default; the library
# takes minutes to build), -Onone for --replay (the default there: the same instrumentation, a build
# several times faster, into Fuzz/.build/onone).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
build=$root/Fuzz/.build
targets=$(cd Fuzz/Targets && ls *.swift | sed 's/\.swift$//')

mode=run
case "${1:-}" in
  --replay) mode=replay; shift ;;
  --build) mode=build; shift ;;
  --list) echo "$targets"; exit 0 ;;
  -h|--help) sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
esac
which=${1:-all}
seconds=${2:-60}
if [ "$which" = all ]; then selected=$targets
elif [ -f "Fuzz/Targets/$which.swift" ]; then selected=$which
else echo "fuzz.sh: no target '$which' (scripts/fuzz.sh --list)" >&2; exit 2; fi

# The Swift runtime's crash backtracer reads memory ASan does not expect it to: leave crashes to ASan.
export SWIFT_BACKTRACE=enable=no
opt=${FUZZ_OPT:-$([ "$mode" = replay ] && echo -Onone || echo -O)}
case "$opt" in -O) obj=$build ;; -Onone) obj=$build/onone ;; *) echo "fuzz.sh: FUZZ_OPT is -O or -Onone" >&2; exit 2 ;; esac
mkdir -p "$obj/bin" "$build/corpus" "$build/artifacts"
swiftflags=(-use-ld=lld -parse-as-library -swift-version 5 "$opt" -wmo -g -sanitize=fuzzer,address)   # one object per module: a static archive of per-file objects loses hidden specializations
cflags=$(pkg-config --cflags libsecret-1 gio-2.0 libpsl | sed 's/-pthread//g')
libs=$(pkg-config --libs libsecret-1 gio-2.0 libpsl | sed 's/-pthread//g')
# The system-library module map (libsodium) as Package.swift declares it.
sysmods=(-I Sources/CSodium)
# The C shims: each compiled with ASan, each given a module map in the build folder. (GLib is loaded
# by pwv_dl at run time in the product; linked here as well, which changes nothing for the fuzzers.)
shims=(CSecretShim/pwv_secret CNotifyShim/pwv_notify CGLibDeadline/pwv_deadline CGLibDeadline/pwv_dl CHTTPShim/pwv_http CSpawnShim/pwv_spawn CIconvShim/pwv_iconv CIntlShim/pwv_intl)

# newer OUT SOURCES...: true when OUT is missing or older than any source.
newer() { local out=$1; shift; [ ! -e "$out" ] || [ -n "$(find "$@" -newer "$out" -print -quit)" ]; }

build_libraries() {
  local need_cli=$1
  # The module map is written last, so a shim that fails to compile is compiled again next time. Every
  # shim PwnVaultCore imports must be listed in `shims` (a missing one: "no such module 'C…Shim'"); one
  # added to the list is built even when its sources are older than the map.
  local shimdirs=() shim stale=no
  for shim in "${shims[@]}"; do
    shimdirs+=("Sources/${shim%%/*}")
    [ "${shim%%/*}" = CGLibDeadline ] || grep -qs "^module ${shim%%/*} " "$obj/module.modulemap" || stale=yes
  done
  if [ "$stale" = yes ] || newer "$obj/module.modulemap" "${shimdirs[@]}"; then
    echo "== fuzz: C shims" >&2
    rm -f "$obj/module.modulemap"
    local map=""
    for shim in "${shims[@]}"; do
      local dir=${shim%%/*} name=${shim##*/}
      clang -O1 -g -fsanitize=fuzzer-no-link,address -c $cflags -I "Sources/$dir/include" -I Sources/CGLibDeadline/include \
        "Sources/$dir/$name.c" -o "$obj/$name.o"
      [ "$dir" = CGLibDeadline ] || map+=$(printf 'module %s {\n    header "%s"\n    export *\n}\n' "$dir" "$root/Sources/$dir/include/$name.h")$'\n'
    done
    printf '%s' "$map" > "$obj/module.modulemap"
  fi
  if newer "$obj/libPwnVaultCore.a" Sources/PwnVaultCore Sources/CSodium "${shimdirs[@]}"; then
    echo "== fuzz: PwnVaultCore (instrumented; about 2 minutes)" >&2
    rm -f "$obj/libPwnVaultCore.a"   # an archive is added to, not replaced: objects of deleted files would stay
    nice -n 19 swiftc "${swiftflags[@]}" -enable-testing -module-name PwnVaultCore \
      "${sysmods[@]}" -I "$obj" $(printf -- '-Xcc %s ' $cflags) \
      -emit-module -emit-module-path "$obj/PwnVaultCore.swiftmodule" -emit-library -static \
      -o "$obj/libPwnVaultCore.a" $(find Sources/PwnVaultCore -name '*.swift' | sort) 2>&1 \
      | grep -E 'error' >&2 || true
    [ -e "$obj/libPwnVaultCore.a" ] && [ -z "$(find Sources/PwnVaultCore -newer "$obj/libPwnVaultCore.a" -print -quit)" ] \
      || { echo "fuzz.sh: PwnVaultCore does not build (instrumented)" >&2; exit 1; }
  fi
  if [ "$need_cli" = yes ] && newer "$obj/libPwnVaultCLI.a" Sources/PwnVaultCLI "$obj/libPwnVaultCore.a"; then
    echo "== fuzz: PwnVaultCLI (instrumented)" >&2
    rm -f "$obj/libPwnVaultCLI.a"
    nice -n 19 swiftc "${swiftflags[@]}" -enable-testing -module-name PwnVaultCLI -I "$obj" "${sysmods[@]}" $(printf -- '-Xcc %s ' $cflags) \
      -emit-module -emit-module-path "$obj/PwnVaultCLI.swiftmodule" -emit-library -static \
      -o "$obj/libPwnVaultCLI.a" $(find Sources/PwnVaultCLI -name '*.swift' | sort) 2>&1 \
      | grep -E 'error' >&2 || true
    [ -e "$obj/libPwnVaultCLI.a" ] || { echo "fuzz.sh: PwnVaultCLI does not build (instrumented)" >&2; exit 1; }
  fi
}

build_target() {
  local t=$1 archives=("$obj/libPwnVaultCore.a")
  if grep -q 'import PwnVaultCLI' "Fuzz/Targets/$t.swift"; then archives=("$obj/libPwnVaultCLI.a" "${archives[@]}"); fi
  if newer "$obj/bin/$t" "Fuzz/Targets/$t.swift" Fuzz/Support "${archives[@]}"; then
    echo "== fuzz: build $t" >&2
    nice -n 19 swiftc "${swiftflags[@]}" -module-name "Fuzz_${t//-/_}" -I "$obj" "${sysmods[@]}" $(printf -- '-Xcc %s ' $cflags) \
      Fuzz/Support/*.swift "Fuzz/Targets/$t.swift" "${archives[@]}" "$obj"/pwv_*.o \
      -lsodium $libs -ldl -o "$obj/bin/$t"
  fi
}

need_cli=no
for t in $selected; do grep -q 'import PwnVaultCLI' "Fuzz/Targets/$t.swift" && need_cli=yes; done
build_libraries "$need_cli"
for t in $selected; do build_target "$t"; done
[ "$mode" = build ] && exit 0

status=0
if [ "$mode" = replay ]; then
  # FUZZ_JOBS replays at once (default: one per core, at most 4): each input runs once, so the replays
  # are independent; a failing one is reported with its log once all are done.
  jobs=${FUZZ_JOBS:-$(n=$(nproc); echo $((n > 4 ? 4 : n)))}
  replay() {
    local t=$1 rc=0
    mkdir -p "Fuzz/corpus/$t"
    "$obj/bin/$t" -runs=0 "Fuzz/corpus/$t" > "$build/$t.replay.log" 2>&1 || rc=$?
    echo "$rc" > "$build/$t.replay.rc"
  }
  running=0
  for t in $selected; do
    rm -f "$build/$t.replay.rc"
    replay "$t" &
    running=$((running + 1))
    if [ "$running" -ge "$jobs" ]; then wait -n || true; running=$((running - 1)); fi
  done
  wait
  for t in $selected; do
    echo "== fuzz: replay $t ($(ls "Fuzz/corpus/$t" | wc -l) inputs)" >&2
    grep -E 'DONE|INVARIANT|ERROR|SUMMARY' "$build/$t.replay.log" >&2 || true
    [ "$(cat "$build/$t.replay.rc" 2>/dev/null)" = 0 ] || { echo "fuzz.sh: an input of Fuzz/corpus/$t fails: see $build/$t.replay.log" >&2; status=1; }
  done
  exit $status
fi
for t in $selected; do
  dict=(); [ -f "Fuzz/dict/$t.dict" ] && dict=(-dict="Fuzz/dict/$t.dict")
  mkdir -p "Fuzz/corpus/$t" "$build/corpus/$t"
  echo "== fuzz: $t for ${seconds}s" >&2
  # -rss_limit_mb: ASan's shadow memory plus a 16 MiB vCard; -timeout: a hang is an input slower than 10 s.
  nice -n 19 "$obj/bin/$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 -max_len=65536 \
    -print_final_stats=1 -artifact_prefix="$build/artifacts/$t-" "${dict[@]}" ${FUZZ_ARGS:-} \
    "$build/corpus/$t" "Fuzz/corpus/$t" 2>&1 | tee "$build/$t.log" | grep -E '^#[0-9]+.*(pulse|DONE)|INVARIANT|ERROR|SUMMARY|stat::' >&2 || true
  grep -qE 'ERROR: |INVARIANT VIOLATED|SUMMARY: ' "$build/$t.log" && { echo "fuzz.sh: $t found a problem: see $build/$t.log" >&2; status=1; }
done
exit $status
