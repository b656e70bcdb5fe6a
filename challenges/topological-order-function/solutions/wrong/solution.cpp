#include <bits/stdc++.h>
using namespace std;

vector<long long> topologicalOrder(long long n, vector<vector<long long>> edges) {
    vector<vector<long long>> successors(n + 1);
    vector<long long> inDegree(n + 1, 0);
    for (const auto& edge : edges) {
        successors[edge[0]].push_back(edge[1]);
        inDegree[edge[1]]++;
    }
    vector<long long> order;
    for (long long task = 1; task <= n; task++)
        if (inDegree[task] == 0) order.push_back(task);
    for (size_t head = 0; head < order.size(); head++)
        for (long long after : successors[order[head]])
            if (--inDegree[after] == 0) order.push_back(after);
    // Mistake: a cycle is never detected; the tasks on it are silently left out.
    return order;
}
