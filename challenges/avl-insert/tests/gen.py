# Writes the larger hidden tests' files (run from the challenge folder: /usr/bin/python3 tests/gen.py):
# "ascending", 1..40 in order (a rotation at almost every other insert, all single ones), and
# "random", 40 values from -20 to 20 in random order (repeats among them: ties go right), with
# single and double rotations both ways. Every step lists every node, so sizes stay in the tens.
import json, random

def avl_insert_all(values):
    # Nodes as [value, left, right, height]; returns the final tree in LeetCode's level order.
    def h(n): return n[3] if n else 0
    def fix(n): n[3] = 1 + max(h(n[1]), h(n[2])); return n
    def rotate_left(n): c = n[2]; n[2], c[1] = c[1], n; fix(n); return fix(c)
    def rotate_right(n): c = n[1]; n[1], c[2] = c[2], n; fix(n); return fix(c)
    def insert(n, v):
        if n is None:
            return [v, None, None, 1]
        if v < n[0]:
            n[1] = insert(n[1], v)
        else:
            n[2] = insert(n[2], v)
        fix(n)
        if h(n[1]) - h(n[2]) > 1:
            if h(n[1][1]) < h(n[1][2]):
                n[1] = rotate_left(n[1])
            return rotate_right(n)
        if h(n[2]) - h(n[1]) > 1:
            if h(n[2][2]) < h(n[2][1]):
                n[2] = rotate_right(n[2])
            return rotate_left(n)
        return n
    root = None
    for v in values:
        root = insert(root, v)
    out, queue = [], [root]
    while queue:
        n = queue.pop(0)
        out.append(None if n is None else n[0])
        if n is not None:
            queue += [n[1], n[2]]
    while out and out[-1] is None:
        out.pop()
    return out

random.seed(30_7)
for name, values in [("ascending", list(range(1, 41))), ("random", [random.randint(-20, 20) for _ in range(40)])]:
    json.dump({"values": values}, open(f"tests/{name}.args.json", "w"))
    json.dump(avl_insert_all(values), open(f"tests/{name}.expected.json", "w"))
