#include <bits/stdc++.h>
using namespace std;

long long editDistance(string a, string b) {
    // Wrong on purpose: the first row and column start at 0, as if deleting or inserting a prefix were free.
    vector<long long> prev(b.size() + 1, 0), cur(b.size() + 1, 0);
    for (size_t i = 1; i <= a.size(); i++) {
        for (size_t j = 1; j <= b.size(); j++)
            cur[j] = min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] != b[j - 1])});
        swap(prev, cur);
    }
    return prev[b.size()];
}
