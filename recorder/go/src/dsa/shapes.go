package dsa

import (
	"strconv"
	"strings"
)

// The shape recorders: one object per structure (docs/challenges.md, "Step shapes") keeps the
// structure and its ids (given in creation order, never reused). A call that is one step by
// nature (Push, Pop, Union, Fill, Probe...) writes it; an edit an algorithm makes several of
// before one picture (a relink, a rotation, a move) is silent, and Step(action) writes the
// structure as it is then. A node id that is no node is None (-1).

// None is the id of no node: a null next, left, right, head, root or pointer.
const None = -1

// stepLine writes one step's fields in the order they are added.
type stepLine struct{ out strings.Builder }

func newStep(action string) *stepLine {
	line := &stepLine{}
	begin(&line.out, action)
	return line
}

func (line *stepLine) raw(name, text string) *stepLine {
	line.out.WriteString("," + quote(name) + ":" + text)
	return line
}

func (line *stepLine) value(name string, value any) *stepLine { return line.raw(name, jsonText(value)) }

func (line *stepLine) ints(name string, values []int) *stepLine {
	var text strings.Builder
	writeInts(&text, values)
	return line.raw(name, text.String())
}

func (line *stepLine) finish(caption string) { write(&line.out, caption) }

func idText(id int) string {
	if id == None {
		return "null"
	}
	return strconv.Itoa(id)
}

func valuesText(values []any) string {
	parts := make([]string, len(values))
	for i, value := range values {
		parts[i] = jsonText(value)
	}
	return "[" + strings.Join(parts, ",") + "]"
}

func normalizedAll[T Element](values []T) []any {
	out := make([]any, len(values))
	for i, value := range values {
		out[i] = normalized(any(value))
	}
	return out
}

// pointers keeps the algorithm's named node variables in the order they were first set.
type pointers struct {
	names []string
	ids   map[string]int
}

func (p *pointers) set(name string, id int) {
	if p.ids == nil {
		p.ids = map[string]int{}
	}
	if _, known := p.ids[name]; !known {
		p.names = append(p.names, name)
	}
	p.ids[name] = id
}

func (p *pointers) clear(id int) {
	for name, target := range p.ids {
		if target == id {
			p.ids[name] = None
		}
	}
}

func (p *pointers) text() string {
	parts := make([]string, len(p.names))
	for i, name := range p.names {
		parts[i] = quote(name) + ":" + idText(p.ids[name])
	}
	return "{" + strings.Join(parts, ",") + "}"
}

func checkID[T any](nodes []*T, id int, what string, orNone bool) int {
	if orNone && id == None {
		return id
	}
	if id < 0 || id >= len(nodes) || nodes[id] == nil {
		panic("dsa: no " + what + " " + strconv.Itoa(id) + ": ids are the ones the recorder gave")
	}
	return id
}

// ---- linked list ------------------------------------------------------------------------------

type listNode struct {
	value      any
	next, prev int
}

// ListRecorder records a linked list: nodes with ids, a head and the algorithm's pointers.
type ListRecorder struct {
	nodes      []*listNode
	head, tail int
	doubly     bool
	pointers   pointers
}

// NewListRecorder chains nodes 0 -> 1 -> ... holding values, with the head at 0 (None if empty).
func NewListRecorder[T Element](values []T) *ListRecorder { return newList(values, false) }

// NewDoublyListRecorder is NewListRecorder with a prev on each node and the list's tail.
func NewDoublyListRecorder[T Element](values []T) *ListRecorder { return newList(values, true) }

func newList[T Element](values []T, doubly bool) *ListRecorder {
	list := &ListRecorder{head: None, tail: None, doubly: doubly}
	previous := None
	for _, value := range values {
		node := list.Add(value)
		if previous == None {
			list.head = node
		} else {
			list.Link(previous, node)
			if doubly {
				list.LinkPrev(node, previous)
			}
		}
		previous = node
	}
	if doubly {
		list.tail = previous
	}
	return list
}

// Add makes a node linked to nothing and returns its id.
func (list *ListRecorder) Add(value any) int {
	list.nodes = append(list.nodes, &listNode{value: normalized(value), next: None, prev: None})
	return len(list.nodes) - 1
}

func (list *ListRecorder) node(id int) *listNode {
	return list.nodes[checkID(list.nodes, id, "node", false)]
}

// Link sets node's next to next (None for null).
func (list *ListRecorder) Link(node, next int) {
	list.node(node).next = checkID(list.nodes, next, "node", true)
}

// LinkPrev sets node's prev (None for null), in a doubly linked list.
func (list *ListRecorder) LinkPrev(node, prev int) {
	list.checkDoubly("LinkPrev")
	list.node(node).prev = checkID(list.nodes, prev, "node", true)
}

// SetTail sets a doubly linked list's tail (None for null).
func (list *ListRecorder) SetTail(node int) {
	list.checkDoubly("SetTail")
	list.tail = checkID(list.nodes, node, "node", true)
}

func (list *ListRecorder) checkDoubly(call string) {
	if !list.doubly {
		panic("dsa: " + call + " is for a doubly linked list: NewDoublyListRecorder")
	}
}

// SetHead sets the head (None for null).
func (list *ListRecorder) SetHead(node int) { list.head = checkID(list.nodes, node, "node", true) }

// Point sets the algorithm's pointer name (prev, curr, slow...) to a node id or None.
func (list *ListRecorder) Point(name string, node int) {
	list.pointers.set(name, checkID(list.nodes, node, "node", true))
}

// Remove takes the node out of the list; a link, the head or a pointer to it becomes None.
func (list *ListRecorder) Remove(node int) {
	list.node(node)
	list.nodes[node] = nil
	for _, other := range list.nodes {
		if other != nil && other.next == node {
			other.next = None
		}
		if other != nil && other.prev == node {
			other.prev = None
		}
	}
	if list.head == node {
		list.head = None
	}
	if list.tail == node {
		list.tail = None
	}
	list.pointers.clear(node)
}

// Head is the head's id, or None.
func (list *ListRecorder) Head() int { return list.head }

// Value is node's value.
func (list *ListRecorder) Value(node int) any { return list.node(node).value }

// Next is node's next, or None.
func (list *ListRecorder) Next(node int) int { return list.node(node).next }

// Tail is a doubly linked list's tail, or None.
func (list *ListRecorder) Tail() int { return list.tail }

// Prev is node's prev, or None.
func (list *ListRecorder) Prev(node int) int { return list.node(node).prev }

// Step writes the list; active (node ids) is left out when nil.
func (list *ListRecorder) Step(action string, active []int, caption ...string) {
	var nodes []string
	for id, node := range list.nodes {
		if node != nil {
			text := `{"id":` + strconv.Itoa(id) + `,"value":` + jsonText(node.value) + `,"next":` + idText(node.next)
			if list.doubly {
				text += `,"prev":` + idText(node.prev)
			}
			nodes = append(nodes, text+"}")
		}
	}
	line := newStep(action).raw("head", idText(list.head))
	if list.doubly {
		line.raw("tail", idText(list.tail))
	}
	line.raw("nodes", "["+strings.Join(nodes, ",")+"]").raw("pointers", list.pointers.text())
	if active != nil {
		for _, id := range active {
			checkID(list.nodes, id, "node", false)
		}
		line.ints("active", active)
	}
	line.finish(pick(caption, action))
}

// ---- binary tree ------------------------------------------------------------------------------

type treeNode struct {
	value       any
	left, right int
	height      *int
	span        []int
}

// TreeRecorder records a binary tree (search tree, AVL, segment tree).
type TreeRecorder struct {
	nodes    []*treeNode
	root     int
	pointers pointers
}

// NewTreeRecorder is an empty tree; the first node added becomes the root.
func NewTreeRecorder() *TreeRecorder { return &TreeRecorder{root: None} }

// Add makes a node linked to nothing and returns its id (the first one becomes the root).
func (tree *TreeRecorder) Add(value any) int {
	tree.nodes = append(tree.nodes, &treeNode{value: normalized(value), left: None, right: None})
	if len(tree.nodes) == 1 {
		tree.root = 0
	}
	return len(tree.nodes) - 1
}

func (tree *TreeRecorder) node(id int) *treeNode {
	return tree.nodes[checkID(tree.nodes, id, "node", false)]
}

// SetLeft sets node's left child (None for null).
func (tree *TreeRecorder) SetLeft(node, child int) {
	tree.node(node).left = checkID(tree.nodes, child, "node", true)
}

// SetRight sets node's right child (None for null).
func (tree *TreeRecorder) SetRight(node, child int) {
	tree.node(node).right = checkID(tree.nodes, child, "node", true)
}

// SetRoot sets the root (None for null).
func (tree *TreeRecorder) SetRoot(node int) { tree.root = checkID(tree.nodes, node, "node", true) }

// SetValue sets node's value.
func (tree *TreeRecorder) SetValue(node int, value any) { tree.node(node).value = normalized(value) }

// SetHeight sets an AVL node's height, written beside the node from now on.
func (tree *TreeRecorder) SetHeight(node, height int) { tree.node(node).height = &height }

// SetRange sets a segment tree node's range [low, high], written beside the node from now on.
func (tree *TreeRecorder) SetRange(node, low, high int) { tree.node(node).span = []int{low, high} }

// Point sets the algorithm's pointer name to a node id or None.
func (tree *TreeRecorder) Point(name string, node int) {
	tree.pointers.set(name, checkID(tree.nodes, node, "node", true))
}

// Remove takes the node out of the tree; a link, the root or a pointer to it becomes None.
func (tree *TreeRecorder) Remove(node int) {
	tree.node(node)
	tree.nodes[node] = nil
	for _, other := range tree.nodes {
		if other != nil && other.left == node {
			other.left = None
		}
		if other != nil && other.right == node {
			other.right = None
		}
	}
	if tree.root == node {
		tree.root = None
	}
	tree.pointers.clear(node)
}

// Root is the root's id, or None.
func (tree *TreeRecorder) Root() int { return tree.root }

// Value is node's value.
func (tree *TreeRecorder) Value(node int) any { return tree.node(node).value }

// Left is node's left child, or None.
func (tree *TreeRecorder) Left(node int) int { return tree.node(node).left }

// Right is node's right child, or None.
func (tree *TreeRecorder) Right(node int) int { return tree.node(node).right }

// Step writes the tree; active and visited (node ids) are left out when nil.
func (tree *TreeRecorder) Step(action string, active, visited []int, caption ...string) {
	var nodes []string
	for id, node := range tree.nodes {
		if node == nil {
			continue
		}
		text := `{"id":` + strconv.Itoa(id) + `,"value":` + jsonText(node.value) + `,"left":` + idText(node.left) +
			`,"right":` + idText(node.right)
		if node.height != nil {
			text += `,"height":` + strconv.Itoa(*node.height)
		}
		if node.span != nil {
			text += `,"range":` + jsonText(node.span)
		}
		nodes = append(nodes, text+"}")
	}
	line := newStep(action).raw("root", idText(tree.root)).raw("nodes", "["+strings.Join(nodes, ",")+"]")
	if len(tree.pointers.names) > 0 {
		line.raw("pointers", tree.pointers.text())
	}
	for _, ids := range []struct {
		name string
		ids  []int
	}{{"active", active}, {"visited", visited}} {
		if ids.ids != nil {
			for _, id := range ids.ids {
				checkID(tree.nodes, id, "node", false)
			}
			line.ints(ids.name, ids.ids)
		}
	}
	line.finish(pick(caption, action))
}

// ---- heap -------------------------------------------------------------------------------------

// HeapRecorder records a binary heap in array order (index i's children at 2i+1 and 2i+2).
type HeapRecorder struct {
	heap   []any
	ids    []int
	nextID int
}

// NewHeapRecorder copies values; element k gets the id k.
func NewHeapRecorder[T Element](values []T) *HeapRecorder {
	heap := &HeapRecorder{heap: normalizedAll(values)}
	for range values {
		heap.ids = append(heap.ids, heap.nextID)
		heap.nextID++
	}
	return heap
}

// Len is the number of elements.
func (heap *HeapRecorder) Len() int { return len(heap.heap) }

// Get is the value at index i.
func (heap *HeapRecorder) Get(i int) any { return heap.heap[i] }

// Heap is a copy of the values in array order.
func (heap *HeapRecorder) Heap() []any { return append([]any(nil), heap.heap...) }

// IDs is a copy of the ids in array order.
func (heap *HeapRecorder) IDs() []int { return append([]int(nil), heap.ids...) }

// Push appends value (a fresh id) at the end; sifting it up is the algorithm's compares and swaps.
func (heap *HeapRecorder) Push(value any, caption ...string) {
	kept := normalized(value)
	heap.heap = append(heap.heap, kept)
	heap.ids = append(heap.ids, heap.nextID)
	heap.nextID++
	heap.Step("push", []int{len(heap.heap) - 1}, pick(caption, "Push "+jsonText(kept)))
}

// Pop takes the root out, moves the last element to the root and returns the root's value.
func (heap *HeapRecorder) Pop(caption ...string) any {
	if len(heap.heap) == 0 {
		panic("dsa: pop from an empty heap")
	}
	value, last := heap.heap[0], len(heap.heap)-1
	heap.heap[0], heap.ids[0] = heap.heap[last], heap.ids[last]
	heap.heap, heap.ids = heap.heap[:last], heap.ids[:last]
	active := []int{}
	if last > 0 {
		active = []int{0}
	}
	heap.Step("pop", active, pick(caption, "Pop "+jsonText(value)))
	return value
}

// Compare records a comparison of indices i and j.
func (heap *HeapRecorder) Compare(i, j int, caption ...string) {
	text := "Compare index " + strconv.Itoa(i) + " (" + jsonText(heap.heap[i]) + ") with index " +
		strconv.Itoa(j) + " (" + jsonText(heap.heap[j]) + ")"
	heap.Step("compare", []int{i, j}, pick(caption, text))
}

// Swap swaps indices i and j (values and ids), then records it.
func (heap *HeapRecorder) Swap(i, j int, caption ...string) {
	heap.heap[i], heap.heap[j] = heap.heap[j], heap.heap[i]
	heap.ids[i], heap.ids[j] = heap.ids[j], heap.ids[i]
	heap.Step("swap", []int{i, j}, pick(caption, "Swap index "+strconv.Itoa(i)+" and index "+strconv.Itoa(j)))
}

// Step writes the heap with active indices (nil for none).
func (heap *HeapRecorder) Step(action string, active []int, caption ...string) {
	for _, i := range active {
		_ = heap.heap[i]
	}
	if active == nil {
		active = []int{}
	}
	newStep(action).raw("heap", valuesText(heap.heap)).ints("ids", heap.ids).ints("active", active).
		finish(pick(caption, action))
}

// ---- stack, queue, deque ----------------------------------------------------------------------

// StackRecorder records a stack, queue or deque (its kind, the step's list name): bottom to top,
// or front to back.
type StackRecorder struct {
	kind   string
	items  []any
	ids    []int
	nextID int
}

// NewStackRecorder copies values (kind "stack", "queue" or "deque"); element k gets the id k.
func NewStackRecorder[T Element](kind string, values []T) *StackRecorder {
	if kind != "stack" && kind != "queue" && kind != "deque" {
		panic("dsa: kind is stack, queue or deque, not " + quote(kind))
	}
	stack := &StackRecorder{kind: kind, items: normalizedAll(values)}
	for range values {
		stack.ids = append(stack.ids, stack.nextID)
		stack.nextID++
	}
	return stack
}

// Len is the number of elements.
func (stack *StackRecorder) Len() int { return len(stack.items) }

// Items is a copy of the values, bottom to top (front to back).
func (stack *StackRecorder) Items() []any { return append([]any(nil), stack.items...) }

// IDs is a copy of the ids in the same order.
func (stack *StackRecorder) IDs() []int { return append([]int(nil), stack.ids...) }

func (stack *StackRecorder) add(front bool, value any, action string, caption []string, before, after string) {
	kept := normalized(value)
	id := stack.nextID
	stack.nextID++
	if front {
		stack.items = append([]any{kept}, stack.items...)
		stack.ids = append([]int{id}, stack.ids...)
	} else {
		stack.items = append(stack.items, kept)
		stack.ids = append(stack.ids, id)
	}
	moved := `{"id":` + strconv.Itoa(id) + `,"value":` + jsonText(kept) + "}"
	stack.step(action, moved, pick(caption, before+jsonText(kept)+after))
}

func (stack *StackRecorder) take(front bool, action string, caption []string, before, after string) any {
	if len(stack.items) == 0 {
		panic("dsa: " + action + " from an empty " + stack.kind)
	}
	at := len(stack.items) - 1
	if front {
		at = 0
	}
	value, id := stack.items[at], stack.ids[at]
	stack.items = append(stack.items[:at:at], stack.items[at+1:]...)
	stack.ids = append(stack.ids[:at:at], stack.ids[at+1:]...)
	moved := `{"id":` + strconv.Itoa(id) + `,"value":` + jsonText(value) + "}"
	stack.step(action, moved, pick(caption, before+jsonText(value)+after))
	return value
}

// Push puts value on top (at the back).
func (stack *StackRecorder) Push(value any, caption ...string) {
	stack.add(false, value, "push", caption, "Push ", "")
}

// Pop takes the top (back) element off and returns it.
func (stack *StackRecorder) Pop(caption ...string) any {
	return stack.take(false, "pop", caption, "Pop ", "")
}

// Enqueue puts value at the back.
func (stack *StackRecorder) Enqueue(value any, caption ...string) {
	stack.add(false, value, "enqueue", caption, "Enqueue ", "")
}

// Dequeue takes the front element off and returns it.
func (stack *StackRecorder) Dequeue(caption ...string) any {
	return stack.take(true, "dequeue", caption, "Dequeue ", "")
}

// PushFront puts value at the front.
func (stack *StackRecorder) PushFront(value any, caption ...string) {
	stack.add(true, value, "push_front", caption, "Push ", " at the front")
}

// PushBack puts value at the back.
func (stack *StackRecorder) PushBack(value any, caption ...string) {
	stack.add(false, value, "push_back", caption, "Push ", " at the back")
}

// PopFront takes the front element off and returns it.
func (stack *StackRecorder) PopFront(caption ...string) any {
	return stack.take(true, "pop_front", caption, "Pop ", " from the front")
}

// PopBack takes the back element off and returns it.
func (stack *StackRecorder) PopBack(caption ...string) any {
	return stack.take(false, "pop_back", caption, "Pop ", " from the back")
}

// Peek records a look at the top of a stack, the front of a queue or deque (moved is null).
func (stack *StackRecorder) Peek(caption ...string) any {
	if len(stack.items) == 0 {
		panic("dsa: peek at an empty " + stack.kind)
	}
	value := stack.items[0]
	if stack.kind == "stack" {
		value = stack.items[len(stack.items)-1]
	}
	stack.step("peek", "null", pick(caption, "Peek "+jsonText(value)))
	return value
}

// Step writes the list as it is (moved is null).
func (stack *StackRecorder) Step(action string, caption ...string) {
	stack.step(action, "null", pick(caption, action))
}

func (stack *StackRecorder) step(action, moved, caption string) {
	newStep(action).raw(stack.kind, valuesText(stack.items)).ints("ids", stack.ids).raw("moved", moved).finish(caption)
}

// ---- hash map ---------------------------------------------------------------------------------

type mapEntry struct {
	key, value any
	bucket     int
	deleted    bool
}

// HashMapRecorder records a hash table's buckets; each entry gets an id when inserted.
type HashMapRecorder struct {
	buckets [][]int
	entries []*mapEntry
	key     any
	hash    *int64
	probe   []int
}

// NewHashMapRecorder is a table of bucketCount empty buckets.
func NewHashMapRecorder(bucketCount int) *HashMapRecorder {
	return &HashMapRecorder{buckets: make([][]int, bucketCount), probe: []int{}}
}

func (table *HashMapRecorder) entry(id int) *mapEntry {
	return table.entries[checkID(table.entries, id, "entry", false)]
}

// Start begins an operation on key: its key and hash are written from now on, the probe starts empty.
func (table *HashMapRecorder) Start(key any, hash int64) {
	table.key, table.hash, table.probe = normalized(key), &hash, []int{}
}

// Probe records a look at bucket.
func (table *HashMapRecorder) Probe(bucket int, caption ...string) {
	_ = table.buckets[bucket]
	table.probe = append(table.probe, bucket)
	table.Step("probe", nil, pick(caption, "Probe bucket "+strconv.Itoa(bucket)))
}

// Insert adds an entry at the end of bucket and returns its id.
func (table *HashMapRecorder) Insert(bucket int, key, value any, caption ...string) int {
	_ = table.buckets[bucket]
	entry := &mapEntry{key: normalized(key), value: normalized(value), bucket: bucket}
	table.entries = append(table.entries, entry)
	id := len(table.entries) - 1
	table.buckets[bucket] = append(table.buckets[bucket], id)
	table.Step("insert", []int{id}, pick(caption, "Put "+jsonText(entry.key)+" in bucket "+strconv.Itoa(bucket)))
	return id
}

func (table *HashMapRecorder) unplace(id int) {
	entry := table.entry(id)
	bucket := table.buckets[entry.bucket]
	for i, other := range bucket {
		if other == id {
			table.buckets[entry.bucket] = append(bucket[:i:i], bucket[i+1:]...)
			return
		}
	}
}

// Remove takes the entry out of its bucket.
func (table *HashMapRecorder) Remove(id int, caption ...string) {
	key := table.entry(id).key
	table.unplace(id)
	table.Step("remove", []int{id}, pick(caption, "Remove "+jsonText(key)))
	table.entries[id] = nil
}

// SetValue sets the entry's value (no step).
func (table *HashMapRecorder) SetValue(id int, value any) { table.entry(id).value = normalized(value) }

// MarkDeleted is open addressing's delete: the entry stays in its bucket as a tombstone
// ("deleted": true).
func (table *HashMapRecorder) MarkDeleted(id int, caption ...string) {
	entry := table.entry(id)
	entry.deleted = true
	table.Step("delete", []int{id}, pick(caption, "Delete "+jsonText(entry.key)+": a tombstone stays"))
}

// Resize grows the table to bucketCount buckets (entries stay where they are until moved).
func (table *HashMapRecorder) Resize(bucketCount int) {
	if bucketCount < len(table.buckets) {
		panic("dsa: a hash map grows: move the entries, then resize to more buckets")
	}
	for len(table.buckets) < bucketCount {
		table.buckets = append(table.buckets, nil)
	}
}

// Move moves the entry to the end of bucket (a rehash); no step.
func (table *HashMapRecorder) Move(id, bucket int) {
	_ = table.buckets[bucket]
	table.unplace(id)
	table.buckets[bucket] = append(table.buckets[bucket], id)
	table.entry(id).bucket = bucket
}

// Key is the entry's key.
func (table *HashMapRecorder) Key(id int) any { return table.entry(id).key }

// Value is the entry's value.
func (table *HashMapRecorder) Value(id int) any { return table.entry(id).value }

// Bucket is a copy of the ids of bucket's entries, in order.
func (table *HashMapRecorder) Bucket(bucket int) []int {
	return append([]int{}, table.buckets[bucket]...)
}

// Step writes the table; active (entry ids) is left out when nil.
func (table *HashMapRecorder) Step(action string, active []int, caption ...string) {
	buckets := make([]string, len(table.buckets))
	for i, bucket := range table.buckets {
		entries := make([]string, len(bucket))
		for j, id := range bucket {
			entry := table.entries[id]
			entries[j] = `{"id":` + strconv.Itoa(id) + `,"key":` + jsonText(entry.key) + `,"value":` + jsonText(entry.value)
			if entry.deleted {
				entries[j] += `,"deleted":true`
			}
			entries[j] += "}"
		}
		buckets[i] = "[" + strings.Join(entries, ",") + "]"
	}
	line := newStep(action).raw("buckets", "["+strings.Join(buckets, ",")+"]").value("key", table.key).
		value("hash", table.hash).ints("probe", table.probe)
	if active != nil {
		for _, id := range active {
			table.entry(id)
		}
		line.ints("active", active)
	}
	line.finish(pick(caption, action))
}

// ---- DP table ---------------------------------------------------------------------------------

// TableRecorder records a DP table, 1-D or 2-D; a cell not computed yet is null.
type TableRecorder struct {
	cells                []any
	rows, cols           int
	flat                 bool
	rowLabels, colLabels []string
}

// NewTableRecorder is a table of size[0] cells (1-D) or size[0] rows of size[1] cells (2-D).
func NewTableRecorder(size ...int) *TableRecorder {
	switch len(size) {
	case 1:
		return &TableRecorder{cells: make([]any, size[0]), rows: size[0], cols: 1, flat: true}
	case 2:
		return &TableRecorder{cells: make([]any, size[0]*size[1]), rows: size[0], cols: size[1]}
	}
	panic("dsa: a table has one size (1-D) or two (rows, columns)")
}

// WithLabels sets the row and column headers (nil for none) and returns the table.
func (table *TableRecorder) WithLabels(rowLabels, colLabels []string) *TableRecorder {
	table.rowLabels, table.colLabels = rowLabels, colLabels
	return table
}

func (table *TableRecorder) at(cell []int) int {
	if table.flat && len(cell) == 1 && cell[0] >= 0 && cell[0] < table.rows {
		return cell[0]
	}
	if !table.flat && len(cell) == 2 && cell[0] >= 0 && cell[0] < table.rows && cell[1] >= 0 && cell[1] < table.cols {
		return cell[0]*table.cols + cell[1]
	}
	panic("dsa: no cell " + jsonText(cell) + " in this table")
}

// Get is the cell's value (nil when not computed yet).
func (table *TableRecorder) Get(cell ...int) any { return table.cells[table.at(cell)] }

// Set sets a cell without a step (base cases before the first step).
func (table *TableRecorder) Set(cell []int, value any) {
	table.cells[table.at(cell)] = normalized(value)
}

// Fill sets cell ([i] or [row, column]) to value, computed from the cells reads.
func (table *TableRecorder) Fill(cell []int, value any, reads [][]int, caption ...string) {
	table.Set(cell, value)
	readTexts := make([]string, len(reads))
	for i, read := range reads {
		table.at(read)
		readTexts[i] = jsonText(read)
	}
	where := make([]string, len(cell))
	for i, index := range cell {
		where[i] = strconv.Itoa(index)
	}
	text := "Cell (" + strings.Join(where, ",") + ") = " + jsonText(table.cells[table.at(cell)])
	table.step("fill", jsonText(cell), "["+strings.Join(readTexts, ",")+"]", pick(caption, text))
}

// Step writes the table as it is (cell null, reads empty).
func (table *TableRecorder) Step(action string, caption ...string) {
	table.step(action, "null", "[]", pick(caption, action))
}

func (table *TableRecorder) step(action, cell, reads, caption string) {
	text := valuesText(table.cells)
	if !table.flat {
		rows := make([]string, table.rows)
		for row := range rows {
			rows[row] = valuesText(table.cells[row*table.cols : (row+1)*table.cols])
		}
		text = "[" + strings.Join(rows, ",") + "]"
	}
	line := newStep(action).raw("table", text)
	if table.rowLabels != nil {
		line.value("row_labels", table.rowLabels)
	}
	if table.colLabels != nil {
		line.value("col_labels", table.colLabels)
	}
	line.raw("cell", cell).raw("reads", reads).finish(caption)
}

// ---- string matching --------------------------------------------------------------------------

// MatchRecorder records string matching of a pattern in a text (naive, KMP, Rabin-Karp), indexed
// by character (code point).
type MatchRecorder struct {
	text, pattern           []rune
	offset, index           int
	found, failure          []int
	windowHash, patternHash *int64
}

// NewMatchRecorder records the search of pattern in text.
func NewMatchRecorder(text, pattern string) *MatchRecorder {
	return &MatchRecorder{text: []rune(text), pattern: []rune(pattern), index: None, found: []int{}}
}

// Found is a copy of the offsets matched so far.
func (match *MatchRecorder) Found() []int { return append([]int(nil), match.found...) }

// SetFailure sets KMP's failure table, written with every step from now on (with failure_at).
func (match *MatchRecorder) SetFailure(failure []int) { match.failure = append([]int{}, failure...) }

// Compare records the comparison of text[offset+index] with pattern[index].
func (match *MatchRecorder) Compare(offset, index int, caption ...string) {
	text := "Compare text[" + strconv.Itoa(offset+index) + "] (" + quote(string(match.text[offset+index])) +
		") with pattern[" + strconv.Itoa(index) + "] (" + quote(string(match.pattern[index])) + ")"
	match.offset, match.index = offset, index
	match.step("compare", None, pick(caption, text))
}

// Shift slides the pattern to offset, going on at pattern[index].
func (match *MatchRecorder) Shift(offset, index int, caption ...string) {
	match.offset, match.index = offset, index
	match.step("shift", None, pick(caption, "Shift the pattern to offset "+strconv.Itoa(offset)))
}

// ShiftByFailure is KMP's move after a mismatch at pattern[j]: it goes on at failure[failureAt]
// (j - 1), the offset moving with it.
func (match *MatchRecorder) ShiftByFailure(failureAt int, caption ...string) {
	if match.failure == nil {
		panic("dsa: ShiftByFailure needs the failure table: call SetFailure first")
	}
	resume, index := match.failure[failureAt], match.index
	if index == None {
		index = 0
	}
	match.offset += index - resume
	match.index = resume
	match.step("shift", failureAt, pick(caption, "failure["+strconv.Itoa(failureAt)+"] is "+strconv.Itoa(resume)+
		": shift the pattern to offset "+strconv.Itoa(match.offset)))
}

// Match records that the pattern occurs at offset: it joins found.
func (match *MatchRecorder) Match(offset int, caption ...string) {
	match.offset = offset
	match.found = append(match.found, offset)
	match.step("found", None, pick(caption, "Found the pattern at offset "+strconv.Itoa(offset)))
}

// Hash records Rabin-Karp's window at offset; both hashes are written from now on.
func (match *MatchRecorder) Hash(offset int, windowHash, patternHash int64, caption ...string) {
	match.offset, match.index = offset, None
	match.windowHash, match.patternHash = &windowHash, &patternHash
	match.step("hash", None, pick(caption, "Offset "+strconv.Itoa(offset)+": window hash "+
		strconv.FormatInt(windowHash, 10)+", pattern hash "+strconv.FormatInt(patternHash, 10)))
}

// Step writes the matching as it is.
func (match *MatchRecorder) Step(action string, caption ...string) {
	match.step(action, None, pick(caption, action))
}

func (match *MatchRecorder) step(action string, failureAt int, caption string) {
	line := newStep(action).value("text", string(match.text)).value("pattern", string(match.pattern)).
		raw("offset", strconv.Itoa(match.offset)).raw("index", idText(match.index)).ints("found", match.found)
	if match.failure != nil {
		line.ints("failure", match.failure).raw("failure_at", idText(failureAt))
	}
	if match.windowHash != nil {
		line.value("window_hash", *match.windowHash).value("pattern_hash", *match.patternHash)
	}
	line.finish(caption)
}

// ---- union-find -------------------------------------------------------------------------------

// UnionFindRecorder records union-find over elements 0..n-1.
type UnionFindRecorder struct {
	parent, rank []int
	labels       []string
}

// NewUnionFindRecorder makes n sets of one element, with union by rank when byRank.
func NewUnionFindRecorder(n int, byRank bool) *UnionFindRecorder {
	sets := &UnionFindRecorder{parent: make([]int, n)}
	for i := range sets.parent {
		sets.parent[i] = i
	}
	if byRank {
		sets.rank = make([]int, n)
	}
	return sets
}

// WithLabels sets names for the elements and returns the union-find.
func (sets *UnionFindRecorder) WithLabels(labels []string) *UnionFindRecorder {
	sets.labels = labels
	return sets
}

// Parent is a copy of the parents.
func (sets *UnionFindRecorder) Parent() []int { return append([]int(nil), sets.parent...) }

// Rank is a copy of the ranks (nil without union by rank).
func (sets *UnionFindRecorder) Rank() []int {
	if sets.rank == nil {
		return nil
	}
	return append([]int(nil), sets.rank...)
}

// Root is x's root, changing nothing and writing no step.
func (sets *UnionFindRecorder) Root(x int) int {
	for sets.parent[x] != x {
		x = sets.parent[x]
	}
	return x
}

// Find is x's root, with path compression (every element on the way then points at the root).
func (sets *UnionFindRecorder) Find(x int, caption ...string) int {
	root := sets.Root(x)
	for at := x; sets.parent[at] != root; {
		sets.parent[at], at = root, sets.parent[at]
	}
	sets.Step("find", []int{x}, pick(caption, "Find "+strconv.Itoa(x)+": its root is "+strconv.Itoa(root)))
	return root
}

// Union joins a's and b's sets (the root of lower rank goes under the other; without ranks, b's
// root under a's); it returns false when they were one set already.
func (sets *UnionFindRecorder) Union(a, b int, caption ...string) bool {
	rootA, rootB := sets.Root(a), sets.Root(b)
	text := "Union " + strconv.Itoa(a) + " and " + strconv.Itoa(b)
	if rootA == rootB {
		text = strconv.Itoa(a) + " and " + strconv.Itoa(b) + " are already in one set"
	} else {
		upper, lower := rootA, rootB
		if sets.rank != nil {
			if sets.rank[upper] < sets.rank[lower] {
				upper, lower = lower, upper
			}
			if sets.rank[upper] == sets.rank[lower] {
				sets.rank[upper]++
			}
		}
		sets.parent[lower] = upper
	}
	sets.Step("union", []int{rootA, rootB}, pick(caption, text))
	return rootA != rootB
}

// SetParent sets x's parent (no step).
func (sets *UnionFindRecorder) SetParent(x, parent int) {
	_ = sets.parent[parent]
	sets.parent[x] = parent
}

// SetRank sets x's rank (no step).
func (sets *UnionFindRecorder) SetRank(x, rank int) {
	if sets.rank == nil {
		panic("dsa: this union-find has no ranks (byRank false)")
	}
	sets.rank[x] = rank
}

// Step writes the forest; active (elements) is left out when nil.
func (sets *UnionFindRecorder) Step(action string, active []int, caption ...string) {
	line := newStep(action).ints("parent", sets.parent)
	if sets.rank != nil {
		line.ints("rank", sets.rank)
	}
	if sets.labels != nil {
		line.value("labels", sets.labels)
	}
	if active != nil {
		for _, x := range active {
			_ = sets.parent[x]
		}
		line.ints("active", active)
	}
	line.finish(pick(caption, action))
}
