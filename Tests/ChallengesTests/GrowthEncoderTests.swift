import Foundation
import Grading
import Testing
import Wire

@testable import Challenges

@Suite struct GrowthEncoderTests {
  static let growth: GrowthGrade = {
    var points = [16, 32, 64].map { GrowthPointGrade(n: $0, count: Double($0 * $0), verdict: .accepted, message: "") }
    points.append(GrowthPointGrade(n: 128, verdict: .timeLimit, message: "At n = 128 the program ran out."))
    let fit = GrowthClassFit(growthClass: .quadratic, error: 0.001234567, leadingShare: 1)
    let failed = GrowthCaseGrade(
      name: "random", allowed: [.linearithmic], verdict: .wrongAnswer, ambiguous: false, growthClass: .quadratic,
      message: "grows like O(n^2)", points: points, fits: [fit])
    let fine = GrowthCaseGrade(
      name: "sorted", allowed: [.linear], verdict: .accepted, ambiguous: true, growthClass: nil, message: "",
      points: [], fits: [])
    return GrowthGrade(
      verdict: .wrongAnswer, score: 0.5, weight: 3, message: "Growth on random inputs: grows like O(n^2)",
      cases: [fine, failed], wallMilliseconds: 77)
  }()

  @Test func theGrowthObjectNamesTheDecidingCase() throws {
    let object = GrowthEncoder.growthObject(Self.growth)
    #expect(Set(object.keys) == GrowthEncoder.growthKeys)
    #expect(object["class"] as? String == "n^2", "the first case that failed decides")
    #expect((object["points"] as? [[String: Any]])?.map { $0["n"] as? Int } == [16, 32, 64, 128])
    #expect((object["points"] as? [[String: Any]])?.last?["count"] is NSNull)
    let cases = try #require(object["cases"] as? [[String: Any]])
    #expect(cases.map { $0["name"] as? String } == ["sorted", "random"])
    #expect(cases[0]["class"] is NSNull)
    let fits = try #require(cases[1]["fits"] as? [[String: Any]])
    #expect(fits.first?["error"] as? Double == 0.0012)
    // Through JSON text and back, as a remote grade comes.
    let data = Data(try #require(JSONValue(foundation: object)).compactJSONBytes)
    let decoded = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let read = try #require(GrowthEncoder.growthGrade(decoded))
    #expect(read.verdict == .wrongAnswer && read.score == 0.5 && read.weight == 3 && read.wallMilliseconds == 77)
    #expect(read.cases.map(\.name) == ["sorted", "random"])
    #expect(read.cases[1].points.map(\.count) == [256, 1024, 4096, nil])
    #expect(read.cases[1].growthClass == .quadratic && read.cases[0].ambiguous)
  }

  @Test func aGradeWithoutAGrowthSectionSaysNull() {
    let result = GradeResult(
      challenge: "x", language: "python", version: "3", verdict: .accepted, score: 1, message: "", compile: nil,
      compileCacheHit: false, tests: [], wallMilliseconds: 1)
    #expect(result.wire().growth == .null)
    #expect(String(decoding: result.wire().json.compactJSONBytes, as: UTF8.self).contains("\"growth\":null"))
    var withGrowth = result
    withGrowth.growth = Self.growth
    // Through the wire and back, as `dsa-run --remote --challenge` reads a daemon's grade.
    let read = GradeResult(wire: withGrowth.wire())
    #expect(read?.growth?.cases.count == 2)
  }
}
