#include <stdlib.h>
#include <string.h>
#include <dsa/recorder.h>

long long *insertionSort(long long *items, int itemsSize, int *returnSize) {
    dsa_recorder rec;
    dsa_recorder_init(&rec, items, (size_t)itemsSize);
    for (int i = 1; i < itemsSize; i++) {
        for (int j = i; j > 0; j--) {
            dsa_compare(&rec, j - 1, j, NULL);
            if (rec.ints[j - 1] < rec.ints[j]) break;  // Wrong on purpose: equal items swap too.
            dsa_swap(&rec, j - 1, j, NULL);
        }
    }
    dsa_done(&rec, NULL);
    long long *sorted = malloc(sizeof *sorted * (size_t)(itemsSize + 1));
    memcpy(sorted, rec.ints, sizeof *sorted * (size_t)itemsSize);
    *returnSize = itemsSize;
    dsa_recorder_free(&rec);
    return sorted;
}
