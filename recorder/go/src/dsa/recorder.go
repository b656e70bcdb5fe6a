// Package dsa is dsa-run's step recorder: an algorithm records what it does, one `@step {json}`
// line per step on standard output.
//
//	rec := dsa.NewRecorder([]int{5, 2, 4})
//	rec.Compare(0, 1)                       // {"action":"compare","active":[0,1],...}
//	rec.Swap(0, 1, "2 is smaller: swap")
//	rec.Done()
//
// The recorder keeps the elements with stable ids (so duplicates animate correctly), writes every
// step at once, and makes up a caption when none is given (every call takes an optional caption
// last). docs/challenges.md ("Step recorder") has the whole API; the step lines are the ones the
// steps checker reads. A refused call (too many steps, NaN or an infinity) panics with a message.
package dsa

import (
	"math"
	"os"
	"reflect"
	"sort"
	"strconv"
	"strings"
)

// MaxSteps is the number of steps a process may write; the next call panics.
const MaxSteps = 100000

var stepsWritten int

// Element is what the array form keeps: integers, floating-point numbers or strings.
type Element interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~float32 | ~float64 | ~string
}

// Recorder records the steps of an algorithm over its elements, or of a search or a graph walk.
type Recorder struct {
	array    []any // int64, float64 or string
	ids      []int
	nextID   int
	sorted   map[int]bool
	visited  []int
	frontier []int
	current  *int
}

// NewRecorder copies items; element k gets the id k.
func NewRecorder[T Element](items []T) *Recorder {
	rec := &Recorder{sorted: map[int]bool{}}
	for _, item := range items {
		rec.array = append(rec.array, normalized(any(item)))
		rec.ids = append(rec.ids, rec.nextID)
		rec.nextID++
	}
	return rec
}

// NewSearchRecorder is a recorder with no elements, for the search form.
func NewSearchRecorder() *Recorder { return &Recorder{sorted: map[int]bool{}} }

// NewGraphRecorder is a recorder with no elements, for the graph form.
func NewGraphRecorder() *Recorder { return &Recorder{sorted: map[int]bool{}} }

func normalized(item any) any {
	value := reflect.ValueOf(item)
	switch value.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return value.Int()
	case reflect.Uint8, reflect.Uint16, reflect.Uint32:
		return int64(value.Uint())
	case reflect.Float32, reflect.Float64:
		return checked(value.Float())
	case reflect.String:
		return value.String()
	}
	panic("dsa: the recorder keeps integers, floating-point numbers or strings, not " + value.Type().String())
}

func checked(value float64) float64 {
	if math.IsNaN(value) {
		panic("dsa: the recorder cannot write NaN: JSON has no NaN or Infinity")
	}
	if math.IsInf(value, 0) {
		panic("dsa: the recorder cannot write Infinity: JSON has no NaN or Infinity")
	}
	return value
}

// Len is the number of elements.
func (rec *Recorder) Len() int { return len(rec.array) }

// Int is element i as an int (for integer elements).
func (rec *Recorder) Int(i int) int { return int(rec.array[i].(int64)) }

// Float is element i as a float64.
func (rec *Recorder) Float(i int) float64 {
	if value, ok := rec.array[i].(int64); ok {
		return float64(value)
	}
	return rec.array[i].(float64)
}

// Str is element i as a string (for string elements).
func (rec *Recorder) Str(i int) string { return rec.array[i].(string) }

// Ints is a copy of the current values, for integer elements.
func (rec *Recorder) Ints() []int {
	out := make([]int, len(rec.array))
	for i := range out {
		out[i] = rec.Int(i)
	}
	return out
}

// Floats is a copy of the current values as float64.
func (rec *Recorder) Floats() []float64 {
	out := make([]float64, len(rec.array))
	for i := range out {
		out[i] = rec.Float(i)
	}
	return out
}

// Strings is a copy of the current values, for string elements.
func (rec *Recorder) Strings() []string {
	out := make([]string, len(rec.array))
	for i := range out {
		out[i] = rec.Str(i)
	}
	return out
}

// IDs is a copy of the current elements' ids, in the array's order.
func (rec *Recorder) IDs() []int { return append([]int(nil), rec.ids...) }

// Compare records a comparison of elements i and j.
func (rec *Recorder) Compare(i, j int, caption ...string) {
	text := "Compare index " + strconv.Itoa(i) + " (" + jsonText(rec.array[i]) + ") with index " +
		strconv.Itoa(j) + " (" + jsonText(rec.array[j]) + ")"
	rec.arrayStep("compare", []int{i, j}, pick(caption, text))
}

// Swap swaps elements i and j (values and ids), then records it.
func (rec *Recorder) Swap(i, j int, caption ...string) {
	rec.array[i], rec.array[j] = rec.array[j], rec.array[i]
	rec.ids[i], rec.ids[j] = rec.ids[j], rec.ids[i]
	rec.arrayStep("swap", []int{i, j}, pick(caption, "Swap index "+strconv.Itoa(i)+" and index "+strconv.Itoa(j)))
}

// Overwrite sets element i to value (an integer, a float or a string) with a fresh id, then records it.
func (rec *Recorder) Overwrite(i int, value any, caption ...string) {
	kept := normalized(value)
	rec.array[i] = kept
	rec.ids[i] = rec.nextID
	rec.nextID++
	rec.arrayStep("overwrite", []int{i}, pick(caption, "Write "+jsonText(kept)+" at index "+strconv.Itoa(i)))
}

// MarkSorted marks index i sorted; it writes no step of its own (the next step shows it).
func (rec *Recorder) MarkSorted(i int) {
	_ = rec.array[i] // an index out of range fails here, not at the next step
	rec.sorted[i] = true
}

// Done marks every index sorted and records the last step.
func (rec *Recorder) Done(caption ...string) {
	for i := range rec.array {
		rec.sorted[i] = true
	}
	rec.arrayStep("done", []int{}, pick(caption, "Done"))
}

func (rec *Recorder) arrayStep(action string, active []int, caption string) {
	sortedIndices := make([]int, 0, len(rec.sorted))
	for i := range rec.sorted {
		sortedIndices = append(sortedIndices, i)
	}
	sort.Ints(sortedIndices)
	var out strings.Builder
	begin(&out, action)
	out.WriteString(`,"active":`)
	writeInts(&out, active)
	out.WriteString(`,"array":[`)
	for i, value := range rec.array {
		if i > 0 {
			out.WriteByte(',')
		}
		out.WriteString(jsonText(value))
	}
	out.WriteString(`],"ids":`)
	writeInts(&out, rec.ids)
	out.WriteString(`,"sorted":`)
	writeInts(&out, sortedIndices)
	write(&out, caption)
}

// Probe records one probe of a search: the window low..high and its middle mid.
func (rec *Recorder) Probe(low, mid, high int, found bool, caption ...string) {
	text := "Probe index " + strconv.Itoa(mid) + ": low " + strconv.Itoa(low) + ", high " + strconv.Itoa(high)
	if found {
		text = "Found at index " + strconv.Itoa(mid)
	}
	rec.probe(low, strconv.Itoa(mid), high, found, pick(caption, text))
}

// ProbeEmpty records the end of a search whose window low..high is empty (mid is null).
func (rec *Recorder) ProbeEmpty(low, high int, caption ...string) {
	rec.probe(low, "null", high, false, pick(caption, "Empty window: low "+strconv.Itoa(low)+", high "+strconv.Itoa(high)))
}

func (rec *Recorder) probe(low int, mid string, high int, found bool, caption string) {
	var out strings.Builder
	begin(&out, "probe")
	out.WriteString(`,"low":` + strconv.Itoa(low) + `,"high":` + strconv.Itoa(high) + `,"mid":` + mid +
		`,"found":` + strconv.FormatBool(found))
	write(&out, caption)
}

// Visit takes node off the frontier (its first place there), marks it visited, makes it current.
func (rec *Recorder) Visit(node int, caption ...string) {
	for i, waiting := range rec.frontier {
		if waiting == node {
			rec.frontier = append(rec.frontier[:i:i], rec.frontier[i+1:]...)
			break
		}
	}
	rec.markVisited(node)
	rec.current = &node
	rec.graphStep("visit", pick(caption, "Visit node "+strconv.Itoa(node)))
}

// Discover marks node visited and puts it at the end of the frontier.
func (rec *Recorder) Discover(node int, caption ...string) {
	rec.markVisited(node)
	rec.frontier = append(rec.frontier, node)
	rec.graphStep("discover", pick(caption, "Discover node "+strconv.Itoa(node)))
}

// Visited is a copy of the nodes visited or discovered, in order.
func (rec *Recorder) Visited() []int { return append([]int(nil), rec.visited...) }

// Frontier is a copy of the nodes discovered and not yet visited, oldest first.
func (rec *Recorder) Frontier() []int { return append([]int(nil), rec.frontier...) }

func (rec *Recorder) markVisited(node int) {
	for _, seen := range rec.visited {
		if seen == node {
			return
		}
	}
	rec.visited = append(rec.visited, node)
}

func (rec *Recorder) graphStep(action, caption string) {
	var out strings.Builder
	begin(&out, action)
	out.WriteString(`,"current":`)
	if rec.current == nil {
		out.WriteString("null")
	} else {
		out.WriteString(strconv.Itoa(*rec.current))
	}
	out.WriteString(`,"visited":`)
	writeInts(&out, rec.visited)
	out.WriteString(`,"frontier":`)
	writeInts(&out, rec.frontier)
	write(&out, caption)
}

// Step records any other step: {"action": action, the fields (keys in order), "caption": ...}.
// Values are numbers, strings, booleans, nil, slices and maps of those.
func (rec *Recorder) Step(action string, fields map[string]any, caption ...string) {
	keys := make([]string, 0, len(fields))
	for key := range fields {
		if key != "action" && key != "caption" {
			keys = append(keys, key)
		}
	}
	sort.Strings(keys)
	var out strings.Builder
	begin(&out, action)
	for _, key := range keys {
		out.WriteString("," + quote(key) + ":" + jsonText(fields[key]))
	}
	write(&out, pick(caption, action))
}

func pick(caption []string, fallback string) string {
	if len(caption) > 0 {
		return caption[0]
	}
	return fallback
}

func begin(out *strings.Builder, action string) {
	if stepsWritten >= MaxSteps {
		panic("dsa: too many steps: the recorder keeps at most " + strconv.Itoa(MaxSteps))
	}
	out.WriteString(`@step {"action":` + quote(action))
}

func write(out *strings.Builder, caption string) {
	out.WriteString(`,"caption":` + quote(caption) + "}\n")
	stepsWritten++
	os.Stdout.WriteString(out.String())
}

func writeInts(out *strings.Builder, values []int) {
	out.WriteByte('[')
	for i, value := range values {
		if i > 0 {
			out.WriteByte(',')
		}
		out.WriteString(strconv.Itoa(value))
	}
	out.WriteByte(']')
}

func jsonText(value any) string {
	switch v := value.(type) {
	case nil:
		return "null"
	case bool:
		return strconv.FormatBool(v)
	case string:
		return quote(v)
	case int:
		return strconv.Itoa(v)
	case int64:
		return strconv.FormatInt(v, 10)
	case int32:
		return strconv.FormatInt(int64(v), 10)
	case float32:
		return floatText(float64(v))
	case float64:
		return floatText(v)
	case []int:
		parts := make([]string, len(v))
		for i, item := range v {
			parts[i] = strconv.Itoa(item)
		}
		return "[" + strings.Join(parts, ",") + "]"
	case []any:
		parts := make([]string, len(v))
		for i, item := range v {
			parts[i] = jsonText(item)
		}
		return "[" + strings.Join(parts, ",") + "]"
	case []string:
		parts := make([]string, len(v))
		for i, item := range v {
			parts[i] = quote(item)
		}
		return "[" + strings.Join(parts, ",") + "]"
	case []float64:
		parts := make([]string, len(v))
		for i, item := range v {
			parts[i] = floatText(item)
		}
		return "[" + strings.Join(parts, ",") + "]"
	case map[string]any:
		keys := make([]string, 0, len(v))
		for key := range v {
			keys = append(keys, key)
		}
		sort.Strings(keys)
		parts := make([]string, len(keys))
		for i, key := range keys {
			parts[i] = quote(key) + ":" + jsonText(v[key])
		}
		return "{" + strings.Join(parts, ",") + "}"
	}
	// Anything else by its kind: named numbers and strings, slices, arrays and maps of them.
	reflected := reflect.ValueOf(value)
	switch reflected.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.FormatInt(reflected.Int(), 10)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return strconv.FormatUint(reflected.Uint(), 10)
	case reflect.Float32, reflect.Float64:
		return floatText(reflected.Float())
	case reflect.String:
		return quote(reflected.String())
	case reflect.Bool:
		return strconv.FormatBool(reflected.Bool())
	case reflect.Slice, reflect.Array:
		parts := make([]string, reflected.Len())
		for i := range parts {
			parts[i] = jsonText(reflected.Index(i).Interface())
		}
		return "[" + strings.Join(parts, ",") + "]"
	case reflect.Map:
		keys := make([]string, 0, reflected.Len())
		byKey := map[string]any{}
		for _, key := range reflected.MapKeys() {
			text := key.String()
			if key.Kind() != reflect.String {
				text = jsonText(key.Interface())
			}
			keys = append(keys, text)
			byKey[text] = reflected.MapIndex(key).Interface()
		}
		sort.Strings(keys)
		parts := make([]string, len(keys))
		for i, key := range keys {
			parts[i] = quote(key) + ":" + jsonText(byKey[key])
		}
		return "{" + strings.Join(parts, ",") + "}"
	case reflect.Pointer, reflect.Interface:
		if reflected.IsNil() {
			return "null"
		}
		return jsonText(reflected.Elem().Interface())
	}
	panic("dsa: the recorder cannot write a " + reflected.Type().String() + " as JSON")
}

func floatText(value float64) string {
	text := strconv.FormatFloat(checked(value), 'g', -1, 64)
	if !strings.ContainsAny(text, ".eEn") {
		text += ".0"
	}
	return text
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
		case r == '\r':
			out.WriteString(`\r`)
		case r == '\t':
			out.WriteString(`\t`)
		case r < 0x20:
			out.WriteString(`\u00`)
			out.WriteByte("0123456789abcdef"[r>>4])
			out.WriteByte("0123456789abcdef"[r&15])
		default:
			out.WriteRune(r)
		}
	}
	out.WriteByte('"')
	return out.String()
}
