internal import CSeccomp
import Foundation

// A compiled policy as bytes and back, for a cache of compiled BPF on disk (the CLI's): compiling
// every policy with libseccomp at each start cost more than the rest of a short run.

extension SeccompPolicy {
  /// The BPF program, `struct sock_filter` records in host byte order.
  public var bpf: Data { filter.withUnsafeBytes { Data($0) } }

  /// A policy from a BPF program this process (or an earlier one) compiled; nil unless the bytes are
  /// a whole number of 1 to 4096 instructions (the kernel's BPF_MAXINSNS).
  public init?(name: String, description: String, ruleCount: Int, bpf: Data) {
    guard !bpf.isEmpty, bpf.count % 8 == 0, bpf.count / 8 <= 4096, ruleCount >= 0 else { return nil }
    var filter = [UInt64](repeating: 0, count: bpf.count / 8)
    // Through raw buffers: DataProtocol's generic `copyBytes(to:)` took 0.1 ms for a 4 KB program.
    bpf.withUnsafeBytes { source in filter.withUnsafeMutableBytes { $0.copyMemory(from: source) } }
    self.init(name: name, description: description, filter: filter, ruleCount: ruleCount)
  }
}

extension SeccompCompiler {
  /// What the compiled form depends on besides the policy file: the libseccomp library's version.
  public static var compilerIdentity: String {
    guard let version = seccomp_version() else { return "libseccomp unknown" }
    return "libseccomp \(version.pointee.major).\(version.pointee.minor).\(version.pointee.micro)"
  }
}
