#include <bits/stdc++.h>
using namespace std;

vector<double> levelAverages(TreeNode* root) {
    vector<double> averages;
    queue<TreeNode*> pending;
    if (root) pending.push(root);
    while (!pending.empty()) {
        size_t width = pending.size();
        long long sum = 0;
        for (size_t i = 0; i < width; i++) {
            TreeNode* node = pending.front();
            pending.pop();
            sum += node->val;
            if (node->left) pending.push(node->left);
            if (node->right) pending.push(node->right);
        }
        averages.push_back((double)sum / (double)width);
    }
    return averages;
}
