#include <bits/stdc++.h>
#include <dsa/recorder.hpp>
using namespace std;

vector<long long> bubbleSort(vector<long long> items) {
    dsa::Recorder rec(items);
    size_t n = items.size();
    for (size_t donePasses = 0; donePasses + 1 < n; donePasses++) {
        bool swapped = false;
        // Wrong on purpose: every pass runs to the end, over items already bubbled into place.
        for (size_t j = 0; j + 1 < n; j++) {
            rec.compare(j, j + 1);
            if (rec.array()[j] > rec.array()[j + 1]) {
                rec.swap(j, j + 1);
                swapped = true;
            }
        }
        if (!swapped) break;
    }
    rec.done();
    return rec.array();
}
