#include <stdio.h>

int main(void) {
  long long n;
  if (scanf("%lld", &n) != 1) return 1;
  /* Ask with printf("? v") and fflush(stdout), then read a reply: "k u1 ... uk". */
  printf("! %d\n", -1);
  fflush(stdout);
  return 0;
}
