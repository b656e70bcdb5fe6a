#include <bits/stdc++.h>
#include <dsa/recorder.hpp>
using namespace std;

vector<long long> bfsOrder(vector<vector<int>> graph, long long source) {
    vector<vector<int>> neighbours = graph;
    for (auto& adjacent : neighbours) sort(adjacent.begin(), adjacent.end());
    dsa::Recorder rec;
    vector<bool> seen(graph.size());
    seen[source] = true;
    vector<long long> queue{source};
    rec.discover(source);
    // Every neighbour looked at is counted, for the growth grade (@count).
    long long checks = 0;
    for (size_t head = 0; head < queue.size(); head++) {
        long long node = queue[head];
        rec.visit(node);
        for (int neighbour : neighbours[node]) {
            checks++;
            if (!seen[neighbour]) {
                seen[neighbour] = true;
                queue.push_back(neighbour);
                rec.discover(neighbour);
            }
        }
    }
    cout << "@count " << checks << endl;
    return queue;
}
