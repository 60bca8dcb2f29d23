#!/usr/bin/env bash
# A private tmux server for end-to-end tests of what a person sees in a terminal.
#
#   tmux-session.sh start SOCKET [COLS ROWS]   a server on its own socket (-L SOCKET, -f /dev/null) with
#                                              one session "main" of COLSxROWS (default 100x30) running
#                                              `bash --norc --noprofile`, prompt "pv$ ", focus-events on;
#                                              returns once the prompt shows
#   tmux-session.sh type SOCKET TEXT           types TEXT literally (send-keys -l): "\e[O" is a focus-out
#   tmux-session.sh run SOCKET COMMAND         types COMMAND and Enter
#   tmux-session.sh key SOCKET KEY...          sends named keys: C-z, C-c, Enter, Escape
#   tmux-session.sh wait SOCKET TEXT [SECS]    waits until the visible screen contains TEXT (fixed string);
#                                              status 1 and the screen on stderr after SECS (default 10)
#   tmux-session.sh wait-gone SOCKET TEXT [SECS]   the opposite
#   tmux-session.sh wait-prompt SOCKET N [SECS]    waits until at least N lines of the history and the
#                                              screen start with the prompt "pv$" (the Nth prompt came)
#   tmux-session.sh screen SOCKET              prints the visible screen (what is shown now: the alternate
#                                              screen while a program uses it)
#   tmux-session.sh history SOCKET             prints the scrollback and the normal screen (capture-pane -S -)
#   tmux-session.sh display SOCKET FORMAT      prints a tmux format for the pane (#{alternate_on}, #{cursor_flag})
#   tmux-session.sh attach SOCKET              attaches one more client on a pseudo-terminal of its own, in the
#                                              background (a real client: it counts in #{session_attached});
#                                              prints its pid; it ends when the server does or on SIGTERM
#   tmux-session.sh resize SOCKET COLS ROWS [SECS]  resizes the window and waits until the pane's terminal
#                                              has that size (stty size)
#   tmux-session.sh pipe SOCKET FILE           pipes the pane's output to FILE (pipe-pane)
#   tmux-session.sh tmux SOCKET ARGS...        any tmux command on this server (split-window, select-pane)
#   tmux-session.sh kill SOCKET                kills the server and every client; always succeeds
#
# Each command is short-lived; the waits poll every 50 ms until their deadline (hang protection, not a
# measurement). The server and its shell run with a minimal environment: PATH, HOME, LANG, PWNVAULT_* / TEST_*
# variables of the caller, so tests can hand values to the programs they run there (and the sanitizers'
# settings, for scripts/sanitize.sh).
set -euo pipefail

cmd=${1:?usage: tmux-session.sh COMMAND SOCKET ...}
sock=${2:?missing SOCKET}
shift 2
tm() { tmux -L "$sock" -f /dev/null "$@"; }

# Close every descriptor inherited beyond 0-2 (bash keeps 255 for itself). The server and the extra
# clients outlive this script; an inherited descriptor would keep the caller waiting for them (Swift's
# Process learns that a child ended when a socket it hands down is closed by everyone).
for fd_path in /proc/$$/fd/*; do
  fd=${fd_path##*/}
  if [ "$fd" -gt 2 ] && [ "$fd" -ne 255 ]; then eval "exec $fd>&-" 2>/dev/null || true; fi
done
target=main:0.0

capture_screen() { tm capture-pane -p -t "$target"; }
capture_history() { tm capture-pane -p -S - -E - -t "$target"; }

# The checks the waits poll; $text and $count are set from the arguments below.
screen_has_text() { capture_screen | grep -aqF -- "$text"; }
screen_lacks_text() { ! capture_screen | grep -aqF -- "$text"; }
prompts_shown() { [ "$(capture_history | grep -ac '^pv\$')" -ge "$count" ]; }
pane_has_size() { [ "$(stty size -F "$(tm display-message -p -t "$target" '#{pane_tty}')" 2>/dev/null)" = "$rows $cols" ]; }
client_attached() { [ "$(tm display-message -p -t "$target" '#{session_attached}')" -gt "$count" ]; }

wait_for() {   # wait_for CHECK SECS DESCRIPTION: polls CHECK every 50 ms
  local i=0 limit=$(( $2 * 20 ))
  until "$1"; do
    i=$((i + 1))
    if [ "$i" -ge "$limit" ]; then
      { echo "tmux-session.sh: timed out waiting for $3; the screen:"; capture_screen; } >&2
      return 1
    fi
    sleep 0.05
  done
}

case "$cmd" in
  start)
    cols=${1:-100} rows=${2:-30}
    envs=("PATH=$PATH" "HOME=${HOME:-/tmp}" "TERM=${TERM:-xterm}" "LANG=C.UTF-8" "PS1=pv\$ ")
    while IFS='=' read -r name _; do
      # The sanitizer settings too, so scripts/sanitize.sh's options reach the binary run in the pane.
      case "$name" in PWNVAULT_*|TEST_*|ASAN_OPTIONS|LSAN_OPTIONS|UBSAN_OPTIONS|TSAN_OPTIONS|SWIFT_BACKTRACE) envs+=("$name=${!name}") ;; esac
    done < <(env)
    # The server outlives this script: it must not hold the caller's pipes open (the caller would wait).
    # The server starts with only these variables; tmux adds TMUX and TMUX_PANE for the shell.
    env -i "${envs[@]}" tmux -L "$sock" -f /dev/null new-session -d -s main -x "$cols" -y "$rows" \
      bash --norc --noprofile -i </dev/null >/dev/null 2>&1
    tm set -g focus-events on
    tm set -g status off
    tm set -g window-size manual
    tm set -g history-limit 10000
    tm set -g escape-time 0
    tm set -g remain-on-exit off
    count=1
    wait_for prompts_shown 10 "the first prompt"
    ;;
  type) tm send-keys -t "$target" -l -- "$(printf '%b' "$1")" ;;
  run) tm send-keys -t "$target" -l -- "$1"; tm send-keys -t "$target" Enter ;;
  key) tm send-keys -t "$target" "$@" ;;
  wait) text=$1; wait_for screen_has_text "${2:-10}" "'$1'" ;;
  wait-gone) text=$1; wait_for screen_lacks_text "${2:-10}" "'$1' to go" ;;
  wait-prompt) count=$1; wait_for prompts_shown "${2:-10}" "prompt number $1" ;;
  screen) capture_screen ;;
  history) capture_history ;;
  display) tm display-message -p -t "$target" "$1" ;;
  attach)
    count=$(tm display-message -p -t "$target" '#{session_attached}')
    # A client needs a terminal: give it a pseudo-terminal whose output is read and thrown away.
    /usr/bin/python3 - "$sock" <<'PY' >/dev/null 2>&1 &
import os, pty, select, signal, sys
pid, fd = pty.fork()
if pid == 0:
    os.environ["TERM"] = "xterm"
    os.execvp("tmux", ["tmux", "-L", sys.argv[1], "-f", "/dev/null", "attach", "-t", "main"])
signal.signal(signal.SIGTERM, lambda *_: (os.kill(pid, signal.SIGKILL), os._exit(0)))
while True:
    try:
        if not os.read(fd, 65536):
            break
    except OSError:
        break
os.waitpid(pid, 0)
PY
    client=$!
    echo "$client"
    wait_for client_attached 10 "the client to attach"
    ;;
  resize)
    # tmux hands a new size to the pane's terminal a moment after resize-window returns (later still
    # under load): wait until the terminal has it, so what runs next sees the new size.
    cols=$1 rows=$2
    tm resize-window -t "$target" -x "$cols" -y "$rows"
    wait_for pane_has_size "${3:-10}" "the pane to be ${cols}x${rows}"
    ;;
  pipe) tm pipe-pane -t "$target" "cat >> '$1'" ;;
  tmux) tm "$@" ;;
  kill)
    tm kill-server 2>/dev/null || true
    rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$sock"
    ;;
  *) echo "tmux-session.sh: unknown command $cmd" >&2; exit 2 ;;
esac
