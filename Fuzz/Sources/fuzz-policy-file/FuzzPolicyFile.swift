// Fuzzes the strict loading of seccomp policies (policies/*.json): SeccompCompiler.compile(json:),
// validation and compilation to BPF with libseccomp in this process. Nothing is installed: the
// kernel's side of seccomp is exercised by the sandbox tests. Input: the file's bytes.

import Foundation
import FuzzSupport
import Sandbox

private let fileName = "fuzz.json"

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPolicyFile(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
  let data = Data(fuzzInput(start, count))
  do {
    let policy = try SeccompCompiler.compile(json: data, source: fileName)
    explain("accepted: \(policy.name), \(policy.ruleCount) rules, \(policy.instructionCount) instructions")
    invariant(!policy.name.isEmpty, "a policy without a name was accepted")
    invariant(policy.ruleCount > 0, "a policy without rules was accepted")
    invariant(
      policy.instructionCount > 0 && policy.instructionCount <= 4096,
      "a filter of \(policy.instructionCount) instructions was accepted")
    checkArguments(data)
  } catch let error as PolicyError {
    explain("refused: \(error)")
    invariant(error.file == fileName && !error.problem.isEmpty, "an error that does not name the file: \(error)")
  } catch {
    invariant(false, "compile threw something other than a PolicyError: \(error)")
  }
  return 0
}

/// Every argument comparison of an accepted policy was written with whole numbers: an index in
/// 0...5, a value, a mask and each of values in 0...2^64 - 1.
private func checkArguments(_ data: Data) {
  let root = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
  for rule in root?["rules"] as? [[String: Any]] ?? [] {
    for argument in rule["arguments"] as? [[String: Any]] ?? [] {
      let index = argument["index"].flatMap(wholeNumberText)
      invariant(index.map { $0 < 6 } == true, "argument index \(argument["index"] ?? "nil") was accepted")
      for key in ["value", "mask"] {
        guard let raw = argument[key] else { continue }
        invariant(wholeNumberText(raw) != nil, "argument \(key) \(raw) was accepted")
      }
      for raw in argument["values"] as? [Any] ?? [] {
        invariant(wholeNumberText(raw) != nil, "argument values item \(raw) was accepted")
      }
    }
  }
}
