import API
import Wire

/// The config file's `jobe` object (docs/compat.md, "Jobe"): whether the Jobe REST API is served,
/// under which path prefix, and how many MiB its in-memory file cache holds.
struct JobeConfiguration: Equatable {
  var enabled = true
  var prefix = JobeSettings().prefix
  var fileCacheMegabytes = JobeSettings().fileCacheBytes >> 20

  static let keys = ["enabled", "prefix", "file_cache_mb"]

  mutating func apply(_ object: StrictObject) {
    if let value = object.bool("enabled") { enabled = value }
    if let value = object.string("prefix") { prefix = value }
    if let value = object.integer("file_cache_mb", as: Int.self) { fileCacheMegabytes = value }
  }

  var problems: [String] {
    var problems: [String] = []
    if !prefix.hasPrefix("/") || prefix.hasSuffix("/") || prefix.contains("?") || prefix.hasPrefix("/v1")
      || prefix.hasPrefix("/api/v2")
    {
      problems.append(
        "jobe.prefix must be a path such as \"/jobe/index.php/restapi\" (no trailing slash, not under /v1 or /api/v2)")
    }
    if !(1...65_536).contains(fileCacheMegabytes) { problems.append("jobe.file_cache_mb must be from 1 to 65536") }
    return problems
  }

  /// The API's settings; nil when the routes are off.
  var settings: JobeSettings? {
    enabled ? JobeSettings(prefix: prefix, fileCacheBytes: fileCacheMegabytes << 20) : nil
  }
}
