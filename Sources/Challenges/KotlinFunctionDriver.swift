import Grading

/// Kotlin: `fun mergeIntervals(intervals: Array<LongArray>): Array<LongArray>` in `class Solution` in
/// `solution.kt`, as on LeetCode (an int is a `Long`, since the type is 64-bit; int arrays are
/// `LongArray`, strings `Array<String>`). `DsaDriver.kt` holds the entry point and the `ListNode` and
/// `TreeNode` classes and finds the method by reflection on the compiled classes, which are the
/// JVM's, as Java's driver does: a fresh `Solution` per test (an `object Solution` is used as it is),
/// a missing function reported as such. The watchdog is a daemon thread reading the test thread's CPU
/// time (`/proc`'s schedstat, else ThreadMXBean) and the wall clock; past a budget it writes the `@limit` line and
/// `Runtime.halt`s.
struct KotlinFunctionDriver: FunctionDriver {
  let language = "kotlin"
  let driverFileName = "DsaDriver.kt"
  let solutionFileName = "solution.kt"

  func functionName(_ signature: FunctionSignature) -> String { FunctionSignature.camelCase(signature.name) }

  func typeName(_ type: FunctionType) -> String {
    switch type {
    case .int: return "Long"
    case .float: return "Double"
    case .bool: return "Boolean"
    case .string: return "String"
    case .array(.int): return "LongArray"
    case .array(.float): return "DoubleArray"
    case .array(.bool): return "BooleanArray"
    case .array(let element): return "Array<\(typeName(element))>"
    case .linkedList: return "ListNode?"
    case .tree: return "TreeNode?"
    case .graph: return "List<List<Int>>"
    }
  }

  func placeholder(_ type: FunctionType) -> String {
    switch type {
    case .int: return "0L"
    case .float: return "0.0"
    case .bool: return "false"
    case .string: return "\"\""
    case .array(.int), .array(.float), .array(.bool): return "\(typeName(type))(0)"
    case .array: return "arrayOf()"
    case .linkedList, .tree: return "null"
    case .graph: return "listOf()"
    }
  }

  func parameterList(_ signature: FunctionSignature) -> String {
    signature.parameters.map { "\(FunctionSignature.camelCase($0.name)): \(typeName($0.type))" }
      .joined(separator: ", ")
  }

  func starter(_ signature: FunctionSignature) -> String {
    let types = signature.parameters.map(\.type) + [signature.returns]
    var preamble = ""
    if types.contains(.linkedList) {
      preamble += """
        // ListNode is defined for you:
        // class ListNode(var `val`: Long) {
        //     var next: ListNode? = null
        // }


        """
    }
    if types.contains(.tree) {
      preamble += """
        // TreeNode is defined for you:
        // class TreeNode(var `val`: Long) {
        //     var left: TreeNode? = null
        //     var right: TreeNode? = null
        // }


        """
    }
    return preamble + """
      class Solution {
          fun \(functionName(signature))(\(parameterList(signature))): \(typeName(signature.returns)) {
              // Write your solution here: return the result; println goes to stderr, for debugging.
              return \(placeholder(signature.returns))
          }
      }

      """
  }

  func driver(_ signature: FunctionSignature) -> String {
    let types = signature.parameters.map { JSONQuoted.string($0.type.description) }.joined(separator: ", ")
    let expected = "\(functionName(signature))(\(parameterList(signature)))"
    return """
      // The dsa-run function driver (generated; not the learner's). docs/challenges.md tells the protocol.
      import java.io.FileDescriptor
      import java.io.FileOutputStream
      import java.io.PrintStream
      import java.lang.reflect.InvocationTargetException
      import java.lang.reflect.Method
      import java.lang.reflect.Modifier

      private const val FUNCTION = \(JSONQuoted.string(functionName(signature)))
      private const val SIGNATURE = \(JSONQuoted.string(expected).replacingOccurrences(of: "$", with: "\\$"))
      private val TYPES = arrayOf<String>(\(types))
      private const val RESULT = \(JSONQuoted.string(signature.returns.description))

      """ + Self.runtime
  }
}
