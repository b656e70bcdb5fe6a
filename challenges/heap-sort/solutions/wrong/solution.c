#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dsa/recorder.h>

typedef struct {
    dsa_recorder rec;
    long long *array, *ids; /* item k of the input has id k; a swap swaps ids too */
} HeapSort;

static void record(HeapSort *sort, const char *action, int size, const int *active, int activeCount, const char *caption) {
    /* At most 100 items of at most 20 characters and a comma each, and as many ids. */
    char fields[6000];
    size_t length = (size_t)sprintf(fields, "{\"heap\":[");
    for (int k = 0; k < size; k++) length += (size_t)sprintf(fields + length, k ? ",%lld" : "%lld", sort->array[k]);
    length += (size_t)sprintf(fields + length, "],\"ids\":[");
    for (int k = 0; k < size; k++) length += (size_t)sprintf(fields + length, k ? ",%lld" : "%lld", sort->ids[k]);
    length += (size_t)sprintf(fields + length, "],\"active\":[");
    for (int k = 0; k < activeCount; k++) length += (size_t)sprintf(fields + length, k ? ",%d" : "%d", active[k]);
    sprintf(fields + length, "]}");
    dsa_step(&sort->rec, action, fields, caption);
}

static void swapItems(HeapSort *sort, int i, int j) {
    long long value = sort->array[i], id = sort->ids[i];
    sort->array[i] = sort->array[j];
    sort->ids[i] = sort->ids[j];
    sort->array[j] = value;
    sort->ids[j] = id;
}

static void siftDown(HeapSort *sort, int parent, int size) {
    long long *array = sort->array;
    char caption[128];
    for (;;) {
        int left = 2 * parent + 1, right = left + 1;
        int larger = parent;
        if (left < size && array[left] > array[parent]) larger = left;
        if (right < size && array[right] > array[parent]) larger = right; /* wrong: compared with the parent, not the left child */
        if (larger == parent) return;
        swapItems(sort, parent, larger);
        int active[2] = {parent, larger};
        sprintf(caption, "Sift down: swap %lld with its larger child %lld", array[larger], array[parent]);
        record(sort, "swap", size, active, 2, caption);
        parent = larger;
    }
}

long long *heapSort(long long *items, int itemsSize, int *returnSize) {
    HeapSort sort;
    dsa_recorder_init(&sort.rec, NULL, 0);
    sort.array = malloc(sizeof *sort.array * (size_t)(itemsSize + 1));
    sort.ids = malloc(sizeof *sort.ids * (size_t)(itemsSize + 1));
    for (int k = 0; k < itemsSize; k++) {
        sort.array[k] = items[k];
        sort.ids[k] = k;
    }
    char caption[128];
    for (int parent = itemsSize / 2 - 1; parent >= 0; parent--) siftDown(&sort, parent, itemsSize);
    for (int end = itemsSize - 1; end > 0; end--) {
        swapItems(&sort, 0, end);
        int active[1] = {0};
        sprintf(caption, "Move the largest, %lld, to index %d; %lld takes the root", sort.array[end], end, sort.array[0]);
        record(&sort, "pop", end, active, 1, caption);
        siftDown(&sort, 0, end);
    }
    record(&sort, "done", 0, NULL, 0, "Done: the heap is empty and the items are sorted");
    free(sort.ids);
    dsa_recorder_free(&sort.rec);
    *returnSize = itemsSize;
    return sort.array;
}
