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
  /// The JVM and Dart need /proc; everything gets it unless a runner opts out.
  public var mountProc = true
  public var hostname = "box"

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
///     program uid; cgroup(s) with limits.
///  2. `run`: pipes; clone3 into user, pid, mount, ipc, uts and net
///     namespaces (and straight into the v2 cgroup); uid/gid maps written
///     by the parent; "go"; the C init joins its v1 groups, builds the
///     file system, pivots, forks the program, which sets rlimits, identity,
///     no_new_privs and seccomp and execs; the parent pumps stdin/stdout/
///     stderr with caps and enforces wall and CPU time; the init reports.
///  3. `destroy`: cgroups removed, work directory unmounted and removed.
public final class Box: @unchecked Sendable {
  public let spec: BoxSpec
  public let directory: BoxDirectory
  let host: SandboxHost
  let name: String
  let identity: HostIdentity
  private var cgroup: BoxCgroup?
  private var workDirectoryMounted = false
  private var ran = false
  private var destroyed = false
  /// Counted by BoxInterruption until `destroy()` ends.
  private var admitted = false

  public init(host: SandboxHost, spec: BoxSpec) throws(SandboxError) {
    try validateProgram(spec)
    try validateMounts(spec.readOnlyMounts)
    self.spec = spec
    self.host = host
    self.name = host.nextBoxName()
    self.identity = try host.identities.next()
    self.directory = BoxDirectory(path: host.boxesDirectory + "/" + name)
    do {
      try BoxInterruption.admit()
      admitted = true
      try createWorkDirectory()
      cgroup = try host.cgroups.createBoxGroup(named: CgroupSetup.boxGroupPrefix + name, limits: spec.limits)
    } catch {
      destroy()
      throw error
    }
  }

  deinit { destroy() }

  private func createWorkDirectory() throws(SandboxError) {
    let path = directory.path
    try systemCall("mkdir \(path)") { mkdir(path, 0o700) }
    let options =
      "size=\(spec.limits.workDirectoryBytes),nr_inodes=16384,mode=0700,uid=\(identity.programUID),gid=\(identity.programUID)"
    try systemCall("mount tmpfs on \(path)") {
      mount("tmpfs", path, "tmpfs", UInt(MS_NOSUID | MS_NODEV), options)
    }
    workDirectoryMounted = true
  }

  /// Puts a file in /box before the run, owned by the program's uid.
  public func writeFile(_ name: String, contents: Data, executable: Bool = false) throws(SandboxError) {
    try directory.write(name: name, contents: contents, executable: executable, owner: identity.programUID)
  }

  /// Removes everything the box created; idempotent.
  public func destroy() {
    if destroyed { return }
    destroyed = true
    defer {
      host.identities.release(identity)
      if admitted { BoxInterruption.leave() }
    }
    cgroup?.destroy()
    cgroup = nil
    if workDirectoryMounted {
      _ = umount2(directory.path, Int32(MNT_DETACH))
      workDirectoryMounted = false
    }
    _ = rmdir(directory.path)
  }

  /// Runs the command once and reports what the program did. Throws only
  /// when the sandbox itself failed.
  public func run(stdin input: Data = Data()) throws(SandboxError) -> Outcome {
    guard !destroyed else { throw SandboxError(step: "run: the box was destroyed", errorNumber: EINVAL) }
    guard !ran else { throw SandboxError(step: "run: a box runs once", errorNumber: EINVAL) }
    ran = true

    let pipes = try PipeSet()
    defer { pipes.closeAll() }
    let (process, planned) = try spawnInit(
      host: host, identity: identity, workDirectory: directory.path, cgroup: cgroup, layout: BoxLayout(spec),
      limits: spec.limits, program: spec, pipes: pipes, serve: false)
    defer { process.close() }
    let pidfd = process.pidfd
    let interruption = BoxInterruption.register { [cgroup] in
      _ = dsa_pidfd_send_signal(pidfd, SIGKILL)
      cgroup?.killAll()
    }
    defer { BoxInterruption.unregister(interruption) }
    let started = monotonicMilliseconds()
    let startedMicroseconds = monotonicMicroseconds()

    var pump = StreamPump(
      input: input, stdin: pipes.stdin.write, stdout: pipes.stdout.read, stderr: pipes.stderr.read,
      report: pipes.report.read, outputLimit: Int(spec.limits.outputBytesPerStream))
    let watch = pump.run(
      process: process, started: started, limits: spec.limits,
      cpuMicroseconds: { [cgroup] in cgroup?.cpuMicroseconds() },
      kill: { [cgroup] in
        process.kill()
        cgroup?.killAll()
      })
    let usage = process.reap()
    let wallMicroseconds = monotonicMicroseconds() - startedMicroseconds

    if let failure = pump.reports.first(where: { UInt32(bitPattern: $0.kind) == DSA_REPORT_SETUP_FAILED.rawValue }) {
      throw setupError(failure, plan: planned, command: spec.command)
    }
    let ended = pump.reports.first(where: { UInt32(bitPattern: $0.kind) == DSA_REPORT_PROGRAM_ENDED.rawValue })
    // The init is a copy-on-write copy of this (large) process, so the OOM
    // killer may choose it over the program that exhausted the box's memory
    // (lowering its oom_score_adj needs CAP_SYS_RESOURCE, which a daemon may
    // lack). The whole box then ends; that is still the program's
    // memory_limit, not a sandbox failure.
    let diedOfMemory = ended == nil && !watch.killedByUs && cgroup?.memoryLimitHit() == true
    if ended == nil && !watch.killedByUs && !diedOfMemory {
      throw SandboxError(step: "the box's init ended without a report (wait status \(usage.status))")
    }
    return buildOutcome(
      limits: spec.limits, ended: ended ?? (diedOfMemory ? killedReport() : nil), fallbackUsage: usage, watch: watch,
      pump: pump,
      wallMicroseconds: wallMicroseconds, cgroup: cgroup, mode: host.cgroups.mode)
  }
}

/// Refuses what the C side could not carry out faithfully: limits out of
/// range, a relative program path, NUL bytes (C strings would cut them).
func validateProgram(_ spec: BoxSpec) throws(SandboxError) {
  if let problem = spec.limits.violation() { throw SandboxError(step: "limits: \(problem)", errorNumber: EINVAL) }
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

  public init(readOnlyMounts: [ReadOnlyMount] = [], mountProc: Bool = true, hostname: String = "box") {
    self.readOnlyMounts = readOnlyMounts
    self.mountProc = mountProc
    self.hostname = hostname
  }

  public init(_ spec: BoxSpec) {
    self.init(readOnlyMounts: spec.readOnlyMounts, mountProc: spec.mountProc, hostname: spec.hostname)
  }
}

/// Clones a box's init (all plan data prepared here, in the parent), writes
/// its uid/gid maps and lets it go. With `serve`, the init becomes a warm
/// box serving commands on `pipes.report` (then a socket pair end).
func spawnInit(
  host: SandboxHost, identity: HostIdentity, workDirectory: String, cgroup: BoxCgroup?, layout: BoxLayout,
  limits: BoxLimits, program: BoxSpec?, pipes: PipeSet, serve: Bool,
  scratchDirectories: (tmp: String, sharedMemory: String)? = nil
) throws(SandboxError) -> (BoxProcess, [PlannedMount]) {
  let strings = CStringArena()
  defer { strings.release() }
  let argv = strings.array(program?.command ?? [])
  let envp = strings.array(program?.environment ?? [])
  let planned = plannedMounts(
    layout: host.layout, workDirectory: workDirectory, limits: limits, extra: layout.readOnlyMounts,
    mountProc: layout.mountProc, scratchDirectories: scratchDirectories)
  let cMounts = planned.map { entry in
    dsa_mount(
      kind: entry.kind.rawValue, source: strings.string(entry.source),
      target: strings.string(host.rootMountPoint + entry.target), data: strings.string(entry.data))
  }
  let rlimits = plannedRLimits(for: limits, mode: host.cgroups.mode)
  let rootOptions = strings.string("size=1m,nr_inodes=4096,mode=0755")
  let rootPath = strings.string(host.rootMountPoint)
  let workingDirectory = strings.string(program?.workingDirectory ?? "/box")
  let hostname = strings.string(layout.hostname)
  let filter = program?.policy.filter ?? []
  let sysctlPaths = strings.array(boxUserNamespaceLimits.map { "/proc/sys/user/" + $0.name })
  let sysctlValues = strings.array(boxUserNamespaceLimits.map { "\($0.value)" })

  var pid: pid_t = 0
  var pidfd: Int32 = -1
  let spawnError: Int32 = cMounts.withUnsafeBufferPointer { mounts in
    rlimits.withUnsafeBufferPointer { rlimitBuffer in
      filter.withUnsafeBytes { filterBytes in
        var plan = dsa_spawn_plan()
        plan.program.argv = UnsafePointer(argv)
        plan.program.envp = UnsafePointer(envp)
        plan.root_path = rootPath
        plan.root_tmpfs_options = rootOptions
        plan.mounts = mounts.baseAddress
        plan.mount_count = Int32(mounts.count)
        plan.program.working_directory = workingDirectory
        plan.hostname = hostname
        plan.program.seccomp_filter = filter.isEmpty ? nil : filterBytes.baseAddress
        plan.program.seccomp_filter_length = UInt16(filter.count)
        plan.program.rlimits = rlimitBuffer.baseAddress
        plan.program.rlimit_count = Int32(rlimitBuffer.count)
        plan.program.uid = boxProgramID
        plan.program.gid = boxProgramID
        plan.program.stdin_fd = pipes.stdin.read.rawValue
        plan.program.stdout_fd = pipes.stdout.write.rawValue
        plan.program.stderr_fd = pipes.stderr.write.rawValue
        plan.program.report_fd = pipes.report.write.rawValue
        plan.go_fd = pipes.go.read.rawValue
        plan.cgroup_fd = cgroup?.directory.rawValue ?? -1
        let joinFDs = cgroup?.joinFDs ?? []
        plan.cgroup_join_count = Int32(joinFDs.count)
        plan.cgroup_join_fds = (
          joinFDs.count > 0 ? joinFDs[0] : -1, joinFDs.count > 1 ? joinFDs[1] : -1, joinFDs.count > 2 ? joinFDs[2] : -1
        )
        plan.namespace_flags = SandboxHost.namespaceFlags
        plan.serve = serve ? 1 : 0
        plan.user_namespace_owner = identity.base
        plan.user_sysctl_paths = UnsafePointer(sysctlPaths)
        plan.user_sysctl_values = UnsafePointer(sysctlValues)
        plan.user_sysctl_count = Int32(boxUserNamespaceLimits.count)
        return SpawnLock.whileCloning { dsa_spawn(&plan, &pid, &pidfd) }
      }
    }
  }
  if spawnError != 0 {
    throw SandboxError(
      step: "clone3 into new namespaces", errorNumber: spawnError,
      hint: spawnError == EPERM || spawnError == ENOSPC
        ? "are user namespaces enabled (user.max_user_namespaces)?" : "")
  }
  pipes.closeChildEnds()
  let process = BoxProcess(pid: pid, pidfd: pidfd)
  do {
    try writeIdentityMaps(pid: pid, identity: identity)
  } catch {
    process.close()
    throw error
  }
  // The go pipe's write end stays open while the box lives: the init takes
  // a hang-up on it as the parent's death (see prepare_init).
  var go: UInt8 = 0x67
  _ = Glibc.write(pipes.go.write.rawValue, &go, 1)
  return (process, planned)
}

/// The report of a box whose every process was killed (SIGKILL) before the
/// init could write one.
func killedReport() -> dsa_report {
  var report = dsa_report()
  report.kind = Int32(bitPattern: DSA_REPORT_PROGRAM_ENDED.rawValue)
  report.wait_status = SIGKILL
  report.index = -1
  return report
}

/// Turns the facts of one run into an `Outcome`.
func buildOutcome(
  limits: BoxLimits, ended: dsa_report?, fallbackUsage: BoxProcess.Usage, watch: StreamPump.Watch, pump: StreamPump,
  wallMicroseconds: UInt64, cgroup: BoxCgroup?, mode: CgroupMode
) -> Outcome {
  var ending = Ending(limits: limits)
  ending.waitStatus = ended.map { $0.wait_status }
  ending.killedForWallTime = watch.wallTimeExceeded
  ending.killedForCPUTime = watch.cpuTimeExceeded
  ending.killedForOutput = pump.outputLimitExceeded
  ending.wallMilliseconds = wallMicroseconds / 1000
  let reportedCPU = ended.map { UInt64($0.user_cpu_us + $0.system_cpu_us) } ?? fallbackUsage.cpuMicroseconds
  ending.cpuMilliseconds = (cgroup?.cpuMicroseconds() ?? reportedCPU) / 1000
  let reportedRSS = UInt64(max(Int(ended?.max_rss_kb ?? 0), fallbackUsage.maxRSSKilobytes))
  if let cgroup {
    ending.memoryKilobytes = (cgroup.peakMemoryBytes() ?? reportedRSS * 1024) / 1024
    ending.memoryLimitHit = cgroup.memoryLimitHit()
  } else {
    ending.memoryKilobytes = reportedRSS
    // Degraded: RLIMIT_DATA makes allocations fail; a failed end near the
    // budget is taken as running out of memory.
    ending.memoryLimitHit = reportedRSS * 1024 >= limits.memoryBytes / 2
  }
  let (status, message, exitCode, signal, timeKind) = classify(ending)
  return Outcome(
    status: status, message: message, exitCode: exitCode, signal: signal,
    stdout: pump.stdout, stderr: pump.stderr, stdoutTruncated: pump.stdoutTruncated,
    stderrTruncated: pump.stderrTruncated, cpuMilliseconds: ending.cpuMilliseconds,
    wallMicroseconds: wallMicroseconds, memoryKilobytes: ending.memoryKilobytes, timeLimitKind: timeKind,
    accounting: mode.rawValue)
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
    DSA_STEP_USER_SYSCTL.rawValue: "limit the box's user namespace",
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
