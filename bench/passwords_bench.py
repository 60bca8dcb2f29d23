#!/usr/bin/env python3
"""Benchmark: offline Pwned Passwords lookups, `pwnvault password --offline FILE` next to `look`.

Generates once (reused afterwards) a sorted file of at least 1 GiB of `HASH:COUNT\\r\\n` lines in
$XDG_CACHE_HOME/pwnvault-bench (or ~/.cache/pwnvault-bench): random 160-bit values produced in
ascending order by random increments, with the SHA-1s of known passwords merged in at their place.
Then measures lookups per second, with the same passwords (half in the file, half not):
  - pwnvault, many passwords on stdin in one process (and the per-lookup rate without start-up:
    (N-1) / (time for N - time for 1));
  - pwnvault, one process per password;
  - look (bsdextrautils, LC_ALL=C), one process per hash, as it takes one string per run.
Answers are checked against what was generated. Page cache warm (one untimed pass of each first).
Run through bench/run.sh passwords; PWNVAULT_BIN names the binary. BENCH_QUICK=1 measures less.
"""
import hashlib, os, random, shutil, subprocess, sys, time

BIN = os.environ.get("PWNVAULT_BIN", "pwnvault")
QUICK = bool(os.environ.get("BENCH_QUICK"))
TARGET_BYTES = 1 << 30
KNOWN = 20_000                   # passwords whose hashes are in the file
BATCH = 4_000 if QUICK else 20_000
PER_PROCESS = 100 if QUICK else 400


def cache_dir():
    base = os.environ.get("XDG_CACHE_HOME")
    if not base or not base.startswith("/"):
        base = os.path.join(os.path.expanduser("~"), ".cache")
    path = os.path.join(base, "pwnvault-bench")
    os.makedirs(path, mode=0o700, exist_ok=True)
    return path


def present(i):
    return "bench-present-%d" % i


def absent(i):
    return "bench-absent-%d" % i


def count_of(i):
    return 1 + (i * 7919) % 500_000


def generate(path):
    """Writes the file (through a temporary name, renamed when complete)."""
    known = sorted((int(hashlib.sha1(present(i).encode()).hexdigest(), 16), count_of(i)) for i in range(KNOWN))
    rng = random.Random(20240601)
    lines_wanted = TARGET_BYTES // 46 + 1             # ~48.9 bytes a line on average: > 1 GiB in all
    two_steps = 2 * ((1 << 160) // lines_wanted)      # increments average 2^160 / lines_wanted
    tmp = path + ".partial"
    start = time.perf_counter()
    value, k = 0, 0
    with open(tmp, "w", buffering=1 << 22, newline="") as f:
        chunk = []
        while True:
            value += 1 + (rng.getrandbits(32) * two_steps >> 32)
            if value >= 1 << 160:
                break
            while k < len(known) and known[k][0] <= value:
                if known[k][0] != value:
                    chunk.append("%040X:%d\r\n" % known[k])
                k += 1
            chunk.append("%040X:%d\r\n" % (value, 1 + rng.getrandbits(17)))
            if len(chunk) >= 100_000:
                f.write("".join(chunk))
                chunk = []
        chunk.extend("%040X:%d\r\n" % entry for entry in known[k:])
        f.write("".join(chunk))
    os.rename(tmp, path)
    print("generated %s: %.2f GiB in %.0f s" % (path, os.path.getsize(path) / (1 << 30), time.perf_counter() - start),
          file=sys.stderr)


def timed(args, stdin_text=None, env=None):
    start = time.perf_counter()
    r = subprocess.run(args, input=stdin_text.encode() if stdin_text is not None else None,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    return time.perf_counter() - start, r


def main():
    if not shutil.which("look"):
        sys.exit("passwords_bench: 'look' is missing (apt-get install bsdextrautils)")
    path = os.path.join(cache_dir(), "pwned-sha1-1gib.txt")
    if not os.path.exists(path):
        generate(path)
    size = os.path.getsize(path)
    env = dict(os.environ, LC_ALL="C", PWNVAULT_KEYRING="none")

    rng = random.Random(7)
    queries = []
    for i in range(BATCH):
        queries.append((present(rng.randrange(KNOWN)), True) if i % 2 == 0 else (absent(i), False))
    expected = {}
    for i in range(KNOWN):
        expected[present(i)] = count_of(i)

    def batch(items):
        text = "".join(p + "\n" for p, _ in items)
        return timed([BIN, "password", "--offline", path], text, env)

    # Warm the page cache along every search path, and check the answers.
    _, warm = batch(queries)
    if warm.returncode not in (0, 1):
        sys.exit("pwnvault failed (%d): %s" % (warm.returncode, warm.stderr.decode()))
    out = warm.stdout.decode().splitlines()
    for (password, is_present), line in zip(queries, out):
        want = ("seen %s times" % format(expected[password], ",")) if is_present else "not found"
        if not line.endswith(": " + want):
            sys.exit("wrong answer for %s: %r (expected %r)" % (password, line, want))
    if len(out) != len(queries):
        sys.exit("pwnvault answered %d of %d lines" % (len(out), len(queries)))

    rows = []
    t_all, _ = batch(queries)
    t_one = min(batch(queries[:1])[0] for _ in range(5))
    rows.append(("pwnvault password --offline, %s passwords on stdin (one process)" % format(len(queries), ","),
                 len(queries) / t_all))
    rows.append(("pwnvault, per lookup without process start-up ((N-1) / (t(N) - t(1)))",
                 (len(queries) - 1) / max(t_all - t_one, 1e-9)))

    sample = queries[:PER_PROCESS]
    hashes = [(hashlib.sha1(p.encode()).hexdigest().upper(), ok) for p, ok in sample]
    for _ in range(2):   # warm-up and check, then measure
        start = time.perf_counter()
        for (password, is_present) in sample:
            r = subprocess.run([BIN, "password", "--offline", path], input=(password + "\n").encode(),
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
            if r.returncode != (1 if is_present else 0):
                sys.exit("pwnvault one-shot: wrong status %d" % r.returncode)
        t_pw = time.perf_counter() - start
    rows.append(("pwnvault password --offline, one process per password", len(sample) / t_pw))

    for _ in range(2):
        start = time.perf_counter()
        for (h, is_present) in hashes:
            r = subprocess.run(["look", h + ":", path], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
            if (r.returncode == 0) != is_present:
                sys.exit("look: wrong answer for %s (status %d)" % (h, r.returncode))
        t_look = time.perf_counter() - start
    rows.append(("look HASH: FILE (bsdextrautils, LC_ALL=C), one process per hash", len(hashes) / t_look))

    print("| tool | lookups per second |")
    print("|---|---:|")
    for name, rate in rows:
        print("| %s | %s |" % (name, format(int(round(rate)), ",")))
    print("\nFile: %.2f GiB, %s bytes, random SHA-1s sorted, CRLF; half the lookups present, half absent;"
          " page cache warm; release build." % (size / (1 << 30), format(size, ",")))


if __name__ == "__main__":
    main()
