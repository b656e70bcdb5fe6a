# Writes the large test's files (run from the challenge folder: /usr/bin/python3 tests/gen.py).
import json, random

random.seed(306)
values = [random.randint(-10**6, 10**6) for _ in range(100000)]
json.dump({"head": values}, open("tests/long.args.json", "w"))
json.dump(values[::-1], open("tests/long.expected.json", "w"))
