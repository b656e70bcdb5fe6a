// attack: plant links for host-side code to follow: here /box/main (the compiled artifact) replaced by a symlink to a host canary, links in /box and /tmp, a hard link across mounts
// expect: status in [ok]; stdout contains "replaced main"
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

int main(void) {
  // The compiled binary is an artifact the host copied in; a warm box's host-side cleanup and any
  // reader of artifacts must treat what is there now as hostile.
  if (unlink("/box/main") == 0 && symlink("@CANARY_DIR@/keep.txt", "/box/main") == 0) puts("replaced main");
  symlink("@CANARY_DIR@", "/box/out");
  symlink("/proc/self/root/@CANARY_DIR@", "/box/main.dill");
  mkdir("/box/cache", 0755);
  symlink("@CANARY_DIR@", "/box/cache/entry");
  symlink("/etc/shadow", "/tmp/shadow");
  if (link("/etc/hostname", "/box/hostname") == 0) puts("HARD LINKED /etc/hostname");
  return 0;
}
