# Writes the large tests' files (run from the challenge folder: /usr/bin/python3 tests/gen.py).
import json, random, heapq

def kth_largest(nums, k):
    return heapq.nlargest(k, nums)[-1]

random.seed(30_1)
nums = [random.randint(-10**9, 10**9) for _ in range(80000)]
nums += nums[:1000]  # duplicates among the large values too
k = 31337
json.dump({"nums": nums, "k": k}, open("tests/many.args.json", "w"))
json.dump(kth_largest(nums, k), open("tests/many.expected.json", "w"))
