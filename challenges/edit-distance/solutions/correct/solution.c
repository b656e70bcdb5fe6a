#include <stdlib.h>
#include <string.h>

long long editDistance(char *a, char *b) {
    size_t m = strlen(a), n = strlen(b);
    long long *prev = malloc(sizeof *prev * (n + 1)), *cur = malloc(sizeof *cur * (n + 1));
    for (size_t j = 0; j <= n; j++) prev[j] = (long long)j; /* row 0: insert b's first j characters */
    for (size_t i = 1; i <= m; i++) {
        cur[0] = (long long)i; /* column 0: delete a's first i characters */
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
