#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dsa/recorder.h>

/* Node k (the k-th value inserted) keeps id k; -1 is "no node". */
static long long *value;
static int *left, *right, *height, *drawn, count, root;
static dsa_recorder rec;

static int h(int x) { return x == -1 ? 0 : height[x]; }
static int larger(int a, int b) { return a > b ? a : b; }
static void update(int x) { height[x] = 1 + larger(h(left[x]), h(right[x])); }

/* The heights in the tree as drawn, whatever is stored yet. */
static int fill(int x) { return x == -1 ? 0 : (drawn[x] = 1 + larger(fill(left[x]), fill(right[x]))); }

static char *appendId(char *out, int x) { return out + (x == -1 ? sprintf(out, "null") : sprintf(out, "%d", x)); }

static void record(const char *action, int active) {
    fill(root);
    char *fields = malloc(128 * (size_t)(count + 1));
    char *out = fields + sprintf(fields, "{\"root\":%d,\"nodes\":[", root);
    for (int k = 0; k < count; k++) {
        out += sprintf(out, "%s{\"id\":%d,\"value\":%lld,\"left\":", k ? "," : "", k, value[k]);
        out = appendId(out, left[k]);
        out += sprintf(out, ",\"right\":");
        out = appendId(out, right[k]);
        out += sprintf(out, ",\"height\":%d}", drawn[k]);
    }
    sprintf(out, "],\"active\":[%d]}", active);
    dsa_step(&rec, action, fields, NULL);
    free(fields);
}

static void rotate(int z, int parent, int toLeft) { /* z's child moves up into z's place under parent */
    int y;
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
    record("rotate", z);
}

static struct TreeNode *toTree(int x) {
    if (x == -1) return NULL;
    struct TreeNode *node = malloc(sizeof *node);
    node->val = value[x];
    node->left = toTree(left[x]);
    node->right = toTree(right[x]);
    return node;
}

struct TreeNode *avlInsertAll(long long *values, int valuesSize) {
    dsa_recorder_init(&rec, NULL, 0);
    size_t n = (size_t)valuesSize + 1;
    value = malloc(sizeof *value * n);
    left = malloc(sizeof *left * n);
    right = malloc(sizeof *right * n);
    height = malloc(sizeof *height * n);
    drawn = malloc(sizeof *drawn * n);
    int *path = malloc(sizeof *path * n); /* from the root down to the new node's parent */
    count = 0;
    root = -1;
    for (int i = 0; i < valuesSize; i++) {
        long long v = values[i];
        int node = count++, depth = 0;
        value[node] = v;
        left[node] = right[node] = -1;
        height[node] = 1;
        if (root == -1) {
            root = node;
        } else {
            for (int current = root; current != -1; current = v < value[current] ? left[current] : right[current])
                path[depth++] = current;
            int parent = path[depth - 1];
            if (v < value[parent]) left[parent] = node;
            else right[parent] = node; /* ties go right */
        }
        record("insert", node);
        while (depth-- > 0) { /* back up the path: heights, then balance */
            int z = path[depth], parent = depth > 0 ? path[depth - 1] : -1;
            update(z);
            int balance = h(left[z]) - h(right[z]);
            if (balance > 1) {
                /* Wrong on purpose: no double rotations, so a left-right or right-left case gets one rotation that leaves it unbalanced. */
                rotate(z, parent, 0);
            } else if (balance < -1) {
                rotate(z, parent, 1);
            }
        }
    }
    struct TreeNode *tree = toTree(root);
    free(value);
    free(left);
    free(right);
    free(height);
    free(drawn);
    free(path);
    dsa_recorder_free(&rec);
    return tree;
}
