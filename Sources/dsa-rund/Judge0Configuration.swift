import API
import Wire

/// The config file's `judge0` object (docs/compat.md, "Judge0 CE"): whether the Judge0 CE routes are
/// served, under which path prefix, how much an `additional_files` zip may unpack to, and how long a
/// poll of a submission not yet final is held.
struct Judge0Configuration: Equatable {
  var enabled = true
  /// "" serves `/languages`, `/submissions`, ... at the root; else "/PREFIX" with no trailing slash.
  var prefix = ""
  var maxExtractKilobytes = 10_240
  /// 0 answers a poll at once, as Judge0 does.
  var pollHoldMilliseconds = Judge0Settings().pollHoldMilliseconds

  static let keys = ["enabled", "prefix", "max_extract_kb", "poll_hold_ms"]

  mutating func apply(_ object: StrictObject) {
    if let value = object.bool("enabled") { enabled = value }
    if let value = object.string("prefix") { prefix = value }
    if let value = object.integer("max_extract_kb", as: Int.self) { maxExtractKilobytes = value }
    if let value = object.integer("poll_hold_ms", as: Int.self) { pollHoldMilliseconds = value }
  }

  /// `maximumWaitSeconds`: `submissions.max_wait_s`, the longest any request waits for a result.
  func problems(maximumWaitSeconds: Double) -> [String] {
    var problems: [String] = []
    if !prefix.isEmpty
      && (!prefix.hasPrefix("/") || prefix.hasSuffix("/") || prefix.contains("?") || prefix.hasPrefix("/v1"))
    {
      problems.append("judge0.prefix must be \"\" or a path such as \"/judge0\" (no trailing slash, not under /v1)")
    }
    if !(1...1_048_576).contains(maxExtractKilobytes) {
      problems.append("judge0.max_extract_kb must be from 1 to 1048576")
    }
    let longestHold = Int((maximumWaitSeconds * 1000).rounded(.down))
    if !(0...max(0, longestHold)).contains(pollHoldMilliseconds) {
      problems.append(
        "judge0.poll_hold_ms must be from 0 to \(longestHold) (submissions.max_wait_s, the longest wait)")
    }
    return problems
  }

  /// The API's settings; nil when the routes are off. A quarter of the connections may be held
  /// polls, so a flood of them leaves the rest to other requests.
  func settings(maximumConnections: Int) -> Judge0Settings? {
    guard enabled else { return nil }
    var settings = Judge0Settings(prefix: prefix)
    settings.maximumExtractBytes = maxExtractKilobytes << 10
    settings.pollHoldMilliseconds = pollHoldMilliseconds
    settings.maximumHeldPolls = heldRequestBound(maximumConnections: maximumConnections)
    return settings
  }
}
