/* pwv_spawn: what pwnvault's posix_spawn calls need from glibc that Swift's Glibc module does not show.
 *
 * posix_spawn_file_actions_addclosefrom_np (glibc 2.34, Debian 12 has 2.36) is declared only under
 * _GNU_SOURCE, which the Glibc module is not built with. Without it a child started by pwnvault (the
 * pager, systemctl, xdg-open) inherits every descriptor that is not close-on-exec: libcurl's sockets
 * to Have I Been Pwned were seen open in the pager. With it, a child keeps its 0, 1 and 2 and
 * nothing else, whoever opened what. */
#pragma once
#include <spawn.h>

/* Adds "close every descriptor >= from" to `actions` (after the dup2s that set up 0-2). 0 or an errno. */
int pwv_spawn_close_from(posix_spawn_file_actions_t *actions, int from);
