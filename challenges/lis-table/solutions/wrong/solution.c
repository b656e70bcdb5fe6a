#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dsa/recorder.h>

long long *lisTable(long long *items, int itemsSize, int *returnSize) {
    dsa_recorder rec;
    dsa_recorder_init(&rec, NULL, 0);
    /* best[i]: the longest increasing run ending at item i */
    long long *best = malloc(sizeof *best * (size_t)(itemsSize + 1));
    /* At most 100 cells of at most 5 characters and 100 reads of 6, with their punctuation. */
    char fields[4096], caption[64];
    for (int i = 0; i < itemsSize; i++) {
        long long longest = 0;
        size_t length = (size_t)sprintf(fields, "{\"table\":[");
        for (int k = 0; k < itemsSize; k++) {
            if (k == i) {
                for (int j = 0; j < i; j++) {
                    if (items[j] <= items[i] && best[j] > longest) /* wrong: an equal item extends a run */ longest = best[j];
                }
                best[i] = longest + 1;
            }
            if (k <= i) length += (size_t)sprintf(fields + length, k ? ",%lld" : "%lld", best[k]);
            else length += (size_t)sprintf(fields + length, k ? ",null" : "null");
        }
        length += (size_t)sprintf(fields + length, "],\"cell\":[%d],\"reads\":[", i);
        bool first = true;
        for (int j = 0; j < i; j++) {
            if (items[j] <= items[i]) {
                length += (size_t)sprintf(fields + length, first ? "[%d]" : ",[%d]", j);
                first = false;
            }
        }
        sprintf(fields + length, "]}");
        sprintf(caption, "best[%d] = %lld", i, best[i]);
        dsa_step(&rec, "fill", fields, caption);
    }
    dsa_recorder_free(&rec);
    *returnSize = itemsSize;
    return best;
}
