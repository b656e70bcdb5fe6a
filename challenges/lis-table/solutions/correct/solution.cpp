#include <bits/stdc++.h>
#include <dsa/recorder.hpp>
using namespace std;

vector<long long> lisTable(vector<long long> items) {
    dsa::Recorder<long long> rec;
    size_t n = items.size();
    vector<long long> best(n, 0);  // best[i]: the longest increasing run ending at item i; 0 while not filled
    for (size_t i = 0; i < n; i++) {
        string reads;
        long long longest = 0;
        for (size_t j = 0; j < i; j++) {
            if (items[j] < items[i]) {
                reads += (reads.empty() ? "[" : ",[") + to_string(j) + "]";
                longest = max(longest, best[j]);
            }
        }
        best[i] = longest + 1;
        string table;
        for (size_t k = 0; k < n; k++) table += (k ? "," : "") + (k <= i ? to_string(best[k]) : string("null"));
        rec.step("fill",
                 "{\"table\":[" + table + "],\"cell\":[" + to_string(i) + "],\"reads\":[" + reads + "]}",
                 "best[" + to_string(i) + "] = " + to_string(best[i]));
    }
    return best;
}
