#include <bits/stdc++.h>
using namespace std;

// low and high are the open range set by the ancestors; nullopt is "no bound".
static bool within(TreeNode* node, optional<long long> low, optional<long long> high) {
    if (node == nullptr) return true;
    if ((low && node->val <= *low) || (high && node->val >= *high)) return false;
    return within(node->left, low, node->val) && within(node->right, node->val, high);
}

bool isValidBst(TreeNode* root) {
    return within(root, nullopt, nullopt);
}
