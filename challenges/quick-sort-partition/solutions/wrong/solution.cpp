#include <bits/stdc++.h>
#include <dsa/recorder.hpp>
using namespace std;

static void sortRange(vector<long long>& array, long long lo, long long hi, dsa::Recorder<long long>& rec) {
    auto step = [&](const string& action, const vector<long long>& active) {
        rec.step(action, "{\"active\":" + dsa::toJson(active) + ",\"array\":" + dsa::toJson(array) + "}");
    };
    if (lo >= hi) return;
    long long pivot = array[hi];
    step("pivot", {hi});
    long long i = lo;
    for (long long j = lo; j < hi; j++) {
        step("compare", {j, hi});
        // Wrong on purpose: items equal to the pivot stay in the right part.
        if (array[j] < pivot) {
            if (i != j) {
                swap(array[i], array[j]);
                step("swap", {i, j});
            }
            i++;
        }
    }
    swap(array[i], array[hi]);
    step("place", {i});
    sortRange(array, lo, i - 1, rec);
    sortRange(array, i + 1, hi, rec);
}

vector<long long> quickSort(vector<long long> items) {
    dsa::Recorder rec;
    sortRange(items, 0, (long long)items.size() - 1, rec);
    rec.step("done", "{\"active\":[],\"array\":" + dsa::toJson(items) + "}");
    return items;
}
