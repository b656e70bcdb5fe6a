import Grading

/// C++: `std::vector<std::vector<long long>> mergeIntervals(std::vector<std::vector<long long>> intervals)`
/// in `solution.hpp`, which `driver.cpp` includes (so the learner's parameters may be values or
/// const references, and one compile gives one program). The watchdog is `setitimer`: SIGPROF for
/// the test's CPU budget, SIGALRM for its wall budget; the handler writes the prepared `@limit` line
/// with write(2) and `_exit`s. The learner's static initialisers run before `main`, so before the
/// driver has read its nonce (docs/security.md says what that allows).
struct CppFunctionDriver: FunctionDriver {
  let language = "cpp"
  let driverFileName = "driver.cpp"
  let solutionFileName = "solution.hpp"

  func functionName(_ signature: FunctionSignature) -> String { FunctionSignature.camelCase(signature.name) }

  func typeName(_ type: FunctionType) -> String {
    switch type {
    case .int: return "long long"
    case .float: return "double"
    case .bool: return "bool"
    case .string: return "string"
    case .array(let element): return "vector<\(typeName(element))>"
    case .linkedList: return "ListNode*"
    case .tree: return "TreeNode*"
    case .graph: return "vector<vector<int>>"
    }
  }

  func starter(_ signature: FunctionSignature) -> String {
    let parameters = signature.parameters.map { "\(typeName($0.type)) \(FunctionSignature.camelCase($0.name))" }
      .joined(separator: ", ")
    let placeholder: String
    switch signature.returns {
    case .int, .float: placeholder = "0"
    case .bool: placeholder = "false"
    case .string, .array, .graph: placeholder = "{}"
    case .linkedList, .tree: placeholder = "nullptr"
    }
    let types = signature.parameters.map(\.type) + [signature.returns]
    var preamble = ""
    if types.contains(.linkedList) {
      preamble += """
        // ListNode is defined for you:
        // struct ListNode {
        //     long long val;
        //     ListNode* next;
        //     ListNode(long long x = 0, ListNode* next = nullptr) : val(x), next(next) {}
        // };


        """
    }
    if types.contains(.tree) {
      preamble += """
        // TreeNode is defined for you:
        // struct TreeNode {
        //     long long val;
        //     TreeNode* left;
        //     TreeNode* right;
        //     TreeNode(long long x = 0, TreeNode* left = nullptr, TreeNode* right = nullptr)
        //         : val(x), left(left), right(right) {}
        // };


        """
    }
    return """
      #include <bits/stdc++.h>
      using namespace std;

      \(preamble)\(typeName(signature.returns)) \(functionName(signature))(\(parameters)) {
          // Write your solution here: return the result; cout goes to stderr, for debugging.
          return \(placeholder);
      }

      """
  }

  /// The C++ type the driver decodes an argument into: the starter's, fully qualified.
  func qualifiedTypeName(_ type: FunctionType) -> String {
    switch type {
    case .int: return "long long"
    case .float: return "double"
    case .bool: return "bool"
    case .string: return "std::string"
    case .array(let element): return "std::vector<\(qualifiedTypeName(element))>"
    case .linkedList: return "ListNode*"
    case .tree: return "TreeNode*"
    case .graph: return "std::vector<std::vector<int>>"
    }
  }

  func driver(_ signature: FunctionSignature) -> String {
    let declarations = signature.parameters.enumerated().map { index, parameter in
      "      \(qualifiedTypeName(parameter.type)) argument\(index);\n"
        + "      dsa_driver::\(parameter.type == .graph ? "decodeGraph" : "decode")(test.at(\"args\").at(\(index)), argument\(index));"
    }.joined(separator: "\n")
    let call =
      "\(functionName(signature))(\(signature.parameters.indices.map { "argument\($0)" }.joined(separator: ", ")))"
    return Self.runtime + """
      #include "solution.hpp"

      int main() {
        std::string nonce;
        std::getline(std::cin, nonce);
        std::string text((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
        dsa_driver::Parser parser{text};
        dsa_driver::Json request = parser.value();
        dsa_driver::reportDescriptor = dup(1);
        // The learner's prints go to stderr; the report has its own descriptor.
        std::fflush(stdout);
        std::cout.flush();
        dup2(2, 1);
        long long cpuBudget = request.at("cpu_ms").integer;
        long long wallBudget = request.at("wall_ms").integer;
        signal(SIGPROF, dsa_driver::onLimit);
        signal(SIGALRM, dsa_driver::onLimit);
        // A test's result waits to go out with the next test's begin, one write for both: every write
        // wakes the host's reader, and a third of the writes were a tenth of a small grade.
        std::string report;
        for (const dsa_driver::Json& test : request.at("tests").items) {
          long long index = test.at("index").integer;
          std::string begin = "\\n@begin " + nonce + " " + std::to_string(index) + "\\n";
          report += begin;
          dsa_driver::writeAll(dsa_driver::reportDescriptor, report);
          report.clear();
          std::cout.flush();
          std::cerr.flush();
          std::fflush(stdout);
          dsa_driver::writeAll(2, begin);
          dsa_driver::cpuLine = "\\n@limit " + nonce + " {\\"test\\":" + std::to_string(index) + ",\\"kind\\":\\"cpu\\"}\\n";
          dsa_driver::wallLine = "\\n@limit " + nonce + " {\\"test\\":" + std::to_string(index) + ",\\"kind\\":\\"wall\\"}\\n";
          dsa_driver::limitLines[0] = dsa_driver::cpuLine.c_str();
          dsa_driver::limitLines[1] = dsa_driver::wallLine.c_str();
      \(declarations)
          std::string fields;
          std::string encoded;
          double cpuStart = dsa_driver::cpuSeconds(), wallStart = dsa_driver::wallSeconds();
          dsa_driver::arm(cpuBudget, wallBudget);
          try {
            encoded = dsa_driver::encode(\(call));
          } catch (const dsa_driver::Unencodable& error) {
            dsa_driver::disarm();
            fields = ",\\"unencodable\\":" + dsa_driver::quote(std::string("a ") + error.what());
          } catch (const std::exception& error) {
            dsa_driver::disarm();
            fields = ",\\"raised\\":" + dsa_driver::quote(std::string("exception: ") + error.what());
          } catch (...) {
            dsa_driver::disarm();
            fields = ",\\"raised\\":\\"an exception that is not a std::exception\\"";
          }
          dsa_driver::disarm();
          long long cpuMs = (long long)((dsa_driver::cpuSeconds() - cpuStart) * 1000);
          long long wallMs = (long long)((dsa_driver::wallSeconds() - wallStart) * 1000);
          std::cout.flush();
          std::fflush(stdout);
          if (fields.empty()) fields = ",\\"value\\":" + encoded;
          report = "\\n@result " + nonce + " {\\"test\\":" + std::to_string(index) + ",\\"cpu_ms\\":"
            + std::to_string(cpuMs) + ",\\"wall_ms\\":" + std::to_string(wallMs) + fields + "}\\n";
        }
        std::cout.flush();
        std::fflush(stdout);
        dsa_driver::writeAll(dsa_driver::reportDescriptor, report + "\\n@done " + nonce + "\\n");
        return 0;
      }

      """
  }

  /// The part of the driver that is the same for every challenge: a small JSON reader, the
  /// decoders and encoders of the types, the clocks and the watchdog.
  static let runtime = """
    // The dsa-run function driver (generated; not the learner's). docs/challenges.md tells the protocol.
    #include <cerrno>
    #include <csignal>
    #include <cmath>
    #include <cstdio>
    #include <cstdlib>
    #include <cstring>
    #include <ctime>
    #include <iostream>
    #include <iterator>
    #include <stdexcept>
    #include <string>
    #include <type_traits>
    #include <vector>
    #include <sys/time.h>
    #include <unistd.h>

    struct ListNode {
      long long val;
      ListNode* next;
      ListNode(long long x = 0, ListNode* next = nullptr) : val(x), next(next) {}
    };

    struct TreeNode {
      long long val;
      TreeNode* left;
      TreeNode* right;
      TreeNode(long long x = 0, TreeNode* left = nullptr, TreeNode* right = nullptr) : val(x), left(left), right(right) {}
    };

    namespace dsa_driver {

    struct Json {
      enum Kind { Null, Bool, Integer, Number, String, Array, Object } kind = Null;
      bool boolean = false;
      long long integer = 0;
      double number = 0;
      std::string text;
      std::vector<Json> items;
      std::vector<std::pair<std::string, Json>> fields;

      const Json& at(const std::string& key) const {
        for (const auto& field : fields) if (field.first == key) return field.second;
        throw std::runtime_error("the driver's input has no " + key);
      }
      const Json& at(size_t index) const { return items.at(index); }
    };

    struct Parser {
      const std::string& text;
      size_t at = 0;

      void space() { while (at < text.size() && std::strchr(" \\t\\r\\n", text[at]) && text[at]) at++; }
      Json value() {
        space();
        Json result;
        if (at >= text.size()) throw std::runtime_error("the driver's input ended early");
        char c = text[at];
        if (c == '{') {
          result.kind = Json::Object;
          at++;
          space();
          if (text[at] == '}') { at++; return result; }
          for (;;) {
            space();
            Json key = value();
            space();
            at++;  // ':'
            Json item = value();
            result.fields.emplace_back(key.text, item);
            space();
            if (text[at++] == '}') return result;
          }
        }
        if (c == '[') {
          result.kind = Json::Array;
          at++;
          space();
          if (text[at] == ']') { at++; return result; }
          for (;;) {
            result.items.push_back(value());
            space();
            if (text[at++] == ']') return result;
          }
        }
        if (c == '"') {
          result.kind = Json::String;
          at++;
          while (text[at] != '"') {
            if (text[at] != '\\\\') { result.text += text[at++]; continue; }
            at++;
            char e = text[at++];
            switch (e) {
              case 'n': result.text += '\\n'; break;
              case 't': result.text += '\\t'; break;
              case 'r': result.text += '\\r'; break;
              case 'b': result.text += '\\b'; break;
              case 'f': result.text += '\\f'; break;
              case 'u': {
                unsigned code = std::stoul(text.substr(at, 4), nullptr, 16);
                at += 4;
                if (code >= 0xD800 && code < 0xDC00 && text[at] == '\\\\' && text[at + 1] == 'u') {
                  unsigned low = std::stoul(text.substr(at + 2, 4), nullptr, 16);
                  at += 6;
                  code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
                }
                if (code < 0x80) result.text += (char)code;
                else if (code < 0x800) { result.text += (char)(0xC0 | (code >> 6)); result.text += (char)(0x80 | (code & 0x3F)); }
                else if (code < 0x10000) {
                  result.text += (char)(0xE0 | (code >> 12)); result.text += (char)(0x80 | ((code >> 6) & 0x3F));
                  result.text += (char)(0x80 | (code & 0x3F));
                } else {
                  result.text += (char)(0xF0 | (code >> 18)); result.text += (char)(0x80 | ((code >> 12) & 0x3F));
                  result.text += (char)(0x80 | ((code >> 6) & 0x3F)); result.text += (char)(0x80 | (code & 0x3F));
                }
                break;
              }
              default: result.text += e;
            }
          }
          at++;
          return result;
        }
        if (text.compare(at, 4, "true") == 0) { at += 4; result.kind = Json::Bool; result.boolean = true; return result; }
        if (text.compare(at, 5, "false") == 0) { at += 5; result.kind = Json::Bool; return result; }
        if (text.compare(at, 4, "null") == 0) { at += 4; return result; }
        size_t start = at;
        bool whole = true;
        while (at < text.size() && std::strchr("+-0123456789.eE", text[at]) && text[at]) {
          if (text[at] == '.' || text[at] == 'e' || text[at] == 'E') whole = false;
          at++;
        }
        std::string literal = text.substr(start, at - start);
        result.number = std::strtod(literal.c_str(), nullptr);
        if (whole) {
          result.kind = Json::Integer;
          result.integer = std::strtoll(literal.c_str(), nullptr, 10);
        } else {
          result.kind = Json::Number;
        }
        return result;
      }
    };

    inline void decode(const Json& json, long long& out) { out = json.kind == Json::Integer ? json.integer : (long long)json.number; }
    inline void decode(const Json& json, double& out) { out = json.kind == Json::Integer ? (double)json.integer : json.number; }
    inline void decode(const Json& json, bool& out) { out = json.boolean; }
    inline void decode(const Json& json, std::string& out) { out = json.text; }
    template <class T> void decode(const Json& json, std::vector<T>& out) {
      out.clear();
      out.reserve(json.items.size());
      for (const Json& item : json.items) {
        T value{};
        decode(item, value);
        out.push_back(std::move(value));
      }
    }

    inline void decode(const Json& json, ListNode*& out) {
      out = nullptr;
      for (size_t i = json.items.size(); i-- > 0;) out = new ListNode(json.items[i].integer, out);
    }
    inline void decode(const Json& json, TreeNode*& out) {
      const std::vector<Json>& values = json.items;
      out = nullptr;
      if (values.empty() || values[0].kind == Json::Null) return;
      out = new TreeNode(values[0].integer);
      std::vector<TreeNode*> queue{out};
      size_t head = 0, index = 1;
      while (head < queue.size() && index < values.size()) {
        TreeNode* node = queue[head++];
        if (index < values.size() && values[index].kind != Json::Null) {
          node->left = new TreeNode(values[index].integer);
          queue.push_back(node->left);
        }
        index++;
        if (index < values.size() && values[index].kind != Json::Null) {
          node->right = new TreeNode(values[index].integer);
          queue.push_back(node->right);
        }
        index++;
      }
    }
    inline void decodeGraph(const Json& json, std::vector<std::vector<int>>& out) {
      out.assign((size_t)json.at("n").integer, std::vector<int>());
      bool directed = json.at("directed").boolean;
      for (const Json& edge : json.at("edges").items) {
        int u = (int)edge.items[0].integer, v = (int)edge.items[1].integer;
        out[u].push_back(v);
        if (!directed && u != v) out[v].push_back(u);
      }
    }

    inline std::string quote(const std::string& text) {
      std::string out = "\\"";
      for (unsigned char c : text) {
        if (c == '"') out += "\\\\\\"";
        else if (c == '\\\\') out += "\\\\\\\\";
        else if (c == '\\n') out += "\\\\n";
        else if (c < 0x20) { char buffer[8]; std::snprintf(buffer, sizeof buffer, "\\\\u%04x", c); out += buffer; }
        else out += (char)c;
      }
      return out + "\\"";
    }

    inline std::string encode(bool value) { return value ? "true" : "false"; }
    template <class T>
    typename std::enable_if<std::is_integral<T>::value && !std::is_same<T, bool>::value, std::string>::type
    encode(T value) { return std::to_string(value); }
    template <class T>
    typename std::enable_if<std::is_floating_point<T>::value, std::string>::type encode(T value) {
      if (std::isnan(value)) return "\\"NaN\\"";
      if (std::isinf(value)) return value > 0 ? "\\"Infinity\\"" : "\\"-Infinity\\"";
      char buffer[40];
      std::snprintf(buffer, sizeof buffer, "%.17g", (double)value);
      return buffer;
    }
    inline std::string encode(const std::string& value) { return quote(value); }
    inline std::string encode(const char* value) { return quote(value); }
    template <class T> std::string encode(const std::vector<T>& values) {
      std::string out = "[";
      for (size_t i = 0; i < values.size(); i++) {
        if (i) out += ",";
        out += encode(static_cast<T>(values[i]));
      }
      return out + "]";
    }

    struct Unencodable : std::runtime_error {
      using std::runtime_error::runtime_error;
    };

    inline std::string encode(const ListNode* head) {
      std::string out = "[";
      for (size_t count = 0; head != nullptr; head = head->next, count++) {
        if (count >= 1000000) throw Unencodable("linked list of more than a million nodes (a cycle?)");
        if (count) out += ",";
        out += std::to_string(head->val);
      }
      return out + "]";
    }
    inline std::string encode(const TreeNode* root) {
      std::vector<const TreeNode*> queue{root};
      std::vector<std::string> values;
      for (size_t head = 0; head < queue.size(); head++) {
        if (values.size() >= 2000000) throw Unencodable("tree of more than a million nodes (a cycle?)");
        const TreeNode* node = queue[head];
        if (node == nullptr) { values.push_back("null"); continue; }
        values.push_back(std::to_string(node->val));
        queue.push_back(node->left);
        queue.push_back(node->right);
      }
      while (!values.empty() && values.back() == "null") values.pop_back();
      std::string out = "[";
      for (size_t i = 0; i < values.size(); i++) out += (i ? "," : "") + values[i];
      return out + "]";
    }

    static int reportDescriptor = 1;
    static std::string cpuLine, wallLine;
    static const char* limitLines[2];

    inline void writeAll(int fd, const std::string& data) {
      size_t done = 0;
      while (done < data.size()) {
        ssize_t written = write(fd, data.data() + done, data.size() - done);
        if (written < 0) { if (errno == EINTR) continue; return; }
        done += (size_t)written;
      }
    }

    inline void onLimit(int number) {
      const char* line = limitLines[number == SIGPROF ? 0 : 1];
      ssize_t ignored = write(reportDescriptor, line, std::strlen(line));
      (void)ignored;
      _exit(3);
    }

    inline void arm(long long cpuMs, long long wallMs) {
      itimerval cpu{}, wall{};
      cpu.it_value.tv_sec = cpuMs / 1000;
      cpu.it_value.tv_usec = (cpuMs % 1000) * 1000;
      wall.it_value.tv_sec = wallMs / 1000;
      wall.it_value.tv_usec = (wallMs % 1000) * 1000;
      setitimer(ITIMER_PROF, &cpu, nullptr);
      setitimer(ITIMER_REAL, &wall, nullptr);
    }

    inline void disarm() {
      itimerval off{};
      setitimer(ITIMER_PROF, &off, nullptr);
      setitimer(ITIMER_REAL, &off, nullptr);
    }

    inline double cpuSeconds() {
      timespec now;
      clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
      return now.tv_sec + now.tv_nsec / 1e9;
    }

    inline double wallSeconds() {
      timespec now;
      clock_gettime(CLOCK_MONOTONIC, &now);
      return now.tv_sec + now.tv_nsec / 1e9;
    }

    }  // namespace dsa_driver


    """
}
