import Foundation
import Grading
import Sandbox
import Synchronization
import SystemCore
import Wire

/// A function test whose `args_file` or `expected_file` a daemon's catalogue read, checked and let
/// go: their values take several times the files' size in memory (33 MB of sample files held a
/// daemon at 170 MB at rest), and most challenges are not graded in a given hour. A grade reads them
/// again (`Challenge.loadingTestValues()`), from the same challenge directory opened the same way,
/// and takes them only when their digest is still the one checked at load; the values of the tests
/// graded last stay in `DeferredTestFiles.recent` for the next grade.
final class DeferredTestFiles: Sendable {
  enum Part: Sendable {
    case inline(FunctionValue)
    case file(path: String, digest: String)
  }

  /// What a grade needs of the test.
  struct Values: Sendable {
    var stdin: Data
    var expectedStdout: String?
    var arguments: [FunctionValue]
    var expected: FunctionValue?
  }

  let root: String
  let challenge: String
  let test: String
  let signature: FunctionSignature
  let comparison: FunctionComparison
  /// The arguments: from `args_file`, or inline (an array of the values in the signature's order).
  let arguments: Part
  let expected: Part?
  /// The files' size: what the recent values are counted by.
  let fileBytes: Int
  /// What the recent values are kept under: never the same for two, even after one is gone (a
  /// reload's tests may take a freed one's address).
  let serial = serials.add(1, ordering: .relaxed).newValue
  private static let serials = Atomic<UInt64>(0)

  init(
    root: String, challenge: String, test: String, signature: FunctionSignature, comparison: FunctionComparison,
    arguments: Part, expected: Part?, fileBytes: Int
  ) {
    self.root = root
    self.challenge = challenge
    self.test = test
    self.signature = signature
    self.comparison = comparison
    self.arguments = arguments
    self.expected = expected
    self.fileBytes = fileBytes
  }

  static func digest(_ contents: Data) -> String {
    var hash = SHA256()
    hash.update(contents)
    return hash.finalize()
  }

  /// The test's values: the recent ones, or read again and checked.
  func values() -> Result<Values, CheckerFailure> {
    if let kept = Self.recent.take(self) { return .success(kept) }
    let read = readAgain()
    if case .success(let values) = read { Self.recent.keep(values, for: self) }
    // The files' JSON trees are gone again; without this their pages stay resident as the heap's
    // high-water mark (a re-read of edit-distance after the two largest sample challenges gave 11 MB
    // back).
    releaseFreeHeapMemory()
    return read
  }

  private func readAgain() -> Result<Values, CheckerFailure> {
    let directory: ChallengeDirectory
    do {
      directory = try ChallengeDirectory(entry: challenge, of: try ChallengeDirectory(path: root))
    } catch {
      return .failure(changed("\(error)"))
    }
    let parser = FunctionSectionParser(reader: StrictReader())
    func contents(_ path: String, digest: String) -> Result<Data, CheckerFailure> {
      do {
        let data = try directory.read(path, limit: ChallengeLoader.maximumTestFileBytes)
        guard Self.digest(data) == digest else { return .failure(changed("\(path) is not the file checked at load")) }
        return .success(data)
      } catch {
        return .failure(changed("\(error)"))
      }
    }
    let argumentValues: [FunctionValue]
    switch arguments {
    case .inline(.array(let values)): argumentValues = values
    case .inline: return .failure(changed("the inline arguments are not an array"))
    case .file(let path, let digest):
      switch contents(path, digest: digest) {
      case .failure(let failure): return .failure(failure)
      case .success(let data):
        guard let values = parser.arguments(file: data, field: path, signature: signature) else {
          return .failure(changed(parser.reader.problems.first?.message ?? "\(path) no longer reads"))
        }
        argumentValues = values
      }
    }
    var expectedValue: FunctionValue?
    switch expected {
    case nil: expectedValue = nil
    case .inline(let value)?: expectedValue = value
    case .file(let path, let digest)?:
      switch contents(path, digest: digest) {
      case .failure(let failure): return .failure(failure)
      case .success(let data):
        let type = FunctionSectionParser.expectedType(signature, comparison: comparison)
        guard let value = parser.expected(file: data, field: path, type: type) else {
          return .failure(changed(parser.reader.problems.first?.message ?? "\(path) no longer reads"))
        }
        expectedValue = value
      }
    }
    return .success(Self.values(arguments: argumentValues, expected: expectedValue, signature: signature))
  }

  private func changed(_ why: String) -> CheckerFailure {
    CheckerFailure(
      "The challenge's test files changed since the daemon loaded them, which is not your fault.",
      detail: "challenge \(challenge), test \(test): \(why); reload the daemon (SIGHUP) to check them again")
  }

  /// The test's text for people (`stdin`, "intervals = [[1,3]]") and its expected output, as the
  /// loader makes them.
  static func values(arguments: [FunctionValue], expected: FunctionValue?, signature: FunctionSignature) -> Values {
    let shown = zip(signature.parameters, arguments).map { "\($0.name) = \($1.json)" }.joined(separator: "\n")
    return Values(
      stdin: Data((shown + "\n").utf8), expectedStdout: expected.map { $0.json + "\n" }, arguments: arguments,
      expected: expected)
  }

  /// The values of the tests graded last, at most `limitBytes` of their files (about six times that
  /// in memory): the largest sample challenge's, about 3 MiB, and a few small ones. The least
  /// recently used go first.
  static let recent = RecentTestValues(limitBytes: 4 << 20)
}

final class RecentTestValues: Sendable {
  private struct Entry {
    var values: DeferredTestFiles.Values
    var bytes: Int
    var used: UInt64
  }
  private struct State {
    var entries: [UInt64: Entry] = [:]
    var bytes = 0
    var clock: UInt64 = 0
  }
  let limitBytes: Int
  private let state = Mutex(State())

  init(limitBytes: Int) { self.limitBytes = limitBytes }

  var heldBytes: Int { state.withLock { $0.bytes } }

  func take(_ files: DeferredTestFiles) -> DeferredTestFiles.Values? {
    state.withLock { state in
      state.clock += 1
      guard var entry = state.entries[files.serial] else { return nil }
      entry.used = state.clock
      state.entries[files.serial] = entry
      return entry.values
    }
  }

  func keep(_ values: DeferredTestFiles.Values, for files: DeferredTestFiles) {
    guard files.fileBytes <= limitBytes else { return }
    state.withLock { state in
      state.clock += 1
      let key = files.serial
      if let old = state.entries[key] { state.bytes -= old.bytes }
      state.entries[key] = Entry(values: values, bytes: files.fileBytes, used: state.clock)
      state.bytes += files.fileBytes
      while state.bytes > limitBytes, let oldest = state.entries.min(by: { $0.value.used < $1.value.used }) {
        state.bytes -= oldest.value.bytes
        state.entries[oldest.key] = nil
      }
    }
  }
}

extension Challenge {
  /// The challenge with every test's values in place, read again where the catalogue let them go
  /// (`DeferredTestFiles`); a failure when a file changed since it was checked.
  public func loadingTestValues() -> Result<Challenge, CheckerFailure> {
    guard tests.contains(where: { $0.deferredFiles != nil }) else { return .success(self) }
    var loaded = self
    for index in loaded.tests.indices {
      guard let files = loaded.tests[index].deferredFiles else { continue }
      switch files.values() {
      case .failure(let failure): return .failure(failure)
      case .success(let values):
        loaded.tests[index].stdin = values.stdin
        loaded.tests[index].expectedStdout = values.expectedStdout
        loaded.tests[index].arguments = values.arguments
        loaded.tests[index].expected = values.expected
        loaded.tests[index].deferredFiles = nil
      }
    }
    return .success(loaded)
  }
}
