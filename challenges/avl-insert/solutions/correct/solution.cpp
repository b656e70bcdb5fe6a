#include <bits/stdc++.h>
#include <dsa/recorder.hpp>
using namespace std;

// Node k (the k-th value inserted) keeps id k; -1 is "no node".
struct Avl {
    dsa::Recorder<long long> rec;
    vector<long long> value, left, right, height;
    long long root = -1;

    long long h(long long x) const { return x == -1 ? 0 : height[x]; }
    void update(long long x) { height[x] = 1 + max(h(left[x]), h(right[x])); }

    void record(const string& action, long long active, const string& caption) {
        vector<long long> drawn(value.size());  // the heights in the tree as drawn, whatever is stored yet
        function<long long(long long)> fill = [&](long long x) -> long long {
            return x == -1 ? 0 : drawn[x] = 1 + max(fill(left[x]), fill(right[x]));
        };
        fill(root);
        auto id = [](long long x) { return x == -1 ? string("null") : to_string(x); };
        string nodes = "[";
        for (size_t k = 0; k < value.size(); k++) {
            nodes += string(k ? "," : "") + "{\"id\":" + to_string(k) + ",\"value\":" + to_string(value[k]) +
                     ",\"left\":" + id(left[k]) + ",\"right\":" + id(right[k]) + ",\"height\":" + to_string(drawn[k]) + "}";
        }
        rec.step(action, "{\"root\":" + to_string(root) + ",\"nodes\":" + nodes + "],\"active\":[" + to_string(active) + "]}",
                 caption);
    }

    void rotate(long long z, long long parent, bool toLeft) {  // z's child moves up into z's place
        long long y;
        if (toLeft) {
            y = right[z];
            right[z] = left[y];
            left[y] = z;
        } else {
            y = left[z];
            left[z] = right[y];
            right[y] = z;
        }
        update(z);
        update(y);
        if (parent == -1) root = y;
        else if (left[parent] == z) left[parent] = y;
        else right[parent] = y;
        record("rotate", z, string("Rotate ") + (toLeft ? "left" : "right") + " at " + to_string(value[z]));
    }

    void insert(long long v) {
        long long node = (long long)value.size();
        value.push_back(v);
        left.push_back(-1);
        right.push_back(-1);
        height.push_back(1);
        vector<long long> path;  // from the root down to the new node's parent
        if (root == -1) {
            root = node;
        } else {
            for (long long current = root; current != -1; current = v < value[current] ? left[current] : right[current])
                path.push_back(current);
            long long parent = path.back();
            if (v < value[parent]) left[parent] = node;
            else right[parent] = node;  // ties go right
        }
        record("insert", node, "Insert " + to_string(v));
        for (long long depth = (long long)path.size() - 1; depth >= 0; depth--) {  // back up: heights, then balance
            long long z = path[depth], parent = depth > 0 ? path[depth - 1] : -1;
            update(z);
            long long balance = h(left[z]) - h(right[z]);
            if (balance > 1) {
                if (h(left[left[z]]) < h(right[left[z]])) rotate(left[z], z, true);  // left-right: two rotations
                rotate(z, parent, false);
            } else if (balance < -1) {
                if (h(right[right[z]]) < h(left[right[z]])) rotate(right[z], z, false);  // right-left
                rotate(z, parent, true);
            }
        }
    }

    TreeNode* toTree(long long x) const {
        return x == -1 ? nullptr : new TreeNode(value[x], toTree(left[x]), toTree(right[x]));
    }
};

TreeNode* avlInsertAll(vector<long long> values) {
    Avl tree;
    for (long long v : values) tree.insert(v);
    return tree.toTree(tree.root);
}
