# Insertion sort that reports its steps, the way dsa-run challenges grade
# them: one "@step {json}" line per step, ordinary output otherwise.
import json
import sys

numbers = [int(token) for token in sys.stdin.read().split()]
for i in range(1, len(numbers)):
    j = i
    while j > 0 and numbers[j - 1] > numbers[j]:
        numbers[j - 1], numbers[j] = numbers[j], numbers[j - 1]
        print("@step " + json.dumps({"action": "swap", "active": [j - 1, j], "array": numbers}))
        j -= 1
print(" ".join(map(str, numbers)))
