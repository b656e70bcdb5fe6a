// Each language's first program: it greets, then asks for a name, so the same program shows
// output and typed input. Given no input at all, it still ends.
export const HELLO = {
  python: `import sys\n\nprint("What is your name? ", end="", flush=True)\nname = sys.stdin.readline().strip()\nprint(f"Hello, {name or 'world'}!")\n`,
  javascript: `const rl = require("readline").createInterface({ input: process.stdin });\nprocess.stdout.write("What is your name? ");\nlet answered = false;\nrl.once("line", (name) => { answered = true; console.log(\`Hello, \${name || "world"}!\`); rl.close(); });\nrl.on("close", () => { if (!answered) console.log("Hello, world!"); });\n`,
  java: `import java.util.Scanner;\n\npublic class Main {\n  public static void main(String[] args) {\n    System.out.print("What is your name? ");\n    System.out.flush();\n    Scanner in = new Scanner(System.in);\n    String name = in.hasNextLine() ? in.nextLine() : "";\n    System.out.println("Hello, " + (name.isEmpty() ? "world" : name) + "!");\n  }\n}\n`,
  c: `#include <stdio.h>\n#include <string.h>\n\nint main(void) {\n  char name[256] = "";\n  printf("What is your name? ");\n  fflush(stdout);\n  if (fgets(name, sizeof name, stdin)) name[strcspn(name, "\\n")] = '\\0';\n  printf("Hello, %s!\\n", name[0] ? name : "world");\n  return 0;\n}\n`,
  cpp: `#include <iostream>\n#include <string>\n\nint main() {\n  std::cout << "What is your name? " << std::flush;\n  std::string name;\n  std::getline(std::cin, name);\n  std::cout << "Hello, " << (name.empty() ? "world" : name) << "!\\n";\n}\n`,
  kotlin: `fun main() {\n    print("What is your name? ")\n    System.out.flush()\n    val name = readLine().orEmpty()\n    println("Hello, \${if (name.isEmpty()) "world" else name}!")\n}\n`,
  dart: `import 'dart:io';\n\nvoid main() {\n  stdout.write('What is your name? ');\n  final name = stdin.readLineSync() ?? '';\n  print('Hello, \${name.isEmpty ? 'world' : name}!');\n}\n`,
  go: `package main\n\nimport (\n\t"bufio"\n\t"fmt"\n\t"os"\n\t"strings"\n)\n\nfunc main() {\n\tfmt.Print("What is your name? ")\n\tline, _ := bufio.NewReader(os.Stdin).ReadString('\\n')\n\tname := strings.TrimSpace(line)\n\tif name == "" {\n\t\tname = "world"\n\t}\n\tfmt.Printf("Hello, %s!\\n", name)\n}\n`,
};

// CodeMirror 5 modes (Debian's libjs-codemirror) by language.
export const MODES = {
  python: "python", javascript: "javascript", java: "text/x-java", c: "text/x-csrc", cpp: "text/x-c++src",
  kotlin: "text/x-kotlin", dart: "dart", go: "go",
};
