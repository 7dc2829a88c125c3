#define _GNU_SOURCE
#include "glossa_spawn.h"
#include <fcntl.h>
#include <unistd.h>

int glossa_spawn_file_actions_closefrom(posix_spawn_file_actions_t *actions, int from) {
    return posix_spawn_file_actions_addclosefrom_np(actions, from);
}

int glossa_pipe_cloexec(int fds[2]) {
    return pipe2(fds, O_CLOEXEC);
}
