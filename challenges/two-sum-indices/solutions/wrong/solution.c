#include <stdbool.h>
#include <stdlib.h>

// An open-addressing hash table from a value to the first index that holds it.
struct Table {
    long long *values;
    int *indices;
    bool *used;
    size_t mask;
};

static size_t slotOf(const struct Table *table, long long value) {
    size_t slot = (size_t)((unsigned long long)value * 0x9E3779B97F4A7C15ULL) & table->mask;
    while (table->used[slot] && table->values[slot] != value) slot = (slot + 1) & table->mask;
    return slot;
}

long long *twoSum(long long *nums, int numsSize, long long target, int *returnSize) {
    struct Table table;
    size_t capacity = 2;
    while (capacity < 2 * (size_t)numsSize) capacity *= 2;
    table.values = malloc(sizeof(long long) * capacity);
    table.indices = malloc(sizeof(int) * capacity);
    table.used = calloc(capacity, sizeof(bool));
    table.mask = capacity - 1;
    long long *pair = malloc(sizeof(long long) * 2);
    *returnSize = 0;
    for (int j = 0; j < numsSize; j++) {
        // Wrong on purpose: the value is stored before the look-up, so it can pair with itself.
        size_t own = slotOf(&table, nums[j]);
        if (!table.used[own]) {
            table.used[own] = true;
            table.values[own] = nums[j];
            table.indices[own] = j;
        }
        size_t partner = slotOf(&table, target - nums[j]);
        if (table.used[partner]) {
            pair[0] = table.indices[partner];
            pair[1] = j;
            *returnSize = 2;
            break;
        }
    }
    free(table.values);
    free(table.indices);
    free(table.used);
    return pair;
}
