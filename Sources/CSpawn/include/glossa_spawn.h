// posix_spawn's "close every descriptor from N on" action and pipe2, which glibc declares only
// under _GNU_SOURCE, out of reach of Swift's Glibc module.
#ifndef GLOSSA_SPAWN_H
#define GLOSSA_SPAWN_H
#include <spawn.h>
#ifdef __cplusplus
extern "C" {
#endif
/// Adds to `actions` the closing of every descriptor >= `from` in the child (after the actions
/// added before it). Returns 0, or an errno value.
int glossa_spawn_file_actions_closefrom(posix_spawn_file_actions_t *actions, int from);
/// pipe2(fds, O_CLOEXEC): a pipe whose ends are close-on-exec from the start, so no child that
/// another thread spawns at that moment inherits one. Returns 0, or -1 with errno set.
int glossa_pipe_cloexec(int fds[2]);
#ifdef __cplusplus
}
#endif
#endif
