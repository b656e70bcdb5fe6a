import Foundation
import Testing
import Wire

/// The recorded fixtures (golden/record.py): requests and answers of the daemon and `dsa-run --json`
/// output, as they were before the wire types existed.
enum Golden {
  static let directory = Bundle.module.resourceURL!.appendingPathComponent("golden").path

  static func names(_ suffix: String, prefix: String = "") -> [String] {
    let files = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    return files.filter { $0.hasSuffix(suffix) && $0.hasPrefix(prefix) }.map { String($0.dropLast(suffix.count)) }
      .sorted()
  }

  static func data(_ name: String) -> Data {
    FileManager.default.contents(atPath: directory + "/" + name) ?? Data()
  }

  static func status(_ name: String) -> Int { Int(String(decoding: data(name + ".status"), as: UTF8.self)) ?? 0 }

  /// A CLI fixture's stdout without its final newline.
  static func cliOutput(_ name: String) -> Data {
    var output = data("cli-" + name + ".stdout")
    if output.last == UInt8(ascii: "\n") { output.removeLast() }
    return output
  }

  static let executes = names(".response.json").filter {
    status($0) == 200 && !$0.hasPrefix("grade-") && !$0.hasPrefix("mistake-")
  }
  static let grades = names(".response.json", prefix: "grade-").filter { status($0) == 200 }
  static let cliExecutes = names(".stdout", prefix: "cli-").map { String($0.dropFirst(4)) }.filter {
    !$0.hasPrefix("grade-")
  }
  static let cliGrades = names(".stdout", prefix: "cli-grade-").map { String($0.dropFirst(4)) }
}

/// Bytes as text, for a readable failure.
private func text(_ bytes: some Collection<UInt8>) -> String { String(decoding: Array(bytes), as: UTF8.self) }

@Suite struct GoldenTests {
  @Test func fixturesArePresent() {
    #expect(Golden.executes.count >= 12)
    #expect(Golden.grades.count >= 5)
    #expect(Golden.cliExecutes.count >= 5)
    #expect(Golden.cliGrades.count >= 3)
  }

  /// Decoded into the wire type and encoded again: the same bytes the daemon sent.
  @Test(arguments: Golden.executes)
  func executeAnswersReencodeByteForByte(name: String) throws {
    let recorded = Golden.data(name + ".response.json")
    let result = try WireExecuteResult.read(recorded).get()
    #expect(text(result.json.compactJSONBytes) == text(recorded))
  }

  @Test(arguments: Golden.grades)
  func gradeAnswersReencodeByteForByte(name: String) throws {
    let recorded = Golden.data(name + ".response.json")
    let result = try WireGradeResult.read(recorded).get()
    #expect(text(result.json.compactJSONBytes) == text(recorded))
  }

  @Test(arguments: Golden.cliExecutes)
  func cliExecuteOutputReencodesByteForByte(name: String) throws {
    let recorded = Golden.cliOutput(name)
    let result = try WireExecuteResult.read(recorded).get()
    #expect(text(result.json.compactJSONBytes) == text(recorded))
  }

  @Test(arguments: Golden.cliGrades)
  func cliGradeOutputReencodesByteForByte(name: String) throws {
    let recorded = Golden.cliOutput(name)
    let result = try WireGradeResult.read(recorded).get()
    #expect(text(result.json.compactJSONBytes) == text(recorded))
  }

  /// Through Codable too (JSONDecoder in, JSONValue's bytes out), as a client of the module would.
  @Test func codableRoundTripGivesTheSameBytes() throws {
    for name in Golden.executes {
      let recorded = Golden.data(name + ".response.json")
      let result = try JSONDecoder().decode(WireExecuteResult.self, from: recorded)
      #expect(text(result.json.compactJSONBytes) == text(recorded), "\(name)")
    }
    for name in Golden.grades {
      let recorded = Golden.data(name + ".response.json")
      let result = try JSONDecoder().decode(WireGradeResult.self, from: recorded)
      #expect(text(result.json.compactJSONBytes) == text(recorded), "\(name)")
    }
  }

  /// The recorded request bodies read and written again as sent (compact, sorted keys).
  @Test func requestsReencodeByteForByte() throws {
    for name in Golden.executes {
      let recorded = Golden.data(name + ".request.json")
      let body = try ExecuteBody.read(recorded).get()
      #expect(text(body.json.compactJSONBytes) == text(recorded), "\(name)")
    }
    for name in Golden.grades {
      let recorded = Golden.data(name + ".request.json")
      let body = try GradeBody.read(recorded).get()
      #expect(text(body.json.compactJSONBytes) == text(recorded), "\(name)")
    }
  }

  /// A result with a key left out, or one too many, is refused by name.
  @Test func resultsAreReadStrictly() throws {
    var object = try #require(
      try JSONDecoder().decode(JSONValue.self, from: Golden.data("python-ok.response.json")).objectFields)
    object["extra"] = true
    object["steps_message"] = nil
    let refusal = WireExecuteResult.read(Data(JSONValue.object(object).compactJSONBytes))
    #expect(throws: JSONProblems.self) { try refusal.get() }
    if case .failure(let problems) = refusal {
      #expect(
        problems.problems.map(\.description) == [
          "extra: unknown key; known keys: language, version, compile, compile_cache, run, steps, steps_message",
          "steps_message: is required",
        ])
    }
  }
}

extension JSONValue {
  fileprivate var objectFields: [String: JSONValue]? {
    if case .object(let fields) = self { return fields }
    return nil
  }
}
