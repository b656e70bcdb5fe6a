#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long long comparisons;

static int same(char a, char b) {
    comparisons++;
    return a == b;
}

/* Slow on purpose: the pattern is checked at every start, O(len(text) x len(pattern)). */
long long *findOccurrences(char *text, char *pattern, int *returnSize) {
    comparisons = 0;
    size_t n = strlen(text), m = strlen(pattern);
    long long *found = malloc(sizeof *found * (n + 1));
    int count = 0;
    for (size_t start = 0; start + m <= n; start++) {
        size_t j = 0;
        while (j < m && same(text[start + j], pattern[j])) j++;
        if (j == m) found[count++] = (long long)start;
    }
    printf("@count %lld\n", comparisons);
    fflush(stdout);
    *returnSize = count;
    return found;
}
