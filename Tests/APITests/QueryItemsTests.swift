import Testing

@testable import API

/// The query parser every submissions and Judge0 route reads its `ids=`, `wait=` and `fields=` with.
@Suite struct QueryItemsTests {
  @Test func namesAndValuesAreSplitAndOnlyPercentEscapesDecoded() {
    #expect(APIRouter.queryItems("/v1/submissions") == [:])
    #expect(APIRouter.queryItems("/v1/submissions?") == [:])
    #expect(
      APIRouter.queryItems("/v1/submissions?ids=a,b&wait=1.5&x=%41%2C+&ids=c&flag&=v&n=é%20✓&eq=a=b")
        == ["ids": "a,b", "wait": "1.5", "x": "A,+", "flag": "", "": "v", "n": "é ✓", "eq": "a=b"])
    // A malformed escape is kept as sent rather than dropped.
    #expect(APIRouter.queryItems("/x?bad=%zz%") == ["bad": "%zz%"])
  }
}
