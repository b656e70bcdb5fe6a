#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dsa/recorder.h>

/* Insertion sort: right answers, but about n²/4 comparisons on random input. */
long long *mergeSort(long long *items, int itemsSize, int *returnSize) {
    dsa_recorder rec;
    dsa_recorder_init(&rec, NULL, 0);
    long long *sorted = malloc(sizeof *sorted * (size_t)(itemsSize + 1));
    memcpy(sorted, items, sizeof *sorted * (size_t)itemsSize);
    for (int i = 1; i < itemsSize; i++) {
        for (int j = i; j > 0; j--) {
            char fields[80];
            snprintf(fields, sizeof fields, "{\"values\":[%lld,%lld]}", sorted[j - 1], sorted[j]);
            dsa_step(&rec, "compare", fields, NULL);
            if (sorted[j - 1] <= sorted[j]) break;
            long long held = sorted[j - 1];
            sorted[j - 1] = sorted[j];
            sorted[j] = held;
        }
    }
    dsa_recorder_free(&rec);
    *returnSize = itemsSize;
    return sorted;
}
