import Foundation
import Grading
import Testing
import Wire

@testable import Challenges
@testable import Runners
@testable import Sandbox

/// The domain values behind the recorded answers (Tests/WireTests/golden), built from the fixtures,
/// go through the domain-to-wire conversions (`ExecuteResult.wire`, `GradeResult.wire`) and must give
/// the bytes today's encoders gave: steps parsed again from the run's stdout, compile-cache words
/// worked out again, numbers and keys written again.
@Suite struct DomainGoldenTests {
  static let directory = repositoryRoot + "/Tests/WireTests/golden"

  static func fixtures(_ kind: String) -> [String] {
    let files = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    return files.filter { name in
      guard name.hasSuffix(".response.json") || name.hasPrefix("cli-") && name.hasSuffix(".stdout") else {
        return false
      }
      let status = FileManager.default.contents(
        atPath: directory + "/" + name.replacingOccurrences(of: ".response.json", with: ".status"))
      if name.hasSuffix(".response.json"), status != Data("200".utf8) { return false }
      let bare = name.hasPrefix("cli-") ? String(name.dropFirst(4)) : name
      return (kind == "grade") == bare.hasPrefix("grade-")
    }.sorted()
  }

  static func recorded(_ name: String) -> Data {
    var data = FileManager.default.contents(atPath: directory + "/" + name) ?? Data()
    if data.last == UInt8(ascii: "\n") { data.removeLast() }
    return data
  }

  static func outcome(_ wire: WireOutcome) throws -> Outcome {
    Outcome(
      status: try #require(Status(rawValue: wire.status)), message: wire.message, exitCode: wire.exitCode,
      signal: wire.signal.flatMap { name in (1..<65).first { signalName($0) == name } },
      stdout: Data(wire.stdout.utf8), stderr: Data(wire.stderr.utf8), stdoutTruncated: wire.stdoutTruncated,
      stderrTruncated: wire.stderrTruncated, cpuMilliseconds: wire.cpuMilliseconds,
      wallMicroseconds: wire.wallMilliseconds * 1000, memoryKilobytes: wire.memoryKilobytes,
      timeLimitKind: wire.timeLimitKind.flatMap(TimeLimitKind.init(rawValue:)), accounting: wire.accounting)
  }

  @Test func fixturesArePresent() {
    #expect(Self.fixtures("execute").count >= 17)
    #expect(Self.fixtures("grade").count >= 8)
  }

  @Test(arguments: fixtures("execute"))
  func executeResultsEncodeAsRecorded(name: String) throws {
    let recorded = Self.recorded(name)
    let wire = try WireExecuteResult.read(recorded).get()
    let result = ExecuteResult(
      language: wire.language, version: wire.version, compile: try wire.compile.map(Self.outcome),
      run: try wire.run.map(Self.outcome), compileCacheHit: wire.compileCache == "hit", fileNames: [])
    let bytes = result.wire(exposeCompileCache: true).json.compactJSONBytes
    #expect(String(decoding: bytes, as: UTF8.self) == String(decoding: recorded, as: UTF8.self))
    #expect(Data(ResultEncoder.executeValue(result).compactJSONBytes) == recorded)
  }

  @Test(arguments: fixtures("grade"))
  func gradeResultsEncodeAsRecorded(name: String) throws {
    let recorded = Self.recorded(name)
    let wire = try WireGradeResult.read(recorded).get()
    var result = try #require(GradeResult(wire: wire))
    result.compile = try wire.compile.map(Self.outcome)
    let bytes = result.wire(exposeCompileCache: true).json.compactJSONBytes
    #expect(String(decoding: bytes, as: UTF8.self) == String(decoding: recorded, as: UTF8.self))
    #expect(ResultEncoder.data(GradeEncoder.gradeObject(result)) == recorded)
  }
}
