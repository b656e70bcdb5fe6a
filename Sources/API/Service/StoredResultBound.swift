import Foundation
import Runners
import Sandbox

/// How large a stored result may be. Output is capped per stream, but JSON may write a byte as six
/// (`\u0000`): a run's result of control characters was tens of MB of JSON per stored row, and as
/// many in the memory of recent results. A stored result is the answer a poll gets, so it stays
/// the ordinary result; past the bound its outputs are cut further (marked truncated as the
/// output cap marks them) until it fits.
enum StoredResultBound {
  /// Twice the output cap of two streams, and room for the rest.
  static func bytes(_ maxima: LimitMaxima) -> Int {
    Int(clamping: 4 * (maxima.outputKilobytes << 10) + (256 << 10))
  }

  /// `result` with its outputs cut until `encodedSize` of it is at most `maximumBytes`: the
  /// longest output halved each time, so at most a few dozen encodings.
  static func fit(_ result: ExecuteResult, within maximumBytes: Int, encodedSize: (ExecuteResult) -> Int)
    -> ExecuteResult
  {
    var fitted = result
    while encodedSize(fitted) > maximumBytes {
      guard cutLongestOutput(&fitted) else { break }
    }
    return fitted
  }

  private static func cutLongestOutput(_ result: inout ExecuteResult) -> Bool {
    var outcomes = [result.compile, result.run].compactMap { $0 }
    guard !outcomes.isEmpty else { return false }
    var longest: (index: Int, stdout: Bool, count: Int)?
    for (index, outcome) in outcomes.enumerated() {
      for (isStdout, count) in [(true, outcome.stdout.count), (false, outcome.stderr.count)]
      where count > (longest?.count ?? 0) {
        longest = (index, isStdout, count)
      }
    }
    guard let longest, longest.count > 0 else { return false }
    var outcome = outcomes[longest.index]
    if longest.stdout {
      outcome.stdout = outcome.stdout.prefix(longest.count / 2)
      outcome.stdoutTruncated = true
    } else {
      outcome.stderr = outcome.stderr.prefix(longest.count / 2)
      outcome.stderrTruncated = true
    }
    outcomes[longest.index] = outcome
    if result.compile != nil {
      result.compile = outcomes[0]
      if result.run != nil { result.run = outcomes[1] }
    } else {
      result.run = outcomes[0]
    }
    return true
  }
}
