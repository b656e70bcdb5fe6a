#include <bits/stdc++.h>
#include <dsa/recorder.hpp>
using namespace std;

static const size_t STEPPED = 50;  // operations that record steps

static void recordStep(dsa::Recorder<long long>& rec, const string& action, const vector<long long>& stack,
                       const vector<long long>& ids, long long movedId, long long movedValue,
                       const vector<long long>& mins) {
    string minimum = mins.empty() ? "null" : to_string(mins.back());
    string fields = "{\"stack\":" + dsa::toJson(stack) + ",\"ids\":" + dsa::toJson(ids) +
                    ",\"moved\":{\"id\":" + to_string(movedId) + ",\"value\":" + to_string(movedValue) +
                    "},\"min\":" + minimum + "}";
    string verb = action == "push" ? "Push " : "Pop ";
    string caption = verb + to_string(movedValue) +
                     (mins.empty() ? ": the stack is empty" : ": the minimum is " + minimum);
    rec.step(action, fields, caption);
}

vector<long long> minStack(vector<string> ops, vector<long long> values) {
    dsa::Recorder<long long> rec;
    vector<long long> stack, ids, mins;  // mins[k]: the minimum of stack[0..k]
    vector<long long> answers;
    long long nextId = 0;
    for (size_t i = 0; i < ops.size(); i++) {
        if (ops[i] == "push") {
            long long value = values[i];
            stack.push_back(value);
            ids.push_back(nextId++);
            if (mins.empty() || value < mins.back()) mins.push_back(value);  // wrong: a repeated minimum gets no record
            if (i < STEPPED) recordStep(rec, "push", stack, ids, ids.back(), value, mins);
        } else if (ops[i] == "pop") {
            long long value = stack.back(), id = ids.back();
            stack.pop_back();
            ids.pop_back();
            if (value == mins.back()) mins.pop_back();
            if (i < STEPPED) recordStep(rec, "pop", stack, ids, id, value, mins);
        } else if (ops[i] == "top") {
            answers.push_back(stack.back());
        } else {
            answers.push_back(mins.back());
        }
    }
    return answers;
}
