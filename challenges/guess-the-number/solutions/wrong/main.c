#include <stdio.h>

/* Asks every number in turn: right in the end, but far more questions than a binary search. */
int main(void) {
  long long n;
  char reply[8];
  if (scanf("%lld", &n) != 1) return 1;
  for (long long guess = 1; guess <= n; ++guess) {
    printf("? %lld\n", guess);
    fflush(stdout);
    if (scanf("%7s", reply) != 1) return 0;
    if (reply[0] == '=') {
      printf("! %lld\n", guess);
      fflush(stdout);
      return 0;
    }
  }
  return 0;
}
