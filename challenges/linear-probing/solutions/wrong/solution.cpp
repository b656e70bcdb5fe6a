#include <bits/stdc++.h>
#include <dsa/recorder.hpp>
using namespace std;

static const long long EMPTY = -1;

vector<long long> insertAll(long long capacity, vector<long long> keys) {
    dsa::Recorder<long long> rec;
    vector<long long> table(capacity, EMPTY);
    vector<long long> ids(capacity, -1);  // the id of the entry in each bucket: its insertion order
    long long nextId = 0;
    auto record = [&](const string& action, long long key, long long home, const vector<long long>& probe,
                      const string& caption) {
        string buckets = "[";
        for (long long b = 0; b < capacity; b++) {
            if (b > 0) buckets += ",";
            if (table[b] == EMPTY) buckets += "[]";
            else buckets += "[{\"id\":" + to_string(ids[b]) + ",\"key\":" + to_string(table[b]) + ",\"value\":null}]";
        }
        buckets += "]";
        rec.step(action,
                 "{\"buckets\":" + buckets + ",\"key\":" + to_string(key) + ",\"hash\":" + to_string(home) +
                     ",\"probe\":" + dsa::toJson(probe) + "}",
                 caption);
    };
    for (long long key : keys) {
        long long home = key % capacity;
        vector<long long> probe;
        for (long long bucket = home;; bucket = (bucket + 1) % capacity) {
            probe.push_back(bucket);
            // wrong: stops only at an empty bucket, so a key already there is inserted again
            if (table[bucket] == EMPTY) {
                table[bucket] = key;
                ids[bucket] = nextId++;
                record("insert", key, home, probe,
                       "Insert " + to_string(key) + " in bucket " + to_string(bucket) + " (its hash is " +
                           to_string(home) + ")");
                break;
            }
        }
    }
    return table;
}
