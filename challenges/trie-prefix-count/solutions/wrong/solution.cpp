#include <bits/stdc++.h>
using namespace std;

vector<long long> countPrefixes(vector<string> words, vector<string> prefixes) {
    vector<array<int, 26>> children(1, array<int, 26>{});  // node 0 is the root, so 0 means "no child"
    vector<long long> passing(1, 0);  // passing[node]: how many words' paths pass through the node
    // Wrong on purpose: repeated words are counted once (a set).
    for (const string& word : set<string>(words.begin(), words.end())) {
        int node = 0;
        passing[0]++;
        for (char letter : word) {
            if (children[node][letter - 'a'] == 0) {
                children[node][letter - 'a'] = (int)children.size();
                children.push_back(array<int, 26>{});
                passing.push_back(0);
            }
            node = children[node][letter - 'a'];
            passing[node]++;
        }
    }
    vector<long long> answers;
    for (const string& prefix : prefixes) {
        long long count = passing[0];
        int node = 0;
        for (char letter : prefix) {
            node = children[node][letter - 'a'];
            if (node == 0) { count = 0; break; }
            count = passing[node];
        }
        answers.push_back(count);
    }
    return answers;
}
