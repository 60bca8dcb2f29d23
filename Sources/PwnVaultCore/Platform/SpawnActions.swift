import CSpawnShim
import Glibc

/// The one place that imports CSpawnShim: the file actions every child pwnvault starts gets last.
enum SpawnActions {
    /// After the dup2s that set up the child's 0, 1 and 2: close everything else in the child, so it
    /// inherits no descriptor pwnvault or a library it loaded left without close-on-exec (libcurl's
    /// sockets, a D-Bus connection, a pipe made on another thread between `pipe` and `fcntl`).
    /// False when the action could not be added (no memory): the caller then starts no child rather
    /// than one that would inherit everything.
    static func closeTheRest(_ actions: inout posix_spawn_file_actions_t) -> Bool {
        pwv_spawn_close_from(&actions, 3) == 0
    }
}
