#!/usr/bin/python3
"""notification-server.py: a recording freedesktop notification server, for tests.

    /usr/bin/python3 Tests/Support/notification-server.py --record FILE [--ready FILE] [--no-markup]

Owns org.freedesktop.Notifications on the session bus (DBUS_SESSION_BUS_ADDRESS: run it inside
Tests/Support/keyring-session.sh, never on a real desktop bus) and implements the spec's methods:
Notify, GetCapabilities, GetServerInformation and CloseNotification. Each Notify call is appended
to FILE as one JSON line, exactly as received:

    {"app_name": "pwnvault", "replaces_id": 0, "app_icon": "", "summary": "...", "body": "...",
     "actions": [], "hints": {"urgency": 1}, "expire_timeout": 10000, "id": 1}

--ready FILE is written (with the pid) once the bus name is owned, so a test never races the server.
--no-markup leaves "body-markup" out of the capabilities (a server that shows text as it is).
To test a server that never answers, stop it: kill -STOP PID.

Needs Debian's python3-gi (GLib's GDBus through GObject introspection); /usr/bin/python3 because a
python3 earlier on PATH (pyenv) may not have it.
"""
import argparse
import json
import os
import signal
import sys

from gi.repository import Gio, GLib

NAME = "org.freedesktop.Notifications"
PATH = "/org/freedesktop/Notifications"
INTROSPECTION = """
<node>
  <interface name="org.freedesktop.Notifications">
    <method name="Notify">
      <arg type="s" name="app_name" direction="in"/>
      <arg type="u" name="replaces_id" direction="in"/>
      <arg type="s" name="app_icon" direction="in"/>
      <arg type="s" name="summary" direction="in"/>
      <arg type="s" name="body" direction="in"/>
      <arg type="as" name="actions" direction="in"/>
      <arg type="a{sv}" name="hints" direction="in"/>
      <arg type="i" name="expire_timeout" direction="in"/>
      <arg type="u" name="id" direction="out"/>
    </method>
    <method name="GetCapabilities">
      <arg type="as" name="capabilities" direction="out"/>
    </method>
    <method name="GetServerInformation">
      <arg type="s" name="name" direction="out"/>
      <arg type="s" name="vendor" direction="out"/>
      <arg type="s" name="version" direction="out"/>
      <arg type="s" name="spec_version" direction="out"/>
    </method>
    <method name="CloseNotification">
      <arg type="u" name="id" direction="in"/>
    </method>
    <signal name="NotificationClosed">
      <arg type="u" name="id"/>
      <arg type="u" name="reason"/>
    </signal>
    <signal name="ActionInvoked">
      <arg type="u" name="id"/>
      <arg type="s" name="action_key"/>
    </signal>
  </interface>
</node>
"""


def json_value(value):
    """Hints arrive unpacked (bytes of a byte array as a list of ints, a byte as an int)."""
    if isinstance(value, (bytes, bytearray)):
        return list(value)
    if isinstance(value, dict):
        return {k: json_value(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_value(v) for v in value]
    return value


class Server:
    def __init__(self, record, markup):
        self.record = record
        self.capabilities = ["body", "persistence"] + (["body-markup"] if markup else [])
        self.next_id = 1
        self.node = Gio.DBusNodeInfo.new_for_xml(INTROSPECTION)
        self.connection = None

    def on_call(self, connection, sender, path, interface, method, parameters, invocation):
        if method == "Notify":
            app_name, replaces_id, app_icon, summary, body, actions, hints, expire = parameters.unpack()
            nid = replaces_id if replaces_id else self.next_id
            if not replaces_id:
                self.next_id += 1
            line = {"app_name": app_name, "replaces_id": replaces_id, "app_icon": app_icon,
                    "summary": summary, "body": body, "actions": list(actions),
                    "hints": json_value(hints), "expire_timeout": expire, "id": nid}
            with open(self.record, "a", encoding="utf-8") as f:
                f.write(json.dumps(line, ensure_ascii=False, sort_keys=True) + "\n")
            invocation.return_value(GLib.Variant("(u)", (nid,)))
        elif method == "GetCapabilities":
            invocation.return_value(GLib.Variant("(as)", (self.capabilities,)))
        elif method == "GetServerInformation":
            invocation.return_value(GLib.Variant("(ssss)", ("pwnvault-test-recorder", "pwnvault", "1", "1.2")))
        elif method == "CloseNotification":
            (nid,) = parameters.unpack()
            connection.emit_signal(None, PATH, NAME, "NotificationClosed", GLib.Variant("(uu)", (nid, 3)))
            invocation.return_value(None)
        else:
            invocation.return_dbus_error("org.freedesktop.DBus.Error.UnknownMethod", method)

    def register(self, connection):
        self.connection = connection
        connection.register_object(PATH, self.node.interfaces[0], self.on_call, None, None)


def main():
    parser = argparse.ArgumentParser(description="a recording freedesktop notification server, for tests")
    parser.add_argument("--record", required=True, help="append each Notify call to this file as a JSON line")
    parser.add_argument("--ready", help="write the pid here once the bus name is owned")
    parser.add_argument("--no-markup", action="store_true", help="do not list body-markup among the capabilities")
    args = parser.parse_args()
    if not os.environ.get("DBUS_SESSION_BUS_ADDRESS"):
        print("notification-server: error: DBUS_SESSION_BUS_ADDRESS is not set", file=sys.stderr)
        print("notification-server: hint: run it inside Tests/Support/keyring-session.sh", file=sys.stderr)
        return 2

    server = Server(args.record, markup=not args.no_markup)
    loop = GLib.MainLoop()

    def acquired(connection, name):
        if args.ready:
            tmp = args.ready + ".tmp"
            with open(tmp, "w") as f:
                f.write(str(os.getpid()))
            os.rename(tmp, args.ready)

    def lost(connection, name):
        print("notification-server: error: could not own %s (or lost it)" % NAME, file=sys.stderr)
        loop.quit()

    # Not DO_NOT_QUEUE: a server of an earlier test may still be leaving the bus; this one then
    # owns the name as soon as it is free, and says so through --ready.
    Gio.bus_own_name(Gio.BusType.SESSION, NAME, Gio.BusNameOwnerFlags.NONE,
                     lambda c, n: server.register(c), acquired, lost)
    for sig in (signal.SIGTERM, signal.SIGINT):
        GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, sig, loop.quit)
    loop.run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
