#!/usr/bin/env python3
"""Benchmark: how fast pwnvault starts, next to the floors, all in one run.

Builds the floors itself (a C program that returns, a Swift hello-world on the standard library only, the
same with the runtime linked in as pwnvault links it, the same importing FoundationEssentials, Foundation,
and creating a URLSession), then runs,
in interleaved rounds so that noise from the shared machine falls on every row alike:
  pwnvault --version, `secret-tool lookup` of the vault key (in the same private keyring session),
  and `pwnvault list` / `list --json` opened through the keyring on 10, 1,000 and 10,000 accounts;
  `--version` and `list` (10 accounts) again under LANG=C and LANG=zh_CN.UTF-8 (issue 24: the catalog
  is mapped lazily), with a zh_CN.UTF-8 locale made by localedef and the catalogs of scripts/build-locale.sh.
Prints the median wall time and the peak memory (max RSS) of each, and the ratios the targets of
issue 10 are stated in. Last, it reads /proc/PID/maps of a running `list` (held by a full pipe) and
of a running `check` (held by a slow server) to show which of them loaded libcurl.

Run it through `bench/run.sh startup` (a release build, inside a private keyring session). With
PWNVAULT_BASELINE_BIN set to another build (say, of an older main), its `--version`, `list` and
`list --json` run in the same rounds, for a before/after in one table. Each round runs the cases in
its own (seeded) order, so that no case always follows the same one.
Figures, not assertions: the machine is shared and noisy; quote the ratios.
"""
import json, os, random, re, shutil, statistics, subprocess, sys, tempfile, time

BIN = os.environ["PWNVAULT_BIN"]
BASELINE = os.environ.get("PWNVAULT_BASELINE_BIN")
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RUNS = int(os.environ.get("BENCH_RUNS", "15"))
SIZES = [int(x) for x in os.environ.get("BENCH_SIZES", "10,1000,10000").split(",")]

FLOORS = {
    "c": ("hello.c", "int main(void) { return 0; }\n"),
    "swift": ("hello.swift", 'print("hello")\n'),
    "swift-static": ("hello.swift", 'print("hello")\n'),
    "essentials": ("hello.swift", 'import FoundationEssentials\nprint("hello \\(Date().timeIntervalSince1970 > 0)")\n'),
    "foundation": ("hello.swift", 'import Foundation\nprint("hello \\(Date().timeIntervalSince1970 > 0)")\n'),
    "urlsession": ("hello.swift", 'import Foundation\nimport FoundationNetworking\n'
                   'let s = URLSession(configuration: .ephemeral)\nprint("hello \\(s.configuration.timeoutIntervalForRequest)")\n'),
}
FLOOR_NAMES = {
    "c": "a C program that returns",
    "swift": "a Swift hello-world (stdlib only)",
    "swift-static": "the same, runtime linked in (`-static-stdlib`, as pwnvault)",
    "essentials": "the same importing FoundationEssentials",
    "foundation": "the same importing Foundation",
    "urlsession": "the same creating a URLSession",
}


# A small C runner starts each process: a child forked from Python would report Python's own RSS
# (ru_maxrss counts the child's life before exec too), and timing from C is tighter.
RUNNER = r"""
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
int main(int argc, char **argv) {
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    pid_t pid = fork();
    if (pid == 0) {
        int null = open("/dev/null", O_RDWR);
        dup2(null, 0); dup2(null, 1);
        execvp(argv[1], argv + 1);
        _exit(127);
    }
    int status; struct rusage ru;
    wait4(pid, &status, 0, &ru);
    clock_gettime(CLOCK_MONOTONIC, &b);
    printf("%lld %ld %d\n", (long long)(b.tv_sec - a.tv_sec) * 1000000000LL + (b.tv_nsec - a.tv_nsec),
           ru.ru_maxrss, WIFEXITED(status) ? WEXITSTATUS(status) : 128);
    return 0;
}
"""


def build_floors(work):
    """Compiles each floor with -O; the runtime linked in for "swift-static" (as Package.swift links pwnvault),
    from the toolchain's shared libraries for the others (what importing each module costs)."""
    out = {}
    for name, (file, text) in FLOORS.items():
        d = os.path.join(work, "floor-" + name)
        os.makedirs(d)
        src = os.path.join(d, file)
        with open(src, "w") as f:
            f.write(text)
        exe = os.path.join(d, name)
        cmd = ["cc", "-O2", "-o", exe, src] if file.endswith(".c") else ["swiftc", "-O", "-o", exe, src]
        if name.endswith("-static"):
            cmd.append("-static-stdlib")
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        out[name] = [exe]
    src = os.path.join(work, "runner.c")
    with open(src, "w") as f:
        f.write(RUNNER)
    global RUNNER_EXE
    RUNNER_EXE = os.path.join(work, "runner")
    subprocess.run(["cc", "-O2", "-o", RUNNER_EXE, src], check=True)
    return out


def hello_built_like(binary):
    """The hello-world floor built the way `binary` was: with the Swift runtime linked in, or not."""
    needed = subprocess.run(["ldd", binary], capture_output=True, text=True).stdout
    return "floor:swift" if "libswiftCore.so" in needed else "floor:swift-static"


def timed(argv, env):
    """Runs argv once, output discarded; returns (seconds, peak RSS in MiB)."""
    r = subprocess.run([RUNNER_EXE] + argv, env=env, capture_output=True, text=True)
    ns, kib, code = (int(x) for x in r.stdout.split())
    if code != 0:
        sys.exit(f"{' '.join(argv)} failed ({code}): {r.stderr}")
    return ns / 1e9, kib / 1024


def make_vault(work, n):
    env = dict(os.environ)
    env["PWNVAULT_VAULT"] = os.path.join(work, f"vault-{n}", "vault")
    passfile = os.path.join(work, "passphrase")
    if not os.path.exists(passfile):
        with open(os.open(passfile, os.O_WRONLY | os.O_CREAT, 0o600), "w") as f:
            f.write("benchmark passphrase, not a secret\n")
    env["PWNVAULT_PASSPHRASE_FILE"] = passfile
    subprocess.run([BIN, "init", "--weak-passphrase-ok", "--kdf", "interactive"], env=env, check=True, stdout=subprocess.DEVNULL)
    accounts = "".join(f"watcher{i}@example{i % 97}.com\n" for i in range(n))
    subprocess.run([BIN, "add", "-"], env=env, input=accounts.encode(), check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    del env["PWNVAULT_PASSPHRASE_FILE"]  # from here on the keyring opens it
    return env


def language_envs(work, env):
    """The same environment under LANG=C and under LANG=zh_CN.UTF-8 (a locale of the run's own, made with
    localedef, and the catalogs compiled from po/); None when localedef or msgfmt is missing."""
    loc, catalogs = os.path.join(work, "loc"), os.path.join(work, "locale")
    os.makedirs(loc)
    try:
        subprocess.run(["localedef", "-i", "zh_CN", "-f", "UTF-8", os.path.join(loc, "zh_CN.UTF-8")], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        subprocess.run(["bash", os.path.join(ROOT, "scripts/build-locale.sh"), catalogs], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    except (OSError, subprocess.CalledProcessError) as e:
        print(f"(no zh_CN rows: {e})", file=sys.stderr)
        return None
    base = {k: v for k, v in env.items() if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")}
    base.update(LOCPATH=loc, TEXTDOMAINDIR=catalogs)
    return {"C": dict(base, LANG="C"), "zh": dict(base, LANG="zh_CN.UTF-8")}


def vault_key_lookup():
    """`secret-tool lookup` of one vault key: the attributes pwnvault stores it under."""
    out = subprocess.run(["secret-tool", "search", "--all", "application", "pwnvault", "type", "vault-key"],
                         capture_output=True, text=True, check=True).stdout + \
        subprocess.run(["secret-tool", "search", "--all", "application", "pwnvault", "type", "vault-key"],
                       capture_output=True, text=True).stderr
    m = re.search(r"attribute\.vault-id = (\S+)", out)
    if not m:
        sys.exit("no vault key in the keyring: " + out)
    return ["secret-tool", "lookup", "application", "pwnvault", "type", "vault-key", "vault-id", m.group(1)]


def maps_of_blocked(argv, env, hold):
    """Starts argv, lets `hold(p)` keep it alive mid-work, and returns its /proc/PID/maps libraries."""
    p = subprocess.Popen(argv, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        hold(p)
        with open(f"/proc/{p.pid}/maps") as f:
            libs = sorted({line.split()[-1].rsplit("/", 1)[-1] for line in f if ".so" in line})
    finally:
        p.kill()
        p.communicate()
    return libs


def curl_in(libs):
    return any(l.startswith("libcurl") for l in libs)


def maps_report(envs, work):
    """Which libraries `list` (blocked on a full stdout pipe) and `check` (blocked on a slow server) hold."""
    rows = []
    big = envs[max(SIZES)]

    def wait_full_pipe(p):
        time.sleep(1.5)  # 10,000 lines are far more than a 64 KiB pipe: list is blocked writing
    rows.append(("pwnvault list (blocked writing to a full pipe)", maps_of_blocked([BIN, "list"], big, wait_full_pipe)))

    def wait_stdin(p):
        time.sleep(1.0)  # add - waits for its accounts on stdin
    rows.append(("pwnvault add - (blocked reading stdin)", maps_of_blocked([BIN, "add", "-"], big, wait_stdin)))

    port_file = os.path.join(work, "port")
    server = subprocess.Popen([sys.executable, os.path.join(ROOT, "tools/fake-hibp/fake_hibp.py"), "--port", "0",
                               "--port-file", port_file, "--quiet", "--latency-ms", "3000"], stderr=subprocess.DEVNULL)
    try:
        for _ in range(300):
            if os.path.exists(port_file) and open(port_file).read().strip():
                break
            time.sleep(0.02)
        env = dict(big, PWNVAULT_API_URL="http://127.0.0.1:" + open(port_file).read().strip() + "/api/v3",
                   XDG_CACHE_HOME=os.path.join(work, "cache-maps"))

        def wait_request(p):
            time.sleep(1.5)  # the catalog request is in flight (the server answers after 3 s)
        rows.append(("pwnvault breaches (request in flight)", maps_of_blocked([BIN, "breaches"], env, wait_request)))
    finally:
        server.terminate()
        server.wait()
    return rows


def main():
    work = tempfile.mkdtemp(prefix="pwnvault-startup-")
    os.chmod(work, 0o700)
    try:
        floors = build_floors(work)
        envs = {n: make_vault(work, n) for n in SIZES}
        lookup = vault_key_lookup()
        base_env = envs[SIZES[0]]
        cases = [(f"floor:{k}", argv, base_env) for k, argv in floors.items()]
        cases.append(("secret-tool", lookup, base_env))
        cases.append(("version", [BIN, "--version"], base_env))
        for n in SIZES:
            cases.append((f"list:{n}", [BIN, "list"], envs[n]))
            cases.append((f"json:{n}", [BIN, "list", "--json"], envs[n]))
        languages = language_envs(work, base_env)
        if languages:
            for lang, env in languages.items():
                cases.append((f"lang:{lang}:version", [BIN, "--version"], env))
                cases.append((f"lang:{lang}:list", [BIN, "list"], env))
        if BASELINE:
            cases.append(("baseline:version", [BASELINE, "--version"], base_env))
            for n in SIZES:
                cases.append((f"baseline:list:{n}", [BASELINE, "list"], envs[n]))
                cases.append((f"baseline:json:{n}", [BASELINE, "list", "--json"], envs[n]))
        for name, argv, env in cases:  # warm the page cache once
            timed(argv, env)
        times = {name: [] for name, _, _ in cases}
        peaks = {name: [] for name, _, _ in cases}
        order = random.Random(1)   # each round in its own order: no case always follows the same one
        for _ in range(RUNS):
            for name, argv, env in order.sample(cases, len(cases)):
                t, m = timed(argv, env)
                times[name].append(t)
                peaks[name].append(m)
        med = {k: statistics.median(v) * 1000 for k, v in times.items()}
        peak = {k: max(v) for k, v in peaks.items()}

        def row(label, key, ratio_to, ratio_name, target="", baseline_ratio_to=None):
            cells = [label, f"{med[key]:.1f}", f"{peak[key]:.1f}", f"{med[key] / med[ratio_to]:.2f}× {ratio_name}"]
            if BASELINE:
                b = "baseline:" + key
                to = baseline_ratio_to or ('baseline:' + ratio_to if ratio_to.startswith(('list:', 'json:')) else ratio_to)
                cells += [f"{med[b]:.1f}", f"{peak[b]:.1f}", f"{med[b] / med[to]:.2f}×"]
            cells.append(target)
            print("| " + " | ".join(cells) + " |")

        if BASELINE:
            print("| process | wall (ms) | peak (MiB) | ratio | baseline: wall (ms) | baseline: peak (MiB) | baseline: ratio | target |")
            print("|---|---:|---:|---|---:|---:|---:|---|")
        else:
            print("| process | median wall (ms) | peak memory (MiB) | ratio | target |")
            print("|---|---:|---:|---|---|")
        blank = " | | |" if BASELINE else ""
        for k in FLOORS:
            print(f"| {FLOOR_NAMES[k]} | {med['floor:' + k]:.1f} | {peak['floor:' + k]:.1f} | |{blank} |")
        print(f"| `secret-tool lookup` (the vault key) | {med['secret-tool']:.1f} | {peak['secret-tool']:.1f} | |{blank} |")
        hello = hello_built_like(BIN)
        row("`pwnvault --version`", "version", hello, "Swift hello-world built the same way", "≤ 2× hello-world",
            baseline_ratio_to=hello_built_like(BASELINE) if BASELINE else None)
        for n in SIZES:
            target = "≤ 2× secret-tool, ≤ 20 MiB" if n <= 10 else ("≤ 3× secret-tool" if n >= 10000 else "")
            row(f"`pwnvault list`, keyring, {n:,} accounts", f"list:{n}", "secret-tool", "secret-tool", target)
            row(f"`pwnvault list --json`, keyring, {n:,} accounts", f"json:{n}", f"list:{n}", "list", "≤ 1.2× list")
        if languages:
            print("\n| process | LANG=C wall (ms) | LANG=zh_CN.UTF-8 wall (ms) | zh / C | LANG=C peak (MiB) | zh_CN peak (MiB) |")
            print("|---|---:|---:|---|---:|---:|")
            for key, label in (("version", "`pwnvault --version`"), ("list", f"`pwnvault list`, keyring, {SIZES[0]:,} accounts")):
                c, zh = f"lang:C:{key}", f"lang:zh:{key}"
                print(f"| {label} | {med[c]:.1f} | {med[zh]:.1f} | {med[zh] / med[c]:.2f}× | {peak[c]:.1f} | {peak[zh]:.1f} |")
        if BASELINE:
            print(f"\nbaseline: {BASELINE}")
        print(f"\n{RUNS} interleaved rounds, median wall, max of peak RSS; release build; floors built with "
              f"`swiftc -O` / `cc -O2` in this run; `--version` against the hello-world linked as that binary is "
              f"(runtime linked in or shared); secret-tool and pwnvault in the same private keyring session.")
        print("\n| process | libcurl in /proc/PID/maps |")
        print("|---|---|")
        for name, libs in maps_report(envs, work):
            print(f"| {name} | {'yes' if curl_in(libs) else 'no'} ({len(libs)} shared objects) |")
        if os.environ.get("BENCH_SHOW_MAPS"):
            for name, libs in maps_report(envs, work):
                print(f"\n{name}: " + " ".join(libs))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
