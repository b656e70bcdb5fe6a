#include <bits/stdc++.h>
#include <dsa/recorder.hpp>
using namespace std;

const long long BASE = 256, MODULUS = 1000000007;
const size_t STEPS_UP_TO = 100;  // a longer text records only the done step

long long mod(long long x) { return (x % MODULUS + MODULUS) % MODULUS; }

vector<long long> findAll(string text, string pattern) {
    dsa::Recorder rec;
    bool recording = text.size() <= STEPS_UP_TO;
    long long n = (long long)text.size(), m = (long long)pattern.size();
    vector<long long> found;
    long long patternHash = 0, windowHash = 0;
    auto orNull = [](optional<long long> value) { return value ? to_string(*value) : string("null"); };
    auto step = [&](const string& action, optional<long long> offset, optional<long long> index,
                    optional<long long> hash, const string& caption) {
        rec.step(action,
                 "{\"text\":" + dsa::toJson(text) + ",\"pattern\":" + dsa::toJson(pattern) +
                     ",\"offset\":" + orNull(offset) + ",\"index\":" + orNull(index) + ",\"found\":" +
                     dsa::toJson(found) + ",\"window_hash\":" + orNull(hash) +
                     ",\"pattern_hash\":" + to_string(patternHash) + "}",
                 caption);
    };
    for (unsigned char c : pattern) patternHash = mod(patternHash * BASE + c);
    long long high = 1;  // the weight of a window's first character: BASE^(m-1)
    for (long long i = 1; i < m; i++) high = mod(high * BASE);
    for (long long offset = 0; offset + m <= n; offset++) {
        if (offset == 0) {
            for (long long i = 0; i < m; i++) windowHash = mod(windowHash * BASE + (unsigned char)text[i]);
            if (recording) step("hash", 0, nullopt, windowHash, "Hash of the first window");
        } else {
            windowHash = mod((windowHash - (unsigned char)text[offset - 1] * high) * BASE +
                             (unsigned char)text[offset + m - 1]);
            if (recording) step("roll", offset, nullopt, windowHash, "Roll the hash to offset " + to_string(offset));
        }
        if (windowHash != patternHash) continue;
        found.push_back(offset);  // Wrong on purpose: a hash hit is taken as a match, without comparing the characters.
    }
    step("done", nullopt, nullopt, nullopt, "Every occurrence found");
    return found;
}
