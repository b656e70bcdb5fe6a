# Writes the large test's files (run from the challenge folder: /usr/bin/python3 tests/gen.py).
# 100,000 pushes build a deep stack, then 100,000 queries and pops keep it deep: scanning the
# stack for each "min" is about 10^10 steps, a stack of minimums answers each at once.
import json, random

STEPPED = 50  # operations that record steps (the statement's rule)


def min_stack(ops, values):
    stack, mins, answers = [], [], []
    for op, value in zip(ops, values):
        if op == "push":
            stack.append(value)
            mins.append(value if not mins else min(value, mins[-1]))
        elif op == "pop":
            stack.pop()
            mins.pop()
        elif op == "top":
            answers.append(stack[-1])
        else:
            answers.append(mins[-1])
    return answers


random.seed(30_2)
ops, values = [], []
# A short mixed prefix, so the recorded steps show pushes and pops, then the deep part.
for _ in range(STEPPED):
    if len(ops) - 2 * ops.count("pop") > 3 and random.random() < 0.3:
        ops.append("pop"); values.append(0)
    else:
        ops.append("push"); values.append(random.randint(-50, 50))
for _ in range(100_000):
    ops.append("push"); values.append(random.randint(-10**6, 10**6))
for _ in range(100_000):
    r = random.random()
    if r < 0.7:
        ops.append("min"); values.append(0)
    elif r < 0.85:
        ops.append("top"); values.append(0)
    elif r < 0.92:
        ops.append("pop"); values.append(0)
    else:
        ops.append("push"); values.append(random.randint(-10**6, 10**6))
json.dump({"ops": ops, "values": values}, open("tests/many.args.json", "w"), separators=(",", ":"))
json.dump(min_stack(ops, values), open("tests/many.expected.json", "w"), separators=(",", ":"))
