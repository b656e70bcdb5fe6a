internal import CSandbox
import Foundation
import Glibc
import Synchronization
import SystemCore

/// A box that is built once and runs many programs, one at a time.
///
/// Namespaces, the mount tree, the cgroup and the work directory are made
/// once. Every run ends with every process of the box killed and, before the
/// box serves anyone else, `reset`: the init removes the run's IPC objects,
/// replaces its IPC namespace and rewinds the pid counter; the host empties
/// /box, /tmp and /dev/shm (host tmpfs mounts), gives their roots back their
/// fresh mode, owner and no extended attributes, and compares the box's
/// `BoxFingerprint` with the one taken when it was fresh. A box that differs
/// is discarded. Each run then gets its own limits and reset counters. What a
/// run cannot reach, the next run cannot either: the same walls as a one-shot
/// `Box`, without paying for new namespaces per run (creating and tearing down
/// a network namespace alone costs about a millisecond).
///
/// As a `BoxEnvironment` it runs one command per `BoxPool.get`; the pool resets it on `put`.
public final class WarmBox: HostDirectoryEnvironment, LeasedBox, @unchecked Sendable {
  public let layout: BoxLayout
  let lease: BoxLease
  public var directory: BoxDirectory { lease.directory }
  private var cgroup: BoxCgroup? { lease.cgroup }
  private var process: BoxProcess?
  /// The host's end of the control socket pair, open while the box lives.
  private var control = OwnedDescriptor(-1)
  /// The go pipe's write end, open while the box lives (its hang-up tells
  /// the init the parent died).
  private var parentAlive = OwnedDescriptor(-1)
  private var planned: [PlannedMount] = []
  private var destroyed = false
  private var interruption: UInt64?
  private var broken = false
  /// True once the init died, the protocol failed or a reset failed: the box must not run again.
  /// Waits for a reset the pool is doing after the box's last run.
  public var isBroken: Bool {
    pendingReset.wait()
    return broken
  }
  /// `isBroken` for the pool's reset thread, which holds the gate.
  var isBrokenWithoutWaiting: Bool { broken }
  /// Open while the pool resets the box on its reset thread (`BoxPool.put`): what callers observe
  /// of the box waits for that reset.
  let pendingReset = ResetGate()
  /// Runs served so far.
  public private(set) var runCount = 0
  /// The box's state before its first run; every reset must bring it back.
  public private(set) var freshFingerprint: BoxFingerprint?
  /// The state found by the last reset (tests, diagnostics).
  public private(set) var lastFingerprint: BoxFingerprint?
  /// From a run's start until `reset` has proved the box fresh again.
  private var needsReset = false
  /// The cgroup's counters were armed for the next run by the last reset (off the request's
  /// path; a new box's first run arms them itself: under cgroup v1 its init may still be joining
  /// the group); a run clears it.
  private var countersArmed = false
  /// The init's end-of-run reset of the last run: the failed DSA_RESET_*
  /// step (0 for none) and its errno; nil when the run sent no report.
  private var initReset: (step: Int32, error: Int32)?
  /// The last run ended and the init's reset record has not been read yet (the init sends it
  /// after the run's end, so the answer does not wait for the reset).
  private var initResetPending = false
  /// Whether the init still runs (its pidfd is not readable yet).
  public var isAlive: Bool {
    guard !destroyed, !broken, let process else { return false }
    var entry = pollfd(fd: process.pidfd, events: Int16(POLLIN), revents: 0)
    return poll(&entry, 1, 0) == 0
  }

  /// The init's host pid (for tests and diagnostics).
  public var initPID: Int32? { process?.pid }

  private static let liveInits = Mutex<Set<Int32>>([])
  /// Host pids of the inits of every warm box of this process that is not
  /// destroyed: idle boxes are expected to be alive.
  public static var liveInitPIDs: Set<Int32> { liveInits.withLock { $0 } }

  public init(host: SandboxHost, layout: BoxLayout) throws(SandboxError) {
    try validateMounts(layout.readOnlyMounts)
    self.layout = layout
    lease = try BoxLease(host: host)
    do {
      try start()
    } catch {
      destroy()
      throw error
    }
  }

  deinit { destroy() }

  /// Host tmpfs mounts bound at /tmp and /dev/shm, emptied between runs.
  private var tmp: BoxDirectory { BoxDirectory(path: directory.path + ".tmp") }
  private var sharedMemory: BoxDirectory { BoxDirectory(path: directory.path + ".shm") }
  private var mounted: [String] = []
  /// The options each scratch root is mounted with now (/box, /tmp, /dev/shm):
  /// a run with the same sizes as the last skips the remounts.
  private var scratchOptions: [String] = []
  private var scratchRoots: [String] { [directory.path, tmp.path, sharedMemory.path] }
  /// The scratch roots' mount roots, in the order of `scratchRoots`, opened once (`O_NOFOLLOW`): a
  /// reset empties and checks them through these (a remount keeps the mount, so they stay valid).
  private var rootDescriptors: [OwnedDescriptor] = []
  /// The init's /proc/<pid>/net/sockstat and /proc/<pid>/limits, read from their start at every
  /// fingerprint.
  private var sockstat = OwnedDescriptor(-1)
  private var initLimits = OwnedDescriptor(-1)

  /// The scratch roots' sizes for `limits`, in the order of `scratchRoots`.
  private func scratchSizes(_ limits: BoxLimits) -> [UInt64] {
    [limits.workDirectoryBytes, limits.tmpBytes, limits.sharedMemoryBytes]
  }

  private func start() throws(SandboxError) {
    let defaults = BoxLimits()
    scratchOptions = scratchSizes(defaults).map { lease.scratchOptions(bytes: $0) }
    for (path, bytes) in zip(scratchRoots, scratchSizes(defaults)) {
      try lease.mountScratch(path, bytes: bytes) { mounted.append(path) }
    }
    rootDescriptors = scratchRoots.map { OwnedDescriptor(open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW)) }
    try lease.createCgroup(limits: BoxLimits.ceilings)

    var sockets: [Int32] = [-1, -1]
    try SandboxError.systemCall("socketpair for a warm box") { dsa_control_socketpair(&sockets) }
    control = OwnedDescriptor(sockets[0])
    let initEnd = OwnedDescriptor(sockets[1])
    var pipes = try PipeSet()
    defer { pipes.closeAll() }
    // The init's side of the socket pair takes the report pipe's place.
    pipes.report.read.close()
    pipes.report.write.close()
    pipes.report = OwnedPair(read: OwnedDescriptor(-1), write: initEnd)
    // Cloned on the process-long spawn thread: the box's parent-death signal
    // follows that thread, not the caller's (see SpawnThread).
    let (process, planned) = try SpawnThread.shared.run { () throws(SandboxError) in
      try lease.spawnInit(
        layout: layout, limits: defaults, role: .serve(tmp: tmp.path, sharedMemory: sharedMemory.path),
        pipes: pipes)
    }
    self.process = process
    self.planned = planned
    let pid = process.pid
    Self.liveInits.withLock { _ = $0.insert(pid) }
    interruption = lease.registerInterruption(process)
    // Kept past `pipes.closeAll()`: the box holds it from here on.
    parentAlive = OwnedDescriptor(pipes.go.write.take())
    sockstat = OwnedDescriptor(dsa_open_socket_count(pid))
    initLimits = OwnedDescriptor(dsa_open_limits(pid))
    var fresh = readFingerprint()
    // Under cgroup v1 the init joins its groups itself, perhaps after this
    // reading; a fresh box holds its init and nothing else.
    if fresh.processes != nil { fresh.processes = 1 }
    // Likewise the init sets its own RLIMIT_CORE when it starts serving (dsa_init_serve).
    fresh.setInitCoreLimit(UInt64(DSA_CORE_FILE_BYTES))
    freshFingerprint = fresh
  }

  /// Arms the cgroup's counters for the next run before it comes; on failure the run arms them
  /// itself, and reports the failure there.
  private func armCountersForTheNextRun() {
    do {
      try cgroup?.armCounters()
      countersArmed = true
    } catch {
      countersArmed = false
    }
  }

  /// The box's state now, as the host sees it (once a reset in progress is done).
  public func fingerprint() -> BoxFingerprint {
    pendingReset.wait()
    return readFingerprint()
  }

  /// `roots`: the scratch roots as just read, if they were.
  private func readFingerprint(roots: [BoxFingerprint.Root?]? = nil) -> BoxFingerprint {
    BoxFingerprint.read(
      roots: roots ?? rootDescriptors.map { BoxFingerprint.readRoot($0.rawValue) }, sockstat: sockstat.rawValue,
      limits: initLimits.rawValue, initPID: process?.pid ?? -1, cgroup: cgroup, fresh: freshFingerprint)
  }

  /// Puts a file in /box before the next run, owned by the program's uid.
  public func writeFile(_ name: String, contents: Data, executable: Bool = false) throws(SandboxError) {
    try directory.write(name: name, contents: contents, executable: executable, owner: identity.programUID)
  }

  /// Sizes /box, /tmp and /dev/shm for the next run (resetting the box first
  /// if the last run's caller did not). Call before writing the next run's
  /// files; `run` does not empty /box (the files are input).
  public func prepare(limits: BoxLimits) throws(SandboxError) {
    guard !destroyed, !broken else {
      throw SandboxError(step: "prepare: the warm box is not usable", errorNumber: EINVAL)
    }
    if needsReset {
      let reasons = reset()
      guard reasons.isEmpty else {
        throw SandboxError(
          step: "prepare: the last run's state could not be reset (\(reasons.sorted().map(\.rawValue)))",
          errorNumber: EBUSY)
      }
    }
    let wanted = scratchSizes(limits).map { lease.scratchOptions(bytes: $0) }
    do {
      for (index, path) in scratchRoots.enumerated() where scratchOptions[index] != wanted[index] {
        try SandboxError.systemCall("resize \(path)") {
          mount(nil, path, nil, UInt(MS_REMOUNT | MS_NOSUID | MS_NODEV), wanted[index])
        }
        scratchOptions[index] = wanted[index]
      }
    } catch {
      broken = true
      throw error
    }
  }

  /// Brings the box back to its fresh state after a run and proves it by its
  /// fingerprint. Returns why the box must be discarded (it is then marked
  /// broken); empty when it may serve another learner. Call once the run's
  /// outputs have been read: it empties /box.
  @discardableResult
  public func reset() -> Set<BoxDiscardReason> {
    guard !destroyed, !broken, process != nil, let fresh = freshFingerprint else { return [.broken] }
    guard needsReset else { return [] }
    if initResetPending { awaitInitReset() }
    var reasons: Set<BoxDiscardReason> = []
    switch initReset?.step {
    case 0?: break
    case Int32(DSA_RESET_PID_COUNTER.rawValue)?: reasons.insert(.pidCounter)
    default: reasons.insert(.ipc)
    }
    // A root found fresh is not read again for the fingerprint: nothing runs in the box now, and
    // its reset only set its times.
    var rootsRead: [BoxFingerprint.Root?] = []
    for (index, root) in rootDescriptors.enumerated() {
      let (problem, found) = resetScratchRoot(root.rawValue, fresh: fresh.roots[index])
      if let problem { reasons.insert(problem) }
      rootsRead.append(found ?? BoxFingerprint.readRoot(root.rawValue))
    }
    if reasons.isEmpty { reasons = settle(towards: fresh, roots: rootsRead) }
    if reasons.isEmpty {
      needsReset = false
      armCountersForTheNextRun()
    } else {
      broken = true
    }
    return reasons
  }

  /// Reads the init's record of its reset after the last run (other records, a late report of
  /// the run, are skipped). Without it (the init died or hung), `initReset` stays nil and the
  /// reset discards the box.
  private func awaitInitReset() {
    initResetPending = false
    guard let process else { return }
    let size = MemoryLayout<dsa_report>.size
    var entries = [
      pollfd(fd: control.rawValue, events: Int16(POLLIN), revents: 0),
      pollfd(fd: process.pidfd, events: Int16(POLLIN), revents: 0),
    ]
    while true {
      let ready = poll(&entries, 2, Self.initResetWaitMilliseconds)
      if ready < 0 && errno == EINTR { continue }
      guard ready > 0 else { return }
      if entries[0].revents & Int16(POLLIN) != 0 {
        var record = dsa_report()
        let received = withUnsafeMutableBytes(of: &record) {
          recv(control.rawValue, $0.baseAddress, size, Int32(MSG_DONTWAIT))
        }
        if received < 0 && (errno == EAGAIN || errno == EINTR) { continue }
        guard received == size else { return }
        if UInt32(bitPattern: record.kind) == DSA_REPORT_RESET_DONE.rawValue {
          initReset = (record.reset_step, record.reset_error)
          return
        }
        continue
      }
      // Hung up, or the init ended with nothing more to read.
      return
    }
  }

  /// How long a reset waits for the init's reset record before it gives the box up.
  static let initResetWaitMilliseconds: Int32 = 10_000

  /// Empties a scratch root and gives it back its fresh mode, owner, times
  /// and no extended attributes. The program owns the root, so it may have
  /// made it mode 0 (every later run, compile boxes included, would fail to
  /// reach /box), added an ACL or a user xattr (a note to the next run), or
  /// set its times. A tmpfs remount does not reset any of that; this does,
  /// on the descriptor of the mount root itself, never following a link.
  /// Also returns the root as read when it was found fresh (nil when it was reset otherwise).
  private func resetScratchRoot(
    _ fd: Int32, fresh: BoxFingerprint.Root?
  ) -> (problem: BoxDiscardReason?, freshRoot: BoxFingerprint.Root?) {
    guard fd >= 0 else { return (.rootModes, nil) }
    // A root that reads as it did fresh (mode, owner, no extended attributes, no inode but its own)
    // holds no entry to remove and no mode to restore; only its times may carry a note.
    if let fresh, BoxFingerprint.readRoot(fd) == fresh {
      return (dsa_reset_directory_times(fd) == 0 ? nil : .rootModes, fresh)
    }
    do {
      try BoxDirectory.removeEntries(in: fd, depth: 0)
    } catch {
      return (.files, nil)
    }
    return (dsa_reset_directory_root(fd, identity.programUID, 0o700) == 0 ? nil : .rootModes, nil)
  }

  /// Compares the box with its fresh self. Two differences may pass within
  /// a bounded wait: memory the kernel frees from a workqueue (an old IPC
  /// namespace's message queues) or can reclaim now (page cache), and a
  /// socket cycle in flight that the kernel's garbage collector has not
  /// visited yet. Anything else is final.
  private func settle(towards fresh: BoxFingerprint, roots: [BoxFingerprint.Root?]) -> Set<BoxDiscardReason> {
    var now = readFingerprint(roots: roots)
    var reasons = now.differences(from: fresh)
    if !reasons.isEmpty && reasons.isSubset(of: [.memory, .sockets]) {
      if reasons.contains(.memory) { cgroup?.reclaimMemory() }
      if reasons.contains(.sockets) { collectUnixSocketGarbage() }
      let deadline = monotonicMilliseconds() + Self.settleMilliseconds
      while !reasons.isEmpty && monotonicMilliseconds() < deadline {
        usleep(1000)
        now = readFingerprint()
        reasons = now.differences(from: fresh)
      }
    }
    lastFingerprint = now
    return reasons
  }

  /// How long a reset waits for the kernel's deferred frees before it gives the box up.
  static let settleMilliseconds: UInt64 = 50

  /// The kernel runs its collector of Unix sockets kept alive only by each
  /// other (fds in flight) when some Unix socket is released; nothing in an
  /// emptied box releases one, so the reset does.
  private func collectUnixSocketGarbage() {
    let socketFD = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    if socketFD >= 0 { close(socketFD) }
  }

  /// Writes the command's files and runs it (after `prepare`, which `BoxPool.get` does).
  public func run(_ command: BoxCommand) throws(SandboxError) -> Outcome {
    guard !destroyed, !broken else {
      throw SandboxError(step: "run: the warm box is not usable", errorNumber: EINVAL)
    }
    for file in command.files { try writeFile(file.name, contents: file.contents, executable: file.executable) }
    return try run(command.spec, stdin: command.stdin, live: command.live)
  }

  /// Runs one program. The spec's mounts must be this box's layout.
  public func run(_ spec: BoxSpec, stdin input: Data = Data()) throws(SandboxError) -> Outcome {
    try run(spec, stdin: input, live: nil)
  }

  private func run(_ spec: BoxSpec, stdin input: Data, live: BoxLive?) throws(SandboxError) -> Outcome {
    let program = try startProgram(spec, live: live)
    return try awaitProgram(program, spec: spec, stdin: input, live: live)
  }

  /// The host's ends of a started program's stdio (a pre-warmed program keeps them while it waits).
  struct StartedProgram {
    let stdin: OwnedDescriptor
    let stdout: OwnedDescriptor
    let stderr: OwnedDescriptor
    let terminal: OwnedDescriptor?
  }

  /// Sends the program to the init; it runs from here on, and `awaitProgram` pumps its stdio.
  func startProgram(_ spec: BoxSpec, live: BoxLive?) throws(SandboxError) -> StartedProgram {
    guard !destroyed, !broken, process != nil else {
      throw SandboxError(step: "run: the warm box is not usable", errorNumber: EINVAL)
    }
    try validateProgram(spec, ceilings: live == nil ? .ceilings : .liveCeilings)
    guard layout.accepts(spec) else {
      throw SandboxError(step: "run: the spec's mounts or policy differ from this warm box's", errorNumber: EINVAL)
    }
    if spec.terminal && live == nil {
      throw SandboxError(step: "run: a terminal needs live input (BoxCommand.live)", errorNumber: EINVAL)
    }
    // A caller that ran twice without a reset between: the init reset the box before it read
    // this command; its record is the last run's.
    if initResetPending { awaitInitReset() }
    runCount += 1
    needsReset = true
    initReset = nil
    let armed = countersArmed
    countersArmed = false
    try cgroup?.beginRun(limits: spec.limits, countersArmed: armed)

    let stdinPipe = try PipePair.makePipe()
    let stdoutPipe = try PipePair.makePipe()
    let stderrPipe = try PipePair.makePipe()
    for fd in [stdinPipe.write, stdoutPipe.read, stderrPipe.read] {
      // F_SETFL sets the status flags alone (the access mode stays), and a new pipe has none.
      _ = fcntl(fd.rawValue, F_SETFL, O_NONBLOCK)
    }
    // A live run's program reads the live input's own pipe.
    let programStdin =
      spec.terminal ? nil : try live.map { live throws(SandboxError) in try live.input.programStdin() }
    do throws(SandboxError) {
      // Merged, the program gets stdout's pipe twice and stderr's pipe has no writer at all.
      try send(
        spec, stdin: programStdin?.rawValue ?? stdinPipe.read.rawValue, stdout: stdoutPipe.write.rawValue,
        stderr: spec.mergesStderrIntoStdout ? stdoutPipe.write.rawValue : stderrPipe.write.rawValue)
    } catch {
      broken = true
      // An init that failed to build the box reports the step and ends, often before the run is sent.
      if let failure = pendingSetupFailure() { throw setupError(failure, plan: planned, command: spec.command) }
      throw error
    }
    stdinPipe.read.close()
    programStdin?.close()
    stdoutPipe.write.close()
    stderrPipe.write.close()
    var terminal: OwnedDescriptor?
    if spec.terminal {
      let (master, failure) = receiveTerminal(control.rawValue)
      if let failure { throw setupError(failure, plan: planned, command: spec.command) }
      guard let master else {
        broken = true
        throw SandboxError(step: "the warm box's init sent no pty for the run", errorNumber: errno)
      }
      terminal = master
    }
    return StartedProgram(
      stdin: stdinPipe.write, stdout: stdoutPipe.read, stderr: stderrPipe.read, terminal: terminal)
  }

  /// Feeds a started program its stdin and reads its output until it ends; its wall time (and,
  /// as `beginRun` or `restartCPUCount` left the cgroup, its CPU time) counts from this call.
  func awaitProgram(
    _ program: StartedProgram, spec: BoxSpec, stdin input: Data, live: BoxLive?
  ) throws(SandboxError) -> Outcome {
    try awaitProgram(program, spec: spec, stdin: input, live: live, stage: nil).outcome
  }

  /// `awaitProgram` for a program that first compiles (`stage`): the outcome is the run's, from the
  /// stage's marker on, with what the compile used beside it (nil when no marker came). A
  /// `memoryAllowanceBytes` the box was given for its runtime's warm-up is not reported as the run's.
  func awaitProgram(
    _ program: StartedProgram, spec: BoxSpec, stdin input: Data, live: BoxLive?, stage: PrewarmStage?,
    memoryAllowanceBytes: UInt64 = 0
  ) throws(SandboxError) -> (outcome: Outcome, stageUsage: (cpuMicroseconds: UInt64, wallMicroseconds: UInt64)?) {
    guard !destroyed, !broken, let process else {
      throw SandboxError(step: "run: the warm box is not usable", errorNumber: EINVAL)
    }
    let terminal = program.terminal
    let started = monotonicMilliseconds()
    let startedMicroseconds = monotonicMicroseconds()
    var pump = StreamPump(
      input: input, stdin: program.stdin, stdout: terminal ?? program.stdout, stderr: program.stderr,
      reports: ControlSocketReports(fd: control.rawValue), outputLimit: Int(spec.limits.outputBytesPerStream),
      live: live, terminal: terminal != nil)
    if let stage { pump.expect(stage) }
    let control = self.control.rawValue
    BoxCancellation.attached(process) {
      pump.run(
        process: process, started: started, limits: spec.limits,
        cpuMicroseconds: { [cgroup] in cgroup?.cpuMicroseconds() },
        kill: { _ = dsa_send_kill(control) },
        signal: { _ = dsa_send_signal(control, $0) },
        restartCPUCount: { [cgroup] in cgroup?.restartCPUCount() })
    }
    live?.input.endRun()
    let stageUsage = pump.stageUsage
    let wallMicroseconds = monotonicMicroseconds() - startedMicroseconds - (stageUsage?.wallMicroseconds ?? 0)
    let ended = pump.report(DSA_REPORT_PROGRAM_ENDED)
    if ended != nil {
      if let done = pump.report(DSA_REPORT_RESET_DONE) {
        initReset = (done.reset_step, done.reset_error)
      } else {
        initResetPending = true
      }
    }
    let setupFailure = pump.report(DSA_REPORT_SETUP_FAILED)
    let initDied = pump.initExited || pump.channel.hungUp
    if initDied, let setupFailure {
      // The init could not build the box (a mount source the box's user cannot reach, say) and
      // ended: name the step it reported, not just its death.
      broken = true
      throw setupError(setupFailure, plan: planned, command: spec.command)
    }
    if initDied {
      broken = true
      // The OOM killer may take the init (see Box.run); the run still ran
      // out of memory. The broken box is discarded by the pool.
      guard cgroup?.memoryLimitHit() == true else {
        throw SandboxError(step: "the warm box's init died during a run")
      }
      let outcome = lease.outcome(
        of: pump, spec: spec, ended: killedReport(), initUsage: BoxProcess.Usage(),
        wallMicroseconds: monotonicMicroseconds() - startedMicroseconds - (stageUsage?.wallMicroseconds ?? 0),
        memoryAllowanceBytes: memoryAllowanceBytes)
      return (outcome, stageUsage)
    }
    if let setupFailure {
      throw setupError(setupFailure, plan: planned, command: spec.command)
    }
    let outcome = lease.outcome(
      of: pump, spec: spec, ended: ended, initUsage: BoxProcess.Usage(), wallMicroseconds: wallMicroseconds,
      memoryAllowanceBytes: memoryAllowanceBytes)
    return (outcome, stageUsage)
  }

  /// A setup failure the init reported before it ended, read without waiting; nil if none.
  private func pendingSetupFailure() -> dsa_report? {
    let size = MemoryLayout<dsa_report>.size
    var record = dsa_report()
    // Reports are one record per SEQPACKET message.
    while withUnsafeMutableBytes(of: &record, { recv(control.rawValue, $0.baseAddress, size, Int32(MSG_DONTWAIT)) })
      == size
    {
      if UInt32(bitPattern: record.kind) == DSA_REPORT_SETUP_FAILED.rawValue { return record }
    }
    return nil
  }

  private func send(_ spec: BoxSpec, stdin: Int32, stdout: Int32, stderr: Int32) throws(SandboxError) {
    let rlimits = plannedRLimits(for: spec.limits, mode: host.cgroups.mode)
    let strings = CStringArena()
    defer { strings.release() }
    let argv = strings.array(spec.command)
    let envp = strings.array(spec.environment)
    let workingDirectory = strings.string(spec.workingDirectory)
    var header = dsa_run_command()
    header.magic = DSA_RUN_COMMAND_MAGIC
    header.uid = boxProgramID
    header.gid = boxProgramID
    header.argument_count = UInt32(spec.command.count)
    header.environment_count = UInt32(spec.environment.count)
    header.rlimit_count = UInt32(rlimits.count)
    let filter = layout.initFilter?.filter ?? spec.policy.filter
    header.filter_length = UInt32(filter.count)
    header.reserved =
      (spec.terminal ? DSA_RUN_TERMINAL : 0) | (layout.initFilter != nil ? DSA_RUN_INIT_FILTER : 0)
      | (layout.initFilter?.noticesIPCCreation == true ? DSA_RUN_INIT_IPC_NOTICE : 0)
    let capacity = Int(DSA_COMMAND_MAXIMUM_BYTES)
    let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
    defer { buffer.deallocate() }
    let length = rlimits.withUnsafeBufferPointer { rlimitBuffer in
      filter.withUnsafeBytes { filter in
        dsa_encode_run_command(
          buffer, capacity, &header, rlimitBuffer.baseAddress, filter.baseAddress, workingDirectory,
          UnsafePointer(argv), UnsafePointer(envp))
      }
    }
    guard length > 0 else {
      throw SandboxError(
        step: "the command, its arguments and environment exceed \(capacity) bytes", errorNumber: E2BIG)
    }
    if dsa_send_run_command(control.rawValue, buffer, length, stdin, stdout, stderr) != 0 {
      broken = true
      throw SandboxError(step: "send a run to the warm box", errorNumber: errno)
    }
  }

  /// Ends the init (and so every process of the box) and removes what the
  /// box created; idempotent.
  public func destroy() {
    if destroyed { return }
    destroyed = true
    defer { lease.release() }
    // Before the pidfd is closed: the killer must not signal a reused descriptor.
    if let interruption { BoxInterruption.unregister(interruption) }
    interruption = nil
    control.close()
    parentAlive.close()
    sockstat.close()
    initLimits.close()
    for root in rootDescriptors { root.close() }
    rootDescriptors = []
    if let pid = process?.pid { Self.liveInits.withLock { _ = $0.remove(pid) } }
    process?.close()
    process = nil
    lease.destroyCgroup()
    for path in mounted.reversed() {
      _ = umount2(path, Int32(MNT_DETACH))
      _ = rmdir(path)
    }
    mounted = []
  }
}

/// A warm box's reports: messages on its control socket, which stays open across runs. The run
/// is over when the init reported its end (or refused the command) and the program's stdout and
/// stderr are closed, or when the init exited.
struct ControlSocketReports: InitReportChannel {
  private(set) var fd: Int32
  /// The init closed its end: it died, and the box is broken.
  private(set) var hungUp = false

  init(fd: Int32) { self.fd = fd }

  func receive(into buffer: UnsafeMutableRawPointer, capacity: Int) -> Int {
    recv(fd, buffer, capacity, Int32(MSG_DONTWAIT))
  }

  /// The socket is the box's, closed by `destroy`; the pump only stops polling it.
  mutating func hangUp() {
    hungUp = true
    fd = -1
  }

  func runIsOver(initExited: Bool, outputClosed: Bool, reports: [dsa_report]) -> Bool {
    initExited || (outputClosed && reports.contains(where: Self.endsTheRun))
  }

  /// The program ended, or the init refused the command (then no program was started).
  private static func endsTheRun(_ report: dsa_report) -> Bool {
    let kind = UInt32(bitPattern: report.kind)
    let step = UInt32(bitPattern: report.step)
    return kind == DSA_REPORT_PROGRAM_ENDED.rawValue
      || (kind == DSA_REPORT_SETUP_FAILED.rawValue
        && [DSA_STEP_COMMAND.rawValue, DSA_STEP_RESET_SCRATCH.rawValue, DSA_STEP_FORK_PROGRAM.rawValue].contains(step))
  }
}

/// Warm boxes kept for reuse, by layout. A box is handed to one caller at a time. A box given
/// back is reset on the pool's reset thread, after its caller has its answer and before anyone
/// gets the box again; a box whose reset fails, or a broken one, is destroyed instead.
public final class BoxPool: BoxEnvironmentPool, @unchecked Sendable {
  public let host: SandboxHost
  public let maximumIdlePerLayout: Int
  /// Guards everything below; waited on by callers that need a box of a layout whose boxes are all
  /// being reset, and by `drain` and the observers, which wait for every reset to end.
  private let state = NSCondition()
  private var idle: [BoxLayout: [WarmBox]] = [:]
  /// Boxes given back whose reset has not ended, per layout (queued or in progress).
  private var resetting: [BoxLayout: Int] = [:]
  private var resetQueue: [WarmBox] = []
  /// Resets asked for and ended since the pool was made; they end in the order asked for.
  private var resetsBegun: UInt64 = 0
  private var resetsEnded: UInt64 = 0
  private var resetThreadRuns = false
  /// The reset thread waits for a `put` to signal it (after a look found nothing to do and no box
  /// given back since the look before); otherwise it looks again every `resetThreadLookSeconds`, and
  /// a `put` does not wake it: callers under load take their own boxes' resets (`acquire`), and a
  /// wake per run for a reset already taken cost two thread switches.
  private var resetThreadAwaitsSignal = false
  /// Boxes given back since the reset thread last looked at the queue.
  private var putsSinceLook = 0
  /// Callers of `settled` waiting for resets to end.
  private var observersWaiting = 0
  private var discards: [BoxDiscardReason: UInt64] = [:]
  /// Callers waiting in `get` for a reset to end (tests).
  private var waitingForReset = 0
  /// Called on the reset thread before each reset (tests: a reset that blocks).
  private let beforeReset: (@Sendable (WarmBox) -> Void)?

  /// How long the reset thread waits for more boxes before it ends (the next `put` starts another).
  static let resetThreadIdleSeconds = 2.0
  /// How long a box given back waits at most for the reset thread while boxes keep coming back.
  static let resetThreadLookSeconds = 0.002

  /// Boxes discarded instead of reused, per reason (a box may count under several), since the
  /// pool was made; waits for the resets in progress.
  public var discardCounts: [BoxDiscardReason: UInt64] {
    settled { discards }
  }

  public convenience init(host: SandboxHost, maximumIdlePerLayout: Int = ProcessInfo.processInfo.activeProcessorCount) {
    self.init(host: host, maximumIdlePerLayout: maximumIdlePerLayout, beforeReset: nil)
  }

  init(host: SandboxHost, maximumIdlePerLayout: Int, beforeReset: (@Sendable (WarmBox) -> Void)?) {
    self.host = host
    self.maximumIdlePerLayout = maximumIdlePerLayout
    self.beforeReset = beforeReset
  }

  /// Tests at once: as many as the pool keeps idle per layout.
  public var parallelism: Int { maximumIdlePerLayout }

  /// A warm box of this layout, made ready for `limits` (an emptied /box of that size).
  public func get(layout: BoxLayout, limits: BoxLimits) throws(SandboxError) -> WarmBox {
    var box = try acquire(layout: layout)
    do {
      try box.prepare(limits: limits)
    } catch {
      // An idle box was reset when its last run ended, so this is a remount that failed: not this
      // caller's fault, so the box is discarded (prepare marked it broken) and the caller gets a fresh
      // one, whose failure would be the sandbox's own.
      discard(box, reasons: [.broken])
      box = try WarmBox(host: host, layout: layout)
      do {
        try box.prepare(limits: limits)
      } catch {
        discard(box, reasons: [.broken])
        throw error
      }
    }
    return box
  }

  /// Takes a box back after its run and returns at once: the box is reset on the reset thread, or by
  /// the next caller of its layout if that comes first (`acquire`).
  public func put(_ box: WarmBox) {
    box.pendingReset.close()
    state.lock()
    resetting[box.layout, default: 0] += 1
    resetsBegun += 1
    resetQueue.append(box)
    putsSinceLook += 1
    let startsThread = !resetThreadRuns
    resetThreadRuns = true
    if resetThreadAwaitsSignal || waitingForReset > 0 { state.broadcast() }
    state.unlock()
    if startsThread {
      let thread = Thread { [self] in serveResets() }
      thread.name = "dsa-box-reset"
      thread.start()
    }
  }

  /// An idle box of the layout; while every box of it is being reset, waits for one rather than
  /// making another; a new box when there is none.
  func acquire(layout: BoxLayout) throws(SandboxError) -> WarmBox {
    while true {
      state.lock()
      while idle[layout]?.isEmpty ?? true, resetting[layout, default: 0] > 0 {
        // A box still queued for its reset is reset here: the reset thread would only wake this
        // caller when done, two thread switches a run for nothing (and an idle CPU meanwhile).
        if let queued = resetQueue.firstIndex(where: { $0.layout == layout }) {
          let box = resetQueue.remove(at: queued)
          state.unlock()
          reset(box)
          state.lock()
          continue
        }
        waitingForReset += 1
        state.wait()
        waitingForReset -= 1
      }
      let box = idle[layout]?.popLast()
      state.unlock()
      guard let box else { return try WarmBox(host: host, layout: layout) }
      // An idle box whose init died (an operator, the OOM killer) is dropped here rather than
      // failing the next run.
      if box.isAlive { return box }
      discard(box, reasons: [.broken])
    }
  }

  /// The reset thread: resets boxes in the order they were given back; ends when idle a while.
  private func serveResets() {
    state.lock()
    while true {
      if resetQueue.isEmpty {
        if putsSinceLook > 0 {
          putsSinceLook = 0
          _ = state.wait(until: Date(timeIntervalSinceNow: Self.resetThreadLookSeconds))
          continue
        }
        resetThreadAwaitsSignal = true
        let signalled = state.wait(until: Date(timeIntervalSinceNow: Self.resetThreadIdleSeconds))
        resetThreadAwaitsSignal = false
        if !signalled && resetQueue.isEmpty {
          resetThreadRuns = false
          state.unlock()
          return
        }
        continue
      }
      let box = resetQueue.removeFirst()
      state.unlock()
      reset(box)
      state.lock()
    }
  }

  /// Resets a box given back and keeps it idle, or destroys it when the reset cannot prove it
  /// fresh or the layout has idle boxes enough. Nothing of the run stays charged or visible in
  /// an idle box.
  private func reset(_ box: WarmBox) {
    beforeReset?(box)
    let reasons = box.isBrokenWithoutWaiting ? [.broken] : box.reset()
    // Only this thread adds idle boxes, so the room seen here is there below.
    var destroys = !reasons.isEmpty
    if !destroys {
      state.lock()
      destroys = idle[box.layout, default: []].count >= maximumIdlePerLayout
      state.unlock()
    }
    // Destroyed before the reset counts as ended, so `drain` leaves no box behind; the gate opened
    // before the box is idle, so a later run's reset cannot be taken for this one's end.
    if destroys { box.destroy() }
    box.pendingReset.open()
    state.lock()
    if !destroys { idle[box.layout, default: []].append(box) }
    for reason in reasons { discards[reason, default: 0] += 1 }
    resetting[box.layout, default: 0] -= 1
    resetsEnded += 1
    // Not for the reset thread, which looks again on its own: a wake per stolen reset was the cost
    // the stealing saves.
    if waitingForReset > 0 || observersWaiting > 0 { state.broadcast() }
    state.unlock()
  }

  private func discard(_ box: WarmBox, reasons: Set<BoxDiscardReason>) {
    box.destroy()
    state.lock()
    for reason in reasons { discards[reason, default: 0] += 1 }
    state.unlock()
  }

  /// Runs `body` under the lock once every reset begun before the call has ended (not later ones:
  /// under steady load some reset is always in progress).
  private func settled<Result>(_ body: () -> Result) -> Result {
    state.lock()
    defer { state.unlock() }
    let begun = resetsBegun
    while resetsEnded < begun {
      observersWaiting += 1
      state.wait()
      observersWaiting -= 1
    }
    return body()
  }

  /// Waits for the resets in progress, then destroys every idle box.
  public func drain() {
    let boxes = settled { () -> [WarmBox] in
      defer { idle = [:] }
      return idle.values.flatMap { $0 }
    }
    for box in boxes { box.destroy() }
  }

  /// Idle boxes, once the resets in progress are done (metrics, tests).
  public var idleCount: Int { settled { idle.values.reduce(0) { $0 + $1.count } } }

  /// Callers waiting for a box being reset (tests).
  var callersWaitingForReset: Int {
    state.lock()
    defer { state.unlock() }
    return waitingForReset
  }
}

/// Closed while a warm box is being reset after its run; `wait` returns once it is open.
final class ResetGate: @unchecked Sendable {
  private let condition = NSCondition()
  private var isClosed = false

  func close() {
    condition.lock()
    isClosed = true
    condition.unlock()
  }

  func open() {
    condition.lock()
    isClosed = false
    condition.broadcast()
    condition.unlock()
  }

  func wait() {
    condition.lock()
    while isClosed { condition.wait() }
    condition.unlock()
  }
}
