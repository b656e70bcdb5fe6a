#include <stdlib.h>
#include <string.h>

long long *countPrefixes(char **words, int wordsSize, char **prefixes, int prefixesSize, int *returnSize) {
    /* Node 0 is the root, so 0 also means "no child"; child[node * 26 + letter] is a node. */
    size_t capacity = 1024, size = 1;
    int *child = calloc(capacity * 26, sizeof *child);
    long long *passing = calloc(capacity, sizeof *passing); /* words whose path passes the node */
    for (int w = 0; w < wordsSize; w++) {
        size_t node = 0;
        passing[0]++;
        for (const char *letter = words[w]; *letter; letter++) {
            int *slot = &child[node * 26 + (size_t)(*letter - 'a')];
            if (*slot == 0) {
                if (size == capacity) {
                    size_t offset = (size_t)(slot - child);
                    child = realloc(child, capacity * 2 * 26 * sizeof *child);
                    memset(child + capacity * 26, 0, capacity * 26 * sizeof *child);
                    passing = realloc(passing, capacity * 2 * sizeof *passing);
                    memset(passing + capacity, 0, capacity * sizeof *passing);
                    capacity *= 2;
                    slot = child + offset;
                }
                *slot = (int)size++;
            }
            node = (size_t)*slot;
            passing[node]++;
        }
    }
    long long *answers = malloc(sizeof *answers * (size_t)(prefixesSize + 1));
    for (int p = 0; p < prefixesSize; p++) {
        long long count = passing[0];
        size_t node = 0;
        for (const char *letter = prefixes[p]; *letter; letter++) {
            node = (size_t)child[node * 26 + (size_t)(*letter - 'a')];
            if (node == 0) {
                count = 0;
                break;
            }
            count = passing[node];
        }
        answers[p] = count;
    }
    free(child);
    free(passing);
    *returnSize = prefixesSize;
    return answers;
}
