#include <bits/stdc++.h>
#include <dsa/recorder.hpp>
using namespace std;

vector<long long> heapSort(vector<long long> items) {
    dsa::Recorder<long long> rec;
    vector<long long>& array = items;
    vector<long long> ids(array.size());  // item k of the input has id k; a swap swaps ids too
    iota(ids.begin(), ids.end(), 0);
    auto record = [&](const string& action, size_t size, const vector<size_t>& active, const string& caption) {
        rec.step(action,
                 "{\"heap\":" + dsa::toJson(vector<long long>(array.begin(), array.begin() + size)) +
                     ",\"ids\":" + dsa::toJson(vector<long long>(ids.begin(), ids.begin() + size)) +
                     ",\"active\":" + dsa::toJson(active) + "}",
                 caption);
    };
    auto swapItems = [&](size_t i, size_t j) {
        swap(array[i], array[j]);
        swap(ids[i], ids[j]);
    };
    auto siftDown = [&](size_t parent, size_t size) {
        for (;;) {
            size_t left = 2 * parent + 1, right = left + 1;
            size_t larger = parent;
            if (left < size && array[left] > array[parent]) larger = left;
            if (right < size && array[right] > array[parent]) larger = right;  // wrong: compared with the parent, not the left child
            if (larger == parent) return;
            swapItems(parent, larger);
            record("swap", size, {parent, larger},
                   "Sift down: swap " + to_string(array[larger]) + " with its larger child " + to_string(array[parent]));
            parent = larger;
        }
    };
    size_t n = array.size();
    for (size_t parent = n / 2; parent-- > 0;) siftDown(parent, n);
    for (size_t end = n; end-- > 1;) {
        swapItems(0, end);
        record("pop", end, {0},
               "Move the largest, " + to_string(array[end]) + ", to index " + to_string(end) + "; " +
                   to_string(array[0]) + " takes the root");
        siftDown(0, end);
    }
    record("done", 0, {}, "Done: the heap is empty and the items are sorted");
    return array;
}
