import Grading

/// Go: `func MergeIntervals(intervals [][]int) [][]int` in `solution.go`, `package main`, compiled with
/// `driver.go` (the entry point, which declares `ListNode` and `TreeNode`) into one binary. An int is
/// Go's `int`, 64-bit. Go finds functions at compile time only, so a missing or misnamed function
/// is a compile error (`undefined: MergeIntervals`). A panic is recovered by the driver and reported
/// as raised. The watchdog is a goroutine reading the process's CPU time (getrusage) and the wall
/// clock; past a budget it writes the `@limit` line and `os.Exit`s.
struct GoFunctionDriver: FunctionDriver {
  let language = "go"
  let driverFileName = "driver.go"
  let solutionFileName = "solution.go"

  func missingFunctionCompileError(_ signature: FunctionSignature) -> String? {
    "undefined: \(functionName(signature))"
  }

  func functionName(_ signature: FunctionSignature) -> String { FunctionSignature.pascalCase(signature.name) }

  func typeName(_ type: FunctionType) -> String {
    switch type {
    case .int: return "int"
    case .float: return "float64"
    case .bool: return "bool"
    case .string: return "string"
    case .array(let element): return "[]" + typeName(element)
    case .linkedList: return "*ListNode"
    case .tree: return "*TreeNode"
    case .graph: return "[][]int"
    }
  }

  func placeholder(_ type: FunctionType) -> String {
    switch type {
    case .int, .float: return "0"
    case .bool: return "false"
    case .string: return "\"\""
    case .array, .linkedList, .tree, .graph: return "nil"
    }
  }

  func starter(_ signature: FunctionSignature) -> String {
    let types = signature.parameters.map(\.type) + [signature.returns]
    var preamble = "package main\n\n"
    if types.contains(.linkedList) {
      preamble += """
        // ListNode is defined for you:
        // type ListNode struct {
        // 	Val  int
        // 	Next *ListNode
        // }


        """
    }
    if types.contains(.tree) {
      preamble += """
        // TreeNode is defined for you:
        // type TreeNode struct {
        // 	Val   int
        // 	Left  *TreeNode
        // 	Right *TreeNode
        // }


        """
    }
    let parameters = signature.parameters.map { "\(FunctionSignature.camelCase($0.name)) \(typeName($0.type))" }
      .joined(separator: ", ")
    return preamble + """
      func \(functionName(signature))(\(parameters)) \(typeName(signature.returns)) {
      	// Write your solution here: return the result; fmt.Println goes to stderr, for debugging.
      	return \(placeholder(signature.returns))
      }

      """
  }

  /// The statements that decode argument `index` of a test into `argumentN`.
  func decoding(_ type: FunctionType, index: Int) -> String {
    let raw = "test.Args[\(index)]"
    switch type {
    case .linkedList: return "argument\(index) := toList(\(raw))"
    case .tree: return "argument\(index) := toTree(\(raw))"
    case .graph: return "argument\(index) := toGraph(\(raw))"
    default: return "var argument\(index) \(typeName(type))\n\t\tmustDecode(\(raw), &argument\(index))"
    }
  }

  func driver(_ signature: FunctionSignature) -> String {
    let decodings = signature.parameters.enumerated().map { "\t\t" + decoding($1.type, index: $0) }
      .joined(separator: "\n")
    let arguments = signature.parameters.indices.map { "argument\($0)" }.joined(separator: ", ")
    let encoder: String
    switch signature.returns {
    case .linkedList: encoder = "encodeList"
    case .tree: encoder = "encodeTree"
    default: encoder = "encodeValue"
    }
    return Self.runtime + """

      func runTests(request request, nonce string) {
      	for _, test := range request.Tests {
      		begin(nonce, test.Index)
      \(decodings)
      		arm(test.Index)
      		var result \(typeName(signature.returns))
      		raised, stack := protect(func() { result = \(functionName(signature))(\(arguments)) })
      		cpu, wall := disarm()
      		fields := fmt.Sprintf(`{"test":%d,"cpu_ms":%d,"wall_ms":%d`, test.Index, cpu, wall)
      		if raised != "" {
      			os.Stderr.Write(stack)
      			emit("@result " + nonce + " " + fields + `,"raised":` + quote(raised) + "}")
      			continue
      		}
      		var out strings.Builder
      		if problem := \(encoder)(&out, result); problem != "" {
      			emit("@result " + nonce + " " + fields + `,"unencodable":` + quote("a "+problem) + "}")
      			continue
      		}
      		emit("@result " + nonce + " " + fields + `,"value":` + out.String() + "}")
      	}
      }

      """
  }
}
