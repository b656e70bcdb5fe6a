internal import CSandbox
import Glibc
import SystemCore

// cgroups: limits and accounting for all processes of a box.
//
// Chosen once at start (`CgroupSetup.detect`), in this order:
//   v2   a configured delegated path, or our own cgroup2 group when it offers
//        the memory and pids controllers;
//   v1   our own groups in the memory, pids and cpuacct hierarchies;
//   rlimit-only, reported as degraded accounting.
// Box groups are created only below our own group (or the configured path),
// carry our pid in their name so a later start can sweep what a killed
// process left, and are removed when the box is destroyed.

/// How limits and accounting are enforced on this host.
public enum CgroupMode: String, Sendable {
  case v2 = "cgroup-v2"
  case v1 = "cgroup-v1"
  case rlimitOnly = "rlimit"
}

/// The cgroup arrangement chosen at start.
public struct CgroupSetup: Sendable {
  public let mode: CgroupMode
  /// One line per fact, for `dsa-run doctor`.
  public let report: [String]
  /// v2: the directory box groups are created in.
  let v2Parent: String?
  /// v1: the directory box groups are created in, per controller.
  let v1Parents: V1Parents

  enum V1Controller: String, Sendable, CaseIterable {
    case memory
    case pids
    case cpuacct
  }

  /// A directory per v1 controller. Not a `[V1Controller: String]`: that dictionary's first use
  /// cost a one-shot CLI a runtime scan of every protocol conformance (V1Controller: Hashable).
  struct V1Parents: Sendable {
    private var directories: [String?] = Array(repeating: nil, count: V1Controller.allCases.count)

    subscript(controller: V1Controller) -> String? {
      get { directories[V1Controller.allCases.firstIndex(of: controller)!] }
      set { directories[V1Controller.allCases.firstIndex(of: controller)!] = newValue }
    }

    /// The directories found, in `V1Controller.allCases` order.
    var values: [String] { directories.compactMap { $0 } }
  }

  /// Detects the best mode. `configuredV2Path` is an operator-delegated
  /// cgroup2 directory; `procRoot` and `mountInfo` exist for tests.
  public static func detect(
    configuredV2Path: String? = nil,
    forceMode: CgroupMode? = nil,
    procSelfCgroup: String = "/proc/self/cgroup",
    procSelfMountInfo: String = "/proc/self/mountinfo"
  ) -> CgroupSetup {
    let membership = KernelFile.read(procSelfCgroup, limit: 65_536) ?? ""
    // The usual mounts first, checked with statfs: the kernel generates mountinfo whole at each
    // read (0.17 ms of a one-shot CLI run here, its largest set-up cost). Anything unusual, or no
    // cgroup found through them, and mountinfo decides, as before.
    if procSelfMountInfo == "/proc/self/mountinfo", let usual = usualCgroupMounts() {
      let setup = detect(
        configuredV2Path: configuredV2Path, forceMode: forceMode, membership: membership, mounts: usual)
      if setup.mode != .rlimitOnly || forceMode == .rlimitOnly { return setup }
    }
    let mounts = parseCgroupMounts(KernelFile.read(procSelfMountInfo, limit: 1 << 22) ?? "")
    return detect(configuredV2Path: configuredV2Path, forceMode: forceMode, membership: membership, mounts: mounts)
  }

  private static func detect(
    configuredV2Path: String?, forceMode: CgroupMode?, membership: String, mounts: CgroupMounts
  ) -> CgroupSetup {
    var report: [String] = []
    if forceMode == nil || forceMode == .v2 {
      if let v2 = detectV2(configured: configuredV2Path, membership: membership, mounts: mounts, report: &report) {
        return CgroupSetup(mode: .v2, report: report, v2Parent: v2, v1Parents: V1Parents())
      }
    }
    if forceMode == nil || forceMode == .v1 {
      if let v1 = detectV1(membership: membership, mounts: mounts, report: &report) {
        return CgroupSetup(mode: .v1, report: report, v2Parent: nil, v1Parents: v1)
      }
    }
    report.append(
      "rlimit-only: no writable cgroup; memory is limited per process and CPU time per process (degraded accounting)")
    return CgroupSetup(mode: .rlimitOnly, report: report, v2Parent: nil, v1Parents: V1Parents())
  }

  struct CgroupMounts {
    var v2: String?
    var v1: [String: String] = [:]
  }

  /// The cgroup file systems where systemd and most distributions mount them, if they are there:
  /// cgroup2 at `root` (unified), or a v1 hierarchy at `root/<controller>` for each controller a box
  /// needs, with cgroup2 perhaps at `root/unified` (hybrid). Nil otherwise. What statfs cannot tell, a mount of a hierarchy's subdirectory (a
  /// container's view), leaves this process's group path missing below the mount, so nothing is
  /// found there and mountinfo is read after all.
  static func usualCgroupMounts(root: String = "/sys/fs/cgroup") -> CgroupMounts? {
    let cgroup2Magic = 0x6367_7270
    let cgroupMagic = 0x0027_e0eb
    func type(_ path: String) -> Int? {
      let found = dsa_file_system_type(path)
      return found < 0 ? nil : found
    }
    guard let rootType = type(root) else { return nil }
    if rootType == cgroup2Magic { return CgroupMounts(v2: root) }
    var mounts = CgroupMounts()
    for controller in V1Controller.allCases {
      // Named for its controller, as systemd mounts them (a root group has no pids files to tell).
      let path = root + "/" + controller.rawValue
      guard type(path) == cgroupMagic else { return nil }
      mounts.v1[controller.rawValue] = path
    }
    if type(root + "/unified") == cgroup2Magic { mounts.v2 = root + "/unified" }
    return mounts
  }

  static func parseCgroupMounts(_ mountInfo: String) -> CgroupMounts {
    // "id parent major:minor root mountpoint options [optional...] - fstype source superoptions",
    // read as bytes: splitting every line into String fields was a third of cgroup detection, the
    // largest part of host set-up in a one-shot CLI run (perf record -g). Mountinfo escapes spaces
    // in paths (\040), so " - " can only be the separator.
    var result = CgroupMounts()
    let bytes = Array(mountInfo.utf8)
    let space = UInt8(ascii: " ")
    /// The `index`th space-separated field of `bytes[start..<end]`.
    func field(_ index: Int, from start: Int, to end: Int) -> Range<Int>? {
      var position = start
      for current in 0... {
        guard position < end else { return nil }
        let fieldStart = position
        while position < end && bytes[position] != space { position += 1 }
        if current == index { return fieldStart..<position }
        position += 1
      }
      return nil
    }
    var lineStart = 0
    while lineStart < bytes.count {
      let start = lineStart
      var end = start
      while end < bytes.count && bytes[end] != UInt8(ascii: "\n") { end += 1 }
      lineStart = end + 1
      var dash = start
      while dash + 2 < end
        && !(bytes[dash] == space && bytes[dash + 1] == UInt8(ascii: "-") && bytes[dash + 2] == space)
      {
        dash += 1
      }
      guard dash + 2 < end, let type = field(0, from: dash + 3, to: end) else { continue }
      let isV2 = bytes[type].elementsEqual("cgroup2".utf8)
      guard isV2 || bytes[type].elementsEqual("cgroup".utf8), let root = field(3, from: start, to: dash),
        bytes[root].elementsEqual("/".utf8), let point = field(4, from: start, to: dash),
        let options = field(2, from: dash + 3, to: end)
      else { continue }
      let mountPoint = String(decoding: bytes[point], as: UTF8.self)
      if isV2 {
        if result.v2 == nil { result.v2 = mountPoint }
      } else {
        for option in bytes[options].split(separator: UInt8(ascii: ",")) {
          let name = String(decoding: option, as: UTF8.self)
          if V1Controller(rawValue: name) != nil { result.v1[name] = mountPoint }
        }
      }
    }
    return result
  }

  private static func detectV2(
    configured: String?, membership: String, mounts: CgroupMounts, report: inout [String]
  ) -> String? {
    if let configured {
      let controllers = (KernelFile.read(configured + "/cgroup.controllers") ?? "").split(separator: " ")
        .map { $0.trimmed }
      guard controllers.contains("memory"), controllers.contains("pids") else {
        report.append("cgroup v2: configured path \(configured) lacks the memory and pids controllers")
        return nil
      }
      do {
        try enableControllers(in: configured)
      } catch {
        report.append("cgroup v2: cannot enable controllers in \(configured): \(error)")
        return nil
      }
      report.append("cgroup v2: box groups under configured path \(configured)")
      return configured
    }
    guard let mount = mounts.v2 else {
      report.append("cgroup v2: not mounted")
      return nil
    }
    guard let line = membership.split(separator: "\n").first(where: { $0.hasPrefix("0::") }) else {
      report.append("cgroup v2: this process is in no cgroup2 group")
      return nil
    }
    let own = mount + String(line.dropFirst(3)).trimmed
    let ownPath = own.hasSuffix("/") ? String(own.dropLast()) : own
    let controllers = (KernelFile.read(ownPath + "/cgroup.controllers") ?? "").split(separator: " ").map { $0.trimmed }
    guard controllers.contains("memory"), controllers.contains("pids") else {
      report.append(
        "cgroup v2: \(ownPath) offers controllers [\(joinedBySpaces(controllers))], not memory and pids")
      return nil
    }
    // A group with processes cannot hand controllers to children ("no
    // internal processes"), so move this process into a leaf of its own
    // first, as systemd's Delegate=yes expects.
    let supervisor = ownPath + "/dsa-run-supervisor-\(getpid())"
    do {
      if mkdir(supervisor, 0o755) != 0 && errno != EEXIST {
        throw SandboxError(step: "mkdir \(supervisor)", errorNumber: errno)
      }
      try KernelFile.write("0", to: supervisor + "/cgroup.procs")
      try enableControllers(in: ownPath)
    } catch {
      report.append("cgroup v2: cannot set up a delegated subtree in \(ownPath): \(error)")
      return nil
    }
    report.append("cgroup v2: box groups under \(ownPath) (this process moved to \(supervisor))")
    return ownPath
  }

  private static func enableControllers(in path: String) throws(SandboxError) {
    let enabled = (KernelFile.read(path + "/cgroup.subtree_control") ?? "").split(separator: " ").map { $0.trimmed }
    for controller in ["memory", "pids", "cpu"] where !enabled.contains(controller) {
      do {
        try KernelFile.write("+\(controller)", to: path + "/cgroup.subtree_control")
      } catch  where controller == "cpu" {
        // cpu.stat's usage is there without the cpu controller.
      }
    }
  }

  private static func detectV1(
    membership: String, mounts: CgroupMounts, report: inout [String]
  ) -> V1Parents? {
    var own: [String: String] = [:]
    for line in membership.split(separator: "\n") {
      let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
      guard fields.count == 3 else { continue }
      for controller in fields[1].split(separator: ",") { own[String(controller)] = String(fields[2]) }
    }
    var parents = V1Parents()
    for controller in V1Controller.allCases {
      guard let mount = mounts.v1[controller.rawValue], let path = own[controller.rawValue] else {
        report.append("cgroup v1: the \(controller.rawValue) controller is not mounted")
        return nil
      }
      let directory = path == "/" ? mount : mount + path
      guard access(directory, W_OK) == 0 else {
        report.append("cgroup v1: \(directory) is not writable")
        return nil
      }
      parents[controller] = directory
    }
    report.append(
      "cgroup v1: box groups under "
        + joinedBySpaces(V1Controller.allCases.map { "\($0.rawValue)=\(parents[$0]!)" }))
    return parents
  }

  /// Prefix of every box group; the box name that follows starts with our pid.
  static let boxGroupPrefix = "dsa-run-"

  /// Creates a box's group(s) with its limits. Returns nil in rlimit-only mode.
  func createBoxGroup(named name: String, limits: BoxLimits) throws(SandboxError) -> BoxCgroup? {
    switch mode {
    case .rlimitOnly:
      return nil
    case .v2:
      let path = v2Parent! + "/" + name
      try makeGroupDirectory(path)
      let group = BoxCgroup(mode: .v2, directories: [path])
      do throws(SandboxError) {
        try KernelFile.write(String(limits.memoryBytes), to: path + "/memory.max")
        if KernelFile.exists(path + "/memory.swap.max") { try KernelFile.write("0", to: path + "/memory.swap.max") }
        try KernelFile.write(String(limits.processes), to: path + "/pids.max")
        let directory = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directory < 0 { throw SandboxError(step: "open \(path)", errorNumber: errno) }
        group.directory = OwnedDescriptor(directory)
      } catch {
        group.destroy()
        throw error
      }
      return group
    case .v1:
      var directories: [String] = []
      let group = BoxCgroup(mode: .v1, directories: [])
      do throws(SandboxError) {
        for controller in V1Controller.allCases {
          let path = v1Parents[controller]! + "/" + name
          try makeGroupDirectory(path)
          directories.append(path)
          group.directories = directories
        }
        let memory = v1Parents[.memory]! + "/" + name
        try KernelFile.write(String(limits.memoryBytes), to: memory + "/memory.limit_in_bytes")
        if KernelFile.exists(memory + "/memory.memsw.limit_in_bytes") {
          try KernelFile.write(String(limits.memoryBytes), to: memory + "/memory.memsw.limit_in_bytes")
        }
        try KernelFile.write(String(limits.processes), to: v1Parents[.pids]! + "/" + name + "/pids.max")
        try group.openJoinFiles()
      } catch {
        group.destroy()
        throw error
      }
      return group
    }
  }

  private func makeGroupDirectory(_ path: String) throws(SandboxError) {
    if mkdir(path, 0o755) != 0 {
      throw SandboxError(
        step: "mkdir \(path)", errorNumber: errno, hint: "is the cgroup writable and delegated to dsa-run?")
    }
  }

  /// Removes box groups left by dsa-run processes that no longer exist (zombies included: `StaleOwner`).
  /// Returns how many were removed.
  @discardableResult
  public func sweepStaleGroups() -> Int {
    var parents: [String] = []
    if let v2Parent { parents.append(v2Parent) }
    parents.append(contentsOf: v1Parents.values)
    var removed = 0
    for parent in parents {
      for entry in listDirectory(parent) where entry.hasPrefix("dsa-run-") {
        let pidText = entry.dropFirst("dsa-run-".count).prefix { $0 != "-" }
        let path = parent + "/" + entry
        guard let pid = Int32(pidText), pid != getpid(),
          StaleOwner.isGone(pid: pid)
        else { continue }
        if rmdir(path) == 0 { removed += 1 }
      }
    }
    return removed
  }
}

/// The cgroup(s) of one box.
final class BoxCgroup: @unchecked Sendable {
  let mode: CgroupMode
  var directories: [String]
  /// v2 only: the group's directory, for clone3(CLONE_INTO_CGROUP).
  var directory = OwnedDescriptor(-1)

  init(mode: CgroupMode, directories: [String]) {
    self.mode = mode
    self.directories = directories
  }

  // `destroy` closes them; a group dropped without it must not keep descriptors open in a daemon.
  deinit { closeFiles() }

  private func file(_ controller: CgroupSetup.V1Controller, _ name: String) -> String {
    switch mode {
    case .v2: return directories[0] + "/" + name
    default:
      let index = CgroupSetup.V1Controller.allCases.firstIndex(of: controller)!
      return directories[index] + "/" + name
    }
  }

  /// The group's files read or written at every run, open from their first use until `destroy`,
  /// by name (no two controllers share a file name): a path lookup in cgroupfs costs more than
  /// the reading, and a warm run reads half a dozen of them.
  private var readers: [String: Int32] = [:]
  private var writers: [String: Int32] = [:]

  private func descriptor(
    _ controller: CgroupSetup.V1Controller, _ name: String, writing: Bool
  ) -> Int32 {
    if let fd = writing ? writers[name] : readers[name] { return fd }
    let path = file(controller, name)
    if name == Self.resettablePeak {
      // A reset of memory.peak holds only for readings through the descriptor that wrote it
      // (Linux 6.12+), so it is one descriptor for both; a kernel without the reset refuses it.
      let fd = open(path, O_RDWR | O_CLOEXEC)
      if fd >= 0 {
        (readers[name], writers[name]) = (fd, fd)
        return fd
      }
      // Remembered, so an old kernel's refusal costs one open per box, not one per run.
      writers[name] = -1
      if writing { return -1 }
    }
    let fd = open(path, (writing ? O_WRONLY : O_RDONLY) | O_CLOEXEC)
    if fd >= 0 {
      if writing { writers[name] = fd } else { readers[name] = fd }
    }
    return fd
  }

  private static let resettablePeak = "memory.peak"

  private func readText(_ controller: CgroupSetup.V1Controller, _ name: String) -> String? {
    let fd = descriptor(controller, name, writing: false)
    return fd < 0 ? nil : KernelFile.read(descriptor: fd)
  }

  private func readNumber(_ controller: CgroupSetup.V1Controller, _ name: String) -> UInt64? {
    readText(controller, name).flatMap(KernelFile.number)
  }

  private func readKey(_ key: String, _ controller: CgroupSetup.V1Controller, _ name: String) -> UInt64? {
    readText(controller, name).flatMap { KernelFile.value(of: key, in: $0) }
  }

  private func write(_ text: String, _ controller: CgroupSetup.V1Controller, _ name: String) throws(SandboxError) {
    let fd = descriptor(controller, name, writing: true)
    if fd < 0 { throw SandboxError(step: "open \(file(controller, name)) for writing", errorNumber: EACCES) }
    try KernelFile.write(text, descriptor: fd, path: file(controller, name))
  }

  private func closeFiles() {
    for fd in Set(readers.values).union(writers.values) where fd >= 0 { close(fd) }
    readers = [:]
    writers = [:]
  }

  /// v1: write-only fds of the groups. tasks files, for the init to join
  /// itself (see dsa_spawn_plan.cgroup_join_fds). Closed by `destroy`.
  private(set) var joinFDs: [Int32] = []

  func openJoinFiles() throws(SandboxError) {
    guard mode == .v1 else { return }
    for directory in directories {
      let fd = open(directory + "/tasks", O_WRONLY | O_CLOEXEC)
      if fd < 0 { throw SandboxError(step: "open \(directory)/tasks", errorNumber: errno) }
      joinFDs.append(fd)
    }
  }

  /// Closes the join fds once the init holds its own copies.
  func closeJoinFiles() {
    for fd in joinFDs { close(fd) }
    joinFDs = []
  }

  /// Counters at the start of the current run (warm boxes run many times in
  /// one group; cumulative counters are reported as differences).
  private var cpuBase: UInt64 = 0
  private var oomBase: UInt64 = 0
  private var maxEventsBase: UInt64 = 0
  /// v2 where memory.peak cannot be reset (Linux before 6.12): the group's
  /// all-time peak when this run began. A later peak above it was reached in
  /// this run; one at or below it says nothing about this run.
  private var peakBase: UInt64?
  /// v1: what the group held when this run began (memory.usage_in_bytes). A warm box's group keeps
  /// charges of earlier runs that outlive them (file pages and kernel objects such as dentries stay
  /// charged to the group that first touched them), and max_usage_in_bytes starts from that charge,
  /// not from zero; the run's own peak is the part above it.
  private var usageBase: UInt64 = 0

  /// The memory and process limits the last run of a warm box set, nil until one did or after a
  /// write failed: a run with the same limits skips writing them again (nothing in the box can
  /// change them: the group's files are not the box's to write).
  private var limitsInForce: (memoryBytes: UInt64, processes: UInt64)?

  /// A warm box's next run: its limits, and counters reset or remembered. `countersArmed`: the
  /// box's reset already did `armCounters` (the box stayed idle since), so unless the limits
  /// change, the run starts without touching the group.
  func beginRun(limits: BoxLimits, countersArmed: Bool = false) throws(SandboxError) {
    let unchanged = limitsInForce.map { $0 == (limits.memoryBytes, limits.processes) } ?? false
    if !unchanged {
      limitsInForce = nil
      try writeLimits(limits)
      limitsInForce = (limits.memoryBytes, limits.processes)
    }
    // New limits are armed after (a lower memory limit makes the kernel reclaim, which may count
    // a failure the run did not cause).
    if !countersArmed || !unchanged { try armCounters() }
  }

  /// Resets or remembers the counters a run is measured by: its CPU time, its memory peak and
  /// whether it met the memory limit count from here.
  func armCounters() throws(SandboxError) {
    switch mode {
    case .v2:
      // Writing to memory.peak resets it (Linux 6.12+); older kernels keep
      // the group's all-time peak, so this run's peak is known only if it
      // climbs above the old one (see peakMemoryBytes).
      do {
        try write("reset", .memory, "memory.peak")
        peakBase = nil
      } catch {
        peakBase = readNumber(.memory, "memory.peak")
      }
      let events = readText(.memory, "memory.events")
      oomBase = events.flatMap { KernelFile.value(of: "oom_kill", in: $0) } ?? 0
      maxEventsBase = events.flatMap { KernelFile.value(of: "max", in: $0) } ?? 0
      cpuBase = readKey("usage_usec", .cpuacct, "cpu.stat") ?? 0
    default:
      try write("0", .memory, "memory.max_usage_in_bytes")
      try write("0", .memory, "memory.failcnt")
      usageBase = readNumber(.memory, "memory.usage_in_bytes") ?? 0
      oomBase = readKey("oom_kill", .memory, "memory.oom_control") ?? 0
      cpuBase = readNumber(.cpuacct, "cpuacct.usage").map { $0 / 1000 } ?? 0
    }
  }

  private func writeLimits(_ limits: BoxLimits) throws(SandboxError) {
    switch mode {
    case .v2:
      try KernelFile.write(String(limits.memoryBytes), to: file(.memory, "memory.max"))
      try KernelFile.write(String(limits.processes), to: file(.pids, "pids.max"))
    default:
      let memory = String(limits.memoryBytes)
      let swapLimit = file(.memory, "memory.memsw.limit_in_bytes")
      let hasSwapLimit = KernelFile.exists(swapLimit)
      // memsw must stay >= the memory limit at every moment: raise it first
      // when growing, lower it last when shrinking.
      let current = KernelFile.readNumber(file(.memory, "memory.limit_in_bytes")) ?? 0
      if hasSwapLimit && limits.memoryBytes > current { try KernelFile.write(memory, to: swapLimit) }
      try KernelFile.write(memory, to: file(.memory, "memory.limit_in_bytes"))
      if hasSwapLimit && limits.memoryBytes <= current { try KernelFile.write(memory, to: swapLimit) }
      try KernelFile.write(String(limits.processes), to: file(.pids, "pids.max"))
    }
  }

  /// Counts this run's CPU time from now on: a pre-warmed program's start-up is not the learner's.
  func restartCPUCount() { cpuBase += cpuMicroseconds() ?? 0 }

  /// Sets the group's limits to `limits` while a program runs (a pre-warmed box's, once its warm-up
  /// is over); a limit under what the group holds is refused by the kernel.
  func changeLimits(_ limits: BoxLimits) throws(SandboxError) {
    limitsInForce = nil
    try writeLimits(limits)
  }

  /// Memory charged to the group now, file cache included.
  func memoryCurrentBytes() -> UInt64? {
    readNumber(.memory, mode == .v2 ? "memory.current" : "memory.usage_in_bytes")
  }

  /// CPU time of every process that ran in the box (this run).
  func cpuMicroseconds() -> UInt64? {
    let total: UInt64?
    switch mode {
    case .v2: total = readKey("usage_usec", .cpuacct, "cpu.stat")
    default: total = readNumber(.cpuacct, "cpuacct.usage").map { $0 / 1000 }
    }
    return total.map { $0 >= cpuBase ? $0 - cpuBase : 0 }
  }

  /// Peak memory of the box in this run, in bytes; nil when the group cannot
  /// tell (the caller falls back to the largest process RSS).
  func peakMemoryBytes() -> UInt64? {
    switch mode {
    case .v2:
      guard let peak = readNumber(.memory, "memory.peak") else { return nil }
      if let peakBase, peak <= peakBase { return nil }
      return peak
    default:
      guard let peak = readNumber(.memory, "memory.max_usage_in_bytes") else { return nil }
      return peak > usageBase ? peak - usageBase : 0
    }
  }

  /// Whether the box hit its memory limit (allocation failed or OOM kill).
  func memoryLimitHit() -> Bool {
    switch mode {
    case .v2:
      let events = readText(.memory, "memory.events")
      return (events.flatMap { KernelFile.value(of: "oom_kill", in: $0) } ?? 0) > oomBase
        || (events.flatMap { KernelFile.value(of: "max", in: $0) } ?? 0) > maxEventsBase
    default:
      if (readKey("oom_kill", .memory, "memory.oom_control") ?? 0) > oomBase { return true }
      return (readNumber(.memory, "memory.failcnt") ?? 0) > 0
    }
  }

  /// Processes in the group (a warm box's idle init counts one).
  func processCount() -> Int? {
    readNumber(.pids, "pids.current").map { Int($0) }
  }

  /// Memory charged to the group, less the file cache the kernel reclaims
  /// by itself when a later run needs the room (pages of /usr read by a
  /// run). What stays is what a run could leave to crowd the next one. A
  /// charge up to `cacheCountedUpTo` is returned as it is, without reading
  /// the (slower) memory.stat.
  func memoryChargeBytes(cacheCountedUpTo: UInt64 = 0) -> UInt64? {
    let usage = readNumber(.memory, mode == .v2 ? "memory.current" : "memory.usage_in_bytes")
    if let usage, usage <= cacheCountedUpTo { return usage }
    guard let usage, let stat = KernelFile.read(file(.memory, "memory.stat"), limit: 16_384) else { return nil }
    var cache: UInt64 = 0
    for line in stat.split(separator: "\n") {
      let parts = line.split(separator: " ")
      if parts.count == 2, parts[0] == "active_file" || parts[0] == "inactive_file" { cache += UInt64(parts[1]) ?? 0 }
    }
    return usage > cache ? usage - cache : 0
  }

  /// Asks the kernel to reclaim what it can of the group's memory now (a
  /// warm box's reset, when the charge is higher than when the box was fresh).
  func reclaimMemory() {
    switch mode {
    case .v2: try? KernelFile.write("\(UInt64(1) << 40)", to: file(.memory, "memory.reclaim"))
    default: try? KernelFile.write("0", to: file(.memory, "memory.force_empty"))
    }
  }

  /// Kills every process in the box's group, where the kernel offers it.
  func killAll() {
    if mode == .v2 { try? KernelFile.write("1", to: directories[0] + "/cgroup.kill") }
  }

  /// Removes the groups; safe to call twice.
  func destroy() {
    closeJoinFiles()
    closeFiles()
    directory.close()
    for directory in directories.reversed() {
      // The last processes may still be leaving the group for a moment after
      // the init was reaped; EBUSY is retried briefly.
      for _ in 0..<200 {
        if rmdir(directory) == 0 || errno == ENOENT { break }
        if errno != EBUSY { break }
        usleep(500)
      }
    }
    directories = []
  }
}

func listDirectory(_ path: String) -> [String] {
  guard let directory = opendir(path) else { return [] }
  defer { closedir(directory) }
  var names: [String] = []
  while let entry = readdir(directory) {
    let name = withUnsafePointer(to: entry.pointee.d_name) {
      $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
    }
    if name != "." && name != ".." { names.append(name) }
  }
  return names
}

/// `strings.joined(separator: " ")` without the generic algorithm, whose associated-type witnesses
/// cost a one-shot CLI a runtime conformance lookup on every start (the report lines are built on
/// every start, not only for `doctor`).
func joinedBySpaces(_ strings: [String]) -> String {
  var joined = ""
  for (index, string) in strings.enumerated() {
    if index > 0 { joined += " " }
    joined += string
  }
  return joined
}
