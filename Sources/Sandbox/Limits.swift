import Glibc

/// Resource limits of one box. Units are in the names.
public struct BoxLimits: Sendable, Equatable {
  /// CPU time of all the box's processes together.
  public var cpuTimeMilliseconds: UInt64 = 5_000
  /// Wall-clock time from the program's start.
  public var wallTimeMilliseconds: UInt64 = 10_000
  /// Memory of all the box's processes together (cgroup); RSS-based in
  /// rlimit-only mode.
  public var memoryBytes: UInt64 = 256 << 20
  /// Processes and threads the box may hold at once.
  public var processes: UInt64 = 64
  /// Bytes kept from each of stdout and stderr; more kills the box.
  public var outputBytesPerStream: UInt64 = 1 << 20
  /// Largest file the program may write (RLIMIT_FSIZE).
  public var fileSizeBytes: UInt64 = 16 << 20
  /// Open file descriptors per process (RLIMIT_NOFILE).
  public var openFiles: UInt64 = 256
  /// Stack of the main thread (RLIMIT_STACK).
  public var stackBytes: UInt64 = 64 << 20
  /// Size caps of the box's writable file systems.
  public var tmpBytes: UInt64 = 64 << 20
  public var sharedMemoryBytes: UInt64 = 16 << 20
  public var workDirectoryBytes: UInt64 = 64 << 20
  /// RLIMIT_AS; nil for runtimes that reserve far more than they use (JVM,
  /// Go, Node, Dart), which are told their heap budget instead.
  public var addressSpaceBytes: UInt64? = nil
  /// Writable virtual memory the runtime maps but does not use (V8's 512 MiB
  /// code range, the JVM's code cache and class space, thread stacks as large
  /// as RLIMIT_STACK). Only rlimit-only mode reads it: there RLIMIT_DATA, which
  /// counts such mappings whole, is `memoryBytes` plus this, or Node and the
  /// JVM cannot start (a cgroup counts only the pages really used).
  public var reservedBytes: UInt64 = 0

  /// The defaults, with CPU and wall time `timeScale` times 5 s and 10 s.
  public init() {
    cpuTimeMilliseconds *= Self.timeScale
    wallTimeMilliseconds *= Self.timeScale
  }

  /// Hard ceilings no request may exceed; a value above these is refused. The CPU and wall-time
  /// ceilings are `timeScale` times 60 s and 120 s.
  public static let ceilings: BoxLimits = {
    var limits = BoxLimits()
    limits.cpuTimeMilliseconds = 60_000 * timeScale
    limits.wallTimeMilliseconds = 120_000 * timeScale
    limits.memoryBytes = 4 << 30
    limits.processes = 1024
    limits.outputBytesPerStream = 64 << 20
    limits.fileSizeBytes = 1 << 30
    limits.openFiles = 4096
    limits.stackBytes = 1 << 30
    limits.tmpBytes = 1 << 30
    limits.sharedMemoryBytes = 1 << 30
    limits.workDirectoryBytes = 1 << 30
    return limits
  }()

  /// The ceilings of a live run (`BoxCommand.live`): `ceilings` but for the wall time, up to
  /// `timeScale` times an hour. An interactive run waits on a person, who may take minutes to
  /// answer a prompt; its CPU limit and its idle bound (`BoxLive.idleLimitMilliseconds`) bound what
  /// it costs meanwhile.
  public static let liveCeilings: BoxLimits = {
    var limits = ceilings
    limits.wallTimeMilliseconds = 3_600_000 * timeScale
    return limits
  }()

  /// How many times slower this machine is than those the default and highest time limits were
  /// set for:
  /// `DSA_RUN_TIME_SCALE`, a whole number from 1 to 100 (default 1). Only scripts/test-kernels sets
  /// it, in an emulated VM whose CPU is about ten times slower: there a Python start can take the
  /// default 5 s of CPU, a compile more than the 60 s ceiling, and a limit scaled to mean what it
  /// means on real hardware must not be refused (docs/security.md, "Kernels"). 1 when the value is
  /// unusable.
  public static let timeScale: UInt64 = parseTimeScale(environmentTimeScale).scale

  /// Why `DSA_RUN_TIME_SCALE` is unusable, or nil: the CLI and the daemon refuse to start with it.
  public static let timeScaleProblem: String? = parseTimeScale(environmentTimeScale).problem

  private static var environmentTimeScale: String? { getenv("DSA_RUN_TIME_SCALE").map { String(cString: $0) } }

  static func parseTimeScale(_ text: String?) -> (scale: UInt64, problem: String?) {
    guard let text else { return (1, nil) }
    guard let scale = UInt64(text), (1...100).contains(scale) else {
      return (1, "DSA_RUN_TIME_SCALE must be a whole number from 1 to 100, not \"\(text)\"")
    }
    return (scale, nil)
  }

  /// Names the first limit that is zero or above `ceilings`, or nil.
  public func violation(of ceilings: BoxLimits = .ceilings) -> String? {
    let checks: [(String, UInt64, UInt64)] = [
      ("cpu time (ms)", cpuTimeMilliseconds, ceilings.cpuTimeMilliseconds),
      ("wall time (ms)", wallTimeMilliseconds, ceilings.wallTimeMilliseconds),
      ("memory (bytes)", memoryBytes, ceilings.memoryBytes),
      ("processes", processes, ceilings.processes),
      ("output per stream (bytes)", outputBytesPerStream, ceilings.outputBytesPerStream),
      ("file size (bytes)", fileSizeBytes, ceilings.fileSizeBytes),
      ("open files", openFiles, ceilings.openFiles),
      ("stack (bytes)", stackBytes, ceilings.stackBytes),
      ("/tmp size (bytes)", tmpBytes, ceilings.tmpBytes),
      ("/dev/shm size (bytes)", sharedMemoryBytes, ceilings.sharedMemoryBytes),
      ("/box size (bytes)", workDirectoryBytes, ceilings.workDirectoryBytes),
    ]
    for (name, value, maximum) in checks {
      if value == 0 { return "\(name) must be greater than 0" }
      if value > maximum { return "\(name) is \(value); the maximum is \(maximum)" }
    }
    return nil
  }
}
