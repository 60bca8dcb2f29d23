#!/usr/bin/env python3
"""Benchmark: `pwnvault ui` latency, from one key byte written to the pseudo-terminal to the last byte
of the redraw it causes, on a vault of 10,000 accounts and an 834-breach catalog (the fake server's 43
and 791 made from them, wide titles included). Scenarios: moving the selection in Accounts and in the
Catalog, and each typed character of an account filter and of a catalog search. Target: under 16 ms
(one frame at 60 Hz). The redraw is taken as ended when the terminal side has been quiet for 40 ms;
the figure is the time of its last byte. Also the bytes each redraw sent (only changed cells go out).

Run it through bench/run.sh ui (a release build). Prints a Markdown table. Figures, not assertions:
the machine is shared and noisy.
"""
import fcntl, json, os, pty, select, signal, statistics, struct, subprocess, sys, tempfile, termios, time

BIN = os.environ["PWNVAULT_BIN"]
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ACCOUNTS = int(os.environ.get("BENCH_ACCOUNTS", "10000"))
BREACHES = 834
COLUMNS, ROWS = 120, 40
QUIET = 0.04


def make_catalog(path):
    base = json.load(open(os.path.join(ROOT, "tools/fake-hibp/catalog.json")))
    src = base["breaches"]
    out = list(src)   # the server's own accounts refer to these names
    for i in range(BREACHES - len(src)):
        b = dict(src[i % len(src)])
        b["Name"] = f"{b['Name']}{i}"
        b["Title"] = (f"{b['Title']} {i}" if i % 10 else f"集꾸미기 {b['Title']} {i}")
        b["Domain"] = f"site{i}.example"
        b["BreachDate"] = f"{2005 + i % 20}-{1 + i % 12:02d}-{1 + i % 28:02d}"
        b["PwnCount"] = 1000 + (i * 7919) % 50_000_000
        b["IsSensitive"] = False
        b["IsRetired"] = False
        out.append(b)
    base["breaches"] = out
    json.dump(base, open(path, "w"))


def run(args, env, stdin=None):
    p = subprocess.run([BIN] + args, env=env, input=stdin, capture_output=True, text=True)
    if p.returncode not in (0, 1):
        sys.exit(f"pwnvault {' '.join(args)} failed ({p.returncode}): {p.stderr}")


class UI:
    def __init__(self, env):
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.execve(BIN, [BIN, "ui", "--idle", "0"], env)
        fcntl.ioctl(self.fd, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLUMNS, 0, 0))
        os.kill(self.pid, signal.SIGWINCH)
        self.screen = b""

    def read_until_quiet(self, quiet=QUIET, limit=10.0):
        """Bytes until `quiet` seconds pass without any; (bytes, time of the last byte)."""
        got, last, start = b"", None, time.perf_counter()
        while time.perf_counter() - start < limit:
            r, _, _ = select.select([self.fd], [], [], quiet)
            if not r:
                if got:
                    break
                continue
            try:
                chunk = os.read(self.fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            got += chunk
            last = time.perf_counter()
            if b"\x1b[c" in chunk:   # leaving: answer the device-attributes question
                os.write(self.fd, b"\x1b[?62c")
        return got, last

    def wait_for(self, text, limit=60.0):
        start, seen = time.perf_counter(), b""
        while text.encode() not in seen and time.perf_counter() - start < limit:
            got, _ = self.read_until_quiet(0.2)
            seen += got
        if text.encode() not in seen:
            sys.exit(f"ui_bench: '{text}' never appeared")
        self.read_until_quiet(0.3)

    def key(self, data):
        """Latency (ms) from writing `data` to the last byte of the redraw, and the bytes sent."""
        t0 = time.perf_counter()
        os.write(self.fd, data)
        got, last = self.read_until_quiet()
        if last is None:
            return None, 0
        return (last - t0) * 1000, len(got)

    def quit(self):
        os.write(self.fd, b"q")
        self.read_until_quiet(0.3)
        os.waitpid(self.pid, 0)


def measure(ui, keys):
    times, sizes = [], []
    for k in keys:
        ms, n = ui.key(k)
        if ms is not None:
            times.append(ms)
            sizes.append(n)
    return times, sizes


def main():
    work = tempfile.mkdtemp(prefix="pwnvault-ui-bench-")
    os.chmod(work, 0o700)
    passfile = os.path.join(work, "passphrase")
    with open(os.open(passfile, os.O_WRONLY | os.O_CREAT, 0o600), "w") as f:
        f.write("benchmark passphrase, not a secret\n")
    catalog = os.path.join(work, "catalog.json")
    make_catalog(catalog)
    portfile = os.path.join(work, "port")
    server = subprocess.Popen([sys.executable, os.path.join(ROOT, "tools/fake-hibp/fake_hibp.py"), "--port", "0",
                               "--port-file", portfile, "--quiet", "--rpm", "0", "--catalog", catalog],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(300):
            if os.path.exists(portfile):
                break
            time.sleep(0.05)
        port = open(portfile).read().strip()
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": work, "TERM": "xterm-256color",
               "LANG": "C.UTF-8", "XDG_CACHE_HOME": os.path.join(work, "cache"),
               "PWNVAULT_VAULT": os.path.join(work, "vault"), "PWNVAULT_KEYRING": "none",
               "PWNVAULT_PASSPHRASE_FILE": passfile, "PWNVAULT_API_URL": f"http://127.0.0.1:{port}/api/v3"}
        run(["init", "--weak-passphrase-ok", "--kdf", "interactive"], env)
        run(["add", "-"], env, stdin="".join(f"watcher{i}@example{i % 97}.com\n" for i in range(ACCOUNTS)))
        run(["breaches"], env)

        ui = UI(env)
        ui.wait_for(f"Accounts ({ACCOUNTS})")
        rows = []
        t, s = measure(ui, [b"j"] * 150 + [b"k"] * 50)
        rows.append(("Accounts: move the selection (j/k)", t, s))
        ui.key(b"/")
        t, s = [], []
        for word in ["watcher12", "e•••", "#99", "zzz"]:
            tt, ss = measure(ui, [c.encode() for c in word])
            t += tt; s += ss
            ui.key(b"\x15")   # Ctrl-U: empty again
        rows.append(("Accounts: each typed filter character", t, s))
        ui.key(b"\r")
        ui.key(b"c")
        t, s = measure(ui, [b"j"] * 150 + [b"k"] * 50)
        rows.append((f"Catalog ({BREACHES}): move the selection", t, s))
        ui.key(b"/")
        t, s = [], []
        for word in ["adobe", "site7", "集꾸", "zephyr"]:
            tt, ss = measure(ui, [c.encode() for c in word])
            t += tt; s += ss
            ui.key(b"\x15")
        rows.append(("Catalog: each typed search character", t, s))
        ui.key(b"\r")
        ui.quit()
    finally:
        server.terminate()
        server.wait()

    print(f"{ACCOUNTS:,} accounts, {BREACHES}-breach catalog, {COLUMNS}x{ROWS} pseudo-terminal; key byte to the last byte of the redraw")
    print()
    print("| scenario | keys | median (ms) | p95 (ms) | max (ms) | median bytes sent |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, t, s in rows:
        t.sort()
        p95 = t[min(len(t) - 1, int(len(t) * 0.95))]
        print(f"| {name} | {len(t)} | {statistics.median(t):.1f} | {p95:.1f} | {max(t):.1f} | {int(statistics.median(s))} |")


if __name__ == "__main__":
    main()
