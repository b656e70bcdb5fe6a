"""Piston v2 on dsa-rund, driven by Piston's real PyPI clients (pistonapi 1.0.1, pistonpy 0.0.3),
the websockets client for /api/v2/connect, and raw http.client for what the clients never send.

Run by scripts/test with the test venv's python (scripts/test-venv); starts its own dsa-rund on
127.0.0.1:0 with a private work root. DSA_RUND overrides the daemon binary.
"""

import asyncio
import base64
import http.client
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

import pistonapi
import pistonpy
import pistonpy.models
import websockets

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DAEMON = None


class Daemon:
    def __init__(self):
        binary = os.environ.get("DSA_RUND") or os.path.join(ROOT, ".build", "debug", "dsa-rund")
        self.directory = tempfile.mkdtemp(prefix="dsa-rund-piston.")
        os.chmod(self.directory, 0o755)
        config = os.path.join(self.directory, "config.json")
        with open(config, "w") as file:
            file.write('{"slots": 2}')
        self.log_path = os.path.join(self.directory, "stderr.log")
        environment = dict(os.environ, DSA_RUN_DATA=ROOT)
        for name in ("NOTIFY_SOCKET", "LISTEN_PID", "LISTEN_FDS"):
            environment.pop(name, None)
        with open(self.log_path, "w") as log:
            self.process = subprocess.Popen(
                [binary, "--config", config, "--listen", "127.0.0.1:0",
                 "--work-root", os.path.join(self.directory, "work"),
                 "--cache-dir", os.path.join(self.directory, "cache"),
                 "--state-dir", os.path.join(self.directory, "state")],
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=log, env=environment)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            with open(self.log_path) as log:
                lines = log.read().splitlines()
            for line in lines:
                entry = json.loads(line) if line.startswith("{") else {}
                if entry.get("event") == "started":
                    self.port = int(entry["addresses"][0].rsplit(":", 1)[1])
                    return
            if self.process.poll() is not None:
                raise RuntimeError("dsa-rund exited at start: " + "\n".join(lines))
            time.sleep(0.05)
        raise RuntimeError("dsa-rund did not start within 30 s")

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=40)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        shutil.rmtree(self.directory, ignore_errors=True)

    @property
    def base(self):
        return f"http://127.0.0.1:{self.port}"


def setUpModule():
    global DAEMON
    DAEMON = Daemon()


def tearDownModule():
    DAEMON.stop()


def raw(method, path, body=None, headers=None):
    """One exchange as http.client sends it: (status, headers, parsed JSON or text)."""
    connection = http.client.HTTPConnection("127.0.0.1", DAEMON.port, timeout=120)
    data = body if isinstance(body, (bytes, type(None))) else json.dumps(body).encode()
    connection.request(method, path, body=data, headers=headers or {})
    response = connection.getresponse()
    text = response.read().decode()
    connection.close()
    try:
        return response.status, dict(response.getheaders()), json.loads(text)
    except ValueError:
        return response.status, dict(response.getheaders()), text


def execute(body):
    return raw("POST", "/api/v2/execute", body, {"Content-Type": "application/json"})


def pistonpy_app():
    """pistonpy hard-codes emkc.org; pointing it at a self-hosted server means replacing its endpoints."""
    app = pistonpy.PistonApp()
    app._endpoint = DAEMON.base + "/api/v2"
    original = pistonpy.models.GetOutput.__init__

    def init(self, payload):
        original(self, payload)
        self._endpoint = DAEMON.base + "/api/v2/execute"

    pistonpy.models.GetOutput.__init__ = init
    return app


SUM_PROGRAMS = {
    "python": "import sys\nprint(sum(int(x) for x in sys.stdin.read().split()))\n",
    "javascript": "const t = require('fs').readFileSync(0, 'utf8').split(/\\s+/).filter(Boolean)"
                  ".map(Number).reduce((a, b) => a + b, 0);\nconsole.log(t);\n",
    "java": "import java.util.*;\npublic class Main { public static void main(String[] a) { Scanner s = new Scanner(System.in);"
            " long t = 0; while (s.hasNextLong()) t += s.nextLong(); System.out.println(t); } }\n",
    # Valid C that C++ refuses: a void * assigned without a cast.
    "c": "#include <stdio.h>\n#include <stdlib.h>\nint main(void) { long long t = 0, x; int *p = malloc(4);"
         " while (scanf(\"%lld\", &x) == 1) t += x; printf(\"%lld\\n\", t); free(p); }\n",
    "c++": "#include <iostream>\nint main() { long long t = 0, x; while (std::cin >> x) t += x; std::cout << t << std::endl; }\n",
    "kotlin": "fun main() { println(generateSequence(::readLine).flatMap { it.split(' ').filter { it.isNotEmpty() } }"
              ".sumOf { it.toLong() }) }\n",
    "go": "package main\nimport \"fmt\"\nfunc main() { t, x := 0, 0; for { if _, e := fmt.Scan(&x); e != nil { break }; t += x }; fmt.Println(t) }\n",
    "dart": "import 'dart:io';\nvoid main() { var t = 0; String? l; while ((l = stdin.readLineSync()) != null) {"
            " for (var w in l!.split(' ')) { if (w.isNotEmpty) t += int.parse(w); } } print(t); }\n",
}


class Clients(unittest.TestCase):
    def test_pistonapi_lists_runtimes_with_plain_versions(self):
        runtimes = pistonapi.PistonAPI(DAEMON.base + "/api/v2").runtimes
        self.assertEqual(set(runtimes), {"python", "javascript", "java", "c", "c++", "kotlin", "go", "dart"})
        for language, item in runtimes.items():
            parts = item["version"].split(".")
            self.assertEqual(len(parts), 3, item)
            self.assertTrue(all(part.isdigit() for part in parts), item)
        self.assertIn("py", runtimes["python"]["aliases"])
        self.assertEqual(runtimes["c++"]["runtime"], "gcc")
        self.assertEqual(runtimes["c"]["runtime"], "gcc")
        self.assertIn("gcc", runtimes["c"]["aliases"])
        self.assertEqual(runtimes["javascript"]["runtime"], "node")

    def test_pistonapi_execute_returns_the_output(self):
        api = pistonapi.PistonAPI(DAEMON.base + "/api/v2")
        self.assertEqual(api.execute("python", "*", "print('hello from pistonapi')"), "hello from pistonapi\n")
        self.assertEqual(
            api.execute("py", "3", "import sys\nprint(sys.argv[1:], input())", stdin="typed", args=["a b", "c"]),
            "['a b', 'c'] typed\n")

    def test_pistonapi_error_is_raised_with_pistons_words(self):
        api = pistonapi.PistonAPI(DAEMON.base + "/api/v2")
        with self.assertRaises(pistonapi.PistonError) as raised:
            api.execute("cobol", "*", "x")
        self.assertEqual(str(raised.exception), "cobol-* runtime is unknown")

    def test_pistonpy_run_returns_the_whole_result(self):
        result = pistonpy_app().run(language="python", version="*", code="print(6 * 7)")
        self.assertEqual(result["language"], "python")
        self.assertEqual(result["run"]["output"], "42\n")
        self.assertEqual(result["run"]["code"], 0)
        self.assertIsNone(result["run"]["signal"])

    def test_pistonpy_several_files_with_duplicate_names(self):
        directory = tempfile.mkdtemp()
        cwd = os.getcwd()
        try:
            os.chdir(directory)
            with open("alpha.py", "w") as file:
                file.write("print('alpha')\n")
            with open("beta.py", "w") as file:
                file.write("print('beta')\n")
            result = pistonpy_app().run(language="python", files=["alpha.py", "beta.py"])
        finally:
            os.chdir(cwd)
            shutil.rmtree(directory)
        self.assertEqual(result["run"]["stdout"], "alpha\nbeta\n")

    def test_pistonpy_error_raises(self):
        with self.assertRaises(pistonpy.PistonError):
            pistonpy_app().run(language="python", code="print(1)", run_timeout=10**9)

    def test_every_language_accepted_and_wrong_answer(self):
        api = pistonapi.PistonAPI(DAEMON.base + "/api/v2")
        for language, source in SUM_PROGRAMS.items():
            with self.subTest(language=language):
                self.assertEqual(api.execute(language, "*", source, stdin="1 2 3\n4"), "10\n")
                # A wrong program's output is not the expected answer.
                wrong = source.replace("+=", "-=").replace("a + b", "a - b").replace("sum(", "-sum(").replace(
                    ".sumOf { it.toLong() }", ".sumOf { -it.toLong() }")
                self.assertNotEqual(api.execute(language, "*", wrong, stdin="1 2 3\n4"), "10\n")


class Execute(unittest.TestCase):
    def test_output_is_interleaved_in_arrival_order(self):
        # Two pipes that both hold output when the host looks cannot say which was written first
        # (nor can Piston's); a pause after each write lets the host read each one as it comes.
        source = ("import sys, time\nfor i in range(3):\n    print('out', i, flush=True)\n    time.sleep(0.2)\n"
                  "    print('err', i, file=sys.stderr, flush=True)\n    time.sleep(0.2)\n")
        status, _, body = execute({"language": "python", "version": "*", "files": [{"content": source}]})
        self.assertEqual(status, 200)
        self.assertEqual(body["run"]["output"], "out 0\nerr 0\nout 1\nerr 1\nout 2\nerr 2\n")
        self.assertEqual(body["run"]["stdout"], "out 0\nout 1\nout 2\n")
        self.assertEqual(body["run"]["stderr"], "err 0\nerr 1\nerr 2\n")

    def test_stdin_gets_a_trailing_newline_and_names_default(self):
        source = "import sys, os\nprint(repr(sys.stdin.read()), sorted(os.listdir('.')))\n"
        status, _, body = execute({"language": "python", "version": "3.x", "stdin": "x",
                                   "files": [{"content": source}, {"content": "data", "name": ""}]})
        self.assertEqual(status, 200, body)
        self.assertIn("'x\\n'", body["run"]["stdout"])
        self.assertIn("file1.code", body["run"]["stdout"])

    def test_base64_and_hex_files(self):
        source = "print(open('data.bin', 'rb').read(), open('more.txt').read())\n"
        status, _, body = execute({"language": "python", "version": "*", "files": [
            {"name": "data.bin", "content": base64.b64encode(b"\x00\x01hi").decode(), "encoding": "base64"},
            {"name": "main.py", "content": base64.b64encode(source.encode()).hex(), "encoding": "hex"},
            {"name": "main.py", "content": source},
            {"name": "more.txt", "content": "6f6b", "encoding": "hex"}]})
        self.assertEqual(status, 200, body)
        self.assertEqual(body["run"]["stdout"], "b'\\x00\\x01hi' ok\n")

    def test_compile_error(self):
        status, _, body = execute({"language": "cpp", "version": "*", "files": [{"content": "int main() { return x; }"}]})
        self.assertEqual(status, 200)
        self.assertNotEqual(body["compile"]["code"], 0)
        self.assertEqual(body["compile"]["status"], "RE")
        self.assertIn("x", body["compile"]["stderr"])
        self.assertEqual(body["run"], body["compile"])

    def test_compiled_multi_file_program(self):
        status, _, body = execute({"language": "c++", "version": "12", "files": [
            {"name": "main.cpp", "content": "int twice(int);\n#include <cstdio>\nint main() { std::printf(\"%d\\n\", twice(21)); }"},
            {"name": "twice.cpp", "content": "int twice(int x) { return 2 * x; }"}]})
        self.assertEqual(status, 200, body)
        self.assertEqual(body["compile"]["code"], 0)
        self.assertEqual(body["run"]["stdout"], "42\n")

    def test_runtime_errors(self):
        status, _, body = execute({"language": "python", "version": "*", "files": [{"content": "raise SystemExit(3)"}]})
        self.assertEqual((body["run"]["code"], body["run"]["status"], body["run"]["signal"]), (3, "RE", None))
        self.assertEqual(body["run"]["message"], "Exited with error status 3")
        status, _, body = execute({"language": "c++", "version": "*", "files": [
            {"content": "int main() { volatile int *p = nullptr; return *p; }"}]})
        self.assertEqual((body["run"]["code"], body["run"]["status"], body["run"]["signal"]), (None, "SG", "SIGSEGV"))

    def test_time_limit(self):
        status, _, body = execute({"language": "python", "version": "*", "run_timeout": 1000, "run_cpu_time": 500,
                                   "files": [{"content": "while True: pass"}]})
        self.assertEqual(status, 200)
        self.assertEqual((body["run"]["status"], body["run"]["signal"], body["run"]["code"]), ("TO", "SIGKILL", None))

    def test_memory_limit(self):
        status, _, body = execute({"language": "python", "version": "*", "run_memory_limit": 64 * 1024 * 1024,
                                   "files": [{"content": "x = bytearray(512 * 1024 * 1024)\nprint(len(x))"}]})
        self.assertEqual(status, 200)
        self.assertIn("memory", body["run"]["message"])
        self.assertIn(body["run"]["status"], ("RE", "SG"))
        self.assertEqual(body["run"]["stdout"], "")

    def test_minus_one_is_the_server_maximum(self):
        status, _, body = execute({"language": "python", "version": "*", "run_timeout": -1, "run_memory_limit": -1,
                                   "compile_memory_limit": -1, "files": [{"content": "print(1)"}]})
        self.assertEqual((status, body["run"]["stdout"]), (200, "1\n"))


class Errors(unittest.TestCase):
    def assertMessage(self, body, message, status=400, headers=None):
        got = raw("POST", "/api/v2/execute", body, headers if headers is not None else {"Content-Type": "application/json"})
        self.assertEqual((got[0], got[2]), (status, {"message": message}))

    def test_pistons_messages_word_for_word(self):
        python = {"language": "python", "version": "*"}
        self.assertMessage({}, "language is required as a string")
        self.assertMessage({"language": 3}, "language is required as a string")
        self.assertMessage({"language": "python"}, "version is required as a string")
        self.assertMessage(python, "files is required as an array")
        self.assertMessage(dict(python, files="print(1)"), "files is required as an array")
        self.assertMessage(dict(python, files=[{"content": "x"}, {"name": "a"}]), "files[1].content is required as a string")
        self.assertMessage({"language": "python", "version": "9.x", "files": []}, "python-9.x runtime is unknown")
        self.assertMessage({"language": "cobol", "version": "*", "files": []}, "cobol-* runtime is unknown")
        self.assertMessage(dict(python, files=[{"content": "eA==", "encoding": "base64"}]),
                           "files must include at least one utf8 encoded file")
        files = [{"content": "print(1)"}]
        self.assertMessage(dict(python, files=files, run_timeout="5"), "If specified, run_timeout must be a number")
        self.assertMessage(dict(python, files=files, run_timeout=10**7),
                           "run_timeout cannot exceed the configured limit of 20000")
        self.assertMessage(dict(python, files=files, run_memory_limit=-5), "run_memory_limit must be non-negative")
        # v2.js checks memory limits before timeouts, compile before run.
        self.assertMessage(dict(python, files=files, run_timeout="x", compile_memory_limit="y"),
                           "If specified, compile_memory_limit must be a number")

    def test_not_found_and_media_type(self):
        status, _, body = raw("GET", "/api/v2/nothing")
        self.assertEqual((status, body), (404, {"message": "Not Found"}))
        status, _, body = raw("GET", "/api/v2/execute")
        self.assertEqual((status, body), (404, {"message": "Not Found"}))
        self.assertMessage({"language": "python"}, "requests must be of type application/json", 415,
                           {"Content-Type": "text/xml"})

    def test_json_without_content_type_is_read(self):
        status, _, body = raw("POST", "/api/v2/execute",
                              {"language": "python", "version": "*", "files": [{"content": "print(5)"}]}, {})
        self.assertEqual((status, body["run"]["stdout"]), (200, "5\n"))


def connect_session(init, steps):
    """Runs a /connect session: sends `init` (None sends nothing), then each step (a message to send,
    or "recv-until-<type>"), returning the messages received and the close code and reason."""
    async def session():
        received = []
        async with websockets.connect(DAEMON.base.replace("http", "ws") + "/api/v2/connect") as socket:
            if init is not None:
                await socket.send(json.dumps(init))
            for step in steps:
                if isinstance(step, str):
                    wanted = step.split("-", 2)[2]
                    while True:
                        message = json.loads(await asyncio.wait_for(socket.recv(), 15))
                        received.append(message)
                        if message["type"] == wanted:
                            break
                else:
                    await socket.send(json.dumps(step))
            try:
                while True:
                    received.append(json.loads(await asyncio.wait_for(socket.recv(), 15)))
            except websockets.ConnectionClosed as closed:
                return received, closed.rcvd.code, closed.rcvd.reason
    return asyncio.run(session())


ECHO = "import sys\nprint('ready', flush=True)\nfor line in sys.stdin:\n    print('echo:', line.strip(), flush=True)\n"


class Connect(unittest.TestCase):
    def test_session_echoes_typed_input(self):
        init = {"type": "init", "language": "python", "version": "*", "files": [{"content": ECHO}], "run_timeout": 20000}
        received, code, reason = connect_session(init, [
            "recv-until-data", {"type": "data", "stream": "stdin", "data": "hello\n"}, "recv-until-data",
            {"type": "signal", "signal": "SIGKILL"}])
        self.assertEqual(received[0], {"type": "runtime", "language": "python", "version": received[0]["version"]})
        self.assertEqual(received[1], {"type": "stage", "stage": "run"})
        self.assertEqual(received[2], {"type": "data", "stream": "stdout", "data": "ready\n"})
        self.assertEqual(received[3], {"type": "data", "stream": "stdout", "data": "echo: hello\n"})
        self.assertEqual((code, reason), (4999, "Job Completed"))

    def test_a_signal_reaches_the_process(self):
        # The run may last 20 s; the exit comes once the signal has stopped the program, well before.
        # The program does not handle SIGTERM, so SIGTERM is what ended it.
        init = {"type": "init", "language": "python", "version": "*", "files": [{"content": ECHO}], "run_timeout": 20000}
        started = time.monotonic()
        received, code, _ = connect_session(init, ["recv-until-data", {"type": "signal", "signal": "SIGTERM"}])
        self.assertLess(time.monotonic() - started, 15)
        exits = [message for message in received if message["type"] == "exit"]
        self.assertEqual(exits, [{"type": "exit", "stage": "run", "code": None, "signal": "SIGTERM"}])
        self.assertEqual(code, 4999)

    def test_sigint_is_a_keyboard_interrupt_the_program_can_catch(self):
        source = ("import sys, time\ntry:\n    print('ready', flush=True)\n    time.sleep(30)\n"
                  "except KeyboardInterrupt:\n    print('caught', flush=True)\n    sys.exit(3)\n")
        init = {"type": "init", "language": "python", "version": "*", "files": [{"content": source}],
                "run_timeout": 20000}
        received, code, _ = connect_session(init, ["recv-until-data", {"type": "signal", "signal": "SIGINT"}])
        output = "".join(m["data"] for m in received if m["type"] == "data" and m["stream"] == "stdout")
        self.assertEqual(output, "ready\ncaught\n")
        exits = [message for message in received if message["type"] == "exit"]
        self.assertEqual(exits, [{"type": "exit", "stage": "run", "code": 3, "signal": None}])
        self.assertEqual(code, 4999)

    def test_compiled_session_has_both_stages(self):
        init = {"type": "init", "language": "c++", "version": "*",
                "files": [{"content": "#include <cstdio>\nint main() { std::puts(\"hi\"); return 4; }"}]}
        received, code, _ = connect_session(init, [])
        stages = [message["stage"] for message in received if message["type"] == "stage"]
        self.assertEqual(stages, ["compile", "run"])
        exits = [(m["stage"], m["code"], m["signal"]) for m in received if m["type"] == "exit"]
        self.assertEqual(exits, [("compile", 0, None), ("run", 4, None)])
        self.assertIn({"type": "data", "stream": "stdout", "data": "hi\n"}, received)
        self.assertEqual(code, 4999)

    def test_close_codes(self):
        init = {"type": "init", "language": "python", "version": "*", "files": [{"content": ECHO}]}
        self.assertEqual(connect_session({"type": "data", "stream": "stdin", "data": "x"}, [])[1:],
                         (4003, "Not yet initialized"))
        self.assertEqual(connect_session({"type": "signal", "signal": "SIGKILL"}, [])[1:], (4003, "Not yet initialized"))
        self.assertEqual(connect_session(None, [])[1:], (4001, "Initialization Timeout"))
        self.assertEqual(connect_session(init, ["recv-until-runtime", init])[1:], (4000, "Already Initialized"))
        self.assertEqual(connect_session(init, ["recv-until-runtime", {"type": "data", "stream": "stdout", "data": "x"}])[1:],
                         (4004, "Can only write to stdin"))
        self.assertEqual(connect_session(init, ["recv-until-runtime", {"type": "signal", "signal": "SIGNOPE"}])[1:],
                         (4005, "Invalid signal"))
        received, code, reason = connect_session({"type": "init", "language": "python"}, [])
        self.assertEqual(received, [{"type": "error", "message": "version is required as a string"}])
        self.assertEqual((code, reason), (4002, "Notified Error"))


if __name__ == "__main__":
    unittest.main(verbosity=2)
