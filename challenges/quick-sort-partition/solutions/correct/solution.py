from dsa import Recorder


def quick_sort(items: list[int]) -> list[int]:
    # The pivot's placing is a swap recorded as "place", which Recorder.swap would record as
    # "swap": so the list is ours, and each step names its fields.
    rec = Recorder()
    array = list(items)
    placed = []  # the indices of the pivots placed so far: the steps' "sorted"

    def step(action, active, caption):
        rec.step(action, active=active, array=array, sorted=sorted(placed), caption=caption)

    def sort(lo, hi):
        if lo >= hi:
            return
        pivot = array[hi]
        step("pivot", [hi], f"Partition indices {lo} to {hi} around the pivot {pivot}, the last item.")
        i = lo
        for j in range(lo, hi):
            value = array[j]
            if value > pivot:
                step("compare", [j, hi], f"{value} is larger than the pivot {pivot}, so it stays in the right part.")
                continue
            step("compare", [j, hi], f"{value} is not larger than the pivot {pivot}, so it belongs in the left part.")
            if i != j:
                displaced = array[i]
                array[i], array[j] = array[j], array[i]
                step("swap", [i, j], f"Swap {value} with {displaced} to grow the left part to index {i}.")
            i += 1
        array[i], array[hi] = array[hi], array[i]
        placed.append(i)
        step("place", [i],
             f"Put the pivot {pivot} at index {i}: smaller or equal items are left of it, larger right.")
        sort(lo, i - 1)
        sort(i + 1, hi)

    sort(0, len(array) - 1)
    placed[:] = range(len(array))
    n = len(array)
    step("done", [], f"An array of {n} item{'' if n == 1 else 's'} is already sorted."
         if n < 2 else "Done: the array is sorted.")
    return array
