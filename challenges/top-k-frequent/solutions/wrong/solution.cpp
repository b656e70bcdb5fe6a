#include <bits/stdc++.h>
using namespace std;

vector<long long> topKFrequent(vector<long long> items, long long k) {
    unordered_map<long long, long long> counts;
    vector<long long> firstSeen;
    for (long long item : items) {
        if (counts[item]++ == 0) firstSeen.push_back(item);
    }
    // Wrong: a stable sort by count alone keeps tied values in the order they first appear.
    stable_sort(firstSeen.begin(), firstSeen.end(), [&](long long a, long long b) { return counts[a] > counts[b]; });
    firstSeen.resize(min<size_t>(firstSeen.size(), (size_t)k));
    return firstSeen;
}
