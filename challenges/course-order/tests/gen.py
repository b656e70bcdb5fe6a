# Writes the large tests' files (run from the challenge folder: /usr/bin/python3 tests/gen.py).
import heapq, json, random

def course_order(n, prerequisites):
    after = [[] for _ in range(n)]
    waiting = [0] * n
    for course, first in prerequisites:
        after[first].append(course)
        waiting[course] += 1
    ready = [c for c in range(n) if waiting[c] == 0]
    heapq.heapify(ready)
    order = []
    while ready:
        c = heapq.heappop(ready)
        order.append(c)
        for nxt in after[c]:
            waiting[nxt] -= 1
            if waiting[nxt] == 0:
                heapq.heappush(ready, nxt)
    return order if len(order) == n else []

def write(name, n, prerequisites):
    json.dump({"n": n, "prerequisites": prerequisites}, open(f"tests/{name}.args.json", "w"))
    json.dump(course_order(n, prerequisites), open(f"tests/{name}.expected.json", "w"))

random.seed(308)
n = 30000
rank = list(range(n))
random.shuffle(rank)  # a hidden order; every prerequisite goes from an earlier rank to a later one
pairs = []
for _ in range(60000):
    a, b = random.sample(range(n), 2)
    if rank[a] > rank[b]:
        a, b = b, a
    pairs.append([b, a])
write("large-dag", n, pairs)
cyclic = pairs[:]
by_rank = sorted(range(n), key=rank.__getitem__)
first, later = by_rank[20000], by_rank[25000]
cyclic += [[later, first], [first, later]]  # each requires the other: a loop deep inside the order
random.shuffle(cyclic)
write("large-cycle", n, cyclic)
