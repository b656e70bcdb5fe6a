// posix_spawn_file_actions_addclosefrom_np (glibc 2.34): <spawn.h> declares it only under _GNU_SOURCE,
// which the Glibc module is built without. ChildProcess's children close every descriptor from 3 up.
#include <spawn.h>
extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from);
