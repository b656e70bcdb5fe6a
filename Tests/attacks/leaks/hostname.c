// attack: learn the host's name: uname, /proc/sys/kernel/hostname, /etc/hostname, /etc/hosts, NIS domain
// expect: status in [ok]; stdout contains "nodename=box\n"; stdout lacks "nodename=${HOSTNAME}\n"; stdout lacks "proc=${HOSTNAME}\n"
#define _GNU_SOURCE
#include <stdio.h>
#include <sys/utsname.h>

static void show(const char *label, const char *path) {
  char line[256] = "";
  FILE *file = fopen(path, "r");
  if (file) {
    if (!fgets(line, sizeof line, file)) line[0] = 0;
    fclose(file);
    printf("%s=%s", label, line);
  } else {
    printf("%s unreadable\n", label);
  }
}

int main(void) {
  struct utsname name;
  uname(&name);
  printf("nodename=%s\ndomainname=%s\n", name.nodename, name.domainname);
  show("proc", "/proc/sys/kernel/hostname");
  show("etc", "/etc/hostname");
  show("hosts", "/etc/hosts");
  return 0;
}
