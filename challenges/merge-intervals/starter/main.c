#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

// Optional step helper for the app's step player. A step line is built field by field:
//   step_begin(); step_string("action", "look"); step_int("j", 3); step_ints("seen", seen, 2); step_end();
// prints @step {"action": "look", "j": 3, "seen": [1, 2]}.
static int step_fields;

void step_begin(void) {
  fputs("@step {", stdout);
  step_fields = 0;
}

void step_key(const char *key) { printf(step_fields++ > 0 ? ", \"%s\": " : "\"%s\": ", key); }

void step_string(const char *key, const char *text) {
  step_key(key);
  putchar('"');
  for (const char *c = text; *c != '\0'; c++) {
    if (*c == '"' || *c == '\\') putchar('\\');
    putchar(*c);
  }
  putchar('"');
}

void step_int(const char *key, long long value) {
  step_key(key);
  printf("%lld", value);
}

void step_double(const char *key, double value) {
  step_key(key);
  printf("%.17g", value);
}

void step_bool(const char *key, bool value) {
  step_key(key);
  fputs(value ? "true" : "false", stdout);
}

void step_ints(const char *key, const int *values, int count) {
  step_key(key);
  putchar('[');
  for (int k = 0; k < count; k++) printf(k > 0 ? ", %d" : "%d", values[k]);
  putchar(']');
}

void step_long_longs(const char *key, const long long *values, int count) {
  step_key(key);
  putchar('[');
  for (int k = 0; k < count; k++) printf(k > 0 ? ", %lld" : "%lld", values[k]);
  putchar(']');
}

void step_end(void) { fputs("}\n", stdout); }

typedef struct {
  long long left;
  long long right;
} Interval;

int main(void) {
  int n = 0;
  if (scanf("%d", &n) != 1 || n < 0) return 1;
  Interval *intervals = malloc(sizeof *intervals * (size_t)(n > 0 ? n : 1));
  if (intervals == NULL) return 1;
  for (int k = 0; k < n; k++) {
    if (scanf("%lld %lld", &intervals[k].left, &intervals[k].right) != 2) return 1;
  }
  // TODO: merge the overlapping intervals and print them from left to right, one "l r" per line.
  free(intervals);
  return 0;
}
