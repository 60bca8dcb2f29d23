#!/usr/bin/env python3
"""Benchmark: `pwnvault check --all` against the fake HIBP server on loopback.

For each scenario: wall time, requests sent, 429s received, and
efficiency = ((N-1)*60/RPM + one round trip) / wall time, the share of the rate-limit floor reached.
The key's rate is learned beforehand (as on any run after the first of the day) and the breach
catalog is cached, so the measured run is the checks themselves. Run through bench/run.sh check.
"""
import json, os, statistics, subprocess, sys, tempfile, time, urllib.request

BIN = os.environ["PWNVAULT_BIN"]
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KEY = "11111111111111111111111111111111"
SCENARIOS = [(200, 3000, 100), (30, 600, 0), (5, 10, 0)]  # accounts, rpm, server latency (ms)
if os.environ.get("BENCH_QUICK"):
    SCENARIOS = [(200, 3000, 100), (30, 600, 0)]


def control(base, path, body=None):
    req = urllib.request.Request(base + path, data=None if body is None else json.dumps(body).encode(),
                                 method="GET" if body is None else "POST",
                                 headers={"user-agent": "bench", "content-type": "application/json"})
    with urllib.request.urlopen(req) as r:
        return json.loads(r.read() or b"null")


def main():
    rows = []
    for n, rpm, latency in SCENARIOS:
        work = tempfile.mkdtemp(prefix="pwnvault-check-bench-")
        port_file = os.path.join(work, "port")
        server = subprocess.Popen([sys.executable, os.path.join(ROOT, "tools/fake-hibp/fake_hibp.py"), "--port", "0",
                                   "--port-file", port_file, "--quiet", "--key", f"{KEY}:{rpm}",
                                   "--latency-ms", str(latency)], stderr=subprocess.DEVNULL)
        try:
            for _ in range(300):
                if os.path.exists(port_file):
                    break
                time.sleep(0.02)
            base = "http://127.0.0.1:" + open(port_file).read().strip()
            env = dict(os.environ, PWNVAULT_API_URL=base + "/api/v3", HIBP_API_KEY=KEY, HOME=work,
                       XDG_CACHE_HOME=os.path.join(work, "cache"), PWNVAULT_VAULT=os.path.join(work, "v", "vault"),
                       PWNVAULT_PASSPHRASE_FILE=os.path.join(work, "pass"))
            with open(os.open(env["PWNVAULT_PASSPHRASE_FILE"], os.O_WRONLY | os.O_CREAT, 0o600), "w") as f:
                f.write("benchmark passphrase\n")
            run = lambda args, **kw: subprocess.run([BIN] + args, env=env, stdout=subprocess.DEVNULL,
                                                    stderr=subprocess.PIPE, **kw)
            run(["init", "--kdf", "interactive"], check=True)
            accounts = "".join(f"{'pwned' if i % 3 == 0 else 'clean'}.bench{i}@example.com\n" for i in range(n))
            run(["add", "-"], input=accounts.encode(), check=True)
            # Warm up: the catalog and the key's rate (two throw-away checks), then let the bucket refill.
            warm = run(["check", "clean.warm1@example.org", "clean.warm2@example.org"])
            assert warm.returncode == 0, warm.stderr.decode()
            time.sleep(3 * 60 / rpm)
            control(base, "/__control/reset", {})
            start = time.perf_counter()
            r = run(["check", "--all"])
            wall = time.perf_counter() - start
            if r.returncode not in (0, 1):
                sys.exit(f"check --all failed ({r.returncode}): {r.stderr.decode()}")
            stats = control(base, "/__control/stats")
            rtt = latency / 1000 + 0.002
            floor = (n - 1) * 60 / rpm + rtt
            rows.append((n, rpm, latency, wall, stats["total"], stats["too_many_requests"], floor / wall))
        finally:
            server.terminate()
            server.wait()
    print("| accounts | key rate (per min) | server latency | wall time (s) | requests | 429s | rate-limit floor (s) | efficiency |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    for n, rpm, latency, wall, requests, throttled, eff in rows:
        floor = (n - 1) * 60 / rpm + latency / 1000 + 0.002
        print(f"| {n} | {rpm:,} | {latency} ms | {wall:.2f} | {requests} | {throttled} | {floor:.2f} | {eff:.2f} |")
    print("\nefficiency = ((N-1)·60/RPM + one round trip) / wall time; target ≥ 0.9 with no 429.")


if __name__ == "__main__":
    main()
