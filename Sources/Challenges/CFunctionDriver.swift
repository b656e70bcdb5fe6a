import Grading

/// C: LeetCode's C signatures, which C learners know: `long long **mergeIntervals(long long **intervals,
/// int intervalsSize, int *intervalsColSize, int *returnSize, int **returnColumnSizes)` in
/// `solution.h`, which `driver.c` includes after declaring the function (so a signature that differs
/// is a compile error in the learner's file, and one compile gives one program). An int is
/// `long long` (the type is 64-bit), a string a `char *` (NUL-terminated UTF-8, so a string holding
/// U+0000 is cut there), an array a pointer and its `Size`, a 2-D array also its `ColSize` array; an
/// array result is returned with its size through `returnSize` (and `returnColumnSizes`). The
/// driver allocates the arguments and never frees what the function returns. The watchdog is
/// `setitimer`, as in C++: SIGPROF for the test's CPU budget, SIGALRM for its wall budget.
struct CFunctionDriver: FunctionDriver {
  let language = "c"
  let driverFileName = "driver.c"
  let solutionFileName = "solution.h"

  func functionName(_ signature: FunctionSignature) -> String { FunctionSignature.camelCase(signature.name) }

  func missingFunctionCompileError(_ signature: FunctionSignature) -> String? {
    "undefined reference to `\(functionName(signature))'"
  }

  /// A value's C type as its base and pointer depth (`char` and 1 for a string).
  private func base(_ type: FunctionType) -> (name: String, stars: Int) {
    switch type {
    case .int: return ("long long", 0)
    case .float: return ("double", 0)
    case .bool: return ("bool", 0)
    case .string: return ("char", 1)
    case .linkedList: return ("struct ListNode", 1)
    case .tree: return ("struct TreeNode", 1)
    case .graph: return ("int", 2)
    case .array(let element):
      let inner = base(element)
      return (inner.name, inner.stars + 1)
    }
  }

  private func declaration(_ type: FunctionType, _ name: String) -> String {
    let (name0, stars) = base(type)
    return name0 + " " + String(repeating: "*", count: stars) + name
  }

  /// How many `[]` a type has (a graph is an adjacency list: two).
  private func depth(_ type: FunctionType) -> Int {
    switch type {
    case .array(.array), .graph: return 2
    case .array: return 1
    default: return 0
    }
  }

  private func element(_ type: FunctionType) -> FunctionType {
    switch type {
    case .array(.array(let element)): return element
    case .array(let element): return element
    case .graph: return .int
    default: return type
    }
  }

  func parameterList(_ signature: FunctionSignature) -> String {
    var parts: [String] = []
    for parameter in signature.parameters {
      let name = FunctionSignature.camelCase(parameter.name)
      parts.append(declaration(parameter.type, name))
      if depth(parameter.type) >= 1 { parts.append("int \(name)Size") }
      if depth(parameter.type) == 2 { parts.append("int *\(name)ColSize") }
    }
    if depth(signature.returns) >= 1 { parts.append("int *returnSize") }
    if depth(signature.returns) == 2 { parts.append("int **returnColumnSizes") }
    return parts.isEmpty ? "void" : parts.joined(separator: ", ")
  }

  func prototype(_ signature: FunctionSignature) -> String {
    let (name, stars) = base(signature.returns)
    return name + " " + String(repeating: "*", count: stars) + functionName(signature) + "("
      + parameterList(signature) + ")"
  }

  func starter(_ signature: FunctionSignature) -> String {
    let types = signature.parameters.map(\.type) + [signature.returns]
    var preamble = "#include <stdbool.h>\n#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n\n"
    if types.contains(.linkedList) {
      preamble += """
        // struct ListNode is defined for you:
        // struct ListNode {
        //     long long val;
        //     struct ListNode *next;
        // };


        """
    }
    if types.contains(.tree) {
      preamble += """
        // struct TreeNode is defined for you:
        // struct TreeNode {
        //     long long val;
        //     struct TreeNode *left;
        //     struct TreeNode *right;
        // };


        """
    }
    let body: String
    switch signature.returns {
    case .int, .float: body = "    return 0;"
    case .bool: body = "    return false;"
    case .string: body = "    return \"\";"
    case .linkedList, .tree: body = "    return NULL;"
    case .array(.array):
      body = """
            // Return a malloc'ed array of rows; set *returnSize to the number of rows and
            // *returnColumnSizes to a malloc'ed array of each row's length.
            *returnSize = 0;
            *returnColumnSizes = NULL;
            return NULL;
        """
    case .array, .graph:
      body = """
            // Return a malloc'ed array and set *returnSize to its length.
            *returnSize = 0;
            return NULL;
        """
    }
    return preamble + """
      \(prototype(signature)) {
          // Write your solution here; printf goes to stderr, for debugging.
      \(body)
      }

      """
  }

  /// The driver's expression decoding one scalar JSON value of `type`.
  private func scalarDecoder(_ type: FunctionType) -> String {
    switch type {
    case .int: return "dsa_driver_int"
    case .float: return "dsa_driver_float"
    case .bool: return "dsa_driver_bool"
    case .string: return "dsa_driver_string"
    case .linkedList: return "dsa_driver_list"
    case .tree: return "dsa_driver_tree"
    default: return "dsa_driver_int"
    }
  }

  private func scalarEncoder(_ type: FunctionType) -> String {
    switch type {
    case .int: return "dsa_driver_put_int"
    case .float: return "dsa_driver_put_float"
    case .bool: return "dsa_driver_put_bool"
    case .string: return "dsa_driver_put_string"
    case .linkedList: return "dsa_driver_put_list"
    case .tree: return "dsa_driver_put_tree"
    default: return "dsa_driver_put_int"
    }
  }

  func driver(_ signature: FunctionSignature) -> String {
    var decode: [String] = []
    var arguments: [String] = []
    for (index, parameter) in signature.parameters.enumerated() {
      let name = "a\(index)"
      let json = "dsa_driver_item(args, \(index))"
      switch parameter.type {
      case .graph:
        decode.append(
          "int **\(name); int \(name)Size; int *\(name)ColSize; dsa_driver_graph(\(json), &\(name), &\(name)Size, &\(name)ColSize);"
        )
        arguments += [name, name + "Size", name + "ColSize"]
      case .array(.array(let element)):
        let (typeName, stars) = base(element)
        let cell = typeName + " " + String(repeating: "*", count: stars)
        decode.append(
          """
          const dsa_driver_json *\(name)Json = \(json);
                int \(name)Size = (int)\(name)Json->count;
                int *\(name)ColSize = dsa_driver_alloc(sizeof(int) * (size_t)\(name)Size);
                \(cell)**\(name) = dsa_driver_alloc(sizeof(\(cell)*) * (size_t)\(name)Size);
                for (int i = 0; i < \(name)Size; i++) {
                  const dsa_driver_json *row = &\(name)Json->items[i];
                  \(name)ColSize[i] = (int)row->count;
                  \(name)[i] = dsa_driver_alloc(sizeof(\(cell)) * row->count);
                  for (size_t j = 0; j < row->count; j++) \(name)[i][j] = \(scalarDecoder(element))(&row->items[j]);
                }
          """)
        arguments += [name, name + "Size", name + "ColSize"]
      case .array(let element):
        let (typeName, stars) = base(element)
        let cell = typeName + " " + String(repeating: "*", count: stars)
        decode.append(
          """
          const dsa_driver_json *\(name)Json = \(json);
                int \(name)Size = (int)\(name)Json->count;
                \(cell)*\(name) = dsa_driver_alloc(sizeof(\(cell)) * (size_t)\(name)Size);
                for (int i = 0; i < \(name)Size; i++) \(name)[i] = \(scalarDecoder(element))(&\(name)Json->items[i]);
          """)
        arguments += [name, name + "Size"]
      default:
        decode.append("\(declaration(parameter.type, name)) = \(scalarDecoder(parameter.type))(\(json));")
        arguments.append(name)
      }
    }
    let (returnBase, returnStars) = base(signature.returns)
    let resultType = returnBase + " " + String(repeating: "*", count: returnStars)
    var encode: String
    switch signature.returns {
    case .array(.array(let element)):
      arguments += ["&returnSize", "&returnColumnSizes"]
      encode = """
        if (returnSize < 0) dsa_driver_fail("a negative returnSize");
              else if (returnSize > 0 && (result == NULL || returnColumnSizes == NULL))
                dsa_driver_fail(result == NULL ? "NULL array with a returnSize above 0" : "NULL returnColumnSizes with a returnSize above 0");
              else {
                dsa_driver_put(&out, "[");
                for (int i = 0; i < returnSize && !dsa_driver_failed; i++) {
                  if (i) dsa_driver_put(&out, ",");
                  if (returnColumnSizes[i] < 0) { dsa_driver_fail("a negative column size"); break; }
                  if (returnColumnSizes[i] > 0 && result[i] == NULL) { dsa_driver_fail("NULL row with a column size above 0"); break; }
                  dsa_driver_put(&out, "[");
                  for (int j = 0; j < returnColumnSizes[i] && !dsa_driver_failed; j++) {
                    if (j) dsa_driver_put(&out, ",");
                    \(scalarEncoder(element))(&out, result[i][j]);
                  }
                  dsa_driver_put(&out, "]");
                }
                dsa_driver_put(&out, "]");
              }
        """
    case .array(let element):
      arguments.append("&returnSize")
      encode = """
        if (returnSize < 0) dsa_driver_fail("a negative returnSize");
              else if (returnSize > 0 && result == NULL) dsa_driver_fail("NULL array with a returnSize above 0");
              else {
                dsa_driver_put(&out, "[");
                for (int i = 0; i < returnSize && !dsa_driver_failed; i++) {
                  if (i) dsa_driver_put(&out, ",");
                  \(scalarEncoder(element))(&out, result[i]);
                }
                dsa_driver_put(&out, "]");
              }
        """
    default:
      encode = "\(scalarEncoder(signature.returns))(&out, result);"
    }
    let call = "\(functionName(signature))(\(arguments.joined(separator: ", ")))"
    return Self.runtime + #"""

      \#(prototype(signature));

      #include "solution.h"

      int main(void) {
        size_t length = 0;
        char *input = dsa_driver_read_all(&length);
        char *newline = memchr(input, '\n', length);
        if (newline == NULL) return 2;
        *newline = '\0';
        const char *nonce = input;
        const char *cursor = newline + 1;
        dsa_driver_json request;
        dsa_driver_parse(&cursor, &request);
        dsa_driver_report = dup(1);
        // The learner's prints go to stderr; the report has its own descriptor.
        fflush(stdout);
        dup2(2, 1);
        long long cpuBudget = dsa_driver_at(&request, "cpu_ms")->integer;
        long long wallBudget = dsa_driver_at(&request, "wall_ms")->integer;
        signal(SIGPROF, dsa_driver_on_limit);
        signal(SIGALRM, dsa_driver_on_limit);
        const dsa_driver_json *tests = dsa_driver_at(&request, "tests");
        for (size_t t = 0; t < tests->count; t++) {
          const dsa_driver_json *test = &tests->items[t];
          long long index = dsa_driver_at(test, "index")->integer;
          const dsa_driver_json *args = dsa_driver_at(test, "args");
          char line[256];
          snprintf(line, sizeof line, "\n@begin %s %lld\n", nonce, index);
          fflush(stdout);
          fflush(stderr);
          dsa_driver_write_all(2, line, strlen(line));
          dsa_driver_write_all(dsa_driver_report, line, strlen(line));
          snprintf(dsa_driver_limit_lines[0], sizeof dsa_driver_limit_lines[0], "\n@limit %s {\"test\":%lld,\"kind\":\"cpu\"}\n", nonce, index);
          snprintf(dsa_driver_limit_lines[1], sizeof dsa_driver_limit_lines[1], "\n@limit %s {\"test\":%lld,\"kind\":\"wall\"}\n", nonce, index);
          \#(decode.joined(separator: "\n      "))
          int returnSize = 0;
          int *returnColumnSizes = NULL;
          (void)returnSize;
          (void)returnColumnSizes;
          double cpuStart = dsa_driver_cpu_seconds(), wallStart = dsa_driver_wall_seconds();
          dsa_driver_arm(cpuBudget, wallBudget);
          \#(resultType)result = \#(call);
          dsa_driver_disarm();
          long long cpuMs = (long long)((dsa_driver_cpu_seconds() - cpuStart) * 1000);
          long long wallMs = (long long)((dsa_driver_wall_seconds() - wallStart) * 1000);
          fflush(stdout);
          dsa_driver_buffer out = {0};
          dsa_driver_failed = NULL;
          \#(encode)
          dsa_driver_buffer report = {0};
          snprintf(line, sizeof line, "\n@result %s {\"test\":%lld,\"cpu_ms\":%lld,\"wall_ms\":%lld,", nonce, index, cpuMs, wallMs);
          dsa_driver_put(&report, line);
          if (dsa_driver_failed != NULL) {
            dsa_driver_put(&report, "\"unencodable\":");
            dsa_driver_buffer why = {0};
            dsa_driver_put(&why, "a ");
            dsa_driver_put(&why, dsa_driver_failed);
            dsa_driver_quote(&report, why.data);
          } else {
            dsa_driver_put(&report, "\"value\":");
            dsa_driver_put(&report, out.data == NULL ? "null" : out.data);
          }
          dsa_driver_put(&report, "}\n");
          dsa_driver_write_all(dsa_driver_report, report.data, report.length);
        }
        fflush(stdout);
        char done[160];
        snprintf(done, sizeof done, "\n@done %s\n", nonce);
        dsa_driver_write_all(dsa_driver_report, done, strlen(done));
        return 0;
      }

      """#
  }

  /// The part of the driver that is the same for every challenge: a small JSON reader, the
  /// decoders and encoders of the types, the clocks and the watchdog.
  static let runtime = #"""
    // The dsa-run function driver (generated; not the learner's). docs/challenges.md tells the protocol.
    #define _GNU_SOURCE
    #include <errno.h>
    #include <math.h>
    #include <signal.h>
    #include <stdbool.h>
    #include <stdio.h>
    #include <stdlib.h>
    #include <string.h>
    #include <sys/time.h>
    #include <time.h>
    #include <unistd.h>

    struct ListNode {
      long long val;
      struct ListNode *next;
    };

    struct TreeNode {
      long long val;
      struct TreeNode *left;
      struct TreeNode *right;
    };

    typedef struct dsa_driver_json {
      enum { DSA_NULL, DSA_BOOL, DSA_INTEGER, DSA_NUMBER, DSA_STRING, DSA_ARRAY, DSA_OBJECT } kind;
      bool boolean;
      long long integer;
      double number;
      char *text;
      struct dsa_driver_json *items;
      char **keys;
      size_t count;
    } dsa_driver_json;

    static void *dsa_driver_alloc(size_t size) {
      void *memory = calloc(1, size == 0 ? 1 : size);
      if (memory == NULL) {
        fputs("the driver ran out of memory\n", stderr);
        _exit(4);
      }
      return memory;
    }

    static char *dsa_driver_read_all(size_t *length) {
      size_t capacity = 1 << 16;
      char *data = dsa_driver_alloc(capacity + 1);
      *length = 0;
      for (;;) {
        if (*length == capacity) {
          capacity *= 2;
          data = realloc(data, capacity + 1);
          if (data == NULL) _exit(4);
        }
        ssize_t got = read(0, data + *length, capacity - *length);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) break;
        *length += (size_t)got;
      }
      data[*length] = '\0';
      return data;
    }

    static void dsa_driver_space(const char **at) {
      while (**at == ' ' || **at == '\t' || **at == '\r' || **at == '\n') (*at)++;
    }

    static void dsa_driver_append_utf8(char *out, size_t *length, unsigned code) {
      if (code < 0x80) out[(*length)++] = (char)code;
      else if (code < 0x800) {
        out[(*length)++] = (char)(0xC0 | (code >> 6));
        out[(*length)++] = (char)(0x80 | (code & 0x3F));
      } else if (code < 0x10000) {
        out[(*length)++] = (char)(0xE0 | (code >> 12));
        out[(*length)++] = (char)(0x80 | ((code >> 6) & 0x3F));
        out[(*length)++] = (char)(0x80 | (code & 0x3F));
      } else {
        out[(*length)++] = (char)(0xF0 | (code >> 18));
        out[(*length)++] = (char)(0x80 | ((code >> 12) & 0x3F));
        out[(*length)++] = (char)(0x80 | ((code >> 6) & 0x3F));
        out[(*length)++] = (char)(0x80 | (code & 0x3F));
      }
    }

    static unsigned dsa_driver_hex4(const char *at) {
      char digits[5] = {at[0], at[1], at[2], at[3], 0};
      return (unsigned)strtoul(digits, NULL, 16);
    }

    // The grader's own JSON, trusted: no error recovery beyond stopping.
    static void dsa_driver_parse(const char **at, dsa_driver_json *out) {
      memset(out, 0, sizeof *out);
      dsa_driver_space(at);
      char c = **at;
      if (c == '{' || c == '[') {
        bool object = c == '{';
        out->kind = object ? DSA_OBJECT : DSA_ARRAY;
        (*at)++;
        size_t capacity = 0;
        dsa_driver_space(at);
        if (**at == (object ? '}' : ']')) {
          (*at)++;
          return;
        }
        for (;;) {
          if (out->count == capacity) {
            capacity = capacity ? capacity * 2 : 8;
            out->items = realloc(out->items, capacity * sizeof *out->items);
            if (object) out->keys = realloc(out->keys, capacity * sizeof *out->keys);
            if (out->items == NULL || (object && out->keys == NULL)) _exit(4);
          }
          if (object) {
            dsa_driver_json key;
            dsa_driver_parse(at, &key);
            out->keys[out->count] = key.text;
            dsa_driver_space(at);
            (*at)++;  // ':'
          }
          dsa_driver_parse(at, &out->items[out->count++]);
          dsa_driver_space(at);
          char next = *(*at)++;
          if (next != ',') return;
        }
      }
      if (c == '"') {
        out->kind = DSA_STRING;
        (*at)++;
        const char *start = *at;
        size_t room = 0;
        while (start[room] != '"' && start[room] != '\0') room += start[room] == '\\' ? 2 : 1;
        out->text = dsa_driver_alloc(room + 1);
        size_t length = 0;
        while (**at != '"' && **at != '\0') {
          if (**at != '\\') {
            out->text[length++] = *(*at)++;
            continue;
          }
          (*at)++;
          char escape = *(*at)++;
          switch (escape) {
            case 'n': out->text[length++] = '\n'; break;
            case 't': out->text[length++] = '\t'; break;
            case 'r': out->text[length++] = '\r'; break;
            case 'b': out->text[length++] = '\b'; break;
            case 'f': out->text[length++] = '\f'; break;
            case 'u': {
              unsigned code = dsa_driver_hex4(*at);
              *at += 4;
              if (code >= 0xD800 && code < 0xDC00 && (*at)[0] == '\\' && (*at)[1] == 'u') {
                unsigned low = dsa_driver_hex4(*at + 2);
                *at += 6;
                code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
              }
              dsa_driver_append_utf8(out->text, &length, code);
              break;
            }
            default: out->text[length++] = escape;
          }
        }
        out->text[length] = '\0';
        out->count = length;
        (*at)++;
        return;
      }
      if (strncmp(*at, "true", 4) == 0) {
        *at += 4;
        out->kind = DSA_BOOL;
        out->boolean = true;
        return;
      }
      if (strncmp(*at, "false", 5) == 0) {
        *at += 5;
        out->kind = DSA_BOOL;
        return;
      }
      if (strncmp(*at, "null", 4) == 0) {
        *at += 4;
        return;
      }
      const char *start = *at;
      bool whole = true;
      while (**at != '\0' && strchr("+-0123456789.eE", **at) != NULL) {
        if (**at == '.' || **at == 'e' || **at == 'E') whole = false;
        (*at)++;
      }
      out->number = strtod(start, NULL);
      if (whole) {
        out->kind = DSA_INTEGER;
        out->integer = strtoll(start, NULL, 10);
      } else {
        out->kind = DSA_NUMBER;
      }
    }

    static const dsa_driver_json *dsa_driver_at(const dsa_driver_json *object, const char *key) {
      for (size_t i = 0; i < object->count; i++) {
        if (strcmp(object->keys[i], key) == 0) return &object->items[i];
      }
      fprintf(stderr, "the driver's input has no %s\n", key);
      _exit(4);
    }

    static const dsa_driver_json *dsa_driver_item(const dsa_driver_json *array, size_t index) { return &array->items[index]; }

    static long long dsa_driver_int(const dsa_driver_json *json) {
      return json->kind == DSA_INTEGER ? json->integer : (long long)json->number;
    }
    static double dsa_driver_float(const dsa_driver_json *json) {
      return json->kind == DSA_INTEGER ? (double)json->integer : json->number;
    }
    static bool dsa_driver_bool(const dsa_driver_json *json) { return json->boolean; }
    static char *dsa_driver_string(const dsa_driver_json *json) {
      char *copy = dsa_driver_alloc(json->count + 1);
      memcpy(copy, json->text, json->count);
      return copy;
    }

    static struct ListNode *dsa_driver_list(const dsa_driver_json *json) {
      struct ListNode *head = NULL;
      for (size_t i = json->count; i-- > 0;) {
        struct ListNode *node = dsa_driver_alloc(sizeof *node);
        node->val = dsa_driver_int(&json->items[i]);
        node->next = head;
        head = node;
      }
      return head;
    }

    static struct TreeNode *dsa_driver_tree(const dsa_driver_json *json) {
      if (json->count == 0 || json->items[0].kind == DSA_NULL) return NULL;
      struct TreeNode **queue = dsa_driver_alloc(sizeof *queue * json->count);
      size_t head = 0, tail = 0, index = 1;
      struct TreeNode *root = dsa_driver_alloc(sizeof *root);
      root->val = dsa_driver_int(&json->items[0]);
      queue[tail++] = root;
      while (head < tail && index < json->count) {
        struct TreeNode *node = queue[head++];
        for (int side = 0; side < 2; side++, index++) {
          if (index >= json->count || json->items[index].kind == DSA_NULL) continue;
          struct TreeNode *child = dsa_driver_alloc(sizeof *child);
          child->val = dsa_driver_int(&json->items[index]);
          if (side == 0) node->left = child;
          else node->right = child;
          queue[tail++] = child;
        }
      }
      free(queue);
      return root;
    }

    static void dsa_driver_graph(const dsa_driver_json *json, int ***adjacency, int *size, int **columnSizes) {
      int n = (int)dsa_driver_at(json, "n")->integer;
      bool directed = dsa_driver_at(json, "directed")->boolean;
      const dsa_driver_json *edges = dsa_driver_at(json, "edges");
      *size = n;
      *columnSizes = dsa_driver_alloc(sizeof(int) * (size_t)n);
      *adjacency = dsa_driver_alloc(sizeof(int *) * (size_t)n);
      for (size_t i = 0; i < edges->count; i++) {
        int u = (int)edges->items[i].items[0].integer, v = (int)edges->items[i].items[1].integer;
        (*columnSizes)[u]++;
        if (!directed && u != v) (*columnSizes)[v]++;
      }
      for (int u = 0; u < n; u++) {
        (*adjacency)[u] = dsa_driver_alloc(sizeof(int) * (size_t)(*columnSizes)[u]);
        (*columnSizes)[u] = 0;
      }
      for (size_t i = 0; i < edges->count; i++) {
        int u = (int)edges->items[i].items[0].integer, v = (int)edges->items[i].items[1].integer;
        (*adjacency)[u][(*columnSizes)[u]++] = v;
        if (!directed && u != v) (*adjacency)[v][(*columnSizes)[v]++] = u;
      }
    }

    typedef struct {
      char *data;
      size_t length, capacity;
    } dsa_driver_buffer;

    static const char *dsa_driver_failed;

    static void dsa_driver_fail(const char *why) {
      if (dsa_driver_failed == NULL) dsa_driver_failed = why;
    }

    static void dsa_driver_put_bytes(dsa_driver_buffer *buffer, const char *bytes, size_t count) {
      if (buffer->length + count + 1 > buffer->capacity) {
        size_t capacity = buffer->capacity ? buffer->capacity : 256;
        while (buffer->length + count + 1 > capacity) capacity *= 2;
        buffer->data = realloc(buffer->data, capacity);
        if (buffer->data == NULL) _exit(4);
        buffer->capacity = capacity;
      }
      memcpy(buffer->data + buffer->length, bytes, count);
      buffer->length += count;
      buffer->data[buffer->length] = '\0';
    }

    static void dsa_driver_put(dsa_driver_buffer *buffer, const char *text) { dsa_driver_put_bytes(buffer, text, strlen(text)); }

    static void dsa_driver_quote(dsa_driver_buffer *buffer, const char *text) {
      dsa_driver_put(buffer, "\"");
      for (const unsigned char *c = (const unsigned char *)text; *c; c++) {
        if (*c == '"') dsa_driver_put(buffer, "\\\"");
        else if (*c == '\\') dsa_driver_put(buffer, "\\\\");
        else if (*c == '\n') dsa_driver_put(buffer, "\\n");
        else if (*c < 0x20) {
          char escaped[8];
          snprintf(escaped, sizeof escaped, "\\u%04x", *c);
          dsa_driver_put(buffer, escaped);
        } else {
          dsa_driver_put_bytes(buffer, (const char *)c, 1);
        }
      }
      dsa_driver_put(buffer, "\"");
    }

    static void dsa_driver_put_int(dsa_driver_buffer *buffer, long long value) {
      char text[32];
      snprintf(text, sizeof text, "%lld", value);
      dsa_driver_put(buffer, text);
    }

    static void dsa_driver_put_float(dsa_driver_buffer *buffer, double value) {
      if (isnan(value)) {
        dsa_driver_put(buffer, "\"NaN\"");
        return;
      }
      if (isinf(value)) {
        dsa_driver_put(buffer, value > 0 ? "\"Infinity\"" : "\"-Infinity\"");
        return;
      }
      char text[40];
      snprintf(text, sizeof text, "%.17g", value);
      dsa_driver_put(buffer, text);
    }

    static void dsa_driver_put_bool(dsa_driver_buffer *buffer, bool value) { dsa_driver_put(buffer, value ? "true" : "false"); }

    static void dsa_driver_put_string(dsa_driver_buffer *buffer, const char *value) {
      if (value == NULL) {
        dsa_driver_fail("NULL string");
        return;
      }
      dsa_driver_quote(buffer, value);
    }

    static void dsa_driver_put_list(dsa_driver_buffer *buffer, const struct ListNode *head) {
      dsa_driver_put(buffer, "[");
      for (size_t count = 0; head != NULL; head = head->next, count++) {
        if (count >= 1000000) {
          dsa_driver_fail("linked list of more than a million nodes (a cycle?)");
          return;
        }
        if (count) dsa_driver_put(buffer, ",");
        dsa_driver_put_int(buffer, head->val);
      }
      dsa_driver_put(buffer, "]");
    }

    static void dsa_driver_put_tree(dsa_driver_buffer *buffer, const struct TreeNode *root) {
      size_t capacity = 64, tail = 0, last = 0;
      const struct TreeNode **queue = dsa_driver_alloc(sizeof *queue * capacity);
      queue[tail++] = root;
      // The level-order form without the trailing nulls: `last` is one past the last node.
      for (size_t head = 0; head < tail; head++) {
        if (tail >= 2000000) {
          dsa_driver_fail("tree of more than a million nodes (a cycle?)");
          free(queue);
          return;
        }
        const struct TreeNode *node = queue[head];
        if (node == NULL) continue;
        last = head + 1;
        if (tail + 2 > capacity) {
          capacity *= 2;
          queue = realloc(queue, sizeof *queue * capacity);
          if (queue == NULL) _exit(4);
        }
        queue[tail++] = node->left;
        queue[tail++] = node->right;
      }
      dsa_driver_put(buffer, "[");
      for (size_t i = 0; i < last; i++) {
        if (i) dsa_driver_put(buffer, ",");
        if (queue[i] == NULL) dsa_driver_put(buffer, "null");
        else dsa_driver_put_int(buffer, queue[i]->val);
      }
      dsa_driver_put(buffer, "]");
      free(queue);
    }

    static int dsa_driver_report = 1;
    static char dsa_driver_limit_lines[2][256];

    static void dsa_driver_write_all(int fd, const char *data, size_t length) {
      size_t done = 0;
      while (done < length) {
        ssize_t written = write(fd, data + done, length - done);
        if (written < 0) {
          if (errno == EINTR) continue;
          return;
        }
        done += (size_t)written;
      }
    }

    static void dsa_driver_on_limit(int number) {
      const char *line = dsa_driver_limit_lines[number == SIGPROF ? 0 : 1];
      ssize_t ignored = write(dsa_driver_report, line, strlen(line));
      (void)ignored;
      _exit(3);
    }

    static void dsa_driver_arm(long long cpuMs, long long wallMs) {
      struct itimerval cpu = {0}, wall = {0};
      cpu.it_value.tv_sec = cpuMs / 1000;
      cpu.it_value.tv_usec = (cpuMs % 1000) * 1000;
      wall.it_value.tv_sec = wallMs / 1000;
      wall.it_value.tv_usec = (wallMs % 1000) * 1000;
      setitimer(ITIMER_PROF, &cpu, NULL);
      setitimer(ITIMER_REAL, &wall, NULL);
    }

    static void dsa_driver_disarm(void) {
      struct itimerval off = {0};
      setitimer(ITIMER_PROF, &off, NULL);
      setitimer(ITIMER_REAL, &off, NULL);
    }

    static double dsa_driver_cpu_seconds(void) {
      struct timespec now;
      clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
      return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
    }

    static double dsa_driver_wall_seconds(void) {
      struct timespec now;
      clock_gettime(CLOCK_MONOTONIC, &now);
      return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
    }

    """#
}
