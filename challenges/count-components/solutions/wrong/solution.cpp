#include <bits/stdc++.h>
using namespace std;

long long countComponents(long long n, vector<vector<long long>> edges) {
    vector<long long> parent(n);
    iota(parent.begin(), parent.end(), 0);
    auto find = [&](long long x) {
        while (parent[x] != x) x = parent[x];
        return x;
    };
    // Wrong on purpose: links the node v, not v's root, so v's old set loses its link to it.
    for (const auto& edge : edges) parent[edge[1]] = find(edge[0]);
    long long roots = 0;
    for (long long x = 0; x < n; x++) roots += parent[x] == x;
    return roots;
}
