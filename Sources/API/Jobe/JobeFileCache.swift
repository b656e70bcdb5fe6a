import Foundation
import Synchronization

/// Jobe's file cache (`PUT`/`HEAD /files/{id}`), held in memory under a byte bound, least recently
/// used first out.
///
/// In memory rather than on disk: the files are small support files (CodeRunner's data files and
/// Java classes), a run reads them from here into its box without a disk round trip, and Jobe's
/// contract lets a cache lose any file at any time (a run naming a missing file gets 404, and
/// CodeRunner then PUTs its files again and retries), so a restart that empties it costs one retry.
/// Ids are kept apart per bearer token: a PUT overwrites without a content check, so a shared
/// namespace would let one tenant swap the file another tenant's runs read.
final class JobeFileCache: Sendable {
  private struct Entry {
    var contents: Data
    var lastUse: UInt64
  }

  private struct State {
    var entries: [String: Entry] = [:]
    var bytes = 0
    var clock: UInt64 = 0
  }

  /// The most bytes of file contents held at once.
  let capacityBytes: Int
  private let state = Mutex(State())

  init(capacityBytes: Int) {
    self.capacityBytes = capacityBytes
  }

  private static func key(_ id: String, owner: String) -> String { owner + "/" + id }

  /// Stores (or replaces) `id`; false when the file alone is over the bound.
  func put(_ id: String, owner: String, contents: Data) -> Bool {
    guard contents.count <= capacityBytes else { return false }
    let key = Self.key(id, owner: owner)
    state.withLock { state in
      state.clock += 1
      if let old = state.entries.removeValue(forKey: key) { state.bytes -= old.contents.count }
      while state.bytes + contents.count > capacityBytes,
        let oldest = state.entries.min(by: { $0.value.lastUse < $1.value.lastUse })
      {
        state.bytes -= oldest.value.contents.count
        state.entries.removeValue(forKey: oldest.key)
      }
      state.entries[key] = Entry(contents: contents, lastUse: state.clock)
      state.bytes += contents.count
    }
    return true
  }

  /// The file's contents, marked as just used; nil when it is not (or no longer) held.
  func get(_ id: String, owner: String) -> Data? {
    let key = Self.key(id, owner: owner)
    return state.withLock { state in
      guard var entry = state.entries[key] else { return nil }
      state.clock += 1
      entry.lastUse = state.clock
      state.entries[key] = entry
      return entry.contents
    }
  }

  /// Whether `id` is held (HEAD), which counts as a use: CodeRunner HEADs a file before the run that
  /// reads it.
  func contains(_ id: String, owner: String) -> Bool { get(id, owner: owner) != nil }

  /// Bytes held now.
  var bytes: Int { state.withLock { $0.bytes } }
}
