#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dsa/recorder.h>

#define STEPPED 50 /* operations that record steps */

static size_t appendList(char *out, const long long *items, int count) {
    size_t length = 0;
    out[length++] = '[';
    for (int k = 0; k < count; k++) length += (size_t)sprintf(out + length, k ? ",%lld" : "%lld", items[k]);
    out[length++] = ']';
    out[length] = '\0';
    return length;
}

static void recordStep(dsa_recorder *rec, const char *action, const long long *stack, const long long *ids,
                       const long long *mins, int size, long long movedId, long long movedValue) {
    /* At most STEPPED elements of at most 20 characters and a comma each, in two lists. */
    char fields[4096], minimum[32], caption[128];
    size_t length = (size_t)sprintf(fields, "{\"stack\":");
    length += appendList(fields + length, stack, size);
    length += (size_t)sprintf(fields + length, ",\"ids\":");
    length += appendList(fields + length, ids, size);
    if (size > 0) sprintf(minimum, "%lld", mins[size - 1]); else strcpy(minimum, "null");
    sprintf(fields + length, ",\"moved\":{\"id\":%lld,\"value\":%lld},\"min\":%s}", movedId, movedValue, minimum);
    if (size > 0) {
        sprintf(caption, "%s %lld: the minimum is %s", strcmp(action, "push") == 0 ? "Push" : "Pop", movedValue, minimum);
    } else {
        sprintf(caption, "Pop %lld: the stack is empty", movedValue);
    }
    dsa_step(rec, action, fields, caption);
}

long long *minStack(char **ops, int opsSize, long long *values, int valuesSize, int *returnSize) {
    (void)valuesSize;
    dsa_recorder rec;
    dsa_recorder_init(&rec, NULL, 0);
    long long *stack = malloc(sizeof *stack * (size_t)(opsSize + 1));
    long long *ids = malloc(sizeof *ids * (size_t)(opsSize + 1));
    long long *mins = malloc(sizeof *mins * (size_t)(opsSize + 1)); /* mins[k]: the minimum of stack[0..k] */
    long long *answers = malloc(sizeof *answers * (size_t)(opsSize + 1));
    int size = 0, answerCount = 0;
    long long nextId = 0;
    for (int i = 0; i < opsSize; i++) {
        if (strcmp(ops[i], "push") == 0) {
            long long value = values[i];
            stack[size] = value;
            ids[size] = nextId++;
            mins[size] = size == 0 || value < mins[size - 1] ? value : mins[size - 1];
            size++;
            if (i < STEPPED) recordStep(&rec, "push", stack, ids, mins, size, ids[size - 1], value);
        } else if (strcmp(ops[i], "pop") == 0) {
            size--;
            if (i < STEPPED) recordStep(&rec, "pop", stack, ids, mins, size, ids[size], stack[size]);
        } else if (strcmp(ops[i], "top") == 0) {
            answers[answerCount++] = stack[size - 1];
        } else {
            answers[answerCount++] = mins[size - 1];
        }
    }
    free(stack);
    free(ids);
    free(mins);
    dsa_recorder_free(&rec);
    *returnSize = answerCount;
    return answers;
}
