#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dsa/recorder.h>

/* Off by one: grows only when the array holds one item more than its capacity (a spare slot hides the overflow). */
long long *pushAll(long long *values, int valuesSize, int *returnSize) {
    dsa_recorder rec;
    dsa_recorder_init(&rec, NULL, 0);
    long long capacity = 1, size = 0;
    long long *buffer = malloc(sizeof *buffer * (size_t)(capacity + 1));
    long long *capacities = malloc(sizeof *capacities * (size_t)(valuesSize + 1));
    for (int k = 0; k < valuesSize; k++) {
        if (size > capacity) {
            capacity = capacity * 2;
            long long *bigger = malloc(sizeof *bigger * (size_t)(capacity + 1));
            for (long long i = 0; i < size; i++) {
                bigger[i] = buffer[i];
                char fields[40];
                snprintf(fields, sizeof fields, "{\"index\":%lld}", i);
                dsa_step(&rec, "copy", fields, NULL);
            }
            free(buffer);
            buffer = bigger;
        }
        buffer[size++] = values[k];
        capacities[k] = capacity;
    }
    free(buffer);
    dsa_recorder_free(&rec);
    *returnSize = valuesSize;
    return capacities;
}
