/// Insertion sort by adjacent swaps, ascending.
///
/// Step protocol (array steps `{action, active, array, sorted}`), for `i` from 1 to n-1 and `j`
/// from `i` down to 1:
/// - `"compare"`, `active: [j-1, j]`, the array as it is; then, if `array[j-1] > array[j]`:
/// - `"swap"`, `active: [j-1, j]`, the array after swapping them; and `j` goes on down.
///   Otherwise (not larger) the pass ends, with no further step.
/// - Last, `"done"`, `active: []`, `sorted`: every index.
///
/// `sorted` is the prefix sorted before the pass: indices `0..<i` during pass `i`.
public enum InsertionSortRecorder {
  public static func record(_ input: [Int]) -> [Step] {
    var array = input
    var steps: [Step] = []
    for i in array.indices.dropFirst() {
      let prefix = Array(0..<i)
      var j = i
      while j > 0 {
        let left = array[j - 1]
        let right = array[j]
        let larger = left > right
        steps.append(
          arrayStep(
            "compare", active: [j - 1, j], array: array, sorted: prefix,
            caption: larger
              ? "Compare \(left) with \(right), the item being inserted."
              : "\(left) is not larger than \(right), so \(right) stays: the first \(i + 1) items are in order.",
            generic:
              "Compare the item being inserted with the item just before it: a larger item before it is shifted "
              + "right, else the item stays and the pass ends."))
        guard larger else { break }
        array.swapAt(j - 1, j)
        steps.append(
          arrayStep(
            "swap", active: [j - 1, j], array: array, sorted: prefix,
            caption: "\(left) is larger than \(right), so shift it right.",
            generic: "The item before the one being inserted is larger, so shift it right."))
        j -= 1
      }
    }
    steps.append(doneStep(array))
    return steps
  }
}
