#include <bits/stdc++.h>
using namespace std;

bool isBalanced(string s) {
    // Wrong on purpose: one counter per kind checks how many brackets there are, not how they nest.
    map<char, long long> openCount{{'(', 0}, {'[', 0}, {'{', 0}};
    for (char bracket : s) {
        if (openCount.count(bracket)) {
            openCount[bracket]++;
            continue;
        }
        char opener = bracket == ')' ? '(' : bracket == ']' ? '[' : '{';
        if (--openCount[opener] < 0) return false;
    }
    for (auto& [kind, count] : openCount) {
        if (count != 0) return false;
    }
    return true;
}
