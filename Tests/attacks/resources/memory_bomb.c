// attack: allocate and touch memory forever (here malloc in four forked processes)
// limits: memory_mb=128
// expect: status in [memory_limit]; elapsed_s < 15
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(void) {
  fork();
  fork();
  for (;;) {
    char *block = (char *)malloc(8 << 20);
    if (block) memset(block, 1, 8 << 20);
  }
}
