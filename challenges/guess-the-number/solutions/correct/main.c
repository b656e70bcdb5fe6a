#include <stdio.h>

int main(void) {
  long long n;
  if (scanf("%lld", &n) != 1) return 1;
  long long low = 1, high = n;
  char reply[8];
  while (low < high) {
    long long middle = low + (high - low) / 2;
    printf("? %lld\n", middle);
    fflush(stdout);
    if (scanf("%7s", reply) != 1) return 1;
    if (reply[0] == '=') {
      low = high = middle;
    } else if (reply[0] == '<') {
      high = middle - 1;
    } else {
      low = middle + 1;
    }
  }
  printf("! %lld\n", low);
  fflush(stdout);
  return 0;
}
