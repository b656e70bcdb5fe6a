#include <bits/stdc++.h>
#include <dsa/recorder.hpp>
using namespace std;

const long long UNREACHABLE = 1000000000000000000LL;

// A step's fields: the table with null for a pair with no path known yet, the cell, the cells read.
string stepFields(const vector<vector<long long>>& dist, const string& cell, const string& reads) {
    string table = "[";
    for (size_t i = 0; i < dist.size(); i++) {
        table += i ? ",[" : "[";
        for (size_t j = 0; j < dist.size(); j++) {
            if (j) table += ",";
            table += dist[i][j] == UNREACHABLE ? "null" : to_string(dist[i][j]);
        }
        table += "]";
    }
    table += "]";
    return "{\"table\":" + table + ",\"cell\":" + cell + ",\"reads\":" + reads + "}";
}

vector<vector<long long>> allPairs(long long n, vector<vector<long long>> edges) {
    dsa::Recorder rec;
    vector<vector<long long>> dist(n, vector<long long>(n, UNREACHABLE));
    for (long long i = 0; i < n; i++) dist[i][i] = 0;
    for (const auto& edge : edges) dist[edge[0]][edge[1]] = min(dist[edge[0]][edge[1]], edge[2]);
    rec.step("init", stepFields(dist, "null", "[]"), "0 on the diagonal, each edge's weight");
    // Wrong on purpose: the round k is the innermost loop, so dist[i][k] and dist[k][j] are used before they are final.
    for (long long i = 0; i < n; i++) {
        for (long long j = 0; j < n; j++) {
            for (long long k = 0; k < n; k++) {
                if (dist[i][k] == UNREACHABLE || dist[k][j] == UNREACHABLE) continue;
                long long through = dist[i][k] + dist[k][j];
                if (through < dist[i][j]) {
                    dist[i][j] = through;
                    rec.step("relax",
                             stepFields(dist, dsa::toJson(vector<long long>{i, j}),
                                        dsa::toJson(vector<vector<long long>>{{i, k}, {k, j}})),
                             to_string(i) + " to " + to_string(j) + " through " + to_string(k));
                }
            }
        }
    }
    rec.step("done", stepFields(dist, "null", "[]"), "Every pair's shortest distance");
    return dist;
}
