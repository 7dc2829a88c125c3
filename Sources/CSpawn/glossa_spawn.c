#define _GNU_SOURCE
#include "glossa_spawn.h"

int glossa_spawn_file_actions_closefrom(posix_spawn_file_actions_t *actions, int from) {
    return posix_spawn_file_actions_addclosefrom_np(actions, from);
}
