#include <bits/stdc++.h>
using namespace std;

vector<long long> twoSum(vector<long long> nums, long long target) {
    unordered_map<long long, long long> firstIndex;
    for (long long j = 0; j < (long long)nums.size(); j++) {
        // Wrong on purpose: the value is stored before the look-up, so it can pair with itself.
        firstIndex.emplace(nums[j], j);
        auto partner = firstIndex.find(target - nums[j]);
        if (partner != firstIndex.end()) return {partner->second, j};
    }
    return {};
}
