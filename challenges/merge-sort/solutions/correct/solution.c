#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dsa/recorder.h>

static void compareStep(dsa_recorder *rec, long long a, long long b) {
    char fields[80];
    snprintf(fields, sizeof fields, "{\"values\":[%lld,%lld]}", a, b);
    dsa_step(rec, "compare", fields, NULL);
}

/* Sorts items[0..n) using scratch, of the same length. */
static void sortPart(long long *items, long long *scratch, int n, dsa_recorder *rec) {
    if (n < 2) return;
    int middle = n / 2;
    sortPart(items, scratch, middle, rec);
    sortPart(items + middle, scratch, n - middle, rec);
    int i = 0, j = middle, k = 0;
    while (i < middle && j < n) {
        compareStep(rec, items[i], items[j]);
        if (items[i] <= items[j]) scratch[k++] = items[i++];
        else scratch[k++] = items[j++];
    }
    while (i < middle) scratch[k++] = items[i++];
    while (j < n) scratch[k++] = items[j++];
    memcpy(items, scratch, sizeof *items * (size_t)n);
}

long long *mergeSort(long long *items, int itemsSize, int *returnSize) {
    dsa_recorder rec;
    dsa_recorder_init(&rec, NULL, 0);
    long long *sorted = malloc(sizeof *sorted * (size_t)(itemsSize + 1));
    long long *scratch = malloc(sizeof *scratch * (size_t)(itemsSize + 1));
    memcpy(sorted, items, sizeof *sorted * (size_t)itemsSize);
    sortPart(sorted, scratch, itemsSize, &rec);
    free(scratch);
    dsa_recorder_free(&rec);
    *returnSize = itemsSize;
    return sorted;
}
