#include <bits/stdc++.h>
using namespace std;

long long mstWeight(long long n, vector<vector<long long>> edges) {
    vector<long long> parent(n);
    iota(parent.begin(), parent.end(), 0);
    auto find = [&](long long x) {
        while (parent[x] != x) {
            parent[x] = parent[parent[x]];  // path halving
            x = parent[x];
        }
        return x;
    };
    // Kruskal: cheapest edges first.
    sort(edges.begin(), edges.end(), [](const auto& a, const auto& b) { return a[2] < b[2]; });
    long long total = 0, joined = 0;
    for (const auto& edge : edges) {
        long long a = find(edge[0]), b = find(edge[1]);
        if (a != b) {  // joins two components, so it makes no cycle
            parent[a] = b;
            total += edge[2];
            joined++;
        }
    }
    return joined == n - 1 ? total : -1;
}
