#!/usr/bin/env python3
"""Run a command on a real pseudo-terminal, as a person at a terminal would, and record what it shows.

    ptyrun.py [--timeout S] [--cols N] [--rows N] [--transcript FILE]
              [--expect TEXT --send TEXT]... -- CMD ARGS...

Each --expect waits (up to the timeout) until TEXT has appeared in the output since the previous
expectation, then types the paired --send text (use \\n for Enter; \\x1b and \\x03 escapes work).
Standard output gets the whole transcript (bytes as the terminal received them); the exit status is
the command's (128+N for signal N). 124 means a timeout, with the transcript so far on stdout and a
note on stderr.
"""
import argparse, codecs, os, re, pty, select, signal, struct, sys, time, fcntl, termios


def found(text, out, start):
    """Where `text` ends in `out` after `start`, or None. A message wrapped to the terminal (a line
    break and the hanging indent under it) matches the same text on one line."""
    if text in out[start:]:
        return out.index(text, start) + len(text)
    # The output with each line break and the spaces after it read as one space, and where each
    # of its bytes came from.
    flat, origin, i = bytearray(), [], start
    while i < len(out):
        if out[i:i + 2] == b"\r\n" or out[i:i + 1] == b"\n":
            j = i + (2 if out[i:i + 2] == b"\r\n" else 1)
            while j < len(out) and out[j:j + 1] == b" ":
                j += 1
            if not flat.endswith(b" "):
                flat += b" "
                origin.append(j - 1)
            i = j
            continue
        flat.append(out[i])
        origin.append(i)
        i += 1
    idx = bytes(flat).find(bytes(text))
    return None if idx < 0 else origin[idx + len(text) - 1] + 1


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--timeout", type=float, default=20.0)
    p.add_argument("--cols", type=int, default=100)
    p.add_argument("--rows", type=int, default=30)
    p.add_argument("--expect", action="append", default=[])
    p.add_argument("--send", action="append", default=[])
    p.add_argument("cmd", nargs=argparse.REMAINDER)
    a = p.parse_args()
    cmd = a.cmd[1:] if a.cmd and a.cmd[0] == "--" else a.cmd
    if len(a.expect) != len(a.send):
        p.error("--expect and --send come in pairs")
    def unescape(text):
        # \n, \x1b, \x03 … become the bytes they name; other backslashes are kept as typed.
        return re.sub(r"\\(x[0-9a-fA-F]{2}|[nrt\\])",
                      lambda m: codecs.decode(m.group(0), "unicode_escape"), text).encode()
    steps = [(unescape(e), unescape(s)) for e, s in zip(a.expect, a.send)]

    pid, fd = pty.fork()
    if pid == 0:
        try:
            # A person's terminal starts programs with default signal handling, whatever the test runner had.
            signal.pthread_sigmask(signal.SIG_SETMASK, [])
            # The window's size before the program starts: set only by the parent after the fork, a program
            # that asks at once (check measures its lines) could see 0 columns under load and fall back to 80.
            fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", a.rows, a.cols, 0, 0))
            for sig in (signal.SIGINT, signal.SIGQUIT, signal.SIGTSTP, signal.SIGTTIN, signal.SIGTTOU,
                        signal.SIGPIPE, signal.SIGCHLD, signal.SIGHUP, signal.SIGTERM, signal.SIGXFSZ):
                signal.signal(sig, signal.SIG_DFL)
            os.execvp(cmd[0], cmd)
        finally:
            os._exit(127)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", a.rows, a.cols, 0, 0))

    out = bytearray()
    mark = 0
    deadline = time.monotonic() + a.timeout
    status = None
    timed_out = False
    while True:
        end = found(steps[0][0], out, mark) if steps else None
        if end is not None:
            mark = end
            os.write(fd, steps[0][1])
            steps.pop(0)
            continue
        left = deadline - time.monotonic()
        if left <= 0:
            timed_out = True
            os.kill(pid, signal.SIGKILL)
            break
        r, _, _ = select.select([fd], [], [], min(left, 0.05))
        if r:
            try:
                data = os.read(fd, 65536)
            except OSError:
                data = b""
            if not data:
                break
            out += data
        else:
            done, st = os.waitpid(pid, os.WNOHANG)
            if done:
                status = st
                # drain what is left
                while True:
                    r, _, _ = select.select([fd], [], [], 0.05)
                    if not r:
                        break
                    try:
                        data = os.read(fd, 65536)
                    except OSError:
                        break
                    if not data:
                        break
                    out += data
                break
    if status is None:
        _, status = os.waitpid(pid, 0)
    sys.stdout.buffer.write(bytes(out))
    sys.stdout.flush()
    if timed_out:
        sys.stderr.write("ptyrun: timed out; waiting for %r\n" % (steps[0][0] if steps else b"exit"))
        return 124
    if os.WIFSIGNALED(status):
        return 128 + os.WTERMSIG(status)
    return os.WEXITSTATUS(status)


if __name__ == "__main__":
    sys.exit(main())
