# Writes the large test's files (run from the challenge folder: /usr/bin/python3 tests/gen.py).
# 60,000 pushes copy 65,535 items when the capacity doubles: under the recorder's 100,000 steps.
import json, random

def push_all(values):
    capacity, size, capacities = 1, 0, []
    for _ in values:
        if size == capacity:
            capacity *= 2
        size += 1
        capacities.append(capacity)
    return capacities

random.seed(30_2)
values = [random.randint(-10**9, 10**9) for _ in range(60000)]
json.dump({"values": values}, open("tests/many.args.json", "w"))
json.dump(push_all(values), open("tests/many.expected.json", "w"))
