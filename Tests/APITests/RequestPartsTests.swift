import Foundation
import Testing

@testable import API

/// The small readers every request goes through: its query, its Content-Type, and the splice of a
/// stored result into a submission's answer.
@Suite struct RequestPartsTests {
  @Test func queryNamesAndValuesAreSplitAndOnlyPercentEscapesDecoded() {
    #expect(APIRouter.queryItems("/v1/submissions") == [:])
    #expect(APIRouter.queryItems("/v1/submissions?") == [:])
    #expect(
      APIRouter.queryItems("/v1/submissions?ids=a,b&wait=1.5&x=%41%2C+&ids=c&flag&=v&n=é%20✓&eq=a=b")
        == ["ids": "a,b", "wait": "1.5", "x": "A,+", "flag": "", "": "v", "n": "é ✓", "eq": "a=b"])
    // A malformed escape is kept as sent rather than dropped.
    #expect(APIRouter.queryItems("/x?bad=%zz%") == ["bad": "%zz%"])
  }

  @Test func onlyApplicationJSONIsAJSONMediaType() {
    for given in [
      "application/json", "Application/JSON", "application/json; charset=utf-8", " \tapplication/json ;q=1",
      "APPLICATION/JSON;",
    ] {
      #expect(V1API.isJSONMediaType(given), "\(given)")
    }
    for given in [
      nil, "", "text/plain", "application/jsonx", "application/json5", "xapplication/json", "application/js",
      "application json", "application/json\u{A0}", "application\u{0F}json", "application/problem+json",
    ] {
      #expect(!V1API.isJSONMediaType(given), "\(String(describing: given))")
    }
  }

  @Test func aStoredResultIsSplicedInAtItsPlaceholderAsItsVeryBytes() throws {
    #expect(SubmissionService.firstRange(of: Data("ab".utf8), in: Data("xxabab".utf8)) == 2..<4)
    #expect(SubmissionService.firstRange(of: Data("abc".utf8), in: Data("ab".utf8)) == nil)
    #expect(SubmissionService.firstRange(of: Data("b".utf8), in: Data("aaaa".utf8)) == nil)
    // Indices of a slice are the slice's own.
    let slice = Data("__key:null".utf8)[2...]
    #expect(SubmissionService.firstRange(of: Data(":null".utf8), in: slice) == 5..<10)
    let result = Data(#"{"status":"ok","stdout":"\"result\":null"}"#.utf8)
    let answer = SubmissionService.recordData(
      ["id": .string("i"), "status": .string("done")], result: result, isError: false)
    #expect(
      String(decoding: answer, as: UTF8.self) == #"{"id":"i","result":"# + String(decoding: result, as: UTF8.self)
        + #","status":"done"}"#)
  }
}
