"""dsa-run's function driver for Python (not the learner's): the box's `driver.py`, generated per
challenge, imports it and calls `main` with the function's name and its parameters' decoders.
docs/challenges.md ("Function challenges") tells the protocol. It lives beside the step recorder,
compiled once at install, because compiling it at every grade cost 1.5 ms of a 7 ms start.
"""

# Only modules Python has loaded at start or that are built in: json, signal, os and collections
# would cost more than the start itself (about 15 ms of a 7 ms start), on every grade.
import _json, _signal, posix, sys, time

LIMIT = 1000000


class ListNode:
    def __init__(self, val=0, next=None):
        self.val = val
        self.next = next


class TreeNode:
    def __init__(self, val=0, left=None, right=None):
        self.val = val
        self.left = left
        self.right = right


class _JSONContext:
    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = int
    memo = {}

    def parse_constant(name):
        raise ValueError("not JSON: " + name)


_scan_json = _json.make_scanner(_JSONContext)


def _plain(value):
    return value


def _to_list(values):
    head = None
    for value in reversed(values):
        head = ListNode(value, head)
    return head


def _to_tree(values):
    if not values or values[0] is None:
        return None
    root = TreeNode(values[0])
    queue = [root]
    head = 0
    index = 1
    while head < len(queue) and index < len(values):
        node = queue[head]
        head += 1
        if index < len(values) and values[index] is not None:
            node.left = TreeNode(values[index])
            queue.append(node.left)
        index += 1
        if index < len(values) and values[index] is not None:
            node.right = TreeNode(values[index])
            queue.append(node.right)
        index += 1
    return root


def _to_graph(graph):
    adjacency = [[] for _ in range(graph["n"])]
    for u, v in graph["edges"]:
        adjacency[u].append(v)
        if not graph["directed"] and u != v:
            adjacency[v].append(u)
    return adjacency


def _from_list(head):
    values = []
    while head is not None:
        if len(values) >= LIMIT:
            raise TypeError("linked list of more than a million nodes (a cycle?)")
        values.append(head.val)
        head = head.next
    return values


def _from_tree(root):
    values = []
    queue = [root]
    head = 0
    while head < len(queue):
        node = queue[head]
        head += 1
        if len(values) >= 2 * LIMIT:
            raise TypeError("tree of more than a million nodes (a cycle?)")
        if node is None:
            values.append(None)
            continue
        values.append(node.val)
        queue.append(node.left)
        queue.append(node.right)
    while values and values[-1] is None:
        values.pop()
    return values


def _write_all(fd, data):
    while data:
        data = data[posix.write(fd, data):]


def _encode(value):
    if value is None:
        return "null"
    if value is True or value is False:
        return "true" if value else "false"
    if isinstance(value, int):
        return str(int(value))
    if isinstance(value, float):
        if value != value:
            return '"NaN"'
        if value in (float("inf"), float("-inf")):
            return '"Infinity"' if value > 0 else '"-Infinity"'
        return repr(float(value))
    if isinstance(value, str):
        return _json.encode_basestring(value)
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(_encode(item) for item in value) + "]"
    raise TypeError(type(value).__name__)


# What `main` may be asked to decode arguments with and encode results with, by name.
_CODECS = {"_plain": _plain, "_to_list": _to_list, "_to_tree": _to_tree, "_to_graph": _to_graph,
           "_from_list": _from_list, "_from_tree": _from_tree}


def _fields(fields):
    return "{" + ",".join(_json.encode_basestring(key) + ":" + _encode(value) for key, value in fields.items()) + "}"


def main(driver_file, function_name, decoder_names, result_name):
    """Runs the tests the grader sends on stdin against `function_name` of the `solution.py` beside
    `driver_file`, decoding each test's arguments with `decoder_names` and encoding each result with
    `result_name` (names in `_CODECS`)."""
    decoders = [_CODECS[name] for name in decoder_names]
    result_encoder = _CODECS[result_name]
    nonce = sys.stdin.readline().strip()
    request = _scan_json(sys.stdin.read().strip(), 0)[0]
    report = posix.dup(1)
    # The learner's prints, Python's and C's alike, go to stderr; the report has its own descriptor.
    posix.dup2(2, 1)

    def emit(line):
        _write_all(report, ("\n" + line + "\n").encode("utf-8"))

    current = [-1]

    def watchdog(kind):
        def handler(signum, frame):
            emit("@limit " + nonce + " " + _fields({"test": current[0], "kind": kind}))
            posix._exit(3)
        return handler

    _signal.signal(_signal.SIGPROF, watchdog("cpu"))
    _signal.signal(_signal.SIGALRM, watchdog("wall"))
    driver_path = driver_file if driver_file.startswith("/") else posix.getcwd() + "/" + driver_file
    here = driver_path.rpartition("/")[0] or "/"
    path = here.rstrip("/") + "/solution.py"
    solution = type(sys)("solution")
    solution.__file__ = path
    # The classes the starter's annotations name, as on LeetCode.
    solution.ListNode = ListNode
    solution.TreeNode = TreeNode
    sys.modules["solution"] = solution
    try:
        with open(path, "rb") as file:
            source = file.read()
        exec(compile(source, path, "exec"), solution.__dict__)
    except SystemExit:
        raise
    except BaseException as error:
        import traceback

        # The learner's frames only, as an import of their file would show them.
        sys.stderr.write("".join(traceback.format_exception(type(error), error, error.__traceback__.tb_next)))
        sys.stderr.flush()
        posix._exit(1)
    function = getattr(solution, function_name, None)
    if not callable(function):
        emit("@missing " + nonce)
        return
    cpu_budget = request["cpu_ms"] / 1000.0
    wall_budget = request["wall_ms"] / 1000.0
    # A test's result waits to go out with the next test's begin, one write for both: every write
    # wakes the host's reader, and a third of the writes cost a tenth of a small grade.
    result = ""
    for test in request["tests"]:
        index = test["index"]
        current[0] = index
        begin = "\n@begin " + nonce + " " + str(index) + "\n"
        _write_all(report, (result + begin).encode("utf-8"))
        result = ""
        sys.stdout.flush()
        sys.stderr.flush()
        _write_all(2, begin.encode())
        arguments = [decode(argument) for decode, argument in zip(decoders, test["args"])]
        cpu_start = time.process_time()
        wall_start = time.monotonic()
        _signal.setitimer(_signal.ITIMER_PROF, cpu_budget)
        _signal.setitimer(_signal.ITIMER_REAL, wall_budget)
        raised = None
        try:
            value = function(*arguments)
        except BaseException as error:
            raised = error
        finally:
            _signal.setitimer(_signal.ITIMER_PROF, 0)
            _signal.setitimer(_signal.ITIMER_REAL, 0)
        fields = {
            "test": index,
            "cpu_ms": int((time.process_time() - cpu_start) * 1000),
            "wall_ms": int((time.monotonic() - wall_start) * 1000),
        }
        sys.stdout.flush()
        if raised is not None:
            import traceback

            # The learner's frames only: the driver's own line is not theirs to read.
            frames = traceback.format_exception(type(raised), raised, raised.__traceback__.tb_next)
            sys.stderr.write("".join(frames))
            sys.stderr.flush()
            fields["raised"] = "".join(traceback.format_exception_only(type(raised), raised)).strip()
            result = "\n@result " + nonce + " " + _fields(fields) + "\n"
            continue
        try:
            encoded = _encode(result_encoder(value))
        except RecursionError:
            fields["unencodable"] = "a value nested too deeply"
            result = "\n@result " + nonce + " " + _fields(fields) + "\n"
            continue
        except (TypeError, AttributeError) as error:
            fields["unencodable"] = "a " + (str(error) if isinstance(error, TypeError) else type(value).__name__)
            result = "\n@result " + nonce + " " + _fields(fields) + "\n"
            continue
        result = ("\n@result " + nonce + ' {"test":' + str(index) + ',"cpu_ms":' + str(fields["cpu_ms"])
                  + ',"wall_ms":' + str(fields["wall_ms"]) + ',"value":' + encoded + "}\n")
    sys.stdout.flush()
    sys.stderr.flush()
    _write_all(report, (result + "\n@done " + nonce + "\n").encode("utf-8"))
