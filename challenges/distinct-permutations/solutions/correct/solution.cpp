#include <bits/stdc++.h>
using namespace std;

static void extend(const vector<long long>& values, vector<bool>& used, vector<long long>& prefix,
                   vector<vector<long long>>& permutations) {
    if (prefix.size() == values.size()) {
        permutations.push_back(prefix);
        return;
    }
    for (size_t k = 0; k < values.size(); k++) {
        // An equal value whose earlier copy is free would start a permutation already made.
        if (used[k] || (k > 0 && values[k] == values[k - 1] && !used[k - 1])) continue;
        used[k] = true;
        prefix.push_back(values[k]);
        extend(values, used, prefix, permutations);
        prefix.pop_back();
        used[k] = false;
    }
}

vector<vector<long long>> distinctPermutations(vector<long long> items) {
    sort(items.begin(), items.end());
    vector<bool> used(items.size(), false);
    vector<long long> prefix;
    vector<vector<long long>> permutations;
    extend(items, used, prefix, permutations);
    return permutations;
}
