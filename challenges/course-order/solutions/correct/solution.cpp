#include <bits/stdc++.h>
using namespace std;

vector<long long> courseOrder(long long n, vector<vector<long long>> prerequisites) {
    vector<vector<long long>> unlocks(n);
    vector<long long> waiting(n, 0);  // unmet prerequisites of each course
    for (const auto& pair : prerequisites) {
        unlocks[pair[1]].push_back(pair[0]);
        waiting[pair[0]]++;
    }
    priority_queue<long long, vector<long long>, greater<long long>> ready;  // smallest first
    for (long long c = 0; c < n; c++)
        if (waiting[c] == 0) ready.push(c);
    vector<long long> order;
    while (!ready.empty()) {
        long long c = ready.top();
        ready.pop();
        order.push_back(c);
        for (long long next : unlocks[c])
            if (--waiting[next] == 0) ready.push(next);
    }
    if ((long long)order.size() != n) return {};  // the rest wait on each other
    return order;
}
