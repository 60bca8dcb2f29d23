#!/usr/bin/env python3
"""Benchmark: a month of daily `pwnvault watch` against the fake HIBP server on loopback.

1,000 accounts are watched for 30 simulated days (a build with -D PWNVAULT_BENCH_CLOCK adds
PWNVAULT_BENCH_DAY days to pwnvault's calendar clock; libfaketime cannot be used: it breaks Swift's timers)
while the catalog gains 3 breaches (and, in the "noisy month", changes in 7 ways that cannot concern an
e-mail address: an edit, a sensitive breach, a spam list, a retired one, a breach of phone numbers, one of
usernames, an IsVerified flip). Printed: the API requests `watch` made, by endpoint, next to a
naive daily `check --all --force` (one request per account per day); and the wall time of a quiet
`watch` next to its floors measured in the same run: fetching the catalog alone (Python's urllib) and
`secret-tool lookup` (the keyring read every command makes). Two vaults: personal addresses on many
domains, and addresses on one domain the key verified (answered by domain search).
Run through bench/run.sh monitor (inside a private keyring session).
"""
import json, os, statistics, subprocess, sys, tempfile, time, urllib.request

BIN = os.environ["PWNVAULT_BIN"]
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KEY = "11111111111111111111111111111111"
ACCOUNTS = int(os.environ.get("BENCH_ACCOUNTS", "1000"))
DAYS = 30
NEWS_DAYS = {5: "BenchLeakOne", 12: "BenchLeakTwo", 21: "BenchLeakThree"}
# The "noisy month": the same news, and catalog changes that cannot concern an e-mail address, as HIBP
# makes them (issue 22): each made a full check before `watch` read what changed.
NOISE_DAYS = {
    3: {"Name": "Adobe", "Description": "Updated description.", "ModifiedDate": "2030-01-03T00:00:00Z"},  # edited
    8: {"Name": "BenchSensitive", "IsSensitive": True},                                          # sensitive
    10: {"Name": "BenchSpamList", "IsSpamList": True},                                           # a spam list
    15: {"Name": "Quillstream", "IsRetired": True},                                              # retired
    17: {"Name": "BenchPhones", "DataClasses": ["Names", "Phone numbers"]},                      # phones only
    24: {"Name": "BenchGamers", "DataClasses": ["Passwords", "Usernames"]},                      # usernames only
    26: {"Name": "BenchLeakOne", "IsVerified": False, "ModifiedDate": "2030-01-26T00:00:00Z"},  # unverified
}



def control(base, path, body=None):
    req = urllib.request.Request(base + path, data=None if body is None else json.dumps(body).encode(),
                                 method="GET" if body is None else "POST",
                                 headers={"user-agent": "bench", "content-type": "application/json"})
    with urllib.request.urlopen(req) as r:
        return json.loads(r.read() or b"null")


def median_ms(cmd, env, runs=11):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def scenario(name, address, watch_args=(), noise=False):
    work = tempfile.mkdtemp(prefix="pwnvault-monitor-bench-")
    port_file = os.path.join(work, "port")
    server = subprocess.Popen([sys.executable, os.path.join(ROOT, "tools/fake-hibp/fake_hibp.py"), "--port", "0",
                               "--port-file", port_file, "--quiet", "--key", f"{KEY}:60000", "--burst", "1000"],
                              stderr=subprocess.DEVNULL)
    try:
        for _ in range(300):
            if os.path.exists(port_file):
                break
            time.sleep(0.02)
        base = "http://127.0.0.1:" + open(port_file).read().strip()
        control(base, "/__control/config", {"domains": ["corp.example"]})
        env = dict(os.environ, PWNVAULT_API_URL=base + "/api/v3", HIBP_API_KEY=KEY, HOME=work,
                   XDG_CACHE_HOME=os.path.join(work, "cache"), XDG_CONFIG_HOME=os.path.join(work, "config"),
                   PWNVAULT_VAULT=os.path.join(work, "v", "vault"), PWNVAULT_PASSPHRASE_FILE=os.path.join(work, "pass"))
        with open(os.open(env["PWNVAULT_PASSPHRASE_FILE"], os.O_WRONLY | os.O_CREAT, 0o600), "w") as f:
            f.write("benchmark passphrase\n")
        def run(args, e=env, day=None, **kw):
            kw.setdefault("stdout", subprocess.DEVNULL)
            if day:
                e = dict(e, PWNVAULT_BENCH_DAY=str(day))
            return subprocess.run([BIN] + args, env=e, stderr=subprocess.PIPE, **kw)
        run(["init", "--weak-passphrase-ok", "--kdf", "interactive"], check=True)
        addresses = [address(i) for i in range(ACCOUNTS)]
        run(["add", "-"], input="".join(a + "\n" for a in addresses).encode(), check=True)
        first = run(["check", "--all", "--force"])
        assert first.returncode in (0, 1), first.stderr.decode()
        assert run(["ack", "--all"]).returncode == 0
        w0 = run(["watch"])   # records the first full check and the catalog it saw
        assert w0.returncode in (0, 1), w0.stderr.decode()
        control(base, "/__control/reset", {})

        by_endpoint, news_runs, news_days = {}, 0, []
        for day in range(1, DAYS + 1):
            if noise and day in NOISE_DAYS:
                control(base, "/__control/breaches", NOISE_DAYS[day])
            if day in NEWS_DAYS:
                breach = NEWS_DAYS[day]
                control(base, "/__control/breaches", {"Name": breach, "Title": breach})
                for victim in addresses[day::97][:5]:
                    control(base, "/__control/accounts", {"account": victim, "breaches": [breach]})
            r = run(["watch", "--json", *watch_args], day=day, stdout=subprocess.PIPE)
            if r.returncode not in (0, 1):
                sys.exit(f"{name}: watch failed on day {day} ({r.returncode}): {r.stderr.decode()}")
            if r.returncode == 1:
                news_runs += 1
                news_days.append(day)
            for endpoint, n in control(base, "/__control/stats").get("by_endpoint", {}).items():
                by_endpoint[endpoint] = by_endpoint.get(endpoint, 0) + n
            control(base, "/__control/reset", {})

        # A quiet watch, and its floors, in the same sitting.
        quiet = median_ms([BIN, "watch"], env)
        catalog = median_ms([sys.executable, "-c", f"import urllib.request as u; u.urlopen(u.Request('{base}/api/v3/breaches', headers={{'user-agent': 'b'}})).read()"], env)
        lookup = median_ms(["secret-tool", "lookup", "application", "pwnvault"], env)
        return dict(name=name, requests=sum(by_endpoint.values()), by_endpoint=by_endpoint, news_runs=news_runs, news_days=news_days,
                    quiet_ms=quiet, catalog_ms=catalog, lookup_ms=lookup)
    finally:
        server.terminate()
        server.wait()


def main():
    personal = lambda i: f"clean.m{i}@example{i % 50}.net"
    scenarios = {
        "personal": lambda: scenario("personal addresses on many domains", personal),
        "personal30": lambda: scenario("the same, watch --full-every 30 (catalog changes only)", personal, ("--full-every", "30")),
        "noisy": lambda: scenario("personal addresses, noisy month", personal, noise=True),
        "noisy30": lambda: scenario("personal addresses, noisy month, --full-every 30", personal, ("--full-every", "30"), noise=True),
        "domain": lambda: scenario("addresses on one verified domain", lambda i: f"clean.staff{i}@corp.example"),
    }
    # BENCH_SCENARIOS=personal,noisy runs only those (the default: every one).
    wanted = os.environ.get("BENCH_SCENARIOS", ",".join(scenarios)).split(",")
    rows = [scenarios[w]() for w in wanted]
    naive = ACCOUNTS * DAYS
    print(f"{ACCOUNTS:,} accounts, {DAYS} daily runs, the catalog gains {len(NEWS_DAYS)} breaches (days {', '.join(map(str, NEWS_DAYS))}) "
          f"that can hold every account; the noisy month also changes in {len(NOISE_DAYS)} ways that cannot concern an "
          f"e-mail address (days {', '.join(map(str, NOISE_DAYS))})\n")
    print("| vault | watch requests (30 days) | naive check --all --force | share | runs with news | by endpoint |")
    print("|---|---:|---:|---:|---:|---|")
    for r in rows:
        ends = ", ".join(f"{k} {v:,}" for k, v in sorted(r["by_endpoint"].items()))
        print(f"| {r['name']} | {r['requests']:,} | {naive:,} | {100 * r['requests'] / naive:.1f} % | {r['news_runs']} (days {', '.join(map(str, r['news_days'])) or '-'}) | {ends} |")
    print("\n| vault | quiet watch (ms) | catalog fetch alone (ms) | secret-tool lookup (ms) | watch / (fetch + lookup) |")
    print("|---|---:|---:|---:|---:|")
    for r in rows:
        print(f"| {r['name']} | {r['quiet_ms']:.0f} | {r['catalog_ms']:.0f} | {r['lookup_ms']:.0f} | "
              f"{r['quiet_ms'] / (r['catalog_ms'] + r['lookup_ms']):.1f}× |")
    print("\nmedians of 11 runs; the floors are measured in the same sitting.")


if __name__ == "__main__":
    main()
