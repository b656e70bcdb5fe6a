import Grading

/// Java: `public static long[][] mergeIntervals(long[][] intervals)` in `class Solution` in
/// `Solution.java` (an int is a `long`, since the type is 64-bit; an instance method works too, as on
/// LeetCode, called on a fresh `Solution` per test). `DsaDriver.java` holds the entry point and the
/// `ListNode` and `TreeNode` classes, and finds the method by reflection, so a missing or misspelt
/// function is reported as such rather than as a compile error in a file the learner never saw. The
/// watchdog is a daemon thread reading the test thread's CPU time (`/proc`'s schedstat, else
/// ThreadMXBean) and the wall clock;
/// past a budget it writes the `@limit` line and `Runtime.halt`s.
struct JavaFunctionDriver: FunctionDriver {
  let language = "java"
  let driverFileName = "DsaDriver.java"
  let solutionFileName = "Solution.java"

  func functionName(_ signature: FunctionSignature) -> String { FunctionSignature.camelCase(signature.name) }

  func typeName(_ type: FunctionType) -> String {
    switch type {
    case .int: return "long"
    case .float: return "double"
    case .bool: return "boolean"
    case .string: return "String"
    case .array(let element): return typeName(element) + "[]"
    case .linkedList: return "ListNode"
    case .tree: return "TreeNode"
    case .graph: return "List<List<Integer>>"
    }
  }

  func placeholder(_ type: FunctionType) -> String {
    switch type {
    case .int: return "0"
    case .float: return "0.0"
    case .bool: return "false"
    case .string: return "\"\""
    case .array(.array(let element)): return "new \(typeName(element))[0][]"
    case .array(let element): return "new \(typeName(element))[0]"
    case .linkedList, .tree: return "null"
    case .graph: return "new ArrayList<>()"
    }
  }

  /// The parameter list as the starter declares it, which the driver also names when a call does not fit.
  func parameterList(_ signature: FunctionSignature) -> String {
    signature.parameters.map { "\(typeName($0.type)) \(FunctionSignature.camelCase($0.name))" }
      .joined(separator: ", ")
  }

  func starter(_ signature: FunctionSignature) -> String {
    let types = signature.parameters.map(\.type) + [signature.returns]
    var preamble = "import java.util.*;\n\n"
    if types.contains(.linkedList) {
      preamble += """
        // ListNode is defined for you:
        // class ListNode {
        //     long val;
        //     ListNode next;
        //     ListNode() {}
        //     ListNode(long val) { this.val = val; }
        //     ListNode(long val, ListNode next) { this.val = val; this.next = next; }
        // }


        """
    }
    if types.contains(.tree) {
      preamble += """
        // TreeNode is defined for you:
        // class TreeNode {
        //     long val;
        //     TreeNode left;
        //     TreeNode right;
        //     TreeNode() {}
        //     TreeNode(long val) { this.val = val; }
        //     TreeNode(long val, TreeNode left, TreeNode right) { this.val = val; this.left = left; this.right = right; }
        // }


        """
    }
    return preamble + """
      class Solution {
          public static \(typeName(signature.returns)) \(functionName(signature))(\(parameterList(signature))) {
              // Write your solution here: return the result; System.out goes to stderr, for debugging.
              return \(placeholder(signature.returns));
          }
      }

      """
  }

  func driver(_ signature: FunctionSignature) -> String {
    let types = signature.parameters.map { JSONQuoted.string($0.type.description) }.joined(separator: ", ")
    let expected = "\(functionName(signature))(\(parameterList(signature)))"
    return """
      // The dsa-run function driver (generated; not the learner's). docs/challenges.md tells the protocol.
      import java.io.*;
      import java.lang.reflect.*;
      import java.nio.charset.StandardCharsets;
      import java.util.*;

      public class DsaDriver {
          static final String FUNCTION = \(JSONQuoted.string(functionName(signature)));
          static final String SIGNATURE = \(JSONQuoted.string(expected));
          static final String[] TYPES = {\(types)};
          static final String RESULT = \(JSONQuoted.string(signature.returns.description));

      """ + Self.runtime
  }
}
