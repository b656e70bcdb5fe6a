import Foundation
import Glibc
import Synchronization
import SystemCore
import Testing

// One thread keeps starting long-lived children while another starts short ones and waits for each
// to end. A short child's exit and the end of its output must be seen while every long one still
// runs: had a long child inherited the short one's exit socket or pipe, the short one would look
// alive until the long ones are stopped, at the end. The bounds only keep a failure from hanging.
@Suite struct ProcessLaunchTests {
  @Test func aShortChildsEndIsSeenWhileLongOnesStartBesideIt() throws {
    let longLived = Mutex<[ChildProcess]>([])
    let startingDone = DispatchSemaphore(value: 0)
    let rounds = 200
    Thread {
      for _ in 0..<rounds {
        let sleeper = ChildProcess()
        sleeper.executableURL = URL(fileURLWithPath: "/bin/sleep")
        sleeper.arguments = ["600"]
        sleeper.standardOutput = ProcessLaunch.pipe()
        if (try? sleeper.run()) != nil { longLived.withLock { $0.append(sleeper) } }
      }
      startingDone.signal()
    }.start()
    defer {
      _ = startingDone.wait(timeout: .now() + 60)
      for sleeper in longLived.withLock({ $0 }) {
        kill(sleeper.processIdentifier, SIGKILL)
        sleeper.waitUntilExit()
      }
    }

    var stuck: [String] = []
    for round in 0..<rounds {
      let echo = ChildProcess()
      echo.executableURL = URL(fileURLWithPath: "/bin/echo")
      echo.arguments = ["round \(round)"]
      let output = ProcessLaunch.pipe()
      echo.standardOutput = output
      try echo.run()
      let read = DispatchSemaphore(value: 0)
      let text = Mutex("")
      Thread {
        let data = output.fileHandleForReading.readDataToEndOfFile()
        text.withLock { $0 = String(decoding: data, as: UTF8.self) }
        read.signal()
      }.start()
      let deadline = ContinuousClock.now + .seconds(20)
      while echo.isRunning && ContinuousClock.now < deadline { usleep(1000) }
      if echo.isRunning { stuck.append("round \(round): its exit was not seen") }
      if read.wait(timeout: .now() + 20) == .timedOut { stuck.append("round \(round): its output never ended") }
      if !stuck.isEmpty { break }
      #expect(text.withLock { $0 } == "round \(round)\n")
    }
    let stillRunning = longLived.withLock { $0.filter(\.isRunning).count }
    #expect(stuck.isEmpty, "\(stuck) (\(stillRunning) long-lived children running)")
  }
}

@Suite struct ChildProcessTests {
  /// Foundation's `Process.run()` crashed reading /proc/self/fd past its buffer with about 1,360
  /// descriptors open; a `ChildProcess` reads nothing, and its child holds none of them.
  @Test func aChildStartsBesideThousandsOfDescriptorsAndHoldsNoneOfThem() throws {
    var limit = rlimit()
    getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    let wanted: rlim_t = 4096
    if limit.rlim_cur < wanted && limit.rlim_max >= wanted {
      limit.rlim_cur = wanted
      setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }
    var held: [Int32] = []
    defer { for descriptor in held { close(descriptor) } }
    for _ in 0..<2000 {
      let descriptor = open("/dev/null", O_RDONLY)  // not close-on-exec: only the spawn's closefrom keeps it out
      try #require(descriptor >= 0, "open: \(errno) after \(held.count)")
      held.append(descriptor)
    }
    for _ in 0..<3 {
      let child = ChildProcess()
      child.executableURL = URL(fileURLWithPath: "/bin/ls")
      child.arguments = ["/proc/self/fd"]
      let output = ProcessLaunch.pipe()
      child.standardOutput = output
      try child.run()
      let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      child.waitUntilExit()
      #expect(child.terminationStatus == 0)
      // ls's own descriptor for the directory is 3.
      #expect(text == "0\n1\n2\n3\n")
    }
  }

  @Test func statusSignalEnvironmentAndStandardStreams() throws {
    let exits = ChildProcess()
    exits.executableURL = URL(fileURLWithPath: "/bin/sh")
    exits.arguments = ["-c", "read line; echo \"$GREETING $line\"; echo oops >&2; exit 7"]
    exits.environment = ["GREETING": "hello"]
    let input = ProcessLaunch.pipe()
    let output = ProcessLaunch.pipe()
    let errors = ProcessLaunch.pipe()
    exits.standardInput = input
    exits.standardOutput = output
    exits.standardError = errors
    let handled = DispatchSemaphore(value: 0)
    exits.terminationHandler = { child in
      #expect(!child.isRunning)
      handled.signal()
    }
    try exits.run()
    #expect(exits.processIdentifier > 0)
    input.fileHandleForWriting.write(Data("world\n".utf8))
    try input.fileHandleForWriting.close()
    #expect(String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) == "hello world\n")
    #expect(String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) == "oops\n")
    exits.waitUntilExit()
    #expect(handled.wait(timeout: .now() + 10) == .success)
    #expect(exits.terminationReason == .exit)
    #expect(exits.terminationStatus == 7)

    // nil and FileHandle.nullDevice (which has no descriptor) are both /dev/null.
    for stream in [nil, FileHandle.nullDevice] as [FileHandle?] {
      let looks = ChildProcess()
      looks.executableURL = URL(fileURLWithPath: "/usr/bin/readlink")
      looks.arguments = ["/proc/self/fd/0", "/proc/self/fd/2"]
      let seen = ProcessLaunch.pipe()
      looks.standardInput = stream
      looks.standardError = stream
      looks.standardOutput = seen
      try looks.run()
      let text = String(decoding: seen.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      looks.waitUntilExit()
      #expect(text == "/dev/null\n/dev/null\n", "\(String(describing: stream))")
    }

    let sleeps = ChildProcess()
    sleeps.executableURL = URL(fileURLWithPath: "/bin/sleep")
    sleeps.arguments = ["600"]
    try sleeps.run()
    #expect(sleeps.isRunning)
    sleeps.terminate()
    sleeps.waitUntilExit()
    #expect(sleeps.terminationReason == .uncaughtSignal)
    #expect(sleeps.terminationStatus == SIGTERM)

    let missing = ChildProcess()
    missing.executableURL = URL(fileURLWithPath: "/nonexistent/program")
    #expect(throws: ChildProcess.LaunchError.self) { try missing.run() }
  }
}
