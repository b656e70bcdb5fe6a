#include <bits/stdc++.h>
#include <dsa/recorder.hpp>
using namespace std;

vector<long long> bfsOrder(vector<vector<int>> graph, long long source) {
    vector<vector<int>> neighbours = graph;
    for (auto& adjacent : neighbours) sort(adjacent.begin(), adjacent.end());
    dsa::Recorder rec;
    // Wrong on purpose: marks a node visited when it leaves the queue, not when it joins it.
    vector<bool> seen(graph.size());
    deque<long long> queue{source};
    rec.discover(source);
    vector<long long> order;
    long long checks = 0;
    while (!queue.empty()) {
        long long node = queue.front();
        queue.pop_front();
        if (seen[node]) continue;
        seen[node] = true;
        rec.visit(node);
        order.push_back(node);
        for (int neighbour : neighbours[node]) {
            checks++;
            if (!seen[neighbour]) {
                queue.push_back(neighbour);
                rec.discover(neighbour);
            }
        }
    }
    cout << "@count " << checks << endl;
    return order;
}
