import Grading

/// JavaScript: `function mergeIntervals(intervals) { ... }` in `solution.js` (a plain function
/// declaration, as on LeetCode; `module.exports` works too), loaded by `driver.js`. An int is a
/// Number, or a BigInt when it is beyond 2^53 (a Number could not hold it). Each call runs under
/// `vm`'s timeout, which ends a call still running at the test's wall budget; the CPU budget is
/// checked by the grader from the CPU time the driver measured, and a loop that never returns is
/// ended by the wall budget (or the box's own limits).
struct JavaScriptFunctionDriver: FunctionDriver {
  let language = "javascript"
  let driverFileName = "driver.js"
  let solutionFileName = "solution.js"

  func functionName(_ signature: FunctionSignature) -> String { FunctionSignature.camelCase(signature.name) }

  func typeName(_ type: FunctionType) -> String {
    switch type {
    case .int, .float: return "number"
    case .bool: return "boolean"
    case .string: return "string"
    case .array(let element): return typeName(element) + "[]"
    case .linkedList: return "ListNode|null"
    case .tree: return "TreeNode|null"
    case .graph: return "number[][]"
    }
  }

  /// The driver's function that turns a test's JSON argument into this type's value.
  func decoder(_ type: FunctionType) -> String {
    switch type {
    case .linkedList: return "toList"
    case .tree: return "toTree"
    case .graph: return "toGraph"
    default: return "plain"
    }
  }

  func placeholder(_ type: FunctionType) -> String {
    switch type {
    case .int, .float: return "0"
    case .bool: return "false"
    case .string: return "''"
    case .array: return "[]"
    case .linkedList, .tree, .graph: return "null"
    }
  }

  func starter(_ signature: FunctionSignature) -> String {
    let name = functionName(signature)
    let types = signature.parameters.map(\.type) + [signature.returns]
    var lines: [String] = []
    if types.contains(.linkedList) {
      lines += [
        "// ListNode is defined for you:", "// class ListNode {",
        "//   constructor(val = 0, next = null) { this.val = val; this.next = next; }", "// }", "",
      ]
    }
    if types.contains(.tree) {
      lines += [
        "// TreeNode is defined for you:", "// class TreeNode {",
        "//   constructor(val = 0, left = null, right = null) { this.val = val; this.left = left; this.right = right; }",
        "// }", "",
      ]
    }
    lines.append("/**")
    for parameter in signature.parameters {
      lines.append(" * @param {\(typeName(parameter.type))} \(FunctionSignature.camelCase(parameter.name))")
    }
    lines.append(" * @return {\(typeName(signature.returns))}")
    lines.append(" */")
    let parameters = signature.parameters.map { FunctionSignature.camelCase($0.name) }.joined(separator: ", ")
    lines.append("function \(name)(\(parameters)) {")
    lines.append("  // Write your solution here: return the result; console.log goes to stderr, for debugging.")
    lines.append("  return \(placeholder(signature.returns));")
    lines.append("}")
    return lines.joined(separator: "\n") + "\n"
  }

  func driver(_ signature: FunctionSignature) -> String {
    """
    'use strict';
    // The dsa-run function driver (generated; not the learner's). docs/challenges.md tells the protocol.
    const fs = require('fs');
    const path = require('path');
    const vm = require('vm');

    const FUNCTION = \(JSONQuoted.string(functionName(signature)));
    const LIMIT = 1000000;

    class ListNode {
      constructor(val = 0, next = null) { this.val = val; this.next = next; }
    }
    class TreeNode {
      constructor(val = 0, left = null, right = null) { this.val = val; this.left = left; this.right = right; }
    }
    globalThis.ListNode = ListNode;
    globalThis.TreeNode = TreeNode;

    const plain = (value) => value;
    function toList(values) {
      let head = null;
      for (let i = values.length - 1; i >= 0; i--) head = new ListNode(values[i], head);
      return head;
    }
    function toTree(values) {
      if (values.length === 0 || values[0] === null) return null;
      const root = new TreeNode(values[0]);
      const queue = [root];
      let head = 0;
      let index = 1;
      while (head < queue.length && index < values.length) {
        const node = queue[head++];
        if (index < values.length && values[index] !== null) { node.left = new TreeNode(values[index]); queue.push(node.left); }
        index++;
        if (index < values.length && values[index] !== null) { node.right = new TreeNode(values[index]); queue.push(node.right); }
        index++;
      }
      return root;
    }
    function toGraph(graph) {
      const adjacency = Array.from({ length: Number(graph.n) }, () => []);
      for (const [u, v] of graph.edges) {
        adjacency[u].push(v);
        if (!graph.directed && u !== v) adjacency[v].push(u);
      }
      return adjacency;
    }
    function fromList(head) {
      if (head !== null && !(head instanceof Object && 'val' in head)) throw new TypeError('dsa-unencodable:' + typeof head);
      const values = [];
      for (; head !== null && head !== undefined; head = head.next) {
        if (values.length >= LIMIT) throw new TypeError('dsa-unencodable:linked list of more than a million nodes (a cycle?)');
        values.push(head.val);
      }
      return values;
    }
    function fromTree(root) {
      if (root !== null && !(root instanceof Object && 'val' in root)) throw new TypeError('dsa-unencodable:' + typeof root);
      const values = [];
      const queue = [root];
      for (let head = 0; head < queue.length; head++) {
        const node = queue[head];
        if (values.length >= 2 * LIMIT) throw new TypeError('dsa-unencodable:tree of more than a million nodes (a cycle?)');
        if (node === null || node === undefined) { values.push(null); continue; }
        values.push(node.val);
        queue.push(node.left === undefined ? null : node.left, node.right === undefined ? null : node.right);
      }
      while (values.length > 0 && values[values.length - 1] === null) values.pop();
      return values;
    }
    const DECODERS = [\(signature.parameters.map { decoder($0.type) }.joined(separator: ", "))];
    const RESULT = \(["linked_list": "fromList", "tree": "fromTree"][signature.returns.description] ?? "plain");

    function readStdin() {
      const chunks = [];
      const buffer = Buffer.alloc(1 << 16);
      for (;;) {
        let count;
        try {
          count = fs.readSync(0, buffer, 0, buffer.length, null);
        } catch (error) {
          if (error.code === 'EAGAIN') continue;
          if (error.code === 'EOF') break;
          throw error;
        }
        if (count === 0) break;
        chunks.push(Buffer.from(buffer.subarray(0, count)));
      }
      return Buffer.concat(chunks).toString('utf8');
    }

    // Whole, however full the pipe: a descriptor left non-blocking answers EAGAIN rather than wait.
    function writeAll(fd, text) {
      const data = Buffer.from(text, 'utf8');
      for (let done = 0; done < data.length;) {
        try {
          done += fs.writeSync(fd, data, done);
        } catch (error) {
          if (error.code !== 'EAGAIN') throw error;
        }
      }
    }

    function encode(value) {
      if (value === null) return 'null';
      switch (typeof value) {
        case 'bigint': return value.toString();
        case 'boolean': return value ? 'true' : 'false';
        case 'string': return JSON.stringify(value);
        case 'number':
          if (Number.isNaN(value)) return '"NaN"';
          if (!Number.isFinite(value)) return value > 0 ? '"Infinity"' : '"-Infinity"';
          // A whole Number beyond 2^53 is written exactly, not as JSON.stringify rounds its digits.
          if (Number.isInteger(value) && Math.abs(value) >= 1e15) return BigInt(value).toString();
          return JSON.stringify(value);
      }
      if (Array.isArray(value)) return '[' + value.map(encode).join(',') + ']';
      if (ArrayBuffer.isView(value) && !(value instanceof DataView)) return '[' + Array.from(value, encode).join(',') + ']';
      const kind = value === null ? 'null' : value === undefined ? 'undefined'
        : (value.constructor && value.constructor.name) || typeof value;
      throw new TypeError('dsa-unencodable:' + kind);
    }

    function main() {
      const input = readStdin();
      const newline = input.indexOf('\\n');
      const nonce = input.slice(0, newline).trim();
      // Whole numbers a Number cannot hold exactly arrive as BigInts.
      const request = JSON.parse(input.slice(newline + 1), (key, value, context) =>
        typeof value === 'number' && !Number.isSafeInteger(value) && context && /^-?[0-9]+$/.test(context.source)
          ? BigInt(context.source) : value);
      const emit = (line) => writeAll(1, '\\n' + line + '\\n');
      // The learner's prints go to stderr; the report is written to stdout by the driver alone.
      const toStderr = process.stderr.write.bind(process.stderr);
      process.stdout.write = toStderr;

      const file = path.join(__dirname, 'solution.js');
      const source = fs.readFileSync(file, 'utf8');
      const module = { exports: {} };
      const load = vm.compileFunction(
        source + '\\n;return typeof ' + FUNCTION + " === 'function' ? " + FUNCTION + ' : undefined;',
        ['require', 'module', 'exports', '__filename', '__dirname'], { filename: file });
      let fn = load(require, module, module.exports, file, __dirname);
      if (typeof fn !== 'function') fn = module.exports && module.exports[FUNCTION];
      if (typeof fn !== 'function' && typeof module.exports === 'function') fn = module.exports;
      if (typeof fn !== 'function') {
        emit('@missing ' + nonce);
        return;
      }
      const call = new vm.Script('__dsaCall()', { filename: 'dsa-driver' });
      for (const test of request.tests) {
        const index = test.index;
        writeAll(2, '\\n@begin ' + nonce + ' ' + index + '\\n');
        emit('@begin ' + nonce + ' ' + index);
        const args = test.args.map((argument, position) => DECODERS[position](argument));
        globalThis.__dsaCall = () => fn(...args);
        const cpuStart = process.cpuUsage();
        const wallStart = performance.now();
        let value;
        let raised = null;
        let timedOut = false;
        try {
          value = call.runInThisContext({ timeout: request.wall_ms });
        } catch (error) {
          if (error && error.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') timedOut = true;
          else raised = error;
        }
        const cpu = process.cpuUsage(cpuStart);
        const fields = {
          test: index,
          cpu_ms: Math.floor((cpu.user + cpu.system) / 1000),
          wall_ms: Math.floor(performance.now() - wallStart),
        };
        if (timedOut) {
          const kind = fields.cpu_ms >= request.cpu_ms ? 'cpu' : 'wall';
          emit('@limit ' + nonce + ' ' + JSON.stringify({ test: index, kind }));
          process.exit(3);
        }
        if (raised === null && value && typeof value.then === 'function') {
          raised = new TypeError('the function returned a Promise; return the value itself');
        }
        if (raised !== null) {
          writeAll(2, String(raised && raised.stack ? raised.stack : raised) + '\\n');
          fields.raised = raised instanceof Error ? raised.name + ': ' + raised.message : 'threw ' + String(raised);
          emit('@result ' + nonce + ' ' + JSON.stringify(fields));
          continue;
        }
        let encoded;
        try {
          encoded = encode(RESULT(value));
        } catch (error) {
          const message = String(error && error.message);
          fields.unencodable = message.startsWith('dsa-unencodable:') ? 'a ' + message.slice(16)
            : 'a value nested too deeply';
          emit('@result ' + nonce + ' ' + JSON.stringify(fields));
          continue;
        }
        emit('@result ' + nonce + ' {"test":' + index + ',"cpu_ms":' + fields.cpu_ms + ',"wall_ms":' + fields.wall_ms
          + ',"value":' + encoded + '}');
      }
      emit('@done ' + nonce);
    }

    main();

    """
  }
}
