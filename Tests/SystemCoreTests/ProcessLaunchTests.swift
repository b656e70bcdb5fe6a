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
    let longLived = Mutex<[Process]>([])
    let startingDone = DispatchSemaphore(value: 0)
    let rounds = 200
    Thread {
      for _ in 0..<rounds {
        let sleeper = Process()
        sleeper.executableURL = URL(fileURLWithPath: "/bin/sleep")
        sleeper.arguments = ["600"]
        sleeper.standardOutput = ProcessLaunch.pipe()
        if (try? ProcessLaunch.run(sleeper)) != nil { longLived.withLock { $0.append(sleeper) } }
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
      let echo = Process()
      echo.executableURL = URL(fileURLWithPath: "/bin/echo")
      echo.arguments = ["round \(round)"]
      let output = ProcessLaunch.pipe()
      echo.standardOutput = output
      try ProcessLaunch.run(echo)
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
