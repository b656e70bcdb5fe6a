#include <bits/stdc++.h>
#include <dsa/recorder.hpp>
using namespace std;

static vector<long long> sortPart(const vector<long long>& items, dsa::Recorder<long long>& rec) {
    if (items.size() < 2) return items;
    size_t middle = items.size() / 2;
    vector<long long> left = sortPart(vector<long long>(items.begin(), items.begin() + middle), rec);
    vector<long long> right = sortPart(vector<long long>(items.begin() + middle, items.end()), rec);
    vector<long long> merged;
    size_t i = 0, j = 0;
    while (i < left.size() && j < right.size()) {
        rec.step("compare", "{\"values\":" + dsa::toJson(vector<long long>{left[i], right[j]}) + "}");
        if (left[i] <= right[j]) merged.push_back(left[i++]);
        else merged.push_back(right[j++]);
    }
    merged.insert(merged.end(), left.begin() + i, left.end());
    merged.insert(merged.end(), right.begin() + j, right.end());
    return merged;
}

vector<long long> mergeSort(vector<long long> items) {
    dsa::Recorder rec;
    return sortPart(items, rec);
}
