#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <dsa/recorder.h>

long long *bubbleSort(long long *items, int itemsSize, int *returnSize) {
    dsa_recorder rec;
    dsa_recorder_init(&rec, items, (size_t)itemsSize);
    for (int donePasses = 0; donePasses < itemsSize - 1; donePasses++) {
        bool swapped = false;
        /* Wrong on purpose: every pass runs to the end, over items already bubbled into place. */
        for (int j = 0; j < itemsSize - 1; j++) {
            dsa_compare(&rec, j, j + 1, NULL);
            if (rec.ints[j] > rec.ints[j + 1]) {
                dsa_swap(&rec, j, j + 1, NULL);
                swapped = true;
            }
        }
        if (!swapped) break;
    }
    dsa_done(&rec, NULL);
    long long *sorted = malloc(sizeof *sorted * (size_t)(itemsSize + 1));
    memcpy(sorted, rec.ints, sizeof *sorted * (size_t)itemsSize);
    *returnSize = itemsSize;
    dsa_recorder_free(&rec);
    return sorted;
}
