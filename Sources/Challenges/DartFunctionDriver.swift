import Grading

/// Dart: `List<List<int>> mergeIntervals(List<List<int>> intervals)` at the top level of
/// `solution.dart`, which `driver.dart` (the entry point) imports; an int is Dart's `int`, 64-bit.
/// `ListNode` and `TreeNode` are the driver's: a starter that uses them imports them from
/// `driver.dart`. A missing function is a compile error, as in Go. The learner's `print` is routed to
/// stderr by a zone. The watchdog is an isolate of its own that reads the process's CPU time
/// (`/proc/self/stat`) and the wall clock every few milliseconds; past a budget it writes the
/// `@limit` line and `exit`s, which ends the whole VM.
struct DartFunctionDriver: FunctionDriver {
  let language = "dart"
  let driverFileName = "driver.dart"
  let solutionFileName = "solution.dart"

  func missingFunctionCompileError(_ signature: FunctionSignature) -> String? {
    "Method not found: '\(functionName(signature))'"
  }

  func functionName(_ signature: FunctionSignature) -> String { FunctionSignature.camelCase(signature.name) }

  func typeName(_ type: FunctionType) -> String {
    switch type {
    case .int: return "int"
    case .float: return "double"
    case .bool: return "bool"
    case .string: return "String"
    case .array(let element): return "List<\(typeName(element))>"
    case .linkedList: return "ListNode?"
    case .tree: return "TreeNode?"
    case .graph: return "List<List<int>>"
    }
  }

  func placeholder(_ type: FunctionType) -> String {
    switch type {
    case .int: return "0"
    case .float: return "0.0"
    case .bool: return "false"
    case .string: return "''"
    case .array, .graph: return "[]"
    case .linkedList, .tree: return "null"
    }
  }

  func starter(_ signature: FunctionSignature) -> String {
    let types = signature.parameters.map(\.type) + [signature.returns]
    let nodes = [(FunctionType.linkedList, "ListNode"), (.tree, "TreeNode")].filter { types.contains($0.0) }.map(\.1)
    var preamble = ""
    if !nodes.isEmpty {
      preamble = """
        // \(nodes.joined(separator: " and ")) \(nodes.count == 1 ? "is" : "are") defined for you (`val`\(nodes.contains("ListNode") ? ", `next`" : "")\(nodes.contains("TreeNode") ? ", `left`, `right`" : "")).
        import 'driver.dart' show \(nodes.joined(separator: ", "));


        """
    }
    let parameters = signature.parameters.map { "\(typeName($0.type)) \(FunctionSignature.camelCase($0.name))" }
      .joined(separator: ", ")
    return preamble + """
      \(typeName(signature.returns)) \(functionName(signature))(\(parameters)) {
        // Write your solution here: return the result; print() goes to stderr, for debugging.
        return \(placeholder(signature.returns));
      }

      """
  }

  func driver(_ signature: FunctionSignature) -> String {
    let types = signature.parameters.map { "'\($0.type.description)'" }.joined(separator: ", ")
    let arguments = signature.parameters.indices.map { "a[\($0)]" }.joined(separator: ", ")
    return """
      // The dsa-run function driver (generated; not the learner's). docs/challenges.md tells the protocol.
      import 'dart:async';
      import 'dart:convert';
      import 'dart:io';
      import 'dart:isolate';

      import 'solution.dart';

      const TYPES = <String>[\(types)];
      const RESULT = '\(signature.returns.description)';

      dynamic call(List<dynamic> a) => \(functionName(signature))(\(arguments));


      """ + Self.runtime
  }
}
