#include <bits/stdc++.h>
#include <dsa/recorder.hpp>
using namespace std;

long long binarySearch(vector<long long> items, long long target) {
    dsa::Recorder rec;
    long long low = 0, high = (long long)items.size() - 1;
    while (low <= high) {
        long long mid = low + (high - low) / 2;
        rec.probe(low, mid, high, items[mid] == target);
        if (items[mid] == target) return mid;
        if (items[mid] < target) low = mid + 1;
        else high = mid - 1;
    }
    rec.probe(low, nullopt, high, false);
    return -1;
}
