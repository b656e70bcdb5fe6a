#include <bits/stdc++.h>
#include <dsa/recorder.hpp>
using namespace std;

// Insertion sort: right answers, but about n²/4 comparisons on random input.
vector<long long> mergeSort(vector<long long> items) {
    dsa::Recorder rec;
    for (size_t i = 1; i < items.size(); i++) {
        for (size_t j = i; j > 0; j--) {
            rec.step("compare", "{\"values\":" + dsa::toJson(vector<long long>{items[j - 1], items[j]}) + "}");
            if (items[j - 1] <= items[j]) break;
            swap(items[j - 1], items[j]);
        }
    }
    return items;
}
