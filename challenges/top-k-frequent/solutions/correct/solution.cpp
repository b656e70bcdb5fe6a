#include <bits/stdc++.h>
using namespace std;

vector<long long> topKFrequent(vector<long long> items, long long k) {
    unordered_map<long long, long long> counts;
    counts.reserve(items.size() * 2);
    for (long long item : items) counts[item]++;
    // Ranks a (count, value) pair before another when it is better: more frequent, then smaller.
    auto better = [](const pair<long long, long long>& a, const pair<long long, long long>& b) {
        return a.first != b.first ? a.first > b.first : a.second < b.second;
    };
    // priority_queue keeps the "largest" on top: with `better` as the order, that is the worst pair.
    priority_queue<pair<long long, long long>, vector<pair<long long, long long>>, decltype(better)> heap(better);
    for (auto [value, count] : counts) {
        heap.push({count, value});
        if ((long long)heap.size() > k) heap.pop();
    }
    vector<long long> answer(heap.size());
    for (size_t i = answer.size(); i-- > 0;) {
        answer[i] = heap.top().second;
        heap.pop();
    }
    return answer;
}
