import Foundation
import Glibc
import Testing

/// The daemon's state files (the SQLite store and its companions, the compile cache) are private to
/// it whatever the folder's mode and the umask, and a start on files others can read or write is
/// refused with the command that fixes them.
@Suite(.serialized, .timeLimit(.minutes(4)))
struct StateFileTests {
  static func mode(_ path: String) -> mode_t? {
    var info = stat()
    return lstat(path, &info) == 0 ? info.st_mode & 0o7777 : nil
  }

  /// umask 022 with the default file in a 0755 state folder; umask 000 with `sqlite:/PATH` in a 0755
  /// folder of its own, and a compiled program in the cache.
  @Test(arguments: [("022", false), ("000", true)])
  func storeFilesAreMadePrivateWhateverTheUmaskAndFolder(umask: String, customPath: Bool) throws {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let folder = directory + (customPath ? "/custom" : "/state")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    chmod(folder, 0o755)
    let store = folder + (customPath ? "/store.db" : "/submissions.sqlite3")
    var arguments: [String] = []
    if customPath {
      arguments = ["--config", try writeConfig(directory, ["submissions": ["store": "sqlite:" + store]])]
    }
    let daemon = try DaemonProcess(arguments: ["--slots", "1"] + arguments, directory: directory, umask: umask)
    defer { daemon.cleanUp(removeDirectory: false) }
    let body: [String: Any] =
      customPath
      ? ["language": "cpp", "source": "#include <cstdio>\nint main() { std::puts(\"private\"); }\n"]
      : ["language": "python", "source": "print('private')"]
    let accepted = try post(daemon, "/v1/submissions", body)
    let id = try #require(accepted.json["id"] as? String, "\(accepted.body)")
    var done = try curl(daemon.baseURL + "/v1/submissions/\(id)?wait=30", timeout: 60)
    for _ in 0..<3 where done.json["status"] as? String != "done" {
      done = try curl(daemon.baseURL + "/v1/submissions/\(id)?wait=30", timeout: 60)
    }
    #expect(done.json["status"] as? String == "done", "\(done.body)")
    #expect(Self.mode(folder) == 0o755)
    for file in [store, store + "-wal", store + "-shm"] {
      let found = Self.mode(file)
      #expect(found == 0o600, "\(file): \(found.map { String($0, radix: 8) } ?? "missing")")
    }
    if customPath {
      let objects = directory + "/cache/objects"
      let bundles = (try? FileManager.default.contentsOfDirectory(atPath: objects)) ?? []
      #expect(!bundles.isEmpty, "no compiled program was cached")
      for name in bundles { #expect(Self.mode(objects + "/" + name) == 0o600, "\(name)") }
      for path in [directory + "/cache", objects, directory + "/cache/tmp"] { #expect(Self.mode(path) == 0o700) }
    }
    #expect(try daemon.stop() == 0)
  }

  /// A file others can read or write (the store, a companion, a cache folder) stops the start with
  /// a line that names it and says how to fix it.
  @Test(arguments: [
    ("state/submissions.sqlite3", false, "chmod 600"), ("state/submissions.sqlite3-wal", false, "chmod 600"),
    ("cache", true, "chmod -R go-rwx"),
  ])
  func aStartOnFilesOthersCanReadIsRefused(loose: String, isFolder: Bool, fix: String) throws {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    try FileManager.default.createDirectory(atPath: directory + "/state", withIntermediateDirectories: true)
    chmod(directory + "/state", 0o700)
    let path = directory + "/" + loose
    if isFolder {
      try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
      chmod(path, 0o755)
    } else {
      if loose.hasSuffix("-wal") {
        let store = directory + "/state/submissions.sqlite3"
        #expect(FileManager.default.createFile(atPath: store, contents: nil))
        chmod(store, 0o600)
      }
      #expect(FileManager.default.createFile(atPath: path, contents: nil))
      chmod(path, 0o644)
    }
    _ = FileManager.default.createFile(atPath: directory + "/none.json", contents: Data("{}".utf8))
    var environment = ProcessInfo.processInfo.environment
    environment["DSA_RUN_DATA"] = repositoryRoot
    environment.removeValue(forKey: "NOTIFY_SOCKET")
    let finished = try runProcess(
      daemonBinary,
      [
        "--config", directory + "/none.json", "--listen", "127.0.0.1:0", "--work-root", testWorkRoot,
        "--cache-dir", directory + "/cache", "--state-dir", directory + "/state",
      ], environment: environment, timeout: .seconds(60))
    #expect(finished.status == 1, "\(finished.stderr)")
    let errors = finished.stderr.split(separator: "\n").compactMap {
      (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
    }.filter { $0["event"] as? String == "error" }
    let message = errors.first?["message"] as? String ?? ""
    #expect(message.contains("\(fix) \(path)"), "\(finished.stderr)")
    #expect(!finished.stderr.contains("\"started\""))
    // Nothing was tightened behind the operator's back.
    #expect(Self.mode(path) == (isFolder ? 0o755 : 0o644))
  }
}
