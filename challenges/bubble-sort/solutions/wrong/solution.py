from dsa import Recorder


def bubble_sort(items: list[int]) -> list[int]:
    rec = Recorder(items)
    n = len(items)
    for _ in range(n - 1):
        swapped = False
        # Wrong on purpose: every pass runs to the end, over items already bubbled into place.
        for j in range(n - 1):
            rec.compare(j, j + 1)
            if rec.array[j] > rec.array[j + 1]:
                rec.swap(j, j + 1)
                swapped = True
        if not swapped:
            break
    rec.done()
    return rec.array
