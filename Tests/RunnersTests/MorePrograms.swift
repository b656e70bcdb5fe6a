// Probe programs for JavaScript, Go and Kotlin (see LanguagePrograms).

import Testing

let scriptAndCompiledPrograms: [LanguagePrograms] = [
  LanguagePrograms(
    language: "javascript",
    hello: "console.log('Hello, World!');\n",
    sum: """
      const data = require('fs').readFileSync(0, 'utf8');
      let total = 0;
      for (const token of data.split(/\\s+/)) if (token) total += Number(token);
      console.log(String(total));
      """,
    arguments: "console.log(process.argv.slice(2).join('|'));\n",
    utf8: "console.log('héllo ✓ 世界');\n",
    compileError: "console.log('ok');\nconsole.log('missing paren';\n",
    crash: "function f(x) { return x.missing.field; }\nf({});\n",
    infiniteLoop: "let n = 0;\nwhile (true) { n++; }\n",
    allocate: """
      const blocks = [];
      for (let i = 0; i < 2048; i++) { const block = new Array(1 << 17).fill(i); blocks.push(block); }
      console.log(blocks.length);
      """,
    endlessPrint: "while (true) { process.stdout.write('spam spam spam\\n'); }\n",
    connect: """
      const net = require('net');
      const socket = net.connect(PORT, '127.0.0.1', () => { console.log('CONNECTED'); socket.end(); });
      socket.on('error', (error) => console.log('refused ' + error.code));
      """,
    readShadow: """
      try { console.log(require('fs').readFileSync('/etc/shadow', 'utf8')); }
      catch (error) { console.log('denied'); }
      """
  ),
  LanguagePrograms(
    language: "go",
    hello: "package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(\"Hello, World!\") }\n",
    sum: """
      package main

      import (
      \t"bufio"
      \t"fmt"
      \t"os"
      )

      func main() {
      \treader := bufio.NewReaderSize(os.Stdin, 1<<16)
      \ttotal, x := 0, 0
      \tfor {
      \t\tif _, err := fmt.Fscan(reader, &x); err != nil {
      \t\t\tbreak
      \t\t}
      \t\ttotal += x
      \t}
      \tfmt.Println(total)
      }
      """,
    arguments: """
      package main

      import (
      \t"fmt"
      \t"os"
      \t"strings"
      )

      func main() { fmt.Println(strings.Join(os.Args[1:], "|")) }
      """,
    utf8: "package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(\"héllo ✓ 世界\") }\n",
    compileError: "package main\nfunc main() { var x int = \"text\" }\n",
    crash: "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tzero := 0\n\tfmt.Println(1 / zero)\n}\n",
    infiniteLoop: "package main\n\nfunc main() {\n\tn := 0\n\tfor {\n\t\tn++\n\t}\n}\n",
    allocate: """
      package main

      import "fmt"

      func main() {
      \tblocks := make([][]byte, 0, 2048)
      \tfor i := 0; i < 2048; i++ {
      \t\tblock := make([]byte, 1<<20)
      \t\tfor j := 0; j < len(block); j += 4096 {
      \t\t\tblock[j] = 1
      \t\t}
      \t\tblocks = append(blocks, block)
      \t}
      \tfmt.Println(len(blocks))
      }
      """,
    endlessPrint:
      "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfor {\n\t\tfmt.Println(\"spam spam spam\")\n\t}\n}\n",
    connect: """
      package main

      import (
      \t"fmt"
      \t"net"
      )

      func main() {
      \tconnection, err := net.Dial("tcp", "127.0.0.1:PORT")
      \tif err != nil {
      \t\tfmt.Println("refused", err)
      \t\treturn
      \t}
      \tconnection.Close()
      \tfmt.Println("CONNECTED")
      }
      """,
    readShadow: """
      package main

      import (
      \t"fmt"
      \t"os"
      )

      func main() {
      \tdata, err := os.ReadFile("/etc/shadow")
      \tif err != nil {
      \t\tfmt.Println("denied")
      \t\treturn
      \t}
      \tfmt.Print(string(data))
      }
      """
  ),
  LanguagePrograms(
    language: "kotlin",
    hello: "fun main() {\n    println(\"Hello, World!\")\n}\n",
    sum: """
      import java.io.StreamTokenizer

      fun main() {
          val input = StreamTokenizer(System.`in`.bufferedReader())
          var total = 0L
          while (input.nextToken() != StreamTokenizer.TT_EOF) total += input.nval.toLong()
          println(total)
      }
      """,
    arguments: "fun main(args: Array<String>) {\n    println(args.joinToString(\"|\"))\n}\n",
    utf8: "fun main() {\n    println(\"héllo ✓ 世界\")\n}\n",
    compileError: "fun main() {\n    val x: Int = \"text\"\n}\n",
    crash: "fun main() {\n    val zero = 0\n    println(1 / zero)\n}\n",
    infiniteLoop: "fun main() {\n    var n = 0L\n    while (true) { n++ }\n}\n",
    allocate: """
      fun main() {
          val blocks = ArrayList<ByteArray>()
          repeat(2048) { blocks.add(ByteArray(1 shl 20).also { it[0] = 1 }) }
          println(blocks.size)
      }
      """,
    endlessPrint: "fun main() {\n    while (true) println(\"spam spam spam\")\n}\n",
    connect: """
      import java.net.Socket

      fun main() {
          try {
              Socket("127.0.0.1", PORT).use { println("CONNECTED") }
          } catch (error: Exception) {
              println("refused $error")
          }
      }
      """,
    readShadow: """
      import java.io.File

      fun main() {
          try {
              println(File("/etc/shadow").readText())
          } catch (error: Exception) {
              println("denied")
          }
      }
      """
  ),
]

@Suite struct JavaScriptTests {
  @Test(
    .enabled(if: installed("javascript"), "needs the Node.js toolchain: scripts/install-toolchains javascript"),
    arguments: Check.allCases)
  func javascript(_ check: Check) throws { try verify("javascript", check) }
}

@Suite struct GoTests {
  @Test(
    .enabled(if: installed("go"), "needs the Go toolchain: scripts/install-toolchains go"), arguments: Check.allCases)
  func go(_ check: Check) throws { try verify("go", check) }
}

@Suite struct KotlinTests {
  @Test(
    .enabled(if: installed("kotlin"), "needs the Kotlin toolchain: scripts/install-toolchains kotlin"),
    arguments: Check.allCases)
  func kotlin(_ check: Check) throws { try verify("kotlin", check) }

  /// A Kotlin run maps the run archive (the standard library's classes loaded ahead, at install); a
  /// JVM whose archive does not fit its class path maps none and runs with no sharing at all.
  @Test(.enabled(if: installed("kotlin"), "needs the Kotlin toolchain: scripts/install-toolchains kotlin"))
  func aRunMapsTheStandardLibrarysArchive() throws {
    let source = """
      fun main() {
          val words = "b a c".split(" ").sorted().joinToString(",")
          val mapped = java.io.File("/proc/self/maps").readText().contains("/kotlin-run.jsa")
          println(words + " " + System.getProperty("java.vm.info") + " " + mapped)
      }

      """
    let result = try execute("kotlin", source)
    #expect(result.run?.status == .ok, "\(result.stderr)")
    #expect(result.stdout.hasPrefix("a,b,c "), "\(result.stdout)")
    #expect(result.stdout.hasSuffix("sharing true\n"), "\(result.stdout)")
  }
}
