#include <bits/stdc++.h>
#include <dsa/recorder.hpp>
using namespace std;

// dist as JSON, null for a node not reached yet.
static string distJson(const vector<optional<long long>>& dist) {
    string text = "[";
    for (size_t v = 0; v < dist.size(); v++) {
        if (v > 0) text += ",";
        text += dist[v] ? to_string(*dist[v]) : "null";
    }
    return text + "]";
}

vector<long long> dijkstra(long long n, vector<vector<long long>> edges, long long source) {
    dsa::Recorder rec;
    vector<vector<pair<long long, long long>>> outgoing(n);
    for (auto& e : edges) outgoing[e[0]].push_back({e[1], e[2]});
    for (auto& links : outgoing) sort(links.begin(), links.end());
    vector<optional<long long>> dist(n);
    vector<bool> settled(n);
    dist[source] = 0;
    for (;;) {
        long long node = -1;
        for (long long v = 0; v < n; v++) {
            if (!settled[v] && dist[v] && (node < 0 || *dist[v] < *dist[node])) node = v;
        }
        if (node < 0) break;
        settled[node] = true;
        rec.step("settle", "{\"current\":" + to_string(node) + ",\"dist\":" + distJson(dist) + "}");
        for (auto [to, weight] : outgoing[node]) {
            if (settled[to]) continue;
            long long through = *dist[node] + weight;
            bool relaxed = !dist[to] || through < *dist[to];
            if (relaxed) dist[to] = through;
            rec.step("relax", "{\"current\":" + to_string(node) + ",\"dist\":" + distJson(dist) + ",\"edge\":" +
                                  dsa::toJson(vector<long long>{node, to, weight}) +
                                  ",\"relaxed\":" + (relaxed ? "true" : "false") + "}");
        }
    }
    vector<long long> result(n);
    for (long long v = 0; v < n; v++) result[v] = dist[v] ? *dist[v] : -1;
    return result;
}
