from dsa import Recorder


def insertion_sort(items: list[int]) -> list[int]:
    rec = Recorder(items)
    for i in range(1, len(items)):
        j = i
        while j > 0:
            rec.compare(j - 1, j)
            if rec.array[j - 1] < rec.array[j]:  # Wrong on purpose: equal items swap too.
                break
            rec.swap(j - 1, j)
            j -= 1
    rec.done()
    return rec.array
