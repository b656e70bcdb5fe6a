#include <bits/stdc++.h>
#include <dsa/recorder.hpp>
using namespace std;

vector<long long> inorder(TreeNode* root) {
    dsa::Recorder rec;
    // Ids in level order (root 0, then each level left to right), as the test's array lists them.
    unordered_map<TreeNode*, long long> ids;
    vector<TreeNode*> order;
    deque<TreeNode*> queue;
    if (root) queue.push_back(root);
    while (!queue.empty()) {
        TreeNode* node = queue.front();
        queue.pop_front();
        ids[node] = (long long)order.size();
        order.push_back(node);
        if (node->left) queue.push_back(node->left);
        if (node->right) queue.push_back(node->right);
    }
    auto idOf = [&](TreeNode* node) { return node ? to_string(ids[node]) : string("null"); };
    string nodes = "[";
    for (size_t id = 0; id < order.size(); id++) {
        nodes += (id ? ",{\"id\":" : "{\"id\":") + to_string(id) + ",\"value\":" + to_string(order[id]->val) +
                 ",\"left\":" + idOf(order[id]->left) + ",\"right\":" + idOf(order[id]->right) + "}";
    }
    nodes += "]";
    string treeFields = "\"root\":" + idOf(root) + ",\"nodes\":" + nodes;
    vector<long long> visited, values;
    function<void(TreeNode*)> walk = [&](TreeNode* node) {
        if (!node) return;
        walk(node->left);
        visited.push_back(ids[node]);
        values.push_back(node->val);
        rec.step("visit",
                 "{" + treeFields + ",\"active\":[" + to_string(ids[node]) + "],\"visited\":" + dsa::toJson(visited) +
                     "}",
                 "Visit " + to_string(node->val));
        walk(node->right);
    };
    walk(root);
    rec.step("done", "{" + treeFields + ",\"active\":[],\"visited\":" + dsa::toJson(visited) + "}", "Every node visited");
    return values;
}
