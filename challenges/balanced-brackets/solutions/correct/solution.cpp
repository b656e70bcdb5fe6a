#include <bits/stdc++.h>
using namespace std;

bool isBalanced(string s) {
    string stack;
    for (char bracket : s) {
        if (bracket == '(' || bracket == '[' || bracket == '{') {
            stack.push_back(bracket);
            continue;
        }
        char opener = bracket == ')' ? '(' : bracket == ']' ? '[' : '{';
        if (stack.empty() || stack.back() != opener) return false;
        stack.pop_back();
    }
    return stack.empty();
}
