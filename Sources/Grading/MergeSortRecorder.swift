/// Merge sort, top-down, ascending and stable.
///
/// `sort(lo, hi)` (half-open) returns at once when `hi - lo < 2`; otherwise `mid = (lo + hi) / 2`,
/// it sorts `lo..<mid`, then `mid..<hi`, then merges them (taking from the left run on ties) and
/// writes the merged run back.
///
/// Step protocol (array steps): one `"merge"` step per merge, after writing it back, with
/// `active: [lo, ..., hi-1]` (every index of the merged run) and `sorted: []`; an array of n items
/// has n-1 merges. Last, `"done"`, `active: []`, `sorted`: every index.
public enum MergeSortRecorder {
  public static func record(_ input: [Int]) -> [Step] {
    var array = input
    var steps: [Step] = []
    sort(&array, 0, array.count, &steps)
    steps.append(doneStep(array))
    return steps
  }

  private static func sort(_ array: inout [Int], _ lo: Int, _ hi: Int, _ steps: inout [Step]) {
    guard hi - lo >= 2 else { return }
    let mid = (lo + hi) / 2
    sort(&array, lo, mid, &steps)
    sort(&array, mid, hi, &steps)
    let left = array[lo..<mid]
    let right = array[mid..<hi]
    var merged: [Int] = []
    merged.reserveCapacity(hi - lo)
    var i = left.startIndex
    var j = right.startIndex
    while i < left.endIndex || j < right.endIndex {
      if j == right.endIndex || (i < left.endIndex && left[i] <= right[j]) {
        merged.append(left[i])
        i += 1
      } else {
        merged.append(right[j])
        j += 1
      }
    }
    array.replaceSubrange(lo..<hi, with: merged)
    steps.append(
      arrayStep(
        "merge", active: Array(lo..<hi), array: array, sorted: [],
        caption: "Merge \(listText(left)) and \(listText(right)) into \(listText(merged)).",
        generic: "Merge two sorted halves into one sorted run, taking from the left half on ties."))
  }
}
