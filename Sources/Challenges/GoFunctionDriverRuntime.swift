extension GoFunctionDriver {
  /// The part of the Go driver that is the same for every challenge: the node types, the decoders
  /// and encoder, the report channel, the watchdog and `main`.
  static let runtime = #"""
    // The dsa-run function driver (generated; not the learner's). docs/challenges.md tells the protocol.
    package main

    import (
    	"encoding/json"
    	"fmt"
    	"io"
    	"math"
    	"os"
    	"reflect"
    	"runtime/debug"
    	"strconv"
    	"strings"
    	"sync"
    	"syscall"
    	"time"
    	"unicode/utf8"
    )

    type ListNode struct {
    	Val  int
    	Next *ListNode
    }

    type TreeNode struct {
    	Val   int
    	Left  *TreeNode
    	Right *TreeNode
    }

    const nodeLimit = 1000000

    type request struct {
    	CPU   int64 `json:"cpu_ms"`
    	Wall  int64 `json:"wall_ms"`
    	Tests []struct {
    		Index int               `json:"index"`
    		Args  []json.RawMessage `json:"args"`
    	} `json:"tests"`
    }

    func mustDecode(raw json.RawMessage, into any) {
    	if err := json.Unmarshal(raw, into); err != nil {
    		panic("the driver's input: " + err.Error())
    	}
    }

    func toList(raw json.RawMessage) *ListNode {
    	var values []int
    	mustDecode(raw, &values)
    	var head *ListNode
    	for i := len(values) - 1; i >= 0; i-- {
    		head = &ListNode{Val: values[i], Next: head}
    	}
    	return head
    }

    func toTree(raw json.RawMessage) *TreeNode {
    	var values []*int
    	mustDecode(raw, &values)
    	if len(values) == 0 || values[0] == nil {
    		return nil
    	}
    	root := &TreeNode{Val: *values[0]}
    	queue := []*TreeNode{root}
    	index := 1
    	for len(queue) > 0 && index < len(values) {
    		node := queue[0]
    		queue = queue[1:]
    		if index < len(values) && values[index] != nil {
    			node.Left = &TreeNode{Val: *values[index]}
    			queue = append(queue, node.Left)
    		}
    		index++
    		if index < len(values) && values[index] != nil {
    			node.Right = &TreeNode{Val: *values[index]}
    			queue = append(queue, node.Right)
    		}
    		index++
    	}
    	return root
    }

    func toGraph(raw json.RawMessage) [][]int {
    	var graph struct {
    		N        int     `json:"n"`
    		Edges    [][]int `json:"edges"`
    		Directed bool    `json:"directed"`
    	}
    	mustDecode(raw, &graph)
    	adjacency := make([][]int, graph.N)
    	for i := range adjacency {
    		adjacency[i] = []int{}
    	}
    	for _, edge := range graph.Edges {
    		u, v := edge[0], edge[1]
    		adjacency[u] = append(adjacency[u], v)
    		if !graph.Directed && u != v {
    			adjacency[v] = append(adjacency[v], u)
    		}
    	}
    	return adjacency
    }

    func quote(text string) string {
    	var out strings.Builder
    	out.WriteByte('"')
    	for _, r := range text {
    		switch {
    		case r == '"':
    			out.WriteString(`\"`)
    		case r == '\\':
    			out.WriteString(`\\`)
    		case r == '\n':
    			out.WriteString(`\n`)
    		case r < 0x20:
    			fmt.Fprintf(&out, `\u%04x`, r)
    		case r == utf8.RuneError:
    			out.WriteString(`\ufffd`)
    		default:
    			out.WriteRune(r)
    		}
    	}
    	out.WriteByte('"')
    	return out.String()
    }

    func encodeList(out *strings.Builder, head *ListNode) string {
    	out.WriteByte('[')
    	for count := 0; head != nil; head, count = head.Next, count+1 {
    		if count >= nodeLimit {
    			return "linked list of more than a million nodes (a cycle?)"
    		}
    		if count > 0 {
    			out.WriteByte(',')
    		}
    		out.WriteString(strconv.Itoa(head.Val))
    	}
    	out.WriteByte(']')
    	return ""
    }

    func encodeTree(out *strings.Builder, root *TreeNode) string {
    	queue := []*TreeNode{root}
    	values := []string{}
    	for head := 0; head < len(queue); head++ {
    		if len(values) >= 2*nodeLimit {
    			return "tree of more than a million nodes (a cycle?)"
    		}
    		node := queue[head]
    		if node == nil {
    			values = append(values, "null")
    			continue
    		}
    		values = append(values, strconv.Itoa(node.Val))
    		queue = append(queue, node.Left, node.Right)
    	}
    	for len(values) > 0 && values[len(values)-1] == "null" {
    		values = values[:len(values)-1]
    	}
    	out.WriteString("[" + strings.Join(values, ",") + "]")
    	return ""
    }

    // encodeValue writes a result as JSON and returns "" or what could not be encoded; a nil slice
    // is an empty array, as Go code returns one.
    func encodeValue(out *strings.Builder, result any) string {
    	value := reflect.ValueOf(result)
    	switch value.Kind() {
    	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
    		out.WriteString(strconv.FormatInt(value.Int(), 10))
    	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
    		out.WriteString(strconv.FormatUint(value.Uint(), 10))
    	case reflect.Float32, reflect.Float64:
    		number := value.Float()
    		switch {
    		case math.IsNaN(number):
    			out.WriteString(`"NaN"`)
    		case math.IsInf(number, 0):
    			out.WriteString(map[bool]string{true: `"Infinity"`, false: `"-Infinity"`}[number > 0])
    		default:
    			out.WriteString(strconv.FormatFloat(number, 'g', -1, 64))
    		}
    	case reflect.Bool:
    		out.WriteString(strconv.FormatBool(value.Bool()))
    	case reflect.String:
    		out.WriteString(quote(value.String()))
    	case reflect.Slice, reflect.Array:
    		out.WriteByte('[')
    		for i := 0; i < value.Len(); i++ {
    			if i > 0 {
    				out.WriteByte(',')
    			}
    			if problem := encodeValue(out, value.Index(i).Interface()); problem != "" {
    				return problem
    			}
    		}
    		out.WriteByte(']')
    	default:
    		if list, ok := result.(*ListNode); ok {
    			return encodeList(out, list)
    		}
    		if tree, ok := result.(*TreeNode); ok {
    			return encodeTree(out, tree)
    		}
    		return fmt.Sprintf("%T", result)
    	}
    	return ""
    }

    var (
    	report                         *os.File
    	reportNonce                    string
    	guard                          sync.Mutex
    	armed                          bool
    	current                        int
    	cpuStart, cpuBudget, wallBudget time.Duration
    	wallStart                      time.Time
    )

    func emit(line string) {
    	guard.Lock()
    	defer guard.Unlock()
    	report.WriteString("\n" + line + "\n")
    }

    func begin(nonce string, index int) {
    	marker := "\n@begin " + nonce + " " + strconv.Itoa(index) + "\n"
    	os.Stderr.WriteString(marker)
    	emit(marker[1 : len(marker)-1])
    }

    func cpuTime() time.Duration {
    	var usage syscall.Rusage
    	syscall.Getrusage(syscall.RUSAGE_SELF, &usage)
    	return time.Duration(usage.Utime.Nano() + usage.Stime.Nano())
    }

    func arm(index int) {
    	guard.Lock()
    	defer guard.Unlock()
    	current, cpuStart, wallStart, armed = index, cpuTime(), time.Now(), true
    }

    func disarm() (int64, int64) {
    	guard.Lock()
    	defer guard.Unlock()
    	armed = false
    	return int64((cpuTime() - cpuStart) / time.Millisecond), int64(time.Since(wallStart) / time.Millisecond)
    }

    func watch() {
    	for {
    		time.Sleep(5 * time.Millisecond)
    		guard.Lock()
    		if armed {
    			kind := ""
    			if cpuTime()-cpuStart >= cpuBudget {
    				kind = "cpu"
    			} else if time.Since(wallStart) >= wallBudget {
    				kind = "wall"
    			}
    			if kind != "" {
    				report.WriteString(fmt.Sprintf("\n@limit %s {\"test\":%d,\"kind\":\"%s\"}\n", reportNonce, current, kind))
    				os.Exit(3)
    			}
    		}
    		guard.Unlock()
    	}
    }

    // protect runs the learner's call, turning a panic into what the report says of it.
    func protect(call func()) (raised string, stack []byte) {
    	defer func() {
    		if recovered := recover(); recovered != nil {
    			raised = fmt.Sprintf("panic: %v", recovered)
    			stack = debug.Stack()
    		}
    	}()
    	call()
    	return "", nil
    }

    func main() {
    	input, _ := io.ReadAll(os.Stdin)
    	newline := strings.IndexByte(string(input), '\n')
    	nonce := strings.TrimSpace(string(input[:newline]))
    	var parsed request
    	mustDecode(input[newline+1:], &parsed)
    	// The learner's prints go to stderr; the report has its own descriptor.
    	reportDescriptor, _ := syscall.Dup(1)
    	syscall.Dup3(2, 1, 0)
    	report = os.NewFile(uintptr(reportDescriptor), "report")
    	reportNonce = nonce
    	cpuBudget = time.Duration(parsed.CPU) * time.Millisecond
    	wallBudget = time.Duration(parsed.Wall) * time.Millisecond
    	go watch()
    	runTests(parsed, nonce)
    	emit("@done " + nonce)
    }
    """#
}
