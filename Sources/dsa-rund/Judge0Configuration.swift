import API
import Wire

/// The config file's `judge0` object (docs/compat.md, "Judge0 CE"): whether the Judge0 CE routes are
/// served, under which path prefix, and how much an `additional_files` zip may unpack to.
struct Judge0Configuration: Equatable {
  var enabled = true
  /// "" serves `/languages`, `/submissions`, ... at the root; else "/PREFIX" with no trailing slash.
  var prefix = ""
  var maxExtractKilobytes = 10_240

  static let keys = ["enabled", "prefix", "max_extract_kb"]

  mutating func apply(_ object: StrictObject) {
    if let value = object.bool("enabled") { enabled = value }
    if let value = object.string("prefix") { prefix = value }
    if let value = object.integer("max_extract_kb", as: Int.self) { maxExtractKilobytes = value }
  }

  func problems() -> [String] {
    var problems: [String] = []
    if !prefix.isEmpty
      && (!prefix.hasPrefix("/") || prefix.hasSuffix("/") || prefix.contains("?") || prefix.hasPrefix("/v1"))
    {
      problems.append("judge0.prefix must be \"\" or a path such as \"/judge0\" (no trailing slash, not under /v1)")
    }
    if !(1...1_048_576).contains(maxExtractKilobytes) {
      problems.append("judge0.max_extract_kb must be from 1 to 1048576")
    }
    return problems
  }

  /// The API's settings; nil when the routes are off.
  var settings: Judge0Settings? {
    guard enabled else { return nil }
    var settings = Judge0Settings(prefix: prefix)
    settings.maximumExtractBytes = maxExtractKilobytes << 10
    return settings
  }
}
