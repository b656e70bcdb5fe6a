#include <bits/stdc++.h>
using namespace std;

long long countComponents(long long n, vector<vector<long long>> edges) {
    vector<long long> parent(n), size(n, 1);
    iota(parent.begin(), parent.end(), 0);
    long long hops = 0;  // parent pointers followed by find, for the growth grade
    auto find = [&](long long x) {
        while (parent[x] != x) {
            parent[x] = parent[parent[x]];  // path halving
            x = parent[x];
            hops++;
        }
        return x;
    };
    long long components = n;
    for (const auto& edge : edges) {
        long long a = find(edge[0]), b = find(edge[1]);
        if (a == b) continue;
        if (size[a] < size[b]) swap(a, b);
        parent[b] = a;  // the smaller tree goes under the larger one's root
        size[a] += size[b];
        components--;
    }
    cout << "@count " << hops << endl;
    return components;
}
