internal import CSandbox
import Foundation
import Glibc
import Synchronization
import SystemCore

/// Where and how boxes are made on this host.
public struct SandboxConfiguration: Sendable {
  /// Host directory for the boxes' work directories and shared files.
  public var workRoot = "/run/dsa-run"
  /// A delegated cgroup2 directory to create box groups in.
  public var cgroupV2Path: String?
  /// Forces a mode (tests, or operators who want rlimit-only); nil detects.
  public var cgroupMode: CgroupMode?
  /// Host files and directories no box may see, wherever they are
  /// installed: by default the data folders `DataDirectories` finds
  /// (challenges with their expected answers, runners, policies); the
  /// daemon adds its config file.
  public var hiddenPaths: [String]

  public init(
    workRoot: String = "/run/dsa-run", cgroupV2Path: String? = nil, cgroupMode: CgroupMode? = nil,
    hiddenPaths: [String] = DataDirectories.allLocated()
  ) {
    self.workRoot = workRoot
    self.cgroupV2Path = cgroupV2Path
    self.cgroupMode = cgroupMode
    self.hiddenPaths = hiddenPaths
  }
}

/// Everything prepared once per process: the cgroup mode, the host layout,
/// the generated /etc files and the box root mount point. Boxes are cheap
/// because all of this is done here.
public final class SandboxHost: Sendable {
  public let configuration: SandboxConfiguration
  public let cgroups: CgroupSetup
  let layout: HostLayout
  let rootMountPoint: String
  let boxesDirectory: String
  let identities = HostIdentityAllocator()
  /// Whether boxes/ is covered by this process's own tmpfs in a mount namespace of its own
  /// (`enterPrivateMountNamespace`), so everything under it goes when the process ends.
  let boxesEndWithProcess: Bool

  /// The namespaces every box gets.
  /// CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNS | CLONE_NEWIPC | CLONE_NEWUTS |
  /// CLONE_NEWNET; the cgroup namespace is unshared by the init once it has
  /// been placed in its group.
  static let namespaceFlags: UInt64 = 0x1000_0000 | 0x2000_0000 | 0x0002_0000 | 0x0800_0000 | 0x0400_0000 | 0x4000_0000

  public init(configuration: SandboxConfiguration = SandboxConfiguration()) throws(SandboxError) {
    self.configuration = configuration
    let workRoot = configuration.workRoot
    guard workRoot.hasPrefix("/"), !workRoot.contains("/../"), !workRoot.hasSuffix("/..") else {
      throw SandboxError(step: "work root \(workRoot) must be an absolute normal path")
    }
    rootMountPoint = workRoot + "/root"
    boxesDirectory = workRoot + "/boxes"
    let etc = workRoot + "/etc"
    // boxes/ can be searched but not listed: each box's init must reach its
    // own directories by name, and those are private to the box's uid.
    for (directory, mode) in [(workRoot, 0o755), (rootMountPoint, 0o755), (boxesDirectory, 0o711), (etc, 0o755)] {
      if mkdir(directory, mode_t(mode)) != 0 && errno != EEXIST {
        throw SandboxError(
          step: "mkdir \(directory)", errorNumber: errno, hint: "dsa-run needs root and a writable work root")
      }
    }
    Self.ensureMode(boxesDirectory, 0o711)
    try Self.checkReachableByBoxes(workRoot)
    for (name, text) in generatedEtcFiles() {
      let path = etc + "/" + name
      if KernelFile.read(path, limit: 65_536) != text {
        guard
          FileManager.default.createFile(
            atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o644])
        else { throw SandboxError(step: "write \(path)", errorNumber: errno) }
      }
    }
    var layout = HostLayout.read(generatedEtc: etc)
    (layout.emptyDirectory, layout.emptyFile) = try Self.makeEmptySources(in: workRoot)
    layout.hiddenPaths = configuration.hiddenPaths.compactMap { path -> String? in
      guard let resolved = realpath(path, nil) else { return nil }
      defer { free(resolved) }
      return String(cString: resolved)
    }
    self.layout = layout
    cgroups = CgroupSetup.detect(configuredV2Path: configuration.cgroupV2Path, forceMode: configuration.cgroupMode)
    Self.sweepStaleBoxes(in: boxesDirectory)
    cgroups.sweepStaleGroups()
    boxesEndWithProcess =
      Self.inPrivateMountNamespace.load(ordering: .acquiring) && Self.coverWithPrivateTmpfs(boxesDirectory)
  }

  /// A box's work directory whose tmpfs was left mounted for the end of this process's mount
  /// namespace (`removeScratch`); at most one at a time.
  private static let scratchLeftToExit = Mutex<String?>(nil)

  /// Unmounts a box's scratch tmpfs at `path` and removes the directory. When boxes end with the
  /// process it is left instead, for the namespace's end at exit to take with all the rest: an
  /// unmount of its own waited for an RCU grace period (0.3 to 1.5 ms on a busy host) that the
  /// namespace's end pays anyway. The next box made unmounts it (`unmountScratchLeftToExit`), so
  /// a compile box's artifacts do not stay in memory through the run.
  func removeScratch(_ path: String) {
    let unmounted: String?
    if boxesEndWithProcess {
      unmounted = Self.scratchLeftToExit.withLock { left in
        defer { left = path }
        return left
      }
    } else {
      unmounted = path
    }
    if let unmounted { Self.unmount(unmounted) }
  }

  /// Unmounts the scratch tmpfs left by `removeScratch`, if any: a new box is being made.
  func unmountScratchLeftToExit() {
    guard boxesEndWithProcess, let left = Self.scratchLeftToExit.withLock({ $0.take() }) else { return }
    Self.unmount(left)
  }

  private static func unmount(_ path: String) {
    _ = umount2(path, Int32(MNT_DETACH))
    _ = rmdir(path)
  }

  /// Whether `enterPrivateMountNamespace` moved this process into a mount namespace of its own.
  private static let inPrivateMountNamespace = Atomic<Bool>(false)
  /// The boxes/ directories this process has covered with its own tmpfs.
  private static let coveredBoxesDirectories = Mutex<Set<String>>([])

  /// Moves this process into a mount namespace of its own, a slave of the host's (host mounts still
  /// appear in it; none of its mounts reach the host). Every host made afterwards covers its boxes/
  /// with a tmpfs of this namespace: a box's directory is then never made or removed on the host's
  /// disk (on an ext4 `/run` with `discard`, each rmdir waited 1.8 to 3 ms for the device), no other
  /// process sees it, and whatever a killed process leaves there (box directories, their tmpfs
  /// mounts) goes with the namespace. For the one-shot CLI: it must be called before any thread
  /// exists, since `unshare` moves only the calling thread. Does nothing when that cannot be done.
  public static func enterPrivateMountNamespace() {
    guard listDirectory("/proc/self/task").count == 1, dsa_enter_private_mount_namespace() == 0 else { return }
    inPrivateMountNamespace.store(true, ordering: .releasing)
  }

  /// Makes a network namespace for the next box on a thread of its own, now, while the caller goes
  /// on with its own start-up: making one is the largest part of a box's clone (0.5 to 1 ms), and
  /// on two CPUs it no longer comes before the box. The next box is cloned into it (see
  /// `dsa_spawn_plan.network_namespace_fd`; if the thread is not done yet, the box waits for it,
  /// which is never longer than making one anew); later boxes make their own as before. Each box
  /// still has a network namespace of its own, with only a loopback that is down; it belongs to the
  /// host's user namespace rather than the box's, so not even the box's root may configure it. For
  /// the one-shot CLI; call it after the signal mask is set, which the thread inherits.
  public static func prepareNetworkNamespace() { dsa_prepare_network_namespace() }

  /// Starts every later box's init as a fresh process, by exec of this binary in init mode, instead
  /// of as a copy of this process (`dsa_start_inits_by_exec`): the clone copies no page tables, no
  /// page of either side is copied on write, and the init's exit, on the path between the program's
  /// end and the result, frees a small address space. The init then holds no copy of this process's
  /// memory either. For the one-shot CLI (a static binary, which execs without a dynamic loader);
  /// does nothing where the binary cannot be opened or is not executable by every user (the box's
  /// root execs it under its own unprivileged host uid), so boxes are then forked as before.
  public static func startInitsByExec() {
    let fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return }
    var info = stat()
    guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_mode & S_IXOTH != 0 else {
      close(fd)
      return
    }
    dsa_start_inits_by_exec(fd)
  }

  /// The prepared network namespace, once: nil when none was prepared or it was taken (the box
  /// then makes its own).
  static func takePreparedNetworkNamespace() -> OwnedDescriptor? {
    let fd = dsa_take_network_namespace()
    return fd >= 0 ? OwnedDescriptor(fd) : nil
  }

  /// Mounts a tmpfs on `directory` in this process's own mount namespace, once. Without it boxes
  /// still work, on the host's directory. Returns whether `directory` is covered.
  private static func coverWithPrivateTmpfs(_ directory: String) -> Bool {
    coveredBoxesDirectories.withLock { covered in
      guard !covered.contains(directory) else { return true }
      // Mount points only: each box mounts its own sized tmpfs on its directory.
      if mount("tmpfs", directory, "tmpfs", UInt(MS_NOSUID | MS_NODEV), "mode=0711,size=1m,nr_inodes=65536") == 0 {
        covered.insert(directory)
        return true
      }
      return false
    }
  }

  /// The empty, read-only sources of the covers over hidden data.
  /// Every box's init builds the box as an unprivileged host uid, so it must be able to walk the
  /// path to the work root: a parent such as a `mktemp -d` directory (mode 0700) would otherwise
  /// fail every box at "mount root tmpfs: EACCES", long after start and far from the cause.
  static func checkReachableByBoxes(_ workRoot: String) throws(SandboxError) {
    var path = ""
    // Components split by hand: `split` and `String + Substring` went through generic witnesses
    // that cost a one-shot CLI a runtime conformance lookup each.
    var components: [String] = []
    var component: [UInt8] = []
    for byte in workRoot.utf8 {
      if byte != UInt8(ascii: "/") {
        component.append(byte)
      } else if !component.isEmpty {
        components.append(String(decoding: component, as: UTF8.self))
        component.removeAll(keepingCapacity: true)
      }
    }
    if !component.isEmpty { components.append(String(decoding: component, as: UTF8.self)) }
    for component in components {
      path += "/"
      path += component
      var info = stat()
      guard stat(path, &info) == 0 else { throw SandboxError(step: "stat \(path)", errorNumber: errno) }
      if info.st_mode & S_IXOTH == 0 {
        throw SandboxError(
          step:
            "the work root \(workRoot) cannot be reached by the boxes' unprivileged uids: \(path) is not searchable by others",
          hint: "chmod o+x \(path), or choose another --work-root")
      }
    }
  }

  private static func makeEmptySources(in workRoot: String) throws(SandboxError) -> (String, String) {
    let directory = workRoot + "/empty"
    let file = workRoot + "/empty-file"
    if mkdir(directory, 0o555) != 0 && errno != EEXIST {
      throw SandboxError(step: "mkdir \(directory)", errorNumber: errno)
    }
    let fd = open(file, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o444)
    if fd < 0 { throw SandboxError(step: "create \(file)", errorNumber: errno) }
    close(fd)
    // Whatever an earlier version or an operator left there, empty and read-only; changed only where
    // it differs (`ensureMode`).
    var info = stat()
    var fileInfo = stat()
    guard lstat(directory, &info) == 0, info.st_mode & S_IFMT == S_IFDIR, listDirectory(directory).isEmpty,
      info.st_mode & 0o7777 == 0o555 || chmod(directory, 0o555) == 0, lstat(file, &fileInfo) == 0,
      fileInfo.st_mode & S_IFMT == S_IFREG, fileInfo.st_size == 0 || truncate(file, 0) == 0,
      fileInfo.st_mode & 0o7777 == 0o444 || chmod(file, 0o444) == 0
    else { throw SandboxError(step: "\(directory) and \(file) must be an empty directory and an empty file") }
    return (directory, file)
  }

  /// chmod, only when the mode differs: even a chmod to the same mode dirties the inode, and on a
  /// journaling work root (an ext4 /run) every start then waited on the journal now and then.
  private static func ensureMode(_ path: String, _ mode: mode_t) {
    var info = stat()
    if lstat(path, &info) == 0, info.st_mode & 0o7777 == mode { return }
    chmod(path, mode)
  }

  /// Process-wide, so several hosts in one process never pick the same name.
  private static let boxCounter = Atomic<UInt64>(0)

  /// "<pid>-<n>": the pid lets a later start sweep what a killed process left.
  func nextBoxName() -> String {
    "\(getpid())-\(Self.boxCounter.add(1, ordering: .relaxed).newValue)"
  }

  /// Removes work directories left by dsa-run processes that died without
  /// cleaning up (kill -9), zombies not yet reaped included (`StaleOwner`).
  @discardableResult
  public func sweepStaleBoxes() -> Int { Self.sweepStaleBoxes(in: boxesDirectory) }

  @discardableResult
  private static func sweepStaleBoxes(in boxesDirectory: String) -> Int {
    var removed = 0
    for entry in listDirectory(boxesDirectory) {
      let path = boxesDirectory + "/" + entry
      guard let pid = Int32(entry.prefix { $0 != "-" }), pid != getpid(),
        StaleOwner.isGone(pid: pid)
      else { continue }
      _ = umount2(path, Int32(MNT_DETACH))
      if rmdir(path) == 0 { removed += 1 }
    }
    return removed
  }

  /// Facts for `dsa-run doctor`.
  public func report() -> [(String, String)] {
    var facts: [(String, String)] = []
    facts.append(("accounting", cgroups.mode.rawValue))
    for line in cgroups.report { facts.append(("cgroups", line)) }
    facts.append(("work root", configuration.workRoot))
    facts.append(("kernel", kernelRelease()))
    facts.append(("user namespaces", KernelFile.read("/proc/sys/user/max_user_namespaces")?.trimmed ?? "unknown"))
    return facts
  }
}

func kernelRelease() -> String {
  var name = utsname()
  uname(&name)
  return withUnsafePointer(to: name.release) {
    $0.withMemoryRebound(to: CChar.self, capacity: 65) { String(cString: $0) }
  }
}
