// Fuzzes the body of POST /v1/execute: strict decoding (ExecuteBody.decode), its conversion to the
// run service's request (runAsk) and the admission of its limits over a runner's (LimitMaxima.admit,
// the one admission of every doorway). Input: the request body.
//
// Every outcome must be a request within the maxima or a 400 with a message; never a crash, and
// never a limit above its maximum.

import API
import Foundation
import FuzzSupport
import Runners
import Sandbox
import Wire

private let maxima = LimitMaxima()

// The default runner limits, and a runner whose every default is above the maxima (lowered, not refused).
private let runnerLimitSets: [BoxLimits] = {
  var generous = BoxLimits()
  generous.cpuTimeMilliseconds = 60_000
  generous.wallTimeMilliseconds = 120_000
  generous.memoryBytes = 4 << 30
  generous.processes = 1024
  generous.outputBytesPerStream = 64 << 20
  return [BoxLimits(), generous]
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzExecuteBody(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
  let data = Data(fuzzInput(start, count))
  let body: ExecuteBody
  do {
    body = try ExecuteBody.decode(data)
  } catch {
    checkRefusal(error)
    return 0
  }
  let ask: RunAsk
  do {
    ask = try body.runAsk()
  } catch {
    checkRefusal(error)
    return 0
  }
  check(ask, from: body)
  for runnerLimits in runnerLimitSets {
    do {
      let limits = try maxima.admit(ask.limits, runnerDefaults: runnerLimits, chooser: .caller, field: "limits.")
      explain("accepted: \(ask.language), run limits \(limits)")
      check(limits, from: body, runnerLimits: runnerLimits)
    } catch {
      checkRefusal(error)
    }
  }
  return 0
}

private func checkRefusal(_ error: APIError) {
  explain("refused: \(error)")
  invariant(error.status.code == 400, "a body was refused with \(error.status), not 400")
  invariant(!error.message.isEmpty, "a refusal without a message")
  invariant(["bad_request", "unknown_field"].contains(error.code), "a body was refused as \(error.code)")
}

private func check(_ ask: RunAsk, from body: ExecuteBody) {
  invariant(ask.language == body.language, "the language changed")
  invariant(!ask.files.isEmpty, "a request without files")
  invariant((body.files == nil) != (body.source == nil), "files and source were both given, or neither")
  invariant(ask.stdin == Data((body.stdin ?? "").utf8), "stdin changed")
}

private func check(_ admitted: StepLimits, from body: ExecuteBody, runnerLimits: BoxLimits) {
  let limits = admitted.applied(to: runnerLimits)
  let asked = body.limits ?? ExecuteBody.Limits()
  let checks: [(String, Int64?, UInt64, UInt64)] = [
    ("cpu_ms", asked.cpuMilliseconds, limits.cpuTimeMilliseconds, maxima.cpuMilliseconds),
    ("wall_ms", asked.wallMilliseconds, limits.wallTimeMilliseconds, maxima.wallMilliseconds),
    ("memory_mb", asked.memoryMegabytes, limits.memoryBytes >> 20, maxima.memoryMegabytes),
    ("output_kb", asked.outputKilobytes, limits.outputBytesPerStream >> 10, maxima.outputKilobytes),
    ("processes", asked.processes, limits.processes, maxima.processes),
  ]
  for (name, asked, effective, maximum) in checks {
    invariant(effective > 0 && effective <= maximum, "\(name) is \(effective), outside 1...\(maximum)")
    if let asked { invariant(UInt64(asked) == effective, "\(name) asked \(asked), got \(effective)") }
  }
}
