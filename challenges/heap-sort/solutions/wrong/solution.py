from dsa import Recorder


def heap_sort(items: list[int]) -> list[int]:
    rec = Recorder()
    array = list(items)
    ids = list(range(len(array)))  # item k of the input has id k; a swap swaps ids too

    def record(action: str, size: int, active: list[int], caption: str) -> None:
        rec.step(action, {"heap": array[:size], "ids": ids[:size], "active": active}, caption=caption)

    def swap(i: int, j: int) -> None:
        array[i], array[j] = array[j], array[i]
        ids[i], ids[j] = ids[j], ids[i]

    def sift_down(parent: int, size: int) -> None:
        while True:
            left, right = 2 * parent + 1, 2 * parent + 2
            larger = parent
            if left < size and array[left] > array[parent]:
                larger = left
            if right < size and array[right] > array[parent]:  # wrong: compared with the parent, not the left child
                larger = right
            if larger == parent:
                return
            swap(parent, larger)
            record("swap", size, [parent, larger], f"Sift down: swap {array[larger]} with its larger child {array[parent]}")
            parent = larger

    n = len(array)
    for parent in range(n // 2 - 1, -1, -1):
        sift_down(parent, n)
    for end in range(n - 1, 0, -1):
        swap(0, end)
        record("pop", end, [0], f"Move the largest, {array[end]}, to index {end}; {array[0]} takes the root")
        sift_down(0, end)
    record("done", 0, [], "Done: the heap is empty and the items are sorted")
    return array
