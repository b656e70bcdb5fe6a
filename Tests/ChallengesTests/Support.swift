import Foundation
import Glibc
import SandboxTesting
import Testing

@testable import Challenges
@testable import Runners
@testable import Sandbox

let repositoryRoot = TestExecutors.repositoryRoot

/// A directory under the system's temporary folder, removed by `remove()`.
struct TemporaryDirectory {
  let path: String

  init() throws {
    let template = NSTemporaryDirectory() + "dsa-run-challenges-XXXXXX"
    var bytes = Array(template.utf8CString)
    guard let made = mkdtemp(&bytes) else { throw POSIXError(.EIO) }
    path = String(validatingCString: made) ?? template
  }

  func remove() { try? FileManager.default.removeItem(atPath: path) }
}

/// A challenge written as files: challenge.json from `description` (or `rawDescription`), the other
/// files, and symbolic links.
struct ChallengeFixture {
  var id = "sample"
  var description: [String: Any]
  var rawDescription: Data?
  var files: [String: Data]
  var links: [String: String] = [:]

  /// A valid steps challenge: insertion sort, recorder, output checker, two tests.
  static func insertionSort() -> ChallengeFixture {
    ChallengeFixture(
      description: [
        "title": "Insertion sort",
        "statement": "statement.md",
        "tags": ["sorting", "steps"],
        "checker": ["name": "steps", "options": ["fields": ["action", "active", "array"]]],
        "output_checker": ["name": "lines"],
        "recorder": ["name": "insertion-sort"],
        "tests": [
          ["name": "sample", "stdin": "tests/sample.in", "expected_stdout": "tests/sample.out"],
          ["name": "reversed", "stdin": "tests/reversed.in", "expected_stdout": "tests/reversed.out", "points": 2],
        ],
      ],
      files: [
        "statement.md": Data("Sort the array by insertion, printing each step.\n".utf8),
        "tests/sample.in": Data("3\n5 2 4\n".utf8),
        "tests/sample.out": Data("2 4 5\n".utf8),
        "tests/reversed.in": Data("4\n4 3 2 1\n".utf8),
        "tests/reversed.out": Data("1 2 3 4\n".utf8),
      ])
  }

  /// A valid output challenge: sum the integers, compared by tokens.
  static func sum(tests: Int = 3) -> ChallengeFixture {
    var fixture = ChallengeFixture(
      id: "sum",
      description: ["title": "Sum", "statement": "statement.md", "checker": ["name": "tokens"], "tests": []],
      files: ["statement.md": Data("Print the sum.\n".utf8)])
    var list: [[String: Any]] = []
    for index in 1...tests {
      let numbers = (1...index).map { $0 * 7 }
      fixture.files["tests/\(index).in"] = Data(numbers.map(String.init).joined(separator: " ").utf8)
      fixture.files["tests/\(index).out"] = Data("\(numbers.reduce(0, +))\n".utf8)
      list.append(["stdin": "tests/\(index).in", "expected_stdout": "tests/\(index).out"])
    }
    fixture.description["tests"] = list
    return fixture
  }

  subscript(key: String) -> Any? {
    get { description[key] }
    set { description[key] = newValue }
  }

  /// Sets a key of test `index`.
  mutating func setTest(_ index: Int, _ key: String, _ value: Any?) {
    var tests = description["tests"] as! [[String: Any]]
    tests[index][key] = value
    description["tests"] = tests
  }

  /// Writes the challenge as `<root>/<id>` and returns that path.
  @discardableResult
  func write(under root: String) throws -> String {
    let directory = root + "/" + id
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let json = try rawDescription ?? JSONSerialization.data(withJSONObject: description, options: [.sortedKeys])
    try json.write(to: URL(fileURLWithPath: directory + "/challenge.json"))
    for (name, contents) in files {
      let path = directory + "/" + name
      try FileManager.default.createDirectory(
        atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
      try contents.write(to: URL(fileURLWithPath: path))
    }
    for (name, target) in links {
      let path = directory + "/" + name
      try FileManager.default.createDirectory(
        atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
      try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
    }
    return directory
  }

  /// Writes and loads the challenge in a temporary directory.
  func load() throws -> Result<Challenge, ChallengeLoadError> {
    let temporary = try TemporaryDirectory()
    defer { temporary.remove() }
    return ChallengeLoader.load(directory: try write(under: temporary.path))
  }
}

/// One executor for the whole run: the shipped runners and policies, warm boxes, a private work
/// root and compile cache.
enum GradingFixture {
  static let executor = TestExecutors.warm(workRoot: "/run/dsa-run-challenge-tests", name: "challenge")

  static let grader = Grader(executor: executor)

  static func isInstalled(_ language: String) -> Bool {
    executor.catalog.language(named: language)?.contains(where: \.isAvailable) == true
  }
}

extension Result where Failure == ChallengeLoadError {
  /// The problems' descriptions, or [] when the challenge loaded.
  var problems: [String] {
    if case .failure(let error) = self { return error.problems.map(\.description) }
    return []
  }
}
