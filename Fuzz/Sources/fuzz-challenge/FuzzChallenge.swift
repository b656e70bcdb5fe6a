// Fuzzes challenge loading: ChallengeLoader.decodeInline, the strict parser behind challenge.json
// and POST /v1/grade (checker options, recorders run on each test's stdin, expected steps).
// Input: an inline challenge, whose file fields hold contents instead of paths (docs/challenges.md).
//
// A challenge is either refused with problems that name it, or loads within every bound the
// format states.

import Challenges
import Foundation
import FuzzSupport
import Runners
import Sandbox

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzChallenge(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
  let data = Data(fuzzInput(start, count))
  switch ChallengeLoader.decodeInline(data) {
  case .failure(let error):
    explain("refused: \(error)")
    invariant(!error.problems.isEmpty, "refused without a problem")
    for problem in error.problems {
      invariant(
        problem.challenge == "inline" && !problem.message.isEmpty, "a problem without its challenge: \(problem)")
    }
  case .success(let challenge):
    explain("accepted: \(challenge.title), \(challenge.tests.count) tests")
    check(challenge)
  }
  return 0
}

private func check(_ challenge: Challenge) {
  invariant(challenge.id == "inline", "the id changed to \(challenge.id)")
  invariant(!challenge.title.isEmpty, "a challenge without a title was accepted")
  invariant(
    (1...ChallengeLoader.maximumTests).contains(challenge.tests.count), "\(challenge.tests.count) tests were accepted")
  invariant(Set(challenge.tests.map(\.name)).count == challenge.tests.count, "two tests share a name")
  for test in challenge.tests {
    invariant(
      test.points > 0 && test.points <= ChallengeLoader.maximumPoints, "a test worth \(test.points) points was accepted"
    )
  }
  invariant(challenge.starters.isEmpty && challenge.solutions.isEmpty, "an inline challenge has files")
  let ceilings = BoxLimits.ceilings
  let limits = challenge.limits
  let checks: [(String, UInt64?, UInt64)] = [
    ("cpu_ms", limits.cpuMilliseconds, ceilings.cpuTimeMilliseconds),
    ("wall_ms", limits.wallMilliseconds, ceilings.wallTimeMilliseconds),
    ("memory_mb", limits.memoryMegabytes, ceilings.memoryBytes >> 20),
    ("processes", limits.processes, ceilings.processes),
    ("output_kb", limits.outputKilobytes, ceilings.outputBytesPerStream >> 10),
  ]
  for (name, value, ceiling) in checks {
    guard let value else { continue }
    invariant(value > 0 && value <= ceiling, "limits.\(name) \(value) was accepted; the ceiling is \(ceiling)")
  }
}
