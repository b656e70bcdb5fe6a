// attack: flood stderr without end (here unbuffered writes from two processes)
// limits: output_kb=64
// expect: status in [output_limit]; stderr_truncated == true; elapsed_s < 15
#include <string.h>
#include <unistd.h>

int main(void) {
  char line[4096];
  memset(line, 'E', sizeof line);
  fork();
  for (;;) write(2, line, sizeof line);
}
