// What every fuzz target shares.

/// Stops the run with `message` when an invariant does not hold. libFuzzer reports the crash and
/// saves the input; `precondition` would drop the message in an optimized build.
public func invariant(_ condition: Bool, _ message: @autoclosure () -> String) {
  if !condition { fatalError("invariant broken: \(message())") }
}

/// The fuzzer's input as a buffer of bytes (libFuzzer passes a null pointer for the empty input).
public func fuzzInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> UnsafeBufferPointer<UInt8> {
  UnsafeBufferPointer(start: count == 0 ? nil : start, count: count)
}
