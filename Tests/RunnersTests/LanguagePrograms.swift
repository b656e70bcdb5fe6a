// The same probe programs in every language (DESIGN: programs as data).
// Each language entry must print exactly what LanguageTests expects.

struct LanguagePrograms: Sendable {
  var language: String
  /// Prints "Hello, World!".
  var hello: String
  /// Reads whitespace-separated integers from stdin, prints their sum.
  var sum: String
  /// Prints the arguments joined by "|".
  var arguments: String
  /// Prints "héllo ✓ 世界".
  var utf8: String
  /// Does not compile (or, for interpreted languages, is a syntax error);
  /// the error is on line 2.
  var compileError: String
  /// Dies of an uncaught error (division by zero, or a segfault in C++).
  var crash: String
  /// Loops forever without output.
  var infiniteLoop: String
  /// Allocates and touches 2 GB.
  var allocate: String
  /// Prints forever.
  var endlessPrint: String
  /// Connects to 127.0.0.1:PORT (PORT is replaced); prints "refused" when
  /// the connection fails with the language's own error, "CONNECTED" if not.
  var connect: String
  /// Reads /etc/shadow; prints "denied" when it fails, the content if not.
  var readShadow: String
}

let programs: [LanguagePrograms] = corePrograms + scriptAndCompiledPrograms + dartPrograms

let corePrograms: [LanguagePrograms] = [
  LanguagePrograms(
    language: "python",
    hello: "print('Hello, World!')\n",
    sum: "import sys\nprint(sum(int(t) for t in sys.stdin.buffer.read().split()))\n",
    arguments: "import sys\nprint('|'.join(sys.argv[1:]))\n",
    utf8: "print('héllo ✓ 世界')\n",
    compileError: "print('ok')\nprint('missing paren'\n",
    crash: "x = 0\nprint(1 // x)\n",
    infiniteLoop: "while True:\n    pass\n",
    allocate: "a = bytearray(2 * 1024 * 1024 * 1024)\nprint(len(a))\n",
    endlessPrint: "while True:\n    print('spam spam spam')\n",
    connect: """
      import socket
      try:
          socket.create_connection(('127.0.0.1', PORT), timeout=2)
          print('CONNECTED')
      except OSError as error:
          print('refused', error)
      """,
    readShadow: "try:\n    print(open('/etc/shadow').read())\nexcept OSError:\n    print('denied')\n"
  ),
  LanguagePrograms(
    language: "cpp",
    hello: "#include <bits/stdc++.h>\nint main() { std::cout << \"Hello, World!\" << std::endl; }\n",
    sum: """
      #include <bits/stdc++.h>
      int main() { std::ios::sync_with_stdio(false); long long total = 0, x; while (std::cin >> x) total += x; std::cout << total << "\\n"; }
      """,
    arguments: """
      #include <iostream>
      int main(int argc, char **argv) { for (int i = 1; i < argc; i++) std::cout << (i > 1 ? "|" : "") << argv[i]; std::cout << "\\n"; }
      """,
    utf8: "#include <cstdio>\nint main() { std::puts(\"héllo ✓ 世界\"); }\n",
    compileError: "int main() {\n  int x = \"not a number\"\n}\n",
    crash: "#include <cstdio>\nint main() { volatile int *p = nullptr; *p = 42; std::puts(\"survived\"); }\n",
    infiniteLoop: "int main() { volatile unsigned long n = 0; for (;;) n++; }\n",
    allocate: """
      #include <cstdio>
      #include <cstdlib>
      int main() {
        size_t size = 2UL << 30;
        volatile char *p = (volatile char *)malloc(size);
        if (!p) { std::puts("no memory"); return 1; }
        for (size_t i = 0; i < size; i += 4096) p[i] = 1;
        std::printf("%d\\n", p[size - 4096]);
      }
      """,
    endlessPrint: "#include <cstdio>\nint main() { for (;;) std::puts(\"spam spam spam\"); }\n",
    connect: """
      #include <arpa/inet.h>
      #include <cerrno>
      #include <cstdio>
      #include <cstring>
      #include <sys/socket.h>
      int main() {
        int fd = socket(AF_INET, SOCK_STREAM, 0);
        if (fd < 0) { std::printf("refused %s\\n", std::strerror(errno)); return 0; }
        sockaddr_in address{}; address.sin_family = AF_INET; address.sin_port = htons(PORT);
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr);
        if (connect(fd, (sockaddr *)&address, sizeof address) != 0) { std::printf("refused %s\\n", std::strerror(errno)); return 0; }
        std::puts("CONNECTED");
      }
      """,
    readShadow: """
      #include <cstdio>
      int main() { FILE *f = std::fopen("/etc/shadow", "r"); if (!f) { std::puts("denied"); return 0; } int c; while ((c = std::fgetc(f)) != EOF) std::putchar(c); }
      """
  ),
  LanguagePrograms(
    language: "c",
    hello: "#include <stdio.h>\nint main(void) { puts(\"Hello, World!\"); return 0; }\n",
    sum: """
      #include <stdio.h>
      int main(void) { long long total = 0, x; while (scanf("%lld", &x) == 1) total += x; printf("%lld\\n", total); }
      """,
    arguments: """
      #include <stdio.h>
      int main(int argc, char **argv) { for (int i = 1; i < argc; i++) printf("%s%s", i > 1 ? "|" : "", argv[i]); printf("\\n"); }
      """,
    utf8: "#include <stdio.h>\nint main(void) { puts(\"héllo ✓ 世界\"); }\n",
    // Valid C that C++ refuses (void * to int * without a cast) on line 1; the error on line 2.
    compileError: "#include <stdlib.h>\nint main(void) { int *p = malloc(4); int x = \"not a number\" }\n",
    crash: "#include <stdio.h>\nint main(void) { volatile int *p = NULL; *p = 42; puts(\"survived\"); }\n",
    infiniteLoop: "int main(void) { volatile unsigned long n = 0; for (;;) n++; }\n",
    allocate: """
      #include <stdio.h>
      #include <stdlib.h>
      int main(void) {
        size_t size = 2UL << 30;
        volatile char *p = malloc(size);
        if (!p) { puts("no memory"); return 1; }
        for (size_t i = 0; i < size; i += 4096) p[i] = 1;
        printf("%d\\n", p[size - 4096]);
      }
      """,
    endlessPrint: "#include <stdio.h>\nint main(void) { for (;;) puts(\"spam spam spam\"); }\n",
    connect: """
      #include <arpa/inet.h>
      #include <errno.h>
      #include <stdio.h>
      #include <string.h>
      #include <sys/socket.h>
      int main(void) {
        int fd = socket(AF_INET, SOCK_STREAM, 0);
        if (fd < 0) { printf("refused %s\\n", strerror(errno)); return 0; }
        struct sockaddr_in address = {0}; address.sin_family = AF_INET; address.sin_port = htons(PORT);
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr);
        if (connect(fd, (struct sockaddr *)&address, sizeof address) != 0) { printf("refused %s\\n", strerror(errno)); return 0; }
        puts("CONNECTED");
      }
      """,
    readShadow: """
      #include <stdio.h>
      int main(void) { FILE *f = fopen("/etc/shadow", "r"); if (!f) { puts("denied"); return 0; } int c; while ((c = fgetc(f)) != EOF) putchar(c); }
      """
  ),
  LanguagePrograms(
    language: "java",
    hello:
      "public class Main {\n  public static void main(String[] args) { System.out.println(\"Hello, World!\"); }\n}\n",
    sum: """
      import java.io.*;
      public class Sum {
        public static void main(String[] args) throws IOException {
          StreamTokenizer in = new StreamTokenizer(new BufferedInputStream(System.in));
          long total = 0;
          while (in.nextToken() != StreamTokenizer.TT_EOF) total += (long) in.nval;
          System.out.println(total);
        }
      }
      """,
    arguments:
      "public class Main {\n  public static void main(String[] args) { System.out.println(String.join(\"|\", args)); }\n}\n",
    utf8: "public class Main {\n  public static void main(String[] args) { System.out.println(\"héllo ✓ 世界\"); }\n}\n",
    compileError: "public class Main {\n  public static void main(String[] args) { int x = \"text\"; }\n}\n",
    crash:
      "public class Main {\n  public static void main(String[] args) { int zero = 0; System.out.println(1 / zero); }\n}\n",
    infiniteLoop:
      "public class Main {\n  public static void main(String[] args) { long n = 0; while (true) { n++; } }\n}\n",
    allocate: """
      public class Main {
        public static void main(String[] args) {
          byte[][] blocks = new byte[2048][];
          for (int i = 0; i < blocks.length; i++) { blocks[i] = new byte[1 << 20]; blocks[i][0] = 1; }
          System.out.println(blocks.length);
        }
      }
      """,
    endlessPrint:
      "public class Main {\n  public static void main(String[] args) { while (true) System.out.println(\"spam spam spam\"); }\n}\n",
    connect: """
      import java.net.*;
      public class Main {
        public static void main(String[] args) {
          try (Socket socket = new Socket("127.0.0.1", PORT)) { System.out.println("CONNECTED"); }
          catch (Exception error) { System.out.println("refused " + error); }
        }
      }
      """,
    readShadow: """
      import java.nio.file.*;
      public class Main {
        public static void main(String[] args) {
          try { System.out.println(Files.readString(Path.of("/etc/shadow"))); }
          catch (Exception error) { System.out.println("denied"); }
        }
      }
      """
  ),
]
