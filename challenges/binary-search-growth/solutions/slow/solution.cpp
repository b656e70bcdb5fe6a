#include <bits/stdc++.h>
#include <dsa/recorder.hpp>
using namespace std;

// A scan from the start: right answers, about n probes.
long long binarySearch(vector<long long> items, long long target) {
    dsa::Recorder rec;
    long long last = (long long)items.size() - 1;
    for (long long index = 0; index <= last; index++) {
        rec.probe(index, index, last, items[index] == target);
        if (items[index] == target) return index;
        if (items[index] > target) break;
    }
    return -1;
}
