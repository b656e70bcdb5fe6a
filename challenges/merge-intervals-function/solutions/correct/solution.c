#include <stdlib.h>

static int compare(const void *a, const void *b) {
    const long long *x = *(long long *const *)a, *y = *(long long *const *)b;
    if (x[0] != y[0]) return x[0] < y[0] ? -1 : 1;
    return x[1] < y[1] ? -1 : x[1] > y[1];
}

long long **mergeIntervals(long long **intervals, int intervalsSize, int *intervalsColSize, int *returnSize, int **returnColumnSizes) {
    (void)intervalsColSize;
    qsort(intervals, (size_t)intervalsSize, sizeof *intervals, compare);
    long long **merged = malloc(sizeof *merged * (intervalsSize ? intervalsSize : 1));
    *returnColumnSizes = malloc(sizeof(int) * (intervalsSize ? intervalsSize : 1));
    int count = 0;
    for (int i = 0; i < intervalsSize; i++) {
        if (count > 0 && intervals[i][0] <= merged[count - 1][1]) {
            if (intervals[i][1] > merged[count - 1][1]) merged[count - 1][1] = intervals[i][1];
        } else {
            merged[count] = malloc(sizeof(long long) * 2);
            merged[count][0] = intervals[i][0];
            merged[count][1] = intervals[i][1];
            (*returnColumnSizes)[count++] = 2;
        }
    }
    *returnSize = count;
    return merged;
}
