import Foundation
import Glibc
import Runners
import Sandbox
import Testing

// Live runs on a terminal: a pty of the box's own devpts instance, its master held by the host.

@Suite("Live runs on a terminal", .serialized)
struct TerminalTests {
  static var tty: LiveOptions {
    var options = LiveOptions()
    options.tty = true
    return options
  }

  @Test("stdio buffers by line: a C-style prompt and Python's print show before the input is read")
  func lineBuffered() throws {
    // Without a terminal both are fully buffered, and nothing shows until the program ends.
    let programs = [
      (
        "cpp",
        "#include <cstdio>\nint main() { char name[64]; printf(\"Name? \"); scanf(\"%63s\", name); printf(\"Hi %s\\n\", name); }\n",
        "Name? "
      ),
      ("python", "import sys\nprint('ready')\nline = sys.stdin.readline()\nprint('got', line.strip())\n", "ready\r\n"),
    ]
    for (language, source, prompt) in programs {
      let run = LiveRunThread(language, source, options: Self.tty) { $0.runLimits.wallMilliseconds = 60_000 }
      let prompted = run.recorder.wait { $0.stdout.hasSuffix(prompt) }
      #expect(prompted, "\(language): no prompt before input: \(run.recorder.stdout.debugDescription)")
      run.input.send(Array("Ada\n".utf8))
      let result = try run.result()
      #expect(result.run?.status == .ok, "\(language): \(result.messages)")
      // The pty echoes what was typed, and ends lines with CR LF.
      #expect(result.stdout.contains("Ada\r\n"), "\(language): \(result.stdout.debugDescription)")
    }
  }

  @Test("the program sees a terminal of its own devpts, and cannot make more ptys")
  func privateTerminal() throws {
    let source = """
      import os, sys
      print(os.isatty(0), os.isatty(1), os.isatty(2), os.ttyname(0), os.getsid(0) == os.tcgetpgrp(0))
      sys.stderr.write('err\\n')
      try:
          os.open('/dev/pts/ptmx', os.O_RDWR)
          print('made a pty')
      except OSError as error:
          print('ptmx', error.errno)
      print(sorted(os.listdir('/dev/pts')))

      """
    let run = LiveRunThread("python", source, options: Self.tty)
    let result = try run.result()
    #expect(result.run?.status == .ok, "\(result.messages)")
    #expect(result.stdout.contains("True True True /dev/pts/0 True"), "\(result.stdout)")
    #expect(result.stdout.contains("ptmx \(EACCES)"), "\(result.stdout)")
    #expect(result.stdout.contains("['0', 'ptmx']"), "\(result.stdout)")
    // One stream on a terminal: stderr arrives in stdout.
    #expect(result.stdout.contains("err\r\n"))
    #expect(!run.recorder.all.contains { if case .stderr = $0 { return true } else { return false } })
  }

  @Test("finish is ^D: end of input at the start of a line, and after a partial one")
  func endOfInput() throws {
    for typed in ["one\ntwo\n", "one\ntwo"] {
      let run = LiveRunThread(
        "python", "import sys\ndata = sys.stdin.read()\nprint('read', repr(data))\n", options: Self.tty)
      #expect(run.input.send(Array(typed.utf8)))
      run.input.finish()
      let result = try run.result()
      #expect(result.run?.status == .ok, "\(result.messages)")
      #expect(
        result.stdout.contains("read \(typed.debugDescription.replacingOccurrences(of: "\"", with: "'"))"),
        "\(result.stdout)")
    }
  }

  @Test("kill and the wall limit end a program waiting on its terminal")
  func limits() throws {
    let waiting = LiveRunThread("python", "input('> ')\n", options: Self.tty) { $0.runLimits.wallMilliseconds = 1_000 }
    #expect(try waiting.result().run?.status == .timeLimit)
    let killed = LiveRunThread("python", "input('> ')\n", options: Self.tty)
    #expect(killed.recorder.wait { $0.stdout.contains("> ") })
    killed.input.kill()
    #expect(try killed.result().run?.message.contains("on request") == true)
  }
}
