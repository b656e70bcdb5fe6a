#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long long comparisons;

static int less(long long a, long long b) {
    comparisons++;
    return a < b;
}

/* Slow on purpose: k rounds of taking out the largest value left, O(n x k). */
long long kthLargest(long long *nums, int numsSize, long long k) {
    comparisons = 0;
    long long *left = malloc(sizeof *left * (size_t)(numsSize + 1));
    memcpy(left, nums, sizeof *left * (size_t)numsSize);
    int size = numsSize;
    long long largest = left[0];
    for (long long round = 0; round < k; round++) {
        int at = 0;
        for (int i = 1; i < size; i++) {
            if (less(left[at], left[i])) at = i;
        }
        largest = left[at];
        left[at] = left[--size];
    }
    free(left);
    printf("@count %lld\n", comparisons);
    fflush(stdout);
    return largest;
}
