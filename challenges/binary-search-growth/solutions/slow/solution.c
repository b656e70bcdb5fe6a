#include <dsa/recorder.h>

/* A scan from the start: right answers, about n probes. */
long long binarySearch(long long *items, int itemsSize, long long target) {
    dsa_recorder rec;
    dsa_recorder_init(&rec, NULL, 0);
    long long found = -1;
    for (long long index = 0; index < itemsSize; index++) {
        dsa_probe(&rec, index, index, itemsSize - 1, items[index] == target, NULL);
        if (items[index] >= target) {
            if (items[index] == target) found = index;
            break;
        }
    }
    dsa_recorder_free(&rec);
    return found;
}
