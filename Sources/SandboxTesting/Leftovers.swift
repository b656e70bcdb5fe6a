import Foundation
import Glibc

/// The box directories under `workRoot`, the mounts and the cgroups that the dsa-run process `pid`
/// made and did not remove: what a test of a CLI that was interrupted, killed or ended looks for.
public func leftovers(of pid: Int32, workRoot: String = "/run/dsa-run") -> [String] {
  var found: [String] = []
  let prefix = "\(pid)-"
  for entry in (try? FileManager.default.contentsOfDirectory(atPath: workRoot + "/boxes")) ?? []
  where entry.hasPrefix(prefix) {
    found.append(workRoot + "/boxes/" + entry)
  }
  for line in wholeProcFile("/proc/self/mountinfo").split(separator: "\n") where line.contains("/boxes/\(prefix)") {
    found.append(String(line))
  }
  func walk(_ directory: String, depth: Int) {
    guard depth > 0 else { return }
    for entry in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] {
      let path = directory + "/" + entry
      var info = stat()
      guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { continue }
      if entry.hasPrefix("dsa-run-\(prefix)") { found.append(path) } else { walk(path, depth: depth - 1) }
    }
  }
  walk("/sys/fs/cgroup", depth: 4)
  return found
}

/// A /proc file read to its end: its size is 0 to stat, and Foundation's String(contentsOfFile:)
/// stops after the first 4 KB of it, so mounts past that were never seen.
func wholeProcFile(_ path: String) -> String {
  let descriptor = open(path, O_RDONLY | O_CLOEXEC)
  guard descriptor >= 0 else { return "" }
  defer { close(descriptor) }
  var bytes: [UInt8] = []
  var chunk = [UInt8](repeating: 0, count: 65536)
  while true {
    let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
    if count < 0 && errno == EINTR { continue }
    guard count > 0 else { break }
    bytes += chunk[0..<count]
  }
  return String(decoding: bytes, as: UTF8.self)
}
