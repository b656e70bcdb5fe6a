import Foundation
import Grading
import Sandbox
import Synchronization
import SystemCore
import Wire

/// A function test whose `args_file` or `expected_file` a daemon's catalogue read, checked and let
/// go: their values take several times the files' size in memory (26 MB of sample test files held a
/// daemon at 169 MB at rest), and most challenges are not graded in a given hour. A grade reads them
/// again (`Challenge.loadingTestValues()`), from the same challenge directory opened the same way,
/// and takes them only when their digest is still the one checked at load; the values of the tests
/// graded last stay in `DeferredTestFiles.recent` for the next grade.
final class DeferredTestFiles: Sendable {
  /// A value written in challenge.json, or the file that holds it and that file's SHA-256.
  enum Part<Value: Sendable>: Sendable {
    case inline(Value)
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
  /// The arguments in the signature's order.
  let arguments: Part<[FunctionValue]>
  let expected: Part<FunctionValue>?
  /// The files' size: what the recent values are counted by.
  let fileBytes: Int
  /// What the recent values are kept under: never the same for two, even after one is gone (a
  /// reload's tests may take a freed one's address).
  let serial = serials.add(1, ordering: .relaxed).newValue
  private static let serials = Atomic<UInt64>(0)

  init(
    root: String, challenge: String, test: String, signature: FunctionSignature, comparison: FunctionComparison,
    arguments: Part<[FunctionValue]>, expected: Part<FunctionValue>?, fileBytes: Int
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

  /// The test's values: the recent ones, or read again and checked.
  func values() -> Result<Values, CheckerFailure> {
    if let kept = Self.recent.get(serial) { return .success(kept) }
    let read = readAgain()
    if case .success(let values) = read { _ = Self.recent.put(serial, values, bytes: fileBytes) }
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
        guard SHA256.hex(data) == digest else { return .failure(changed("\(path) is not the file checked at load")) }
        return .success(data)
      } catch {
        return .failure(changed("\(error)"))
      }
    }
    let argumentValues: [FunctionValue]
    switch arguments {
    case .inline(let values): argumentValues = values
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

  /// The values of the tests graded last, keyed by `serial`, at most 4 MiB of their files (about ten
  /// times that in memory): the largest sample challenge's, about 3.4 MB, and a few small ones.
  static let recent = LeastRecentlyUsed<UInt64, Values>(capacityBytes: 4 << 20)
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
