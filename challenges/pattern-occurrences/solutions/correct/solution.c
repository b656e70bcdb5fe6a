#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long long comparisons; /* character comparisons, for the growth grade */

static int same(char a, char b) {
    comparisons++;
    return a == b;
}

long long *findOccurrences(char *text, char *pattern, int *returnSize) {
    comparisons = 0;
    size_t n = strlen(text), m = strlen(pattern);
    /* fail[i]: the longest proper prefix of pattern[0..i] that is also its suffix. */
    size_t *fail = malloc(sizeof *fail * (m + 1));
    size_t k = 0;
    fail[0] = 0;
    for (size_t i = 1; i < m; i++) {
        while (k > 0 && !same(pattern[i], pattern[k])) k = fail[k - 1];
        if (same(pattern[i], pattern[k])) k++;
        fail[i] = k;
    }
    long long *found = malloc(sizeof *found * (n + 1));
    int count = 0;
    k = 0;
    for (size_t i = 0; i < n; i++) {
        while (k > 0 && !same(text[i], pattern[k])) k = fail[k - 1];
        if (same(text[i], pattern[k])) k++;
        if (k == m) {
            found[count++] = (long long)(i + 1 - k);
            k = fail[k - 1];
        }
    }
    free(fail);
    printf("@count %lld\n", comparisons);
    fflush(stdout);
    *returnSize = count;
    return found;
}
