// Probe programs for Dart (see LanguagePrograms). The sum program reads stdin
// in large chunks: stdin.readLineSync() makes one read(2) per byte.

import Testing

let dartPrograms: [LanguagePrograms] = [
  LanguagePrograms(
    language: "dart",
    hello: "void main() {\n  print('Hello, World!');\n}\n",
    sum: """
      import 'dart:convert';
      import 'dart:io';

      Future<void> main() async {
        final text = await stdin.transform(utf8.decoder).join();
        var total = 0;
        for (final token in text.split(RegExp(r'\\s+'))) {
          if (token.isNotEmpty) total += int.parse(token);
        }
        print(total);
      }
      """,
    arguments: "void main(List<String> arguments) {\n  print(arguments.join('|'));\n}\n",
    utf8: "void main() {\n  print('héllo ✓ 世界');\n}\n",
    compileError: "void main() {\n  int x = 'not a number';\n  print(x);\n}\n",
    crash: "void main() {\n  var zero = 0;\n  print(1 ~/ zero);\n}\n",
    infiniteLoop: "void main() {\n  var n = 0;\n  while (true) {\n    n++;\n  }\n}\n",
    allocate: """
      import 'dart:typed_data';

      void main() {
        final blocks = <Uint8List>[];
        for (var i = 0; i < 2048; i++) {
          blocks.add(Uint8List(1 << 20)..[0] = 1);
        }
        print(blocks.length);
      }
      """,
    endlessPrint: "void main() {\n  while (true) {\n    print('spam spam spam');\n  }\n}\n",
    connect: """
      import 'dart:io';

      Future<void> main() async {
        try {
          final socket = await Socket.connect('127.0.0.1', PORT, timeout: const Duration(seconds: 2));
          print('CONNECTED');
          socket.destroy();
        } catch (error) {
          print('refused $error');
        }
      }
      """,
    readShadow: """
      import 'dart:io';

      void main() {
        try {
          print(File('/etc/shadow').readAsStringSync());
        } on FileSystemException {
          print('denied');
        }
      }
      """
  )
]

@Suite struct DartTests {
  @Test(
    .enabled(if: installed("dart"), "needs the Dart toolchain: scripts/install-toolchains dart"),
    arguments: Check.allCases)
  func dart(_ check: Check) throws { try verify("dart", check) }
}

// The runner ends the VM's idle-task wait (--idle_timeout_micros=0, see docs/toolchains.md) to cut its
// one-second stall at exit; the program's own ending must stay as Dart defines it.
@Suite struct DartEndingTests {
  @Test(.enabled(if: installed("dart"), "needs the Dart toolchain"))
  func timersAfterMainExitCodesAndUncaughtErrorsKeepTheirMeaning() throws {
    let later = try execute(
      "dart",
      """
      import 'dart:async';
      import 'dart:io';

      Future<void> main() async {
        await Future.delayed(const Duration(milliseconds: 50));
        stdout.write('after await, ');
        Timer(const Duration(milliseconds: 200), () {
          stderr.writeln('timer on stderr');
          print('timer fired');
          exitCode = 3;
        });
      }
      """)
    #expect(later.stdout == "after await, timer fired\n", "\(later.compileMessages) \(later.stderr)")
    #expect(later.stderr == "timer on stderr\n")
    #expect(later.run?.exitCode == 3)
    let uncaught = try execute(
      "dart",
      "import 'dart:async';\n\nvoid main() {\n  print('before');\n"
        + "  Timer(Duration.zero, () => throw StateError('late failure'));\n}\n")
    #expect(uncaught.stdout == "before\n")
    #expect(uncaught.run?.exitCode == 255)
    #expect(uncaught.stderr.contains("Bad state: late failure"), "\(uncaught.stderr)")
  }
}
