#include <stdlib.h>

long long *rangeSums(long long *nums, int numsSize, long long **queries, int queriesSize, int *queriesColSize, int *returnSize) {
    (void)queriesColSize;
    int n = numsSize;
    /* Fenwick tree: tree[i] sums nums[i - (i & -i) .. i - 1]; nums keeps the current values. */
    long long *tree = calloc((size_t)n + 1, sizeof *tree);
    for (int k = 0; k < n; k++)
        for (int i = k + 1; i <= n; i += i & -i) tree[i] += nums[k];
    long long *answers = malloc(sizeof *answers * (size_t)(queriesSize + 1));
    int count = 0;
    for (int q = 0; q < queriesSize; q++) {
        long long *query = queries[q];
        if (query[0] == 0) {
            long long delta = query[2]; /* Wrong on purpose: adds v instead of the change v - nums[i], so an update adds to the old value instead of replacing it. */
            for (int i = (int)query[1] + 1; i <= n; i += i & -i) tree[i] += delta;
            nums[query[1]] = query[2];
        } else {
            long long total = 0;
            for (int i = (int)query[2] + 1; i > 0; i -= i & -i) total += tree[i];
            for (int i = (int)query[1]; i > 0; i -= i & -i) total -= tree[i];
            answers[count++] = total;
        }
    }
    free(tree);
    *returnSize = count;
    return answers;
}
