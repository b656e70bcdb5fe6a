#include <stdlib.h>

static int descending(const void *a, const void *b) {
    long long x = *(const long long *)a, y = *(const long long *)b;
    return x < y ? 1 : x > y ? -1 : 0;
}

long long kthLargest(long long *nums, int numsSize, long long k) {
    /* Wrong on purpose: repeated values are counted once, so it finds the k-th largest distinct value. */
    qsort(nums, (size_t)numsSize, sizeof *nums, descending);
    int distinct = 0;
    for (int i = 0; i < numsSize; i++)
        if (distinct == 0 || nums[i] != nums[distinct - 1]) nums[distinct++] = nums[i];
    return nums[k - 1 < distinct ? k - 1 : distinct - 1];
}
