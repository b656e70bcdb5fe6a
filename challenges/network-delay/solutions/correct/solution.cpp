#include <bits/stdc++.h>
using namespace std;

vector<long long> shortestDistances(long long n, vector<vector<long long>> edges, long long source) {
    vector<vector<pair<long long, long long>>> adjacency(n);
    for (const auto& edge : edges) adjacency[edge[0]].push_back({edge[1], edge[2]});
    vector<long long> dist(n, -1);
    priority_queue<pair<long long, long long>, vector<pair<long long, long long>>, greater<>> heap;
    heap.push({0, source});
    while (!heap.empty()) {
        auto [d, u] = heap.top();
        heap.pop();
        if (dist[u] != -1) continue;  // settled already, by a shorter path
        dist[u] = d;
        for (auto [v, w] : adjacency[u])
            if (dist[v] == -1) heap.push({d + w, v});
    }
    return dist;
}
