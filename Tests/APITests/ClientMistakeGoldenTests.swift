import Challenges
import Foundation
import HTTP
import SandboxTesting
import Testing

@testable import API

/// The client mistakes recorded from the daemon before the strict reader (`Tests/WireTests/golden`,
/// `mistake-*` and `grade-mistake-*`), sent again: each is still refused with the same status and
/// error code, and the words name the same fields. The words themselves were allowed to change (the
/// one reader says `limits.cpu_ms: expected a whole number, got 1.5` where the old readers each had
/// their own phrasing), so they are compared by the fields they name, not byte for byte.
@Suite struct ClientMistakeGoldenTests {
  static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("WireTests/golden").path

  static let names: [String] = {
    let files = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    return files.filter { $0.hasSuffix(".request.json") && $0.contains("mistake-") }
      .map { String($0.dropLast(".request.json".count)) }.sorted()
  }()

  static func contents(_ file: String) -> Data {
    FileManager.default.contents(atPath: directory + "/" + file) ?? Data()
  }

  /// Every quoted name and every field path (`limits.memory_mb`, `files[0].name`) in a message.
  static func fieldsNamed(in message: String) -> [String] {
    var fields: [String] = []
    let quoted = message.split(separator: "\"", omittingEmptySubsequences: false)
    for (index, part) in quoted.enumerated() where index % 2 == 1 && !part.contains(" ") && !part.isEmpty {
      fields.append(String(part))
    }
    for word in message.split(whereSeparator: { $0 == " " || $0 == ":" })
    where word.contains(".") && word.first?.isLetter == true && !word.hasSuffix(".") {
      fields.append(String(word))
    }
    return fields
  }

  static let router: APIRouter = {
    let challenges = ChallengeCatalog.load(root: TestExecutors.repositoryRoot + "/challenges")
    return APIRouter(
      executor: TestExecutors.fake(FakeEnvironmentPool()),
      configuration: APIConfiguration(slots: 1, maximumQueued: nil),
      challenges: challenges)
  }()

  @Test func theRecordedMistakesArePresent() {
    #expect(Self.names.count >= 18, "\(Self.names)")
  }

  @Test(arguments: names)
  func aRecordedMistakeIsRefusedAsBefore(name: String) throws {
    let recorded = try #require(
      try JSONSerialization.jsonObject(with: Self.contents(name + ".response.json")) as? [String: Any])
    let recordedError = try #require(recorded["error"] as? [String: Any])
    let recordedStatus = Int(String(decoding: Self.contents(name + ".status"), as: UTF8.self)) ?? 0
    let route = name.hasPrefix("grade-") ? "/v1/grade" : "/v1/execute"
    let body = String(decoding: Self.contents(name + ".request.json"), as: UTF8.self)
    let response = Self.router.handle(
      request("POST", route, body: body, headers: [("Content-Type", "application/json")]))
    #expect(Int(response.status.code) == recordedStatus, "\(name): \(response.text)")
    let error = try #require(response.error, "\(name): \(response.text)")
    #expect(error.code == recordedError["code"] as? String, "\(name): \(response.text)")
    for field in Self.fieldsNamed(in: recordedError["message"] as? String ?? "") {
      #expect(error.message.contains(field), "\(name): \(field) is not named in \(error.message)")
    }
  }
}
