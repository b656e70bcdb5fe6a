import Foundation
import SystemCore
import Testing

@testable import Runners

let repositoryRoot: String = {
  var url = URL(fileURLWithPath: #filePath)
  for _ in 0..<3 { url.deleteLastPathComponent() }
  return url.path
}()

@Suite struct CatalogTests {
  @Test func shippedRunnersLoad() throws {
    let catalog = try RunnerCatalog.load(directory: repositoryRoot + "/runners")
    #expect(catalog.names.contains("python"))
    for (language, runners) in catalog.languages {
      #expect(!runners.isEmpty, "\(language)")
      for runner in runners {
        #expect(!runner.selfTest.source.isEmpty)
        #expect(runner.compile == nil || !(runner.compile?.artifacts.isEmpty ?? true))
      }
    }
  }

  @Test func aliasesFindTheirLanguage() throws {
    let catalog = try RunnerCatalog.load(directory: repositoryRoot + "/runners")
    #expect(catalog.language(named: "py")?.first?.language == "python")
    #expect(catalog.language(named: "PYTHON")?.first?.language == "python")
    #expect(catalog.language(named: "cobol") == nil)
  }

  private func runnerFile(version: String = "", run: String = "", top: String = "") -> Data {
    Data(
      """
      {"language": "toy", "display_name": "Toy", \(top)
       "self_test": {"source": "x", "stdout": "y"},
       "versions": [{"version": "1", "requires": ["/bin/sh"], "version_probe": ["/bin/sh", "-c", "echo 1"],
                     "version_pattern": "([0-9]+)", "install": "nothing", "source_file": "main.toy", \(version)
                     "run": {"argv": ["/bin/sh", "{source}"] \(run)}}]}
      """.utf8)
  }

  @Test func aMinimalRunnerParses() throws {
    let runners = try RunnerCatalog.parse(runnerFile(), file: "toy.json")
    #expect(runners.count == 1)
    #expect(runners[0].sourceNaming == .fixed("main.toy"))
    #expect(runners[0].policy == "default")
  }

  @Test(arguments: [
    ("", #", "surprise": 1"#, "", "unknown key"),
    (
      "", #", "limits": {"memory_mb": 999999}"#, "",
      "versions[0].run.limits.memory_mb: 999999 is out of range: expected a whole number from 0 to 4096"
    ),
    ("", #", "limits": {"memory_mb": -1}"#, "", "whole number"),
    // Found by fuzzing (Tests/fuzz/runner-file/regressions/): 2^44 + 1 MiB wrapped to 1 MiB in bytes
    // and passed; `true` was read as 1; 2^64 was read as 0.
    (
      "", #", "limits": {"memory_mb": 17592186044417}"#, "",
      "17592186044417 is out of range: expected a whole number from 0 to 4096"
    ),
    ("", #", "limits": {"cpu_ms": true}"#, "", "versions[0].run.limits.cpu_ms: expected a whole number, got"),
    ("", #", "limits": {"output_kb": 18446744073709551616}"#, "", "18446744073709551616 is out of range"),
    ("", #", "limits": {"processes": 1e300}"#, "", "processes: 1e+300 is out of range"),
    (
      "", #", "limits": {"reserve_mb": 4097}"#, "",
      "reserve_mb: 4097 is out of range: expected a whole number from 0 to 4096"
    ),
    ("", #", "argv2": []"#, "", "versions[0].run.argv2: unknown key; known keys: argv,"),
    (#""policy": "", "#, "", "", "versions[0].policy: must not be empty"),
    ("", "", #""aliases": 5, "#, "aliases: expected an array, got"),
    (#""source_extensions": ["cpp"], "#, "", "", "not an extension like"),
    (#""script": {"extension": ".t"}, "#, "", "", "versions[0].script.entry_file: is required"),
    (
      #""script": {"extension": ".t", "entry_file": "../x.t", "launcher_file": "l.t", "launcher": "x"}, "#, "", "",
      "not a plain file name"
    ),
  ])
  func brokenRunnerFilesAreRefused(version: String, run: String, top: String, word: String) {
    let error = #expect(throws: RunnerFileError.self) {
      _ = try RunnerCatalog.parse(self.runnerFile(version: version, run: run, top: top), file: "toy.json")
    }
    #expect(word.isEmpty || error?.problem.contains(word) == true, "\(String(describing: error))")
  }

  @Test func sourcesMustBeAnArgumentOfItsOwn() {
    let data = Data(
      String(decoding: runnerFile(), as: UTF8.self).replacingOccurrences(of: "{source}", with: "-x{sources}").utf8)
    let error = #expect(throws: RunnerFileError.self) { _ = try RunnerCatalog.parse(data, file: "toy.json") }
    #expect(error?.problem.contains("{sources} must be an argument of its own") == true)
  }

  @Test func unknownPlaceholderIsRefused() {
    let data = Data(
      String(decoding: runnerFile(), as: UTF8.self).replacingOccurrences(of: "{source}", with: "{sauce}").utf8)
    #expect(throws: RunnerFileError.self) { _ = try RunnerCatalog.parse(data, file: "toy.json") }
  }

  @Test func relativeToolchainPathIsRefused() {
    let data = Data(
      String(decoding: runnerFile(), as: UTF8.self).replacingOccurrences(
        of: #"["/bin/sh", "{source}"]"#, with: #"["sh", "{source}"]"#
      ).utf8)
    #expect(throws: RunnerFileError.self) { _ = try RunnerCatalog.parse(data, file: "toy.json") }
  }

  @Test func javaPublicClassDecidesTheFileName() {
    #expect(javaPublicClass(in: "import java.util.*;\npublic class Solution {\n}") == "Solution")
    #expect(javaPublicClass(in: "class Helper {}\npublic final class Main2 { }") == "Main2")
    #expect(javaPublicClass(in: "class OnlyPackagePrivate {}") == nil)
    #expect(javaPublicClass(in: "public record Point(int x, int y) {}") == "Point")
    #expect(javaPublicClass(in: "class Main {\n  public enum Color { RED }\n}\npublic interface Shape {}") == "Shape")
  }
}

@Suite struct CompileCacheTests {
  private func freshCache(maximumBytes: UInt64 = 1 << 20) throws -> CompileCache {
    let directory = NSTemporaryDirectory() + "dsa-run-cache-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    return try CompileCache(directory: directory, maximumBytes: maximumBytes)
  }

  private func key(_ text: String) -> String { SHA256.hex(Data(text.utf8)) }

  @Test func storesAndFindsNestedFiles() throws {
    let cache = try freshCache()
    defer { try? FileManager.default.removeItem(atPath: cache.directory) }
    let files = [("out/Main.class", Data([0xca, 0xfe])), ("out/Main$1.class", Data()), ("main", Data("x".utf8))]
    #expect(cache.lookup(key("a")) == nil)
    cache.store(key("a"), files: files)
    let found = try #require(cache.lookup(key("a")))
    #expect(found.map(\.0) == files.map(\.0))
    #expect(found.map(\.1) == files.map(\.1))
    #expect(cache.hits == 1 && cache.misses == 1)
  }

  @Test func corruptBundlesAreMissesAndRemoved() throws {
    let cache = try freshCache()
    defer { try? FileManager.default.removeItem(atPath: cache.directory) }
    cache.store(key("b"), files: [("main", Data(repeating: 7, count: 100))])
    let path = cache.directory + "/objects/" + key("b") + ".bundle"
    let handle = try #require(FileHandle(forUpdatingAtPath: path))
    handle.truncateFile(atOffset: 50)
    try handle.close()
    #expect(cache.lookup(key("b")) == nil)
    #expect(!FileManager.default.fileExists(atPath: path))
  }

  @Test func symlinkedBundleIsNotFollowed() throws {
    let cache = try freshCache()
    defer { try? FileManager.default.removeItem(atPath: cache.directory) }
    let path = cache.directory + "/objects/" + key("c") + ".bundle"
    try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "/etc/passwd")
    #expect(cache.lookup(key("c")) == nil)
  }

  @Test func leastRecentlyUsedBundlesAreEvicted() throws {
    let cache = try freshCache(maximumBytes: 300_000)
    defer { try? FileManager.default.removeItem(atPath: cache.directory) }
    let blob = Data(repeating: 1, count: 100_000)
    cache.store(key("1"), files: [("main", blob)])
    // Make the first entry the oldest by mtime.
    let first = cache.directory + "/objects/" + key("1") + ".bundle"
    var times = [timespec(tv_sec: 1_000, tv_nsec: 0), timespec(tv_sec: 1_000, tv_nsec: 0)]
    _ = utimensat(AT_FDCWD, first, &times, 0)
    cache.store(key("2"), files: [("main", blob)])
    cache.store(key("3"), files: [("main", blob)])
    cache.store(key("4"), files: [("main", blob)])
    #expect(cache.lookup(key("1")) == nil)
    #expect(cache.lookup(key("4")) != nil)
  }

  @Test func concurrentStoresOfOneKeyLeaveOneGoodBundle() async throws {
    let cache = try freshCache()
    defer { try? FileManager.default.removeItem(atPath: cache.directory) }
    let files = [("main", Data(repeating: 9, count: 50_000))]
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<16 { group.addTask { cache.store(self.key("same"), files: files) } }
    }
    #expect(cache.lookup(key("same"))?.first?.1 == files[0].1)
    #expect((try FileManager.default.contentsOfDirectory(atPath: cache.directory + "/tmp")).isEmpty)
  }

  @Test func bundleDecoderRejectsGarbage() {
    #expect(CompileCache.decode(Data("garbage".utf8)) == nil)
    #expect(CompileCache.decode(Data("DSAB".utf8) + Data(repeating: 0xff, count: 8)) == nil)
    let good = CompileCache.encode([("a", Data([1]))])
    #expect(CompileCache.decode(good)?.first?.0 == "a")
    #expect(CompileCache.decode(good + Data([0])) == nil)
  }
}

@Suite struct VersionSelectionTests {
  @Test func newestInstalledVersionIsTheDefaultAndVersionSelects() throws {
    let executor = RunnersFixture.executor
    let versions = try #require(executor.catalog.language(named: "dart"))
    #expect(versions.count >= 2, "runners/dart.json lists the x64 SDK and the ia32 VM")
    let installed = versions.filter(\.isAvailable)
    if let newestInstalled = installed.first {
      #expect(try executor.runner(language: "dart", version: nil).version == newestInstalled.version)
      #expect(
        try executor.runner(language: "dartlang", version: newestInstalled.version).version == newestInstalled.version)
    }
    for missing in versions where !missing.isAvailable {
      let error = #expect(throws: ExecuteError.self) {
        _ = try executor.runner(language: "dart", version: missing.version)
      }
      #expect(error.map { "\($0)" }?.contains("install it with") == true)
    }
    let error = #expect(throws: ExecuteError.self) { _ = try executor.runner(language: "python", version: "2.7") }
    #expect(error.map { "\($0)" }?.contains("has no version \"2.7\"; installed: 3.11") == true)
  }
}
