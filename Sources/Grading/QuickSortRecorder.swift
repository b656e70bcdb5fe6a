/// Quick sort with the Lomuto partition, ascending.
///
/// `sort(lo, hi)` (inclusive) returns at once when `lo >= hi`; otherwise it partitions around the
/// pivot `array[hi]`, then sorts `lo...p-1` and `p+1...hi`, where `p` is the pivot's final index.
///
/// Step protocol (array steps), per partition of `lo...hi`, with the store index `i` starting at `lo`:
/// - `"pivot"`, `active: [hi]`, the array as it is.
/// - For `j` from `lo` to `hi-1`: `"compare"`, `active: [j, hi]`; if `array[j] <= pivot`, then,
///   only if `i != j`, `"swap"`, `active: [i, j]`, the array after swapping; and `i` goes up by one.
/// - `"place"`, `active: [i]`, the array after swapping the pivot into index `i` (no change when
///   `i == hi`); `i` joins `sorted`.
/// Last, `"done"`, `active: []`, `sorted`: every index.
///
/// `sorted` holds the indices of pivots placed so far, ascending (one-item ranges are not added).
public enum QuickSortRecorder {
  public static func record(_ input: [Int]) -> [Step] {
    var array = input
    var steps: [Step] = []
    var placed: [Int] = []
    sort(&array, 0, array.count - 1, &steps, &placed)
    steps.append(doneStep(array))
    return steps
  }

  private static func sort(_ array: inout [Int], _ lo: Int, _ hi: Int, _ steps: inout [Step], _ placed: inout [Int]) {
    guard lo < hi else { return }
    let pivot = array[hi]
    steps.append(
      arrayStep(
        "pivot", active: [hi], array: array, sorted: placed,
        caption: "Partition indices \(lo) to \(hi) around the pivot \(pivot), the last item.",
        generic: "Partition the range around its last item, the pivot."))
    var store = lo
    for j in lo..<hi {
      let value = array[j]
      let goesLeft = value <= pivot
      steps.append(
        arrayStep(
          "compare", active: [j, hi], array: array, sorted: placed,
          caption: goesLeft
            ? "\(value) is not larger than the pivot \(pivot), so it belongs in the left part."
            : "\(value) is larger than the pivot \(pivot), so it stays in the right part.",
          generic: "Compare an item with the pivot: one not larger than the pivot belongs in the left part."))
      guard goesLeft else { continue }
      if store != j {
        let displaced = array[store]
        array.swapAt(store, j)
        steps.append(
          arrayStep(
            "swap", active: [store, j], array: array, sorted: placed,
            caption: "Swap \(value) with \(displaced) to grow the left part to index \(store).",
            generic: "Swap the item into the left part, which grows by one."))
      }
      store += 1
    }
    array.swapAt(store, hi)
    placed.append(store)
    placed.sort()
    steps.append(
      arrayStep(
        "place", active: [store], array: array, sorted: placed,
        caption: "Put the pivot \(pivot) at index \(store): smaller or equal items are left of it, larger right.",
        generic: "Put the pivot between the two parts: smaller or equal items left of it, larger right."))
    sort(&array, lo, store - 1, &steps, &placed)
    sort(&array, store + 1, hi, &steps, &placed)
  }
}
