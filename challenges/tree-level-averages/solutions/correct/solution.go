package main

func LevelAverages(root *TreeNode) []float64 {
	averages := []float64{}
	level := []*TreeNode{}
	if root != nil {
		level = append(level, root)
	}
	for len(level) > 0 {
		sum := 0
		next := []*TreeNode{}
		for _, node := range level {
			sum += node.Val
			if node.Left != nil {
				next = append(next, node.Left)
			}
			if node.Right != nil {
				next = append(next, node.Right)
			}
		}
		averages = append(averages, float64(sum)/float64(len(level)))
		level = next
	}
	return averages
}
