#include <bits/stdc++.h>
using namespace std;

vector<long long> findOccurrences(string text, string pattern) {
    // Slow on purpose: the pattern is checked at every start, O(len(text) x len(pattern)).
    long long comparisons = 0;
    auto same = [&](char a, char b) {
        comparisons++;
        return a == b;
    };
    vector<long long> found;
    for (size_t start = 0; start + pattern.size() <= text.size(); start++) {
        size_t j = 0;
        while (j < pattern.size() && same(text[start + j], pattern[j])) j++;
        if (j == pattern.size()) found.push_back((long long)start);
    }
    cout << "@count " << comparisons << endl;
    return found;
}
