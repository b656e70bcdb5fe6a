package main

import (
	"dsa"
	"fmt"
)

func Inorder(root *TreeNode) []int {
	rec := dsa.NewGraphRecorder()
	// Ids in level order (root 0, then each level left to right), as the test's array lists them.
	ids := map[*TreeNode]int{}
	order := []*TreeNode{}
	if root != nil {
		order = append(order, root)
	}
	for next := 0; next < len(order); next++ { // order doubles as the breadth-first queue
		ids[order[next]] = next
		for _, child := range []*TreeNode{order[next].Left, order[next].Right} {
			if child != nil {
				order = append(order, child)
			}
		}
	}
	idOf := func(node *TreeNode) any {
		if node == nil {
			return nil
		}
		return ids[node]
	}
	nodes := make([]any, len(order))
	for id, node := range order {
		nodes[id] = map[string]any{"id": id, "value": node.Val, "left": idOf(node.Left), "right": idOf(node.Right)}
	}
	visited := []int{}
	values := []int{}
	fields := func(active []int) map[string]any {
		return map[string]any{"root": idOf(root), "nodes": nodes, "active": active, "visited": append([]int{}, visited...)}
	}
	var walk func(node *TreeNode)
	walk = func(node *TreeNode) {
		if node == nil {
			return
		}
		// Wrong on purpose: the node is visited before its left subtree (pre-order).
		visited = append(visited, ids[node])
		values = append(values, node.Val)
		rec.Step("visit", fields([]int{ids[node]}), fmt.Sprintf("Visit %d", node.Val))
		walk(node.Left)
		walk(node.Right)
	}
	walk(root)
	rec.Step("done", fields([]int{}), "Every node visited")
	return values
}
