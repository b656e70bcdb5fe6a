"""Judge0 CE compatibility, end to end: the real judge0 SDK (PyPI judge0==0.0.8, pinned in
scripts/requirements-test.txt) and raw HTTP against a real dsa-rund started on 127.0.0.1:0 with a
private work root and state directory.

Run: scripts/test-venv's python Tests/compat/judge0_test.py PATH/TO/dsa-rund
"""

import base64
import http.client
import http.server
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import unittest
import zipfile

import judge0

DAEMON = os.environ.get("DSA_RUND") or (sys.argv.pop(1) if len(sys.argv) > 1 else None)
REPOSITORY = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class Callbacks(http.server.BaseHTTPRequestHandler):
    """A loopback receiver that keeps every request it gets."""

    received = []
    arrived = threading.Condition()

    def do_PUT(self):
        self._keep("PUT")

    def do_POST(self):
        self._keep("POST")

    def _keep(self, method):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        with Callbacks.arrived:
            Callbacks.received.append((method, self.path, self.headers.get("Content-Type"), body))
            Callbacks.arrived.notify_all()
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


class Daemon:
    """dsa-rund on a free port of 127.0.0.1, its state and work root in a fresh directory."""

    def __init__(self, config):
        self.directory = tempfile.mkdtemp(prefix="dsa-run-judge0-")
        os.chmod(self.directory, 0o755)
        work = os.path.join(self.directory, "work")
        os.mkdir(work)
        os.chmod(work, 0o755)
        with open(os.path.join(self.directory, "config.json"), "w") as file:
            json.dump(config, file)
        self.log_path = os.path.join(self.directory, "stderr.log")
        environment = dict(os.environ, DSA_RUN_DATA=REPOSITORY)
        for name in ("NOTIFY_SOCKET", "LISTEN_PID", "LISTEN_FDS"):
            environment.pop(name, None)
        self.log = open(self.log_path, "w")
        self.process = subprocess.Popen(
            [DAEMON, "--config", os.path.join(self.directory, "config.json"), "--listen", "127.0.0.1:0",
             "--work-root", work, "--cache-dir", os.path.join(self.directory, "cache"),
             "--state-dir", os.path.join(self.directory, "state")],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=self.log,
            env=environment)
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
        raise RuntimeError("dsa-rund did not start in 30 s")

    @property
    def url(self):
        return f"http://127.0.0.1:{self.port}"

    def request(self, method, target, body=None, headers=None):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        data = json.dumps(body).encode() if isinstance(body, (dict, list)) else body
        sent = {"Content-Type": "application/json"} if data is not None else {}
        sent.update(headers or {})
        connection.request(method, target, body=data, headers=sent)
        response = connection.getresponse()
        raw = response.read()
        connection.close()
        return response.status, (json.loads(raw) if raw else None), response

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=40)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.log.close()
        shutil.rmtree(self.directory, ignore_errors=True)


HELLO = {
    judge0.PYTHON: 'print("hello from python")\n',
    judge0.JAVASCRIPT: 'console.log("hello from javascript");\n',
    judge0.JAVA: 'public class Main { public static void main(String[] a) { System.out.println("hello from java"); } }\n',
    judge0.CPP: '#include <iostream>\nint main() { std::cout << "hello from cpp" << std::endl; }\n',
    # Valid C that C++ refuses (a void * assigned without a cast): judge0.C (103) runs C.
    judge0.C: '#include <stdio.h>\n#include <stdlib.h>\nint main(void) { char *p = malloc(2); free(p); puts("hello from c"); }\n',
    judge0.KOTLIN: 'fun main() { println("hello from kotlin") }\n',
    judge0.GO: 'package main\nimport "fmt"\nfunc main() { fmt.Println("hello from go") }\n',
    judge0.DART: 'void main() { print("hello from dart"); }\n',
}


def b64(text):
    return base64.b64encode(text.encode()).decode()


def zip_of(entries, method=zipfile.ZIP_DEFLATED):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", method) as archive:
        for name, content in entries:
            archive.writestr(zipfile.ZipInfo(name), content, compress_type=method)
    return buffer.getvalue()


class Judge0Tests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.receiver = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Callbacks)
        threading.Thread(target=cls.receiver.serve_forever, daemon=True).start()
        cls.daemon = Daemon({
            "slots": 2,
            "submissions": {"webhooks": {"allow": ["127.0.0.1/32"], "backoff_ms": 100}},
            "judge0": {"max_extract_kb": 64},
        })
        cls.client = judge0.Client(cls.daemon.url)

    @classmethod
    def tearDownClass(cls):
        cls.daemon.stop()
        cls.receiver.shutdown()
        cls.receiver.server_close()

    def run_python(self, source, **fields):
        return judge0.run(client=self.client, source_code=source, language=judge0.PYTHON, **fields)

    # The SDK

    def test_sdk_run_python_is_accepted(self):
        result = judge0.run(source_code='print("hi")', language=judge0.PYTHON, client=judge0.Client(self.daemon.url))
        self.assertEqual(result.status, judge0.Status.ACCEPTED)
        self.assertEqual(result.stdout, "hi\n")
        self.assertIsInstance(result.time, float)
        self.assertGreater(result.memory, 0)

    def test_every_language_through_the_sdk(self):
        for alias, source in HELLO.items():
            with self.subTest(language=alias.name):
                result = judge0.run(client=self.client, source_code=source, language=alias)
                self.assertEqual(result.status, judge0.Status.ACCEPTED, result.compile_output or result.stderr)
                self.assertEqual(result.stdout, f"hello from {alias.name.lower()}\n")

    def test_compiler_options_through_the_sdk(self):
        # Designated initializers and <=> are C++20: they compile only with the option.
        source = ("#include <compare>\n#include <cstdio>\nstruct P { int x, y; auto operator<=>(const P&) const = default; };\n"
                  "int main() { P a{.x = 1, .y = 2}, b{.x = 1, .y = 3}; std::printf(\"%d\\n\", a < b); }\n")
        result = judge0.run(client=self.client, source_code=source, language=judge0.CPP, compiler_options="-std=c++20")
        self.assertEqual(result.status, judge0.Status.ACCEPTED, result.compile_output)
        self.assertEqual(result.stdout, "1\n")
        result = judge0.run(client=self.client, source_code=source, language=judge0.CPP)
        self.assertEqual(result.status, judge0.Status.COMPILATION_ERROR)
        status, refused, _ = self.daemon.request(
            "POST", "/submissions?wait=true",
            {"source_code": source, "language_id": 105, "compiler_options": "-O2 -Wl,-rpath,/tmp"})
        self.assertEqual(status, 422)
        self.assertIn('"-Wl,-rpath,/tmp"', refused["compiler_options"][0])

    def test_redirect_stderr_to_stdout_through_the_sdk(self):
        source = ("import sys\nfor n in range(3):\n    print('out', n, flush=True)\n"
                  "    print('err', n, file=sys.stderr, flush=True)\n")
        result = judge0.run(client=self.client, source_code=source, language=judge0.PYTHON,
                            redirect_stderr_to_stdout=True)
        self.assertEqual(result.status, judge0.Status.ACCEPTED)
        self.assertEqual(result.stdout, "out 0\nerr 0\nout 1\nerr 1\nout 2\nerr 2\n")
        self.assertFalse(result.stderr)

    def test_expected_output_accepted_and_wrong_answer(self):
        # Judge0 right-strips each line and drops trailing blank lines before comparing.
        accepted = self.run_python('print("a  ")\nprint("b")\nprint()\n', expected_output="a\nb")
        self.assertEqual(accepted.status, judge0.Status.ACCEPTED)
        wrong = self.run_python('print("a")\n', expected_output="b\n")
        self.assertEqual(wrong.status, judge0.Status.WRONG_ANSWER)
        self.assertEqual(wrong.stdout, "a\n")

    def test_compile_error(self):
        result = judge0.run(client=self.client, source_code="int main() { return x; }\n", language=judge0.CPP)
        self.assertEqual(result.status, judge0.Status.COMPILATION_ERROR)
        self.assertIn("x", result.compile_output)
        self.assertIsNone(result.stdout)
        self.assertIsNone(result.time)

    def test_runtime_error_nzec(self):
        result = self.run_python("import sys\nsys.exit(3)\n")
        self.assertEqual(result.status, judge0.Status.RUNTIME_ERROR_NZEC)
        self.assertEqual(result.exit_code, 3)
        # Judge0 sends message in base64 too, and the SDK does not decode it.
        self.assertEqual(base64.b64decode(result.message), b"Exited with error status 3")

    def test_runtime_error_by_signal(self):
        result = self.run_python("import os, signal\nos.kill(os.getpid(), signal.SIGSEGV)\n")
        self.assertEqual(result.status, judge0.Status.RUNTIME_ERROR_SIGSEGV)
        self.assertEqual(result.exit_signal, 11)

    def test_time_limit(self):
        result = self.run_python("while True:\n    pass\n", cpu_time_limit=1)
        self.assertEqual(result.status, judge0.Status.TIME_LIMIT_EXCEEDED)

    def test_memory_limit_is_a_runtime_error_naming_ours(self):
        result = self.run_python("x = bytearray(300 * 1024 * 1024)\nprint(len(x))\n", memory_limit=65536)
        self.assertIn(result.status.value, range(7, 13), result)
        self.assertIn(b"memory_limit", base64.b64decode(result.message))

    def test_command_line_arguments_split_as_a_shell_would(self):
        result = self.run_python(
            "import sys\nprint(sys.argv[1:])\n", command_line_arguments="a \"b c\" 'd e' f\\ g $HOME;x")
        self.assertEqual(result.stdout, "['a', 'b c', 'd e', 'f g', 'HOMEx']\n")

    def test_batch_through_the_sdk(self):
        submissions = [
            judge0.Submission(source_code=f"print({n} * 2)", language=judge0.PYTHON) for n in range(3)]
        results = judge0.run(client=self.client, submissions=submissions)
        self.assertEqual([r.stdout for r in results], ["0\n", "2\n", "4\n"])
        self.assertTrue(all(r.status == judge0.Status.ACCEPTED for r in results))

    def test_async_and_polling_through_the_sdk(self):
        submission = judge0.async_run(client=self.client, source_code="print('later')", language=judge0.PYTHON)
        self.assertIsNotNone(submission.token)
        judge0.wait(client=self.client, submissions=submission)
        self.assertEqual(submission.status, judge0.Status.ACCEPTED)
        self.assertEqual(submission.stdout, "later\n")

    def test_additional_files_through_the_sdk(self):
        # The SDK zips a Filesystem with stored (uncompressed) entries.
        files = judge0.Filesystem(content=[judge0.File(name="helper.py", content="def greet():\n    return 'zipped'\n")])
        result = self.run_python("import helper\nprint(helper.greet())\n", additional_files=files)
        self.assertEqual(result.status, judge0.Status.ACCEPTED, result)
        self.assertEqual(result.stdout, "zipped\n")

    # Raw HTTP: what the SDK does not call

    def test_info_routes(self):
        status, statuses, _ = self.daemon.request("GET", "/statuses")
        self.assertEqual(status, 200)
        self.assertEqual([s["id"] for s in statuses], list(range(1, 15)))
        status, config, _ = self.daemon.request("GET", "/config_info")
        self.assertEqual(len(config), 39)
        self.assertEqual(config["max_cpu_time_limit"], 10)
        self.assertEqual(config["max_memory_limit"], 1024 * 1024)
        status, language, _ = self.daemon.request("GET", "/languages/71")
        self.assertEqual(status, 200)
        self.assertEqual(
            sorted(language), ["compile_cmd", "id", "is_archived", "name", "run_cmd", "source_file"])
        self.assertEqual(self.daemon.request("GET", "/languages/70")[0], 404)
        status, about, _ = self.daemon.request("GET", "/about")
        self.assertEqual(about["version"], "1.14.0")

    def test_wait_true_base64_is_201_in_rubys_base64(self):
        status, body, _ = self.daemon.request(
            "POST", "/submissions?base64_encoded=true&wait=true",
            {"source_code": b64("print('x' * 70)"), "language_id": 71})
        self.assertEqual(status, 201)
        self.assertEqual(sorted(body), sorted(judge0.submission.RESPONSE_FIELDS & {
            "token", "time", "memory", "stdout", "stderr", "compile_output", "message", "status"}))
        self.assertEqual(body["status"], {"id": 3, "description": "Accepted"})
        encoded = base64.b64encode(("x" * 70 + "\n").encode()).decode()
        self.assertEqual(body["stdout"], encoded[:60] + "\n" + encoded[60:] + "\n")
        self.assertIsNone(body["stderr"])

    def test_wait_false_answers_only_the_token(self):
        status, body, _ = self.daemon.request("POST", "/submissions", {"source_code": "print(1)", "language_id": "71"})
        self.assertEqual(status, 201)
        self.assertEqual(list(body), ["token"])

    def test_fields(self):
        _, created, _ = self.daemon.request(
            "POST", "/submissions?wait=true&fields=stdout,status_id", {"source_code": "print(5)", "language_id": 71})
        self.assertEqual(created, {"stdout": "5\n", "status_id": 3})
        _, token, _ = self.daemon.request(
            "POST", "/submissions?wait=true&fields=token", {"source_code": "print(5)", "language_id": 71})
        status, everything, _ = self.daemon.request("GET", f"/submissions/{token['token']}?fields=*")
        self.assertEqual(status, 200)
        self.assertEqual(len(everything), 35)
        self.assertEqual(everything["cpu_time_limit"], "5.0")
        # The id's name says what runs here, not Judge0's Python 3.8.1.
        self.assertRegex(everything["language"]["name"], r"^Python \(3\.11\.\d+\)$")
        self.assertEqual(everything["language"]["id"], 71)
        status, refused, _ = self.daemon.request("GET", f"/submissions/{token['token']}?fields=stdout,nope,ours")
        self.assertEqual((status, refused), (400, {"error": "invalid fields: [nope, ours]"}))

    def test_batch_get_keeps_token_order_and_null_for_unknown(self):
        status, created, _ = self.daemon.request(
            "POST", "/submissions/batch",
            {"submissions": [{"source_code": "print(1)", "language_id": 71}, {"language_id": 71}]})
        self.assertEqual(status, 201)
        self.assertIn("token", created[0])
        self.assertEqual(created[1], {"source_code": ["can't be blank"]})
        unknown = "00000000-0000-4000-8000-000000000000"
        for _ in range(300):
            _, got, _ = self.daemon.request(
                "GET", f"/submissions/batch?tokens={unknown},{created[0]['token']}&fields=status_id,stdout")
            if got["submissions"][1]["status_id"] not in (1, 2):
                break
            time.sleep(0.1)
        self.assertEqual(got["submissions"], [None, {"status_id": 3, "stdout": "1\n"}])

    def test_refusals_in_judge0s_shapes(self):
        cases = [
            ({"source_code": "x", "language_id": 9999}, {"language_id": ["language with id 9999 doesn't exist"]}),
            ({"language_id": 71}, {"source_code": ["can't be blank"]}),
            ({"source_code": "x", "language_id": 71, "cpu_time_limit": 100},
             {"cpu_time_limit": ["must be less than or equal to 10.0"]}),
            ({"source_code": "x", "language_id": 71, "command_line_arguments": "'open"},
             {"command_line_arguments": ["has a quote that is never closed"]}),
        ]
        for body, answer in cases:
            with self.subTest(body=body):
                self.assertEqual(self.daemon.request("POST", "/submissions", body)[:2], (422, answer))
        self.assertEqual(self.daemon.request("GET", "/submissions/not-a-token")[0], 404)

    def test_additional_files_deflated(self):
        archive = base64.b64encode(zip_of([("data/words.txt", "deflated " * 50)])).decode()
        status, body, _ = self.daemon.request(
            "POST", "/submissions?wait=true&fields=status_id,stdout",
            {"source_code": "print(open('data/words.txt').read().split()[49])", "language_id": 71,
             "additional_files": archive})
        self.assertEqual((status, body), (201, {"status_id": 3, "stdout": "deflated\n"}))

    def test_additional_files_refusals(self):
        traversal = base64.b64encode(zip_of([("../escape.py", "print(1)")])).decode()
        status, body, _ = self.daemon.request(
            "POST", "/submissions", {"source_code": "print(1)", "language_id": 71, "additional_files": traversal})
        self.assertEqual(status, 422)
        self.assertIn("../escape.py", body["additional_files"][0])
        # 1 MiB of zeros deflates to about a kilobyte; this daemon unpacks at most 64 KiB.
        bomb = base64.b64encode(zip_of([("zeros.txt", "\0" * (1 << 20))])).decode()
        self.assertLess(len(bomb), 4096)
        status, body, _ = self.daemon.request(
            "POST", "/submissions", {"source_code": "print(1)", "language_id": 71, "additional_files": bomb})
        self.assertEqual(status, 422)
        self.assertIn("zip bomb", body["additional_files"][0])

    def test_callback_is_a_base64_put(self):
        port = self.receiver.server_address[1]
        with Callbacks.arrived:
            Callbacks.received.clear()
        status, created, _ = self.daemon.request(
            "POST", "/submissions",
            {"source_code": "print('called back')", "language_id": 71,
             "callback_url": f"http://127.0.0.1:{port}/judge0/done"})
        self.assertEqual(status, 201)
        with Callbacks.arrived:
            Callbacks.arrived.wait_for(lambda: Callbacks.received, timeout=60)
            method, path, content_type, body = Callbacks.received[0]
        self.assertEqual((method, path, content_type), ("PUT", "/judge0/done", "application/json"))
        document = json.loads(body)
        self.assertEqual(sorted(document), sorted(
            ["token", "time", "memory", "stdout", "stderr", "compile_output", "message", "status"]))
        self.assertEqual(document["token"], created["token"])
        self.assertEqual(base64.b64decode(document["stdout"]), b"called back\n")
        # The SDK reads a callback body as a Submission.
        self.assertEqual(judge0.Submission(**document).stdout, "called back\n")


class PrefixTests(unittest.TestCase):
    def test_prefix_moves_the_routes_and_the_sdk_follows(self):
        daemon = Daemon({"slots": 1, "judge0": {"prefix": "/judge0"}})
        try:
            self.assertEqual(daemon.request("GET", "/languages")[0], 404)
            client = judge0.Client(daemon.url + "/judge0")
            result = judge0.run(client=client, source_code="print('prefixed')", language=judge0.PYTHON)
            self.assertEqual(result.stdout, "prefixed\n")
        finally:
            daemon.stop()


if __name__ == "__main__":
    if not DAEMON:
        sys.exit("usage: judge0_test.py PATH/TO/dsa-rund (or DSA_RUND=...)")
    unittest.main()
