#include <bits/stdc++.h>
using namespace std;

long long editDistance(string a, string b) {
    vector<long long> prev(b.size() + 1), cur(b.size() + 1);
    iota(prev.begin(), prev.end(), 0);  // row 0: insert b's first j characters
    for (size_t i = 1; i <= a.size(); i++) {
        cur[0] = (long long)i;  // column 0: delete a's first i characters
        for (size_t j = 1; j <= b.size(); j++)
            cur[j] = min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] != b[j - 1])});
        swap(prev, cur);
    }
    return prev[b.size()];
}
