from collections import deque


def course_order(n: int, prerequisites: list[list[int]]) -> list[int]:
    unlocks: list[list[int]] = [[] for _ in range(n)]
    waiting = [0] * n  # unmet prerequisites of each course
    for course, first in prerequisites:
        unlocks[first].append(course)
        waiting[course] += 1
    # Wrong on purpose: a FIFO queue, so a course freed later comes after bigger ones that waited.
    ready = deque(c for c in range(n) if waiting[c] == 0)
    order: list[int] = []
    while ready:
        c = ready.popleft()
        order.append(c)
        for nxt in unlocks[c]:
            waiting[nxt] -= 1
            if waiting[nxt] == 0:
                ready.append(nxt)
    return order if len(order) == n else []
