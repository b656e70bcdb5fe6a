import Grading

/// Python: `def merge_intervals(intervals: list[list[int]]) -> list[list[int]]:` in `solution.py`,
/// imported by `driver.py` through `recorder/python/dsa_function_driver.py`. The watchdog is
/// `signal.setitimer`: ITIMER_PROF for the test's CPU budget, ITIMER_REAL for its wall budget; its
/// handler writes the `@limit` line and ends the process (a handler runs between bytecodes, so a
/// loop inside one C call is ended by the box's limit instead).
struct PythonFunctionDriver: FunctionDriver {
  let language = "python"
  let driverFileName = "driver.py"
  let solutionFileName = "solution.py"

  func functionName(_ signature: FunctionSignature) -> String { signature.name }

  func typeName(_ type: FunctionType) -> String {
    switch type {
    case .int: return "int"
    case .float: return "float"
    case .bool: return "bool"
    case .string: return "str"
    case .array(let element): return "list[\(typeName(element))]"
    case .linkedList: return "Optional[ListNode]"
    case .tree: return "Optional[TreeNode]"
    case .graph: return "list[list[int]]"
    }
  }

  /// The driver's function that turns a test's JSON argument into this type's value.
  func decoder(_ type: FunctionType) -> String {
    switch type {
    case .linkedList: return "_to_list"
    case .tree: return "_to_tree"
    case .graph: return "_to_graph"
    default: return "_plain"
    }
  }

  func placeholder(_ type: FunctionType) -> String {
    switch type {
    case .int: return "0"
    case .float: return "0.0"
    case .bool: return "False"
    case .string: return "\"\""
    case .array: return "[]"
    case .linkedList, .tree, .graph: return "None"
    }
  }

  func starter(_ signature: FunctionSignature) -> String {
    let parameters = signature.parameters.map { "\($0.name): \(typeName($0.type))" }.joined(separator: ", ")
    let types = signature.parameters.map(\.type) + [signature.returns]
    var preamble = ""
    if types.contains(.linkedList) || types.contains(.tree) {
      preamble = "from typing import Optional\n\n"
      if types.contains(.linkedList) {
        preamble += """
          # ListNode is defined for you:
          # class ListNode:
          #     def __init__(self, val=0, next=None):
          #         self.val = val
          #         self.next = next



          """
      }
      if types.contains(.tree) {
        preamble += """
          # TreeNode is defined for you:
          # class TreeNode:
          #     def __init__(self, val=0, left=None, right=None):
          #         self.val = val
          #         self.left = left
          #         self.right = right



          """
      }
    }
    return preamble + """
      def \(signature.name)(\(parameters)) -> \(typeName(signature.returns)):
          # Write your solution here: return the result; print() goes to stderr, for debugging.
          return \(placeholder(signature.returns))

      """
  }

  func driver(_ signature: FunctionSignature) -> String {
    let decoders = signature.parameters.map { JSONQuoted.string(decoder($0.type)) }.joined(separator: ", ")
    let result = ["linked_list": "_from_list", "tree": "_from_tree"][signature.returns.description] ?? "_plain"
    // The driver itself is `dsa_function_driver` beside the step recorder (recorder/python/), whose
    // bytecode is compiled at install: compiling it at every start cost 1.5 ms of a 7 ms grade. The
    // box's folder is left out of the path while it is imported, so that only the installed module
    // answers to that name.
    return """
      # The dsa-run function driver (generated; not the learner's). docs/challenges.md tells the protocol.
      import sys

      _box = sys.path.pop(0)
      import dsa_function_driver

      sys.path.insert(0, _box)
      del _box
      dsa_function_driver.main(__file__, \(JSONQuoted.string(signature.name)), [\(decoders)], \(JSONQuoted.string(result)))

      """
  }
}

/// A Swift string as a JSON (and Python and JavaScript) string literal.
enum JSONQuoted {
  static func string(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      default:
        if scalar.value < 0x20 || scalar.value > 0x7E {
          out += String(format: "\\u%04x", scalar.value)
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out + "\""
  }
}
