internal import CSandbox
import Foundation
import Glibc
import SystemCore

/// What to run in a box and under which limits.
public struct BoxSpec: Sendable {
  /// argv; argv[0] is an absolute path inside the box (no PATH search).
  public var command: [String]
  /// Exactly the environment the program gets ("NAME=value").
  public var environment: [String]
  public var workingDirectory = "/box"
  public var limits = BoxLimits()
  /// Extra read-only host paths (toolchains under /opt, JDK config, ...).
  public var readOnlyMounts: [ReadOnlyMount] = []
  public var policy: SeccompPolicy
  /// stderr texts by which the program's runtime says it ran out of its memory budget (the JVM's
  /// OutOfMemoryError, V8's heap limit): such a failed run is `memory_limit`, not `runtime_error`.
  public var outOfMemoryTexts: [String] = []
  /// The JVM and Dart need /proc; everything gets it unless a runner opts out.
  public var mountProc = true
  public var hostname = "box"
  /// The program's stdin, stdout and stderr are a pty of the box's own devpts instance (a live run
  /// with a terminal, `BoxLive.terminal`); the box then has /dev/pts.
  public var terminal = false
  /// The program's stderr is its stdout's pipe, so the two interleave in the order they were
  /// written (Judge0's `redirect_stderr_to_stdout`); stderr then stays empty. Not with a terminal,
  /// which is already one stream.
  public var mergesStderrIntoStdout = false

  public init(command: [String], environment: [String] = [], policy: SeccompPolicy) {
    self.command = command
    self.environment = environment
    self.policy = policy
  }
}

/// One box: create, (write files), run once, (read files), destroy.
///
/// The checklist, in the order it happens:
///  1. `init`: work directory as a size-capped host tmpfs owned by the box's
///     program uid; the v2 cgroup with limits.
///  2. `run`: pipes; clone3 into user, pid, mount, ipc, uts and net
///     namespaces (and straight into the v2 cgroup); uid/gid maps written
///     by the parent; "go"; the C init builds the file system while the
///     parent makes the v1 groups with limits and sends them to it; the init
///     joins them, pivots, forks the program, which sets rlimits, identity,
///     no_new_privs and seccomp and execs; the parent pumps stdin/stdout/
///     stderr with caps and enforces wall and CPU time; the init reports.
///  3. `destroy`: cgroups removed, work directory unmounted and removed (in
///     the CLI's own mount namespace the last box's unmount is left to the
///     namespace's end, `SandboxHost.removeScratch`).
///
/// As a `BoxEnvironment` it runs one command (`OneShotBoxes` makes one per command).
public final class Box: HostDirectoryEnvironment, LeasedBox, @unchecked Sendable {
  /// What `run(stdin:)` runs; nil for a box made for a layout and limits.
  public let spec: BoxSpec?
  public let layout: BoxLayout
  public let limits: BoxLimits
  let lease: BoxLease
  public var directory: BoxDirectory { lease.directory }
  private var workDirectoryMounted = false
  private var ran = false
  private var destroyed = false

  /// A box for one run of `spec` (`run(stdin:)`).
  public convenience init(host: SandboxHost, spec: BoxSpec) throws(SandboxError) {
    // Whether the run is live is known only at `run`, which checks its limits again.
    try validateProgram(spec, ceilings: .liveCeilings)
    try self.init(host: host, layout: BoxLayout(spec), limits: spec.limits, spec: spec)
  }

  /// A box for one command of this layout within these limits (`run(_:)`).
  public convenience init(host: SandboxHost, layout: BoxLayout, limits: BoxLimits) throws(SandboxError) {
    if let problem = limits.violation(of: .liveCeilings) {
      throw SandboxError(step: "limits: \(problem)", errorNumber: EINVAL)
    }
    try self.init(host: host, layout: layout, limits: limits, spec: nil)
  }

  private init(host: SandboxHost, layout: BoxLayout, limits: BoxLimits, spec: BoxSpec?) throws(SandboxError) {
    try validateMounts(layout.readOnlyMounts)
    self.spec = spec
    self.layout = layout
    self.limits = limits
    lease = try BoxLease(host: host)
    do {
      try lease.mountScratch(lease.directory.path, bytes: limits.workDirectoryBytes) {}
      workDirectoryMounted = true
      // Under v1 the groups are made while the init builds the box (`run`).
      if !lease.makesCgroupAfterClone { try lease.createCgroup(limits: limits) }
    } catch {
      destroy()
      throw error
    }
  }

  deinit { destroy() }

  /// Puts a file in /box before the run, owned by the program's uid.
  public func writeFile(_ name: String, contents: Data, executable: Bool = false) throws(SandboxError) {
    try directory.write(name: name, contents: contents, executable: executable, owner: identity.programUID)
  }

  /// Removes everything the box created; idempotent.
  public func destroy() {
    if destroyed { return }
    destroyed = true
    defer { lease.release() }
    lease.destroyCgroup()
    if workDirectoryMounted {
      workDirectoryMounted = false
      host.removeScratch(directory.path)
    } else {
      _ = rmdir(directory.path)
    }
  }

  /// Runs the box's spec once with this stdin.
  public func run(stdin input: Data = Data()) throws(SandboxError) -> Outcome {
    guard let spec else { throw SandboxError(step: "run: this box was made without a command", errorNumber: EINVAL) }
    return try run(BoxCommand(spec: spec, stdin: input))
  }

  /// Writes the command's files, runs it once and reports what the program did. Throws only when
  /// the sandbox itself failed.
  public func run(_ command: BoxCommand) throws(SandboxError) -> Outcome {
    guard !destroyed else { throw SandboxError(step: "run: the box was destroyed", errorNumber: EINVAL) }
    guard !ran else { throw SandboxError(step: "run: a box runs once", errorNumber: EINVAL) }
    let spec = command.spec
    try validateProgram(spec, ceilings: command.live == nil ? .ceilings : .liveCeilings)
    guard BoxLayout(spec) == layout, spec.limits == limits else {
      throw SandboxError(step: "run: the spec's mounts or limits differ from this box's", errorNumber: EINVAL)
    }
    if spec.terminal && command.live == nil {
      throw SandboxError(step: "run: a terminal needs live input (BoxCommand.live)", errorNumber: EINVAL)
    }
    ran = true
    for file in command.files { try writeFile(file.name, contents: file.contents, executable: file.executable) }

    var pipes = try PipeSet()
    defer { pipes.closeAll() }
    if spec.mergesStderrIntoStdout && !spec.terminal {
      // stderr's own pipe gets no writer, so it ends at once; the program writes both to stdout's.
      let shared = fcntl(pipes.stdout.write.rawValue, F_DUPFD_CLOEXEC, 0)
      guard shared >= 0 else { throw SandboxError(step: "dup stdout's pipe for stderr", errorNumber: errno) }
      pipes.stderr.write.close()
      pipes.stderr = PipePair(read: pipes.stderr.read, write: OwnedDescriptor(shared))
    }
    if spec.terminal {
      // The init sends the pty's master over this pair before the program starts.
      var sockets: [Int32] = [-1, -1]
      try SandboxError.systemCall("socketpair for the box's terminal") { dsa_control_socketpair(&sockets) }
      pipes.terminal = OwnedPair(sockets)
    } else if let live = command.live {
      // The live input's own pipe is the program's stdin; the box's copy closes as the init starts.
      pipes.stdin = OwnedPair(read: try live.input.programStdin(), write: OwnedDescriptor(-1))
    }
    if command.live != nil {
      // Signals for the program go through its init, which knows whether it is still unreaped.
      var sockets: [Int32] = [-1, -1]
      try SandboxError.systemCall("socketpair for the box's commands") { dsa_control_socketpair(&sockets) }
      pipes.commands = OwnedPair(sockets)
    }
    let (process, planned) = try lease.spawnInit(
      layout: layout, limits: limits, role: .runOnce(spec), pipes: pipes, makesCgroupAfterGo: true)
    defer { process.close() }
    let interruption = lease.registerInterruption(process)
    defer { BoxInterruption.unregister(interruption) }
    // A failed terminal leaves no master: the init's failure report then says why.
    let terminal = spec.terminal ? receiveTerminal(pipes.terminal.read.rawValue).master : nil
    pipes.terminal.read.close()
    let started = monotonicMilliseconds()
    let startedMicroseconds = monotonicMicroseconds()

    var pump = StreamPump(
      input: command.stdin, stdin: pipes.stdin.write, stdout: terminal ?? pipes.stdout.read,
      stderr: pipes.stderr.read, reports: InitReportPipe(pipe: pipes.report.read),
      outputLimit: Int(limits.outputBytesPerStream), live: command.live, terminal: terminal != nil)
    let cgroup = lease.cgroup
    let commands = pipes.commands.read.rawValue
    BoxCancellation.attached(process) {
      pump.run(
        process: process, started: started, limits: limits,
        cpuMicroseconds: { cgroup?.cpuMicroseconds() },
        kill: {
          process.kill()
          cgroup?.killAll()
        },
        signal: { _ = dsa_send_signal(commands, $0) })
    }
    command.live?.input.endRun()
    let usage = process.reap()
    let wallMicroseconds = monotonicMicroseconds() - startedMicroseconds

    if let failure = pump.report(DSA_REPORT_SETUP_FAILED) {
      throw setupError(failure, plan: planned, command: spec.command)
    }
    let ended = pump.report(DSA_REPORT_PROGRAM_ENDED)
    // A forked init (the daemon's) is a copy-on-write copy of a large
    // process, so the OOM killer may choose it over the program that
    // exhausted the box's memory (lowering its oom_score_adj needs
    // CAP_SYS_RESOURCE, which a daemon may lack). The whole box then ends;
    // that is still the program's memory_limit, not a sandbox failure.
    let diedOfMemory = ended == nil && !pump.watch.killedByUs && cgroup?.memoryLimitHit() == true
    if ended == nil && !pump.watch.killedByUs && !diedOfMemory {
      throw SandboxError(step: "the box's init ended without a report (wait status \(usage.status))")
    }
    return lease.outcome(
      of: pump, spec: spec, ended: ended ?? (diedOfMemory ? killedReport() : nil), initUsage: usage,
      wallMicroseconds: wallMicroseconds)
  }
}

/// A one-shot init's reports: a pipe that reaches EOF when the init and its program are gone,
/// which is when the run is over.
struct InitReportPipe: InitReportChannel {
  /// The parent's read end, closed at the hang-up.
  let pipe: OwnedDescriptor
  var fd: Int32 { pipe.rawValue }

  func receive(into buffer: UnsafeMutableRawPointer, capacity: Int) -> Int { Glibc.read(fd, buffer, capacity) }

  func hangUp() { pipe.close() }

  var hungUp: Bool { fd < 0 }

  func runIsOver(initExited: Bool, outputClosed: Bool, reports: [dsa_report]) -> Bool {
    initExited && outputClosed && fd < 0
  }
}

/// One-shot boxes as a pool: each `get` makes a fresh `Box` for one command, `put` destroys it
/// (the CLI, which starts a process per run and keeps nothing warm).
public struct OneShotBoxes: BoxEnvironmentPool {
  public let host: SandboxHost

  public init(host: SandboxHost) { self.host = host }

  public func get(layout: BoxLayout, limits: BoxLimits) throws(SandboxError) -> Box {
    try Box(host: host, layout: layout, limits: limits)
  }

  public func put(_ box: Box) { box.destroy() }

  /// Nothing is kept between commands.
  public func drain() {}

  public var parallelism: Int { ProcessInfo.processInfo.activeProcessorCount }

  public var discardCounts: [BoxDiscardReason: UInt64] { [:] }
}

/// Refuses what the C side could not carry out faithfully: limits out of
/// range, a relative program path, NUL bytes (C strings would cut them).
func validateProgram(_ spec: BoxSpec, ceilings: BoxLimits = .ceilings) throws(SandboxError) {
  if let problem = spec.limits.violation(of: ceilings) {
    throw SandboxError(step: "limits: \(problem)", errorNumber: EINVAL)
  }
  guard let program = spec.command.first, program.hasPrefix("/") else {
    throw SandboxError(step: "the command must start with an absolute path inside the box", errorNumber: EINVAL)
  }
  let strings = spec.command + spec.environment + [spec.workingDirectory]
  if strings.contains(where: { $0.contains("\0") }) {
    throw SandboxError(step: "arguments and environment may not contain NUL bytes", errorNumber: EINVAL)
  }
}

/// Extra read-only mounts: a normal box path not over the box's own
/// structure, and an existing, readable host path.
func validateMounts(_ mounts: [ReadOnlyMount]) throws(SandboxError) {
  for mount in mounts {
    if let problem = validateBoxPath(mount.boxPath) {
      throw SandboxError(step: "mount: \(problem)", errorNumber: EINVAL)
    }
    guard mount.hostPath.hasPrefix("/"), access(mount.hostPath, R_OK) == 0 else {
      throw SandboxError(step: "mount: host path \(mount.hostPath) is missing or unreadable", errorNumber: ENOENT)
    }
  }
}

/// What stays the same for every run of a box: its mounts and hostname.
public struct BoxLayout: Sendable, Hashable {
  public var readOnlyMounts: [ReadOnlyMount]
  public var mountProc: Bool
  public var hostname: String
  /// A devpts instance of the box's own at /dev/pts, for runs on a terminal (`BoxSpec.terminal`).
  public var terminal = false
  /// The policy a warm box's init holds for its programs to inherit, so such a box serves only
  /// runs of that policy. nil: each program installs its own (one-shot boxes ignore it; runs on a
  /// terminal, whose program needs an ioctl the policies refuse before its exec).
  public internal(set) var initFilter: InitFilterBinding?

  public init(readOnlyMounts: [ReadOnlyMount] = [], mountProc: Bool = true, hostname: String = "box") {
    self.readOnlyMounts = readOnlyMounts
    self.mountProc = mountProc
    self.hostname = hostname
  }

  public init(_ spec: BoxSpec) {
    self.init(readOnlyMounts: spec.readOnlyMounts, mountProc: spec.mountProc, hostname: spec.hostname)
    terminal = spec.terminal
    initFilter = spec.terminal ? nil : spec.policy.initBinding
  }

  /// Whether a box of this layout may run `spec`: the same mounts, and either the policy its init
  /// holds or, for a layout without one, any.
  func accepts(_ spec: BoxSpec) -> Bool {
    var wanted = BoxLayout(spec)
    if initFilter == nil { wanted.initFilter = nil }
    return wanted == self
  }
}

/// A sandbox error from an init's failure report.
func setupError(_ report: dsa_report, plan: [PlannedMount], command: [String]) -> SandboxError {
  let step = stepName(report.step)
  var detail = ""
  if report.index >= 0 {
    if UInt32(bitPattern: report.step) == DSA_STEP_SETRLIMIT.rawValue {
      detail = " #\(report.index)"
    } else if UInt32(bitPattern: report.step) == DSA_STEP_USER_SYSCTL.rawValue {
      detail =
        Int(report.index) < boxUserNamespaceLimits.count ? " \(boxUserNamespaceLimits[Int(report.index)].name)" : ""
    } else if Int(report.index) < plan.count {
      let entry = plan[Int(report.index)]
      detail = " \(entry.target)" + (entry.source.map { " (from \($0))" } ?? "")
    }
  }
  if UInt32(bitPattern: report.step) == DSA_STEP_EXECVE.rawValue, let program = command.first { detail = " \(program)" }
  return SandboxError(step: step + detail, errorNumber: report.error)
}

func stepName(_ step: Int32) -> String {
  let step = UInt32(bitPattern: step)
  let names: [UInt32: String] = [
    DSA_STEP_CLONE.rawValue: "clone", DSA_STEP_WAIT_FOR_PARENT.rawValue: "wait for parent",
    DSA_STEP_SETRESUID_ROOT.rawValue: "become box root", DSA_STEP_UNSHARE_CGROUP.rawValue: "unshare cgroup namespace",
    DSA_STEP_MAKE_PRIVATE.rawValue: "make mounts private", DSA_STEP_MOUNT_ROOT.rawValue: "mount root tmpfs",
    DSA_STEP_MKDIR.rawValue: "mkdir", DSA_STEP_BIND.rawValue: "bind mount",
    DSA_STEP_REMOUNT.rawValue: "remount read-only",
    DSA_STEP_MOUNT_TMPFS.rawValue: "mount tmpfs", DSA_STEP_MOUNT_PROC.rawValue: "mount proc",
    DSA_STEP_CREATE_FILE.rawValue: "create mount point", DSA_STEP_SYMLINK.rawValue: "symlink",
    DSA_STEP_PIVOT_ROOT.rawValue: "pivot_root", DSA_STEP_UNMOUNT_OLD_ROOT.rawValue: "unmount old root",
    DSA_STEP_REMOUNT_ROOT.rawValue: "remount root read-only", DSA_STEP_SETHOSTNAME.rawValue: "sethostname",
    DSA_STEP_FORK_PROGRAM.rawValue: "fork program", DSA_STEP_DUP_FDS.rawValue: "dup2 stdio",
    DSA_STEP_CLOSE_FDS.rawValue: "close inherited fds", DSA_STEP_SETRLIMIT.rawValue: "setrlimit",
    DSA_STEP_SETSID.rawValue: "setsid", DSA_STEP_CHDIR.rawValue: "chdir", DSA_STEP_SETGROUPS.rawValue: "setgroups",
    DSA_STEP_SETRESGID.rawValue: "setresgid", DSA_STEP_SETRESUID.rawValue: "setresuid",
    DSA_STEP_NO_NEW_PRIVS.rawValue: "no_new_privs", DSA_STEP_SECCOMP.rawValue: "seccomp",
    DSA_STEP_EXECVE.rawValue: "execve", DSA_STEP_PDEATHSIG.rawValue: "PR_SET_PDEATHSIG",
    DSA_STEP_CAPBSET.rawValue: "drop bounding capabilities", DSA_STEP_JOIN_CGROUP.rawValue: "join cgroup",
    DSA_STEP_TERMINAL.rawValue: "open the box's pty", DSA_STEP_CONTROLLING_TERMINAL.rawValue: "TIOCSCTTY",
    DSA_STEP_USER_SYSCTL.rawValue: "limit the box's user namespace",
    DSA_STEP_EXEC_INIT.rawValue: "start the box's init",
  ]
  return names[step] ?? "step \(step)"
}

/// Owns C strings for one spawn; freed right after clone3 returns (the
/// child has its own copy-on-write view).
final class CStringArena {
  private var owned: [UnsafeMutablePointer<CChar>] = []
  private var arrays: [UnsafeMutablePointer<UnsafePointer<CChar>?>] = []

  func string(_ text: String?) -> UnsafePointer<CChar>? {
    guard let text, let copy = strdup(text) else { return nil }
    owned.append(copy)
    return UnsafePointer(copy)
  }

  func array(_ texts: [String]) -> UnsafeMutablePointer<UnsafePointer<CChar>?> {
    let array = UnsafeMutablePointer<UnsafePointer<CChar>?>.allocate(capacity: texts.count + 1)
    for (index, text) in texts.enumerated() { array[index] = string(text) }
    array[texts.count] = nil
    arrays.append(array)
    return array
  }

  func release() {
    for string in owned { free(string) }
    for array in arrays { array.deallocate() }
    owned = []
    arrays = []
  }

  deinit { release() }
}

/// The box's init as seen from the parent.
final class BoxProcess {
  let pid: pid_t
  private let pidDescriptor: OwnedDescriptor
  /// The init's pidfd; -1 once closed.
  var pidfd: Int32 { pidDescriptor.rawValue }
  private var reaped = false

  init(pid: pid_t, pidfd: Int32) {
    self.pid = pid
    self.pidDescriptor = OwnedDescriptor(pidfd)
  }

  /// SIGKILL to the init kills every process of the box's pid namespace.
  func kill() {
    if !reaped && pidfd >= 0 { _ = dsa_pidfd_send_signal(pidfd, SIGKILL) }
  }

  struct Usage {
    var status: Int32 = 0
    var cpuMicroseconds: UInt64 = 0
    var maxRSSKilobytes: Int = 0
  }

  func reap() -> Usage {
    var usage = Usage()
    guard !reaped else { return usage }
    var status: Int32 = 0
    var resources = rusage()
    while wait4(pid, &status, 0, &resources) < 0 && errno == EINTR {}
    reaped = true
    usage.status = status
    usage.cpuMicroseconds =
      UInt64(resources.ru_utime.tv_sec) * 1_000_000 + UInt64(resources.ru_utime.tv_usec)
      + UInt64(resources.ru_stime.tv_sec) * 1_000_000 + UInt64(resources.ru_stime.tv_usec)
    usage.maxRSSKilobytes = resources.ru_maxrss
    return usage
  }

  func close() {
    if !reaped {
      kill()
      _ = reap()
    }
    pidDescriptor.close()
  }
}
