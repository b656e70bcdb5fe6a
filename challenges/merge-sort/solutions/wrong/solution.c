#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dsa/recorder.h>

static void compareStep(dsa_recorder *rec, long long a, long long b) {
    char fields[80];
    snprintf(fields, sizeof fields, "{\"values\":[%lld,%lld]}", a, b);
    dsa_step(rec, "compare", fields, NULL);
}

/* Sorts items[0..n) using scratch and returns the number of items kept. */
static int sortPart(long long *items, long long *scratch, int n, dsa_recorder *rec) {
    if (n < 2) return n;
    int middle = n / 2;
    int leftCount = sortPart(items, scratch, middle, rec);
    int rightCount = sortPart(items + middle, scratch, n - middle, rec);
    int i = 0, j = middle, k = 0;
    while (i < leftCount && j < middle + rightCount) {
        compareStep(rec, items[i], items[j]);
        if (items[i] < items[j]) {
            scratch[k++] = items[i++];
        } else if (items[i] > items[j]) {
            scratch[k++] = items[j++];
        } else {
            /* Wrong on purpose: two equal items are written once, so a duplicate is lost. */
            scratch[k++] = items[i++];
            j++;
        }
    }
    while (i < leftCount) scratch[k++] = items[i++];
    while (j < middle + rightCount) scratch[k++] = items[j++];
    memcpy(items, scratch, sizeof *items * (size_t)k);
    return k;
}

long long *mergeSort(long long *items, int itemsSize, int *returnSize) {
    dsa_recorder rec;
    dsa_recorder_init(&rec, NULL, 0);
    long long *sorted = malloc(sizeof *sorted * (size_t)(itemsSize + 1));
    long long *scratch = malloc(sizeof *scratch * (size_t)(itemsSize + 1));
    memcpy(sorted, items, sizeof *sorted * (size_t)itemsSize);
    *returnSize = sortPart(sorted, scratch, itemsSize, &rec);
    free(scratch);
    dsa_recorder_free(&rec);
    return sorted;
}
