# Writes the larger hidden tests' files (run from the challenge folder: /usr/bin/python3 tests/gen.py):
# "random", a tree of 60 nodes of random shape and values (repeats and negatives among them), and
# "right-chain", 40 nodes each the right child of the one before. Steps list every node, so a test
# of n nodes has n + 1 steps of n nodes each: sizes stay in the tens.
import json, random

def level_order(tree):  # tree: nested (value, left, right) tuples or None -> LeetCode's array
    out, queue = [], [tree]
    while queue:
        node = queue.pop(0)
        if node is None:
            out.append(None)
            continue
        out.append(node[0])
        queue += [node[1], node[2]]
    while out and out[-1] is None:
        out.pop()
    return out

def inorder(tree):
    return [] if tree is None else inorder(tree[1]) + [tree[0]] + inorder(tree[2])

def random_tree(size):
    if size == 0:
        return None
    left = random.randint(0, size - 1)
    return (random.randint(-50, 50), random_tree(left), random_tree(size - 1 - left))

random.seed(30_6)
chain = None
for value in range(40, 0, -1):
    chain = (value * 3, None, chain)
for name, tree in [("random", random_tree(60)), ("right-chain", chain)]:
    json.dump({"root": level_order(tree)}, open(f"tests/{name}.args.json", "w"))
    json.dump(inorder(tree), open(f"tests/{name}.expected.json", "w"))
