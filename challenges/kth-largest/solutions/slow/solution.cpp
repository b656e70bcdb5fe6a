#include <bits/stdc++.h>
using namespace std;

long long kthLargest(vector<long long> nums, long long k) {
    // Slow on purpose: k rounds of taking out the largest value left, O(n x k).
    long long comparisons = 0;
    auto less = [&comparisons](long long a, long long b) {
        comparisons++;
        return a < b;
    };
    long long largest = nums[0];
    for (long long round = 0; round < k; round++) {
        size_t at = 0;
        for (size_t i = 1; i < nums.size(); i++) {
            if (less(nums[at], nums[i])) at = i;
        }
        largest = nums[at];
        nums[at] = nums.back();
        nums.pop_back();
    }
    cout << "@count " << comparisons << endl;
    return largest;
}
