import Foundation
import Glibc

/// Toolchain versions probed once and kept on disk (`PrivateCacheFile`), so no run starts a
/// toolchain only to ask its version: `python3.11 --version` and its waits were 60 ms of every
/// `dsa-run --json` run.
///
/// An entry is keyed on what the answer depends on: the runner (language, version, probe and
/// pattern) and the identity (device, inode, size, modification time) of the probe's program and of
/// every file the runner requires. An upgraded or replaced toolchain changes one of those, so its
/// entry is a miss and the version is probed again. The entry holds those inputs in full and is used
/// only when they match byte for byte; its name is their hash.
public struct VersionCache: Sendable {
  public let directory: String
  static let magic = "dsa-run version cache 1\n"
  /// An entry's size at most: inputs are a few paths and numbers.
  static let maximumEntryBytes = 64 << 10

  public init(directory: String) {
    self.directory = directory
  }

  /// The version stored for `runner`; nil when none is, or its toolchain changed since.
  public func lookup(_ runner: Runner) -> String? {
    guard let inputs = Self.inputs(of: runner) else { return nil }
    let name = Self.entryName(inputs)
    guard let data = PrivateCacheFile.read(directory: directory, name: name, limit: Self.maximumEntryBytes) else {
      return nil
    }
    let prefix = Data((Self.magic + inputs).utf8)
    guard data.starts(with: prefix) else { return nil }
    let rest = data[(data.startIndex + prefix.count)...]
    guard rest.last == UInt8(ascii: "\n") else { return nil }
    let version = String(decoding: rest.dropLast(), as: UTF8.self)
    return version.isEmpty || version.contains("\n") ? nil : version
  }

  /// Keeps `version` for `runner`; best effort (nothing is kept while a file it names is missing).
  public func store(_ version: String, for runner: Runner) {
    guard !version.isEmpty, !version.contains("\n"), let inputs = Self.inputs(of: runner) else { return }
    PrivateCacheFile.write(
      Data((Self.magic + inputs + version + "\n").utf8), directory: directory, name: Self.entryName(inputs))
  }

  static func entryName(_ inputs: String) -> String { "version-" + FNV1a64.hex(Array(inputs.utf8)) }

  /// What a probe's answer depends on, one line each; nil when a file is missing (the runner is
  /// not available, and its version is the declared one anyway).
  static func inputs(of runner: Runner) -> String? {
    var lines = [
      runner.language, runner.version, runner.versionProbe.joined(separator: "\u{1F}"), runner.versionPattern,
    ]
    for path in Array(Set(runner.versionProbe.prefix(1) + runner.requires)).sorted() {
      var info = stat()
      guard stat(path, &info) == 0 else { return nil }
      lines.append(
        "\(path) \(info.st_dev):\(info.st_ino):\(info.st_size):\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)")
    }
    return lines.map { $0.replacingOccurrences(of: "\n", with: " ") }.joined(separator: "\n") + "\n"
  }
}
