internal import CSandbox
import Foundation
import Glibc
import SystemCore

// What a one-shot `Box` and a `WarmBox` share, so each of them says only what differs: the
// one-shot init runs one program and exits; the warm init serves runs on a control socket.

/// How the cloned init spends its life.
enum InitRole {
  /// Run this program once, report its end on the report pipe, and exit.
  case runOnce(BoxSpec)
  /// Serve runs sent on the control socket (given as the report end of the pipes), with these
  /// host tmpfs mounts bound at /tmp and /dev/shm so the host can empty them between runs.
  case serve(tmp: String, sharedMemory: String)
}

/// A box that holds a lease (`Box`, `WarmBox`), and what it is known by while it lives.
protocol LeasedBox: AnyObject {
  var lease: BoxLease { get }
}

extension LeasedBox {
  var host: SandboxHost { lease.host }
  var name: String { lease.name }
  var identity: HostIdentity { lease.identity }
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

/// What every box holds from creation to `release()`: its name, a leased host uid/gid pair, its
/// place among the boxes `BoxInterruption` counts, its work directory and its cgroup.
final class BoxLease {
  let host: SandboxHost
  let name: String
  let identity: HostIdentity
  let directory: BoxDirectory
  var cgroup: BoxCgroup?
  private var released = false

  /// Leases an identity and admits the box; throws (holding nothing) once the process is stopping.
  init(host: SandboxHost) throws(SandboxError) {
    self.host = host
    host.unmountScratchLeftToExit()
    name = host.nextBoxName()
    identity = try host.identities.next()
    directory = BoxDirectory(path: host.boxesDirectory + "/" + name)
    do {
      try BoxInterruption.admit()
    } catch {
      released = true
      host.identities.release(identity)
      throw error
    }
  }

  /// The box's cgroup(s), limited to `limits`.
  func createCgroup(limits: BoxLimits) throws(SandboxError) {
    cgroup = try host.cgroups.createBoxGroup(named: CgroupSetup.boxGroupPrefix + name, limits: limits)
  }

  /// Options of a box's scratch tmpfs (/box, and a warm box's /tmp and /dev/shm): owned by the
  /// program's uid and private to it, so other host users cannot look into a learner's files
  /// through the host side.
  func scratchOptions(bytes: UInt64) -> String {
    "size=\(bytes),nr_inodes=16384,mode=0700,uid=\(identity.programUID),gid=\(identity.programUID)"
  }

  /// Makes `path` and mounts a scratch tmpfs of `bytes` on it; `made` is called once the directory
  /// exists, so a failed mount still leaves it to be removed.
  func mountScratch(_ path: String, bytes: UInt64, made: () -> Void) throws(SandboxError) {
    try SandboxError.systemCall("mkdir \(path)") { mkdir(path, 0o700) }
    made()
    let options = scratchOptions(bytes: bytes)
    try SandboxError.systemCall("mount tmpfs on \(path)") {
      mount("tmpfs", path, "tmpfs", UInt(MS_NOSUID | MS_NODEV), options)
    }
  }

  /// Lets the CLI's signal thread kill the box's processes while it lives (see BoxInterruption).
  func registerInterruption(_ process: BoxProcess) -> UInt64 {
    let pidfd = process.pidfd
    return BoxInterruption.register { [cgroup] in
      _ = dsa_pidfd_send_signal(pidfd, SIGKILL)
      cgroup?.killAll()
    }
  }

  /// Removes the cgroup(s).
  func destroyCgroup() {
    cgroup?.destroy()
    cgroup = nil
  }

  /// Gives back the identity and the admission; idempotent. Call last, once nothing of the box is left.
  func release() {
    if released { return }
    released = true
    host.identities.release(identity)
    BoxInterruption.leave()
  }

  /// Whether a box's cgroups are better made after its clone (`spawnInit(..., makesCgroupAfterGo:)`):
  /// under v1 the init joins its groups through fds that can be handed to it later. Under v2 the
  /// group must exist at the clone (CLONE_INTO_CGROUP).
  var makesCgroupAfterClone: Bool { host.cgroups.mode == .v1 }

  /// Clones the box's init (all plan data prepared here, in the parent), writes its uid/gid maps
  /// and lets it go. `limits` size the scratch mounts and give the init's rlimits. With
  /// `makesCgroupAfterGo` (it counts only when `makesCgroupAfterClone` and no cgroup exists yet)
  /// the box's v1 groups, with `limits`, are made after the go, while the init builds the box's file system on the other CPU,
  /// and then sent to the init, which joins them before it starts the program: the 0.3 to 0.5 ms
  /// of mkdir and limit writes no longer come before the init's own work.
  func spawnInit(
    layout: BoxLayout, limits: BoxLimits, role: InitRole, pipes: PipeSet, makesCgroupAfterGo: Bool = false
  ) throws(SandboxError) -> (BoxProcess, [PlannedMount]) {
    let joinsLate = makesCgroupAfterGo && cgroup == nil && makesCgroupAfterClone
    let program: BoxSpec?
    let scratchDirectories: (tmp: String, sharedMemory: String)?
    switch role {
    case .runOnce(let spec):
      program = spec
      scratchDirectories = nil
    case .serve(let tmp, let sharedMemory):
      program = nil
      scratchDirectories = (tmp, sharedMemory)
    }
    let strings = CStringArena()
    defer { strings.release() }
    let argv = strings.array(program?.command ?? [])
    let envp = strings.array(program?.environment ?? [])
    let planned = plannedMounts(
      layout: host.layout, workDirectory: directory.path, limits: limits, extra: layout.readOnlyMounts,
      mountProc: layout.mountProc, terminal: layout.terminal, scratchDirectories: scratchDirectories)
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
    let cgroupAtClone = self.cgroup
    let identity = self.identity

    let network = SandboxHost.takePreparedNetworkNamespace()
    defer { network?.close() }
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
          plan.terminal_fd = pipes.terminal.write.rawValue
          plan.command_fd = pipes.commands.write.rawValue
          plan.cgroup_fd = cgroupAtClone?.directory.rawValue ?? -1
          let joinFDs = cgroupAtClone?.joinFDs ?? []
          plan.cgroup_join_count = joinsLate ? Int32(CgroupSetup.V1Controller.allCases.count) : Int32(joinFDs.count)
          plan.cgroup_join_late = joinsLate ? 1 : 0
          plan.cgroup_join_fds = (
            joinFDs.count > 0 ? joinFDs[0] : -1, joinFDs.count > 1 ? joinFDs[1] : -1,
            joinFDs.count > 2 ? joinFDs[2] : -1
          )
          plan.namespace_flags = SandboxHost.namespaceFlags
          plan.network_namespace_fd = network?.rawValue ?? -1
          plan.serve = scratchDirectories == nil ? 0 : 1
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
    // a hang-up on it as the parent's death (see exit_if_parent_gone in CSandbox/init.c).
    var go: UInt8 = 0x67
    _ = Glibc.write(pipes.go.write.rawValue, &go, 1)
    if joinsLate {
      do {
        try createCgroup(limits: limits)
        let joinFDs = cgroup?.joinFDs ?? []
        try SandboxError.systemCall("send the box's cgroups to its init") {
          dsa_send_cgroup_join(pipes.go.write.rawValue, joinFDs, Int32(joinFDs.count))
        }
        cgroup?.closeJoinFiles()
      } catch {
        process.close()
        throw error
      }
    }
    return (process, planned)
  }

  /// Fills in what the box measured of a run: CPU time and peak memory from the cgroup, else from
  /// the init's report (`ended`) or, when there is none, the init's own usage (one-shot boxes reap it).
  func account(_ ending: inout BoxEnding, ended: dsa_report?, initUsage: BoxProcess.Usage) {
    ending.waitStatus = ended.map { $0.wait_status }
    let reportedCPU = ended.map { UInt64($0.user_cpu_us + $0.system_cpu_us) } ?? initUsage.cpuMicroseconds
    let rlimitCPU = ended.map { UInt64(max(0, $0.program_rlimit_cpu_us)) } ?? 0
    if rlimitCPU > 0 { ending.programRLimitCPUMilliseconds = rlimitCPU / 1000 }
    ending.cpuRLimitMilliseconds = cpuRLimitSeconds(for: ending.limits, mode: host.cgroups.mode) * 1000
    // Without a cgroup, RLIMIT_CPU is the limit, and its count of the program's CPU time (clock
    // ticks) can run ahead of the rusage figures (the scheduler's nanoseconds): the larger is
    // reported, so a program the rlimit stopped never shows a figure under its limit.
    ending.cpuMilliseconds = (cgroup?.cpuMicroseconds() ?? max(reportedCPU, rlimitCPU)) / 1000
    let reportedRSS = UInt64(max(Int(ended?.max_rss_kb ?? 0), initUsage.maxRSSKilobytes))
    if let cgroup {
      ending.memoryKilobytes = (cgroup.peakMemoryBytes() ?? reportedRSS * 1024) / 1024
      ending.memoryLimitHit = cgroup.memoryLimitHit()
    } else {
      ending.memoryKilobytes = reportedRSS
      // Degraded: RLIMIT_DATA makes allocations fail; a failed end near the
      // budget is taken as running out of memory.
      ending.memoryLimitHit = reportedRSS * 1024 >= ending.limits.memoryBytes / 2
    }
  }

  /// The outcome of a run from what the pump saw and the box measured.
  func outcome(
    of pump: StreamPump, spec: BoxSpec, ended: dsa_report?, initUsage: BoxProcess.Usage,
    wallMicroseconds: UInt64, memoryAllowanceBytes: UInt64 = 0
  ) -> Outcome {
    var ending = pump.ending(spec: spec, wallMicroseconds: wallMicroseconds)
    account(&ending, ended: ended, initUsage: initUsage)
    // The box's group was given this much above the run's limit for what its runtime held before
    // the handover (PrewarmedBox): the run's figure is what it used above that.
    let allowance = memoryAllowanceBytes / 1024
    ending.memoryKilobytes = ending.memoryKilobytes > allowance ? ending.memoryKilobytes - allowance : 0
    return Outcome(ending, output: pump.output, accounting: host.cgroups.mode.rawValue)
  }
}
