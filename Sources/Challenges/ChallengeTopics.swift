/// The topics a challenge may name in challenge.json's `"topic"` (docs/challenges.md, "Topics"): a
/// fixed vocabulary, so the page and `dsa-run challenges` group the catalogue under a few headings
/// in a learner's order rather than under every spelling an author might choose. Tags stay free.
public enum ChallengeTopics {
  /// Every topic, in the order a course meets them: the order the groups are listed in.
  public static let all = [
    "Arrays and hashing", "Linked lists", "Stacks and queues", "Strings", "Searching", "Sorting", "Trees", "Heaps",
    "Graphs", "Shortest paths", "Union-find", "Range queries", "Backtracking", "Dynamic programming",
  ]

  /// Where a challenge without a topic is listed, after every topic. Not a topic a challenge may
  /// name: leaving `"topic"` out says it.
  public static let other = "Other"

  /// The heading a challenge is listed under.
  public static func heading(of topic: String?) -> String { topic ?? other }

  /// The headings of `topics` (nil for none) in listing order: the vocabulary's, then `other`.
  public static func ordered(_ topics: some Sequence<String?>) -> [String] {
    let present = Set(topics.map(heading(of:)))
    return (all + [other]).filter(present.contains)
  }
}
