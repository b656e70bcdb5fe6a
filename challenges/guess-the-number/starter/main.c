#include <stdio.h>

int main(void) {
  long long n;
  if (scanf("%lld", &n) != 1) return 1;
  /* Ask with printf("? y") and fflush(stdout), then read a reply: "<", ">" or "=". */
  printf("! %d\n", 1);
  fflush(stdout);
  return 0;
}
