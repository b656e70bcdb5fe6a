#include <stdbool.h>
#include <stddef.h>

bool isValidBst(struct TreeNode *root) {
    /* Wrong on purpose: compares each node with its own children only, not with the bounds set by its ancestors. */
    if (root == NULL) return true;
    if (root->left != NULL && root->left->val >= root->val) return false;
    if (root->right != NULL && root->right->val <= root->val) return false;
    return isValidBst(root->left) && isValidBst(root->right);
}
