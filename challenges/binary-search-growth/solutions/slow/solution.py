from dsa import Recorder


def binary_search(items: list[int], target: int) -> int:
    # A scan from the start: right answers, about n probes.
    rec = Recorder()
    for index in range(len(items)):
        rec.probe(index, index, len(items) - 1, items[index] == target)
        if items[index] == target:
            return index
        if items[index] > target:
            break
    return -1
