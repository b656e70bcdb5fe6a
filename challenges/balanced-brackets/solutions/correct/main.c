#include <stdbool.h>
#include <stdio.h>

bool balanced(const char *text) {
  static char stack[3000];  // the brackets still open, innermost last
  int depth = 0;
  for (const char *bracket = text; *bracket != '\0'; bracket++) {
    if (*bracket == '(' || *bracket == '[' || *bracket == '{') {
      stack[depth++] = *bracket;
      continue;
    }
    char opener = *bracket == ')' ? '(' : *bracket == ']' ? '[' : '{';
    if (depth == 0 || stack[depth - 1] != opener) return false;
    depth--;
  }
  return depth == 0;
}

int main(void) {
  int count = 0;
  if (scanf("%d", &count) != 1) return 0;
  static char text[3001];  // the longest string, and its terminating '\0'
  for (int k = 0; k < count && scanf("%3000s", text) == 1; k++) puts(balanced(text) ? "YES" : "NO");
  return 0;
}
