#include <bits/stdc++.h>
using namespace std;

long long kthLargest(vector<long long> nums, long long k) {
    long long comparisons = 0;  // comparisons of two values, for the growth grade
    auto greater = [&comparisons](long long a, long long b) {
        comparisons++;
        return a > b;
    };
    priority_queue<long long, vector<long long>, decltype(greater)> heap(greater);  // the k largest so far
    for (long long value : nums) {
        heap.push(value);
        if ((long long)heap.size() > k) heap.pop();
    }
    cout << "@count " << comparisons << endl;
    return heap.top();
}
