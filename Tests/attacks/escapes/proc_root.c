// attack: read host files through /proc/1/root, /proc/self/root, /proc/*/cwd and /proc/*/root of every visible process
// expect: status in [ok]; stdout contains "checked"; stdout lacks "HOST"; stdout lacks "root:*:"
#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Paths that exist on the host but never in a box: seeing one means the walk left the box. */
static const char *host_only[] = {"etc/shadow", "root", "home", "var", "sys/kernel", "run/dsa-run", "etc/machine-id"};

static void probe(const char *base) {
  char path[512];
  for (unsigned i = 0; i < sizeof host_only / sizeof host_only[0]; i++) {
    snprintf(path, sizeof path, "%s/%s", base, host_only[i]);
    if (access(path, F_OK) == 0) printf("HOST %s\n", path);
  }
  snprintf(path, sizeof path, "%s/etc/shadow", base);
  FILE *file = fopen(path, "r");
  if (file) {
    char line[256];
    if (fgets(line, sizeof line, file)) printf("read %s: %s", path, line);
    fclose(file);
  }
}

int main(void) {
  probe("/proc/1/root");
  probe("/proc/self/root");
  probe("/proc/1/cwd/../../../../..");
  DIR *proc = opendir("/proc");
  struct dirent *entry;
  int pids = 0;
  while (proc && (entry = readdir(proc)) != NULL) {
    if (entry->d_name[0] < '0' || entry->d_name[0] > '9') continue;
    char base[300];
    snprintf(base, sizeof base, "/proc/%s/root", entry->d_name);
    probe(base);
    snprintf(base, sizeof base, "/proc/%s/cwd/../../../../../..", entry->d_name);
    probe(base);
    pids++;
  }
  printf("checked %d processes\n", pids);
  return 0;
}
