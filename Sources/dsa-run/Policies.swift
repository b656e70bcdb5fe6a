import Foundation
import Glibc
import Runners
import Sandbox

// Seccomp policies for the CLI: only the ones a command needs are loaded, and each compiled BPF
// program is kept on disk, so a start reads a few kilobytes instead of running libseccomp's compiler
// on every policy.
//
// An entry records what it was compiled from (the policy file, the libseccomp version and this
// dsa-run binary) in full, and is used only when that is byte for byte what this start would compile.
// Its file name is a 64-bit FNV-1a hash of those inputs and its payload carries an FNV-1a checksum:
// neither needs to resist an attacker (no one but root can write the cache, see below), and a
// cryptographic digest here meant initialising libcrypto on every start, about 1.5 ms.
//
// The cache is root's alone: the directory is created 0700, entries are written to a temporary name
// and renamed into place, and an entry is used only when it is a regular file (no symlink), owned by
// this user, writable by nobody else, in a directory of the same kind, and its inputs and checksum
// match. Anything else is recompiled and replaced.

/// `DSA_RUN_SECCOMP_CACHE`, or beside the compile cache.
var seccompCacheDirectory: String {
  getenv("DSA_RUN_SECCOMP_CACHE").map { String(cString: $0) } ?? "/var/cache/dsa-run/seccomp"
}

func policiesDirectory() throws -> String {
  guard let directory = DataDirectories.locate("policies") else {
    throw UsageError(message: "cannot find the policies/ folder (set DSA_RUN_DATA to the folder that holds it)")
  }
  return directory
}

/// Every policy under policies/ (doctor, grading), each through the cache.
func loadPolicies() throws -> [String: SeccompPolicy] {
  let directory = try policiesDirectory()
  let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter {
    $0.hasSuffix(".json")
  }.sorted()
  var policies: [String: SeccompPolicy] = [:]
  for name in names {
    let policy = try PolicyCache.load(file: directory + "/" + name)
    if policies[policy.name] != nil {
      throw UsageError(message: "policies/\(name): a second policy is named \"\(policy.name)\"")
    }
    policies[policy.name] = policy
  }
  if policies.isEmpty { throw UsageError(message: "\(directory): no policy files (*.json) found") }
  return policies
}

/// One policy by name: its file `NAME.json` when that file holds it, else a search of them all.
func loadPolicy(named name: String) throws -> SeccompPolicy {
  let directory = try policiesDirectory()
  let file = directory + "/" + name + ".json"
  if !name.contains("/"), access(file, R_OK) == 0 {
    let policy = try PolicyCache.load(file: file)
    if policy.name == name { return policy }
  }
  let policies = try loadPolicies()
  guard let policy = policies[name] else {
    throw UsageError(message: "unknown policy \"\(name)\"; known: \(policies.keys.sorted().joined(separator: ", "))")
  }
  return policy
}

/// The policies a set of names needs, each loaded once.
func loadPolicies(named names: Set<String>) throws -> [String: SeccompPolicy] {
  var policies: [String: SeccompPolicy] = [:]
  for name in names.sorted() { policies[name] = try loadPolicy(named: name) }
  return policies
}

enum PolicyCache {
  static let magic = "dsa-run seccomp cache 3\n"

  /// A policy file compiled, or its cached compilation.
  static func load(file: String, cacheDirectory: String = seccompCacheDirectory) throws -> SeccompPolicy {
    let fd = open(file, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw UsageError(message: "\(file): cannot be read: \(String(cString: strerror(errno)))") }
    defer { close(fd) }
    let source = try readAll(fd, limit: 1 << 20, what: file)
    let inputs = compileInputs(source)
    let key = FNV1a64.hex(inputs)
    if let cached = read(key: key, inputs: inputs, directory: cacheDirectory) { return cached }
    let policy = try SeccompCompiler.compile(json: source, source: file)
    write(policy, key: key, inputs: inputs, directory: cacheDirectory)
    return policy
  }

  /// Everything the compiled program depends on: the compiler, this binary, the policy file.
  static func compileInputs(_ source: Data) -> [UInt8] {
    Array((SeccompCompiler.compilerIdentity + "\n" + executableIdentity + "\n").utf8) + [UInt8](source)
  }

  /// This binary's inode, size and mtime: a rebuilt dsa-run may compile policies differently.
  static let executableIdentity: String = {
    var info = stat()
    guard stat("/proc/self/exe", &info) == 0 else { return "unknown" }
    return "\(info.st_dev):\(info.st_ino):\(info.st_size):\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
  }()

  /// An entry: magic | key | checksum of the payload, one line each, then the payload: the inputs'
  /// length in bytes, a line, and the inputs as they are; the name, the rule count and the
  /// description's length in bytes, one line each, then the description and the BPF program as they
  /// are. Not JSON: Foundation's JSON reader (and the Swift runtime's lookups its `as?` casts make) was
  /// most of the 1 ms a cached policy cost a start.
  static func encode(_ policy: SeccompPolicy, key: String, inputs: [UInt8]) -> Data {
    let description = Data(policy.description.utf8)
    let payload =
      Data("\(inputs.count)\n".utf8) + Data(inputs)
      + Data("\(policy.name)\n\(policy.ruleCount)\n\(description.count)\n".utf8) + description + policy.bpf
    return Data((magic + key + "\n" + FNV1a64.hex([UInt8](payload)) + "\n").utf8) + payload
  }

  static func decode(_ data: Data, key: String, inputs: [UInt8]) -> SeccompPolicy? {
    let bytes = [UInt8](data)
    let header = Array((magic + key + "\n").utf8)
    let checksumLength = 16
    guard bytes.count > header.count + checksumLength + 1, bytes.starts(with: header),
      bytes[header.count + checksumLength] == UInt8(ascii: "\n")
    else { return nil }
    let checksum = String(decoding: bytes[header.count..<header.count + checksumLength], as: UTF8.self)
    let payload = bytes[(header.count + checksumLength + 1)...]
    guard FNV1a64.hex(payload) == checksum else { return nil }
    var cursor = payload.startIndex
    func line() -> String? {
      guard let end = payload[cursor...].firstIndex(of: UInt8(ascii: "\n")) else { return nil }
      defer { cursor = end + 1 }
      return String(decoding: payload[cursor..<end], as: UTF8.self)
    }
    // Another policy file, libseccomp or binary with the same hash is a miss, not a hit.
    guard let inputsLength = line().flatMap({ Int($0) }), inputsLength == inputs.count,
      payload[cursor...].starts(with: inputs)
    else { return nil }
    cursor += inputsLength
    guard let name = line(), !name.isEmpty, let ruleCount = line().flatMap({ Int($0) }),
      ruleCount >= 0, let descriptionLength = line().flatMap({ Int($0) }), descriptionLength >= 0,
      descriptionLength <= payload.endIndex - cursor
    else { return nil }
    let description = String(decoding: payload[cursor..<cursor + descriptionLength], as: UTF8.self)
    let bpf = Data(payload[(cursor + descriptionLength)...])
    // A BPF program is whole 8-byte instructions, at least one.
    guard !bpf.isEmpty, bpf.count % 8 == 0 else { return nil }
    return SeccompPolicy(name: name, description: description, ruleCount: ruleCount, bpf: bpf)
  }

  static func read(key: String, inputs: [UInt8], directory: String) -> SeccompPolicy? {
    PrivateCacheFile.read(directory: directory, name: key, limit: 1 << 20).flatMap {
      decode($0, key: key, inputs: inputs)
    }
  }

  static func write(_ policy: SeccompPolicy, key: String, inputs: [UInt8], directory: String) {
    PrivateCacheFile.write(encode(policy, key: key, inputs: inputs), directory: directory, name: key)
  }
}
