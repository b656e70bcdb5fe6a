#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static int compareValues(const void *a, const void *b) {
    long long x = *(const long long *)a, y = *(const long long *)b;
    return (x > y) - (x < y);
}

struct Search {
    long long *values;
    int size;
    bool *used;
    long long *prefix;
    long long **rows;
    int count;
    int capacity;
};

static void extend(struct Search *search, int length) {
    if (length == search->size) {
        if (search->count == search->capacity) {
            search->capacity = search->capacity ? 2 * search->capacity : 16;
            search->rows = realloc(search->rows, sizeof *search->rows * (size_t)search->capacity);
        }
        long long *row = malloc(sizeof *row * (size_t)(search->size ? search->size : 1));
        memcpy(row, search->prefix, sizeof *row * (size_t)search->size);
        search->rows[search->count++] = row;
        return;
    }
    // Wrong on purpose: every position is tried, so equal values give the same permutation several times.
    for (int k = 0; k < search->size; k++) {
        if (search->used[k]) continue;
        search->used[k] = true;
        search->prefix[length] = search->values[k];
        extend(search, length + 1);
        search->used[k] = false;
    }
}

long long **distinctPermutations(long long *items, int itemsSize, int *returnSize, int **returnColumnSizes) {
    struct Search search = {0};
    search.size = itemsSize;
    search.values = malloc(sizeof(long long) * (size_t)(itemsSize ? itemsSize : 1));
    memcpy(search.values, items, sizeof(long long) * (size_t)itemsSize);
    qsort(search.values, (size_t)itemsSize, sizeof(long long), compareValues);
    search.used = calloc((size_t)(itemsSize ? itemsSize : 1), sizeof(bool));
    search.prefix = malloc(sizeof(long long) * (size_t)(itemsSize ? itemsSize : 1));
    extend(&search, 0);
    *returnSize = search.count;
    *returnColumnSizes = malloc(sizeof(int) * (size_t)(search.count ? search.count : 1));
    for (int i = 0; i < search.count; i++) (*returnColumnSizes)[i] = itemsSize;
    free(search.values);
    free(search.used);
    free(search.prefix);
    return search.rows;
}
