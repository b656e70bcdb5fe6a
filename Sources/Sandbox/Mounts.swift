internal import CSandbox
import Glibc

// CLONE_NEWNS: the box's file system, planned in the parent as a flat list
// the C init executes in order. The root is a fresh tmpfs; system
// directories are read-only nosuid nodev binds; /proc is the box's own;
// /dev holds five device nodes; /tmp, /dev/shm and /box are size-capped.
// Nothing else of the host is there: no /home, /root, /var, /run, and only
// the /etc files listed here.

/// One host path made visible, read-only, inside every box that asks.
public struct ReadOnlyMount: Sendable, Hashable {
  public var hostPath: String
  public var boxPath: String

  public init(hostPath: String, boxPath: String? = nil) {
    self.hostPath = hostPath
    self.boxPath = boxPath ?? hostPath
  }
}

/// A mount plan entry before it is turned into C strings.
struct PlannedMount: Equatable {
  enum Kind: Int32 {
    case bindReadOnly = 1
    case bindWritable = 2
    case tmpfs = 3
    case proc = 4
    case device = 5
    case symlink = 6
    case directory = 7
    case fileReadOnly = 8
    case devpts = 9
  }

  var kind: Kind
  var source: String?
  /// Path inside the box.
  var target: String
  var data: String?
}

/// The host's layout, read once at start: which top-level directories are
/// symlinks into /usr (merged /usr) and which /etc files exist.
struct HostLayout: Sendable {
  /// e.g. ("/lib", "usr/lib") on a merged-/usr system.
  var topLevelLinks: [(path: String, text: String)] = []
  /// Top-level system directories that are real directories here.
  var topLevelDirectories: [String] = []
  /// Host /etc files shared read-only with boxes (the real file, resolved).
  var etcFiles: [(host: String, box: String)] = []
  /// dsa-run's own data (challenges with their expected answers, runners,
  /// policies, config), resolved: covered in every box where a bound
  /// directory would show it (see `maskedDataPaths`).
  var hiddenPaths: [String] = []
  /// An empty read-only directory and file on the host, the sources of those
  /// covers.
  var emptyDirectory = ""
  var emptyFile = ""

  static func read(generatedEtc: String) -> HostLayout {
    var layout = HostLayout()
    for path in ["/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"] {
      var info = stat()
      guard lstat(path, &info) == 0 else { continue }
      if info.st_mode & S_IFMT == S_IFLNK {
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink(path, &buffer, buffer.count - 1)
        if length > 0 {
          let text = String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
          layout.topLevelLinks.append((path, text))
        }
      } else if info.st_mode & S_IFMT == S_IFDIR {
        layout.topLevelDirectories.append(path)
      }
    }
    // Generated files give the box's own users and hosts, never the host's.
    for name in ["passwd", "group", "hosts", "nsswitch.conf"] {
      layout.etcFiles.append((generatedEtc + "/" + name, "/etc/" + name))
    }
    for path in ["/etc/ld.so.cache", "/etc/localtime", "/etc/os-release"] {
      if let resolved = realpath(path, nil) {
        layout.etcFiles.append((String(cString: resolved), path))
        free(resolved)
      }
    }
    return layout
  }
}

/// Files written once into the host's work root and bound into every box.
func generatedEtcFiles() -> [String: String] {
  [
    "passwd": "root:x:0:0:box root:/:/usr/sbin/nologin\nbox:x:\(boxProgramID):\(boxProgramID):learner:/box:/bin/sh\n",
    "group": "root:x:0:\nbox:x:\(boxProgramID):\n",
    "hosts": "127.0.0.1 localhost box\n::1 localhost\n",
    "nsswitch.conf": "passwd: files\ngroup: files\nhosts: files\n",
  ]
}

/// The ordered plan for one box.
///
/// `scratchDirectories` (warm boxes) are host tmpfs mounts bound at /tmp and
/// /dev/shm, so the parent can empty them between runs; one-shot boxes get
/// fresh tmpfs mounts of their own instead.
func plannedMounts(
  layout: HostLayout, workDirectory: String, limits: BoxLimits, extra: [ReadOnlyMount], mountProc: Bool,
  terminal: Bool = false, scratchDirectories: (tmp: String, sharedMemory: String)? = nil
) -> [PlannedMount] {
  var plan: [PlannedMount] = []
  plan.append(PlannedMount(kind: .bindReadOnly, source: "/usr", target: "/usr"))
  for link in layout.topLevelLinks {
    plan.append(PlannedMount(kind: .symlink, source: link.text, target: link.path))
  }
  for directory in layout.topLevelDirectories {
    plan.append(PlannedMount(kind: .bindReadOnly, source: directory, target: directory))
  }
  for file in layout.etcFiles {
    plan.append(PlannedMount(kind: .fileReadOnly, source: file.host, target: file.box))
  }
  if mountProc {
    plan.append(PlannedMount(kind: .proc, target: "/proc"))
  }
  plan.append(PlannedMount(kind: .tmpfs, target: "/dev", data: "size=64k,nr_inodes=64,mode=755"))
  for device in ["null", "zero", "full", "random", "urandom"] {
    plan.append(PlannedMount(kind: .device, source: "/dev/" + device, target: "/dev/" + device))
  }
  for (index, name) in ["stdin", "stdout", "stderr"].enumerated() {
    plan.append(PlannedMount(kind: .symlink, source: "/proc/self/fd/\(index)", target: "/dev/" + name))
  }
  plan.append(PlannedMount(kind: .symlink, source: "/proc/self/fd", target: "/dev/fd"))
  if terminal {
    // The box's own pty instance, never the host's: its ptys are numbered, listed and counted apart
    // (max), and ptmx is the box root's alone (0600), so only the init makes the run's pty and the
    // program cannot make more.
    plan.append(
      PlannedMount(kind: .devpts, target: "/dev/pts", data: "newinstance,ptmxmode=0600,mode=0600,max=4"))
  }
  if let scratchDirectories {
    plan.append(PlannedMount(kind: .bindWritable, source: scratchDirectories.sharedMemory, target: "/dev/shm"))
    plan.append(PlannedMount(kind: .bindWritable, source: scratchDirectories.tmp, target: "/tmp"))
  } else {
    plan.append(PlannedMount(kind: .tmpfs, target: "/dev/shm", data: scratchOptions(bytes: limits.sharedMemoryBytes)))
    plan.append(PlannedMount(kind: .tmpfs, target: "/tmp", data: scratchOptions(bytes: limits.tmpBytes)))
  }
  for mount in extra {
    var info = stat()
    let isFile = stat(mount.hostPath, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    plan.append(
      PlannedMount(kind: isFile ? .fileReadOnly : .bindReadOnly, source: mount.hostPath, target: mount.boxPath))
  }
  for (target, isFile) in maskedDataPaths(layout: layout, extra: extra) {
    plan.append(
      PlannedMount(
        kind: isFile ? .fileReadOnly : .bindReadOnly, source: isFile ? layout.emptyFile : layout.emptyDirectory,
        target: target))
  }
  plan.append(PlannedMount(kind: .bindWritable, source: workDirectory, target: "/box"))
  return plan
}

/// Box paths at which one of `layout.hiddenPaths` would be visible, each to
/// be covered with an empty read-only mount: wherever the data is installed
/// (/usr/share/dsa-run, next to /usr/local/bin, inside a toolchain
/// directory), a bound directory that holds it must not show it. A hidden
/// path that holds a bound directory is left alone: covering it would hide
/// the toolchain, and what lies outside the bound directory is not in the
/// box anyway.
func maskedDataPaths(layout: HostLayout, extra: [ReadOnlyMount]) -> [(target: String, isFile: Bool)] {
  var bound: [(host: String, box: String)] = [("/usr", "/usr")]
  bound += layout.topLevelDirectories.map { ($0, $0) }
  for mount in extra {
    guard let resolved = realpath(mount.hostPath, nil) else { continue }
    bound.append((String(cString: resolved), mount.boxPath))
    free(resolved)
  }
  var targets: [(target: String, isFile: Bool)] = []
  for hidden in layout.hiddenPaths {
    var info = stat()
    guard stat(hidden, &info) == 0 else { continue }
    let isFile = info.st_mode & S_IFMT != S_IFDIR
    for (host, box) in bound where hidden == host || hidden.hasPrefix(host == "/" ? "/" : host + "/") {
      let target = box + hidden.dropFirst(host == "/" ? 0 : host.count)
      if !targets.contains(where: { $0.target == target }) { targets.append((target, isFile)) }
    }
  }
  return targets
}

/// tmpfs options of /tmp and /dev/shm.
func scratchOptions(bytes: UInt64) -> String { "size=\(bytes),nr_inodes=16384,mode=1777" }

/// Validates a box-side path from a runner or a request: absolute, normal,
/// and not over the box's own structure.
func validateBoxPath(_ path: String) -> String? {
  guard path.hasPrefix("/") else { return "\(path) is not absolute" }
  let parts = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
  if parts.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }) { return "\(path) is not a normal path" }
  let reserved = ["/", "/proc", "/dev", "/tmp", "/box", "/etc"]
  if reserved.contains(path) || path.hasPrefix("/proc/") || path.hasPrefix("/dev/") || path.hasPrefix("/box/") {
    return "\(path) would cover the box's own \(path.split(separator: "/").first.map { "/" + $0 } ?? "/")"
  }
  return nil
}
