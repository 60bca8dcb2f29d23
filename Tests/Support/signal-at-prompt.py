#!/usr/bin/env python3
"""Run a command on a real pseudo-terminal, send it a signal once TEXT has appeared, and report the
terminal's settings (termios, read through the pty driver) before the command started and after it died.

    signal-at-prompt.py --expect TEXT --signal N [--timeout S] -- CMD ARGS...

Prints one JSON object: {"before": [...], "after": [...], "status": 128+N or the exit status,
"transcript": "..."}; exits 124 on a timeout (TEXT never appeared, or the command never ended).
"""
import argparse, json, os, pty, select, signal, sys, termios, time


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--expect", required=True)
    p.add_argument("--signal", type=int, required=True)
    p.add_argument("--timeout", type=float, default=20.0)
    p.add_argument("cmd", nargs=argparse.REMAINDER)
    a = p.parse_args()
    cmd = a.cmd[1:] if a.cmd and a.cmd[0] == "--" else a.cmd
    master, slave = pty.openpty()
    before = termios.tcgetattr(slave)
    pid = os.fork()
    if pid == 0:
        try:
            os.close(master)
            os.setsid()
            import fcntl
            fcntl.ioctl(slave, termios.TIOCSCTTY, 0)
            for fd in (0, 1, 2):
                os.dup2(slave, fd)
            if slave > 2:
                os.close(slave)
            signal.pthread_sigmask(signal.SIG_SETMASK, [])
            for sig in (signal.SIGINT, signal.SIGQUIT, signal.SIGTSTP, signal.SIGTTIN, signal.SIGTTOU,
                        signal.SIGPIPE, signal.SIGCHLD, signal.SIGHUP, signal.SIGTERM):
                signal.signal(sig, signal.SIG_DFL)
            os.execvp(cmd[0], cmd)
        finally:
            os._exit(127)
    out = bytearray()
    deadline = time.monotonic() + a.timeout
    sent = False
    status = None
    while time.monotonic() < deadline:
        if not sent and a.expect.encode() in out:
            time.sleep(0.2)   # the prompt is written after the settings change; let it settle
            os.kill(pid, a.signal)
            sent = True
        r, _, _ = select.select([master], [], [], 0.05)
        if r:
            try:
                out += os.read(master, 65536)
            except OSError:
                pass
        done, st = os.waitpid(pid, os.WNOHANG)
        if done:
            status = st
            break
    if status is None:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        sys.stdout.write(json.dumps({"timeout": True, "transcript": out.decode("utf-8", "replace")}))
        return 124
    after = termios.tcgetattr(slave)
    code = 128 + os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)
    # termios' control characters come back as bytes: make them numbers for JSON.
    def plain(attrs):
        return attrs[:6] + [[c if isinstance(c, int) else ord(c) for c in attrs[6]]]
    sys.stdout.write(json.dumps({"before": plain(before), "after": plain(after), "status": code,
                                 "signalSent": sent, "transcript": out.decode("utf-8", "replace")}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
