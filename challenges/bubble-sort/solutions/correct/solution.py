from dsa import Recorder


def bubble_sort(items: list[int]) -> list[int]:
    rec = Recorder(items)
    n = len(items)
    for done_passes in range(n - 1):
        if done_passes > 0:
            # The pass before carried its largest item to index n - done_passes: in place for good.
            rec.mark_sorted(n - done_passes)
        swapped = False
        for j in range(n - 1 - done_passes):
            left, right = rec.array[j], rec.array[j + 1]
            if left > right:
                rec.compare(j, j + 1, caption=f"Compare {left} and {right}: {left} is larger, so they swap.")
                rec.swap(j, j + 1, caption=f"Swap {left} and {right}, so the larger one moves right.")
                swapped = True
            else:
                rec.compare(j, j + 1, caption=f"Compare {left} and {right}: they are in order.")
        if not swapped:
            break
    if n < 2:
        rec.done(caption=f"An array of {n} item{'' if n == 1 else 's'} is already sorted.")
    else:
        rec.done(caption="Done: the array is sorted.")
    return rec.array
