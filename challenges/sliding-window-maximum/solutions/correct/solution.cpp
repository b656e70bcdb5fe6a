#include <bits/stdc++.h>
#include <dsa/recorder.hpp>
using namespace std;

static const long long STEPPED = 50;  // indices whose operations record steps

vector<long long> windowMax(vector<long long> items, long long k) {
    dsa::Recorder<long long> rec;
    deque<long long> window;  // indices, their items decreasing from the front
    vector<long long> answers;
    auto record = [&](const string& action, long long index, const string& caption) {
        string deque = dsa::toJson(vector<long long>(window.begin(), window.end()));
        rec.step(action,
                 "{\"deque\":" + deque + ",\"ids\":" + deque + ",\"moved\":{\"id\":" + to_string(index) +
                     ",\"value\":" + to_string(index) + "}}",
                 caption);
    };
    for (long long i = 0; i < (long long)items.size(); i++) {
        if (!window.empty() && window.front() == i - k) {
            long long left = window.front();
            window.pop_front();
            if (i < STEPPED) record("pop_front", left, "Index " + to_string(left) + " has left the window: drop it from the front");
        }
        while (!window.empty() && items[window.back()] <= items[i]) {
            long long smaller = window.back();
            window.pop_back();
            if (i < STEPPED)
                record("pop_back", smaller, to_string(items[smaller]) + " at index " + to_string(smaller) +
                                                " is not larger than " + to_string(items[i]) + ": drop it");
        }
        window.push_back(i);
        if (i < STEPPED) record("push_back", i, "Push index " + to_string(i) + " (" + to_string(items[i]) + ") at the back");
        if (i >= k - 1) answers.push_back(items[window.front()]);
    }
    return answers;
}
