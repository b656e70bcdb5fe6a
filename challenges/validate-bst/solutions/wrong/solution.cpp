#include <bits/stdc++.h>
using namespace std;

bool isValidBst(TreeNode* root) {
    // Wrong on purpose: compares each node with its own children only, not with the bounds set by its ancestors.
    if (root == nullptr) return true;
    if (root->left != nullptr && root->left->val >= root->val) return false;
    if (root->right != nullptr && root->right->val <= root->val) return false;
    return isValidBst(root->left) && isValidBst(root->right);
}
