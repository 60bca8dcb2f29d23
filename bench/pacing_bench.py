#!/usr/bin/env python3
"""Benchmark: pacing against a strict limiter that counts every keyed request (issues 20 and 22).

The fake HIBP server's token bucket with one token (`--burst 1`) counts every keyed request
(subscription/status, breachedaccount and its k-anonymity range, pasteaccount, stealer logs,
domain searches) by its arrival time as the kernel stamped it, as HIBP's edge does: no two
requests may arrive closer than 60/RPM.

1. `check --all`, 10 runs each (the scenarios and efficiency of bench/check_bench.py):
   - first run: 30 accounts at 600/min, 100 ms latency, nothing cached (rate asked, catalog fetched),
     start-up included; target 0 x 429 in every run and efficiency >= 0.93; once with the default
     k-anonymity (auto: the fake key's plan refuses the range search, which costs two slots before
     the run knows) and once with addresses sent whole (PWNVAULT_K_ANONYMITY=off);
   - 200 accounts at 3,000/min, 100 ms latency, the key's rate learned beforehand; target 0 x 429.
2. `check ACCOUNT --pastes` for one address at 100 ms latency (the rate learned by an earlier run,
   the catalog cached, the vault opened through the keyring) next to curl making the same two
   requests back to back on one connection; median of 7; target <= 1.3x curl.

3. Issue 29, the keyed request after the status question: a first run of the day (no rate remembered)
   asks subscription/status, then checks 4 addresses; at 600/min (100 ms latency) and 100/min, 10 runs
   each, with addresses sent whole, with the range search probed (the plan does not say; the fake
   refuses it) and with the plan including it. Reported: the closest two keyed arrivals (the status
   question included) over the interval; floor 0.98 (HIBP's limiter counts arrivals), target 0 x 429.
   PACING_ONLY=status runs this part alone.

Run through bench/run.sh pacing (BENCH_RUNS=N changes the 10).
"""
import os, statistics, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_bench  # noqa: E402  (its run_scenario starts a server, makes a vault and runs check --all)

BIN = os.environ["PWNVAULT_BIN"]
KEY = check_bench.KEY
RUNS = int(os.environ.get("BENCH_RUNS", "10"))


def repeated(name, n, rpm, latency, first):
    rows = [check_bench.run_scenario(name, n, rpm, latency, 1, first, False, None) for _ in range(RUNS)]
    walls = [r[4] for r in rows]
    throttled = [r[6] for r in rows]
    effs = [r[8] for r in rows]
    gaps = [r[9] for r in rows]
    return (name, n, rpm, latency, len(rows), sum(1 for t in throttled if t == 0), sum(throttled),
            min(effs), statistics.median(effs), statistics.median(walls), min(gaps), rows[0][10])


def one_account_pastes(rpm=6000, latency=100):
    work = tempfile.mkdtemp(prefix="pwnvault-pacing-bench-")
    server, base = check_bench.start_server(work, rpm, latency, burst=1)
    try:
        env = check_bench.bench_env(work, base)
        run = lambda args, **kw: subprocess.run([BIN] + args, env=env, stdout=subprocess.DEVNULL,
                                                stderr=subprocess.PIPE, **kw)
        run(["init", "--weak-passphrase-ok", "--kdf", "interactive"], check=True)
        del env["PWNVAULT_PASSPHRASE_FILE"]  # the keyring opens it from here on
        # An earlier run learned the key's rate and cached the catalog.
        warm = run(["check", "clean.warm1@example.org", "clean.warm2@example.org"])
        assert warm.returncode == 0, warm.stderr.decode()
        account = "clean.someone@example.com"
        urls = [f"{base}/api/v3/breachedaccount/{account.replace('@', '%40')}",
                f"{base}/api/v3/pasteaccount/{account.replace('@', '%40')}"]
        curl = ["curl", "-s", "-o", "/dev/null", "-o", "/dev/null", "-H", f"hibp-api-key: {KEY}",
                "-H", "user-agent: bench"] + urls

        def median(argv, runner):
            times = []
            for _ in range(7):
                time.sleep(0.2)  # a token back in the bucket
                t = time.monotonic()
                r = runner(argv)
                times.append(time.monotonic() - t)
                assert r.returncode in (0, 1), (argv[:3], r.returncode, r.stderr)
            return statistics.median(times)

        ours = median(["check", account, "--pastes", "--k-anonymity=off"], run)
        theirs = median(curl, lambda argv: subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE))
        log = check_bench.control(base, "/__control/log")
        limited = sum(1 for e in log if e["status"] == 429)
        return ours, theirs, limited
    finally:
        server.terminate()
        server.wait()


def status_then_checks(rpm, latency, config, mode):
    """One first run: (closest keyed arrivals in s, 429s, keyed requests)."""
    work = tempfile.mkdtemp(prefix="pwnvault-pacing-status-")
    server, base = check_bench.start_server(work, rpm, latency, burst=1)
    try:
        env = check_bench.bench_env(work, base)
        env["PWNVAULT_KEYRING"] = "none"
        env["PWNVAULT_K_ANONYMITY"] = mode
        run = lambda args, **kw: subprocess.run([BIN] + args, env=env, stdout=subprocess.DEVNULL,
                                                stderr=subprocess.PIPE, **kw)
        run(["init", "--weak-passphrase-ok", "--kdf", "interactive"], check=True)
        accounts = [f"{'pwned' if i % 2 else 'clean'}.status{i}@example.com" for i in range(4)]
        for a in accounts:   # the fake's range search lists only accounts it was told about
            check_bench.control(base, "/__control/accounts", {"account": a})
        run(["add"] + accounts, check=True)
        check_bench.control(base, "/__control/config", config)   # also refills the key's bucket
        check_bench.control(base, "/__control/reset", {})
        r = run(["check", "--all"], timeout=120)
        assert r.returncode in (0, 1), r.stderr.decode()
        log = check_bench.control(base, "/__control/log")
        keyed = sorted(e["monotonic"] for e in log
                       if "/breachedaccount/" in e["path"] or "/subscription/" in e["path"])
        assert any("/subscription/status" in e["path"] for e in log), "the rate was not asked"
        gap = min(b - a for a, b in zip(keyed, keyed[1:]))
        return gap, sum(1 for e in log if e["status"] == 429), len(keyed)
    finally:
        server.terminate()
        server.wait()


def after_the_status_question():
    variants = [("whole address", {}, "off"),
                ("range probed (plan does not say)", {"k_anonymity_field": False}, "auto"),
                ("range (plan includes it)", {"k_anonymity": True}, "auto")]
    print(f"Issue 29: a first run asks subscription/status, then checks 4 addresses; strict limiter, {RUNS} runs "
          "each; closest two keyed arrivals (the status question included):\n")
    print("| key rate (per min) | latency | lookup | runs | 429s in all | closest arrivals (ms) / interval (ms) "
          "| ratio (floor 0.98) |")
    print("|---:|---:|---|---:|---:|---:|---:|")
    for rpm, latency in ((600, 100), (100, 0)):
        interval = 60000 / rpm
        for name, config, mode in variants:
            runs = [status_then_checks(rpm, latency, config, mode) for _ in range(RUNS)]
            gap = min(r[0] for r in runs) * 1000
            print(f"| {rpm:,} | {latency} ms | {name} | {len(runs)} | {sum(r[1] for r in runs)} | "
                  f"{gap:.1f} / {interval:.1f} | {gap / interval:.3f} |", flush=True)
    print()


def main():
    after_the_status_question()
    if os.environ.get("PACING_ONLY") == "status":
        return
    rows = [repeated("first run, strict", 30, 600, 100, "keyring")]
    # The same with e-mail addresses sent whole: the fake key's plan has no k-anonymity search, so with
    # the default (auto) a first run spends two slots on refused range searches before it knows.
    os.environ["PWNVAULT_K_ANONYMITY"] = "off"
    rows.append(repeated("first run, strict, --k-anonymity=off", 30, 600, 100, "keyring"))
    del os.environ["PWNVAULT_K_ANONYMITY"]
    rows.append(repeated("strict", 200, 3000, 100, None))
    print(f"`check --all` against the strict limiter (one token, every keyed request counted), {RUNS} runs each:\n")
    print("| scenario | accounts | key rate (per min) | latency | runs | runs with 0 x 429 | 429s in all "
          "| efficiency: lowest / median | median wall (s) | closest arrivals (ms) / interval (ms) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name, n, rpm, latency, runs, clean, total, low, med, wall, gap, interval in rows:
        print(f"| {name} | {n} | {rpm:,} | {latency} ms | {runs} | {clean} | {total} | {low:.2f} / {med:.2f} "
              f"| {wall:.2f} | {gap:.1f} / {interval:.1f} |")
    if check_bench.PARTS:
        parts = check_bench.PARTS
        med = lambda i: statistics.median(p[i] for p in parts)
        print(f"\nFirst runs, medians of {len(parts)}: start → first keyed request {med(1):.0f} ms, first → last keyed "
              f"request {med(2):.3f} s ({parts[0][3]} requests), last request → exit {med(4):.0f} ms.")
    ours, theirs, limited = one_account_pastes()
    print("\n`check ACCOUNT --pastes` (one address, rate learned before, catalog cached, vault through the keyring), "
          "100 ms latency, median of 7:\n")
    print("| | wall (s) | ratio to curl |")
    print("|---|---:|---:|")
    print(f"| curl, the two requests back to back | {theirs:.3f} | 1.00 |")
    print(f"| pwnvault check ACCOUNT --pastes | {ours:.3f} | {ours / theirs:.2f} |")
    print(f"\n429s met in the one-account runs: {limited}")


if __name__ == "__main__":
    main()
