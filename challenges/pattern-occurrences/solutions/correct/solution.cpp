#include <bits/stdc++.h>
using namespace std;

vector<long long> findOccurrences(string text, string pattern) {
    long long comparisons = 0;  // character comparisons, for the growth grade
    auto same = [&](char a, char b) {
        comparisons++;
        return a == b;
    };
    // fail[i]: the longest proper prefix of pattern[0..i] that is also its suffix.
    vector<size_t> fail(pattern.size(), 0);
    size_t k = 0;
    for (size_t i = 1; i < pattern.size(); i++) {
        while (k > 0 && !same(pattern[i], pattern[k])) k = fail[k - 1];
        if (same(pattern[i], pattern[k])) k++;
        fail[i] = k;
    }
    vector<long long> found;
    k = 0;
    for (size_t i = 0; i < text.size(); i++) {
        while (k > 0 && !same(text[i], pattern[k])) k = fail[k - 1];
        if (same(text[i], pattern[k])) k++;
        if (k == pattern.size()) {
            found.push_back((long long)(i + 1 - k));
            k = fail[k - 1];
        }
    }
    cout << "@count " << comparisons << endl;
    return found;
}
