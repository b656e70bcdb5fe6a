#include <bits/stdc++.h>
using namespace std;

static void extend(const vector<long long>& values, vector<bool>& used, vector<long long>& prefix,
                   vector<vector<long long>>& permutations) {
    if (prefix.size() == values.size()) {
        permutations.push_back(prefix);
        return;
    }
    // Wrong on purpose: every position is tried, so equal values give the same permutation several times.
    for (size_t k = 0; k < values.size(); k++) {
        if (used[k]) continue;
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
