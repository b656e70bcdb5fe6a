# Writes the large tests' files (run from the challenge folder: /usr/bin/python3 tests/gen.py).
import json, random
from collections import deque

def insert_all(values):
    nodes = []  # [val, left, right] with child indices
    for value in values:
        nodes.append([value, None, None])
        if len(nodes) == 1:
            continue
        i = 0
        while True:
            side = 1 if value < nodes[i][0] else 2
            if nodes[i][side] is None:
                nodes[i][side] = len(nodes) - 1
                break
            i = nodes[i][side]
    return nodes

def level_order(nodes):
    out, queue = [nodes[0][0]], deque([0])
    while queue:
        i = queue.popleft()
        for child in (nodes[i][1], nodes[i][2]):
            out.append(None if child is None else nodes[child][0])
            if child is not None:
                queue.append(child)
    while out and out[-1] is None:
        out.pop()
    return out

def is_valid_bst(nodes):
    stack = [(0, None, None)]
    while stack:
        i, low, high = stack.pop()
        value = nodes[i][0]
        if (low is not None and value <= low) or (high is not None and value >= high):
            return False
        if nodes[i][1] is not None:
            stack.append((nodes[i][1], low, value))
        if nodes[i][2] is not None:
            stack.append((nodes[i][2], value, high))
    return True

random.seed(307)
values = random.sample(range(-10**9, 10**9), 30000)
nodes = insert_all(values)
json.dump({"root": level_order(nodes)}, open("tests/large-valid.args.json", "w"))
json.dump(is_valid_bst(nodes), open("tests/large-valid.expected.json", "w"))
# The deepest node's value moves past a bound set by an ancestor above its parent; its parent still agrees.
depth = {0: 0}
for i, (_, left, right) in enumerate(nodes):
    for child in (left, right):
        if child is not None:
            depth[child] = depth[i] + 1
parent_of = {child: i for i, node in enumerate(nodes) for child in node[1:] if child is not None}

def zig_zag(i):
    if i not in parent_of or parent_of[i] not in parent_of:
        return False
    p = parent_of[i]
    return (nodes[p][1] == i) != (nodes[parent_of[p]][1] == p)

deepest = max((i for i in depth if zig_zag(i) and nodes[i][1] is None and nodes[i][2] is None), key=depth.get)
parent, grandparent = parent_of[deepest], parent_of[parent_of[deepest]]
is_left = nodes[parent][1] == deepest
# Past the grandparent's value, yet still on the right side of its parent: only an ancestor's bound catches it.
nodes[deepest][0] = nodes[grandparent][0] + (-1 if is_left else 1)
json.dump({"root": level_order(nodes)}, open("tests/large-invalid.args.json", "w"))
json.dump(is_valid_bst(nodes), open("tests/large-invalid.expected.json", "w"))
print(max(depth.values()))
