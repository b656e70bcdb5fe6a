import Foundation
import Testing

@testable import Runners

// Live output renamed chunk by chunk (`LearnerNameStream`): the same bytes as the whole text's
// rewrite, wherever the chunks are cut, and nothing held longer than a path.

@Suite struct LearnerNameStreamTests {
  let names = [
    LearnerName(box: "exc.py", learner: "exc.py"), LearnerName(box: "Sum.java", learner: "Solution.java"),
    LearnerName(box: "my sört.dart", learner: "my sört.dart"),
  ]

  static let texts = [
    // A Python traceback as a terminal shows it (CR LF), its last line without a newline.
    "Traceback (most recent call last):\r\n  File \"/box/exc.py\", line 3, in <module>\r\n    f()\r\n"
      + "  File \"/box/exc.py\", line 2, in f\r\nValueError: boom at /box/exc.py",
    "at Sum.main(Sum.java:4) and ./exc.py:3 and file:///box/exc.py:1:2 but not MySum.java:1 nor /box/exc.pyc\n",
    "#1      main (file:///box/my%20s%C3%B6rt.dart:3:11)\n/box/main: not a learner's file\n",
    "/box/exc.py",
    "Save to file",
  ]

  /// The stream's output for `text` cut at `cuts`, with `flush` only at the end.
  func streamed(_ text: [UInt8], cuts: [Int]) -> [UInt8] {
    var stream = LearnerNameStream(names: names)
    var output: [UInt8] = []
    var start = 0
    for cut in cuts + [text.count] {
      output += stream.take(Array(text[start..<cut]))
      start = cut
    }
    return output + stream.flush()
  }

  @Test(arguments: texts)
  func everyCutGivesTheWholeTextsRewrite(text: String) {
    let bytes = Array(text.utf8)
    let whole = [UInt8](LearnerNames.rewrite(Data(bytes), names: names))
    for cut in 0...bytes.count {
      #expect(streamed(bytes, cuts: [cut]) == whole, "cut at \(cut) of \(text.debugDescription)")
    }
    #expect(streamed(bytes, cuts: Array(0..<bytes.count)) == whole, "byte by byte: \(text.debugDescription)")
  }

  @Test func aPathCutBetweenTwoChunksIsRenamed() {
    var stream = LearnerNameStream(names: names)
    let first = stream.take(Array("  File \"/bo".utf8))
    let second = stream.take(Array("x/exc.py\", line 3\r\n".utf8))
    #expect(String(decoding: first + second, as: UTF8.self) == "  File \"exc.py\", line 3\r\n")
    // What could not start a path is given at once; only "/bo" waited.
    #expect(first == Array("  File \"".utf8))
  }

  @Test func whatIsHeldIsAtMostThePathsLengthAndFlushGivesIt() {
    var stream = LearnerNameStream(names: names)
    // A prompt that ends where a path might begin waits for the next chunk, or for `flush` when
    // the program stops printing there.
    #expect(stream.take(Array("Save to file".utf8)) == Array("Save to ".utf8))
    #expect(stream.flush() == Array("file".utf8))
    #expect(stream.flush().isEmpty)
    // After a flush the stream goes on as after those bytes.
    #expect(stream.take(Array(":///box/exc.py\n".utf8)) == Array(":///box/exc.py\n".utf8))
    let longest = "file:///box/my%20s%C3%B6rt.dart".utf8.count
    let flood = [UInt8](repeating: UInt8(ascii: " "), count: 10_000) + Array("file:///box/my%20s%C3%B6rt.dar".utf8)
    let given = stream.take(flood)
    #expect(flood.count - given.count < longest)
  }

  @Test func withoutNamesNothingIsHeld() {
    var stream = LearnerNameStream(names: [])
    #expect(stream.take(Array("/bo".utf8)) == Array("/bo".utf8))
  }
}
