import Foundation
import Testing
import Wire

@testable import API

/// The pure parts of the Judge0 CE routes: argument splitting, the zip reader, the status decision
/// and the output comparison (the end-to-end tests are Tests/compat/judge0_test.py).
@Suite struct Judge0ModelTests {
  @Test func argumentsSplitAsBashWouldAfterJudge0DropsItsCharacters() {
    #expect(Judge0Model.splitArguments("a \"b c\" 'd e' f\\ g") == ["a", "b c", "d e", "f g"])
    #expect(Judge0Model.splitArguments("  spaced\tout  ") == ["spaced", "out"])
    #expect(Judge0Model.splitArguments("\"say \\\"hi\\\"\" 'single \\ stays'") == ["say \"hi\"", "single \\ stays"])
    #expect(Judge0Model.splitArguments("\"\" ''") == ["", ""])
    // $ & ; < > | and the backquote are dropped before bash sees the line, so nothing expands.
    #expect(Judge0Model.splitArguments("$HOME;rm -rf / | `id` > out") == ["HOMErm", "-rf", "/", "id", "out"])
    #expect(Judge0Model.splitArguments("'open") == nil)
    #expect(Judge0Model.splitArguments("\"open") == nil)
    #expect(Judge0Model.splitArguments("") == [])
  }

  @Test func outputIsComparedAsStripOutputDoes() {
    #expect(Judge0Model.stripOutput("a  \nb\t\n\n\n") == "a\nb")
    #expect(Judge0Model.stripOutput("  lead\n") == "  lead")
    #expect(Judge0Model.stripOutput("x\r\n") == "x")
    #expect(Judge0Model.stripOutput("a\n\nb") == "a\n\nb")
    #expect(Judge0Model.stripOutput("nul\0\n") == "nul")
  }

  private func run(
    _ status: String, exit: Int32? = 0, signal: String? = nil, stdout: String = "", message: String = "why"
  ) -> WireOutcome {
    WireOutcome(
      status: status, message: message, exitCode: exit, signal: signal, stdout: stdout, stderr: "",
      stdoutTruncated: false, stderrTruncated: false, cpuMilliseconds: 1, wallMilliseconds: 1, memoryKilobytes: 1,
      accounting: "cgroup")
  }

  @Test func statusDecisionFollowsIsolateJob() {
    #expect(Judge0Model.verdict(run: run("ok", stdout: "1\n"), expectedOutput: nil).statusID == 3)
    #expect(Judge0Model.verdict(run: run("ok", stdout: "1\n"), expectedOutput: "1").statusID == 3)
    #expect(Judge0Model.verdict(run: run("ok", stdout: "1\n"), expectedOutput: "2").statusID == 4)
    #expect(
      Judge0Model.verdict(run: run("time_limit", exit: nil, signal: "SIGKILL"), expectedOutput: nil).statusID == 5)
    let segv = Judge0Model.verdict(run: run("runtime_error", exit: nil, signal: "SIGSEGV"), expectedOutput: nil)
    #expect(segv == .init(statusID: 7, message: "Caught fatal signal 11", exitCode: 0, exitSignal: 11))
    #expect(
      Judge0Model.verdict(run: run("runtime_error", exit: nil, signal: "SIGXFSZ"), expectedOutput: nil).statusID == 8)
    #expect(
      Judge0Model.verdict(run: run("runtime_error", exit: nil, signal: "SIGFPE"), expectedOutput: nil).statusID == 9)
    #expect(
      Judge0Model.verdict(run: run("runtime_error", exit: nil, signal: "SIGABRT"), expectedOutput: nil).statusID == 10)
    let nzec = Judge0Model.verdict(run: run("runtime_error", exit: 3), expectedOutput: "ignored")
    #expect(nzec == .init(statusID: 11, message: "Exited with error status 3", exitCode: 3, exitSignal: nil))
    #expect(Judge0Model.verdict(run: run("internal_error", exit: nil), expectedOutput: nil).statusID == 13)
    // No memory status in Judge0: where the death puts it, with our words kept in message.
    let memory = Judge0Model.verdict(
      run: run("memory_limit", exit: nil, signal: "SIGKILL", message: "Ran out of memory"), expectedOutput: nil)
    #expect(memory == .init(statusID: 12, message: "memory_limit: Ran out of memory", exitCode: 0, exitSignal: 9))
    let forbidden = Judge0Model.verdict(run: run("forbidden", exit: nil, signal: "SIGSYS"), expectedOutput: nil)
    #expect(forbidden.statusID == 12 && forbidden.message == "forbidden: why")
  }

  @Test func unitsAndBase64AreJudge0s() {
    #expect(Judge0Model.seconds(5) == "5.0")
    #expect(Judge0Model.seconds(0.012) == "0.012")
    #expect(Judge0Model.seconds(0.1) == "0.1")
    #expect(Judge0Model.timestamp(milliseconds: 1_704_164_645_678) == "2024-01-02T03:04:05.678Z")
    #expect(Judge0Model.timestamp(milliseconds: -1) == "1969-12-31T23:59:59.999Z")
  }

  /// The arithmetic date against Foundation's ISO 8601 formatter, across leap days, century years
  /// (1900 and 2100 are no leap years, 2000 is), month ends and times before 1970.
  @Test(arguments: [
    "1900-02-28T23:59:59.999Z", "1900-03-01T00:00:00.000Z", "1969-12-31T00:00:00.001Z", "1970-01-01T00:00:00.000Z",
    "2000-02-29T12:34:56.789Z", "2000-12-31T23:59:59.000Z", "2024-02-29T00:00:00.500Z", "2026-12-01T20:39:23.017Z",
    "2100-02-28T23:00:00.000Z", "2100-03-01T01:02:03.004Z", "9999-12-31T23:59:59.999Z",
  ])
  func timestampsAreFoundationsISO8601(_ expected: String) throws {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    let date = try #require(formatter.date(from: expected))
    let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
    #expect(Judge0Model.timestamp(milliseconds: milliseconds) == expected)
    #expect(Judge0Model.timestamp(milliseconds: milliseconds) == formatter.string(from: date))
    let long = Judge0Model.encode64(Data(String(repeating: "x", count: 50).utf8))
    #expect(long.split(separator: "\n").map(\.count) == [60, 8] && long.hasSuffix("\n"))
    #expect(Judge0Model.encode64(Data()) == "")
    #expect(Judge0Model.decode64("aGk\n") == Data("hi".utf8))
    #expect(Judge0Model.decode64("not base64!") == nil)
  }

  @Test func fieldsAreTheThirtyFiveAttributesOrTheDefaultEight() throws {
    #expect(Judge0Model.attributes.count == 35 && Set(Judge0Model.attributes).count == 35)
    #expect(try Judge0Model.fields(nil).get() == Judge0Model.defaultFields)
    #expect(try Judge0Model.fields("*").get() == Judge0Model.attributes)
    guard case .failure(let unknown) = Judge0Model.fields("stdout,ours,nope") else {
      Issue.record("unknown field names were taken")
      return
    }
    #expect(unknown.message == "invalid fields: [ours, nope]")
  }

  @Test func tokensAreUUID4SpellingsOfStoredIDs() {
    let id = Judge0API.uuid4ID("0123456789abcdef0123456789abcdef")
    let token = Judge0API.token(id)
    #expect(token == "01234567-89ab-4def-8123-456789abcdef")
    #expect(UUID(uuidString: token) != nil)
    #expect(Judge0API.id(token) == id)
    #expect(Judge0API.id("0123456789abcdef0123456789abcdef") == nil)
  }

  /// The token making `uuid4ID` and `judge0Token` had before they worked on bytes.
  static func characterToken(_ id: String) -> String {
    var characters = Array(id)
    characters[12] = "4"
    let variant = Int(String(characters[16]), radix: 16) ?? 0
    characters[16] = Character(String((variant & 0x3) | 0x8, radix: 16))
    return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(characters[$0]) }.joined(separator: "-")
  }

  @Test func tokensAreMadeAsTheCharacterFormulaMadeThem() {
    var generator = SystemRandomNumberGenerator()
    let digits = Array("0123456789abcdef")
    var ids: [String] = []
    // Every digit at the variant's and the version's places, the rest random.
    for variant in digits {
      for version in digits {
        var id = (0..<32).map { _ in digits[Int(generator.next() % 16)] }
        id[16] = variant
        id[12] = version
        ids.append(String(id))
      }
    }
    for _ in 0..<200 { ids.append(String((0..<32).map { _ in digits[Int(generator.next() % 16)] })) }
    for id in ids {
      #expect(Judge0API.token(Judge0API.uuid4ID(id)) == Self.characterToken(id), "\(id)")
    }
  }

  /// The formula `seconds` had before it was written in integers (Ruby's `Float#to_s` for times).
  static func formattedSeconds(_ value: Double) -> String {
    let rounded = (value * 1000).rounded() / 1000
    if rounded == rounded.rounded() { return String(format: "%.1f", rounded) }
    var text = String(format: "%.3f", rounded)
    while text.hasSuffix("0") { text.removeLast() }
    return text
  }

  @Test func secondsAreWrittenAsTheFormatterWroteThem() {
    for milliseconds in Array(-2_000...70_000) + [999_999, 1_000_001, 86_400_000, 3_600_000_123] {
      let expected = Self.formattedSeconds(Double(milliseconds) / 1000)
      #expect(Judge0Model.seconds(milliseconds: Int64(milliseconds)) == expected, "\(milliseconds) ms")
      #expect(Judge0Model.seconds(Double(milliseconds) / 1000) == expected, "\(milliseconds) ms")
    }
    for value in [0.0004, 0.0005, 0.0015, 1.2345, 59.9999, 2.5e-7] {
      #expect(Judge0Model.seconds(value) == Self.formattedSeconds(value), "\(value) s")
    }
  }

  /// The token reading `judge0ID` had before it became one pass over the bytes.
  static func splitTokenID(_ token: String) -> String? {
    let parts = token.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.map(\.count) == [8, 4, 4, 4, 12] else { return nil }
    let id = parts.joined().lowercased()
    return id.utf8.count == 32 && id.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
      ? id : nil
  }

  @Test func tokensAreReadAsTheSplittingReaderReadThem() {
    let good = "01234567-89ab-4def-8123-456789abcdef"
    var tokens = [
      good, good.uppercased(), "", "-", String(good.dropLast()), good + "0",
      good.replacingOccurrences(of: "-", with: ""),
      "0123456-789ab-4def-8123-456789abcdef", "01234567-89ab-4def-8123-456789abcdeg",
      "01234567_89ab_4def_8123_456789abcdef",
      "01234567-89ab-4def-8123-456789abcdé", "0123456\u{212A}-89ab-4def-8123-456789abcdef",
      "01234567-89ab-4def-8123--56789abcdef",
    ]
    // Every single-byte change of a good token, over an alphabet of what tokens and near-misses hold.
    let alphabet = Array("0189afAFgG-_ %/.")
    for position in good.indices {
      for replacement in alphabet {
        var changed = good
        changed.replaceSubrange(position...position, with: String(replacement))
        tokens.append(changed)
      }
    }
    for token in tokens {
      #expect(Judge0API.id(token) == Self.splitTokenID(token), "\(token)")
    }
  }

  // Archives made by Python's zipfile.
  static let deflated =
    "UEsDBBQAAAAIAAAAIQAv+vhICwAAAHgAAAAFAAAAYS50eHTLSM3JyVfIoDsJAFBLAwQUAAAACAAAACEAacxAkQUAAAADAAAACQAAAGRpci9iLnR4dEtKTQUAUEsBAhQDFAAAAAgAAAAhAC/6+EgLAAAAeAAAAAUAAAAAAAAAAAAAAIABAAAAAGEudHh0UEsBAhQDFAAAAAgAAAAhAGnMQJEFAAAAAwAAAAkAAAAAAAAAAAAAAIABLgAAAGRpci9iLnR4dFBLBQYAAAAAAgACAGoAAABaAAAAAAA="
  static let stored =
    "UEsDBBQAAAAAAAAAIQDPYiAZBQAAAAUAAAAFAAAAcy50eHRwbGFpblBLAQIUAxQAAAAAAAAAIQDPYiAZBQAAAAUAAAAFAAAAAAAAAAAAAACAAQAAAABzLnR4dFBLBQYAAAAAAQABADMAAAAoAAAAAAA="
  static let traversal =
    "UEsDBBQAAAAAAAAAIQCDFtyMAQAAAAEAAAAEAAAALi4veHhQSwECFAMUAAAAAAAAACEAgxbcjAEAAAABAAAABAAAAAAAAAAAAAAAgAEAAAAALi4veFBLBQYAAAAAAQABADIAAAAjAAAAAAA="
  /// 100000 NULs deflated to 114 bytes.
  static let bomb =
    "UEsDBBQAAAAIAAAAIQB9lRHUcgAAAKCGAQABAAAAeu3BMQEAAADCoPVPbQ0PoAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAIBXA1BLAQIUAxQAAAAIAAAAIQB9lRHUcgAAAKCGAQABAAAAAAAAAAAAAACAAQAAAAB6UEsFBgAAAAABAAEALwAAAJEAAAAAAA=="
  /// The same, its headers claiming 10 bytes.
  static let lyingBomb =
    "UEsDBBQAAAAIAAAAIQB9lRHUcgAAAAoAAAABAAAAeu3BMQEAAADCoPVPbQ0PoAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAIBXA1BLAQIUAxQAAAAIAAAAIQB9lRHUcgAAAAoAAAABAAAAAAAAAAAAAACAAQAAAAB6UEsFBgAAAAABAAEALwAAAJEAAAAAAA=="
  static let bzip2 =
    "UEsDBC4AAAAMAAAAIQBPwGakJwAAAAoAAAABAAAAcUJaaDkxQVkmU1mm2BASAAACQIABACAAIAAhAIILF3JFOFCQptgQElBLAQIuAy4AAAAMAAAAIQBPwGakJwAAAAoAAAABAAAAAAAAAAAAAACAAQAAAABxUEsFBgAAAAABAAEALwAAAEYAAAAAAA=="

  private func entries(_ base64: String, maximum: Int = 1 << 20) throws(Judge0Zip.Problem) -> [Judge0Zip.Entry] {
    try Judge0Zip.entries(of: Data(base64Encoded: base64)!, maximumBytes: maximum)
  }

  private func refusal(_ base64: String, maximum: Int = 1 << 20) -> String? {
    do throws(Judge0Zip.Problem) {
      _ = try entries(base64, maximum: maximum)
      return nil
    } catch {
      return error.message
    }
  }

  @Test func zipReaderUnpacksStoredAndDeflatedEntries() throws {
    #expect(
      try entries(Self.deflated) == [
        .init(name: "a.txt", contents: Data(String(repeating: "hello ", count: 20).utf8)),
        .init(name: "dir/b.txt", contents: Data("bee".utf8)),
      ])
    #expect(try entries(Self.stored) == [.init(name: "s.txt", contents: Data("plain".utf8))])
  }

  @Test func zipReaderRefusesTraversalBombsAndTheUnknown() {
    #expect(refusal(Self.traversal)?.contains("entry \"../x\"") == true)
    #expect(refusal(Self.bomb, maximum: 65536)?.contains("zip bomb") == true)
    #expect(refusal(Self.bomb, maximum: 100_000) == nil)
    #expect(refusal(Self.lyingBomb)?.contains("does not inflate to its stated 10 bytes") == true)
    #expect(refusal(Self.bzip2)?.contains("compression method 12") == true)
    #expect(refusal(Data("not a zip".utf8).base64EncodedString())?.contains("is not a zip archive") == true)
    var damaged = Data(base64Encoded: Self.stored)!
    damaged[38] ^= 0xFF
    #expect(refusal(damaged.base64EncodedString())?.contains("CRC") == true)
  }
}
