import Foundation
import Glibc
import Testing

@testable import Sandbox

// A warm box is reset when its run ends, before anyone else gets it: each
// test makes one run attack the box through the pool, as the daemon does,
// then checks that the idle box equals its fresh self and that the next run
// can tell nothing.

@Suite struct WarmBoxResetTests {
  private func spec(_ command: [String], configure: (inout BoxSpec) -> Void = { _ in }) -> BoxSpec {
    var spec = BoxSpec(command: command, policy: Fixture.defaultPolicy)
    configure(&spec)
    return spec
  }

  /// One run through the pool; returns its outcome and the box it ran in.
  private func run(
    _ pool: BoxPool, _ command: [String], files: [String: Data] = [:],
    configure: (inout BoxSpec) -> Void = { _ in }
  ) throws -> (Outcome, WarmBox) {
    let spec = spec(command, configure: configure)
    var used: WarmBox?
    let outcome = try pool.withBox(layout: BoxLayout(spec), limits: spec.limits) { box throws(SandboxError) in
      used = box
      for (name, data) in files { try box.writeFile(name, contents: data, executable: true) }
      return try box.run(spec)
    }
    return (outcome, used!)
  }

  /// The box was reset in place: kept by the pool, its state that of a fresh box.
  private func expectResetInPlace(_ box: WarmBox, _ pool: BoxPool, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(!box.isBroken, "the box was discarded: \(pool.discardCounts)", sourceLocation: sourceLocation)
    guard let fresh = box.freshFingerprint else { return }
    let now = box.fingerprint()
    #expect(now.differences(from: fresh).isEmpty, "\(now) vs fresh \(fresh)", sourceLocation: sourceLocation)
    #expect(now.roots == fresh.roots, sourceLocation: sourceLocation)
  }

  private static let python = "/usr/bin/python3"

  /// A run that only sets its roots' times (a note the fingerprint does not compare) finds them
  /// reset in the next run, also when nothing else about the roots changed.
  @Test func rootTimesSetByARunAreResetForTheNext() throws {
    let pool = BoxPool(host: Fixture.host, maximumIdlePerLayout: 1)
    defer { pool.drain() }
    let note = """
      import os
      for path in ('/box', '/tmp', '/dev/shm'):
          os.utime(path, (1000000, 1000000))
      print([int(os.stat(path).st_mtime) for path in ('/box', '/tmp', '/dev/shm')])
      """
    let look = """
      import os
      print([int(os.stat(path).st_mtime) < 2000000 for path in ('/box', '/tmp', '/dev/shm')])
      """
    let (noted, box) = try run(pool, [Self.python, "-c", note])
    #expect(noted.stdoutText == "[1000000, 1000000, 1000000]\n", "\(noted.stderrText)")
    expectResetInPlace(box, pool)
    let (looked, again) = try run(pool, [Self.python, "-c", look])
    #expect(again === box)
    #expect(looked.stdoutText == "[False, False, False]\n", "\(looked.stderrText)")
  }

  // MARK: Hole 1: the modes of the box's roots

  @Test func rootModesChangedByARunAreResetForTheNext() throws {
    let pool = BoxPool(host: Fixture.host, maximumIdlePerLayout: 1)
    defer { pool.drain() }
    for mode in ["0", "0o500"] {
      let attack = """
        import os
        for path in ('/box', '/tmp', '/dev/shm'):
            os.chmod(path, \(mode))
        print('changed')
        """
      let (changed, box) = try run(pool, [Self.python, "-c", attack])
      #expect(changed.stdoutText == "changed\n", "\(changed.stderrText)")
      expectResetInPlace(box, pool)
      // What the next learner's run needs: its file in /box, and writable scratch directories.
      let probe = """
        import os
        print(*(oct(os.stat(p).st_mode & 0o7777) for p in ('/box', '/tmp', '/dev/shm')))
        for p in ('/box', '/tmp', '/dev/shm'):
            open(p + '/w', 'w').write('x')
        print('ok')
        """
      let (next, nextBox) = try run(pool, [Self.python, "/box/main.py"], files: ["main.py": Data(probe.utf8)])
      #expect(nextBox === box)
      #expect(next.status == .ok, "\(next.stderrText)")
      #expect(next.stdoutText == "0o700 0o700 0o700\nok\n")
    }
    #expect(pool.discardCounts.isEmpty)
  }

  // MARK: Hole 2: SysV IPC outliving the run

  private static let ipcLeftovers = """
    #include <fcntl.h>
    #include <mqueue.h>
    #include <stdio.h>
    #include <stdlib.h>
    #include <string.h>
    #include <sys/ipc.h>
    #include <sys/msg.h>
    #include <sys/sem.h>
    #include <sys/shm.h>
    int main(int argc, char **argv) {
      if (argc > 1) {
        printf("shm %d msg %d sem %d mq %d\\n", shmget(0x5eed, 0, 0), msgget(0x5eed, 0), semget(0x5eed, 0, 0),
               (int)mq_open("/dsa-left", O_RDONLY));
        return 0;
      }
      size_t size = (size_t)atoi(getenv("MB")) << 20;
      int id = shmget(0x5eed, size, IPC_CREAT | 0666);
      char *memory = shmat(id, NULL, 0);
      if (id < 0 || memory == (void *)-1) { perror("shm"); return 1; }
      memset(memory, 1, size);
      shmdt(memory);
      int queue = msgget(0x5eed, IPC_CREAT | 0666);
      struct { long type; char text[4000]; } message = {1, "left"};
      for (int i = 0; i < 8; i++) msgsnd(queue, &message, sizeof message.text, IPC_NOWAIT);
      semget(0x5eed, 4, IPC_CREAT | 0666);
      struct mq_attr attributes = {.mq_maxmsg = 8, .mq_msgsize = 1024};
      mqd_t posix = mq_open("/dsa-left", O_CREAT | O_WRONLY, 0666, &attributes);
      if (posix != (mqd_t)-1) mq_send(posix, "left", 4, 0);
      printf("left\\n");
      return 0;
    }
    """

  @Test func sysVObjectsAndTheirMemoryAreGoneWhenTheRunEnds() throws {
    let pool = BoxPool(host: Fixture.host, maximumIdlePerLayout: 1)
    defer { pool.drain() }
    let binary = try compileC(Self.ipcLeftovers, name: "ipc-leftovers")
    // More than the next run's default 256 MiB: under cgroup v1 the next run's limit could not be
    // set (EBUSY) while it stays charged; under v2 the next run's memory would count it.
    let (left, box) = try run(pool, ["/box/probe"], files: ["probe": binary]) {
      $0.limits.memoryBytes = 1024 << 20
      $0.environment = ["MB=300"]
    }
    #expect(left.stdoutText == "left\n", "\(left.stderrText)")
    expectResetInPlace(box, pool)
    let charged = try #require(box.fingerprint().memoryChargeBytes)
    #expect(charged < 32 << 20, "\(charged >> 20) MiB stay charged to the idle box")

    let (look, nextBox) = try run(pool, ["/box/probe", "look"], files: ["probe": binary])
    #expect(nextBox === box)
    #expect(look.status == .ok, "\(look.stderrText)")
    #expect(look.stdoutText == "shm -1 msg -1 sem -1 mq -1\n")
    #expect(look.memoryKilobytes < 64 << 10, "the next run's memory counts the last one's: \(look.memoryKilobytes) KiB")
  }

  // MARK: Hole 3: files, and a socket kept alive in flight

  @Test func filesOfARunAreFreedWhenItEnds() throws {
    let pool = BoxPool(host: Fixture.host, maximumIdlePerLayout: 1)
    defer { pool.drain() }
    let write = [
      "/bin/sh", "-c",
      "head -c 8000000 /dev/zero > /box/big; head -c 8000000 /dev/zero > /tmp/big; head -c 4000000 /dev/zero > /dev/shm/big; mkdir -p /tmp/a/b; echo wrote",
    ]
    let (wrote, box) = try run(pool, write)
    #expect(wrote.stdoutText == "wrote\n", "\(wrote.stderrText)")
    // Idle now, and already empty: nothing of the run's files stays in RAM until the box's next use.
    expectResetInPlace(box, pool)
    let (next, nextBox) = try run(pool, ["/bin/sh", "-c", "ls -A /box /tmp /dev/shm; echo next"])
    #expect(nextBox === box)
    #expect(next.stdoutText == "/box:\n\n/dev/shm:\n\n/tmp:\nnext\n")
  }

  private static let socketCycle = """
    #include <stddef.h>
    #include <stdio.h>
    #include <string.h>
    #include <sys/socket.h>
    #include <sys/un.h>
    #include <unistd.h>
    int main(int argc, char **argv) {
      struct sockaddr_un address;
      memset(&address, 0, sizeof address);
      address.sun_family = AF_UNIX;
      memcpy(address.sun_path + 1, "dsa-covert-reset", 16);
      socklen_t length = offsetof(struct sockaddr_un, sun_path) + 17;
      if (argc > 1) {
        int client = socket(AF_UNIX, SOCK_STREAM, 0);
        printf(connect(client, (struct sockaddr *)&address, length) == 0 ? "connected\\n" : "refused\\n");
        return 0;
      }
      int listener = socket(AF_UNIX, SOCK_STREAM, 0);
      if (bind(listener, (struct sockaddr *)&address, length) != 0 || listen(listener, 8) != 0) return 1;
      int pair[2];
      socketpair(AF_UNIX, SOCK_DGRAM, 0, pair);
      // pair[0] is sent into its own receive queue with the listener: once every
      // process is gone, only the message in flight keeps both alive.
      char control[CMSG_SPACE(2 * sizeof(int))];
      memset(control, 0, sizeof control);
      struct iovec byte = {.iov_base = "x", .iov_len = 1};
      struct msghdr message = {0};
      message.msg_iov = &byte;
      message.msg_iovlen = 1;
      message.msg_control = control;
      message.msg_controllen = sizeof control;
      struct cmsghdr *header = CMSG_FIRSTHDR(&message);
      header->cmsg_level = SOL_SOCKET;
      header->cmsg_type = SCM_RIGHTS;
      header->cmsg_len = CMSG_LEN(2 * sizeof(int));
      int fds[2] = {pair[0], listener};
      memcpy(CMSG_DATA(header), fds, sizeof fds);
      if (sendmsg(pair[1], &message, 0) != 1) return 1;
      close(pair[1]);
      close(listener);
      close(pair[0]);
      printf("in flight\\n");
      return 0;
    }
    """

  @Test func anAbstractSocketKeptInFlightIsNotLeftForTheNextRun() throws {
    let pool = BoxPool(host: Fixture.host, maximumIdlePerLayout: 1)
    defer { pool.drain() }
    let binary = try compileC(Self.socketCycle, name: "socket-cycle")
    for _ in 0..<3 {
      let (left, box) = try run(pool, ["/box/probe"], files: ["probe": binary])
      #expect(left.stdoutText == "in flight\n", "\(left.stderrText)")
      // Either the reset had the kernel collect the cycle, or it discarded the box.
      if !box.isBroken { expectResetInPlace(box, pool) }
      let (look, _) = try run(pool, ["/box/probe", "look"], files: ["probe": binary])
      #expect(look.stdoutText == "refused\n", "the next run reached the last run's socket")
    }
  }

  // MARK: Other state that outlives a run

  @Test func theNextRunStartsAtTheSamePidAsInAFreshBox() throws {
    let pool = BoxPool(host: Fixture.host, maximumIdlePerLayout: 1)
    defer { pool.drain() }
    let (fresh, box) = try run(pool, ["/bin/sh", "-c", "echo $$"])
    #expect(fresh.stdoutText == "2\n")
    _ = try run(pool, ["/bin/sh", "-c", "for i in 1 2 3 4 5 6 7 8 9 10; do /bin/true; done"])
    let (next, nextBox) = try run(pool, ["/bin/sh", "-c", "echo $$"])
    #expect(nextBox === box)
    #expect(next.stdoutText == fresh.stdoutText, "a run's pid tells how many processes the last run made")
  }

  @Test func theBoxsNamesCannotBeChangedForTheNextRun() throws {
    // The UTS namespace lives as long as the warm box; the program holds no capability to change it.
    let pool = BoxPool(host: Fixture.host, maximumIdlePerLayout: 1)
    defer { pool.drain() }
    let rename = """
      import ctypes, os
      libc = ctypes.CDLL(None, use_errno=True)
      print(libc.sethostname(b"note", 4), libc.setdomainname(b"note", 4), os.strerror(ctypes.get_errno()))
      """
    let (tried, box) = try run(pool, [Self.python, "-c", rename])
    #expect(tried.stdoutText == "-1 -1 Operation not permitted\n", "\(tried.stderrText)")
    let (next, nextBox) = try run(pool, [Self.python, "-c", "import os; print(os.uname().nodename)"])
    #expect(nextBox === box)
    #expect(next.stdoutText == "box\n")
  }

  @Test func aBoxWhoseResetCannotBeProvenIsDiscardedAndCounted() throws {
    let pool = BoxPool(host: Fixture.host, maximumIdlePerLayout: 1)
    defer { pool.drain() }
    // Deeper than the host-side emptying goes: the reset fails, the pool discards the box.
    let (deep, box) = try run(
      pool, ["/bin/sh", "-c", "cd /box && for i in $(seq 100); do mkdir d && cd d; done; echo made"])
    #expect(deep.stdoutText == "made\n")
    #expect(box.isBroken)
    #expect(pool.discardCounts[.files] == 1)
    #expect(pool.idleCount == 0)
    let (next, nextBox) = try run(pool, ["/bin/sh", "-c", "ls -A /box; echo next"])
    #expect(nextBox !== box)
    #expect(next.stdoutText == "next\n")
    expectResetInPlace(nextBox, pool)
  }

  @Test func withoutACgroupTheResetHoldsToo() throws {
    // rlimit-only mode: no cgroup counts processes or memory; the init's reaping until no child is
    // left is the proof for processes, the rest of the fingerprint is the same.
    let pool = BoxPool(host: RlimitOnlyModeTests.host, maximumIdlePerLayout: 1)
    defer { pool.drain() }
    let attack = "chmod 0 /box /tmp /dev/shm; echo x > /dev/shm/f; (sleep 60 &); echo done"
    let (done, box) = try run(pool, ["/bin/sh", "-c", attack])
    #expect(done.stdoutText == "done\n")
    expectResetInPlace(box, pool)
    let (next, nextBox) = try run(pool, ["/bin/sh", "-c", "ls -A /box /tmp /dev/shm && echo $$"])
    #expect(nextBox === box)
    #expect(next.stdoutText == "/box:\n\n/dev/shm:\n\n/tmp:\n2\n", "\(next.stderrText)")
  }

  // MARK: The fingerprint's rules

  @Test func eachDifferenceFromFreshNamesItsReason() {
    let root = BoxFingerprint.Root(
      mode: 0o40700, owner: 5000, group: 5000, links: 2, extendedAttributeBytes: 0, usedBlocks: 0, usedInodes: 1)
    let fresh = BoxFingerprint(
      roots: [root, root, root], processes: 1, sockets: 0, memoryChargeBytes: 1 << 20, rlimits: [1, 2])
    #expect(fresh.differences(from: fresh).isEmpty)
    var changes: [(BoxDiscardReason, (inout BoxFingerprint) -> Void)] = [
      (.rootModes, { $0.roots[0]?.mode = 0o40000 }), (.rootModes, { $0.roots[1]?.owner = 0 }),
      (.rootModes, { $0.roots[2]?.extendedAttributeBytes = 24 }), (.rootModes, { $0.roots[2] = nil }),
      (.files, { $0.roots[1]?.usedBlocks = 1 }), (.files, { $0.roots[0]?.usedInodes = 2 }),
      (.files, { $0.roots[2]?.links = 3 }), (.processes, { $0.processes = 2 }), (.sockets, { $0.sockets = 1 }),
      (.memory, { $0.memoryChargeBytes = (1 << 20) + BoxFingerprint.memoryAllowanceBytes + 1 }),
      (.memory, { $0.memoryChargeBytes = nil }), (.rlimits, { $0.rlimits = [1, 3] }),
    ]
    // Within the allowance, the init's own pages: not a difference.
    changes.append((.memory, { $0.memoryChargeBytes = 2 << 20 }))
    for (index, (reason, change)) in changes.enumerated() {
      var now = fresh
      change(&now)
      let expected: Set<BoxDiscardReason> = index == changes.count - 1 ? [] : [reason]
      #expect(now.differences(from: fresh) == expected, "change \(index)")
    }
  }

  // MARK: The invariant, for every hostile probe

  @Test func afterEveryHostileRunTheBoxEqualsAFreshOne() throws {
    let pool = BoxPool(host: Fixture.host, maximumIdlePerLayout: 1)
    defer { pool.drain() }
    let ipc = try compileC(Self.ipcLeftovers, name: "ipc-fingerprint")
    let cycle = try compileC(Self.socketCycle, name: "cycle-fingerprint")
    let hostile: [([String], [String: Data], [String])] = [
      ([Self.python, "-c", "import os; [os.chmod(p, 0) for p in ('/box', '/tmp', '/dev/shm')]"], [:], []),
      (["/bin/sh", "-c", "chmod 1777 /box; chmod 4755 /tmp; touch -d 2001-01-01 /box /tmp /dev/shm"], [:], []),
      // Refused by the policy (setxattr is not allowed); the reset would remove it all the same.
      ([Self.python, "-c", "import os; os.setxattr('/tmp', 'user.x', b'1' * 2000)"], [:], []),
      (["/box/probe"], ["probe": ipc], ["MB=64"]),
      (["/box/probe"], ["probe": cycle], []),
      (["/bin/sh", "-c", "head -c 1000000 /dev/zero > /dev/shm/f; mkdir -p /box/a/b/c; ln -s / /tmp/root"], [:], []),
      (["/bin/sh", "-c", "(sleep 60 &); (setsid sleep 60 &); exec sleep 60"], [:], []),
    ]
    for (command, files, environment) in hostile {
      let (outcome, box) = try run(pool, command, files: files) {
        $0.environment = environment
        $0.limits.wallTimeMilliseconds = 2_000
      }
      #expect(outcome.status != .internalError, "\(command)")
      if box.isBroken {
        // Discarded: the reason is counted, and the next box is fresh by construction.
        #expect(!pool.discardCounts.isEmpty, "\(command)")
      } else {
        expectResetInPlace(box, pool)
      }
    }
    let (last, _) = try run(pool, ["/bin/echo", "still works"])
    #expect(last.stdoutText == "still works\n")
  }
}
