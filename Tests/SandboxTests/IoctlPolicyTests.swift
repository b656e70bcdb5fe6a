import Foundation
import Testing

@testable import Sandbox

/// A classic BPF interpreter for seccomp filters, enough for what libseccomp emits: loads of the
/// `seccomp_data` words and of scratch memory, ALU with constants, conditional jumps, returns.
struct SeccompMachine {
  let filter: [UInt64]

  static let auditArchAMD64: UInt32 = 0xC000_003E
  static let auditArchI386: UInt32 = 0x4000_0003

  /// What the filter answers for system call `number` of `arch` with `arguments`: the full 32-bit
  /// return value (action in the high 16 bits, errno in the low).
  func run(number: Int32, arch: UInt32 = auditArchAMD64, arguments: [UInt64]) throws -> UInt32 {
    var data = [UInt32](repeating: 0, count: 16)
    data[0] = UInt32(bitPattern: number)
    data[1] = arch
    for (index, argument) in arguments.enumerated() {
      data[4 + 2 * index] = UInt32(truncatingIfNeeded: argument)
      data[5 + 2 * index] = UInt32(truncatingIfNeeded: argument >> 32)
    }
    var accumulator: UInt32 = 0
    var index: UInt32 = 0
    var memory = [UInt32](repeating: 0, count: 16)
    var pc = 0
    while pc < filter.count {
      let instruction = filter[pc]
      let code = UInt16(truncatingIfNeeded: instruction)
      let jumpTrue = Int(UInt8(truncatingIfNeeded: instruction >> 16))
      let jumpFalse = Int(UInt8(truncatingIfNeeded: instruction >> 24))
      let k = UInt32(truncatingIfNeeded: instruction >> 32)
      pc += 1
      switch code {
      case 0x20: accumulator = data[Int(k / 4)]  // ld [k]
      case 0x00: accumulator = k  // ld #k
      case 0x60: accumulator = memory[Int(k)]  // ld M[k]
      case 0x61: index = memory[Int(k)]  // ldx M[k]
      case 0x01: index = k  // ldx #k
      case 0x02: memory[Int(k)] = accumulator  // st M[k]
      case 0x03: memory[Int(k)] = index  // stx M[k]
      case 0x54: accumulator &= k  // and #k
      case 0x44: accumulator |= k  // or #k
      case 0x07: index = accumulator  // tax
      case 0x87: accumulator = index  // txa
      case 0x05: pc += Int(k)  // ja
      case 0x15: pc += accumulator == k ? jumpTrue : jumpFalse  // jeq #k
      case 0x25: pc += accumulator > k ? jumpTrue : jumpFalse  // jgt #k
      case 0x35: pc += accumulator >= k ? jumpTrue : jumpFalse  // jge #k
      case 0x45: pc += accumulator & k != 0 ? jumpTrue : jumpFalse  // jset #k
      case 0x1D: pc += accumulator == index ? jumpTrue : jumpFalse  // jeq x
      case 0x06: return k  // ret #k
      case 0x16: return accumulator  // ret a
      default: throw SeccompMachineError(code: code, at: pc - 1)
      }
    }
    throw SeccompMachineError(code: 0xFFFF, at: pc)
  }
}

struct SeccompMachineError: Error, CustomStringConvertible {
  let code: UInt16
  let at: Int
  var description: String { "BPF instruction \(String(code, radix: 16)) at \(at) is not interpreted here" }
}

/// The shipped policies' ioctl rules, run through the compiled filters: every request of the
/// terminal allow-list is allowed, every other one (the dangerous ones by name, every other 'T'
/// request, and a spread over the whole 32-bit space) gets EPERM, never the kill of an unlisted
/// call, with or without high bits the kernel ignores.
@Suite struct IoctlPolicyTests {
  static let allowed: [UInt64] = [
    0x5401, 0x5402, 0x5403, 0x5404, 0x5405, 0x5406, 0x5407, 0x5408, 0x5409, 0x540A, 0x540B, 0x540F, 0x5410,
    0x5411, 0x5413, 0x5414, 0x541B, 0x5421, 0x5424, 0x5425, 0x5429, 0x802C_542A, 0x402C_542B, 0x402C_542C,
    0x402C_542D, 0x8004_5430, 0x5450, 0x5451,
  ]
  /// TIOCSETD, TIOCSTI, TIOCCONS, TIOCLINUX, TIOCSSERIAL, TIOCGSERIAL, TIOCSCTTY, TIOCNOTTY,
  /// TIOCVHANGUP, TIOCSPTLCK, TIOCGPTPEER, TIOCMSET, TIOCPKT, FIOASYNC, FICLONE, FS_IOC_GETFLAGS.
  static let refusedByName: [UInt64] = [
    0x5423, 0x5412, 0x541D, 0x541C, 0x541F, 0x541E, 0x540E, 0x5422, 0x5437, 0x4004_5431, 0x5441, 0x5418,
    0x5420, 0x5452, 0x4004_9409, 0x8008_6601,
  ]
  static let ioctlAMD64: Int32 = 16
  static let ioctlI386: Int32 = 54
  static let errnoEPERM: UInt32 = 0x0005_0001
  static let allow: UInt32 = 0x7FFF_0000

  static func policies() throws -> [(String, SeccompPolicy)] {
    let all = try SeccompCompiler.loadDirectory(repositoryRoot + "/policies")
    return all.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
  }

  @Test func theTerminalRequestsAreAllowedAndEveryOtherGetsEPERM() throws {
    for (name, policy) in try Self.policies() {
      let machine = SeccompMachine(filter: policy.filter)
      var targets = [(Self.ioctlAMD64, SeccompMachine.auditArchAMD64)]
      if name == "dart-i386" { targets.append((Self.ioctlI386, SeccompMachine.auditArchI386)) }
      for (number, arch) in targets {
        for high: UInt64 in [0, 0xFFFF_FFFF_0000_0000, 1 << 32] {
          for request in Self.allowed {
            let answer = try machine.run(number: number, arch: arch, arguments: [0, request | high, 0])
            #expect(answer == Self.allow, "\(name) \(arch): \(String(request | high, radix: 16))")
          }
          var others = Self.refusedByName + (0x5400..<0x5480).map(UInt64.init).filter { !Self.allowed.contains($0) }
          var spread: UInt64 = 0x9E37_79B9
          for _ in 0..<2000 {
            spread = spread &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let request = spread >> 32
            if !Self.allowed.contains(request) { others.append(request) }
          }
          for request in others {
            let answer = try machine.run(number: number, arch: arch, arguments: [0, request | high, 0])
            #expect(answer == Self.errnoEPERM, "\(name) \(arch): \(String(request | high, radix: 16))")
          }
        }
      }
      // Nothing else changed: an unlisted call still kills, read is still allowed.
      #expect(try machine.run(number: 0, arguments: [0, 0, 0]) == Self.allow)
      #expect(try machine.run(number: 134, arguments: []) == 0x8000_0000, "\(name): uselib")
    }
  }

  @Test func maskedNotInIsTheExactComplementOfMaskedIn() throws {
    for values: [UInt64] in [[0], [0xFF], [1, 2, 3], Self.allowed, [0xFFFF_FFFF]] {
      let classes = SeccompCompiler.complementClasses(of: values, mask: 0xFFFF_FFFF)
      var spread: UInt64 = 12345
      var probes = values + values.map { $0 ^ 1 } + [0, 0xFFFF_FFFF, 0x8000_0000]
      for _ in 0..<5000 {
        spread = spread &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        probes.append(spread >> 32)
      }
      for probe in probes {
        let matching = classes.filter { probe & $0.mask == $0.value }.count
        #expect(matching == (values.contains(probe) ? 0 : 1), "\(values): \(probe)")
      }
    }
    #expect(SeccompCompiler.complementClasses(of: Self.allowed, mask: 0xFFFF_FFFF).count < 200)
  }

  /// The shipped policies compiled with their set checks spliced in decide every call as the same
  /// policies compiled through libseccomp's complement classes alone: every system call number of
  /// both architectures (and a foreign one), argument vectors from a spread, and each listed
  /// request, its neighbours and high bits in every argument position.
  @Test func splicedSetChecksDecideAsTheComplementClassesDo() throws {
    for name in ["default", "dart-i386"] {
      let path = repositoryRoot + "/policies/\(name).json"
      let json = try Data(contentsOf: URL(fileURLWithPath: path))
      let spliced = try SeccompCompiler.compile(json: json, source: path, splicesSetChecks: true)
      let classes = try SeccompCompiler.compile(json: json, source: path, splicesSetChecks: false)
      #expect(spliced.instructionCount + 250 < classes.instructionCount, "\(name): \(spliced.instructionCount)")
      let (fast, reference) = (SeccompMachine(filter: spliced.filter), SeccompMachine(filter: classes.filter))
      var spread: UInt64 = 0x5eed
      func next() -> UInt64 {
        spread = spread &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return spread
      }
      let requests = Self.allowed + Self.allowed.map { $0 ^ 1 } + Self.allowed.map { $0 + 1 } + Self.refusedByName
      var pool: [UInt64] = [0, 1, 4, 5, 6, 7, 8, 15, 16, 0xFFFF_FFFF, 1 << 32, .max] + requests
      pool += requests.map { $0 | 0xFFFF_FFFF_0000_0000 }
      let arches = [SeccompMachine.auditArchAMD64, SeccompMachine.auditArchI386, 0x4000_0028]
      var compared = 0
      for arch in arches {
        for number in Int32(0)..<Int32(460) {
          var vectors: [[UInt64]] = (0..<12).map { _ in
            (0..<6).map { _ in next() % 3 == 0 ? next() : pool[Int(next() % UInt64(pool.count))] }
          }
          for position in 0..<3 { vectors += requests.map { request in (0..<6).map { $0 == position ? request : 0 } } }
          for vector in vectors {
            let answer = try fast.run(number: number, arch: arch, arguments: vector)
            let expected = try reference.run(number: number, arch: arch, arguments: vector)
            #expect(answer == expected, "\(name) arch \(String(arch, radix: 16)) call \(number) \(vector)")
            if answer != expected { return }
            compared += 1
          }
        }
      }
      #expect(compared > 100_000)
    }
  }
}
