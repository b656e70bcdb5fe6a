import Foundation
import Glibc
import Testing

/// `POST /v1/grade` and `GET /v1/challenges[/ID]` on a live daemon, by curl, with the shipped sample
/// challenges and their reference solutions.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct GradeEndpointTests {
  private func solution(_ challenge: String, _ kind: String) throws -> String {
    try String(
      contentsOfFile: repositoryRoot + "/challenges/\(challenge)/solutions/\(kind)/main.py", encoding: .utf8)
  }

  @Test func listsShowsAndGradesTheSampleChallenges() throws {
    let daemon = try DaemonProcess()
    defer { daemon.cleanUp() }
    let list = try curl(daemon.baseURL + "/v1/challenges")
    #expect(list.status == 200)
    let challenges = try #require(list.json["challenges"] as? [[String: Any]])
    let ids = challenges.compactMap { $0["id"] as? String }
    #expect(ids.count >= 10 && ids.contains("insertion-sort") && ids.contains("dijkstra-relaxations"))
    // Each challenge's topic (null for none), and the topics in the order a client groups them.
    let topics = try #require(list.json["topics"] as? [String])
    #expect(topics.first == "Arrays and hashing" && topics.contains("Sorting") && !topics.contains("Other"))
    let sorting = challenges.first { $0["id"] as? String == "insertion-sort" }
    #expect(sorting?["topic"] as? String == "Sorting")
    #expect(challenges.allSatisfy { ($0["topic"] as? String).map(topics.contains) ?? ($0["topic"] is NSNull) })

    let one = try curl(daemon.baseURL + "/v1/challenges/insertion-sort")
    #expect(one.status == 200)
    #expect((one.json["title"] as? String)?.isEmpty == false)
    #expect(one.json["topic"] as? String == "Sorting")
    let missing = try curl(daemon.baseURL + "/v1/challenges/no-such-challenge")
    #expect(missing.status == 404)
    #expect((missing.json["error"] as? [String: Any])?["code"] as? String == "unknown_challenge")

    let correct = try post(
      daemon, "/v1/grade",
      ["language": "python", "source": try solution("insertion-sort", "correct"), "challenge": "insertion-sort"])
    #expect(correct.status == 200, "\(correct.body)")
    #expect(correct.json["verdict"] as? String == "accepted", "\(correct.body)")
    #expect(correct.json["score"] as? Double == 1)
    #expect((correct.json["tests"] as? [Any])?.count == 8)

    let wrong = try post(
      daemon, "/v1/grade",
      ["language": "python", "source": try solution("insertion-sort", "wrong"), "challenge": "insertion-sort"])
    #expect(wrong.json["verdict"] as? String == "wrong_answer", "\(wrong.body)")
    let tests = try #require(wrong.json["tests"] as? [[String: Any]])
    let duplicates = try #require(tests.first { $0["name"] as? String == "duplicates" })
    let difference = try #require(duplicates["first_difference"] as? [String: Any])
    #expect(difference["step"] as? Int == 4)
    #expect((difference["caption"] as? String)?.isEmpty == false)

    // Both grades are counted, and each of their tests, apart from the executions.
    let metrics = try curl(daemon.baseURL + "/metrics").body
    #expect(metrics.contains("dsa_run_grades_total{language=\"python\",verdict=\"accepted\"} 1\n"), "\(metrics)")
    #expect(metrics.contains("dsa_run_grades_total{language=\"python\",verdict=\"wrong_answer\"} 1\n"))
    let failed = tests.filter { $0["verdict"] as? String == "wrong_answer" }.count
    #expect(failed >= 1)
    #expect(
      metrics.contains("dsa_run_grade_tests_total{language=\"python\",verdict=\"accepted\"} \(8 + 8 - failed)\n"))
    #expect(metrics.contains("dsa_run_grade_tests_total{language=\"python\",verdict=\"wrong_answer\"} \(failed)\n"))
    #expect(metrics.contains("dsa_run_grade_duration_seconds_count 2\n"))
    #expect(metrics.contains("dsa_run_run_duration_seconds_count 0\n"))
  }

  /// An interactive challenge through the run service: both boxes of a test in one slot, the
  /// transcript on visible tests only.
  @Test func gradesAnInteractiveChallenge() throws {
    let daemon = try DaemonProcess()
    defer { daemon.cleanUp() }
    let one = try curl(daemon.baseURL + "/v1/challenges/guess-the-number")
    #expect(one.json["checker"] as? String == "interactor", "\(one.body)")
    let correct = try post(
      daemon, "/v1/grade",
      ["language": "python", "source": try solution("guess-the-number", "correct"), "challenge": "guess-the-number"])
    #expect(correct.json["verdict"] as? String == "accepted", "\(correct.body)")
    let tests = try #require(correct.json["tests"] as? [[String: Any]])
    #expect(tests.count == 9)
    for test in tests {
      let hidden = test["hidden"] as? Bool == true
      #expect((test["transcript"] != nil) == !hidden, "\(test)")
    }
    let sample = try #require(tests.first?["transcript"] as? [String: Any])
    let turns = try #require(sample["turns"] as? [[String: Any]])
    #expect(turns.first?["from"] as? String == "interactor" && turns.first?["text"] as? String == "10\n")
    #expect(turns.last?["text"] as? String == "! 7\n")

    let wrong = try post(
      daemon, "/v1/grade",
      ["language": "python", "source": try solution("guess-the-number", "wrong"), "challenge": "guess-the-number"])
    #expect(wrong.json["verdict"] as? String == "wrong_answer", "\(wrong.body)")
    #expect(
      wrong.json["message"] as? String
        == "Test sample: question 5 is one too many: for n = 10 at most 4 questions are allowed", "\(wrong.body)")
  }

  /// An interactive test runs two boxes in one slot: the quota is charged both, and neither is
  /// given back as a run the grade did not make.
  @Test func anInlineInteractiveGradeIsChargedTwoRunsPerTest() throws {
    let daemon = try daemonConfigured(#"{"rate_limit": {"runs": 100, "window_s": 600}}"#)
    defer { daemon.cleanUp() }
    let interactor = try String(
      contentsOfFile: repositoryRoot + "/challenges/guess-the-number/interactor.cpp", encoding: .utf8)
    let inline: [String: Any] = [
      "title": "Guess", "statement": "Guess the number.", "interactor": ["language": "cpp", "source": interactor],
      "tests": [
        ["name": "a", "stdin": "10 7\n"], ["name": "b", "stdin": "1000 1\n"], ["name": "c", "stdin": "2 2\n"],
      ],
    ]
    let graded = try post(
      daemon, "/v1/grade",
      ["language": "python", "source": try solution("guess-the-number", "correct"), "challenge": inline])
    #expect(graded.json["verdict"] as? String == "accepted", "\(graded.body)")
    #expect(graded.headers["ratelimit"]?.contains("r=94") == true, "\(graded.headers)")
  }

  @Test func gradesAnInlineChallengeAndRefusesBadOnes() throws {
    let daemon = try DaemonProcess()
    defer { daemon.cleanUp() }
    let inline: [String: Any] = [
      "title": "Sum", "statement": "Add two numbers.", "checker": ["name": "tokens"],
      "tests": [
        ["name": "a", "stdin": "1 2\n", "expected_stdout": "3\n"], ["stdin": "5 5\n", "expected_stdout": "10\n"],
      ],
    ]
    let source = "print(sum(map(int, input().split())))\n"
    let graded = try post(daemon, "/v1/grade", ["language": "py", "source": source, "challenge": inline])
    #expect(graded.status == 200, "\(graded.body)")
    #expect(graded.json["verdict"] as? String == "accepted", "\(graded.body)")
    #expect(graded.json["challenge"] as? String == "inline")
    var named = inline
    named["id"] = "sum-of-two"
    let namedGrade = try post(daemon, "/v1/grade", ["language": "py", "source": source, "challenge": named])
    #expect(namedGrade.json["challenge"] as? String == "sum-of-two", "\(namedGrade.body)")

    var broken = inline
    broken["checker"] = ["name": "nonsense"]
    let refused = try post(daemon, "/v1/grade", ["language": "python", "source": source, "challenge": broken])
    #expect(refused.status == 400)
    #expect((refused.json["error"] as? [String: Any])?["code"] as? String == "bad_challenge", "\(refused.body)")

    let unknownID = try post(daemon, "/v1/grade", ["language": "python", "source": source, "challenge": "nope"])
    #expect(unknownID.status == 404)
    let unknownField = try post(
      daemon, "/v1/grade", ["language": "python", "source": source, "challenge": "two-sum-indices", "tets": 1])
    #expect(unknownField.status == 400)
    #expect((unknownField.json["error"] as? [String: Any])?["code"] as? String == "unknown_field")
    let unknownLanguage = try post(
      daemon, "/v1/grade", ["language": "cobol", "source": source, "challenge": "two-sum-indices"])
    #expect(unknownLanguage.status == 400)
    // The daemon still serves after every refusal.
    #expect(try curl(daemon.baseURL + "/healthz").status == 200)
  }
}
