import heapq


def course_order(n: int, prerequisites: list[list[int]]) -> list[int]:
    unlocks: list[list[int]] = [[] for _ in range(n)]
    waiting = [0] * n  # unmet prerequisites of each course
    for course, first in prerequisites:
        unlocks[first].append(course)
        waiting[course] += 1
    ready = [c for c in range(n) if waiting[c] == 0]
    heapq.heapify(ready)  # a min-heap: the smallest ready course comes first
    order: list[int] = []
    while ready:
        c = heapq.heappop(ready)
        order.append(c)
        for nxt in unlocks[c]:
            waiting[nxt] -= 1
            if waiting[nxt] == 0:
                heapq.heappush(ready, nxt)
    return order if len(order) == n else []  # fewer: the rest wait on each other
