package main

import (
	"dsa"
	"fmt"
)

// avlTree: node k (the k-th value inserted) keeps id k; -1 is "no node".
type avlTree struct {
	rec                 *dsa.Recorder
	value               []int
	left, right, height []int
	root                int
}

func (t *avlTree) h(x int) int {
	if x == -1 {
		return 0
	}
	return t.height[x]
}

func (t *avlTree) update(x int) { t.height[x] = 1 + max(t.h(t.left[x]), t.h(t.right[x])) }

func (t *avlTree) record(action string, active int, caption string) {
	drawn := make([]int, len(t.value)) // the heights in the tree as drawn, whatever is stored yet
	var fill func(x int) int
	fill = func(x int) int {
		if x == -1 {
			return 0
		}
		drawn[x] = 1 + max(fill(t.left[x]), fill(t.right[x]))
		return drawn[x]
	}
	fill(t.root)
	id := func(x int) any {
		if x == -1 {
			return nil
		}
		return x
	}
	nodes := make([]any, len(t.value))
	for k := range t.value {
		nodes[k] = map[string]any{"id": k, "value": t.value[k], "left": id(t.left[k]), "right": id(t.right[k]), "height": drawn[k]}
	}
	t.rec.Step(action, map[string]any{"root": t.root, "nodes": nodes, "active": []int{active}}, caption)
}

func (t *avlTree) rotate(z, parent int, toLeft bool) { // z's child moves up into z's place
	var y int
	direction := "right"
	if toLeft {
		direction = "left"
		y = t.right[z]
		t.right[z] = t.left[y]
		t.left[y] = z
	} else {
		y = t.left[z]
		t.left[z] = t.right[y]
		t.right[y] = z
	}
	t.update(z)
	t.update(y)
	if parent == -1 {
		t.root = y
	} else if t.left[parent] == z {
		t.left[parent] = y
	} else {
		t.right[parent] = y
	}
	t.record("rotate", z, fmt.Sprintf("Rotate %s at %d", direction, t.value[z]))
}

func (t *avlTree) insert(v int) {
	node := len(t.value)
	t.value = append(t.value, v)
	t.left = append(t.left, -1)
	t.right = append(t.right, -1)
	t.height = append(t.height, 1)
	path := []int{} // from the root down to the new node's parent
	if t.root == -1 {
		t.root = node
	} else {
		for current := t.root; current != -1; {
			path = append(path, current)
			if v < t.value[current] {
				current = t.left[current]
			} else {
				current = t.right[current]
			}
		}
		parent := path[len(path)-1]
		if v < t.value[parent] {
			t.left[parent] = node
		} else {
			t.right[parent] = node // ties go right
		}
	}
	t.record("insert", node, fmt.Sprintf("Insert %d", v))
	for depth := len(path) - 1; depth >= 0; depth-- { // back up the path: heights, then balance
		z, parent := path[depth], -1
		if depth > 0 {
			parent = path[depth-1]
		}
		t.update(z)
		balance := t.h(t.left[z]) - t.h(t.right[z])
		if balance > 1 {
			if t.h(t.left[t.left[z]]) < t.h(t.right[t.left[z]]) { // left-right: two rotations
				t.rotate(t.left[z], z, true)
			}
			t.rotate(z, parent, false)
		} else if balance < -1 {
			if t.h(t.right[t.right[z]]) < t.h(t.left[t.right[z]]) { // right-left
				t.rotate(t.right[z], z, false)
			}
			t.rotate(z, parent, true)
		}
	}
}

func (t *avlTree) toTree(x int) *TreeNode {
	if x == -1 {
		return nil
	}
	return &TreeNode{Val: t.value[x], Left: t.toTree(t.left[x]), Right: t.toTree(t.right[x])}
}

func AvlInsertAll(values []int) *TreeNode {
	t := &avlTree{rec: dsa.NewGraphRecorder(), root: -1}
	for _, v := range values {
		t.insert(v)
	}
	return t.toTree(t.root)
}
