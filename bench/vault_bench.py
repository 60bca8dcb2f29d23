#!/usr/bin/env python3
"""Benchmark: median wall time and peak memory of `pwnvault list` and `pwnvault add` on vaults of
10, 1,000 and 10,000 accounts, opened through the keyring and through the passphrase.

Run it through bench/run.sh (a release build, inside a private keyring session). Prints a Markdown table.
Figures, not assertions: the machine is shared and noisy.
"""
import os, statistics, subprocess, sys, tempfile, time

BIN = os.environ["PWNVAULT_BIN"]
RUNS = int(os.environ.get("BENCH_RUNS", "7"))
SIZES = [int(x) for x in os.environ.get("BENCH_SIZES", "10,1000,10000").split(",")]


def run(args, env, stdin=None):
    """Runs pwnvault once; returns (seconds, peak RSS in MiB)."""
    start = time.perf_counter()
    p = subprocess.Popen([BIN] + args, env=env, stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if stdin:
        p.stdin.write(stdin.encode())
        p.stdin.close()
    _, status, usage = os.wait4(p.pid, 0)
    elapsed = time.perf_counter() - start
    err = p.stderr.read().decode()
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        sys.exit(f"pwnvault {' '.join(args)} failed ({p.returncode}): {err}")
    return elapsed, usage.ru_maxrss / 1024


def main():
    work = tempfile.mkdtemp(prefix="pwnvault-bench-")
    os.chmod(work, 0o700)
    passfile = os.path.join(work, "passphrase")
    with open(os.open(passfile, os.O_WRONLY | os.O_CREAT, 0o600), "w") as f:
        f.write("benchmark passphrase, not a secret\n")
    rows = []
    for mode in ["keyring", "passphrase"]:
        for n in SIZES:
            env = dict(os.environ)
            env["PWNVAULT_VAULT"] = os.path.join(work, f"{mode}-{n}", "vault")
            env["PWNVAULT_PASSPHRASE_FILE"] = passfile
            if mode == "passphrase":
                env["PWNVAULT_KEYRING"] = "none"
            run(["init", "--weak-passphrase-ok"], env)  # the default (moderate) Argon2id cost, as a user gets it
            accounts = "".join(f"watcher{i}@example{i % 97}.com\n" for i in range(n))
            run(["add", "-"], env, stdin=accounts)
            if mode == "keyring":
                del env["PWNVAULT_PASSPHRASE_FILE"]  # prove the keyring opens it
            for command in ["list", "add"]:
                times, peaks = [], []
                for r in range(RUNS):
                    args = ["list"] if command == "list" else ["add", f"extra{r}@example.org"]
                    t, m = run(args, env)
                    times.append(t)
                    peaks.append(m)
                rows.append((command, mode, n, statistics.median(times) * 1000, max(peaks)))
    print(f"| command | unlocked with | accounts | median wall time (ms) | peak memory (MiB) |")
    print(f"|---|---|---:|---:|---:|")
    for command, mode, n, ms, mib in rows:
        print(f"| {command} | {mode} | {n:,} | {ms:.1f} | {mib:.1f} |")
    print(f"\n{RUNS} runs each; release build; passphrase rows include one Argon2id derivation "
          f"(moderate: 3 passes, 256 MiB).")


if __name__ == "__main__":
    main()
