#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dsa/recorder.h>

#define EMPTY (-1LL)

static void record(dsa_recorder *rec, const char *action, const long long *table, const long long *ids, long long capacity,
                   long long key, long long home, const long long *probe, int probes, const char *caption) {
    /* At most 64 buckets of some 60 characters each, and 64 probes. */
    char fields[8192];
    size_t length = (size_t)sprintf(fields, "{\"buckets\":[");
    for (long long b = 0; b < capacity; b++) {
        if (b > 0) fields[length++] = ',';
        if (table[b] == EMPTY) {
            length += (size_t)sprintf(fields + length, "[]");
        } else {
            length += (size_t)sprintf(fields + length, "[{\"id\":%lld,\"key\":%lld,\"value\":null}]", ids[b], table[b]);
        }
    }
    length += (size_t)sprintf(fields + length, "],\"key\":%lld,\"hash\":%lld,\"probe\":[", key, home);
    for (int p = 0; p < probes; p++) length += (size_t)sprintf(fields + length, p ? ",%lld" : "%lld", probe[p]);
    sprintf(fields + length, "]}");
    dsa_step(rec, action, fields, caption);
}

long long *insertAll(long long capacity, long long *keys, int keysSize, int *returnSize) {
    dsa_recorder rec;
    dsa_recorder_init(&rec, NULL, 0);
    long long *table = malloc(sizeof *table * (size_t)capacity);
    long long *ids = malloc(sizeof *ids * (size_t)capacity); /* the id of each bucket's entry: its insertion order */
    long long *probe = malloc(sizeof *probe * (size_t)capacity);
    for (long long b = 0; b < capacity; b++) table[b] = EMPTY;
    long long nextId = 0;
    char caption[128];
    for (int i = 0; i < keysSize; i++) {
        long long key = keys[i], home = key % capacity;
        int probes = 0;
        for (long long bucket = home;; bucket = (bucket + 1) % capacity) {
            probe[probes++] = bucket;
            /* wrong: stops only at an empty bucket, so a key already there is inserted again */
            if (table[bucket] == EMPTY) {
                table[bucket] = key;
                ids[bucket] = nextId++;
                sprintf(caption, "Insert %lld in bucket %lld (its hash is %lld)", key, bucket, home);
                record(&rec, "insert", table, ids, capacity, key, home, probe, probes, caption);
                break;
            }
        }
    }
    free(ids);
    free(probe);
    dsa_recorder_free(&rec);
    *returnSize = (int)capacity;
    return table;
}
