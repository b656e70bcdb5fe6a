#include <bits/stdc++.h>
using namespace std;

long long countComponents(long long n, vector<vector<long long>> edges) {
    // Slow on purpose: no union by size and no path compression, so the trees can grow as tall as
    // a chain and each find walks all of it.
    vector<long long> parent(n);
    iota(parent.begin(), parent.end(), 0);
    long long hops = 0;
    auto find = [&](long long x) {
        while (parent[x] != x) {
            x = parent[x];
            hops++;
        }
        return x;
    };
    long long components = n;
    for (const auto& edge : edges) {
        long long a = find(edge[0]), b = find(edge[1]);
        if (a != b) {
            parent[a] = b;
            components--;
        }
    }
    cout << "@count " << hops << endl;
    return components;
}
