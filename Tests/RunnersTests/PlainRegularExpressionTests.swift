import Testing

@testable import Runners

/// The check that lets a runner's `version_pattern` skip `Regex` at load: whatever it passes must be
/// a pattern `Regex` compiles, and the shipped patterns must pass it.
@Suite struct PlainRegularExpressionTests {
  @Test func shippedPatternsArePlain() throws {
    let catalog = try RunnerCatalog.load(directory: repositoryRoot + "/runners")
    let patterns = catalog.languages.values.flatMap { $0.map(\.versionPattern) }
    #expect(patterns.count >= 7)
    for pattern in patterns { #expect(isPlainRegularExpression(pattern), "\(pattern)") }
  }

  @Test(arguments: [
    "(", ")", "a)", "[", "[]", "[z-a]", "a{2}", "(?i)x", "*a", "a**", "(+)", "[a&&b]", "[:alpha:]", "[a--b]",
    #"\d+"#, #"\"#, "a|b", "^a$", "[^a]", "[-a]", "[a-]x-", "é",
  ])
  func otherPatternsAreLeftToRegex(_ pattern: String) {
    #expect(!isPlainRegularExpression(pattern) || (try? Regex(pattern)) != nil)
  }

  @Test func knownPatternsAreJudgedRight() {
    #expect(isPlainRegularExpression("Implementation-Version: ([0-9A-Za-z.-]+)"))
    #expect(!isPlainRegularExpression("(unclosed"))
    #expect(!isPlainRegularExpression("[9-0]"))
  }

  /// Thousands of patterns drawn from regex punctuation and a few letters (seeded): every one the
  /// check passes compiles.
  @Test func everyPatternItPassesCompiles() {
    let alphabet = Array(#"()[]{}\.+*?-^$|&~:=aZ09 "#)
    var state: UInt64 = 0x5EED
    func next() -> UInt64 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return state >> 33
    }
    var passed = 0
    for _ in 0..<20_000 {
      let length = Int(next() % 9)
      let pattern = String((0..<length).map { _ in alphabet[Int(next() % UInt64(alphabet.count))] })
      guard isPlainRegularExpression(pattern) else { continue }
      passed += 1
      #expect((try? Regex(pattern)) != nil, "\(pattern)")
    }
    #expect(passed > 1_000)
  }
}
