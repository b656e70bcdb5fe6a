import Foundation
import Testing

// docs/architecture.md, "API": the run service is the only way to run. Its front ends (/v1, Judge0,
// Piston, the live codecs and the router) convert their wire and render results; the queue, the
// executor, the quota and the live slots belong to `Sources/API/Service`. This test reads the front
// ends' files and refuses any call site that reaches one of those some other way. Files only: no
// root, no kernel, no build.

private let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent()

/// What a front end may not name: the slots and their line, the executor, the quota, the live slots.
let serviceInternals = [
  "WorkQueue", "withSlot(", ".queue.", "inSlot(", "Executor.", "executor.", ".executeLive(", "RateLimiter",
  "rateLimiter", ".take(token", "liveSlots", "LiveSlots",
]

/// The Swift files of the API module outside `Service/`, by path under Sources/API.
func frontEndFiles() throws -> [(path: String, text: String)] {
  let root = repositoryRoot.appendingPathComponent("Sources/API")
  guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { return [] }
  var files: [(String, String)] = []
  for case let url as URL in walker where url.pathExtension == "swift" {
    let path = String(url.path.dropFirst(root.path.count + 1))
    guard !path.hasPrefix("Service/") else { continue }
    files.append((path, try String(contentsOf: url, encoding: .utf8)))
  }
  return files.sorted { $0.0 < $1.0 }
}

/// Each line of `text` that names one of `names`, outside comments, as `path:line: name`.
func callSites(of names: [String], in text: String, path: String) -> [String] {
  var found: [String] = []
  for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
    let code = line.range(of: "//").map { line[..<$0.lowerBound] } ?? line[...]
    for name in names where code.contains(name) { found.append("\(path):\(number + 1): \(name)") }
  }
  return found
}

@Suite struct RunServiceSeamTests {
  @Test func noFrontEndReachesTheQueueTheExecutorOrTheQuota() throws {
    let files = try frontEndFiles()
    // The folders of the front ends are there: an empty walk would pass for the wrong reason.
    for folder in ["V1/", "Judge0/", "Piston/", "Live/"] {
      #expect(files.contains { $0.path.hasPrefix(folder) }, "no file under Sources/API/\(folder)")
    }
    let sites = files.flatMap { callSites(of: serviceInternals, in: $0.text, path: $0.path) }
    #expect(sites.isEmpty, "front ends reach the run service's internals:\n\(sites.joined(separator: "\n"))")
  }

  @Test func theCheckFindsACallSite() {
    let text = "let x = 1\n  let (a, b) = queue.withSlot(timeout: .zero) { 1 }  // a slot\n// executor.execute\n"
    #expect(callSites(of: serviceInternals, in: text, path: "V1/X.swift") == ["V1/X.swift:2: withSlot("])
  }

  /// A reload (SIGHUP) replaces `RunService.settings`; `APIConfiguration` keeps the values the
  /// router started with. A request that read these from the configuration would never see a reload.
  @Test func nothingReadsReloadableSettingsFromTheStartConfiguration() throws {
    let root = repositoryRoot.appendingPathComponent("Sources/API")
    let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
    let startValues = [
      "configuration.bearerTokens", "configuration.rateLimit", "configuration.maxima",
      "configuration.gradeWallMilliseconds", "configuration.resolvedGradeWallMilliseconds",
      "configuration.crossOrigin", "submissions.settings.webhooks", "submissions?.settings.webhooks",
      "self.settings.webhooks", "ChallengeCatalog.load",
    ]
    var sites: [String] = []
    var files = 0
    while let url = walker?.nextObject() as? URL {
      guard url.pathExtension == "swift", url.lastPathComponent != "ReloadableSettings.swift" else { continue }
      files += 1
      let text = try String(contentsOf: url, encoding: .utf8)
        // The run service's settings are the ones in effect.
        .replacingOccurrences(of: "service.settings.", with: "service.current.")
      sites += callSites(of: startValues, in: text, path: url.lastPathComponent)
    }
    #expect(files > 20)
    #expect(sites.isEmpty, "read from the start configuration, blind to reloads:\n\(sites.joined(separator: "\n"))")
  }

  @Test func noFileOfTheAPILayerIsOver600Lines() throws {
    let root = repositoryRoot.appendingPathComponent("Sources/API")
    let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
    var long: [String] = []
    while let url = walker?.nextObject() as? URL {
      guard url.pathExtension == "swift" else { continue }
      let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
      if lines.count > 600 { long.append("\(url.lastPathComponent): \(lines.count) lines") }
    }
    #expect(long.isEmpty, "\(long)")
  }
}
