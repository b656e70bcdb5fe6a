#include <bits/stdc++.h>
using namespace std;

const long long UNREACHABLE = 1000000000000000000LL;

vector<long long> shortestFrom(long long n, vector<vector<long long>> edges, long long source) {
    vector<long long> dist(n, UNREACHABLE);
    dist[source] = 0;
    for (long long round = 0; round < n - 1; round++) {  // a shortest path has at most n - 1 edges
        bool changed = false;
        for (const auto& edge : edges) {
            long long u = edge[0], v = edge[1], w = edge[2];
            if (dist[u] != UNREACHABLE && dist[u] + w < dist[v]) {
                dist[v] = dist[u] + w;
                changed = true;
            }
        }
        if (!changed) break;
    }
    for (const auto& edge : edges) {
        // Still relaxing after n - 1 rounds: a negative cycle is reachable.
        if (dist[edge[0]] != UNREACHABLE && dist[edge[0]] + edge[2] < dist[edge[1]]) return {};
    }
    return dist;
}
