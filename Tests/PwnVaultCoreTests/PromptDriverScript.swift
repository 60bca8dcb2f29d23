/// The Python 3 driver (standard library only) behind the pseudo-terminal tests in `TerminalTests`.
/// It is kept as a string so the test target has no unhandled resource files; the tests write it to a
/// temporary file and run it with `python3`.
enum PromptDriverScript {
    static let source = #"""
# Drives PassphrasePrompt.read through a real pseudo-terminal, the way a person at a shell would.
#
# Process tree: this driver (D) keeps the pty master and a slave fd (to read the terminal settings at
# any time); a session leader (S) owns the pty as its controlling terminal and acts as a tiny job-control
# shell; the child (C), the test binary running one helper test, is S's foreground process group.
# S tells D when C stops or ends and continues C on request. Usage:
#   driver.py SCENARIO RESULT_FILE TEST_BINARY [TEST_ARGS...]     prints one JSON object.
import errno, fcntl, json, os, resource, select, signal, sys, termios, time

scenario, result_file, argv = sys.argv[1], sys.argv[2], sys.argv[3:]
PROMPT = b"Passphrase for test vault: "
DEADLINE = 30.0   # hang protection only, not a measurement

def echo_flags(fd):
    lflag = termios.tcgetattr(fd)[3]
    return {"echo": bool(lflag & termios.ECHO), "echonl": bool(lflag & termios.ECHONL),
            "icanon": bool(lflag & termios.ICANON), "isig": bool(lflag & termios.ISIG)}

env = dict(os.environ, PWNVAULT_PROMPT_HELPER_RESULT=result_file, TERM="xterm")

if scenario == "no-tty":
    pid = os.fork()
    if pid == 0:
        os.setsid()   # a new session has no controlling terminal
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        os.execve(argv[0], argv, env)
    _, status = os.waitpid(pid, 0)
    print(json.dumps({"status": "exited %d" % os.waitstatus_to_exitcode(status)}))
    sys.exit(0)

master, slave = os.openpty()
attrs = termios.tcgetattr(slave)
attrs[3] |= termios.ECHO | termios.ICANON | termios.ISIG   # a person's ordinary terminal
termios.tcsetattr(slave, termios.TCSANOW, attrs)
status_r, status_w = os.pipe()
command_r, command_w = os.pipe()

session = os.fork()
if session == 0:
    os.close(master); os.close(status_r); os.close(command_w)
    os.setsid()
    fcntl.ioctl(slave, termios.TIOCSCTTY, 0)
    signal.signal(signal.SIGTTOU, signal.SIG_IGN)
    child = os.fork()
    if child == 0:
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))   # SIGQUIT must not leave a core file
        os.setpgid(0, 0)
        os.tcsetpgrp(slave, os.getpid())
        signal.signal(signal.SIGTTOU, signal.SIG_DFL)
        for fd in (0, 1, 2):
            os.dup2(slave, fd)
        os.closerange(3, 256)
        os.execve(argv[0], argv, env)
    try:
        os.setpgid(child, child)   # the child does the same; whichever runs first wins
    except OSError:
        pass
    os.write(status_w, b"child %d\n" % child)
    commands = os.fdopen(command_r)
    while True:
        _, status = os.waitpid(child, os.WUNTRACED)
        if os.WIFSTOPPED(status):
            os.write(status_w, b"stopped %d\n" % os.WSTOPSIG(status))
            if commands.readline().strip() == "cont":
                os.kill(child, signal.SIGCONT)
            continue
        if os.WIFSIGNALED(status):
            os.write(status_w, b"signaled %d\n" % os.WTERMSIG(status))
        else:
            os.write(status_w, b"exited %d\n" % os.WEXITSTATUS(status))
        os._exit(0)

os.close(status_w); os.close(command_r)
line = b""
while not line.endswith(b"\n"):
    line += os.read(status_r, 1)
child = int(line.split()[1])
screen = bytearray()
observed = {}
start = time.monotonic()

def pump(until):
    """Reads the screen and S's reports until `until()` holds; returns the report line, if one came."""
    while not until():
        if time.monotonic() - start > DEADLINE:
            observed["deadline"] = True
            return None
        ready, _, _ = select.select([master, status_r], [], [], 0.2)
        if master in ready:
            try:
                screen.extend(os.read(master, 4096))
            except OSError as e:
                if e.errno != errno.EIO:
                    raise
        if status_r in ready:
            return os.read(status_r, 64).decode().strip()
    return None

def prompts():
    return screen.count(PROMPT)

def finish():
    report = pump(lambda: False)
    observed["status"] = report
    pump(lambda: True)   # whatever is left on the screen
    observed["after"] = echo_flags(slave)

try:
    pump(lambda: prompts() >= 1)
    observed["during"] = echo_flags(slave)

    if scenario == "enter":
        os.write(master, b"correct horse \xc3\xa9 battery\r")
        finish()
    elif scenario == "ctrl-c":
        os.write(master, b"half typed")
        os.write(master, b"\x03")
        finish()
    elif scenario.startswith("kill-"):
        os.write(master, b"half typed")
        os.kill(child, getattr(signal, scenario[5:]))
        finish()
    elif scenario == "ctrl-z":
        # Twice: the second Ctrl-Z shows the handler is back in place after the first.
        for key in ("stops", "while_stopped", "resumed"):
            observed[key] = []
        for round in (1, 2):
            os.write(master, b"\x1a")
            observed["stops"].append(pump(lambda: False))
            observed["while_stopped"].append(echo_flags(slave))
            os.write(command_w, b"cont\n")
            pump(lambda: prompts() >= 1 + round)
            observed["resumed"].append(echo_flags(slave))
        os.write(master, b"after resume\n")
        finish()

finally:
    # Leave nothing behind, whatever happened (the child may be stopped or hung).
    for pid in (child, session):
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    os.waitpid(session, 0)

observed["screen"] = screen.decode("utf-8", "replace")
observed["prompts"] = prompts()
print(json.dumps(observed))
"""#
}
