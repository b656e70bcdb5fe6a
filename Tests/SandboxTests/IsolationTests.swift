import Foundation
import Glibc
import SystemCore
import Testing

@testable import Sandbox

// Probes that try an escape or a leak; each asserts the wall held.

@Suite struct IsolationTests {
  @Test func tcpConnectToAHostLoopbackListenerFails() throws {
    let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #expect(listener >= 0)
    defer { close(listener) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    #expect(bound == 0)
    #expect(listen(listener, 4) == 0)
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
    }
    let port = UInt16(bigEndian: address.sin_port)

    let outcome = try runPython(
      """
      import socket
      try:
          s = socket.create_connection(('127.0.0.1', \(port)), timeout=2)
          print('CONNECTED')
      except OSError as error:
          print('refused', type(error).__name__, error.errno)
      """
    )
    #expect(outcome.status == .ok)
    #expect(outcome.stdoutText.hasPrefix("refused PermissionError 13"))
    // Nothing reached the listener.
    _ = fcntl(listener, F_SETFL, O_NONBLOCK)
    #expect(accept(listener, nil, nil) < 0)
  }

  @Test func udpAndRawSocketsAreRefused() throws {
    let outcome = try runPython(
      """
      import socket
      for family, kind in [(socket.AF_INET, socket.SOCK_DGRAM), (socket.AF_INET, socket.SOCK_RAW), (socket.AF_INET6, socket.SOCK_STREAM), (socket.AF_NETLINK, socket.SOCK_RAW), (socket.AF_PACKET, socket.SOCK_RAW)]:
          try:
              socket.socket(family, kind)
              print('OPENED', family)
          except OSError as error:
              print('refused', error.errno)
      """
    )
    #expect(outcome.status == .ok)
    #expect(!outcome.stdoutText.contains("OPENED"))
    #expect(outcome.stdoutText.split(separator: "\n").count == 5)
  }

  @Test func unixSocketsWorkInsideTheBox() throws {
    let outcome = try runPython(
      "import socket\na, b = socket.socketpair()\na.sendall(b'hi')\nprint(b.recv(2).decode())")
    #expect(outcome.status == .ok)
    #expect(outcome.stdoutText == "hi\n")
  }

  @Test func hostSecretsAndHomesAreInvisible() throws {
    let outcome = try runInBox([
      "/bin/sh", "-c",
      "for p in /etc/shadow /root /home /var /run /sys /opt; do [ -e $p ] && echo VISIBLE $p; done; ls /etc; echo end",
    ])
    #expect(outcome.status == .ok)
    #expect(!outcome.stdoutText.contains("VISIBLE"))
    #expect(!outcome.stdoutText.contains("shadow"))
    #expect(outcome.stdoutText.hasSuffix("end\n"))
  }

  @Test(arguments: ["/usr/probe", "/etc/probe", "/probe", "/usr/bin/probe", "/proc/probe", "/dev/probe"])
  func systemDirectoriesAreReadOnly(path: String) throws {
    // The marker is printed only when the write fails, and required: a shell that never ran, or
    // died before trying, fails the test instead of passing it.
    let outcome = try runInBox(["/bin/sh", "-c", "if echo x > \(path); then echo WROTE; else echo REFUSED; fi"])
    #expect(outcome.status == .ok)
    #expect(outcome.stdoutText == "REFUSED\n")
  }

  @Test func procListsOnlyTheBoxProcesses() throws {
    let outcome = try runInBox(["/bin/sh", "-c", "ls /proc | grep -E '^[0-9]+$' | sort -n | tr '\\n' ' '"])
    #expect(outcome.status == .ok)
    let pids = outcome.stdoutText.split(separator: " ").compactMap { Int($0) }
    // init (1), sh (2), ls and grep, sort, tr: a handful, all small numbers.
    #expect(pids.first == 1)
    #expect(pids.count <= 8)
    #expect(pids.allSatisfy { $0 < 20 })
  }

  @Test func killMinusOneTouchesNothingOutside() throws {
    let sleeper = ChildProcess()
    sleeper.executableURL = URL(fileURLWithPath: "/bin/sleep")
    sleeper.arguments = ["30"]
    try sleeper.run()
    defer {
      sleeper.terminate()
      sleeper.waitUntilExit()
    }
    let outcome = try runPython("import os, signal\nos.kill(-1, signal.SIGKILL)\nprint('sent')")
    #expect(outcome.stdoutText.isEmpty || outcome.stdoutText == "sent\n")
    usleep(100_000)
    #expect(sleeper.isRunning)
    #expect(kill(getpid(), 0) == 0)
  }

  @Test func ptraceMountUnshareAndSetnsFail() throws {
    let outcome = try runPython(
      """
      import ctypes, os
      libc = ctypes.CDLL(None, use_errno=True)
      results = {
          'ptrace': libc.ptrace(16, 1, 0, 0),
          'mount': libc.mount(b'tmpfs', b'/tmp', b'tmpfs', 0, None),
          'unshare': libc.unshare(0x10000000),
          'unshare_net': libc.unshare(0x40000000),
          'setns': libc.setns(os.open('/proc/1/ns/net', os.O_RDONLY) if os.path.exists('/proc/1/ns/net') else 0, 0),
          'chroot': libc.chroot(b'/tmp'),
          'bpf': libc.syscall(321, 0, 0, 0),
          'keyctl': libc.syscall(250, 0, 0, 0),
          'perf_event_open': libc.syscall(298, 0, 0, -1, -1, 0),
          'io_uring_setup': libc.syscall(425, 1, 0),
          'userfaultfd': libc.syscall(323, 0),
          'process_vm_readv': libc.syscall(310, 1, 0, 0, 0, 0, 0),
          'clone_newuser': libc.syscall(56, 0x10000000 | 17, 0, 0, 0, 0),
      }
      for name, value in results.items():
          print(name, 'SUCCEEDED' if value >= 0 else 'failed')
      """
    )
    #expect(outcome.status == .ok, "\(outcome.stderrText)")
    #expect(!outcome.stdoutText.contains("SUCCEEDED"), "\(outcome.stdoutText)")
    #expect(outcome.stdoutText.split(separator: "\n").count == 13)
  }

  @Test func foreignABISystemCallsKillTheProgram() throws {
    // getpid through the i386 entry point (int 0x80) from a 64-bit process:
    // the policy pins the architecture, so the kernel kills it.
    let outcome = try runC(
      """
      #include <stdio.h>
      int main(void) {
        long result;
        __asm__ volatile ("int $0x80" : "=a"(result) : "a"(20L) : "memory");
        printf("ESCAPED %ld\\n", result);
        return 0;
      }
      """, name: "i386-abi")
    #expect(outcome.status == .forbidden)
    #expect(!outcome.stdoutText.contains("ESCAPED"))
  }

  @Test func x32SystemCallsKillTheProgram() throws {
    let outcome = try runC(
      """
      #include <stdio.h>
      #include <unistd.h>
      #include <sys/syscall.h>
      int main(void) {
        long result = syscall(0x40000000L | 39);
        printf("ESCAPED %ld\\n", result);
        return 0;
      }
      """, name: "x32-abi")
    #expect(outcome.status == .forbidden)
  }

  @Test func unlistedSystemCallGivesForbidden() throws {
    // acct(2) is in no allow rule: the default action kills the process.
    let outcome = try runC(
      """
      #include <stdio.h>
      #include <unistd.h>
      #include <sys/syscall.h>
      int main(void) { syscall(SYS_acct, 0); syscall(SYS_lookup_dcookie, 0, 0, 0); syscall(SYS_vserver); puts("ESCAPED"); return 0; }
      """, name: "unlisted")
    #expect(outcome.status == .forbidden)
    #expect(outcome.message.contains("not allowed"))
  }

  @Test func setuidBinariesGainNothing() throws {
    let outcome = try runInBox([
      "/bin/sh", "-c",
      "id -u; ls -l /usr/bin/su 2>/dev/null | cut -c1-10; /usr/bin/su -c id root 2>&1 | head -1; grep -E 'CapEff|CapBnd|NoNewPrivs|Seccomp:' /proc/self/status",
    ])
    #expect(outcome.stdoutText.hasPrefix("1000\n"))
    #expect(outcome.stdoutText.contains("CapEff:\t0000000000000000"))
    // Empty up to the kernel's last capability: the init stops dropping at the first it calls invalid.
    #expect(outcome.stdoutText.contains("CapBnd:\t0000000000000000"))
    #expect(outcome.stdoutText.contains("NoNewPrivs:\t1"))
    #expect(outcome.stdoutText.contains("Seccomp:\t2"))
    #expect(!outcome.stdoutText.contains("uid=0"))
  }

  @Test func environmentHoldsOnlyDeclaredVariables() throws {
    ProcessLaunch.setEnvironment("DSA_RUN_HOST_SECRET", "leak")
    let outcome = try runInBox(["/usr/bin/env"], environment: ["LANG=C.UTF-8", "ONLY=this"])
    #expect(outcome.status == .ok)
    #expect(outcome.stdoutText == "LANG=C.UTF-8\nONLY=this\n")
  }

  @Test(arguments: [false, true])
  func theInitShowsNothingOfItsParent(warm: Bool) throws {
    // The init is a copy of the process that made the box (here the test runner; in production the CLI,
    // with host paths in its arguments, or the daemon) and never execs; any box process can read
    // /proc/1/cmdline. The init overwrites its copy of the parent's arguments and environment.
    let command = ["/bin/sh", "-c", "tr '\\0' '\\n' < /proc/1/cmdline | grep .; cat /proc/1/comm"]
    let outcome: Outcome
    if warm {
      let box = try WarmBox(host: Fixture.host, layout: BoxLayout())
      defer { box.destroy() }
      let spec = BoxSpec(command: command, policy: Fixture.defaultPolicy)
      try box.prepare(limits: spec.limits)
      outcome = try box.run(spec)
    } else {
      outcome = try runInBox(command)
    }
    #expect(outcome.status == .ok, "\(outcome.stderrText)")
    #expect(outcome.stdoutText == "dsa-box-init\ndsa-box-init\n")
    #expect(!outcome.stdoutText.contains(CommandLine.arguments[0]))
  }

  @Test func hostnameIsTheBoxs() throws {
    let outcome = try runInBox(["/bin/cat", "/proc/sys/kernel/hostname"])
    #expect(outcome.stdoutText == "box\n")
  }

  @Test func plantedSymlinkIsNotFollowedByHostReads() throws {
    do {
      let box = try Box(
        host: Fixture.host,
        spec: BoxSpec(
          command: [
            "/bin/sh", "-c",
            "ln -s /etc/passwd /box/out; ln -s ../../../../../../etc/hostname /box/rel; mkfifo /box/fifo; ln -s /proc/self/root/etc/hostname /box/magic; mkdir /box/d",
          ],
          policy: Fixture.defaultPolicy))
      defer { box.destroy() }
      let outcome = try box.run()
      #expect(outcome.status == .ok, "\(outcome.stderrText)")
      for name in ["out", "rel", "magic"] {
        #expect(throws: SandboxError.self) { _ = try box.directory.read(name: name, limit: 1 << 20) }
      }
      // A fifo would block a naive reader forever; a directory is no file.
      #expect(throws: SandboxError.self) { _ = try box.directory.read(name: "fifo", limit: 1 << 20) }
      #expect(throws: SandboxError.self) { _ = try box.directory.read(name: "d", limit: 1 << 20) }
      #expect(throws: SandboxError.self) { _ = try box.directory.read(name: "../etc/passwd", limit: 1 << 20) }
    }
  }

  @Test func hostReadsReturnWhatTheBoxWrote() throws {
    do {
      let box = try Box(
        host: Fixture.host,
        spec: BoxSpec(
          command: ["/bin/sh", "-c", "cat /box/in.txt > /box/out.txt; echo more >> /box/out.txt"],
          policy: Fixture.defaultPolicy))
      defer { box.destroy() }
      try box.writeFile("in.txt", contents: Data("given\n".utf8))
      let outcome = try box.run()
      #expect(outcome.status == .ok, "\(outcome.stderrText)")
      #expect(try box.directory.read(name: "out.txt", limit: 100) == Data("given\nmore\n".utf8))
      #expect(throws: SandboxError.self) { _ = try box.directory.read(name: "out.txt", limit: 3) }
    }
  }

  @Test func concurrentBoxesCannotSeeEachOthersTmpOrShm() async throws {
    let writer = Task.detached {
      try runInBox([
        "/bin/sh", "-c", "echo secret > /tmp/marker; echo secret > /dev/shm/marker; sleep 1.5; cat /tmp/marker",
      ])
    }
    try await Task.sleep(nanoseconds: 500_000_000)
    let reader = try runInBox([
      "/bin/sh", "-c", "ls -A /tmp /dev/shm /box; cat /tmp/marker /dev/shm/marker 2>&1 || true",
    ])
    let writerOutcome = try await writer.value
    #expect(writerOutcome.stdoutText == "secret\n")
    #expect(!reader.stdoutText.contains("secret"))
    #expect(!reader.stdoutText.contains("marker:") || reader.stdoutText.contains("No such file"))
  }

  @Test func programRunsAsUnprivilegedHostUID() throws {
    // From the host, the program's process belongs to a uid in the boxes'
    // range, never root.
    let outcome = try runInBox(["/bin/sh", "-c", "cat /proc/self/uid_map"])
    let lines = outcome.stdoutText.split(separator: "\n").map {
      $0.split(separator: " ", omittingEmptySubsequences: true)
    }
    #expect(lines.count == 2)
    for line in lines {
      let outside = UInt32(line[1]) ?? 0
      #expect(outside >= HostIdentityAllocator.firstHostID)
    }
  }
}

@Suite struct HostSideTests {
  @Test func workDirectoriesArePrivateOnTheHost() throws {
    var info = stat()
    #expect(stat(Fixture.host.boxesDirectory, &info) == 0)
    #expect(info.st_mode & 0o777 == 0o711, "boxes/ must not be listable")
    let box = try Box(host: Fixture.host, spec: BoxSpec(command: ["/bin/true"], policy: Fixture.defaultPolicy))
    defer { box.destroy() }
    #expect(stat(box.directory.path, &info) == 0)
    #expect(info.st_mode & 0o777 == 0o700)
    #expect(info.st_uid == box.identity.programUID)
    let warm = try WarmBox(host: Fixture.host, layout: BoxLayout())
    defer { warm.destroy() }
    for suffix in ["", ".tmp", ".shm"] {
      #expect(stat(warm.directory.path + suffix, &info) == 0)
      #expect(info.st_mode & 0o077 == 0, "\(suffix) is open to other host users")
    }
  }
}
