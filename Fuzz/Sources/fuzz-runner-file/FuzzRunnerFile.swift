// Fuzzes the strict loading of runner files (runners/<language>.json): RunnerCatalog.parse.
// Input: the file's bytes.
//
// A file is either refused with a RunnerFileError naming it, or gives runners whose every field
// passed its check: no limit above the sandbox's ceilings in its own unit, absolute argv[0].

import Foundation
import FuzzSupport
import Runners
import Sandbox

private let fileName = "fuzz.json"

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRunnerFile(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
  let data = Data(fuzzInput(start, count))
  let runners: [Runner]
  do {
    runners = try RunnerCatalog.parse(data, file: fileName)
  } catch let error as RunnerFileError {
    explain("refused: \(error)")
    invariant(error.file == fileName && !error.problem.isEmpty, "an error that does not name the file: \(error)")
    return 0
  } catch {
    invariant(false, "parse threw something other than a RunnerFileError: \(error)")
    return 0
  }
  explain("accepted: \(runners.map { "\($0.language) \($0.version), run limits \($0.run.limits)" })")
  invariant(!runners.isEmpty, "a runner file without runners was accepted")
  for runner in runners {
    invariant(runner.language == runners[0].language, "one file held two languages")
    invariant(!runner.language.isEmpty && !runner.version.isEmpty, "an empty language or version")
    invariant(runner.versionProbe.first?.hasPrefix("/") == true, "a version probe without an absolute path")
    for step in [runner.compile, runner.run].compactMap({ $0 }) {
      invariant(step.argv.first?.hasPrefix("/") == true, "a step whose argv[0] is not absolute")
      checkLimits(step.limits)
    }
  }
  checkLimitsAsWritten(data)
  return 0
}

/// Every limit of an accepted file was written as a whole number (not `true`, `1.5` or `1e300`).
private func checkLimitsAsWritten(_ data: Data) {
  let root = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
  for version in root?["versions"] as? [[String: Any]] ?? [] {
    for step in ["compile", "run"] {
      let limits = (version[step] as? [String: Any])?["limits"] as? [String: Any] ?? [:]
      for (key, raw) in limits where !(raw is NSNull) {
        invariant(wholeNumberText(raw) != nil, "\(step).limits.\(key) \(raw) was accepted")
      }
    }
  }
}

/// Each limit, in the unit the file gives it, within 1...ceiling: a limit that overflowed when
/// converted to bytes must not pass as a small one.
private func checkLimits(_ limits: StepLimits) {
  let ceilings = BoxLimits.ceilings
  let checks: [(String, UInt64?, UInt64)] = [
    ("cpu_ms", limits.cpuMilliseconds, ceilings.cpuTimeMilliseconds),
    ("wall_ms", limits.wallMilliseconds, ceilings.wallTimeMilliseconds),
    ("memory_mb", limits.memoryMegabytes, ceilings.memoryBytes >> 20),
    ("processes", limits.processes, ceilings.processes),
    ("output_kb", limits.outputKilobytes, ceilings.outputBytesPerStream >> 10),
    ("tmp_mb", limits.tmpMegabytes, min(ceilings.tmpBytes, ceilings.workDirectoryBytes) >> 20),
  ]
  for (name, value, ceiling) in checks {
    guard let value else { continue }
    invariant(value > 0 && value <= ceiling, "\(name) \(value) was accepted; the ceiling is \(ceiling)")
  }
  // Not a limit but an allowance on top of memory_mb (rlimit-only mode): 0 is fine.
  if let reserve = limits.reserveMegabytes {
    let ceiling = ceilings.memoryBytes >> 20
    invariant(reserve <= ceiling, "reserve_mb \(reserve) was accepted; the ceiling is \(ceiling)")
  }
}
