"""The Jobe REST API on dsa-rund, driven the way Moodle CodeRunner's jobesandbox drives Jobe: raw
http.client with an X-API-KEY, runs posted first, files PUT only after a 404 and the run posted
again, outcomes read by their codes. Real runs in real boxes, one per language family.

Run by scripts/test with the test venv's python (no package needed); starts its own dsa-rund on
127.0.0.1:0 with a private work root and one bearer token. DSA_RUND overrides the daemon binary.
"""

import base64
import hashlib
import http.client
import json
import os
import shutil
import subprocess
import tempfile
import time
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BASE = "/jobe/index.php/restapi"
KEY = "coderunner-key-0123456789"
DAEMON = None


class Daemon:
    def __init__(self):
        binary = os.environ.get("DSA_RUND") or os.path.join(ROOT, ".build", "debug", "dsa-rund")
        self.directory = tempfile.mkdtemp(prefix="dsa-rund-jobe.")
        os.chmod(self.directory, 0o755)
        config = os.path.join(self.directory, "config.json")
        with open(config, "w") as file:
            json.dump({"slots": 2, "bearer_tokens": [KEY], "limits": {"cpu_ms": 20000, "wall_ms": 40000}}, file)
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


def setUpModule():
    global DAEMON
    DAEMON = Daemon()


def tearDownModule():
    DAEMON.stop()


def call(method, resource, body=None, key=KEY):
    """One exchange as CodeRunner's jobesandbox makes it: (status, content type, body text)."""
    headers = {"Content-Type": "application/json; charset=utf-8", "Accept": "application/json"}
    if key is not None:
        headers["X-API-KEY"] = key
    connection = http.client.HTTPConnection("127.0.0.1", DAEMON.port, timeout=120)
    data = None if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
    connection.request(method, BASE + resource, body=data, headers=headers)
    response = connection.getresponse()
    text = response.read().decode()
    connection.close()
    return response.status, response.getheader("Content-Type"), text


def run(language, source, files=None, **fields):
    """CodeRunner's submit: post the run; on 404 PUT every file and post it again."""
    spec = dict(language_id=language, sourcecode=source, **fields)
    if files:
        spec["file_list"] = [[hashlib.md5(content.encode()).hexdigest(), name] for name, content in files.items()]
    status, _, text = call("POST", "/runs", {"run_spec": spec})
    if status == 404 and files:
        for name, content in files.items():
            file_id = hashlib.md5(content.encode()).hexdigest()
            put = call("PUT", "/files/" + file_id, {"file_contents": base64.b64encode(content.encode()).decode()})
            assert put[0] == 204, put
        status, _, text = call("POST", "/runs", {"run_spec": spec})
    assert status == 200, (status, text)
    return json.loads(text)


class Languages(unittest.TestCase):
    def test_languages_are_pairs_with_jobes_ids(self):
        status, content_type, text = call("GET", "/languages")
        self.assertEqual(status, 200)
        self.assertEqual(content_type, "application/json; charset=UTF-8")
        pairs = json.loads(text)
        ids = [pair[0] for pair in pairs]
        for expected in ("c", "cpp", "java", "nodejs", "python3"):
            self.assertIn(expected, ids)
        self.assertNotIn("pascal", ids)
        self.assertTrue(all(len(pair) == 2 and pair[1] for pair in pairs))


class Runs(unittest.TestCase):
    def test_a_program_per_language_family_reads_stdin(self):
        programs = {
            "python3": "print(sum(int(x) for x in input().split()))\n",
            "c": "#include <stdio.h>\n#include <stdlib.h>\nint main(void) { int a, b; int *p = malloc(4);"
                 " scanf(\"%d %d\", &a, &b); printf(\"%d\\n\", a + b); free(p); return 0; }\n",
            "cpp": "#include <iostream>\nint main() { int a, b; std::cin >> a >> b; std::cout << a + b << std::endl; }\n",
            "java": "import java.util.Scanner;\npublic class Adder { public static void main(String[] args) {"
                    " Scanner s = new Scanner(System.in); System.out.println(s.nextInt() + s.nextInt()); } }\n",
            "nodejs": "const [a, b] = require('fs').readFileSync(0, 'utf8').split(' ').map(Number);"
                      " console.log(a + b);\n",
        }
        for language, source in programs.items():
            with self.subTest(language=language):
                result = run(language, source, input="2 40\n", parameters={"cputime": 10})
                self.assertEqual(list(result), ["run_id", "outcome", "cmpinfo", "stdout", "stderr"])
                self.assertEqual((result["outcome"], result["stdout"], result["stderr"]), (15, "42\n", ""), result)

    def test_the_stderr_rule_decides_the_outcome(self):
        quiet_failure = run("python3", "import sys\nprint('out')\nsys.exit(3)\n")
        self.assertEqual((quiet_failure["outcome"], quiet_failure["stdout"]), (15, "out\n"))
        noisy_success = run("python3", "import sys\nsys.stderr.write('note\\n')\n")
        self.assertEqual((noisy_success["outcome"], noisy_success["stderr"]), (12, "note\n"))
        raised = run("python3", "[][1]\n")
        self.assertEqual(raised["outcome"], 12)
        self.assertIn("IndexError", raised["stderr"])
        crashed = run("c", "int main(void) { int *p = 0; return *p; }\n")
        self.assertEqual(crashed["outcome"], 12, crashed)
        self.assertTrue(crashed["stderr"], crashed)

    def test_compile_errors_and_python_syntax_errors_are_eleven(self):
        for language, source in (("cpp", "int main() { return x; }\n"), ("python3", "print('x'\n"),
                                 ("java", "public class Bad { public static void main(String[] a) { int } }\n"),
                                 ("c", "int main(void) { return 0 }\n")):
            with self.subTest(language=language):
                result = run(language, source)
                self.assertEqual(result["outcome"], 11, result)
                self.assertTrue(result["cmpinfo"])
                self.assertEqual((result["stdout"], result["stderr"]), ("", ""))

    def test_a_time_limit_is_thirteen_with_stdout_kept(self):
        result = run("python3", "print('start', flush=True)\nwhile True: pass\n", parameters={"cputime": 1})
        self.assertEqual((result["outcome"], result["stdout"], result["stderr"]), (13, "start\n", ""))

    def test_runargs_are_split_as_a_shell_splits_them(self):
        result = run("python3", "import sys\nprint(sys.argv[1:])\n",
                     parameters={"runargs": ["a b", '"q u"', "'$HOME'"]})
        self.assertEqual(result["stdout"], "['a', 'b', 'q u', '$HOME']\n")

    def test_files_are_put_after_a_404_then_read_by_the_run(self):
        files = {"data.txt": "from a file %f\n" % time.time()}
        result = run("python3", "print(open('data.txt').read(), end='')\n", files=files)
        self.assertEqual((result["outcome"], result["stdout"]), (15, files["data.txt"]))
        file_id = hashlib.md5(files["data.txt"].encode()).hexdigest()
        self.assertEqual(call("HEAD", "/files/" + file_id)[0], 204)
        self.assertEqual(call("HEAD", "/files/ffffffffffffffffffffffffffffffff")[0], 404)

    def test_java_support_class_from_the_file_cache(self):
        thing = "public class Thing { public String say() { return \"thing\"; } }\n"
        main = "public class Blah { public static void main(String[] args) { System.out.println(new Thing().say()); } }\n"
        result = run("java", main, files={"Thing.java": thing}, parameters={"cputime": 10})
        self.assertEqual((result["outcome"], result["stdout"]), (15, "thing\n"), result)

    def test_output_that_is_not_utf8_is_escaped(self):
        result = run("c", '#include <stdio.h>\nint main(void) { printf("ok\\001\\300\\n"); return 0; }\n')
        self.assertEqual(result["stdout"], "ok\\x01\\xc0\n")


class Errors(unittest.TestCase):
    def test_jobes_error_strings_and_statuses(self):
        self.assertEqual(call("POST", "/runs", {"run_spec": {"language_id": "pascal", "sourcecode": ""}})[::2],
                         (400, '"Language \'pascal\' is not known"'))
        self.assertEqual(call("POST", "/runs", {"run_spec": {"language_id": "c"}})[::2],
                         (400, '"run_spec is missing the required attribute \'sourcecode\'"'))
        self.assertEqual(call("POST", "/runs", b"{")[0], 500)
        self.assertEqual(call("GET", "/runs")[::2], (404, '""'))
        overload = run("python3", "!** TESTING OVERLOAD EXCEPTION **!")
        self.assertEqual((overload["outcome"], overload["run_id"]), (21, "0"))

    def test_keys(self):
        self.assertEqual(call("POST", "/runs", {"run_spec": {"language_id": "c", "sourcecode": ""}}, key=None)[::2],
                         (403, "Missing API key"))
        self.assertEqual(call("GET", "/languages", key="wrong")[::2], (403, "Unknown API key"))


if __name__ == "__main__":
    unittest.main()
