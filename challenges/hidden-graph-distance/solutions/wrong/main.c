#include <stdio.h>
#include <stdlib.h>

/* A depth-first search: it finds a path to node n, but not always a shortest one. */
int main(void) {
  int n;
  if (scanf("%d", &n) != 1) return 1;
  int *seen = calloc(n + 1, sizeof(int));
  int *stackNode = malloc(sizeof(int) * (n + 1));
  int *stackDepth = malloc(sizeof(int) * (n + 1));
  int *reply = malloc(sizeof(int) * (n + 1));
  int top = 0;
  seen[1] = 1;
  stackNode[top] = 1;
  stackDepth[top++] = 0;
  while (top > 0) {
    --top;
    int node = stackNode[top], depth = stackDepth[top];
    if (node == n) {
      printf("! %d\n", depth);
      fflush(stdout);
      return 0;
    }
    printf("? %d\n", node);
    fflush(stdout);
    int count;
    if (scanf("%d", &count) != 1) return 1;
    for (int index = 0; index < count; ++index) {
      if (scanf("%d", &reply[index]) != 1) return 1;
    }
    for (int index = count - 1; index >= 0; --index) {
      if (seen[reply[index]]) continue;
      seen[reply[index]] = 1;
      stackNode[top] = reply[index];
      stackDepth[top++] = depth + 1;
    }
  }
  printf("! -1\n");
  fflush(stdout);
  return 0;
}
