from dsa import Recorder


def quick_sort(items: list[int]) -> list[int]:
    rec = Recorder()
    array = list(items)

    def sort(lo, hi):
        if lo >= hi:
            return
        pivot = array[hi]
        rec.step("pivot", active=[hi], array=array)
        i = lo
        for j in range(lo, hi):
            rec.step("compare", active=[j, hi], array=array)
            # Wrong on purpose: items equal to the pivot stay in the right part.
            if array[j] < pivot:
                if i != j:
                    array[i], array[j] = array[j], array[i]
                    rec.step("swap", active=[i, j], array=array)
                i += 1
        array[i], array[hi] = array[hi], array[i]
        rec.step("place", active=[i], array=array)
        sort(lo, i - 1)
        sort(i + 1, hi)

    sort(0, len(array) - 1)
    rec.step("done", active=[], array=array)
    return array
