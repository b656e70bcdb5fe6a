#include <bits/stdc++.h>
#include <dsa/recorder.hpp>
using namespace std;

// Off by one: grows only when the array holds one item more than its capacity (a spare slot hides the overflow).
vector<long long> pushAll(vector<long long> values) {
    dsa::Recorder rec;
    long long capacity = 1, size = 0;
    unique_ptr<long long[]> buffer(new long long[capacity + 1]);
    vector<long long> capacities;
    for (long long value : values) {
        if (size > capacity) {
            capacity = capacity * 2;
            unique_ptr<long long[]> bigger(new long long[capacity + 1]);
            for (long long i = 0; i < size; i++) {
                bigger[i] = buffer[i];
                rec.step("copy", "{\"index\":" + to_string(i) + "}");
            }
            buffer = move(bigger);
        }
        buffer[size++] = value;
        capacities.push_back(capacity);
    }
    return capacities;
}
