import Testing

@testable import Submissions

/// The text[] literals results and ids are sent in: every quote and backslash escaped, nothing else
/// touched (the daemon tests on a real server read them back).
@Suite struct PostgresLiteralTests {
  @Test func quotesAndBackslashesAreEscapedAndNothingElse() {
    #expect(PostgresStore.textArray([]) == "{}")
    #expect(PostgresStore.textArray([""]) == #"{""}"#)
    #expect(
      PostgresStore.textArray(["plain", #"{"stdout":"a\"b\\n"}"#, "é ✓", "{,}"])
        == #"{"plain","{\"stdout\":\"a\\\"b\\\\n\"}","é ✓","{,}"}"#)
  }
}
