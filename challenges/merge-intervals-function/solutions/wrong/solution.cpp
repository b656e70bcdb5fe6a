#include <bits/stdc++.h>
using namespace std;

vector<vector<long long>> mergeIntervals(vector<vector<long long>> intervals) {
    // Wrong on purpose: the current end is taken from the last interval, not the largest seen.
    sort(intervals.begin(), intervals.end());
    vector<vector<long long>> merged;
    for (const auto& interval : intervals) {
        if (!merged.empty() && interval[0] <= merged.back()[1]) {
            merged.back()[1] = interval[1];
        } else {
            merged.push_back(interval);
        }
    }
    return merged;
}
