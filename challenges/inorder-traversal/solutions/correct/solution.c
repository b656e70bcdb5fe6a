#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dsa/recorder.h>

/* The tree in level order (root 0, then each level left to right), as the test's array lists it. */
static struct TreeNode **order;
static int count;
static long long *visited, *values;
static int visitedCount;
static char *treeFields; /* "root":...,"nodes":[...], the same in every step */

static int idOf(const struct TreeNode *node) {
    for (int id = 0; id < count; id++)
        if (order[id] == node) return id;
    return -1;
}

static char *appendId(char *out, const struct TreeNode *node) {
    return out + (node ? sprintf(out, "%d", idOf(node)) : sprintf(out, "null"));
}

static void recordStep(dsa_recorder *rec, const char *action, const struct TreeNode *active) {
    char *fields = malloc(strlen(treeFields) + 32 * (size_t)(count + 2));
    char *out = fields + sprintf(fields, "{%s,\"active\":[", treeFields);
    if (active) out += sprintf(out, "%d", idOf(active));
    out += sprintf(out, "],\"visited\":[");
    for (int i = 0; i < visitedCount; i++) out += sprintf(out, i ? ",%lld" : "%lld", visited[i]);
    sprintf(out, "]}");
    dsa_step(rec, action, fields, NULL);
    free(fields);
}

static void walk(dsa_recorder *rec, struct TreeNode *node) {
    if (!node) return;
    walk(rec, node->left);
    visited[visitedCount] = idOf(node);
    values[visitedCount++] = node->val;
    recordStep(rec, "visit", node);
    walk(rec, node->right);
}

long long *inorder(struct TreeNode *root, int *returnSize) {
    dsa_recorder rec;
    dsa_recorder_init(&rec, NULL, 0);
    int capacity = 16;
    order = malloc(sizeof *order * (size_t)capacity);
    count = 0;
    if (root) order[count++] = root;
    for (int next = 0; next < count; next++) { /* order doubles as the breadth-first queue */
        struct TreeNode *children[2] = {order[next]->left, order[next]->right};
        for (int c = 0; c < 2; c++) {
            if (!children[c]) continue;
            if (count == capacity) order = realloc(order, sizeof *order * (size_t)(capacity *= 2));
            order[count++] = children[c];
        }
    }
    treeFields = malloc(96 * (size_t)(count + 1));
    char *out = treeFields + sprintf(treeFields, "\"root\":");
    out = appendId(out, root);
    out += sprintf(out, ",\"nodes\":[");
    for (int id = 0; id < count; id++) {
        out += sprintf(out, "%s{\"id\":%d,\"value\":%lld,\"left\":", id ? "," : "", id, order[id]->val);
        out = appendId(out, order[id]->left);
        out += sprintf(out, ",\"right\":");
        out = appendId(out, order[id]->right);
        out += sprintf(out, "}");
    }
    sprintf(out, "]");
    visited = malloc(sizeof *visited * (size_t)(count + 1));
    values = malloc(sizeof *values * (size_t)(count + 1));
    visitedCount = 0;
    walk(&rec, root);
    recordStep(&rec, "done", NULL);
    free(order);
    free(visited);
    free(treeFields);
    dsa_recorder_free(&rec);
    *returnSize = count;
    return values;
}
