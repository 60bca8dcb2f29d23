#!/usr/bin/env python3
"""Benchmark: `pwnvault check --all` against the fake HIBP server on loopback.

For each scenario: wall time, requests sent, 429s received, and
efficiency = ((N-1)*60/RATE + one round trip) / wall time, the share of the rate-limit floor reached,
where RATE is what the key really leaves to pwnvault (half of it when another client shares the key).
Unless the scenario is a first run, the key's rate is learned beforehand (as on any run after the
first of the day) and the breach catalog is cached, so the measured run is the checks themselves.
A first run starts with nothing cached (it asks subscription/status and fetches the catalog) and its
wall time includes the process start. Run through bench/run.sh check.

Scenarios (limiter: the fake server's token bucket per key, `burst` tokens, refilled at RPM/60 per s):
  strict     bucket 1: no two requests may arrive closer than 60/RPM
  first run  strict, rate unknown, catalog not cached, start-up included
The vault opens through the keyring (as a user's does once `init` stored its key there) in every
scenario but "passphrase", where it opens with the passphrase (Argon2id, interactive limits).
  shared key strict, a second client spends half the key's rate meanwhile
  --rpm high strict, pwnvault told ten times the key's real rate
"""
import json, os, subprocess, sys, tempfile, threading, time, urllib.request

BIN = os.environ["PWNVAULT_BIN"]
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KEY = "11111111111111111111111111111111"
# The fake server; FAKE_HIBP names another copy (e.g. an older one, to compare its arrival stamping).
SERVER = os.environ.get("FAKE_HIBP") or os.path.join(ROOT, "tools/fake-hibp/fake_hibp.py")
# name, accounts, key rpm, server latency (ms), bucket, first run ("keyring", "passphrase" or None), shared, --rpm given
SCENARIOS = [
    ("burst 2", 200, 3000, 100, 2, None, False, None),
    ("strict", 200, 3000, 100, 1, None, False, None),
    ("strict", 30, 600, 0, 1, None, False, None),
    ("first run, strict", 30, 600, 100, 1, "keyring", False, None),
    ("first run, strict, passphrase", 30, 600, 100, 1, "passphrase", False, None),
    ("shared key, strict", 60, 600, 100, 1, None, True, None),
    ("--rpm 6000, strict", 30, 600, 100, 1, None, False, 6000),
    ("strict", 5, 10, 0, 1, None, False, None),
]
# The first run's parts, measured: (scenario, start to first request, requests, last request to exit,
# `--version`, `list`), filled by run_scenario.
PARTS = []
# The other client of a shared key: (scenario, its requests, answered, 429s), filled by run_scenario.
OTHERS = []
if os.environ.get("BENCH_QUICK"):
    SCENARIOS = [s for s in SCENARIOS if s[1] <= 60]
if os.environ.get("BENCH_ROWS"):   # e.g. BENCH_ROWS=2,4: the second and fourth scenarios above
    SCENARIOS = [SCENARIOS[int(i) - 1] for i in os.environ["BENCH_ROWS"].split(",")]
if os.environ.get("BENCH_ONLY"):   # e.g. BENCH_ONLY="shared key", or several: "first run,--rpm"
    SCENARIOS = [s for s in SCENARIOS if any(part in s[0] for part in os.environ["BENCH_ONLY"].split(","))]


def control(base, path, body=None):
    req = urllib.request.Request(base + path, data=None if body is None else json.dumps(body).encode(),
                                 method="GET" if body is None else "POST",
                                 headers={"user-agent": "bench", "content-type": "application/json"})
    with urllib.request.urlopen(req) as r:
        return json.loads(r.read() or b"null")


def other_client(base, rpm, stop):
    """Spends `rpm` of the key evenly until told to stop (another program sharing the key)."""
    interval = 60 / rpm
    next_at = time.monotonic()
    while not stop.is_set():
        req = urllib.request.Request(base + "/api/v3/breachedaccount/clean.other%40example.com",
                                     headers={"user-agent": "other-client/1.0", "hibp-api-key": KEY})
        try:
            urllib.request.urlopen(req).read()
        except Exception:
            pass  # its 404s and 429s are its own business
        next_at += interval
        stop.wait(max(0, next_at - time.monotonic()))


def start_server(work, rpm, latency, burst):
    """The fake server on a loopback port of the kernel's choosing, for KEY at `rpm`: (process, base URL)."""
    port_file = os.path.join(work, "port")
    server = subprocess.Popen([sys.executable, SERVER, "--port", "0",
                               "--port-file", port_file, "--quiet", "--key", f"{KEY}:{rpm}", "--burst", str(burst),
                               "--latency-ms", str(latency)], stderr=subprocess.DEVNULL)
    for _ in range(300):
        if os.path.exists(port_file) and open(port_file).read().strip():
            break
        time.sleep(0.02)
    return server, "http://127.0.0.1:" + open(port_file).read().strip()


def bench_env(work, base):
    """pwnvault's environment for a run against `base`: its own home, cache, vault and passphrase file (0600)."""
    env = dict(os.environ, PWNVAULT_API_URL=base + "/api/v3", HIBP_API_KEY=KEY, HOME=work,
               XDG_CACHE_HOME=os.path.join(work, "cache"), PWNVAULT_VAULT=os.path.join(work, "v", "vault"),
               PWNVAULT_PASSPHRASE_FILE=os.path.join(work, "pass"))
    with open(os.open(env["PWNVAULT_PASSPHRASE_FILE"], os.O_WRONLY | os.O_CREAT, 0o600), "w") as f:
        f.write("benchmark passphrase\n")
    return env


def run_scenario(name, n, rpm, latency, burst, first, shared, told):
    work = tempfile.mkdtemp(prefix="pwnvault-check-bench-")
    server, base = start_server(work, rpm, latency, burst)
    try:
        env = bench_env(work, base)
        if first == "passphrase":
            env["PWNVAULT_KEYRING"] = "none"
        run = lambda args, **kw: subprocess.run([BIN] + args, env=env, stdout=subprocess.DEVNULL,
                                                stderr=subprocess.PIPE, **kw)
        run(["init", "--weak-passphrase-ok", "--kdf", "interactive"], check=True)
        accounts = "".join(f"{'pwned' if i % 3 == 0 else 'clean'}.bench{i}@example.com\n" for i in range(n))
        run(["add", "-"], input=accounts.encode(), check=True)
        if first != "passphrase":
            del env["PWNVAULT_PASSPHRASE_FILE"]  # from here on the keyring opens it
        if not first:
            # Warm up: the catalog and the key's rate (two throw-away checks).
            warm = run(["check", "clean.warm1@example.org", "clean.warm2@example.org"])
            assert warm.returncode == 0, warm.stderr.decode()
        time.sleep(3 * 60 / rpm)  # let the bucket refill
        control(base, "/__control/reset", {})
        stop = threading.Event()
        helper = None
        if shared:
            helper = threading.Thread(target=other_client, args=(base, rpm / 2, stop), daemon=True)
            helper.start()
            time.sleep(0.5)
        args = ["check", "--all"] + (["--rpm", str(told)] if told else [])
        start = time.monotonic()   # the server stamps arrivals on the same clock (CLOCK_MONOTONIC)
        try:
            r = run(args, timeout=300)
        except subprocess.TimeoutExpired:
            sys.exit(f"{name}: check --all did not finish in 300 s")
        ended = time.monotonic()
        wall = ended - start
        stop.set()
        if helper:
            helper.join()
        if r.returncode not in (0, 1):
            sys.exit(f"{name}: check --all failed ({r.returncode}): {r.stderr.decode()}")
        log = control(base, "/__control/log")
        ours = [e for e in log if e["headers"].get("user-agent", "").startswith("pwnvault/")]
        if shared:
            theirs = [e for e in log if e["headers"].get("user-agent", "").startswith("other-client/")]
            OTHERS.append((name, len(theirs), sum(1 for e in theirs if e["status"] != 429),
                           sum(1 for e in theirs if e["status"] == 429)))
        if os.environ.get("BENCH_TRACE"):
            t0 = ours[0]["monotonic"] if ours else 0
            for e in ours:
                print(f"{(e['monotonic'] - t0) * 1000:9.1f} ms  {e['status']}  {e['path'][:40]}", file=sys.stderr)
        requests = len(ours)
        throttled = sum(1 for e in ours if e["status"] == 429)
        keyed = [e for e in ours if "/breachedaccount/" in e["path"] or "/subscription/" in e["path"]]
        # The tightest gap between two of our keyed requests' arrivals, next to the interval.
        arrivals = sorted(e["monotonic"] for e in keyed)
        gap = min((b - a for a, b in zip(arrivals, arrivals[1:])), default=0)
        if first and arrivals:
            def median_ms(argv):
                times = []
                for _ in range(7):
                    t = time.monotonic()
                    run(argv, check=True)
                    times.append(time.monotonic() - t)
                return sorted(times)[len(times) // 2] * 1000
            PARTS.append((name, (arrivals[0] - start) * 1000, arrivals[-1] - arrivals[0], len(arrivals),
                          (ended - arrivals[-1]) * 1000, median_ms(["--version"]), median_ms(["list"])))
        available = rpm / 2 if shared else rpm
        floor = (n - 1) * 60 / available + latency / 1000 + 0.002
        return (name, n, rpm, latency, wall, requests, throttled, floor, floor / wall, gap * 1000, 60000 / rpm)
    finally:
        server.terminate()
        server.wait()


def main():
    rows = [run_scenario(*s) for s in SCENARIOS]
    print("| scenario | accounts | key rate (per min) | server latency | wall time (s) | requests | 429s "
          "| rate-limit floor (s) | efficiency | closest arrivals (ms) / interval (ms) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name, n, rpm, latency, wall, requests, throttled, floor, eff, gap, interval in rows:
        print(f"| {name} | {n} | {rpm:,} | {latency} ms | {wall:.2f} | {requests} | {throttled} | {floor:.2f} | "
              f"{eff:.2f} | {gap:.1f} / {interval:.1f} |")
    for name, sent, answered, limited in OTHERS:
        print(f"\n{name}: the other client sent {sent} requests while pwnvault ran; {answered} were answered, "
              f"{limited} met a 429 (a refused request takes no token).")
    if PARTS:
        print("\nWhere a first run's time goes (arrivals at the server; `--version` and `list` timed alone, median of 7, same vault):\n")
        print("| scenario | start → first keyed request (ms) | first → last keyed request (s) | keyed requests "
              "| last request → exit (ms) | `--version` (ms) | `list` (ms) |")
        print("|---|---:|---:|---:|---:|---:|---:|")
        for name, head, span, count, tail, version, listing in PARTS:
            print(f"| {name} | {head:.0f} | {span:.3f} | {count} | {tail:.0f} | {version:.0f} | {listing:.0f} |")
    print("\nefficiency = ((N-1)·60/RATE + one round trip) / wall time, RATE = what the key leaves to pwnvault "
          "(half with a shared key); target ≥ 0.9 (≥ 0.93 for the first run) with no 429 where pwnvault knows the rate.")


if __name__ == "__main__":
    main()
