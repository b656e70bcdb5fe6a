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
    invariant(!policy.name.isEmpty, "a policy without a name was accepted")
    invariant(policy.ruleCount > 0, "a policy without rules was accepted")
    invariant(
      policy.instructionCount > 0 && policy.instructionCount <= 4096,
      "a filter of \(policy.instructionCount) instructions was accepted")
  } catch let error as PolicyError {
    invariant(error.file == fileName && !error.problem.isEmpty, "an error that does not name the file: \(error)")
  } catch {
    invariant(false, "compile threw something other than a PolicyError: \(error)")
  }
  return 0
}
