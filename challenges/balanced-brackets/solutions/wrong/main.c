#include <stdbool.h>
#include <stdio.h>

bool balanced(const char *text) {
  // Mistake: one counter per kind checks the numbers of brackets but not how they nest.
  int round = 0, square = 0, curly = 0;
  for (const char *bracket = text; *bracket != '\0'; bracket++) {
    switch (*bracket) {
      case '(': round++; break;
      case '[': square++; break;
      case '{': curly++; break;
      case ')': round--; break;
      case ']': square--; break;
      default: curly--;
    }
    if (round < 0 || square < 0 || curly < 0) return false;
  }
  return round == 0 && square == 0 && curly == 0;
}

int main(void) {
  int count = 0;
  if (scanf("%d", &count) != 1) return 0;
  static char text[3001];  // the longest string, and its terminating '\0'
  for (int k = 0; k < count && scanf("%3000s", text) == 1; k++) puts(balanced(text) ? "YES" : "NO");
  return 0;
}
