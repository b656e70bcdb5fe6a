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

  /// The requests that reach line disciplines, console redirection and the terminal's input queue
  /// fail with the policy's EPERM on the program's own terminal, from C and from Python, while the
  /// terminal requests a program needs work (docs/security.md, the ioctl rules of the policies).
  @Test("TIOCSETD, TIOCCONS and TIOCSTI fail with EPERM at the terminal; termios and the window work")
  func dangerousTerminalRequestsAreRefused() throws {
    let c = """
      #include <errno.h>
      #include <stdio.h>
      #include <sys/ioctl.h>
      #include <termios.h>
      static void probe(const char *name, unsigned long request, void *argument) {
        errno = 0;
        int result = ioctl(0, request, argument);
        printf("%s %d %d\\n", name, result, result == 0 ? 0 : errno);
      }
      int main() {
        int discipline = 0;
        char typed = 'x';
        struct termios modes;
        struct winsize size;
        probe("TIOCSETD", TIOCSETD, &discipline);
        probe("TIOCCONS", TIOCCONS, NULL);
        probe("TIOCSTI", TIOCSTI, &typed);
        probe("TIOCSTI-high", TIOCSTI | (1UL << 32), &typed);
        probe("TIOCLINUX", TIOCLINUX, &typed);
        probe("TCGETS", TCGETS, &modes);
        probe("TCSETSW", TCSETSW, &modes);
        probe("TIOCGWINSZ", TIOCGWINSZ, &size);
        probe("TIOCGETD", TIOCGETD, &discipline);
      }

      """
    let python = """
      import errno, fcntl, struct, termios
      def probe(name, request, argument):
          try:
              fcntl.ioctl(0, request, argument)
              print(name, 0, 0)
          except OSError as error:
              print(name, -1, error.errno)
      probe('TIOCSETD', termios.TIOCSETD, struct.pack('i', 0))
      probe('TIOCCONS', termios.TIOCCONS, 0)
      probe('TIOCSTI', termios.TIOCSTI, b'x')
      probe('TCGETS', termios.TCGETS, bytes(60))
      probe('TIOCGWINSZ', termios.TIOCGWINSZ, bytes(8))
      print('attributes', len(termios.tcgetattr(0)))

      """
    for (language, source) in [("cpp", c), ("python", python)] {
      let run = LiveRunThread(language, source, options: Self.tty) { $0.runLimits.wallMilliseconds = 60_000 }
      let result = try run.result()
      #expect(result.run?.status == .ok, "\(language): \(result.messages)")
      let lines = result.stdout.replacingOccurrences(of: "\r", with: "")
      for refused in ["TIOCSETD", "TIOCCONS", "TIOCSTI"] + (language == "cpp" ? ["TIOCSTI-high", "TIOCLINUX"] : []) {
        #expect(lines.contains("\(refused) -1 \(EPERM)\n"), "\(language): \(lines)")
      }
      for allowed in ["TCGETS", "TIOCGWINSZ"] + (language == "cpp" ? ["TCSETSW", "TIOCGETD"] : []) {
        #expect(lines.contains("\(allowed) 0 0\n"), "\(language): \(lines)")
      }
      // Nothing was typed into the terminal's input by a TIOCSTI that got through.
      #expect(!lines.contains("x"), "\(language): \(lines)")
    }
  }

  /// Python's REPL edits lines with readline: raw mode, the window size, and keys moving the
  /// cursor over what was typed.
  @Test("a Python REPL session with line editing works at the terminal")
  func replLineEditing() throws {
    let source = "import code, readline\ncode.interact(banner='', local={}, exitmsg='bye')\n"
    let run = LiveRunThread("python", source, options: Self.tty) { $0.runLimits.wallMilliseconds = 60_000 }
    #expect(run.recorder.wait { $0.stdout.contains(">>> ") }, "\(run.recorder.stdout.debugDescription)")
    // "print(6*)", cursor left once (ESC [ D), "7", Enter: readline makes it print(6*7).
    run.input.send(Array("print(6*)\u{1B}[D7\r".utf8))
    #expect(run.recorder.wait { $0.stdout.contains("42\r\n") }, "\(run.recorder.stdout.debugDescription)")
    // Ctrl-A to the line's start, then "x=" before "5": x=5; then x*2.
    run.input.send(Array("5\u{01}x=\r".utf8))
    run.input.send(Array("x*2\r".utf8))
    #expect(run.recorder.wait { $0.stdout.contains("10\r\n") }, "\(run.recorder.stdout.debugDescription)")
    run.input.finish()
    let result = try run.result()
    #expect(result.run?.status == .ok, "\(result.messages)")
    #expect(result.stdout.contains("bye"), "\(result.stdout.debugDescription)")
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
