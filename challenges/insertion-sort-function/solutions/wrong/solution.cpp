#include <bits/stdc++.h>
#include <dsa/recorder.hpp>
using namespace std;

vector<long long> insertionSort(vector<long long> items) {
    dsa::Recorder rec(items);
    for (size_t i = 1; i < items.size(); i++) {
        for (size_t j = i; j > 0; j--) {
            rec.compare(j - 1, j);
            if (rec.array()[j - 1] < rec.array()[j]) break;  // Wrong on purpose: equal items swap too.
            rec.swap(j - 1, j);
        }
    }
    rec.done();
    return rec.array();
}
