// attack: take every inotify instance and watch the kernel gives (charged to root, that left root's own inotify_init1 failing with EMFILE for every root service)
// expect: status in [ok]; stdout matches "instances ([0-9]|[12][0-9]|3[0-2]) "; stdout contains "held"
// during: root_quota
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/inotify.h>
#include <unistd.h>

int main(void) {
  int instances = 0, watches = 0, first = -1, error = 0;
  for (int fd; instances < 100000 && (fd = inotify_init1(IN_CLOEXEC)) >= 0; instances++) {
    if (first < 0) first = fd;
  }
  error = errno;
  const char *paths[] = {"/usr/bin", "/usr/lib", "/usr/share", "/box", "/tmp", "/etc", "/usr/include"};
  for (int i = 0; first >= 0 && i < 7; i++) {
    if (inotify_add_watch(first, paths[i], IN_ALL_EVENTS) >= 0) watches++;
  }
  printf("instances %d (%s), watches %d\n", instances, strerror(error), watches);
  fflush(stdout);
  sleep(2);  // hold them while the host checks root's own
  printf("held\n");
  return 0;
}
