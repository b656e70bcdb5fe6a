#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    long long value;
    long long count;
} Tally;

static int byValue(const void *a, const void *b) {
    long long x = *(const long long *)a, y = *(const long long *)b;
    return (x > y) - (x < y);
}

/* More frequent first; equal counts, the smaller value first. */
static int byRank(const void *a, const void *b) {
    const Tally *x = a, *y = b;
    if (x->count != y->count) return x->count > y->count ? -1 : 1;
    return (x->value < y->value) - (x->value > y->value); /* wrong: ties go to the larger value */
}

long long *topKFrequent(long long *items, int itemsSize, long long k, int *returnSize) {
    /* C has no hash map at hand: sorting a copy puts equal values side by side to be counted. */
    long long *sorted = malloc(sizeof *sorted * (size_t)(itemsSize + 1));
    memcpy(sorted, items, sizeof *sorted * (size_t)itemsSize);
    qsort(sorted, (size_t)itemsSize, sizeof *sorted, byValue);
    Tally *tallies = malloc(sizeof *tallies * (size_t)(itemsSize + 1));
    int distinct = 0;
    for (int i = 0; i < itemsSize; i++) {
        if (distinct > 0 && tallies[distinct - 1].value == sorted[i]) {
            tallies[distinct - 1].count++;
        } else {
            tallies[distinct].value = sorted[i];
            tallies[distinct].count = 1;
            distinct++;
        }
    }
    qsort(tallies, (size_t)distinct, sizeof *tallies, byRank);
    int size = (int)(k < distinct ? k : distinct);
    long long *answer = malloc(sizeof *answer * (size_t)(size + 1));
    for (int i = 0; i < size; i++) answer[i] = tallies[i].value;
    free(sorted);
    free(tallies);
    *returnSize = size;
    return answer;
}
