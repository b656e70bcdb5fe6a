package main

// low and high are the open range set by the ancestors; nil is "no bound".
func within(node *TreeNode, low, high *int) bool {
	if node == nil {
		return true
	}
	if (low != nil && node.Val <= *low) || (high != nil && node.Val >= *high) {
		return false
	}
	return within(node.Left, low, &node.Val) && within(node.Right, &node.Val, high)
}

func IsValidBst(root *TreeNode) bool {
	return within(root, nil, nil)
}
