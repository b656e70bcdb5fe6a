#include <dsa/recorder.h>

long long binarySearch(long long *items, int itemsSize, long long target) {
    dsa_recorder rec;
    dsa_recorder_init(&rec, NULL, 0);
    long long low = 0, high = (long long)itemsSize - 1, found = -1;
    /* Wrong on purpose: stops when low == high, before probing the last candidate. */
    while (low < high) {
        long long mid = low + (high - low) / 2;
        dsa_probe(&rec, low, mid, high, items[mid] == target, NULL);
        if (items[mid] == target) {
            found = mid;
            break;
        }
        if (items[mid] < target) low = mid + 1;
        else high = mid - 1;
    }
    if (found < 0) dsa_probe_empty(&rec, low, high, NULL);
    dsa_recorder_free(&rec);
    return found;
}
