#include <bits/stdc++.h>
using namespace std;

long long kthLargest(vector<long long> nums, long long k) {
    // Wrong on purpose: repeated values are counted once (a set), so it finds the k-th largest distinct value.
    set<long long> distinct(nums.begin(), nums.end());
    auto it = distinct.rbegin();
    advance(it, k - 1);
    return *it;
}
