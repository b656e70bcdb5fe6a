#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dsa/recorder.h>

/* One step: {"active":[...],"array":[...]} as the JSON text dsa_step takes. */
static void step(dsa_recorder *rec, const char *action, const long long *active, int activeSize,
                 const long long *array, int size) {
    char *fields = malloc(32 + 22 * (size_t)(activeSize + size));
    int at = sprintf(fields, "{\"active\":[");
    for (int k = 0; k < activeSize; k++) at += sprintf(fields + at, "%s%lld", k ? "," : "", active[k]);
    at += sprintf(fields + at, "],\"array\":[");
    for (int k = 0; k < size; k++) at += sprintf(fields + at, "%s%lld", k ? "," : "", array[k]);
    sprintf(fields + at, "]}");
    dsa_step(rec, action, fields, NULL);
    free(fields);
}

static void sortRange(long long *array, int size, int lo, int hi, dsa_recorder *rec) {
    if (lo >= hi) return;
    long long pivot = array[hi];
    step(rec, "pivot", (long long[]){hi}, 1, array, size);
    int i = lo;
    for (int j = lo; j < hi; j++) {
        step(rec, "compare", (long long[]){j, hi}, 2, array, size);
        /* Wrong on purpose: items equal to the pivot stay in the right part. */
        if (array[j] < pivot) {
            if (i != j) {
                long long t = array[i]; array[i] = array[j]; array[j] = t;
                step(rec, "swap", (long long[]){i, j}, 2, array, size);
            }
            i++;
        }
    }
    long long t = array[i]; array[i] = array[hi]; array[hi] = t;
    step(rec, "place", (long long[]){i}, 1, array, size);
    sortRange(array, size, lo, i - 1, rec);
    sortRange(array, size, i + 1, hi, rec);
}

long long *quickSort(long long *items, int itemsSize, int *returnSize) {
    dsa_recorder rec;
    dsa_recorder_init(&rec, NULL, 0);
    long long *array = malloc(sizeof *array * (size_t)(itemsSize + 1));
    if (itemsSize > 0) memcpy(array, items, sizeof *array * (size_t)itemsSize);
    sortRange(array, itemsSize, 0, itemsSize - 1, &rec);
    step(&rec, "done", NULL, 0, array, itemsSize);
    dsa_recorder_free(&rec);
    *returnSize = itemsSize;
    return array;
}
