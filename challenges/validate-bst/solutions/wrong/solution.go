package main

func IsValidBst(root *TreeNode) bool {
	// Wrong on purpose: compares each node with its own children only, not with the bounds set by its ancestors.
	if root == nil {
		return true
	}
	if root.Left != nil && root.Left.Val >= root.Val {
		return false
	}
	if root.Right != nil && root.Right.Val <= root.Val {
		return false
	}
	return IsValidBst(root.Left) && IsValidBst(root.Right)
}
