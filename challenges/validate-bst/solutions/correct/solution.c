#include <stdbool.h>
#include <stddef.h>

/* low and high are the open range set by the ancestors; NULL is "no bound". */
static bool within(struct TreeNode *node, const long long *low, const long long *high) {
    if (node == NULL) return true;
    if ((low != NULL && node->val <= *low) || (high != NULL && node->val >= *high)) return false;
    return within(node->left, low, &node->val) && within(node->right, &node->val, high);
}

bool isValidBst(struct TreeNode *root) {
    return within(root, NULL, NULL);
}
