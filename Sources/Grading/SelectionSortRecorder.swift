/// Selection sort, ascending.
///
/// Step protocol (array steps), for `i` from 0 to n-2, with `min` starting at `i`, for `j` from
/// `i+1` to n-1:
/// - `"compare"`, `active: [min, j]` (the smallest so far, then the candidate), the array as it is;
///   if `array[j] < array[min]` (strictly), `min` becomes `j` after the step.
/// - Then, only if `min != i`: `"swap"`, `active: [i, min]`, the array after the swap.
/// - Last, `"done"`, `active: []`, `sorted`: every index.
///
/// `sorted` is `0..<i` on compare steps and `0...i` on the swap step of pass `i`.
public enum SelectionSortRecorder {
  public static func record(_ input: [Int]) -> [Step] {
    var array = input
    var steps: [Step] = []
    for i in array.indices.dropLast() {
      var smallest = i
      for j in (i + 1)..<array.count {
        let candidate = array[j]
        let current = array[smallest]
        let smaller = candidate < current
        steps.append(
          arrayStep(
            "compare", active: [smallest, j], array: array, sorted: Array(0..<i),
            caption: smaller
              ? "\(candidate) is smaller than \(current), the smallest so far, so it becomes the smallest."
              : "\(candidate) is not smaller than \(current), the smallest so far.",
            generic: "Compare the next candidate with the smallest item so far: a smaller one becomes the smallest."))
        if smaller { smallest = j }
      }
      if smallest != i {
        let moved = array[smallest]
        array.swapAt(i, smallest)
        steps.append(
          arrayStep(
            "swap", active: [i, smallest], array: array, sorted: Array(0...i),
            caption: "Swap \(moved), the smallest remaining item, into position \(i).",
            generic: "Swap the smallest remaining item to the end of the sorted part."))
      }
    }
    steps.append(doneStep(array))
    return steps
  }
}
