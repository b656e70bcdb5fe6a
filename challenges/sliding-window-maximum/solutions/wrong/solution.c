#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dsa/recorder.h>

#define STEPPED 50 /* indices whose operations record steps */

/* The deque is window[head..tail), its items decreasing from the front. */
static void record(dsa_recorder *rec, const char *action, const long long *window, int head, int tail, int index,
                   const char *caption) {
    /* At most STEPPED indices of at most 2 digits and a comma each, in two lists. */
    char list[512], fields[1200];
    size_t length = 0;
    list[length++] = '[';
    for (int k = head; k < tail; k++) length += (size_t)sprintf(list + length, k > head ? ",%lld" : "%lld", window[k]);
    list[length++] = ']';
    list[length] = '\0';
    sprintf(fields, "{\"deque\":%s,\"ids\":%s,\"moved\":{\"id\":%d,\"value\":%d}}", list, list, index, index);
    dsa_step(rec, action, fields, caption);
}

long long *windowMax(long long *items, int itemsSize, long long k, int *returnSize) {
    dsa_recorder rec;
    dsa_recorder_init(&rec, NULL, 0);
    long long *window = malloc(sizeof *window * (size_t)(itemsSize + 1));
    long long *answers = malloc(sizeof *answers * (size_t)(itemsSize + 1));
    int head = 0, tail = 0, answerCount = 0;
    char caption[160];
    for (int i = 0; i < itemsSize; i++) {
        if (head < tail && window[head] < i - k /* wrong: one index too late */) {
            int left = (int)window[head++];
            sprintf(caption, "Index %d has left the window: drop it from the front", left);
            if (i < STEPPED) record(&rec, "pop_front", window, head, tail, left, caption);
        }
        while (head < tail && items[window[tail - 1]] <= items[i]) {
            int smaller = (int)window[--tail];
            sprintf(caption, "%lld at index %d is not larger than %lld: drop it", items[smaller], smaller, items[i]);
            if (i < STEPPED) record(&rec, "pop_back", window, head, tail, smaller, caption);
        }
        window[tail++] = i;
        sprintf(caption, "Push index %d (%lld) at the back", i, items[i]);
        if (i < STEPPED) record(&rec, "push_back", window, head, tail, i, caption);
        if (i >= k - 1) answers[answerCount++] = items[window[head]];
    }
    free(window);
    dsa_recorder_free(&rec);
    *returnSize = answerCount;
    return answers;
}
