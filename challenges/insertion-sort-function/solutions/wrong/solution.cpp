#include <bits/stdc++.h>
using namespace std;

// One step line in the recorder's format (until this moves onto <dsa/recorder.hpp>).
static string jsonList(const vector<long long>& values) {
    string out = "[";
    for (size_t k = 0; k < values.size(); k++) out += (k ? "," : "") + to_string(values[k]);
    return out + "]";
}

static void step(const string& action, const vector<long long>& active, const vector<long long>& array,
                 const vector<long long>& ids, const vector<long long>& sortedItems, const string& caption) {
    cout << "@step {\"action\":\"" << action << "\",\"active\":" << jsonList(active) << ",\"array\":"
         << jsonList(array) << ",\"ids\":" << jsonList(ids) << ",\"sorted\":" << jsonList(sortedItems)
         << ",\"caption\":\"" << caption << "\"}" << endl;
}

vector<long long> insertionSort(vector<long long> items) {
    vector<long long> array = items, ids(items.size()), all(items.size());
    iota(ids.begin(), ids.end(), 0);
    iota(all.begin(), all.end(), 0);
    for (long long i = 1; i < (long long)array.size(); i++) {
        for (long long j = i; j > 0; j--) {
            step("compare", {j - 1, j}, array, ids, {},
                 "Compare index " + to_string(j - 1) + " (" + to_string(array[j - 1]) + ") with index " +
                     to_string(j) + " (" + to_string(array[j]) + ")");
            if (array[j - 1] < array[j]) break;  // wrong: equal items swap too
            swap(array[j - 1], array[j]);
            swap(ids[j - 1], ids[j]);
            step("swap", {j - 1, j}, array, ids, {}, "Swap index " + to_string(j - 1) + " and index " + to_string(j));
        }
    }
    step("done", {}, array, ids, all, "Done");
    return array;
}
