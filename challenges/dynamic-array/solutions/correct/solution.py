from dsa import Recorder


def push_all(values: list[int]) -> list[int]:
    rec = Recorder()
    capacity, size = 1, 0
    buffer: list[int] = [0] * capacity
    capacities: list[int] = []
    for value in values:
        if size == capacity:
            capacity = capacity * 2
            bigger = [0] * capacity
            for i in range(size):
                bigger[i] = buffer[i]
                rec.step("copy", index=i)
            buffer = bigger
        buffer[size] = value
        size += 1
        capacities.append(capacity)
    return capacities
