#include <stdlib.h>
#include <string.h>

long long editDistance(char *a, char *b) {
    /* Wrong on purpose: the first row and column start at 0, as if deleting or inserting a prefix were free. */
    size_t m = strlen(a), n = strlen(b);
    long long *prev = calloc(n + 1, sizeof *prev), *cur = calloc(n + 1, sizeof *cur);
    for (size_t i = 1; i <= m; i++) {
        for (size_t j = 1; j <= n; j++) {
            long long best = prev[j] + 1;
            if (cur[j - 1] + 1 < best) best = cur[j - 1] + 1;
            long long replace = prev[j - 1] + (a[i - 1] != b[j - 1]);
            cur[j] = replace < best ? replace : best;
        }
        long long *t = prev; prev = cur; cur = t;
    }
    long long answer = prev[n];
    free(prev);
    free(cur);
    return answer;
}
