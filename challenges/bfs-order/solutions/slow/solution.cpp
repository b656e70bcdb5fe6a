#include <bits/stdc++.h>
#include <dsa/recorder.hpp>
using namespace std;

vector<long long> bfsOrder(vector<vector<int>> graph, long long source) {
    vector<set<int>> neighbourSets;
    for (const auto& adjacent : graph) neighbourSets.emplace_back(adjacent.begin(), adjacent.end());
    dsa::Recorder rec;
    vector<bool> seen(graph.size());
    seen[source] = true;
    vector<long long> queue{source};
    rec.discover(source);
    long long checks = 0;
    for (size_t head = 0; head < queue.size(); head++) {
        long long node = queue[head];
        rec.visit(node);
        // Too slow: every node is looked at, neighbour or not (n² checks instead of n + m).
        for (int neighbour = 0; neighbour < (int)graph.size(); neighbour++) {
            checks++;
            if (neighbourSets[node].count(neighbour) && !seen[neighbour]) {
                seen[neighbour] = true;
                queue.push_back(neighbour);
                rec.discover(neighbour);
            }
        }
    }
    cout << "@count " << checks << endl;
    return queue;
}
