#!/usr/bin/env python3
"""run-tests.py: the XCTest suite in parallel, each worker inside a private keyring session of its own.

  Tests/Support/run-tests.py [--workers N] [--filter REGEX] [--list] XCTEST_BINARY

Lists the tests (`XCTEST_BINARY --list-tests`), cuts them into units and hands the units to N workers.
Each worker is one `Tests/Support/keyring-session.sh` (its own D-Bus bus, gnome-keyring daemon, HOME
and XDG_RUNTIME_DIR) that runs its units one after another, each unit in a fresh XCTest process:

- a class of PwnVaultCoreTests or PwnVaultCLITests is one unit (fast tests: one process start each);
- each test of EndToEndTests is a unit of its own (they spawn the binary, servers and terminals and
  wait: seconds each, so a process start is nothing beside them, and the slow ones spread out).

So what two tests share when they run at the same moment is only what any two users' programs share
(the file system outside their sandboxes, loopback ports chosen by the kernel, tmux sockets named by
pid and UUID, Xvfb displays chosen by -displayfd); the session bus (the notification server's
well-known name, the keyring's login collection) is never shared. The units of SERIAL run after the
others, one at a time, with nothing else running.

Every unit's XCTest output is printed whole when it ends (so its lines never interleave with another's),
failures are printed again at the end with their messages, and the last line is
`xctest: N passed, M failed, K skipped`. A unit whose process ends without reporting all its tests (a
crash, a hang cut by the timeout) counts every unreported test as failed. The exit status is 0 only if
nothing failed and every listed test ran.

Units start longest first, by the times of the last run (kept in .build/test-times.tsv) or, on a fresh
clone, by Tests/Support/slow-tests.txt.
"""
import argparse
import os
import re
import subprocess
import sys
import threading
import time
import queue
import itertools

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SESSION = os.path.join(ROOT, "Tests/Support/keyring-session.sh")
TIMES = os.path.join(ROOT, ".build/test-times.tsv")
SLOW = os.path.join(ROOT, "Tests/Support/slow-tests.txt")
# The times of a whole run on the shared 2-core machine, committed: a fresh clone orders and batches its
# units by them (a stale or missing name costs time, never a test).
COMMITTED_TIMES = os.path.join(ROOT, "Tests/Support/test-times.tsv")
PER_TEST_MODULES = {"EndToEndTests"}
# Units that run alone at the end (none need it today; a test that cannot share the machine goes here,
# as "Module.Class" or "Module.Class/test", with why).
# The desktop keyrings (KeePassXC, kwalletd5 under Xvfb) answer D-Bus within pwnvault's 2 s keyring
# timeout on a quiet machine, not always beside three other workers on two cores (a KWallet run was
# once told "no wallet open" under that load): their tests run alone, after the others.
SERIAL = {"EndToEndTests.KeyringProviderEndToEndTests"}
# A unit taking longer than this is killed and its unreported tests fail (hang protection only).
UNIT_TIMEOUT = 1200

COUNTER = itertools.count(1)  # log file numbers (a unit's name may be too long for a file name)

# XCTest names a test Class.test in its lines (no module), --list-tests names it Module.Class/test.
CASE = re.compile(r"^Test Case '(\w+)\.(\w+)' (passed|failed|skipped) \(([\d.]+) seconds\)")
ERROR = re.compile(r"error: |: failed - |XCTAssert|fatal error|Fatal error")


def list_tests(binary):
    out = subprocess.run([binary, "--list-tests"], cwd=ROOT, check=True, capture_output=True, text=True).stdout
    tests = []
    for line in out.splitlines():
        line = line.strip()
        if re.fullmatch(r"[\w]+\.[\w]+/[\w]+", line):
            tests.append(line)
    return tests


# End-to-end tests expected to take less than SHORT seconds (by the last run's times) share one XCTest
# process with others of their class, up to BATCH seconds and BATCH_TESTS tests a unit: a process start
# costs about 0.3 s, which is most of a test that runs its command lines in-process.
SHORT = 3.0
BATCH = 8.0
BATCH_TESTS = 8


def make_units(tests, est=None):
    """[(unit, [tests])]: a class, one test of the per-test modules, or a batch of a class's short tests
    (named "Module.Class/testA,Module.Class/testB": XCTest runs a comma-separated list)."""
    est = est or {}
    units = {}
    batches = {}  # class -> [(tests, seconds)]
    for t in tests:
        cls = t.split("/")[0]
        module = cls.split(".")[0]
        if module not in PER_TEST_MODULES:
            units.setdefault(cls, []).append(t)
            continue
        secs = est.get(t)
        if secs is None or secs >= SHORT:
            units[t] = [t]
            continue
        open_batches = batches.setdefault(cls, [])
        if not open_batches or open_batches[-1][1] + secs > BATCH or len(open_batches[-1][0]) >= BATCH_TESTS:
            open_batches.append(([], 0.0))
        members, total = open_batches[-1]
        members.append(t)
        open_batches[-1] = (members, total + secs)
    for cls, groups in batches.items():
        for members, _ in groups:
            units[",".join(members)] = members
    return list(units.items())


def estimates():
    est = {}
    for path in (TIMES, COMMITTED_TIMES):
        try:
            with open(path) as f:
                for line in f:
                    if line.startswith("#"):
                        continue
                    name, _, secs = line.rstrip("\n").partition("\t")
                    est[name] = float(secs)
        except (OSError, ValueError):
            pass
        if est:
            break
    if not est:
        try:
            with open(SLOW) as f:
                names = [l.strip() for l in f if l.strip() and not l.startswith("#")]
            for i, name in enumerate(names):
                est[name] = 1000.0 - i  # only the order matters
        except OSError:
            pass
    return est


def unit_estimate(unit, members, est):
    if unit in est:
        return est[unit]
    return sum(est.get(m, 0.0) for m in members) or (0.5 if "/" in unit else 0.1 * len(members))


def cpu_seconds(text):
    """Seconds from the shell's `times` notation (`1m2.345s`)."""
    m = re.fullmatch(r"(\d+)m([\d.]+)s", text)
    return int(m.group(1)) * 60 + float(m.group(2)) if m else 0.0


class Worker(threading.Thread):
    """One keyring session; runs the units it takes from the queue, one at a time."""

    def __init__(self, index, binary, jobs, results, logdir):
        super().__init__(daemon=True)
        self.index, self.binary, self.jobs, self.results, self.logdir = index, binary, jobs, results, logdir
        self.children = 0.0

    def run(self):
        # The session runs a small shell loop: read a unit name, run it, say "done STATUS".
        loop = ('while IFS=" " read -r id unit; do '
                'log="$0/$id.log"; '
                'PWNVAULT_TEST_RUN_LEDGER="$log.runs" timeout -k 10 "$1" "$2" "$unit" >"$log" 2>&1; s=$?; '
                'printf "done %s " "$s"; times; done')
        proc = subprocess.Popen([SESSION, "--", "sh", "-c", loop, self.logdir, str(UNIT_TIMEOUT), self.binary],
                                cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        while True:
            item = self.jobs.get()
            if item is None:
                break
            unit, members = item
            start = time.monotonic()
            number = next(COUNTER)
            proc.stdin.write("%d %s\n" % (number, unit))
            proc.stdin.flush()
            answer = proc.stdout.readline().split()
            status = int(answer[1]) if len(answer) >= 2 and answer[0] == "done" else -1
            # The shell's `times` (its own line, then its children's): user and system CPU of the units
            # so far (each unit's XCTest process and what it waited for: pwnvault, Python, tmux clients).
            waited = proc.stdout.readline().split() if status != -1 else []
            children = sum(cpu_seconds(t) for t in waited) if len(waited) == 2 else self.children
            cpu, self.children = children - self.children, children
            log = os.path.join(self.logdir, "%d.log" % number)
            self.results.put((unit, members, status, time.monotonic() - start, cpu, log))
            if status == -1:  # the session itself died: no more units here
                break
        proc.stdin.close()
        proc.wait()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workers", type=int, default=int(os.environ.get("PWNVAULT_TEST_WORKERS", "4")))
    ap.add_argument("--filter", help="only tests whose Module.Class/test matches this regular expression")
    ap.add_argument("--list", action="store_true", help="print the units in the order they would start")
    ap.add_argument("binary")
    args = ap.parse_args()

    tests = list_tests(args.binary)
    if args.filter:
        tests = [t for t in tests if re.search(args.filter, t)]
    est = estimates()
    units = make_units(tests, est)
    units.sort(key=lambda u: -unit_estimate(u[0], u[1], est))
    parallel = [u for u in units if u[0] not in SERIAL and u[0].split("/")[0] not in SERIAL]
    alone = [u for u in units if u not in parallel]
    if args.list:
        for u, m in parallel + alone:
            print("%8.1f %s%s" % (unit_estimate(u, m, est), u, "  (alone)" if u in dict(alone) else ""))
        return 0

    logdir = subprocess.run(["mktemp", "-d", os.path.join(os.environ.get("TMPDIR", "/tmp"), "pwnvault-tests.XXXXXXXX")],
                            check=True, capture_output=True, text=True).stdout.strip()
    print("== %d tests in %d units, %d workers (+%d units alone)" % (len(tests), len(units), args.workers, len(alone)),
          file=sys.stderr, flush=True)
    started = time.monotonic()
    results = queue.Queue()
    outcomes = {}  # test -> passed / failed / skipped
    failures = []  # (unit, lines)
    times = dict(est) if os.path.exists(TIMES) else {}
    sums = {"wall": 0.0, "cpu": 0.0}
    ways = {}  # how the end-to-end tests ran pwnvault -> how many tests
    runs = {}  # inprocess / binary / terminal -> how many runs of pwnvault
    per_module = {}  # module -> [tests, wall seconds, CPU seconds]

    def run_phase(units, workers):
        jobs = queue.Queue()
        for u in units:
            jobs.put(u)
        pool = [Worker(i, args.binary, jobs, results, logdir) for i in range(max(1, min(workers, len(units))))]
        for w in pool:
            jobs.put(None)
            w.start()
        for _ in range(len(units)):
            unit, members, status, secs, cpu, log = results.get()
            sums["wall"] += secs
            sums["cpu"] += cpu
            module = unit.split(".")[0]
            per_module.setdefault(module, [0, 0.0, 0.0])
            per_module[module][0] += len(members)
            per_module[module][1] += secs
            per_module[module][2] += cpu
            try:
                with open(log, errors="replace") as f:
                    text = f.read()
            except OSError:
                text = "(no output: the worker's keyring session ended)\n"
            sys.stdout.write(text)
            sys.stdout.flush()
            # How each test ran pwnvault (Tests/EndToEndTests/Support/InProcessRun.swift's RunLedger:
            # "KIND<TAB>Class.test" lines).
            kinds = {}
            try:
                with open(log + ".runs") as f:
                    for line in f:
                        kind, _, test = line.rstrip("\n").partition("\t")
                        runs[kind] = runs.get(kind, 0) + 1
                        kinds.setdefault(test, set()).add(kind)
            except OSError:
                pass
            if unit.split(".")[0] in PER_TEST_MODULES:
                for t in members:
                    k = kinds.get(t.split(".", 1)[1].replace("/", "."), set())
                    way = ("in-process" if k == {"inprocess"} else "mixed" if "inprocess" in k
                           else "binary" if k else "no pwnvault run")
                    ways[way] = ways.get(way, 0) + 1
            seen = {}
            for line in text.splitlines():
                m = CASE.match(line)
                if m:
                    seen["%s/%s" % (m.group(1), m.group(2))] = m.group(3)
                    if "," in unit:  # a batch: each test's own time, for the next run's batches
                        times["%s.%s/%s" % (unit.split(".")[0], m.group(1), m.group(2))] = float(m.group(4))
            short = {t: t.split(".", 1)[1] for t in members}
            unreported = [t for t in members if short[t] not in seen]
            for t in members:
                outcomes[t] = seen.get(short[t], "failed")
            bad = [t for t in members if outcomes[t] == "failed"]
            if bad or status != 0:
                lines = [l for l in text.splitlines() if ERROR.search(l) or " failed (" in l]
                if unreported:
                    lines.append("%d test(s) never reported (exit status %d%s): %s" % (
                        len(unreported), status, ", timed out" if status == 124 else "", ", ".join(unreported)))
                elif status != 0 and not bad:
                    lines.append("the XCTest process ended with status %d" % status)
                    for t in members:
                        outcomes[t] = "failed"
                failures.append((unit, lines))
            if "," not in unit:
                times[unit] = round(secs, 2)
        for w in pool:
            w.join()

    run_phase(parallel, args.workers)
    if alone:
        run_phase(alone, 1)
    wall = time.monotonic() - started

    if not args.filter:
        try:
            with open(TIMES, "w") as f:
                for name, secs in sorted(times.items()):
                    f.write("%s\t%s\n" % (name, secs))
        except OSError:
            pass
    subprocess.run(["rm", "-rf", logdir])

    passed = sum(1 for v in outcomes.values() if v == "passed")
    skipped = sum(1 for v in outcomes.values() if v == "skipped")
    failed = sum(1 for v in outcomes.values() if v == "failed")
    if failures:
        print("\n== failures", file=sys.stdout)
        for unit, lines in failures:
            print("-- %s" % unit)
            for l in lines:
                print("   " + l)
    for module, (count, secs, cpu) in sorted(per_module.items()):
        print("== %s: %d tests, units' wall %.0f s, CPU %.0f s" % (module, count, secs, cpu), file=sys.stderr)
    if ways:
        print("== end-to-end tests by how they ran pwnvault: %s (mixed: some runs in-process, some through the binary)"
              % ", ".join("%s %d" % kv for kv in sorted(ways.items())), file=sys.stderr)
    if runs:
        print("== runs of pwnvault: %s" % ", ".join("%s %d" % kv for kv in sorted(runs.items())), file=sys.stderr)
    print("== units' sums: wall %.0f s, CPU %.0f s (user+system of each unit's process tree)" % (sums["wall"], sums["cpu"]),
          file=sys.stderr)
    print("== %d units in %.0f s of wall time, %d workers" % (len(units), wall, args.workers), file=sys.stderr)
    print("xctest: %d passed, %d failed, %d skipped" % (passed, failed, skipped))
    return 1 if failed or len(outcomes) != len(tests) else 0


if __name__ == "__main__":
    sys.exit(main())
