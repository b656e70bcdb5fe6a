#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

long long lisLength(long long *items, int itemsSize) {
    /* tails[n]: the smallest last item of an increasing run of length n + 1 */
    long long *tails = malloc(sizeof *tails * (size_t)(itemsSize + 1));
    int length = 0;
    for (int i = 0; i < itemsSize; i++) {
        int low = 0, high = length; /* the first tail >= items[i] */
        while (low < high) {
            int mid = low + (high - low) / 2;
            if (tails[mid] < items[i]) low = mid + 1; else high = mid;
        }
        tails[low] = items[i];
        if (low == length) length++;
    }
    free(tails);
    return length;
}
