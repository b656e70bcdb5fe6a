import Foundation
import Testing
import Wire

@testable import Challenges

// A challenge's `topic` (docs/challenges.md, "Topics"): one of a fixed vocabulary, checked at load,
// carried in the list the page and the CLI group by. The refusals are in `brokenCases`.

@Suite struct TopicTests {
  @Test func aTopicOfTheVocabularyLoads() throws {
    var fixture = ChallengeFixture.insertionSort()
    fixture["topic"] = "Sorting"
    #expect(try fixture.load().get().topic == "Sorting")
    var inline = ChallengeFixture.sum().description
    inline["topic"] = "Arrays and hashing"
    inline["statement"] = "Print the sum."
    inline["tests"] = [["stdin": "1 2", "expected_stdout": "3\n"]]
    let data = try JSONSerialization.data(withJSONObject: inline)
    #expect(try ChallengeLoader.decodeInline(data).get().topic == "Arrays and hashing")
    inline["topic"] = "Hashing"
    let refused = ChallengeLoader.decodeInline(try JSONSerialization.data(withJSONObject: inline))
    #expect(refused.problems.contains { $0.contains(#"topic: "Hashing" is not a topic"#) }, "\(refused.problems)")
  }

  @Test func headingsFollowTheVocabularyWithOtherLast() {
    #expect(
      ChallengeTopics.ordered([nil, "Sorting", "Arrays and hashing", "Sorting"]) == [
        "Arrays and hashing", "Sorting", "Other",
      ])
    #expect(ChallengeTopics.ordered(["Graphs"]) == ["Graphs"])
    #expect(!ChallengeTopics.all.contains(ChallengeTopics.other))
    #expect(Set(ChallengeTopics.all).count == ChallengeTopics.all.count)
  }

  @Test func theListCarriesTheTopicOrNull() throws {
    var fixture = ChallengeFixture.insertionSort()
    let untopical = try fixture.load().get()
    #expect(GradeEncoder.summaryObject(untopical)["topic"] is NSNull)
    #expect(GradeEncoder.challengeObject(untopical)["topic"] is NSNull)
    fixture["topic"] = "Sorting"
    let sorting = try fixture.load().get()
    #expect(GradeEncoder.summaryObject(sorting)["topic"] as? String == "Sorting")
    #expect(GradeEncoder.challengeObject(sorting)["topic"] as? String == "Sorting")
  }

  /// The shipped catalogue: each of these is where a learner would look for it.
  @Test func shippedChallengesHaveTheirTopics() throws {
    let catalog = ChallengeCatalog.load(root: repositoryRoot + "/challenges")
    let expected = [
      "insertion-sort": "Sorting", "guess-the-number": "Searching", "reverse-linked-list": "Linked lists",
      "two-sum-indices": "Arrays and hashing", "count-components": "Union-find", "range-sum-queries": "Range queries",
      "dijkstra-relaxations": "Shortest paths", "edit-distance": "Dynamic programming",
    ]
    for (id, topic) in expected { #expect(catalog.challenges[id]?.topic == topic, "\(id)") }
  }

  @Test func theCLIListsByTopic() throws {
    let data = try CLIData()
    defer { data.directory.remove() }
    var pairs = ChallengeFixture.sum()
    pairs.id = "pairs"
    pairs["topic"] = "Arrays and hashing"
    try pairs.write(under: data.path + "/challenges")
    let listed = try runCLI(["challenges"], data: data.path)
    #expect(listed.status == 0, "\(listed.stderr)")
    let lines = listed.stdout.split(separator: "\n").map(String.init)
    #expect(
      lines.map { $0.prefix(8) } == ["Arrays a", "  pairs ", "Other", "  sample", "  sum   "], "\(listed.stdout)")
    #expect(lines[1] == "  pairs   Sum  (3 tests)", "\(listed.stdout)")
    let json = try runCLI(["challenges", "--json"], data: data.path)
    let rows = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
    #expect(rows.map { $0["id"] as? String } == ["pairs", "sample", "sum"])
    #expect(rows[0]["topic"] as? String == "Arrays and hashing" && rows[1]["topic"] is NSNull)
    let shown = try runCLI(["challenges", "show", "pairs"], data: data.path)
    #expect(shown.stdout.hasPrefix("pairs: Sum\ntopic: Arrays and hashing\n"), "\(shown.stdout)")
  }
}
