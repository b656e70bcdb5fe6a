import Foundation
import SystemCore

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
  /// The most bytes held at once: each file's contents plus `entryOverheadBytes`, so a flood of
  /// empty files is bounded too.
  var capacityBytes: Int { files.capacityBytes }
  let entryOverheadBytes: Int
  private let files: LeastRecentlyUsed<String, Data>

  init(capacityBytes: Int, entryOverheadBytes: Int = 256) {
    files = LeastRecentlyUsed(capacityBytes: capacityBytes)
    self.entryOverheadBytes = entryOverheadBytes
  }

  private static func key(_ id: String, owner: String) -> String { owner + "/" + id }

  /// Stores (or replaces) `id`; false when the file alone is over the bound.
  func put(_ id: String, owner: String, contents: Data) -> Bool {
    files.put(Self.key(id, owner: owner), contents, bytes: contents.count + entryOverheadBytes)
  }

  /// The file's contents, marked as just used; nil when it is not (or no longer) held.
  func get(_ id: String, owner: String) -> Data? { files.get(Self.key(id, owner: owner)) }

  /// Whether `id` is held (HEAD), which counts as a use: CodeRunner HEADs a file before the run that
  /// reads it.
  func contains(_ id: String, owner: String) -> Bool { get(id, owner: owner) != nil }

  /// Bytes held now, overheads included.
  var bytes: Int { files.heldBytes }
}
