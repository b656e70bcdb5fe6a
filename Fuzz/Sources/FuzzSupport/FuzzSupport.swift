// What every fuzz target shares.

import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Stops the run with `message` when an invariant does not hold. libFuzzer reports the crash and
/// saves the input; `precondition` would drop the message in an optimized build.
public func invariant(_ condition: Bool, _ message: @autoclosure () -> String) {
  if !condition { fatalError("invariant broken: \(message())") }
}

/// The fuzzer's input as a buffer of bytes (libFuzzer passes a null pointer for the empty input).
public func fuzzInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> UnsafeBufferPointer<UInt8> {
  UnsafeBufferPointer(start: count == 0 ? nil : start, count: count)
}

// Read once: the environment does not change during a run.
private let isVerbose = getenv("FUZZ_VERBOSE") != nil

/// Prints what happened to an input when FUZZ_VERBOSE is set, for replaying one input by hand
/// (`FUZZ_VERBOSE=1 .build-fuzz/release/fuzz-TARGET FILE`).
public func explain(_ message: @autoclosure () -> String) {
  if isVerbose { print(message()) }
}

/// The whole number a parsed JSON value was written as, judged by its text: the oracle for loaders
/// that must take only whole numbers and nothing else that JSONSerialization turns into an NSNumber
/// (`true`, `1.5`, `-1`, `1e300`, 2^64). Independent of how the loader reads numbers.
public func wholeNumberText(_ raw: Any) -> UInt64? {
  guard let data = try? JSONSerialization.data(withJSONObject: [raw]) else { return nil }
  let text = String(decoding: data, as: UTF8.self)
  guard text.hasPrefix("["), text.hasSuffix("]") else { return nil }
  let digits = text.dropFirst().dropLast()
  guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
  return UInt64(digits)
}
