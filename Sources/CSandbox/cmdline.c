// The init's /proc/1/cmdline and environ (child side: the init's set-up; the constructor runs in
// the parent at load).
//
// A forked init never execs, so its /proc/1/cmdline and /proc/1/environ are the
// parent's own (the CLI's arguments with host paths, the daemon's config
// path and environment), and cmdline is readable by every box process. The
// kernel reads those from the memory ranges it recorded at the parent's
// execve, which it shows in /proc/self/stat (fields 48 to 51): read once at
// start-up, they let the init overwrite its own copy of the strings.
// An init started by exec (init_exec.c) never gets here with any recorded: its constructor runs
// first and never returns, and it wipes its own short arguments itself.
#define _GNU_SOURCE
#include "csandbox.h"
#include "spawn_internal.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

static uintptr_t parent_arguments[2], parent_environment[2];

__attribute__((constructor)) static void record_parent_strings(void) {
  char text[2048];
  int fd = open("/proc/self/stat", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  ssize_t length = read(fd, text, sizeof text - 1);
  close(fd);
  if (length <= 0) return;
  text[length] = 0;
  // The name (field 2) may hold spaces and parentheses: count from its end.
  char *cursor = strrchr(text, ')');
  if (cursor == NULL) return;
  unsigned long long fields[4] = {0};
  for (int field = 3; field <= 51 && *cursor; field++) {
    cursor = strchr(cursor + 1, ' ');
    if (cursor == NULL) return;
    if (field >= 48) fields[field - 48] = strtoull(cursor + 1, NULL, 10);
  }
  if (fields[1] > fields[0] && fields[3] > fields[2]) {
    parent_arguments[0] = (uintptr_t)fields[0];
    parent_arguments[1] = (uintptr_t)fields[1];
    parent_environment[0] = (uintptr_t)fields[2];
    parent_environment[1] = (uintptr_t)fields[3];
  }
}

void dsa_init_forget_parent_strings(void) {
  static const char name[] = "dsa-box-init";
  if (parent_arguments[1] > parent_arguments[0]) {
    size_t length = parent_arguments[1] - parent_arguments[0];
    memset((void *)parent_arguments[0], 0, length);
    if (length > sizeof name) memcpy((void *)parent_arguments[0], name, sizeof name);
  }
  if (parent_environment[1] > parent_environment[0])
    memset((void *)parent_environment[0], 0, parent_environment[1] - parent_environment[0]);
  prctl(PR_SET_NAME, name, 0, 0, 0);
}
