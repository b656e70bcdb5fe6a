from collections import deque

from dsa import Recorder

STEPPED = 50  # indices whose operations record steps


def window_max(items: list[int], k: int) -> list[int]:
    rec = Recorder()
    window: deque[int] = deque()  # indices, front to back, their items decreasing
    answers: list[int] = []

    def record(action: str, index: int, caption: str) -> None:
        rec.step(action, {"deque": list(window), "ids": list(window), "moved": {"id": index, "value": index}},
                 caption=caption)

    for i, item in enumerate(items):
        if window and window[0] == i - k:
            left = window.popleft()
            if i < STEPPED:
                record("pop_front", left, f"Index {left} has left the window: drop it from the front")
        while window and items[window[-1]] <= item:
            smaller = window.pop()
            if i < STEPPED:
                record("pop_back", smaller, f"{items[smaller]} at index {smaller} is not larger than {item}: drop it")
        window.append(i)
        if i < STEPPED:
            record("push_back", i, f"Push index {i} ({item}) at the back")
        if i >= k - 1:
            answers.append(items[window[0]])
    return answers
