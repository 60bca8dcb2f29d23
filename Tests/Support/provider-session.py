#!/usr/bin/python3
"""provider-session.py: a real Secret Service provider on a private, headless session bus.

  provider-session.py start PROVIDER [--confirm on|off] [--db locked|closed|open] --dir DIR
  provider-session.py dialog ACTION --display :N [--timeout S] [--password P] [--remember]
  provider-session.py call --bus ADDR lock|close|unlock-db [--password P]

PROVIDER is keepassxc, kwallet, gnome-keyring, hung (owns org.freedesktop.secrets and never
answers) or none (a bus with no provider). DIR is a fresh, empty directory (mode 0700) made by
the caller: HOME, the XDG directories, the bus socket, the logs and the KeePassXC database go
there. `start` brings up Xvfb, a private dbus-daemon (no service activation) and the provider,
waits until the provider serves, prints one JSON line

  {"bus": "unix:path=...", "display": ":N", "pid": PID|null, "home": ..., "xdg_config_home": ...,
   "xdg_data_home": ..., "xdg_runtime_dir": ...}

and holds everything up until stdin reaches EOF or SIGTERM/SIGINT arrives; then it tears
everything down and exits 0. A failure to come up prints one line to stderr and exits 2.

`dialog` drives KeePassXC's dialogs on a display with xdotool (for tests that answer the access
or unlock dialogs); `call` locks, closes or unlocks the provider's storage over D-Bus.

Needs: /usr/bin/python3 with python3-gi (GDBus), dbus (dbus-daemon), xvfb, xdotool, and the
provider: keepassxc; libkf5wallet-bin + libqca-qt5-2-plugins (kwalletd5); gnome-keyring.
Everything here is throw-away test state; the passwords below are not secrets.
"""

import argparse
import ctypes
import hashlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

PROG = os.path.basename(sys.argv[0])
SECRETS = "org.freedesktop.secrets"
SERVICE_PATH = "/org/freedesktop/secrets"
SERVICE_IFACE = "org.freedesktop.Secret.Service"
COLLECTION_IFACE = "org.freedesktop.Secret.Collection"
ITEM_IFACE = "org.freedesktop.Secret.Item"
PROMPT_IFACE = "org.freedesktop.Secret.Prompt"
KEEPASSXC_NAME = "org.keepassxc.KeePassXC.MainWindow"
KEEPASSXC_PATH = "/keepassxc"
KEEPASSXC_IFACE = "org.keepassxc.KeePassXC.MainWindow"
KWALLETD_NAME = "org.kde.kwalletd5"
KWALLETD_PATH = "/modules/kwalletd5"
KWALLETD_IFACE = "org.kde.KWallet"
GNOME_LOGIN = "/org/freedesktop/secrets/collection/login"

# Fixed, throw-away test passwords (the state lives and dies with DIR).
TEST_PASSWORD = "pwnvault-test-keyring"
KWALLET_NAME = "kdewallet"

STARTUP_TIMEOUT = 20.0
PROVIDERS = ("keepassxc", "kwallet", "gnome-keyring", "hung", "none")

# The exposed group of the KeePassXC test database: its root group, with a fixed UUID.
KDBX_ROOT_UUID_B64 = "ik0oAkmHScet9+XPVMrWzg=="
KDBX_ROOT_UUID = "{8a4d2802-4987-49c7-adf7-e5cf54cad6ce}"


class StartError(Exception):
    """Something did not come up; the message says what and why."""


# --------------------------------------------------------------------------------------------
# D-Bus helpers (GDBus through python3-gi)
# --------------------------------------------------------------------------------------------

def gio():
    try:
        import gi
        gi.require_version("Gio", "2.0")
        from gi.repository import Gio, GLib
    except (ImportError, ValueError) as error:
        raise StartError("python3-gi (GDBus) is not usable: %s" % error)
    return Gio, GLib


def bus_connect(address, timeout=5.0):
    Gio, GLib = gio()
    flags = (Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT
             | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION)
    deadline = time.monotonic() + timeout
    while True:
        try:
            return Gio.DBusConnection.new_for_address_sync(address, flags, None, None)
        except GLib.Error:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def dbus_call(conn, dest, path, iface, method, args=None, sig=None, reply=None, timeout_ms=5000):
    """One method call; returns the unpacked reply tuple. Raises GLib.Error."""
    Gio, GLib = gio()
    params = GLib.Variant(sig, args) if sig is not None else None
    result = conn.call_sync(dest, path, iface, method, params,
                            GLib.VariantType(reply) if reply else None,
                            Gio.DBusCallFlags.NONE, timeout_ms, None)
    return result.unpack() if result is not None else ()


def get_property(conn, dest, path, iface, name, timeout_ms=5000):
    return dbus_call(conn, dest, path, "org.freedesktop.DBus.Properties", "Get",
                     (iface, name), "(ss)", "(v)", timeout_ms)[0]


def name_owner(conn, name):
    try:
        return dbus_call(conn, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                         "org.freedesktop.DBus", "GetNameOwner", (name,), "(s)", "(s)", 2000)[0]
    except Exception:
        return None


def error_text(error):
    """'org.freedesktop.Secret.Error.NoSuchObject: message' for a GLib.Error from GDBus."""
    if not hasattr(error, "domain"):
        return str(error)
    Gio, GLib = gio()
    if Gio.DBusError.is_remote_error(error):
        remote = Gio.DBusError.get_remote_error(error)
        message = error.message
        prefix = "GDBus.Error:%s: " % remote
        if message.startswith(prefix):
            message = message[len(prefix):]
        return "%s: %s" % (remote, message)
    return "%s %d: %s" % (GLib.quark_to_string(error.domain) if isinstance(error.domain, int)
                          else error.domain, error.code, error.message)


# --------------------------------------------------------------------------------------------
# Processes
# --------------------------------------------------------------------------------------------

_libc = ctypes.CDLL(None, use_errno=True)
PR_SET_PDEATHSIG = 1


def _child_setup():
    # Our children die with us even if we are SIGKILLed (no process left behind).
    _libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)


class Session:
    def __init__(self, args):
        self.args = args
        self.dir = os.path.abspath(args.dir)
        self.procs = []          # (name, Popen), in start order
        self.provider_proc = None
        self.display = None
        self.bus_address = None
        self.conn = None
        self.extra_dirs = []     # dirs we made outside DIR (a short socket dir), removed at the end
        d = self.dir
        self.home = os.path.join(d, "home")
        self.xdg_config_home = os.path.join(self.home, ".config")
        self.xdg_data_home = os.path.join(self.home, ".local", "share")
        self.xdg_cache_home = os.path.join(self.home, ".cache")
        self.xdg_state_home = os.path.join(self.home, ".local", "state")
        self.xdg_runtime_dir = os.path.join(d, "run")
        self.tmpdir = os.path.join(d, "tmp")
        self.logdir = os.path.join(d, "logs")

    # -- helpers ---------------------------------------------------------------------------

    def log(self, name):
        return os.path.join(self.logdir, name + ".log")

    def log_tail(self, name, lines=12):
        try:
            with open(self.log(name), "rb") as f:
                data = f.read()[-6000:].decode("utf-8", "replace")
        except OSError:
            return "(no log)"
        tail = [l for l in data.splitlines() if l.strip()][-lines:]
        return " | ".join(tail) if tail else "(empty log)"

    def env(self):
        env = {k: v for k, v in os.environ.items()
               if k in ("PATH", "LANG", "LC_ALL", "LANGUAGE", "TERM", "USER", "LOGNAME", "SHELL", "TZ")}
        env.setdefault("PATH", "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin")
        env.update({
            "HOME": self.home,
            "XDG_CONFIG_HOME": self.xdg_config_home,
            "XDG_DATA_HOME": self.xdg_data_home,
            "XDG_CACHE_HOME": self.xdg_cache_home,
            "XDG_STATE_HOME": self.xdg_state_home,
            "XDG_RUNTIME_DIR": self.xdg_runtime_dir,
            "TMPDIR": self.tmpdir,
            "NO_AT_BRIDGE": "1",          # no accessibility bus (nothing may be activated)
            "QT_ACCESSIBILITY": "0",
            "QT_QPA_PLATFORM": "xcb",
        })
        if self.display:
            env["DISPLAY"] = self.display
        if self.bus_address:
            env["DBUS_SESSION_BUS_ADDRESS"] = self.bus_address
        return env

    def spawn(self, name, argv, stdin=subprocess.DEVNULL, pass_fds=(), env=None):
        logf = open(self.log(name), "ab")
        try:
            proc = subprocess.Popen(argv, stdin=stdin, stdout=logf, stderr=subprocess.STDOUT,
                                    env=env if env is not None else self.env(), cwd=self.dir,
                                    pass_fds=pass_fds, start_new_session=True,
                                    preexec_fn=_child_setup)
        except OSError as error:
            raise StartError("cannot run %s: %s" % (argv[0], error))
        finally:
            logf.close()
        self.procs.append((name, proc))
        return proc

    def check_alive(self, name, proc):
        if proc.poll() is not None:
            raise StartError("%s exited with status %s during startup; log: %s"
                             % (name, proc.returncode, self.log_tail(name)))

    def wait_for(self, what, name, proc, predicate, timeout=None):
        """Poll predicate() until it returns a true value; the process must stay alive."""
        deadline = self.deadline if timeout is None else time.monotonic() + timeout
        last_error = None
        while True:
            if proc is not None:
                self.check_alive(name, proc)
            try:
                value = predicate()
                if value:
                    return value
            except Exception as error:  # GLib.Error and friends: keep trying until the deadline
                last_error = error
            if time.monotonic() > deadline:
                why = "" if last_error is None else " (last error: %s)" % error_text(last_error)
                raise StartError("timed out waiting for %s%s; %s log: %s"
                                 % (what, why, name, self.log_tail(name)))
            time.sleep(0.05)

    # -- start -----------------------------------------------------------------------------

    def prepare_dirs(self):
        if not os.path.isdir(self.dir):
            raise StartError("--dir %s is not a directory" % self.dir)
        for d in (self.home, self.xdg_config_home, self.xdg_data_home, self.xdg_cache_home,
                  self.xdg_state_home, self.xdg_runtime_dir, self.tmpdir, self.logdir):
            os.makedirs(d, mode=0o700, exist_ok=True)
            os.chmod(d, 0o700)

    def start_xvfb(self):
        if not shutil.which("Xvfb"):
            raise StartError("Xvfb is not installed (apt-get install xvfb)")
        rfd, wfd = os.pipe()
        proc = self.spawn("xvfb", ["Xvfb", "-displayfd", str(wfd), "-nolisten", "tcp",
                                   "-screen", "0", "1280x1024x24", "-noreset"],
                          pass_fds=(wfd,))
        os.close(wfd)
        data = b""
        deadline = time.monotonic() + 10
        os.set_blocking(rfd, False)
        while not data.endswith(b"\n"):
            self.check_alive("xvfb", proc)
            if time.monotonic() > deadline:
                os.close(rfd)
                raise StartError("Xvfb did not report a display; xvfb log: %s" % self.log_tail("xvfb"))
            try:
                chunk = os.read(rfd, 64)
                if not chunk:
                    break
                data += chunk
            except BlockingIOError:
                time.sleep(0.02)
        os.close(rfd)
        if not data.strip().isdigit():
            raise StartError("Xvfb did not report a display; xvfb log: %s" % self.log_tail("xvfb"))
        self.display = ":" + data.strip().decode()

    def start_bus(self):
        if not shutil.which("dbus-daemon"):
            raise StartError("dbus-daemon is not installed (apt-get install dbus)")
        sock = os.path.join(self.dir, "bus")
        if len(sock.encode()) > 100:  # sun_path holds 108 bytes
            short = tempfile.mkdtemp(prefix="pvs-")
            self.extra_dirs.append(short)
            sock = os.path.join(short, "bus")
        conf = os.path.join(self.dir, "bus.conf")
        with open(conf, "w") as f:
            f.write("""<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path=%s</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
""" % sock)
        rfd, wfd = os.pipe()
        proc = self.spawn("bus", ["dbus-daemon", "--config-file=" + conf, "--nofork",
                                  "--nopidfile", "--print-address=%d" % wfd], pass_fds=(wfd,))
        os.close(wfd)
        with os.fdopen(rfd, "rb") as r:
            line = r.readline().decode().strip()
        if not line:
            self.check_alive("bus", proc)
            raise StartError("dbus-daemon printed no address; bus log: %s" % self.log_tail("bus"))
        self.bus_address = line.split(",guid=")[0]
        self.conn = bus_connect(self.bus_address)

    def secrets_owner(self):
        return name_owner(self.conn, SECRETS)

    def provider_pid(self):
        return self.provider_proc.pid if self.provider_proc is not None else None

    def wait_name(self, name, proc, label, bus_name=SECRETS):
        self.wait_for("%s to own %s" % (label, bus_name), name, proc,
                      lambda: name_owner(self.conn, bus_name))

    def start(self):
        self.deadline = time.monotonic() + STARTUP_TIMEOUT
        self.prepare_dirs()
        self.start_xvfb()
        self.start_bus()
        provider = self.args.provider
        if provider == "gnome-keyring":
            self.start_gnome_keyring()
        elif provider == "keepassxc":
            self.start_keepassxc()
        elif provider == "kwallet":
            self.start_kwallet()
        elif provider == "hung":
            self.start_hung()
        if provider != "none":
            self.check_alive(provider, self.provider_proc)

    # -- gnome-keyring ---------------------------------------------------------------------

    def start_gnome_keyring(self):
        if not shutil.which("gnome-keyring-daemon"):
            raise StartError("gnome-keyring-daemon is not installed (apt-get install gnome-keyring)")
        proc = self.spawn("gnome-keyring", ["gnome-keyring-daemon", "--foreground", "--unlock",
                                            "--components=secrets"], stdin=subprocess.PIPE)
        proc.stdin.write(TEST_PASSWORD.encode())
        proc.stdin.close()
        self.provider_proc = proc
        self.wait_name("gnome-keyring", proc, "gnome-keyring-daemon")

        def ready():
            path = dbus_call(self.conn, SECRETS, SERVICE_PATH, SERVICE_IFACE, "ReadAlias",
                             ("default",), "(s)", "(o)")[0]
            return path != "/" and not get_property(self.conn, SECRETS, path, COLLECTION_IFACE, "Locked")
        self.wait_for("the unlocked default collection of gnome-keyring", "gnome-keyring", proc, ready)

    # -- keepassxc -------------------------------------------------------------------------

    def start_keepassxc(self):
        for tool in ("keepassxc", "keepassxc-cli"):
            if not shutil.which(tool):
                raise StartError("%s is not installed (apt-get install keepassxc)" % tool)
        confirm = self.args.confirm == "on"
        db_state = self.args.db
        # Configuration: Secret Service on; no update checks, tray, idle locks or recent files.
        confdir = os.path.join(self.xdg_config_home, "keepassxc")
        os.makedirs(confdir, mode=0o700, exist_ok=True)
        with open(os.path.join(confdir, "keepassxc.ini"), "w") as f:
            f.write("[General]\nConfigVersion=2\nSingleInstance=false\nRememberLastDatabases=false\n"
                    "RememberLastKeyFiles=false\nOpenPreviousDatabasesOnStartup=false\n"
                    "AutoSaveAfterEveryChange=true\nAutoSaveOnExit=false\n"
                    "UpdateCheckMessageShown=true\n"
                    "[GUI]\nCheckForUpdates=false\nShowTrayIcon=false\nMinimizeOnStartup=false\n"
                    "[Security]\nLockDatabaseIdle=false\nLockDatabaseScreenLock=false\n"
                    "LockDatabaseMinimize=false\n"
                    "[FdoSecrets]\nEnabled=true\nShowNotification=false\nConfirmAccessItem=%s\n"
                    % ("true" if confirm else "false"))
        # Database: its root group is the exposed group (custom data FDO_SECRETS_EXPOSED_GROUP);
        # no recycle bin (deleting an item deletes it).
        xml = os.path.join(self.dir, "keepassxc-db.xml")
        with open(xml, "w") as f:
            f.write("""<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<KeePassFile>
 <Meta>
  <Generator>KeePassXC</Generator>
  <DatabaseName>pwnvault-test</DatabaseName>
  <RecycleBinEnabled>False</RecycleBinEnabled>
  <CustomData>
   <Item><Key>FDO_SECRETS_EXPOSED_GROUP</Key><Value>%s</Value></Item>
  </CustomData>
 </Meta>
 <Root>
  <Group>
   <UUID>%s</UUID>
   <Name>Passwords</Name>
   <IsExpanded>True</IsExpanded>
  </Group>
 </Root>
</KeePassFile>
""" % (KDBX_ROOT_UUID, KDBX_ROOT_UUID_B64))
        self.kdbx = os.path.join(self.dir, "pwnvault-test.kdbx")
        with open(self.log("keepassxc-cli"), "ab") as logf:
            result = subprocess.run(["keepassxc-cli", "import", "-q", "-p", "-t", "100", xml, self.kdbx],
                                    input=("%s\n%s\n" % (TEST_PASSWORD, TEST_PASSWORD)).encode(),
                                    stdout=logf, stderr=subprocess.STDOUT, env=self.env(), timeout=15)
        os.unlink(xml)
        if result.returncode != 0 or not os.path.exists(self.kdbx):
            raise StartError("keepassxc-cli import failed (status %d); log: %s"
                             % (result.returncode, self.log_tail("keepassxc-cli")))

        proc = self.spawn("keepassxc", ["keepassxc", "--pw-stdin", self.kdbx], stdin=subprocess.PIPE)
        proc.stdin.write((TEST_PASSWORD + "\n").encode())
        proc.stdin.close()
        self.provider_proc = proc
        self.wait_name("keepassxc", proc, "KeePassXC")

        def default_collection():
            path = dbus_call(self.conn, SECRETS, SERVICE_PATH, SERVICE_IFACE, "ReadAlias",
                             ("default",), "(s)", "(o)")[0]
            if path == "/":
                return None
            if get_property(self.conn, SECRETS, path, COLLECTION_IFACE, "Locked"):
                return None
            return path
        collection = self.wait_for("KeePassXC's unlocked default collection", "keepassxc", proc,
                                   default_collection)
        self.wait_for("KeePassXC's D-Bus interface %s" % KEEPASSXC_NAME, "keepassxc", proc,
                      lambda: name_owner(self.conn, KEEPASSXC_NAME))
        self.wait_for("a test item to be stored in KeePassXC's default collection", "keepassxc",
                      proc, lambda: self.keepassxc_probe(collection))
        if db_state == "locked":
            dbus_call(self.conn, KEEPASSXC_NAME, KEEPASSXC_PATH, KEEPASSXC_IFACE, "lockAllDatabases")

            def locked():
                path = dbus_call(self.conn, SECRETS, SERVICE_PATH, SERVICE_IFACE, "ReadAlias",
                                 ("default",), "(s)", "(o)")[0]
                return path != "/" and get_property(self.conn, SECRETS, path, COLLECTION_IFACE, "Locked")
            self.wait_for("KeePassXC's database to be locked", "keepassxc", proc, locked)
        elif db_state == "closed":
            dbus_call(self.conn, KEEPASSXC_NAME, KEEPASSXC_PATH, KEEPASSXC_IFACE, "closeAllDatabases")

            def closed():
                collections = get_property(self.conn, SECRETS, SERVICE_PATH, SERVICE_IFACE, "Collections")
                return not collections
            self.wait_for("KeePassXC's database to be closed", "keepassxc", proc, closed)

    def keepassxc_probe(self, collection):
        """Store one item on a connection of our own: proves that CreateItem works.

        KeePassXC 2.7.4 answers every CreateItem with a prompt; Prompt("") creates the item
        without a dialog (an item is authorized for the client that made it) and Completed
        carries its path. The item stays (deleting it would raise a confirmation dialog); it is
        labelled "provider-session readiness probe", attributes application=provider-session,
        type=probe.
        """
        conn = bus_connect(self.bus_address)
        try:
            Gio, GLib = gio()
            _, session = dbus_call(conn, SECRETS, SERVICE_PATH, SERVICE_IFACE, "OpenSession",
                                   ("plain", GLib.Variant("s", "")), "(sv)", "(vo)")
            props = {
                ITEM_IFACE + ".Label": GLib.Variant("s", "provider-session readiness probe"),
                ITEM_IFACE + ".Attributes": GLib.Variant("a{ss}", {"application": "provider-session",
                                                                   "type": "probe"}),
            }
            secret = (session, b"", b"probe", "text/plain")
            item, prompt = dbus_call(conn, SECRETS, collection, COLLECTION_IFACE, "CreateItem",
                                     (props, secret, True), "(a{sv}(oayays)b)", "(oo)")
            if item == "/" and prompt != "/":
                completed = self.run_prompt(conn, prompt)
                if completed is None:
                    dbus_call(conn, SECRETS, prompt, PROMPT_IFACE, "Dismiss")
                    raise StartError("the CreateItem prompt did not complete")
                dismissed, result = completed
                if dismissed:
                    raise StartError("the CreateItem prompt was dismissed")
                item = result
            if not item or item == "/":
                raise StartError("CreateItem made no item")
            return True
        finally:
            conn.close_sync(None)

    def run_prompt(self, conn, prompt, timeout=5.0):
        """Prompt.Prompt("") and wait for Completed; returns (dismissed, result)."""
        Gio, GLib = gio()
        ctx = GLib.MainContext.new()
        ctx.push_thread_default()
        try:
            done = []
            sub = conn.signal_subscribe(SECRETS, PROMPT_IFACE, "Completed", prompt, None,
                                        Gio.DBusSignalFlags.NONE,
                                        lambda *a: done.append(a[5].unpack()))
            dbus_call(conn, SECRETS, prompt, PROMPT_IFACE, "Prompt", ("",), "(s)")
            deadline = time.monotonic() + timeout
            while not done and time.monotonic() < deadline:
                ctx.iteration(False) or time.sleep(0.01)
            conn.signal_unsubscribe(sub)
            return done[0] if done else None
        finally:
            ctx.pop_thread_default()

    # -- kwallet ---------------------------------------------------------------------------

    def start_kwallet(self):
        if not shutil.which("kwalletd5"):
            raise StartError("kwalletd5 is not installed (apt-get install libkf5wallet-bin libqca-qt5-2-plugins)")
        with open(os.path.join(self.xdg_config_home, "kwalletrc"), "w") as f:
            f.write("[Wallet]\nEnabled=true\nFirst Use=false\nDefault Wallet=%s\nLocal Wallet=%s\n"
                    "Use One Wallet=true\nClose When Idle=false\nClose on Screensaver=false\n"
                    "Leave Open=true\nPrompt on Open=false\nLaunch Manager=false\n"
                    "[org.freedesktop.secrets]\napiEnabled=true\n" % (KWALLET_NAME, KWALLET_NAME))
        # pam_kwallet's key: PBKDF2-SHA512(password, salt file, 50000 rounds, 56 bytes).
        walletdir = os.path.join(self.xdg_data_home, "kwalletd")
        os.makedirs(walletdir, mode=0o700, exist_ok=True)
        salt = os.urandom(56)
        with open(os.path.join(walletdir, KWALLET_NAME + ".salt"), "wb") as f:
            f.write(salt)
        key = hashlib.pbkdf2_hmac("sha512", TEST_PASSWORD.encode(), salt, 50000, 56)

        # kwalletd5 5.103 makes Secret Service collections only for the wallets that exist when
        # it starts (pamOpen creating a new wallet does not add one). So the first run creates
        # the wallet and is stopped; the second run opens it and serves it.
        first = self.launch_kwalletd("kwallet-create", key)
        try:
            self.wait_for("kwalletd5 (first run) to create the wallet %s" % KWALLET_NAME,
                          "kwallet-create", first, self.kwallet_open)
        finally:
            stop_process(first)
            self.procs = [(n, p) for n, p in self.procs if p is not first]
            self.provider_proc = None
        proc = self.launch_kwalletd("kwallet", key)
        self.provider_proc = proc
        self.wait_for("the wallet %s to be opened by the pam-login route" % KWALLET_NAME, "kwallet",
                      proc, self.kwallet_open)

        def default_collection():
            path = dbus_call(self.conn, SECRETS, SERVICE_PATH, SERVICE_IFACE, "ReadAlias",
                             ("default",), "(s)", "(o)")[0]
            return path if path != "/" else None
        self.wait_for("kwalletd5's default collection", "kwallet", proc, default_collection)

    def kwallet_open(self):
        if not name_owner(self.conn, KWALLETD_NAME):
            return False
        return dbus_call(self.conn, KWALLETD_NAME, KWALLETD_PATH, KWALLETD_IFACE, "isOpen",
                         (KWALLET_NAME,), "(s)", "(b)")[0]

    def launch_kwalletd(self, name, key):
        """Start kwalletd5 as pam_kwallet5 does: key on a pipe, environment over a socket."""
        hash_r, hash_w = os.pipe()
        sock_path = os.path.join(self.xdg_runtime_dir, "kwallet5.socket")
        try:
            os.unlink(sock_path)
        except OSError:
            pass
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        listener.bind(sock_path)
        listener.listen(1)
        env = self.env()
        env["PAM_KWALLET5_LOGIN"] = "1"
        try:
            proc = self.spawn(name, ["kwalletd5", "--pam-login", str(hash_r), str(listener.fileno())],
                              pass_fds=(hash_r, listener.fileno()), env=env)
        finally:
            os.close(hash_r)
            listener.close()
        try:
            os.write(hash_w, key)
        finally:
            os.close(hash_w)
        envsock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            envsock.settimeout(5)
            envsock.connect(sock_path)
            lines = "".join("%s=%s\n" % (k, env[k]) for k in
                            ("DBUS_SESSION_BUS_ADDRESS", "DISPLAY", "XDG_RUNTIME_DIR", "HOME",
                             "XDG_CONFIG_HOME", "XDG_DATA_HOME"))
            envsock.sendall(lines.encode())
        except OSError as error:
            raise StartError("could not hand kwalletd5 its environment: %s; log: %s"
                             % (error, self.log_tail(name)))
        finally:
            envsock.close()
            try:
                os.unlink(sock_path)
            except OSError:
                pass
        return proc

    # -- hung ------------------------------------------------------------------------------

    def start_hung(self):
        proc = self.spawn("hung", [sys.executable, os.path.abspath(__file__), "__hung",
                                   self.bus_address])
        self.provider_proc = proc
        self.wait_name("hung", proc, "the hung provider")

    # -- teardown --------------------------------------------------------------------------

    def teardown(self):
        if self.conn is not None:
            try:
                self.conn.close_sync(None)
            except Exception:
                pass
            self.conn = None
        # Provider first, then the bus, then Xvfb (reverse start order).
        for name, proc in reversed(self.procs):
            stop_process(proc)
        self.procs = []
        for d in self.extra_dirs:
            shutil.rmtree(d, ignore_errors=True)
        self.extra_dirs = []


def stop_process(proc, grace=3.0):
    """SIGTERM the process group (waking it if stopped), then SIGKILL what is left."""
    pgid = proc.pid  # start_new_session: the child leads its own group
    for sig in (signal.SIGTERM, signal.SIGCONT):
        try:
            os.killpg(pgid, sig)
        except OSError:
            pass
    try:
        proc.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        pass
    try:
        os.killpg(pgid, signal.SIGKILL)  # whatever is left of the group
    except OSError:
        pass
    try:
        proc.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        pass


# --------------------------------------------------------------------------------------------
# start
# --------------------------------------------------------------------------------------------

def cmd_start(args):
    if args.provider != "keepassxc" and (args.confirm_given or args.db_given):
        print("%s: --confirm and --db are for keepassxc only" % PROG, file=sys.stderr)
        return 2
    stop = []

    def on_signal(signum, frame):
        stop.append(signum)
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGHUP, on_signal)
    signal.signal(signal.SIGPIPE, signal.SIG_IGN)

    session = Session(args)
    try:
        try:
            session.start()
            if stop:
                return 0
        except StartError as error:
            print("%s: error: %s did not come up: %s" % (PROG, args.provider, error), file=sys.stderr)
            return 2
        except Exception as error:  # GLib.Error, OSError, ...
            print("%s: error: %s did not come up: %s" % (PROG, args.provider, error_text(error)),
                  file=sys.stderr)
            return 2
        info = {
            "bus": session.bus_address,
            "display": session.display,
            "pid": session.provider_pid(),
            "home": session.home,
            "xdg_config_home": session.xdg_config_home,
            "xdg_data_home": session.xdg_data_home,
            "xdg_runtime_dir": session.xdg_runtime_dir,
        }
        try:
            sys.stdout.write(json.dumps(info) + "\n")
            sys.stdout.flush()
        except OSError:
            return 0
        # Hold everything up until stdin reaches EOF or a signal arrives.
        import select
        stdin_fd = sys.stdin.fileno() if sys.stdin is not None else None
        while not stop:
            try:
                if stdin_fd is None:
                    time.sleep(0.5)
                    continue
                ready, _, _ = select.select([stdin_fd], [], [], 0.5)
                if ready:
                    if not os.read(stdin_fd, 4096):
                        break
            except InterruptedError:
                continue
            except OSError:
                break
        return 0
    finally:
        for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            signal.signal(sig, signal.SIG_IGN)  # teardown is not to be interrupted
        session.teardown()


def cmd_hung(args):
    """Own org.freedesktop.secrets and never answer anything (drops every incoming call)."""
    Gio, GLib = gio()
    conn = bus_connect(args.bus)
    # Drop every incoming method call (what a wedged provider does); let the replies to our own
    # calls through, or RequestName would time out and end this process after 5 s.
    conn.add_filter(lambda c, message, incoming:
                    None if incoming and message.get_message_type() == Gio.DBusMessageType.METHOD_CALL else message)
    dbus_call(conn, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
              "RequestName", (SECRETS, 4), "(su)", "(u)")
    signal.signal(signal.SIGTERM, lambda *a: os._exit(0))
    GLib.MainLoop().run()
    return 0


# --------------------------------------------------------------------------------------------
# dialog
# --------------------------------------------------------------------------------------------

# Window titles of KeePassXC 2.7.4's dialogs (two spaces after the dash in the first: sic).
ACCESS_TITLE = "Access Request"          # "KeePassXC -  Access Request"
UNLOCK_TITLE = "Unlock Database"         # "Unlock Database - KeePassXC"


def xdotool(*argv, check=False):
    try:
        result = subprocess.run(["xdotool"] + list(argv), capture_output=True, text=True, timeout=10)
    except FileNotFoundError:
        raise SystemExit("%s: error: xdotool is not installed (apt-get install xdotool)" % PROG)
    if check and result.returncode != 0:
        raise RuntimeError("xdotool %s failed: %s" % (" ".join(argv), result.stderr.strip()))
    return result.stdout


def visible_windows(name=None):
    """Mapped windows of KeePassXC (WM_CLASS keepassxc), optionally whose title contains name."""
    out = xdotool("search", "--onlyvisible", "--class", "keepassxc")
    wins = []
    for wid in out.split():
        title = xdotool("getwindowname", wid).strip()
        if name is None or name in title:
            wins.append((wid, title))
    return wins


def is_dialog(wid):
    """A dialog (not the main window): _NET_WM_WINDOW_TYPE_DIALOG or WM_TRANSIENT_FOR set."""
    try:
        out = subprocess.run(["xprop", "-id", wid, "_NET_WM_WINDOW_TYPE", "WM_TRANSIENT_FOR"],
                             capture_output=True, text=True, timeout=10).stdout
    except FileNotFoundError:
        raise SystemExit("%s: error: xprop is not installed (apt-get install x11-utils)" % PROG)
    return "_NET_WM_WINDOW_TYPE_DIALOG" in out or "window id #" in out


def wait_window(name, timeout):
    deadline = time.monotonic() + timeout
    while True:
        wins = visible_windows(name)
        if wins:
            return wins[0]
        if time.monotonic() > deadline:
            return None
        time.sleep(0.1)


def wait_gone(wid, timeout=5.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if wid not in [w for w, _ in visible_windows()]:
            return True
        time.sleep(0.1)
    return False


def press(wid, *keys):
    """Give the window the keyboard focus (there is no window manager) and type keys (XTEST)."""
    xdotool("windowfocus", "--sync", wid)
    time.sleep(0.15)
    for key in keys:
        xdotool("key", "--clearmodifiers", key, check=True)
        time.sleep(0.08)


def cmd_dialog(args):
    os.environ["DISPLAY"] = args.display
    action = args.action
    if action == "count":
        print(sum(1 for wid, _ in visible_windows() if is_dialog(wid)))
        return 0
    name = ACCESS_TITLE if action in ("wait-access", "allow", "deny") else UNLOCK_TITLE
    found = wait_window(name, args.timeout)
    if found is None:
        print("%s: no KeePassXC %r dialog on %s within %g s" % (PROG, name, args.display, args.timeout),
              file=sys.stderr)
        return 1
    wid, title = found
    if action in ("wait-access", "wait-unlock"):
        print(title)
        return 0
    time.sleep(0.3)  # let the dialog settle (focus, default button) before typing into it
    if action == "allow":
        # Focus starts on "Allow Selected" (the default button); the tab order is the button
        # row's: Allow Selected, Allow All & Future, Remember (ticked by default), Deny All &
        # Future, Details. Untick Remember unless asked to keep it, go back, press Allow Selected.
        if args.remember:
            press(wid, "space")
        else:
            press(wid, "Tab", "Tab", "space", "shift+Tab", "shift+Tab", "space")
    elif action == "deny":
        # "Deny All & Future": denied for this client connection (and its later requests).
        press(wid, "Tab", "Tab", "Tab", "space")
    elif action == "unlock":
        if args.password is None:
            print("%s: unlock needs --password" % PROG, file=sys.stderr)
            return 2
        # The password field has the focus.
        xdotool("windowfocus", "--sync", wid)
        time.sleep(0.15)
        xdotool("type", "--clearmodifiers", "--delay", "5", args.password, check=True)
        press(wid, "Return")
    elif action == "cancel-unlock":
        press(wid, "Escape")
    if not wait_gone(wid):
        print("%s: the %r dialog is still on screen after %s" % (PROG, title, action), file=sys.stderr)
        return 1
    print(title)
    return 0


# --------------------------------------------------------------------------------------------
# call
# --------------------------------------------------------------------------------------------

def provider_kind(conn):
    if name_owner(conn, KEEPASSXC_NAME):
        return "keepassxc"
    if name_owner(conn, KWALLETD_NAME):
        return "kwallet"
    if name_owner(conn, SECRETS):
        return "gnome-keyring"
    return None


def peer_pid(conn, name):
    return dbus_call(conn, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                     "GetConnectionUnixProcessID", (name,), "(s)", "(u)")[0]


def keepassxc_database(conn):
    """The .kdbx KeePassXC was started with (the last argument of its command line)."""
    with open("/proc/%d/cmdline" % peer_pid(conn, KEEPASSXC_NAME), "rb") as f:
        argv = f.read().split(b"\0")
    return [a for a in argv if a][-1].decode()


def kwallet_environ(conn):
    with open("/proc/%d/environ" % peer_pid(conn, KWALLETD_NAME), "rb") as f:
        pairs = [e.split(b"=", 1) for e in f.read().split(b"\0") if b"=" in e]
    return {k.decode(): v.decode() for k, v in pairs}


def wait_until(predicate, timeout=5.0):
    deadline = time.monotonic() + timeout
    while True:
        try:
            if predicate():
                return True
        except Exception:
            pass
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)


def collection_locked(conn):
    path = dbus_call(conn, SECRETS, SERVICE_PATH, SERVICE_IFACE, "ReadAlias", ("default",), "(s)", "(o)")[0]
    if path == "/":
        return None
    return get_property(conn, SECRETS, path, COLLECTION_IFACE, "Locked")


def cmd_call(args):
    Gio, GLib = gio()
    password = TEST_PASSWORD if args.password is None else args.password
    try:
        conn = bus_connect(args.bus, timeout=2.0)
        kind = provider_kind(conn)
        if kind is None:
            print("%s: no Secret Service provider on %s" % (PROG, args.bus), file=sys.stderr)
            return 2
        ok = True
        if kind == "keepassxc":
            if args.action == "lock":
                dbus_call(conn, KEEPASSXC_NAME, KEEPASSXC_PATH, KEEPASSXC_IFACE, "lockAllDatabases")
                ok = wait_until(lambda: collection_locked(conn) is True)
            elif args.action == "close":
                dbus_call(conn, KEEPASSXC_NAME, KEEPASSXC_PATH, KEEPASSXC_IFACE, "closeAllDatabases")
                ok = wait_until(lambda: not get_property(conn, SECRETS, SERVICE_PATH, SERVICE_IFACE,
                                                         "Collections"))
            else:
                # openDatabase(file, password, keyfile) unlocks a locked database and reopens
                # a closed one, without a dialog.
                dbus_call(conn, KEEPASSXC_NAME, KEEPASSXC_PATH, KEEPASSXC_IFACE, "openDatabase",
                          (keepassxc_database(conn), password, ""), "(sss)")
                ok = wait_until(lambda: collection_locked(conn) is False)
        elif kind == "gnome-keyring":
            if args.action == "lock":
                dbus_call(conn, SECRETS, SERVICE_PATH, SERVICE_IFACE, "Lock", ([GNOME_LOGIN],), "(ao)")
                ok = wait_until(lambda: collection_locked(conn) is True)
            elif args.action == "unlock-db":
                _, session = dbus_call(conn, SECRETS, SERVICE_PATH, SERVICE_IFACE, "OpenSession",
                                       ("plain", GLib.Variant("s", "")), "(sv)", "(vo)")
                dbus_call(conn, SECRETS, SERVICE_PATH,
                          "org.gnome.keyring.InternalUnsupportedGuiltRiddenInterface",
                          "UnlockWithMasterPassword",
                          (GNOME_LOGIN, (session, b"", password.encode(), "text/plain")),
                          "(o(oayays))")
                ok = wait_until(lambda: collection_locked(conn) is False)
            else:
                print("%s: close: gnome-keyring has no 'close' (use lock)" % PROG, file=sys.stderr)
                return 2
        else:  # kwallet
            if args.action in ("lock", "close"):
                # Closing the wallet locks every collection (Locked=true) until it is reopened.
                dbus_call(conn, KWALLETD_NAME, KWALLETD_PATH, KWALLETD_IFACE, "close",
                          (KWALLET_NAME, True), "(sb)", "(i)")
                ok = wait_until(lambda: not dbus_call(conn, KWALLETD_NAME, KWALLETD_PATH, KWALLETD_IFACE,
                                                      "isOpen", (KWALLET_NAME,), "(s)", "(b)")[0])
            else:
                # Reopen the wallet the way pam_kwallet does: pamOpen with the PBKDF2 key.
                env = kwallet_environ(conn)
                data_home = env.get("XDG_DATA_HOME") or os.path.join(env["HOME"], ".local", "share")
                with open(os.path.join(data_home, "kwalletd", KWALLET_NAME + ".salt"), "rb") as f:
                    salt = f.read()
                key = hashlib.pbkdf2_hmac("sha512", password.encode(), salt, 50000, 56)
                dbus_call(conn, KWALLETD_NAME, KWALLETD_PATH, KWALLETD_IFACE, "pamOpen",
                          (KWALLET_NAME, key, 0), "(sayi)")
                ok = wait_until(lambda: dbus_call(conn, KWALLETD_NAME, KWALLETD_PATH, KWALLETD_IFACE,
                                                  "isOpen", (KWALLET_NAME,), "(s)", "(b)")[0])
        if not ok:
            print("%s: %s %s: the provider did not reach the expected state within 5 s"
                  % (PROG, kind, args.action), file=sys.stderr)
            return 1
        return 0
    except Exception as error:
        print("%s: error: %s" % (PROG, error_text(error)), file=sys.stderr)
        return 1


def main(argv):
    if len(argv) >= 2 and argv[0] == "__hung":
        return cmd_hung(argparse.Namespace(bus=argv[1]))
    parser = argparse.ArgumentParser(prog=PROG, description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("start", help="bring up a provider on a private bus")
    p.add_argument("provider", choices=PROVIDERS)
    p.add_argument("--confirm", choices=("on", "off"), default=None)
    p.add_argument("--db", choices=("locked", "closed", "open"), default=None)
    p.add_argument("--dir", required=True)

    p = sub.add_parser("dialog", help="answer KeePassXC's dialogs on a display")
    p.add_argument("action", choices=("wait-access", "allow", "deny", "wait-unlock", "unlock",
                                      "cancel-unlock", "count"))
    p.add_argument("--display", required=True)
    p.add_argument("--timeout", type=float, default=10.0)
    p.add_argument("--password", default=None)
    p.add_argument("--remember", action="store_true")

    p = sub.add_parser("call", help="lock, close or unlock the provider's storage")
    p.add_argument("--bus", required=True)
    p.add_argument("action", choices=("lock", "close", "unlock-db"))
    p.add_argument("--password", default=None)

    args = parser.parse_args(argv)
    if args.command == "start":
        args.confirm_given = args.confirm is not None
        args.db_given = args.db is not None
        args.confirm = args.confirm or "on"
        args.db = args.db or "open"
        return cmd_start(args)
    if args.command == "dialog":
        return cmd_dialog(args)
    return cmd_call(args)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
