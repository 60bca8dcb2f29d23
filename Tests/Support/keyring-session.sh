#!/bin/sh
# keyring-session.sh: run one command inside a private, headless Secret Service session.
#
#   Tests/Support/keyring-session.sh [--locked | --no-daemon] -- CMD [ARGS...]
#
# Gives CMD a throw-away HOME and XDG_RUNTIME_DIR (mode 0700), no display, its own D-Bus session
# bus (DBUS_SESSION_BUS_ADDRESS) and a gnome-keyring-daemon whose "login" collection is unlocked
# with a fixed test password and is the default collection. The user's real keyring is never
# touched: every XDG directory points into the temporary HOME. Exits with CMD's status.
#
#   --locked     lock the login collection over D-Bus before CMD runs (a locked keyring cannot be
#                unlocked here: there is no display for the prompt)
#   --no-daemon  a session bus with no keyring daemon at all (and no way to auto-start one)
#
# CMD sees:
#   KEYRING_DAEMON_PID       the daemon's pid (not with --no-daemon); `kill -STOP` it to hang it
#   PWNVAULT_KEYRING_SESSION the private session's directory: proof that this is a test keyring
#
# Used by the Swift tests, the demo and CI. Needs dbus (dbus-run-session), gnome-keyring and
# libglib2.0-bin (gdbus); libsecret-tools (secret-tool) is handy inside.
set -eu
umask 077

# The password of the throw-away login collection. Not a secret: the collection lives and dies
# with this session.
test_password='pwnvault-test-keyring'
secrets=org.freedesktop.secrets
login_collection=/org/freedesktop/secrets/collection/login

usage() {
    echo "usage: ${0##*/} [--locked | --no-daemon] -- CMD [ARGS...]"
}

fail() {
    echo "${0##*/}: error: $*" >&2
    exit 2
}

bus_call() {  # bus_call DEST PATH METHOD [ARGS...]: one D-Bus call on the private session bus
    dest=$1 path=$2 method=$3
    shift 3
    gdbus call --session --dest "$dest" --object-path "$path" --method "$method" "$@"
}

# Inside dbus-run-session: start the daemon, prepare its state, run CMD, stop the daemon.
# Reached by re-running this script with the private first argument __inside-session.
inside_session() {
    mode=$1
    shift
    if [ "$mode" != no-daemon ]; then
        # --unlock reads the password on stdin, creates the "login" collection and makes it the
        # default. --foreground keeps the daemon our child, so its pid is known for certain (the
        # bus's GetConnectionUnixProcessID can name a pid from another pid namespace). Its
        # GNOME_KEYRING_CONTROL=… line on stdout is not needed; its stderr goes to a log.
        printf %s "$test_password" |
            gnome-keyring-daemon --foreground --unlock --components=secrets \
                >/dev/null 2>>"$PWNVAULT_KEYRING_SESSION/daemon.log" &
        KEYRING_DAEMON_PID=$!
        export KEYRING_DAEMON_PID

        # The daemon claims its bus name as it starts; wait for it (at most about 5 s) so that
        # CMD never races it.
        tries=0
        until bus_call org.freedesktop.DBus /org/freedesktop/DBus \
                org.freedesktop.DBus.NameHasOwner "$secrets" 2>/dev/null | grep -q true; do
            tries=$((tries + 1))
            if [ "$tries" -ge 100 ] || ! kill -0 "$KEYRING_DAEMON_PID" 2>/dev/null; then
                cat "$PWNVAULT_KEYRING_SESSION/daemon.log" >&2
                fail "the keyring daemon never appeared on the session bus"
            fi
            sleep 0.05
        done

        if [ "$mode" = locked ]; then
            # `secret-tool lock` hangs in this libsecret version; the Service.Lock call does not.
            bus_call "$secrets" /org/freedesktop/secrets org.freedesktop.Secret.Service.Lock \
                "[\"$login_collection\"]" >/dev/null || fail "could not lock the login collection"
        fi
    fi

    status=0
    "$@" || status=$?

    # End the daemon; one stopped by CMD (kill -STOP) must be woken to see its SIGTERM.
    if [ -n "${KEYRING_DAEMON_PID:-}" ]; then
        kill -TERM "$KEYRING_DAEMON_PID" 2>/dev/null || true
        kill -CONT "$KEYRING_DAEMON_PID" 2>/dev/null || true
        wait "$KEYRING_DAEMON_PID" 2>/dev/null || true
    fi
    exit "$status"
}

case ${1:-} in
    __inside-session)
        shift
        inside_session "$@" ;;
    __bus-daemon)
        # dbus-daemon run as root in a container says on stderr that it cannot raise its fd
        # limit; CMD's stderr must hold only what CMD wrote, so the bus logs to a file.
        shift
        exec dbus-daemon "$@" 2>>"$PWNVAULT_KEYRING_SESSION/bus.log" ;;
esac

mode=unlocked
while [ $# -gt 0 ]; do
    case $1 in
        --locked)    [ "$mode" != no-daemon ] || fail "--locked and --no-daemon exclude each other"; mode=locked ;;
        --no-daemon) [ "$mode" != locked ] || fail "--locked and --no-daemon exclude each other"; mode=no-daemon ;;
        -h|--help)   usage; exit 0 ;;
        --)          shift; break ;;
        *)           usage >&2; exit 2 ;;
    esac
    shift
done
[ $# -gt 0 ] || { usage >&2; exit 2; }

for tool in dbus-run-session gdbus; do
    command -v "$tool" >/dev/null 2>&1 || fail "$tool is not installed"
done
if [ "$mode" != no-daemon ]; then
    command -v gnome-keyring-daemon >/dev/null 2>&1 || fail "gnome-keyring-daemon is not installed"
fi

session=$(mktemp -d "${TMPDIR:-/tmp}/pwnvault-keyring.XXXXXXXX")
trap 'rm -rf "$session"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP
mkdir -m 700 "$session/home" "$session/run"

# Nothing of the caller's desktop session may leak in: no display (an unlock prompt would pop
# up), no inherited bus, keyring or daemon pid (sessions nest), and every XDG directory inside the temporary HOME so that
# gnome-keyring writes its keyring files there and nowhere else.
unset DISPLAY WAYLAND_DISPLAY DBUS_SESSION_BUS_ADDRESS GNOME_KEYRING_CONTROL SSH_AUTH_SOCK \
      XDG_SESSION_ID XDG_DATA_DIRS XDG_CONFIG_DIRS KEYRING_DAEMON_PID
HOME=$session/home
XDG_RUNTIME_DIR=$session/run
XDG_DATA_HOME=$HOME/.local/share
XDG_CONFIG_HOME=$HOME/.config
XDG_CACHE_HOME=$HOME/.cache
XDG_STATE_HOME=$HOME/.local/state
PWNVAULT_KEYRING_SESSION=$session
export HOME XDG_RUNTIME_DIR XDG_DATA_HOME XDG_CONFIG_HOME XDG_CACHE_HOME XDG_STATE_HOME \
       PWNVAULT_KEYRING_SESSION

# A bus of our own: its socket in the private runtime directory, and no service directories, so
# nothing is ever auto-started (with --no-daemon the Secret Service stays absent, and otherwise
# the daemon started below is the only one).
cat >"$session/bus.conf" <<CONF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:dir=$XDG_RUNTIME_DIR</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
CONF
# dbus-run-session takes the daemon as one program path: a two-line stand-in that calls us back.
# (The path travels in the environment, so no quoting of it can go wrong.)
PWNVAULT_KEYRING_SCRIPT=$(cd "$(dirname "$0")" && pwd)/${0##*/}
export PWNVAULT_KEYRING_SCRIPT
printf '#!/bin/sh\nexec "$PWNVAULT_KEYRING_SCRIPT" __bus-daemon "$@"\n' >"$session/bus-daemon"
chmod 700 "$session/bus-daemon"

status=0
dbus-run-session --config-file="$session/bus.conf" --dbus-daemon="$session/bus-daemon" \
    -- "$PWNVAULT_KEYRING_SCRIPT" __inside-session "$mode" "$@" || status=$?
exit "$status"
