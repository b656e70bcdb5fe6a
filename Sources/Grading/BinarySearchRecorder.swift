import Wire

/// Binary search for `target` in an ascending array.
///
/// `low = 0`, `high = n - 1`; while `low <= high`: `mid = low + (high - low) / 2` (rounded down).
///
/// Step protocol (search steps `{low, high, mid, found}`):
/// - One step per probe, with `low`, `high` and `mid` as they are before moving, and `found`
///   (`array[mid] == target`). A found step is the last. Otherwise `low = mid + 1` when
///   `array[mid] < target`, else `high = mid - 1`.
/// - When `low > high`, a last step with those `low` and `high`, `mid: null`, `found: false`.
public enum BinarySearchRecorder {
  public static func record(_ array: [Int], target: Int) throws(RecorderInputError) -> [Step] {
    for index in array.indices.dropFirst() where array[index - 1] > array[index] {
      throw RecorderInputError("the array is not sorted at index \(index)")
    }
    var steps: [Step] = []
    var low = 0
    var high = array.count - 1
    while low <= high {
      let mid = low + (high - low) / 2
      let value = array[mid]
      let caption: String
      if value == target {
        caption = "The middle item, at index \(mid), is \(value): found \(target)."
      } else if value < target {
        caption = "The middle item, at index \(mid), is \(value), smaller than \(target), so search the right half."
      } else {
        caption = "The middle item, at index \(mid), is \(value), larger than \(target), so search the left half."
      }
      steps.append(
        step(
          low: low, high: high, mid: mid, found: value == target, caption: caption, kind: "a probe",
          generic:
            "Look at the middle item of the range: stop if it is the target, else keep the half that can hold it."))
      if value == target { return steps }
      if value < target { low = mid + 1 } else { high = mid - 1 }
    }
    steps.append(
      step(
        low: low, high: high, mid: nil, found: false,
        caption: "low (\(low)) has passed high (\(high)): \(target) is not in the array.",
        kind: "the end of the search", generic: "low has passed high: the target is not in the array."))
    return steps
  }

  private static func step(
    low: Int, high: Int, mid: Int?, found: Bool, caption: String, kind: String, generic: String
  ) -> Step {
    Step(
      ["low": JSONValue(low), "high": JSONValue(high), "mid": JSONValue(mid), "found": .bool(found)], caption: caption,
      kind: kind, genericCaption: generic)
  }
}
