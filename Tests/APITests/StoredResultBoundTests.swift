import Foundation
import Sandbox
import Testing

@testable import API
@testable import Runners

/// A stored result stays within its bound whatever its output's bytes (JSON writes a control
/// character as six).
@Suite struct StoredResultBoundTests {
  func result(stdout: Data, stderr: Data = Data()) -> ExecuteResult {
    var ending = BoxEnding(limits: BoxLimits())
    ending.waitStatus = 0
    let run = Outcome(ending, output: CapturedOutput(stdout: stdout, stderr: stderr), accounting: "cgroup-v1")
    return ExecuteResult(
      language: "python", version: "3.11", compile: nil, run: run, compileCacheHit: false, fileNames: ["main.py"])
  }

  func encoded(_ result: ExecuteResult) -> Int {
    ResultEncoder.data(ResultEncoder.executeValue(result)).count
  }

  @Test func outputsAtTheirCapOfControlCharactersAreCutToTheBound() {
    var maxima = LimitMaxima()
    maxima.outputKilobytes = 256
    let bound = StoredResultBound.bytes(maxima)
    let flood = result(stdout: Data(repeating: 0, count: 256 << 10), stderr: Data(repeating: 1, count: 256 << 10))
    #expect(encoded(flood) > 2 * bound, "the unbounded result: \(encoded(flood)) bytes")
    let fitted = StoredResultBound.fit(flood, within: bound, encodedSize: encoded)
    #expect(encoded(fitted) <= bound)
    #expect(fitted.run?.stdoutTruncated == true && fitted.run?.stderrTruncated == true)
    #expect(fitted.run?.status == flood.run?.status)
    // What is kept is the start of what was printed.
    #expect(fitted.run.map { flood.run!.stdout.starts(with: $0.stdout) } == true)
  }

  @Test func aResultWithinTheBoundIsKeptWhole() {
    var maxima = LimitMaxima()
    maxima.outputKilobytes = 256
    let plain = result(stdout: Data(repeating: UInt8(ascii: "a"), count: 256 << 10))
    let fitted = StoredResultBound.fit(plain, within: StoredResultBound.bytes(maxima), encodedSize: encoded)
    #expect(fitted.run?.stdout == plain.run?.stdout)
    #expect(fitted.run?.stdoutTruncated == false)
  }
}
