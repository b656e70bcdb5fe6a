#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n;
  if (scanf("%d", &n) != 1) return 1;
  if (n == 1) {
    printf("! 0\n");
    fflush(stdout);
    return 0;
  }
  int *distance = malloc(sizeof(int) * (n + 1));
  int *frontier = malloc(sizeof(int) * (n + 1));
  for (int node = 0; node <= n; ++node) distance[node] = -1;
  int head = 0, tail = 0;
  distance[1] = 0;
  frontier[tail++] = 1;
  while (head < tail) {
    int node = frontier[head++];
    printf("? %d\n", node);
    fflush(stdout);
    int count;
    if (scanf("%d", &count) != 1) return 1;
    for (int index = 0; index < count; ++index) {
      int neighbour;
      if (scanf("%d", &neighbour) != 1) return 1;
      if (distance[neighbour] >= 0) continue;
      distance[neighbour] = distance[node] + 1;
      if (neighbour == n) {
        printf("! %d\n", distance[neighbour]);
        fflush(stdout);
        return 0;
      }
      frontier[tail++] = neighbour;
    }
  }
  printf("! -1\n");
  fflush(stdout);
  return 0;
}
