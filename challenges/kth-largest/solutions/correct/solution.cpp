#include <bits/stdc++.h>
using namespace std;

long long kthLargest(vector<long long> nums, long long k) {
    priority_queue<long long, vector<long long>, greater<long long>> heap;  // the k largest so far
    for (long long value : nums) {
        heap.push(value);
        if ((long long)heap.size() > k) heap.pop();
    }
    return heap.top();
}
