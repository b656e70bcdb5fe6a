import Foundation
import Glibc
import SandboxTesting
import Testing

@testable import Runners

/// A toolchain's version is probed once and kept across processes, keyed on its files: a run never
/// starts the toolchain only to ask its version, and an upgraded toolchain is asked again.
@Suite struct VersionCacheTests {
  /// A scratch folder with a "toolchain" whose version probe counts its calls in `probes`.
  struct Toolchain {
    let folder: String
    var probe: String { folder + "/toy" }
    var calls: Int { ((try? String(contentsOfFile: folder + "/probes", encoding: .utf8)) ?? "").count }

    init(version: String) throws {
      var template = Array((NSTemporaryDirectory() + "version-cache.XXXXXX").utf8CString)
      let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
      folder = String(cString: try #require(made))
      try install(version: version)
    }

    func install(version: String) throws {
      let script = "#!/bin/sh\nprintf x >> \(folder)/probes\necho Toy \(version)\n"
      try Data(script.utf8).write(to: URL(fileURLWithPath: probe))
      chmod(probe, 0o755)
    }

    func runner() throws -> Runner {
      let file = """
        {"language": "toy", "display_name": "Toy", "self_test": {"source": "x", "stdout": "y"},
         "versions": [{"version": "1", "requires": ["\(probe)"], "version_probe": ["\(probe)"],
                       "version_pattern": "Toy ([0-9.]+)", "install": "nothing", "source_file": "main.toy",
                       "run": {"argv": ["/bin/sh", "{source}"]}}]}
        """
      return try #require(try RunnerCatalog.parse(Data(file.utf8), file: "toy.json").first)
    }

    /// A fresh executor, as a new process would have: nothing probed in memory.
    func executor(cacheFolder: String) throws -> Executor {
      let runner = try runner()
      return Executor(
        environments: FakeEnvironmentPool { _ in FakeRun(stdout: "") },
        catalog: RunnerCatalog(languages: ["toy": [runner]]), policies: [:], cache: nil,
        versionCache: VersionCache(directory: cacheFolder))
    }

    func remove() { try? FileManager.default.removeItem(atPath: folder) }
  }

  @Test func aProbedVersionIsReadBackByTheNextProcessWithoutProbing() throws {
    let toolchain = try Toolchain(version: "1.2.3")
    defer { toolchain.remove() }
    let cacheFolder = toolchain.folder + "/cache"
    let first = try toolchain.executor(cacheFolder: cacheFolder)
    #expect(first.probedVersion(of: try toolchain.runner()) == "1.2.3")
    #expect(toolchain.calls == 1)
    let second = try toolchain.executor(cacheFolder: cacheFolder)
    #expect(second.probedVersion(of: try toolchain.runner()) == "1.2.3")
    #expect(toolchain.calls == 1, "the second process probed again")
    var info = stat()
    #expect(stat(cacheFolder, &info) == 0 && info.st_mode & 0o777 == 0o700)
  }

  @Test func anUpgradedToolchainIsProbedAgain() throws {
    let toolchain = try Toolchain(version: "1.2.3")
    defer { toolchain.remove() }
    let cacheFolder = toolchain.folder + "/cache"
    _ = try toolchain.executor(cacheFolder: cacheFolder).probedVersion(of: try toolchain.runner())
    try toolchain.install(version: "1.2.40")
    #expect(try toolchain.executor(cacheFolder: cacheFolder).probedVersion(of: try toolchain.runner()) == "1.2.40")
    #expect(toolchain.calls == 2)
  }

  @Test func anEntryOthersCanWriteIsNotTrusted() throws {
    let toolchain = try Toolchain(version: "1.2.3")
    defer { toolchain.remove() }
    let cacheFolder = toolchain.folder + "/cache"
    let runner = try toolchain.runner()
    let cache = VersionCache(directory: cacheFolder)
    cache.store("6.6.6", for: runner)
    #expect(cache.lookup(runner) == "6.6.6")
    let entry = cacheFolder + "/" + VersionCache.entryName(try #require(VersionCache.inputs(of: runner)))
    chmod(entry, 0o666)
    #expect(cache.lookup(runner) == nil)
    // Nor one reached through a symbolic link.
    chmod(entry, 0o600)
    try FileManager.default.moveItem(atPath: entry, toPath: entry + ".real")
    symlink(entry + ".real", entry)
    #expect(cache.lookup(runner) == nil)
    // Nor one whose recorded inputs are another runner's with the same name.
    unlink(entry)
    try FileManager.default.moveItem(atPath: entry + ".real", toPath: entry)
    let bytes = try Data(contentsOf: URL(fileURLWithPath: entry))
    try Data(String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "toy", with: "tox").utf8)
      .write(to: URL(fileURLWithPath: entry))
    #expect(cache.lookup(runner) == nil)
  }
}
