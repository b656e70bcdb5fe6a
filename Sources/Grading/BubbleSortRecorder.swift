/// Bubble sort, ascending, stopping after a pass without swaps.
///
/// Step protocol (array steps), for pass `p` from 0, for `j` from 0 to n-2-p:
/// - `"compare"`, `active: [j, j+1]`, the array as it is; then, if `array[j] > array[j+1]`:
/// - `"swap"`, `active: [j, j+1]`, the array after the swap.
/// A pass with no swap ends the sort. Last, `"done"`, `active: []`, `sorted`: every index.
///
/// `sorted` holds the indices already bubbled into place by earlier passes: `n-p..<n` in pass `p`.
public enum BubbleSortRecorder {
  public static func record(_ input: [Int]) -> [Step] {
    var array = input
    var steps: [Step] = []
    let count = array.count
    var pass = 0
    while pass < count - 1 {
      let settled = Array((count - pass)..<count)
      var swapped = false
      for j in 0..<(count - 1 - pass) {
        let left = array[j]
        let right = array[j + 1]
        steps.append(
          arrayStep(
            "compare", active: [j, j + 1], array: array, sorted: settled,
            caption: left > right
              ? "Compare \(left) and \(right): \(left) is larger, so they swap."
              : "Compare \(left) and \(right): they are in order.",
            generic: "Compare two neighbours: if the left one is larger, they swap."))
        if left > right {
          array.swapAt(j, j + 1)
          swapped = true
          steps.append(
            arrayStep(
              "swap", active: [j, j + 1], array: array, sorted: settled,
              caption: "Swap \(left) and \(right), so the larger one moves right.",
              generic: "Swap the two neighbours, so the larger one moves right."))
        }
      }
      if !swapped { break }
      pass += 1
    }
    steps.append(doneStep(array))
    return steps
  }
}
