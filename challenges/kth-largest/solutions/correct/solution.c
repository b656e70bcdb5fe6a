#include <stdio.h>
#include <stdlib.h>

static long long comparisons; /* comparisons of two values, for the growth grade */

static int less(long long a, long long b) {
    comparisons++;
    return a < b;
}

long long kthLargest(long long *nums, int numsSize, long long k) {
    comparisons = 0;
    long long *heap = malloc(sizeof *heap * (size_t)(k + 1)); /* a min-heap of the k largest so far */
    int size = 0;
    for (int n = 0; n < numsSize; n++) {
        int i = size++;
        heap[i] = nums[n];
        while (i > 0 && less(heap[i], heap[(i - 1) / 2])) {
            long long t = heap[i]; heap[i] = heap[(i - 1) / 2]; heap[(i - 1) / 2] = t;
            i = (i - 1) / 2;
        }
        if (size > k) {
            heap[0] = heap[--size];
            i = 0;
            for (;;) {
                int left = 2 * i + 1, right = left + 1, smallest = i;
                if (left < size && less(heap[left], heap[smallest])) smallest = left;
                if (right < size && less(heap[right], heap[smallest])) smallest = right;
                if (smallest == i) break;
                long long t = heap[i]; heap[i] = heap[smallest]; heap[smallest] = t;
                i = smallest;
            }
        }
    }
    long long answer = heap[0];
    free(heap);
    printf("@count %lld\n", comparisons);
    fflush(stdout);
    return answer;
}
