#!/usr/bin/env python3
"""keyring_bench.py: `pwnvault list` through each real keyring provider, next to `secret-tool lookup`
of the same item on the same provider (the floor: the same four Secret Service calls, no vault).

    PWNVAULT_BIN=.build/release/pwnvault python3 bench/keyring_bench.py [--rounds 9]

Each provider runs on a private bus of its own (Tests/Support/provider-session.py): GNOME Keyring,
KeePassXC with per-access confirmation off (on, every run waits for a person), KWallet right after
login, and a provider that never answers (list then costs PWNVAULT_KEYRING_TIMEOUT_MS). The two
commands alternate, round by round; the table gives medians and their ratio.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SESSION = os.path.join(ROOT, "Tests", "Support", "provider-session.py")
PASSPHRASE = "correct horse battery staple"


def timed(argv, env):
    start = time.perf_counter()
    done = subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
    elapsed = (time.perf_counter() - start) * 1000
    return elapsed, done.returncode, done.stderr.decode(errors="replace")


def bench(provider, options, rounds, binary):
    with tempfile.TemporaryDirectory(prefix="pwnvault-keyring-bench-") as top:
        session_dir = os.path.join(top, "session")
        home = os.path.join(top, "home")
        os.mkdir(session_dir, 0o700)
        os.mkdir(home, 0o700)
        env = {k: v for k, v in os.environ.items() if k not in ("DBUS_SESSION_BUS_ADDRESS", "DISPLAY")}
        session = subprocess.Popen(["/usr/bin/python3", SESSION, "start", provider, *options, "--dir", session_dir],
                                   stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        try:
            ready = json.loads(session.stdout.readline() or b"{}")
            if "bus" not in ready:
                return provider, None, session.stderr.read().decode(errors="replace").strip()
            passfile = os.path.join(top, "passphrase")
            with open(passfile, "w") as f:
                f.write(PASSPHRASE + "\n")
            os.chmod(passfile, 0o600)
            run_env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": home,
                       "DBUS_SESSION_BUS_ADDRESS": ready["bus"], "PWNVAULT_VAULT": os.path.join(home, "vault"),
                       "XDG_CACHE_HOME": os.path.join(home, ".cache"), "LANG": "C.UTF-8"}
            if provider == "hung":
                run_env["PWNVAULT_KEYRING_TIMEOUT_MS"] = "2000"
            setup_env = dict(run_env, PWNVAULT_PASSPHRASE_FILE=passfile)
            subprocess.run([binary, "init", "--weak-passphrase-ok", "--kdf", "interactive"], env=setup_env, check=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            accounts = "".join(f"user{i}@example.com\n" for i in range(10))
            subprocess.run([binary, "add", "-"], input=accounts.encode(), env=setup_env, check=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            status = subprocess.run([binary, "status", "--json"], env=setup_env, capture_output=True, check=True)
            vault_id = json.loads(status.stdout)["vaultID"]
            lookup = ["secret-tool", "lookup", "application", "pwnvault", "type", "vault-key", "vault-id", vault_id]
            # The hung provider never answers: list then runs on the passphrase after the timeout.
            list_env = setup_env if provider == "hung" else run_env
            pw, floor = [], []
            timed([binary, "list"], list_env)   # warm the page cache
            if provider != "hung":              # secret-tool waits 25 s twice for a provider that never answers
                timed(lookup, run_env)
            for _ in range(rounds):
                ms, rc, err = timed([binary, "list"], list_env)
                if rc != 0 or (provider != "hung" and "passphrase" in err):
                    return provider, None, f"list failed ({rc}): {err.strip()}"
                pw.append(ms)
                ms, rc, _ = timed(["timeout", "5", *lookup], run_env)
                floor.append(ms if rc == 0 else float("nan"))
            return provider, (statistics.median(pw), statistics.median(floor), min(pw), max(pw)), None
        finally:
            session.stdin.close()
            session.wait(timeout=30)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=9)
    args = parser.parse_args()
    binary = os.environ.get("PWNVAULT_BIN") or os.path.join(ROOT, ".build", "release", "pwnvault")
    rows = [bench("gnome-keyring", [], args.rounds, binary),
            bench("keepassxc", ["--confirm", "off"], args.rounds, binary),
            bench("kwallet", [], args.rounds, binary),
            bench("hung", [], args.rounds, binary)]
    print(f"pwnvault list (10 accounts) through each keyring, median of {args.rounds} rounds, alternating with secret-tool lookup")
    print()
    print("| provider | list | secret-tool lookup | ratio | list range |")
    print("|---|---:|---:|---:|---|")
    for name, figures, problem in rows:
        if figures is None:
            print(f"| {name} | failed: {problem} | | | |")
            continue
        pw, floor, low, high = figures
        ratio = "—" if floor != floor else f"{pw / floor:.2f}×"
        shown_floor = "never answers" if floor != floor else f"{floor:.1f} ms"
        print(f"| {name} | {pw:.1f} ms | {shown_floor} | {ratio} | {low:.1f}–{high:.1f} ms |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
