#!/usr/bin/env python3
"""Benchmark: `pwnvault import` of 10,000 contacts with names (each name is screened as a label, issue 30)
beside the same file with the names removed, and beside Python's vobject (Debian's python3-vobject)
parsing the same file: wall time and peak memory.

Run it through bench/run.sh import (a release build, inside a private keyring session). Prints a
Markdown table. Figures, not assertions: the machine is shared and noisy.
"""
import os, random, statistics, subprocess, sys, tempfile, time

BIN = os.environ["PWNVAULT_BIN"]
RUNS = int(os.environ.get("BENCH_RUNS", "5"))
N = int(os.environ.get("BENCH_CONTACTS", "10000"))
# The accounts already in the vault for the third row (0 leaves the row out).
PREFILL = int(os.environ.get("BENCH_PREFILL", str(N)))

FIRST = ["Alice", "Bob", "Carol", "David", "Émile", "François", "Günther", "Hélène", "Ingrid", "José", "Karin", "Łukasz",
         "María", "Nils", "Olga", "Pierre", "Quentin", "Renée", "Søren", "Tomás", "Ursula", "Václav", "Wei", "Xavier",
         "Yusuf", "Zoë", "Иван", "Мария", "Άννα", "Νίκος", "李", "王", "张", "Mohammed", "Aiko", "Sven", "Björn", "Ana"]
LAST = ["Smith", "Jones", "Müller", "Dubois", "García", "Rossi", "Nowak", "Kowalski", "Novák", "Svensson", "Petrov",
        "Иванов", "Παπαδόπουλος", "明", "伟", "芳", "O'Brien", "van der Berg", "Nguyễn", "Yamada", "Kim", "Silva"]


def vcards(named):
    rnd = random.Random(30)
    out = []
    for i in range(N):
        first, last = rnd.choice(FIRST), rnd.choice(LAST)
        card = ["BEGIN:VCARD", "VERSION:3.0"]
        if named:
            card += [f"FN:{first} {last}", f"N:{last};{first};;;"]
            if i % 5 == 0:
                card.append(f"ORG:{last} & Sons")
        else:
            card.append("FN:")
        card += [f"EMAIL;TYPE=INTERNET:contact{i}@mail{i % 211}.example", "END:VCARD"]
        out.append("\r\n".join(card))
    return ("\r\n".join(out) + "\r\n").encode()


def measure(argv, env=None, stdin=None):
    """Runs argv once; returns (seconds, peak RSS in MiB)."""
    start = time.perf_counter()
    p = subprocess.Popen(argv, env=env, stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if stdin:
        p.stdin.write(stdin)
        p.stdin.close()
    _, status, usage = os.wait4(p.pid, 0)
    elapsed = time.perf_counter() - start
    err = p.stderr.read().decode(errors="replace")
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"{' '.join(argv)} failed ({os.waitstatus_to_exitcode(status)}): {err[-2000:]}")
    return elapsed, usage.ru_maxrss / 1024


VOBJECT = r"""
import sys, vobject
n = 0
with open(sys.argv[1], encoding="utf-8") as f:
    for card in vobject.readComponents(f):
        name = card.fn.value if hasattr(card, "fn") else None
        emails = [e.value for e in card.contents.get("email", [])]
        n += 1
print(n)
"""


def main():
    work = tempfile.mkdtemp(prefix="pwnvault-bench-")
    os.chmod(work, 0o700)
    passfile = os.path.join(work, "passphrase")
    with open(os.open(passfile, os.O_WRONLY | os.O_CREAT, 0o600), "w") as f:
        f.write("benchmark passphrase, not a secret\n")
    files = {}
    for named in (True, False):
        path = os.path.join(work, "named.vcf" if named else "unnamed.vcf")
        with open(path, "wb") as f:
            f.write(vcards(named))
        files[named] = path

    def pwnvault_import(path, prefill=0):
        times, peaks = [], []
        for r in range(RUNS):
            env = dict(os.environ)
            env["PWNVAULT_VAULT"] = os.path.join(work, f"v-{os.path.basename(path)}-{prefill}-{r}", "vault")
            env["PWNVAULT_PASSPHRASE_FILE"] = passfile
            measure([BIN, "init", "--weak-passphrase-ok"], env)
            if prefill:
                accounts = "".join(f"watcher{i}@example{i % 97}.com\n" for i in range(prefill))
                measure([BIN, "add", "-"], env, stdin=accounts.encode())
            del env["PWNVAULT_PASSPHRASE_FILE"]  # the keyring opens it, as for a user
            t, m = measure([BIN, "import", path], env)
            times.append(t)
            peaks.append(m)
        return statistics.median(times), max(peaks)

    rows = [("pwnvault import, named contacts (every name screened as a label)", *pwnvault_import(files[True])),
            ("pwnvault import, the same contacts without names", *pwnvault_import(files[False]))]
    if PREFILL:
        rows.append((f"pwnvault import, named contacts, into a vault of {PREFILL:,} accounts", *pwnvault_import(files[True], prefill=PREFILL)))
    # Debian's python3-vobject lives in Debian's Python, whatever python3 comes first on PATH.
    debian_python = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable
    version = subprocess.run([debian_python, "-c", "import vobject, importlib.metadata as m; print(m.version('vobject'))"],
                             capture_output=True, text=True)
    if version.returncode == 0:
        times, peaks = [], []
        for r in range(RUNS):
            t, m = measure([debian_python, "-c", VOBJECT, files[True]])
            times.append(t)
            peaks.append(m)
        rows.append((f"floor: Python's vobject {version.stdout.strip()} (python3-vobject) parsing the named file",
                     statistics.median(times), max(peaks)))
        note = ""
    else:
        note = "\nPython's vobject is not installed (apt-get install python3-vobject): its row is left out."
    print(f"| what ({N:,} contacts) | median wall time (s) | peak memory (MiB) |")
    print("|---|---:|---:|")
    for what, t, m in rows:
        print(f"| {what} | {t:.2f} | {m:.1f} |")
    print(f"\n{RUNS} runs each, a fresh vault each run (opened through the keyring); release build; "
          f"{sum(1 for _ in open(files[True], encoding='utf-8'))} lines, {os.path.getsize(files[True]) // 1024} KiB.{note}")


if __name__ == "__main__":
    main()
